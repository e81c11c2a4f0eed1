//! A flowchart as an uncompressed draw.io file: one page (named by the
//! title) whose cells are the nodes, placed by [`placed`] and styled as
//! draw.io's own shapes, and the edges (`endArrow=none` when undirected,
//! `dashed=1` when dotted). Texts are HTML (`html=1`), as draw.io writes
//! them. A style key `clef_type` on every cell keeps every CLEF-IP type,
//! `wiggly`, `unknown` and `point` included.

use super::{markup, node_name, placed, xml};
use crate::flowchart::model::{EdgeType, Flowchart, NodeType};
use crate::flowchart::write::canonical;

/// The flowchart as draw.io text.
pub fn write(flowchart: &Flowchart) -> String {
    let c = canonical(flowchart);
    let page = c.title.as_deref().unwrap_or("Page-1");
    let mut out = format!(
        concat!(
            "<mxfile host=\"clefeval\">\n",
            "  <diagram id=\"page-1\" name=\"{}\">\n",
            "    <mxGraphModel grid=\"1\" gridSize=\"10\" arrows=\"1\" page=\"1\">\n",
            "      <root>\n",
            "        <mxCell id=\"0\"/>\n",
            "        <mxCell id=\"1\" parent=\"0\"/>\n"
        ),
        xml(page)
    );
    for (node, at) in c.nodes.iter().zip(placed(&c)) {
        let style = match node.node_type {
            NodeType::Rectangle => "rounded=0;whiteSpace=wrap;",
            NodeType::Oval | NodeType::Circle => "ellipse;whiteSpace=wrap;",
            NodeType::Point => "ellipse;fillColor=#000000;",
            NodeType::Diamond => "rhombus;whiteSpace=wrap;",
            NodeType::Parallelogram => {
                "shape=parallelogram;perimeter=parallelogramPerimeter;whiteSpace=wrap;"
            }
            NodeType::DoubleRectangle => "shape=process;whiteSpace=wrap;",
            NodeType::Cylinder => "shape=cylinder3;whiteSpace=wrap;",
            NodeType::NoBox => "text;align=center;verticalAlign=middle;whiteSpace=wrap;",
            NodeType::Unknown => "shape=hexagon;perimeter=hexagonPerimeter2;whiteSpace=wrap;",
        };
        out.push_str(&format!(
            concat!(
                "        <mxCell id=\"{id}\" value=\"{text}\" style=\"{style}html=1;clef_type={kind};\" vertex=\"1\" parent=\"1\">\n",
                "          <mxGeometry x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" as=\"geometry\"/>\n",
                "        </mxCell>\n"
            ),
            style = style,
            id = node_name(node.id),
            text = xml(&markup(node.text.as_deref().unwrap_or(""))),
            kind = node.node_type.keyword(),
            x = at.x,
            y = at.y,
            w = at.width,
            h = at.height,
        ));
    }
    for (i, edge) in c.edges.iter().enumerate() {
        let mut style = String::from("edgeStyle=orthogonalEdgeStyle;");
        if !edge.directed {
            style.push_str("endArrow=none;");
        }
        if edge.edge_type == EdgeType::Dotted {
            style.push_str("dashed=1;");
        }
        out.push_str(&format!(
            concat!(
                "        <mxCell id=\"e{i}\" value=\"{text}\" style=\"{style}html=1;clef_type={kind};\" edge=\"1\" parent=\"1\" source=\"{from}\" target=\"{to}\">\n",
                "          <mxGeometry relative=\"1\" as=\"geometry\"/>\n",
                "        </mxCell>\n"
            ),
            style = style,
            i = i + 1,
            text = xml(&markup(edge.text.as_deref().unwrap_or(""))),
            kind = edge.edge_type.keyword(),
            from = node_name(edge.from),
            to = node_name(edge.to),
        ));
    }
    out.push_str("      </root>\n    </mxGraphModel>\n  </diagram>\n</mxfile>\n");
    out
}
