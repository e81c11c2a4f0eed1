//! A flowchart as a Graphviz `digraph`: the title as the graph's label,
//! one statement per node (its shape as Graphviz draws it, its text as
//! `label`) and per edge (`dir=none` when undirected, `style=dashed` when
//! dotted, the text as `label`), each with `clef_type` so that every
//! CLEF-IP type survives, `wiggly` and `unknown` included.

use super::node_name;
use crate::flowchart::model::{EdgeType, Flowchart, NodeType};
use crate::flowchart::write::canonical;

/// The flowchart as DOT text.
pub fn write(flowchart: &Flowchart) -> String {
    let c = canonical(flowchart);
    let mut out = String::from("digraph {\n");
    if let Some(title) = &c.title {
        out.push_str(&format!("    label={}; labelloc=t;\n", quoted(title)));
    }
    for node in &c.nodes {
        let shape = match node.node_type {
            NodeType::Rectangle => "box",
            NodeType::Oval => "ellipse",
            NodeType::Circle => "circle",
            NodeType::Diamond => "diamond",
            NodeType::Parallelogram => "parallelogram",
            NodeType::DoubleRectangle => "box, peripheries=2",
            NodeType::Cylinder => "cylinder",
            NodeType::NoBox => "plaintext",
            NodeType::Point => "point",
            NodeType::Unknown => "hexagon",
        };
        out.push_str(&format!(
            "    {} [shape={shape}, label={}, clef_type=\"{}\"];\n",
            node_name(node.id),
            quoted(node.text.as_deref().unwrap_or("")),
            node.node_type.keyword()
        ));
    }
    for edge in &c.edges {
        let mut attrs = Vec::new();
        if let Some(text) = &edge.text {
            attrs.push(format!("label={}", quoted(text)));
        }
        if !edge.directed {
            attrs.push("dir=none".into());
        }
        match edge.edge_type {
            EdgeType::Dotted => attrs.push("style=dashed".into()),
            EdgeType::Plain | EdgeType::Wiggly | EdgeType::Unknown => {}
        }
        attrs.push(format!("clef_type=\"{}\"", edge.edge_type.keyword()));
        out.push_str(&format!(
            "    {} -> {} [{}];\n",
            node_name(edge.from),
            node_name(edge.to),
            attrs.join(", ")
        ));
    }
    out.push_str("}\n");
    out
}

/// `text` as a DOT string: in double quotes, a quote escaped, a backslash
/// doubled (the label escape Graphviz reads as one backslash), `&` as
/// `&amp;` (Graphviz and the reader decode entities). A backslash just
/// before a quote or at the end cannot be doubled (`\\"` reads as a
/// backslash and an escaped quote) and is written `&#92;`. A line break
/// is written as the blank it reads as.
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' if matches!(chars.peek(), None | Some('"')) => out.push_str("&#92;"),
            '\\' => out.push_str("\\\\"),
            '&' => out.push_str("&amp;"),
            // Read as a blank either way; written as one, a backslash before
            // it cannot join two lines.
            '\r' | '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
