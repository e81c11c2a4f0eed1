//! GraphML flowcharts (`.graphml`), as yEd and graph libraries write them
//! (docs/formats.md, "GraphML"). The first `<graph>` is read: its nodes in
//! document order are numbered 1, 2, …; a node's type comes from a data key
//! named `clef_type`, else from yEd's `y:ShapeNode` shape or
//! `y:GenericNode` flowchart configuration (a node without either is a
//! rectangle); its text from yEd's `y:NodeLabel`, else a data key named
//! `label`. An edge is directed by its `directed` attribute, else by the
//! graph's `edgedefault`; dotted when yEd's `y:LineStyle` is dotted or
//! dashed; its text from `y:EdgeLabel`, else a `label` data key. Group
//! nodes (nodes holding a graph) are no flowchart nodes: their inner nodes
//! are read, edges to a group are dropped with a warning.

use super::built::{self, Built};
use super::diagram_text::cut;
use super::model::{EdgeType, NodeType};
use super::parse::{ParseOptions, Parsed};
use super::xml::{self, descendants_named, is};
use roxmltree::Node;
use std::collections::{HashMap, HashSet};

/// Whether `bytes` are a GraphML document: its first element is `graphml`.
pub fn looks_like(bytes: &[u8]) -> bool {
    xml::root_name(bytes).is_some_and(|name| name == "graphml")
}

/// Reads the GraphML document in `bytes` (a file named `file`).
pub fn read(bytes: &[u8], file: &str, _: &ParseOptions) -> Parsed {
    let (mut built, text) = match built::start(bytes, file, "a GraphML document") {
        Ok(started) => started,
        Err(binary) => return *binary,
    };
    let Some(doc) = xml::parse(&text, "a GraphML document", &mut built.sink) else {
        return built.finish();
    };
    let root = doc.root_element();
    if root.tag_name().name() != "graphml" {
        built.sink.error(
            Some(xml::line(&doc, root)),
            format!(
                "the document's root is `<{}>`, not `<graphml>`: not a GraphML file",
                root.tag_name().name()
            ),
        );
        return built.finish();
    }
    let graphs: Vec<Node> = (root.children()).filter(|n| is(n, "graph")).collect();
    let Some(&graph) = graphs.first() else {
        built.sink.error(
            Some(xml::line(&doc, root)),
            "no `<graph>` in the GraphML document",
        );
        return built.finish();
    };
    if let Some(&second) = graphs.get(1) {
        built.sink.warning(
            Some(xml::line(&doc, second)),
            "only the first `<graph>` of a GraphML document is read; the rest is ignored",
        );
    }
    let reader = Reader {
        keys: keys(root),
        lines: xml::LineIndex::new(&text),
    };
    reader.graph(graph, &mut built);
    built.finish()
}

/// The names of the data keys, by id, for nodes and for edges (`for="all"`
/// keys in both).
struct Keys {
    node: HashMap<String, String>,
    edge: HashMap<String, String>,
}

fn keys(root: Node) -> Keys {
    let mut keys = Keys {
        node: HashMap::new(),
        edge: HashMap::new(),
    };
    for key in root.children().filter(|n| is(n, "key")) {
        let (Some(id), Some(name)) = (key.attribute("id"), key.attribute("attr.name")) else {
            continue;
        };
        let target = key.attribute("for").unwrap_or("all");
        if matches!(target, "node" | "all") {
            keys.node.insert(id.to_string(), name.to_string());
        }
        if matches!(target, "edge" | "all") {
            keys.edge.insert(id.to_string(), name.to_string());
        }
    }
    keys
}

struct Reader {
    keys: Keys,
    lines: xml::LineIndex,
}

impl Reader {
    fn line(&self, node: Node) -> usize {
        self.lines.line(node)
    }

    /// The value of the data key named `name` among `element`'s own data.
    fn data<'a>(&self, element: Node<'a, '_>, name: &str, edge: bool) -> Option<&'a str> {
        let keys = if edge {
            &self.keys.edge
        } else {
            &self.keys.node
        };
        (element.children())
            .filter(|n| is(n, "data"))
            .find(|d| {
                d.attribute("key")
                    .and_then(|k| keys.get(k))
                    .is_some_and(|n| n == name)
            })
            .map(|d| d.text().unwrap_or_default())
    }

    fn graph(&self, graph: Node, built: &mut Built) {
        let directed_default = graph.attribute("edgedefault") != Some("undirected");
        // Every node, in document order, nested graphs included; a node
        // holding a graph is a group.
        let mut groups = HashSet::new();
        let mut seen = HashMap::new();
        for node in graph.descendants().filter(|n| is(n, "node")) {
            let id = node.attribute("id").unwrap_or_default();
            let line = self.line(node);
            if let Some(first) = seen.insert(id.to_string(), line) {
                built.sink.error(
                    Some(line),
                    format!("node `{}` is given twice (first on line {first})", cut(id)),
                );
                continue;
            }
            if node.children().any(|c| is(&c, "graph")) {
                groups.insert(id.to_string());
                continue;
            }
            let Some(index) = built.node(id, line) else {
                return;
            };
            let (node_type, text) = self.node(node, built);
            built.set(index, node_type, text);
        }
        let mut warned = HashSet::new();
        for edge in graph.descendants().filter(|n| is(n, "edge")) {
            let line = self.line(edge);
            let ends = [edge.attribute("source"), edge.attribute("target")];
            let [Some(source), Some(target)] = ends else {
                built
                    .sink
                    .error(Some(line), "an edge without its `source` or `target`");
                continue;
            };
            if let Some(group) = [source, target].into_iter().find(|e| groups.contains(*e)) {
                if warned.insert(group.to_string()) {
                    built.sink.warning(
                        Some(line),
                        format!(
                            "an edge to the group `{}` is dropped (a group is no node)",
                            cut(group)
                        ),
                    );
                }
                continue;
            }
            let (Some(a), Some(b)) = (built.index_of(source), built.index_of(target)) else {
                let missing = if built.index_of(source).is_none() {
                    source
                } else {
                    target
                };
                built.sink.error(
                    Some(line),
                    format!(
                        "an edge names the node `{}`, which is not given",
                        cut(missing)
                    ),
                );
                continue;
            };
            let directed = match edge.attribute("directed") {
                Some(d) => d == "true" || d == "1",
                None => directed_default,
            };
            let kind = self.edge_type(edge, built, line);
            let labels: Vec<String> = descendants_named(edge, "EdgeLabel")
                .filter_map(|l| l.text())
                .map(yed_text)
                .filter(|t| !t.is_empty())
                .collect();
            let text = if labels.is_empty() {
                self.data(edge, "label", true)
                    .map(yed_text)
                    .unwrap_or_default()
            } else {
                labels.join(" ")
            };
            built.edge(a, b, directed, kind, text, line);
        }
        for hyper in graph.descendants().filter(|n| is(n, "hyperedge")).take(1) {
            built.sink.warning(
                Some(self.line(hyper)),
                "hyperedges are not read (a flowchart edge joins two nodes)",
            );
        }
    }

    /// A node's type and text.
    fn node(&self, node: Node, built: &mut Built) -> (NodeType, String) {
        let id = node.attribute("id").unwrap_or_default();
        let line = self.line(node);
        let labels: Vec<String> = descendants_named(node, "NodeLabel")
            .filter_map(|l| l.text())
            .map(yed_text)
            .filter(|t| !t.is_empty())
            .collect();
        let graphics = [
            "ShapeNode",
            "GenericNode",
            "SVGNode",
            "ImageNode",
            "TableNode",
            "GroupNode",
        ]
        .into_iter()
        .find_map(|name| descendants_named(node, name).next());
        let text = if !labels.is_empty() {
            labels.join(" ")
        } else if let Some(label) = self.data(node, "label", false) {
            yed_text(label)
        } else if graphics.is_none() {
            // Plain GraphML: the id is the node's only name.
            id.to_string()
        } else {
            String::new()
        };
        if let Some(value) = self.data(node, "clef_type", false) {
            match NodeType::from_keyword(value.trim()) {
                Some(t) => return (t, text),
                None => built.sink.warning(
                    Some(line),
                    format!(
                        "node `{}`: clef_type `{}` is no CLEF-IP node type; ignored",
                        cut(id),
                        cut(value)
                    ),
                ),
            }
        }
        let Some(graphics) = graphics else {
            return (NodeType::Rectangle, text);
        };
        let shape = match graphics.tag_name().name() {
            "ShapeNode" => descendants_named(graphics, "Shape")
                .next()
                .and_then(|s| s.attribute("type"))
                .unwrap_or("rectangle")
                .to_string(),
            "GenericNode" => graphics
                .attribute("configuration")
                .unwrap_or_default()
                .to_string(),
            other => other.to_string(),
        };
        let node_type = match shape.as_str() {
            "rectangle" | "roundrectangle" | "com.yworks.flowchart.process" => NodeType::Rectangle,
            "ellipse"
            | "com.yworks.flowchart.terminator"
            | "com.yworks.flowchart.start1"
            | "com.yworks.flowchart.start2" => NodeType::Oval,
            "diamond" | "com.yworks.flowchart.decision" => NodeType::Diamond,
            "parallelogram" | "com.yworks.flowchart.data" => NodeType::Parallelogram,
            "com.yworks.flowchart.predefinedProcess" => NodeType::DoubleRectangle,
            "com.yworks.flowchart.dataBase" => NodeType::Cylinder,
            "com.yworks.flowchart.annotation" => NodeType::NoBox,
            other => {
                built.sink.warning(
                    Some(line),
                    format!(
                        "node `{}`: unknown shape `{}`; read as `unknown`",
                        cut(id),
                        cut(other)
                    ),
                );
                NodeType::Unknown
            }
        };
        (node_type, text)
    }

    fn edge_type(&self, edge: Node, built: &mut Built, line: usize) -> EdgeType {
        if let Some(value) = self.data(edge, "clef_type", true) {
            match EdgeType::from_keyword(value.trim()) {
                Some(t) => return t,
                None => built.sink.warning(
                    Some(line),
                    format!(
                        "edge: clef_type `{}` is no CLEF-IP edge type; ignored",
                        cut(value)
                    ),
                ),
            }
        }
        let style = descendants_named(edge, "LineStyle")
            .next()
            .and_then(|s| s.attribute("type"))
            .unwrap_or("line");
        if style.contains("dot") || style.contains("dash") {
            EdgeType::Dotted
        } else {
            EdgeType::Plain
        }
    }
}

/// A yEd label's text: HTML when it starts with `<html>`.
fn yed_text(raw: &str) -> String {
    let html = raw
        .trim_start()
        .get(..6)
        .is_some_and(|s| s.eq_ignore_ascii_case("<html>"));
    xml::label_text(raw, html)
}

#[cfg(test)]
mod tests;
