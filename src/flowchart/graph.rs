//! A flowchart as a `petgraph` graph for the algorithms: one graph node per
//! `NO` record (in file order), one graph edge per `DE`/`UE` record (in file
//! order; parallel edges and self-loops kept). An undirected edge is stored
//! once, from its first to its second endpoint as written, with
//! `directed: false`: its direction carries no meaning.

use super::model::{EdgeType, Flowchart, NodeId, NodeType};
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::HashMap;
use std::fmt;

/// Node weight: what scoring needs of a `NO` record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphNode {
    pub id: NodeId,
    pub node_type: NodeType,
    pub text: Option<String>,
}

/// Edge weight: what scoring needs of a `DE`/`UE` record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphEdge {
    pub directed: bool,
    pub edge_type: EdgeType,
    pub text: Option<String>,
}

/// A flowchart graph. Mixed: each edge says whether it is directed.
pub type FlowGraph = DiGraph<GraphNode, GraphEdge>;

/// Why a flowchart (built in code; a parsed one that is not rejected never
/// fails) cannot become a graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GraphError {
    DuplicateNode(NodeId),
    UndefinedNode(NodeId),
}

impl fmt::Display for GraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GraphError::DuplicateNode(id) => write!(f, "duplicate node id {id}"),
            GraphError::UndefinedNode(id) => write!(f, "an edge names undefined node id {id}"),
        }
    }
}

impl std::error::Error for GraphError {}

/// Converts a flowchart into a graph: node `i` of the graph is node `i` of
/// `flowchart.nodes`, edge `j` is edge `j` of `flowchart.edges`.
pub fn to_graph(flowchart: &Flowchart) -> Result<FlowGraph, GraphError> {
    let mut graph = FlowGraph::with_capacity(flowchart.nodes.len(), flowchart.edges.len());
    let mut index: HashMap<NodeId, NodeIndex> = HashMap::with_capacity(flowchart.nodes.len());
    for node in &flowchart.nodes {
        let i = graph.add_node(GraphNode {
            id: node.id,
            node_type: node.node_type,
            text: node.text.clone(),
        });
        if index.insert(node.id, i).is_some() {
            return Err(GraphError::DuplicateNode(node.id));
        }
    }
    let lookup = |id: NodeId| index.get(&id).copied().ok_or(GraphError::UndefinedNode(id));
    for edge in &flowchart.edges {
        graph.add_edge(
            lookup(edge.from)?,
            lookup(edge.to)?,
            GraphEdge {
                directed: edge.directed,
                edge_type: edge.edge_type,
                text: edge.text.clone(),
            },
        );
    }
    Ok(graph)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flowchart::parse::{ParseOptions, parse};
    use petgraph::visit::EdgeRef;

    fn flowchart(text: &str) -> Flowchart {
        parse(text.as_bytes(), "g.txt", &ParseOptions::default()).flowchart
    }

    #[test]
    fn keeps_weights_parallel_edges_and_self_loops() {
        let f = flowchart(
            "NO 5 diamond \"Paid?\"\nNO 2 no-box \"S101\"\nDE 5 2 plain \"YES\"\nDE 5 2 plain \"YES\"\nDE 5 5 dotted\nUE 2 5 wiggly\n",
        );
        let g = to_graph(&f).expect("valid flowchart");
        assert_eq!((g.node_count(), g.edge_count()), (2, 4));
        let weights: Vec<&GraphNode> = g.node_weights().collect();
        assert_eq!(
            weights,
            vec![
                &GraphNode {
                    id: 5,
                    node_type: NodeType::Diamond,
                    text: Some("Paid?".into())
                },
                &GraphNode {
                    id: 2,
                    node_type: NodeType::NoBox,
                    text: Some("S101".into())
                },
            ]
        );
        let edges: Vec<(NodeId, NodeId, &GraphEdge)> = g
            .edge_references()
            .map(|e| (g[e.source()].id, g[e.target()].id, e.weight()))
            .collect();
        let yes = GraphEdge {
            directed: true,
            edge_type: EdgeType::Plain,
            text: Some("YES".into()),
        };
        assert_eq!(
            edges,
            vec![
                (5, 2, &yes),
                (5, 2, &yes),
                (
                    5,
                    5,
                    &GraphEdge {
                        directed: true,
                        edge_type: EdgeType::Dotted,
                        text: None
                    }
                ),
                (
                    2,
                    5,
                    &GraphEdge {
                        directed: false,
                        edge_type: EdgeType::Wiggly,
                        text: None
                    }
                ),
            ]
        );
    }

    #[test]
    fn rejects_duplicate_and_undefined_nodes() {
        let mut f = flowchart("NO 1 oval\nNO 2 oval\nDE 1 2 plain\n");
        let mut bad = f.clone();
        bad.edges[0].to = 3;
        assert_eq!(to_graph(&bad).err(), Some(GraphError::UndefinedNode(3)));
        f.nodes[1].id = 1;
        assert_eq!(to_graph(&f).err(), Some(GraphError::DuplicateNode(1)));
        assert_eq!(
            GraphError::UndefinedNode(3).to_string(),
            "an edge names undefined node id 3"
        );
    }

    #[test]
    fn empty_flowchart_is_an_empty_graph() {
        let g = to_graph(&Flowchart::default()).expect("empty is valid");
        assert_eq!((g.node_count(), g.edge_count()), (0, 0));
    }
}
