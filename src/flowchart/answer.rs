//! A diagram inside a Markdown answer, as image-to-diagram models write it:
//! the first fenced block (```` ``` ```` or `~~~`) tagged with a diagram
//! language decides the answer's format, whatever blocks follow; text
//! around it is ignored with a warning (docs/formats.md, "Markdown
//! answers").

use crate::diagnostics::FileDiagnostics;

/// The diagram languages a fence's tag names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    Mermaid,
    /// Graphviz DOT: the tags `dot`, `graphviz` and `gv`.
    Dot,
}

impl Language {
    fn of_tag(tag: &str) -> Option<Self> {
        let tag = tag.to_ascii_lowercase();
        match tag.as_str() {
            "mermaid" => Some(Language::Mermaid),
            "dot" | "graphviz" | "gv" => Some(Language::Dot),
            _ => None,
        }
    }
}

/// The first diagram block of a Markdown text.
#[derive(Debug)]
pub struct Block<'a> {
    pub language: Language,
    /// The 0-based index of the block's first line in the text (the line
    /// after the opening fence).
    pub first: usize,
    pub lines: Vec<&'a str>,
}

/// The first fenced block of `text` tagged with a diagram language; `None`
/// when there is none. A block never closed runs to the end of the text.
pub fn first_block(text: &str) -> Option<Block<'_>> {
    let fenced = |fence: &[u8]| memchr::memmem::find(text.as_bytes(), fence).is_some();
    if !fenced(b"```") && !fenced(b"~~~") {
        return None;
    }
    let lines: Vec<&str> = text.lines().collect();
    let (open, language) = lines.iter().enumerate().find_map(|(i, l)| {
        let t = l.trim_start();
        let rest = t.strip_prefix("```").or_else(|| t.strip_prefix("~~~"))?;
        let tag = rest.trim_start_matches(['`', '~']).trim();
        // ```` ```mermaid title="x" ```` or ```` ```{dot} ````: the first word.
        let word = tag
            .trim_start_matches('{')
            .split(|c: char| c.is_whitespace() || c == '}' || c == ',')
            .next()
            .unwrap_or_default();
        Some((i, Language::of_tag(word)?))
    })?;
    let marker: String = lines
        .get(open)?
        .trim_start()
        .chars()
        .take_while(|&c| c == '`' || c == '~')
        .collect();
    let body: Vec<&str> = (lines.iter().skip(open + 1))
        .take_while(|l| !l.trim_start().starts_with(marker.as_str()))
        .copied()
        .collect();
    Some(Block {
        language,
        first: open + 1,
        lines: body,
    })
}

/// Warns once, at the block's first line, when `text` holds anything but
/// blanks outside `block` (its fences aside).
pub fn warn_outside(text: &str, block: &Block, sink: &mut FileDiagnostics) {
    let (first, len) = (block.first, block.lines.len());
    let outside = text
        .lines()
        .enumerate()
        .any(|(i, l)| (i + 1 < first || i > first + len) && !l.trim().is_empty());
    if outside {
        let tag = match block.language {
            Language::Mermaid => "mermaid",
            Language::Dot => "dot",
        };
        sink.warning(
            Some(first),
            format!("text outside the ```{tag} block is ignored"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_diagram_block_decides() {
        let text = "Here it is:\n```python\nx = 1\n```\n```DOT\ndigraph { a -> b }\n```\n```mermaid\ngraph TD\n```\n";
        let block = first_block(text).unwrap();
        assert_eq!(block.language, Language::Dot);
        assert_eq!(block.first, 5);
        assert_eq!(block.lines, vec!["digraph { a -> b }"]);
        let tilde = first_block("~~~~ graphviz\ngraph { a -- b }\n~~~~\n").unwrap();
        assert_eq!(tilde.language, Language::Dot);
        assert_eq!(tilde.lines, vec!["graph { a -- b }"]);
        let unclosed = first_block("```mermaid\ngraph TD\nA-->B").unwrap();
        assert_eq!(unclosed.lines, vec!["graph TD", "A-->B"]);
        assert!(first_block("no block\n```\ngraph TD\n```").is_none());
    }
}
