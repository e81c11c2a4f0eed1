//! A flowchart as a GraphML document in yEd's dialect, so that yEd draws
//! it: each node a `y:ShapeNode` (or a `y:GenericNode` of yEd's flowchart
//! palette for the double rectangle, the cylinder and the text without a
//! box) placed by [`placed`], its text a `y:NodeLabel` (plain text, as
//! yEd reads a label that does not start with `<html>`); each edge a
//! `y:PolyLineEdge` (dashed when dotted, without arrows and
//! `directed="false"` when undirected) with its text as `y:EdgeLabel`.
//! A data key `clef_type` on every node and edge keeps every CLEF-IP
//! type, `wiggly`, `unknown` and `point` included.

use super::{node_name, placed, xml};
use crate::flowchart::model::{EdgeType, Flowchart, NodeType};
use crate::flowchart::write::canonical;

const HEAD: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:y="http://www.yworks.com/xml/graphml" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://www.yworks.com/xml/schema/graphml/1.1/ygraphml.xsd">
  <key id="d0" for="node" yfiles.type="nodegraphics"/>
  <key id="d1" for="edge" yfiles.type="edgegraphics"/>
  <key id="d2" for="node" attr.name="clef_type" attr.type="string"/>
  <key id="d3" for="edge" attr.name="clef_type" attr.type="string"/>
  <graph id="G" edgedefault="directed">
"#;

/// The flowchart as GraphML text.
pub fn write(flowchart: &Flowchart) -> String {
    let c = canonical(flowchart);
    let mut out = String::from(HEAD);
    for (node, at) in c.nodes.iter().zip(placed(&c)) {
        // yEd's element, its flowchart configuration (generic nodes) or
        // its shape (shape nodes).
        let (element, config, shape) = match node.node_type {
            NodeType::Rectangle => ("y:ShapeNode", "", "rectangle"),
            NodeType::Oval | NodeType::Circle | NodeType::Point => ("y:ShapeNode", "", "ellipse"),
            NodeType::Diamond => ("y:ShapeNode", "", "diamond"),
            NodeType::Parallelogram => ("y:ShapeNode", "", "parallelogram"),
            NodeType::Unknown => ("y:ShapeNode", "", "hexagon"),
            NodeType::DoubleRectangle => ("y:GenericNode", "predefinedProcess", ""),
            NodeType::Cylinder => ("y:GenericNode", "dataBase", ""),
            NodeType::NoBox => ("y:GenericNode", "annotation", ""),
        };
        let open = match config {
            "" => format!("<{element}>"),
            config => format!(r#"<{element} configuration="com.yworks.flowchart.{config}">"#),
        };
        let shape = match shape {
            "" => String::new(),
            shape => format!(r#"<y:Shape type="{shape}"/>"#),
        };
        out.push_str(&format!(
            concat!(
                "    <node id=\"{id}\">\n",
                "      <data key=\"d2\">{kind}</data>\n",
                "      <data key=\"d0\">{open}",
                "<y:Geometry x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\"/>",
                "<y:NodeLabel>{text}</y:NodeLabel>{shape}</{element}></data>\n",
                "    </node>\n"
            ),
            open = open,
            shape = shape,
            element = element,
            id = node_name(node.id),
            kind = node.node_type.keyword(),
            x = at.x,
            y = at.y,
            w = at.width,
            h = at.height,
            text = xml(node.text.as_deref().unwrap_or("")),
        ));
    }
    for (i, edge) in c.edges.iter().enumerate() {
        let line = if edge.edge_type == EdgeType::Dotted {
            "dashed"
        } else {
            "line"
        };
        let arrow = if edge.directed { "standard" } else { "none" };
        let label = match &edge.text {
            Some(text) => format!("<y:EdgeLabel>{}</y:EdgeLabel>", xml(text)),
            None => String::new(),
        };
        out.push_str(&format!(
            concat!(
                "    <edge id=\"e{i}\" source=\"{from}\" target=\"{to}\" directed=\"{directed}\">\n",
                "      <data key=\"d3\">{kind}</data>\n",
                "      <data key=\"d1\"><y:PolyLineEdge><y:LineStyle color=\"#000000\" type=\"{line}\" width=\"1.0\"/>",
                "<y:Arrows source=\"none\" target=\"{arrow}\"/>{label}</y:PolyLineEdge></data>\n",
                "    </edge>\n"
            ),
            line = line,
            arrow = arrow,
            label = label,
            i = i + 1,
            from = node_name(edge.from),
            to = node_name(edge.to),
            directed = edge.directed,
            kind = edge.edge_type.keyword(),
        ));
    }
    out.push_str("  </graph>\n</graphml>\n");
    out
}
