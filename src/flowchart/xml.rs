//! What the XML diagram formats (GraphML, draw.io) share: parsing with
//! bounds, the root element a sniffer looks for, line numbers, and the
//! text of a label as its tool wrote it.

use super::diagram_text::{Dialect, plain};
use crate::diagnostics::FileDiagnostics;
use roxmltree::{Document, Node, ParsingOptions};

/// The most XML nodes (elements, texts, attributes aside) one document
/// may hold: far above any drawn flowchart; a hostile file is refused.
const MAX_NODES: u32 = 4_000_000;

/// The local name of the first element of `bytes`, skipping a byte order
/// mark, blanks, the XML declaration, comments and a document type: what
/// the sniffers of the XML formats look at, without parsing the document.
pub fn root_name(bytes: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(bytes.get(..bytes.len().min(4096))?);
    let mut rest = text.trim_start_matches('\u{feff}').trim_start();
    loop {
        if let Some(after) = rest.strip_prefix("<?") {
            rest = after.split_once("?>")?.1.trim_start();
        } else if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.split_once("-->")?.1.trim_start();
        } else if let Some(after) = rest.strip_prefix("<!") {
            rest = after.split_once('>')?.1.trim_start();
        } else {
            let tag = rest.strip_prefix('<')?;
            let name: String = tag
                .chars()
                .take_while(|c| !c.is_whitespace() && *c != '>' && *c != '/')
                .collect();
            let local = name.rsplit(':').next().unwrap_or_default();
            return Some(local.to_string());
        }
    }
}

/// `text` parsed as XML, or the error (with its line) reported to `sink`.
/// No document type definition is read (entities of one could multiply
/// a small file into a huge one).
pub fn parse<'a>(text: &'a str, what: &str, sink: &mut FileDiagnostics) -> Option<Document<'a>> {
    let options = ParsingOptions {
        allow_dtd: false,
        nodes_limit: MAX_NODES,
        ..ParsingOptions::default()
    };
    match Document::parse_with_options(text, options) {
        Ok(doc) => Some(doc),
        Err(e) => {
            let line = e.pos().row as usize;
            sink.error(
                Some(line),
                format!("not well-formed XML, so not {what}: {e}"),
            );
            None
        }
    }
}

/// The 1-based line of `node` in its document (a scan from the start: for
/// the one node of a message; [`LineIndex`] for many).
pub fn line(doc: &Document, node: Node) -> usize {
    doc.text_pos_at(node.range().start).row as usize
}

/// The lines of a document's nodes by a binary search among its line
/// breaks, found once: every node and edge of a file is given its line in
/// time that grows with the file, not with its square.
pub struct LineIndex {
    breaks: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        LineIndex {
            breaks: memchr::memchr_iter(b'\n', text.as_bytes()).collect(),
        }
    }

    /// The 1-based line of `node`.
    pub fn line(&self, node: Node) -> usize {
        let at = node.range().start;
        self.breaks.partition_point(|&b| b < at) + 1
    }
}

/// The plain text of a label: HTML (draw.io's `html=1` cells, yEd's labels
/// that start with `<html>`) made plain as docs/formats.md says; plain
/// text only has its line breaks made blanks and its ends trimmed.
pub fn label_text(raw: &str, html: bool) -> String {
    if html {
        plain(raw, Dialect::Markup)
    } else {
        super::diagram_text::unbroken(raw).trim().to_string()
    }
}

/// Whether `n` is an element of local name `name`.
pub fn is(n: &Node, name: &str) -> bool {
    n.is_element() && n.tag_name().name() == name
}

/// The elements below `node` (itself excluded) whose local name is `name`.
pub fn descendants_named<'a, 'input: 'a>(
    node: Node<'a, 'input>,
    name: &'a str,
) -> impl Iterator<Item = Node<'a, 'input>> + 'a {
    node.descendants()
        .skip(1)
        .filter(move |n| n.is_element() && n.tag_name().name() == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_of_more_xml_nodes_than_the_cap_is_refused() {
        // The document node, the root and its children count: MAX_NODES - 1
        // children are one node too many.
        let text = format!("<g>{}</g>", "<a/>".repeat(MAX_NODES as usize - 1));
        let mut sink = FileDiagnostics::new("f.graphml");
        assert!(parse(&text, "a GraphML graph", &mut sink).is_none());
        let messages: Vec<String> = sink.finish().iter().map(|d| d.message.clone()).collect();
        assert_eq!(messages.len(), 1);
        assert!(
            messages[0]
                .starts_with("not well-formed XML, so not a GraphML graph: nodes limit reached"),
            "{messages:?}"
        );
        // One node fewer (the document, the root and 3 999 998 children)
        // is read.
        let text = format!("<g>{}</g>", "<a/>".repeat(MAX_NODES as usize - 2));
        let mut sink = FileDiagnostics::new("f.graphml");
        assert!(parse(&text, "a GraphML graph", &mut sink).is_some());
    }

    #[test]
    fn the_root_element_is_found_past_the_prolog() {
        let cases: [(&[u8], Option<&str>); 5] = [
            (
                b"<?xml version=\"1.0\"?>\n<!-- c -->\n<graphml xmlns=\"x\">",
                Some("graphml"),
            ),
            (b"\xef\xbb\xbf  <mxfile host=\"app\">", Some("mxfile")),
            (b"<!DOCTYPE x>\n<y:graphml>", Some("graphml")),
            (b"<mxGraphModel/>", Some("mxGraphModel")),
            (b"digraph {}", None),
        ];
        for (bytes, want) in cases {
            assert_eq!(root_name(bytes).as_deref(), want);
        }
    }
}
