//! The flowchart file writer, in canonical order: `MT` lines (title, then the
//! declared counts), nodes by id, directed then undirected edges sorted by
//! endpoints, type and text (undirected endpoints smaller id first), then
//! `MN` lines as read. Reading the output back gives the same flowchart up
//! to [`canonical`] form (line numbers aside).

use super::model::{Edge, Flowchart};
use std::cmp::Ordering;

/// The flowchart in canonical order, with line numbers set to 0: two
/// flowcharts that describe the same graph (and the same title, counts and
/// meta-nodes) have equal canonical forms.
pub fn canonical(flowchart: &Flowchart) -> Flowchart {
    let mut c = flowchart.clone();
    for node in &mut c.nodes {
        node.line = 0;
    }
    c.nodes.sort_by_key(|node| node.id);
    for edge in &mut c.edges {
        edge.line = 0;
        if !edge.directed && edge.from > edge.to {
            std::mem::swap(&mut edge.from, &mut edge.to);
        }
    }
    c.edges.sort_by(edge_order);
    for meta in &mut c.meta_nodes {
        meta.line = 0;
    }
    c
}

/// Directed edges first, then by endpoints, type and text.
fn edge_order(a: &Edge, b: &Edge) -> Ordering {
    b.directed
        .cmp(&a.directed)
        .then(a.from.cmp(&b.from))
        .then(a.to.cmp(&b.to))
        .then(a.edge_type.cmp(&b.edge_type))
        .then_with(|| a.text.cmp(&b.text))
}

/// The flowchart as file text, in canonical order. Line feeds inside texts
/// (impossible in a file that was read, possible in code) become blanks; a
/// carriage return is kept (the reader drops only the one before a line feed).
pub fn write(flowchart: &Flowchart) -> String {
    let c = canonical(flowchart);
    let mut out = String::new();
    if let Some(title) = &c.title {
        out.push_str(&format!("MT Title {}\n", quoted(title)));
    }
    let declared = [
        ("NO", c.declared.nodes),
        ("DE", c.declared.directed_edges),
        ("UE", c.declared.undirected_edges),
    ];
    for (key, count) in declared {
        if let Some(count) = count {
            out.push_str(&format!("MT {key} {count}\n"));
        }
    }
    for node in &c.nodes {
        out.push_str(&format!("NO {} {}", node.id, node.node_type.keyword()));
        if let Some(text) = &node.text {
            out.push(' ');
            out.push_str(&quoted(text));
        }
        if let Some((x, y)) = node.location {
            out.push_str(&format!(" ({x},{y})"));
        }
        out.push('\n');
    }
    for edge in &c.edges {
        let kind = if edge.directed { "DE" } else { "UE" };
        out.push_str(&format!(
            "{kind} {} {} {}",
            edge.from,
            edge.to,
            edge.edge_type.keyword()
        ));
        if let Some(text) = &edge.text {
            out.push(' ');
            out.push_str(&quoted(text));
        }
        out.push('\n');
    }
    for meta in &c.meta_nodes {
        out.push_str(&format!("MN {}\n", one_line(&meta.fields)));
    }
    out
}

fn quoted(text: &str) -> String {
    format!("\"{}\"", one_line(text))
}

fn one_line(text: &str) -> String {
    text.replace('\n', " ")
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::flowchart::model::{Declared, EdgeType, MetaNode, Node, NodeType};
    use crate::flowchart::parse::{ParseOptions, parse};
    use proptest::prelude::*;

    fn reread(text: &str) -> Flowchart {
        let parsed = parse(text.as_bytes(), "w.txt", &ParseOptions::default());
        assert!(!parsed.is_rejected(), "{:?}", parsed.diagnostics);
        parsed.flowchart
    }

    #[test]
    fn writes_in_canonical_order() {
        let input = "\
MN 1 2
UE 9 2 wiggly
DE 9 2 plain \"NO\"
DE 2 9 plain \"YES\"
DE 2 9 plain
NO 9 no-box \"S1 \"a\"\" (1.5,-2)
NO 2 diamond \"ok?\"
MT UE 1
MT Title \"T\"
MT NO 2
";
        let expected = "\
MT Title \"T\"
MT NO 2
MT UE 1
NO 2 diamond \"ok?\"
NO 9 no-box \"S1 \"a\"\" (1.5,-2)
DE 2 9 plain
DE 2 9 plain \"YES\"
DE 9 2 plain \"NO\"
UE 2 9 wiggly
MN 1 2
";
        let parsed = parse(input.as_bytes(), "w.txt", &ParseOptions::default());
        assert_eq!(parsed.diagnostics, vec![]);
        assert_eq!(write(&parsed.flowchart), expected);
        assert_eq!(canonical(&reread(expected)), canonical(&parsed.flowchart));
    }

    #[test]
    fn line_feeds_in_texts_become_blanks() {
        let flowchart = Flowchart {
            title: Some("a\nb\r".into()),
            nodes: vec![Node {
                id: 1,
                node_type: NodeType::Oval,
                text: Some("x\ny".into()),
                location: None,
                line: 0,
            }],
            ..Flowchart::default()
        };
        let text = write(&flowchart);
        assert_eq!(text, "MT Title \"a b\r\"\nNO 1 oval \"x y\"\n");
        assert_eq!(reread(&text).title.as_deref(), Some("a b\r"));
    }

    fn text() -> impl Strategy<Value = Option<String>> {
        prop::option::of(prop_oneof![
            "[^\n\x00]{0,12}",
            "[ \"a-zA-Z0-9?]{0,12}",
            "[ \"\\\\#&;<>|`\\[\\](){}a-z]{0,12}",
            Just("\"".to_string()),
            Just("say \"YES\" (1,2)".to_string()),
            Just("&amp; #quot; <br/>x a\\\"".to_string()),
        ])
    }

    /// Any flowchart, with texts that need escaping in every format (the
    /// diagram writers' tests use it too).
    pub(crate) fn flowchart() -> impl Strategy<Value = Flowchart> {
        let nodes = prop::collection::btree_set(any::<i64>(), 0..12).prop_flat_map(|ids| {
            let n = ids.len();
            let node = (
                prop::sample::select(NodeType::ALL.to_vec()),
                text(),
                prop::option::of((-1e6..1e6f64, prop_oneof![-1e6..1e6f64, Just(0.0)])),
            );
            (
                Just(ids.into_iter().collect::<Vec<_>>()),
                prop::collection::vec(node, n),
            )
        });
        let meta = prop::collection::vec("[^\r\n \t\x00]([^\n\x00]{0,8}[^\r\n \t\x00])?", 0..3);
        let declared = prop::option::of(0..40u64);
        (
            nodes,
            prop::collection::vec(
                (
                    any::<prop::sample::Index>(),
                    any::<prop::sample::Index>(),
                    any::<bool>(),
                    prop::sample::select(EdgeType::ALL.to_vec()),
                    text(),
                ),
                0..30,
            ),
            text(),
            (declared.clone(), declared.clone(), declared),
            meta,
        )
            .prop_map(|((ids, attrs), edges, title, (dn, dd, du), meta)| {
                let nodes: Vec<Node> = ids
                    .iter()
                    .zip(attrs)
                    .map(|(&id, (node_type, text, location))| Node {
                        id,
                        node_type,
                        text,
                        location,
                        line: 0,
                    })
                    .collect();
                let edges = if ids.is_empty() {
                    Vec::new()
                } else {
                    edges
                        .into_iter()
                        .map(|(a, b, directed, edge_type, text)| Edge {
                            from: *a.get(&ids),
                            to: *b.get(&ids),
                            directed,
                            edge_type,
                            text,
                            line: 0,
                        })
                        .collect()
                };
                Flowchart {
                    title,
                    declared: Declared {
                        nodes: dn,
                        directed_edges: dd,
                        undirected_edges: du,
                    },
                    nodes,
                    edges,
                    meta_nodes: meta
                        .into_iter()
                        .map(|fields| MetaNode { fields, line: 0 })
                        .collect(),
                }
            })
    }

    proptest! {
        #[test]
        fn write_then_read_gives_the_same_flowchart(f in flowchart()) {
            let text = write(&f);
            let parsed = parse(text.as_bytes(), "w.txt", &ParseOptions { strict: true });
            for d in &parsed.diagnostics {
                prop_assert!(
                    d.message.ends_with("the records win") || d.message.contains("flowchart is empty"),
                    "unexpected diagnostic {} on\n{}", d, text
                );
            }
            prop_assert_eq!(canonical(&parsed.flowchart), canonical(&f));
            // Canonical output is a fixed point.
            prop_assert_eq!(write(&parsed.flowchart), text);
        }
    }
}
