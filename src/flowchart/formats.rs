//! The flowchart file formats, registered in one table ([`FORMATS`]): each
//! a name, the extensions its files carry, a sniffer that tells its bytes
//! from another format's, a reader that gives the [`Flowchart`] with
//! its diagnostics, and a writer (`clefeval convert`). Every entry point
//! reads flowcharts through this table
//! — folders are listed for every format's extensions, a file is read by
//! its format ([`read_file`]), a text given without a file name by the
//! format its bytes claim ([`read_text`]) — so a new format is one reader
//! module and one line here, and reaches `flowchart`, `validate`,
//! `report`, Python and C at once.

use super::model::Flowchart;
use super::parse::{self, MAX_FILE_BYTES, ParseOptions, Parsed};
use crate::diagnostics::Diagnostic;
use crate::inputs::{Skipped, collect_files, skipped_in};
use std::path::{Path, PathBuf};

/// A flowchart file format.
#[derive(Debug)]
pub struct Format {
    /// The name the docs and messages use.
    pub name: &'static str,
    /// The short name Python's and C's `format` and `convert --to` take.
    pub key: &'static str,
    /// The extensions of its files, lowercase, without the dot.
    pub extensions: &'static [&'static str],
    /// Whether bytes look like this format: among the formats a file's
    /// extension allows (or every format, for a text), the first that
    /// claims the bytes reads them.
    pub sniff: fn(&[u8]) -> bool,
    /// Reads the bytes of a file named `file` (for diagnostics). Called
    /// through [`read_as`], which adds the limits every format shares.
    pub read: fn(bytes: &[u8], file: &str, options: &ParseOptions) -> Parsed,
    /// Writes a flowchart as a file of this format (`clefeval convert`);
    /// its first extension names the file.
    pub write: fn(&Flowchart) -> String,
}

/// Every flowchart format, the CLEF-IP 2012 text format first.
pub const FORMATS: &[Format] = &[
    Format {
        name: "CLEF-IP flowchart text",
        key: "clef",
        extensions: &["txt"],
        sniff: parse::looks_like,
        read: parse::parse,
        write: super::write::write,
    },
    Format {
        name: "Mermaid flowchart",
        key: "mermaid",
        extensions: &["mmd", "mermaid", "md", "txt"],
        sniff: super::mermaid::looks_like,
        read: super::mermaid::read,
        write: super::writers::mermaid::write,
    },
    Format {
        name: "Graphviz DOT graph",
        key: "dot",
        extensions: &["dot", "gv", "md", "txt"],
        sniff: super::dot::looks_like,
        read: super::dot::read,
        write: super::writers::dot::write,
    },
    Format {
        name: "GraphML graph",
        key: "graphml",
        extensions: &["graphml", "md", "txt"],
        sniff: super::graphml::looks_like,
        read: super::graphml::read,
        write: super::writers::graphml::write,
    },
    Format {
        name: "draw.io diagram",
        key: "drawio",
        extensions: &["drawio", "md", "txt"],
        sniff: super::drawio::looks_like,
        read: super::drawio::read,
        write: super::writers::drawio::write,
    },
    #[cfg(feature = "toy-format")]
    Format {
        name: "toy flowchart",
        key: "toy",
        extensions: &["toy"],
        sniff: super::toy::looks_like,
        read: super::toy::read,
        write: super::toy::write,
    },
];

/// Every extension a flowchart file may carry, in the table's order: the
/// extensions a folder is listed for.
pub fn extensions() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = Vec::new();
    for ext in FORMATS.iter().flat_map(|f| f.extensions) {
        if !all.contains(ext) {
            all.push(ext);
        }
    }
    all
}

/// Extensions whose files are flowchart files only when a format claims
/// their bytes: a Markdown file is an answer with a diagram block, or
/// prose (a README).
const CLAIMED_ONLY: &[&str] = &["md"];

/// The flowchart files named by `paths` ([`collect_files`] for every
/// format's extensions), the problems met listing them, and the files of
/// their folders left out: of no flowchart extension, or a Markdown file
/// with no diagram block.
pub fn listed(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<Diagnostic>, Vec<Skipped>) {
    let kind = flowchart_files();
    let (files, problems) = collect_files(paths, &extensions());
    let mut skipped = skipped_in(paths, &extensions(), &kind);
    let (files, prose): (Vec<PathBuf>, Vec<PathBuf>) = files.into_iter().partition(|f| {
        !CLAIMED_ONLY.contains(&crate::inputs::extension(f).as_str())
            || crate::inputs::read_limited(f, MAX_FILE_BYTES).map_or(true, |bytes| {
                FORMATS.iter().any(|format| (format.sniff)(&bytes))
            })
    });
    skipped.extend(
        prose
            .iter()
            .map(|f| Skipped::new(f, "no diagram block: not a flowchart file")),
    );
    skipped.sort_by(|a, b| a.file.cmp(&b.file));
    (files, problems, skipped)
}

/// What a gold folder or a run must hold, as messages say it:
/// `flowchart files (*.txt)`.
pub fn flowchart_files() -> String {
    let shown: Vec<String> = extensions().iter().map(|e| format!("*.{e}")).collect();
    format!("flowchart files ({})", shown.join(", "))
}

/// The format that reads `bytes` among `candidates`: the only one, or the
/// first whose sniffer claims them, else the first candidate (whose reader
/// then says what is wrong with them).
fn chosen<'a>(candidates: &[&'a Format], bytes: &[u8]) -> Option<&'a Format> {
    if let [only] = candidates {
        return Some(only);
    }
    (candidates.iter().find(|f| (f.sniff)(bytes)))
        .or(candidates.first())
        .copied()
}

/// The format of the file at `path` holding `bytes`: among the formats of
/// its extension (every format when none has it), the one
/// [`chosen`] for its bytes.
pub fn format_of(path: &Path, bytes: &[u8]) -> Option<&'static Format> {
    let ext = crate::inputs::extension(path);
    let mut by_extension: Vec<&Format> = (FORMATS.iter())
        .filter(|f| f.extensions.contains(&ext.as_str()))
        .collect();
    if by_extension.is_empty() {
        by_extension = FORMATS.iter().collect();
    }
    chosen(&by_extension, bytes)
}

/// Reads the flowchart file at `path` in its format. An unreadable or
/// too large file gives an empty flowchart and an error diagnostic, never
/// a panic.
pub fn read_file(path: &Path, options: &ParseOptions) -> Parsed {
    let name = path.display().to_string();
    let bytes = match crate::inputs::read_limited(path, MAX_FILE_BYTES) {
        Ok(bytes) => bytes,
        Err(e) => return unreadable(name, e),
    };
    match format_of(path, &bytes) {
        Some(format) => read_as(format, &bytes, &name, options),
        None => unreadable(name, "no flowchart format is known".into()),
    }
}

/// The format of short name `key` (`clef`, `mermaid`, `dot`, `graphml`,
/// `drawio`), or an error that lists them.
pub fn by_key(key: &str) -> Result<&'static Format, String> {
    FORMATS.iter().find(|f| f.key == key).ok_or_else(|| {
        let keys: Vec<&str> = FORMATS.iter().map(|f| f.key).collect();
        format!(
            "unknown flowchart format `{key}`: one of {}",
            keys.join(", ")
        )
    })
}

/// Reads the flowchart file at `path` in `format` whatever its name says.
pub fn read_file_as(path: &Path, format: &Format, options: &ParseOptions) -> Parsed {
    let name = path.display().to_string();
    match crate::inputs::read_limited(path, MAX_FILE_BYTES) {
        Ok(bytes) => read_as(format, &bytes, &name, options),
        Err(e) => unreadable(name, e),
    }
}

/// Reads a flowchart given as its bytes, with no file name to tell its
/// format (Python's and C's texts): the first format whose sniffer claims
/// the bytes, else the first format. `name` stands for it in diagnostics.
pub fn read_text(bytes: &[u8], name: &str, options: &ParseOptions) -> Parsed {
    let all: Vec<&Format> = FORMATS.iter().collect();
    match chosen(&all, bytes) {
        Some(format) => read_as(format, bytes, name, options),
        None => unreadable(name.to_string(), "no flowchart format is known".into()),
    }
}

/// The most characters of a node's or an edge's text: far above any
/// drawn box's text, low enough that scoring stays quick (comparing two
/// texts costs the product of their lengths, and the engine compares every
/// gold text with every submitted one).
pub const MAX_TEXT_CHARS: usize = 1000;

/// `bytes` read as `format` (every reading of a flowchart file or text
/// goes through here); a text longer than [`MAX_TEXT_CHARS`] is an error
/// at the line of its node or edge (the line that first names it), the
/// file rejected, whatever the format.
pub fn read_as(format: &Format, bytes: &[u8], name: &str, options: &ParseOptions) -> Parsed {
    let mut parsed = (format.read)(bytes, name, options);
    let flowchart = &parsed.flowchart;
    let nodes = (flowchart.nodes.iter()).map(|n| ("a node", n.text.as_deref(), n.line));
    let edges = (flowchart.edges.iter()).map(|e| ("an edge", e.text.as_deref(), e.line));
    let long: Vec<(&str, usize, usize)> = (nodes.chain(edges))
        .filter_map(|(kind, text, line)| {
            let chars = text?.chars().count();
            (chars > MAX_TEXT_CHARS).then_some((kind, chars, line))
        })
        .collect();
    if let Some(&(kind, chars, line)) = long.iter().min_by_key(|(_, _, line)| *line) {
        let more = match long.len() - 1 {
            0 => String::new(),
            n => format!(" (and {n} more)"),
        };
        let error = Diagnostic::error(
            name,
            (line > 0).then_some(line),
            format!(
                "{kind} text of {chars} characters; a text may have at most {MAX_TEXT_CHARS}{more}"
            ),
        );
        // In line order, before the closing count of a capped list.
        let list = &mut parsed.diagnostics;
        let capped = list.len() > crate::diagnostics::MAX_PER_FILE;
        let end = list.len() - usize::from(capped);
        let at = (list.iter().take(end))
            .position(|d| d.line.is_some_and(|l| l > line))
            .unwrap_or(end);
        list.insert(at, error);
        parsed.errors += 1;
    }
    parsed
}

/// An empty flowchart with one error naming `file`.
fn unreadable(file: String, message: String) -> Parsed {
    Parsed {
        diagnostics: vec![Diagnostic::error(file, None, message)],
        errors: 1,
        ..Parsed::default()
    }
}

/// What the readers' tests share: a text read by a format's reader,
/// shown as CLEF-IP text or as its diagnostics.
#[cfg(test)]
pub(crate) mod testing {
    use super::{ParseOptions, Parsed};

    pub type Read = fn(&[u8], &str, &ParseOptions) -> Parsed;

    /// The flowchart `text` reads as (no error allowed), written as
    /// CLEF-IP text: nodes by number, then edges in canonical order.
    pub fn clef(read: Read, file: &str, text: &str) -> String {
        let p = read(text.as_bytes(), file, &ParseOptions::default());
        assert_eq!(p.errors, 0, "{:?}", p.diagnostics);
        crate::flowchart::write(&p.flowchart)
    }

    /// Every diagnostic of `text`, as printed.
    pub fn messages(read: Read, file: &str, text: &str) -> Vec<String> {
        let p = read(text.as_bytes(), file, &ParseOptions::default());
        p.diagnostics.iter().map(ToString::to_string).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clef_ip_text_is_claimed_and_read_from_a_file_or_a_text() {
        let text = b"NO 1 oval \"START\"\nNO 2 oval \"END\"\nDE 1 2 plain\n";
        assert!(parse::looks_like(text));
        assert!(!parse::looks_like(b"flowchart TD\n  A --> B\n"));
        assert!(!parse::looks_like(b"\x89PNG\r\n"));
        let read = read_text(text, "<run>", &ParseOptions::default());
        assert_eq!(read.flowchart.size(), 3);
        let format = format_of(Path::new("x/FC-1.TXT"), text).unwrap();
        assert_eq!(format.name, "CLEF-IP flowchart text");
        #[cfg(not(feature = "toy-format"))]
        assert_eq!(
            extensions(),
            [
                "txt", "mmd", "mermaid", "md", "dot", "gv", "graphml", "drawio"
            ]
        );
    }

    #[test]
    fn a_text_longer_than_the_cap_is_an_error_at_its_line_in_every_format() {
        let options = ParseOptions::default();
        for chars in [MAX_TEXT_CHARS, MAX_TEXT_CHARS + 1] {
            // Characters, not bytes: `é` is two bytes.
            let long = "é".repeat(chars);
            let clef = format!("NO 1 oval \"{long}\"\nNO 2 oval \"END\"\nDE 1 2 plain\n");
            let read = parse::parse(clef.as_bytes(), "c.txt", &options);
            assert_eq!(read.errors, 0, "the reader alone has no cap");
            for format in FORMATS {
                let text = (format.write)(&read.flowchart);
                let p = read_as(format, text.as_bytes(), "f", &options);
                let messages: Vec<String> =
                    p.diagnostics.iter().map(|d| d.message.clone()).collect();
                if chars == MAX_TEXT_CHARS {
                    assert_eq!(p.errors, 0, "{}: {messages:?}", format.name);
                } else {
                    assert_eq!(p.errors, 1, "{}: {messages:?}", format.name);
                    let want =
                        format!("a node text of {chars} characters; a text may have at most 1000");
                    assert!(messages.contains(&want), "{}: {messages:?}", format.name);
                }
            }
        }
        // An edge's text on line 3 is named before a node's on line 6,
        // and the error stands in line order before the warning of line 5.
        let long = "x".repeat(MAX_TEXT_CHARS + 5);
        let clef = format!(
            "NO 1 oval \"A\"\nNO 2 oval \"B\"\nDE 1 2 plain \"{long}\"\nDE 2 1 plain \"{long}\"\nNO 3 blob \"C\"\nNO 4 oval \"{long}\"\n"
        );
        let p = read_text(clef.as_bytes(), "c.txt", &options);
        assert_eq!((p.errors, p.warnings), (1, 1), "{:?}", p.diagnostics);
        let lines: Vec<Option<usize>> = p.diagnostics.iter().map(|d| d.line).collect();
        assert_eq!(lines, [Some(3), Some(5)]);
        assert_eq!(
            p.diagnostics[0].message,
            "an edge text of 1005 characters; a text may have at most 1000 (and 2 more)"
        );
    }

    #[test]
    fn a_mermaid_diagram_is_read_by_its_extension_or_its_content() {
        let mermaid = b"flowchart TD\n  A --> B\n";
        for name in ["a.mmd", "a.MERMAID", "answer.md", "answer.txt"] {
            let format = format_of(Path::new(name), mermaid).unwrap();
            assert_eq!(format.name, "Mermaid flowchart", "{name}");
        }
        // A `.txt` of CLEF-IP records stays CLEF-IP text; a text given
        // without a name is read by what it holds.
        let clef = b"NO 1 oval \"A\"\n";
        assert_eq!(
            format_of(Path::new("a.txt"), clef).unwrap().name,
            "CLEF-IP flowchart text"
        );
        let read = read_text(mermaid, "<run>", &ParseOptions::default());
        assert_eq!(
            (read.flowchart.nodes.len(), read.flowchart.edges.len()),
            (2, 1)
        );
    }

    #[test]
    fn a_dot_graph_is_read_by_its_extension_or_its_content() {
        let dot = b"digraph { a -> b }";
        for name in ["a.dot", "a.GV", "answer.txt", "answer.md", "noext"] {
            let format = format_of(Path::new(name), dot).unwrap();
            assert_eq!(format.name, "Graphviz DOT graph", "{name}");
        }
        // `graph` then `{` is DOT; `graph TD` Mermaid.
        let format = format_of(
            Path::new("a.txt"),
            b"graph {
 a -- b
}",
        )
        .unwrap();
        assert_eq!(format.name, "Graphviz DOT graph");
        let format = format_of(
            Path::new("a.txt"),
            b"graph TD
 a --- b
",
        )
        .unwrap();
        assert_eq!(format.name, "Mermaid flowchart");
        // The first diagram block of a Markdown answer decides.
        let answer = b"```dot
graph { a -- b }
```
```mermaid
graph TD
```
";
        let format = format_of(Path::new("answer.md"), answer).unwrap();
        assert_eq!(format.name, "Graphviz DOT graph");
        let read = read_text(dot, "<run>", &ParseOptions::default());
        assert_eq!(
            (read.flowchart.nodes.len(), read.flowchart.edges.len()),
            (2, 1)
        );
    }
}
