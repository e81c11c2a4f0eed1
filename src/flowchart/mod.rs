//! Flowcharts (SPEC §1–§2): the data model of a flowchart file, its reader
//! and writer, the `petgraph` view, and the maximum-common-subgraph distance.

pub mod compare;
pub mod evaluate;
pub mod graph;
pub mod html;
pub mod layout;
pub mod mcs;
pub mod model;
pub mod parse;
pub mod report;
pub mod score;
pub mod svg;
pub mod validate;
pub mod write;

pub use graph::{FlowGraph, GraphEdge, GraphError, GraphNode, to_graph};
pub use model::{Declared, Edge, EdgeType, Flowchart, MetaNode, Node, NodeId, NodeType};
pub use parse::{ParseOptions, Parsed, parse, read_file};
pub use write::{canonical, write};
