//! A flowchart as a Mermaid `flowchart TD` diagram: the title as front
//! matter, one line per node (its shape, its text quoted), one line per
//! edge. Texts are written with Mermaid's entity codes where a character
//! would end the quote or be read as markup (`#quot;`, `#35;`, …). A
//! wiggly or unknown edge has no Mermaid line and is written plain; a
//! point is Mermaid's small circle, its text kept in the file (Mermaid
//! draws none).

use super::node_name;
use crate::flowchart::model::{Edge, EdgeType, Flowchart, Node, NodeType};
use crate::flowchart::write::canonical;

/// The flowchart as Mermaid text.
pub fn write(flowchart: &Flowchart) -> String {
    let c = canonical(flowchart);
    let mut out = String::new();
    if let Some(title) = &c.title {
        // A YAML double-quoted scalar: JSON's string escapes are YAML's.
        let title = serde_json::Value::String(title.clone());
        out.push_str(&format!("---\ntitle: {title}\n---\n"));
    }
    out.push_str("flowchart TD\n");
    for node in &c.nodes {
        out.push_str(&format!("    {}\n", node_line(node)));
    }
    for edge in &c.edges {
        out.push_str(&format!("    {}\n", edge_line(edge)));
    }
    out
}

fn node_line(node: &Node) -> String {
    let name = node_name(node.id);
    let text = quoted(node.text.as_deref().unwrap_or(""));
    match node.node_type {
        NodeType::Rectangle => format!("{name}[{text}]"),
        NodeType::Oval => format!("{name}([{text}])"),
        NodeType::Circle => format!("{name}(({text}))"),
        NodeType::Diamond => format!("{name}{{{text}}}"),
        NodeType::Parallelogram => format!("{name}[/{text}/]"),
        NodeType::DoubleRectangle => format!("{name}[[{text}]]"),
        NodeType::Cylinder => format!("{name}[({text})]"),
        NodeType::NoBox => format!("{name}@{{ shape: text, label: {text} }}"),
        NodeType::Point => format!("{name}@{{ shape: sm-circ, label: {text} }}"),
        NodeType::Unknown => format!("{name}{{{{{text}}}}}"),
    }
}

fn edge_line(edge: &Edge) -> String {
    let dotted = edge.edge_type == EdgeType::Dotted;
    let arrow = match (edge.directed, dotted) {
        (true, false) => "-->",
        (true, true) => "-.->",
        (false, false) => "---",
        (false, true) => "-.-",
    };
    let text = match edge.text.as_deref() {
        Some(t) if !t.trim().is_empty() => format!("|{}|", quoted(t)),
        _ => String::new(),
    };
    format!(
        "{} {arrow}{text} {}",
        node_name(edge.from),
        node_name(edge.to)
    )
}

/// `text` in double quotes with Mermaid's entity codes for the characters
/// that would end the quote or the edge text (`"`, `|`), start an entity
/// (`#`, `&`), be read as markup (`<`, `>`, a backtick, a backslash
/// before `n`) or break the line (control characters). An empty text is
/// one blank, which reads back as no text.
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    if text.is_empty() {
        out.push(' ');
    }
    for c in text.chars() {
        match c {
            '"' => out.push_str("#quot;"),
            '#' => out.push_str("#35;"),
            '&' => out.push_str("#amp;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '|' => out.push_str("#124;"),
            '`' => out.push_str("#96;"),
            '\\' => out.push_str("#92;"),
            c if c.is_control() => out.push_str(&format!("#{};", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
