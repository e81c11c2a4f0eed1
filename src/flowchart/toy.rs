//! A format that exists only to test the format table (built with the
//! `toy-format` feature, never shipped): a first line `toy flowchart`,
//! then one edge per line, `A -> B`, between boxes named by their text.
//! Each distinct text is a rectangle; each line a plain directed edge.

use super::model::{Edge, EdgeType, Flowchart, Node, NodeType};
use super::parse::{ParseOptions, Parsed};
use crate::diagnostics::Diagnostic;

/// Whether `bytes` are a toy flowchart: its first line.
pub fn looks_like(bytes: &[u8]) -> bool {
    bytes.starts_with(b"toy flowchart\n")
}

/// The flowchart of a toy file named `file`, with its errors.
pub fn read(bytes: &[u8], file: &str, _: &ParseOptions) -> Parsed {
    let mut parsed = Parsed::default();
    let text = String::from_utf8_lossy(bytes);
    let mut lines = text.lines().enumerate();
    if lines.next().map(|(_, l)| l) != Some("toy flowchart") {
        let error = Diagnostic::error(file, Some(1), "not a toy flowchart");
        parsed.diagnostics.push(error);
        parsed.errors = 1;
        return parsed;
    }
    for (index, line) in lines.filter(|(_, l)| !l.trim().is_empty()) {
        let Some((from, to)) = line.split_once("->") else {
            let error = Diagnostic::error(file, Some(index + 1), "expected `A -> B`");
            parsed.diagnostics.push(error);
            parsed.errors += 1;
            continue;
        };
        let from = node(&mut parsed.flowchart, from.trim(), index + 1);
        let to = node(&mut parsed.flowchart, to.trim(), index + 1);
        parsed.flowchart.edges.push(Edge {
            from,
            to,
            directed: true,
            edge_type: EdgeType::Plain,
            text: None,
            line: index + 1,
        });
    }
    parsed
}

/// The id of the box named `text`, added at `line` when new.
fn node(chart: &mut Flowchart, text: &str, line: usize) -> i64 {
    if let Some(known) = chart.nodes.iter().find(|n| n.text.as_deref() == Some(text)) {
        return known.id;
    }
    let id = chart.nodes.len() as i64 + 1;
    chart.nodes.push(Node {
        id,
        node_type: NodeType::Rectangle,
        text: Some(text.to_string()),
        location: None,
        line,
    });
    id
}

/// The flowchart as a toy file: one line per edge between the texts of
/// its ends (types, edge texts and unconnected nodes are lost).
pub fn write(chart: &Flowchart) -> String {
    let text = |id: i64| {
        (chart.nodes.iter().find(|n| n.id == id))
            .and_then(|n| n.text.clone())
            .unwrap_or_else(|| id.to_string())
    };
    let mut out = String::from("toy flowchart\n");
    for edge in &chart.edges {
        out.push_str(&format!("{} -> {}\n", text(edge.from), text(edge.to)));
    }
    out
}
