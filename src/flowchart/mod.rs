//! Flowcharts (SPEC §1–§2): the data model of a flowchart file, its reader
//! and writer, the `petgraph` view, and the maximum-common-subgraph distance.

pub mod mcs;
pub mod model;
pub mod score;

pub use model::{Declared, Edge, EdgeType, Flowchart, MetaNode, Node, NodeId, NodeType};
