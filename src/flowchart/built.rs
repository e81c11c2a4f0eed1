//! A flowchart built node by node from a diagram format whose nodes have
//! names of their own (DOT, GraphML, draw.io): nodes are numbered 1, 2, …
//! in the order their names first appear, edges are capped, and the
//! diagnostics are gathered for the file.

use super::model::{Edge, EdgeType, Flowchart, Node, NodeId, NodeType};
use super::parse::Parsed;
use crate::diagnostics::FileDiagnostics;
use std::borrow::Cow;
use std::collections::HashMap;

/// The most nodes, and the most edges, one file may give: far above any
/// drawn flowchart, low enough that a hostile file cannot exhaust memory
/// (DOT's `{a b} -> {c d}` groups multiply).
pub const MAX_ITEMS: usize = 1 << 20;

/// The text of a file of a diagram format, its byte order mark removed,
/// and the flowchart to build from it; or, for binary data (a NUL byte),
/// the file's one error (`kind` names the format: `a DOT graph`). Bytes
/// that are not UTF-8 are read as U+FFFD, with a warning.
pub fn start<'a>(
    bytes: &'a [u8],
    file: &str,
    kind: &str,
) -> Result<(Built, Cow<'a, str>), Box<Parsed>> {
    if let Some(error) = crate::diagnostics::binary_data(file, bytes, kind) {
        return Err(Box::new(Parsed {
            diagnostics: vec![error],
            errors: 1,
            ..Parsed::default()
        }));
    }
    let mut built = Built::new(file);
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text.strip_prefix('\u{feff}').unwrap_or(text)),
        Err(_) => {
            built
                .sink
                .warning(None, "not valid UTF-8; invalid bytes are read as U+FFFD");
            let text = String::from_utf8_lossy(bytes);
            Cow::Owned(text.strip_prefix('\u{feff}').unwrap_or(&text).to_string())
        }
    };
    Ok((built, text))
}

pub struct Built {
    pub sink: FileDiagnostics,
    flowchart: Flowchart,
    ids: HashMap<String, usize>,
    /// Per node, whether [`Built::set`] gave its text; a node never set is
    /// named by its name, moved into it by [`Built::finish`] (one copy of
    /// the name while reading, none thrown away when a text is set).
    texted: Vec<bool>,
    /// The cap was reached (said once).
    capped: bool,
}

impl Built {
    pub fn new(file: &str) -> Self {
        Built {
            sink: FileDiagnostics::new(file),
            flowchart: Flowchart::default(),
            ids: HashMap::new(),
            texted: Vec::new(),
            capped: false,
        }
    }

    /// The index of the node named `name`, added (a rectangle named by its
    /// name) at `line` when new; `None` past the cap.
    pub fn node(&mut self, name: &str, line: usize) -> Option<usize> {
        if let Some(&i) = self.ids.get(name) {
            return Some(i);
        }
        let i = self.flowchart.nodes.len();
        if i >= MAX_ITEMS {
            self.cap(line);
            return None;
        }
        self.flowchart.nodes.push(Node {
            id: i as NodeId + 1,
            node_type: NodeType::Rectangle,
            text: None,
            location: None,
            line,
        });
        self.texted.push(false);
        self.ids.insert(name.to_string(), i);
        Some(i)
    }

    /// The index of the node named `name`, if one is.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.ids.get(name).copied()
    }

    /// Sets node `index`'s type and text (an empty text is no text).
    pub fn set(&mut self, index: usize, node_type: NodeType, text: String) {
        if let Some(node) = self.flowchart.nodes.get_mut(index) {
            node.node_type = node_type;
            node.text = (!text.is_empty()).then_some(text);
        }
        if let Some(texted) = self.texted.get_mut(index) {
            *texted = true;
        }
    }

    /// Adds an edge between the nodes of indices `from` and `to`.
    pub fn edge(
        &mut self,
        from: usize,
        to: usize,
        directed: bool,
        kind: EdgeType,
        text: String,
        line: usize,
    ) {
        if self.flowchart.edges.len() >= MAX_ITEMS {
            self.cap(line);
            return;
        }
        self.flowchart.edges.push(Edge {
            from: from as NodeId + 1,
            to: to as NodeId + 1,
            directed,
            edge_type: kind,
            text: (!text.is_empty()).then_some(text),
            line,
        });
    }

    fn cap(&mut self, line: usize) {
        if !self.capped {
            self.capped = true;
            self.sink.error(
                Some(line),
                format!("more than {MAX_ITEMS} nodes or edges; the rest is not read"),
            );
        }
    }

    pub fn finish(mut self) -> Parsed {
        for (name, index) in self.ids {
            if !self.texted.get(index).copied().unwrap_or(true)
                && let Some(node) = self.flowchart.nodes.get_mut(index)
            {
                node.text = Some(name);
            }
        }
        self.sink.sort_by_line();
        let (errors, warnings) = (self.sink.errors(), self.sink.warnings());
        Parsed {
            flowchart: self.flowchart,
            diagnostics: self.sink.finish(),
            errors,
            warnings,
        }
    }
}
