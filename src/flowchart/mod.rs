//! Flowcharts (file format: docs/formats.md; distance: docs/metrics.md and
//! docs/flowchart-distance.md): the data model of a flowchart file, its
//! reader and writer, the `petgraph` view, the maximum-common-subgraph
//! distance ([`mcs`]), and the task around them:
//!
//! - [`formats`]: the file formats a flowchart is read from, one table;
//! - [`mod@evaluate`]: files to a [`report::Report`], every pair scored;
//! - [`score`]: a topic at each level, a run's summary;
//! - [`settings`]: the evaluation's settings as given, checked in one place;
//! - [`report`]: the JSON value, the text tables, CSV, the ranking;
//! - [`html`], [`svg`], [`layout`]: the `--html` page, a graph's drawing,
//!   its layered layout;
//! - [`validate`]: `clefeval validate`, every diagnostic of files;
//! - [`compare`]: the rule of `clefeval compare` for flowchart results;
//! - [`check`]: a result file's values held to their ranges and made again.

mod answer;
mod built;
pub mod check;
pub mod compare;
pub mod convert;
pub mod demo;
mod diagram_text;
pub mod dot;
pub mod drawio;
pub mod evaluate;
pub mod formats;
pub mod graph;
pub mod graphml;
pub mod html;
pub mod layout;
pub mod mcs;
pub mod measures;
pub mod mermaid;
pub mod model;
pub mod parse;
pub mod report;
pub mod score;
pub mod settings;
pub mod svg;
#[cfg(feature = "toy-format")]
mod toy;
pub mod validate;
pub mod write;
pub mod writers;
mod xml;

pub use formats::{read_file, read_text};
pub use graph::{FlowGraph, GraphEdge, GraphError, GraphNode, to_graph};
pub use model::{Declared, Edge, EdgeType, Flowchart, MetaNode, Node, NodeId, NodeType};
pub use parse::{ParseOptions, Parsed, parse};
pub use write::{canonical, write};
