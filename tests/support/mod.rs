//! Test helpers shared by the flowchart test files.

pub mod brute;

use clefeval::flowchart::{Edge, EdgeType, Flowchart, Node, NodeType};

/// A flowchart from `(id, type, label)` nodes and `(from, to, directed, type)` edges.
pub fn fc(nodes: &[(i64, NodeType, &str)], edges: &[(i64, i64, bool, EdgeType)]) -> Flowchart {
    Flowchart {
        nodes: nodes
            .iter()
            .map(|&(id, node_type, text)| Node {
                id,
                node_type,
                text: (!text.is_empty()).then(|| text.to_string()),
                location: None,
                line: 0,
            })
            .collect(),
        edges: edges
            .iter()
            .map(|&(from, to, directed, edge_type)| Edge {
                from,
                to,
                directed,
                edge_type,
                text: None,
                line: 0,
            })
            .collect(),
        ..Flowchart::default()
    }
}
