//! The data of one flowchart file, as read: nodes, edges (a multiset: parallel
//! edges and self-loops are kept), meta-nodes and the declared `MT` counts.

use serde::Serialize;

/// A node id as written in the file (`NO <id> ...`).
pub type NodeId = i64;

/// Node shapes of a flowchart file (`docs/formats.md`). Keywords are matched case-insensitively; an
/// unknown keyword is read as [`NodeType::Unknown`] with a warning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NodeType {
    Oval,
    Rectangle,
    DoubleRectangle,
    Parallelogram,
    Diamond,
    Circle,
    Point,
    NoBox,
    Cylinder,
    Unknown,
}

impl NodeType {
    pub const ALL: [NodeType; 10] = [
        NodeType::Oval,
        NodeType::Rectangle,
        NodeType::DoubleRectangle,
        NodeType::Parallelogram,
        NodeType::Diamond,
        NodeType::Circle,
        NodeType::Point,
        NodeType::NoBox,
        NodeType::Cylinder,
        NodeType::Unknown,
    ];

    /// The keyword as written in files.
    pub fn keyword(self) -> &'static str {
        match self {
            NodeType::Oval => "oval",
            NodeType::Rectangle => "rectangle",
            NodeType::DoubleRectangle => "double-rectangle",
            NodeType::Parallelogram => "parallelogram",
            NodeType::Diamond => "diamond",
            NodeType::Circle => "circle",
            NodeType::Point => "point",
            NodeType::NoBox => "no-box",
            NodeType::Cylinder => "cylinder",
            NodeType::Unknown => "unknown",
        }
    }

    /// Case-insensitive keyword lookup.
    pub fn from_keyword(word: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|t| t.keyword().eq_ignore_ascii_case(word))
    }
}

/// Edge line styles of a flowchart file (`docs/formats.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EdgeType {
    Plain,
    Dotted,
    Wiggly,
    Unknown,
}

impl EdgeType {
    pub const ALL: [EdgeType; 4] = [
        EdgeType::Plain,
        EdgeType::Dotted,
        EdgeType::Wiggly,
        EdgeType::Unknown,
    ];

    pub fn keyword(self) -> &'static str {
        match self {
            EdgeType::Plain => "plain",
            EdgeType::Dotted => "dotted",
            EdgeType::Wiggly => "wiggly",
            EdgeType::Unknown => "unknown",
        }
    }

    pub fn from_keyword(word: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|t| t.keyword().eq_ignore_ascii_case(word))
    }
}

/// `NO <id> <node-type> ["<text>"] [(<x>,<y>)]`
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Node {
    pub id: NodeId,
    pub node_type: NodeType,
    /// The label; `None` when the line has no quoted text.
    pub text: Option<String>,
    /// The 2013 location, kept and written back, never scored.
    pub location: Option<(f64, f64)>,
    /// 1-based line of the record in its file (0 for nodes built in code).
    pub line: usize,
}

/// `DE <from> <to> <edge-type> ["<text>"]` (directed) or
/// `UE <a> <b> <edge-type> ["<text>"]` (undirected: endpoint order carries no meaning).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Edge {
    pub from: NodeId,
    pub to: NodeId,
    pub directed: bool,
    pub edge_type: EdgeType,
    pub text: Option<String>,
    /// 1-based line of the record in its file (0 for edges built in code).
    pub line: usize,
}

/// An `MN` (meta-node, 2013) record: accepted and kept as written; its
/// members do not change scoring in this version.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetaNode {
    /// Everything after the `MN` keyword, trimmed.
    pub fields: String,
    pub line: usize,
}

/// The totals declared by `MT NO|DE|UE <n>` lines, when present.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Declared {
    pub nodes: Option<u64>,
    pub directed_edges: Option<u64>,
    pub undirected_edges: Option<u64>,
}

/// One flowchart: what a file says, in file order.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Flowchart {
    /// `MT Title "<text>"`.
    pub title: Option<String>,
    pub declared: Declared,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub meta_nodes: Vec<MetaNode>,
}

impl Flowchart {
    /// |F| = nodes + edges (`docs/flowchart-distance.md`).
    pub fn size(&self) -> usize {
        self.nodes.len() + self.edges.len()
    }

    pub fn directed_edge_count(&self) -> usize {
        self.edges.iter().filter(|e| e.directed).count()
    }

    pub fn undirected_edge_count(&self) -> usize {
        self.edges.iter().filter(|e| !e.directed).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_round_trip_case_insensitively() {
        for t in NodeType::ALL {
            assert_eq!(NodeType::from_keyword(t.keyword()), Some(t));
            assert_eq!(NodeType::from_keyword(&t.keyword().to_uppercase()), Some(t));
        }
        for t in EdgeType::ALL {
            assert_eq!(EdgeType::from_keyword(t.keyword()), Some(t));
        }
        assert_eq!(NodeType::from_keyword("No-Box"), Some(NodeType::NoBox));
        assert_eq!(NodeType::from_keyword("hexagon"), None);
        assert_eq!(EdgeType::from_keyword("dashed"), None);
    }
}
