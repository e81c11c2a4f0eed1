//! The drawing of one flowchart as SVG for the HTML page: nodes placed by
//! the layered layout ([`super::layout`]), shaped by their node type,
//! edges as lines and curves with arrowheads, the matched nodes and
//! preserved edges of a mapping highlighted.

use super::layout::{Layout, guided, layered};
use super::{Edge, EdgeType, Flowchart, Node, NodeId, NodeType};
use crate::report::html::escape;
use std::collections::HashMap;
use std::fmt::Write;

/// Drawing sizes, in pixels.
const NODE_W: f64 = 150.0;
/// The least node height; a drawing whose labels wrap to more lines has
/// taller nodes, all of one height ([`node_height`]).
const NODE_H: f64 = 34.0;
const GAP_X: f64 = 16.0;
const GAP_Y: f64 = 46.0;
const MARGIN: f64 = 14.0;
/// Room right of the widest layer for edges drawn back upwards.
const BACK_ROOM: f64 = 50.0;
/// Longest edge label drawn in full; longer ones end in "…" (the full
/// text is in the edge's tooltip).
const LABEL_CHARS: usize = 17;
/// A node label is wrapped at spaces into lines of at most this many
/// characters (a longer word is split), and at most [`MAX_LINES`] lines,
/// the last ending in "…" when the label is longer still (the full text
/// is in the node's tooltip).
const LINE_CHARS: usize = 18;
const MAX_LINES: usize = 8;
/// The font size of node labels and the height of one of their lines, in px.
const FONT_PX: f64 = 12.0;
const LINE_PX: f64 = 14.0;

const MATCHED_FILL: &str = "#d9f2e1";
const MATCHED_STROKE: &str = "#1a7f37";
const PLAIN_FILL: &str = "#ffffff";
const PLAIN_STROKE: &str = "#888888";

/// The centre of each node in pixels, and the drawing's size, for nodes
/// `node_h` px high.
fn positions(layout: &Layout, node_h: f64) -> (Vec<(f64, f64)>, f64, f64) {
    let widest = layout.layers.iter().map(Vec::len).max().unwrap_or(0) as f64;
    let step_x = NODE_W + GAP_X;
    let step_y = node_h + GAP_Y;
    let centres = layout
        .layer
        .iter()
        .zip(&layout.slot)
        .map(|(&l, &s)| {
            let count = layout.layers.get(l).map_or(1, Vec::len) as f64;
            let x = MARGIN + (widest - count) * step_x / 2.0 + s as f64 * step_x + NODE_W / 2.0;
            let y = MARGIN + l as f64 * step_y + node_h / 2.0;
            (x, y)
        })
        .collect();
    let width = 2.0 * MARGIN + widest * step_x - GAP_X + BACK_ROOM;
    let height = 2.0 * MARGIN + layout.layers.len() as f64 * step_y - GAP_Y;
    (centres, width.max(2.0 * MARGIN), height.max(2.0 * MARGIN))
}

/// Each edge's ends as node indices (`None` for an edge naming no node).
fn edge_ends(fc: &Flowchart) -> Vec<Option<(usize, usize)>> {
    let index: HashMap<NodeId, usize> = fc
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id, i))
        .collect();
    fc.edges
        .iter()
        .map(|e| Some((*index.get(&e.from)?, *index.get(&e.to)?)))
        .collect()
}

/// The layered layout of `fc` ([`layered`]).
pub fn layout_of(fc: &Flowchart) -> Layout {
    let pairs: Vec<(usize, usize)> = edge_ends(fc).into_iter().flatten().collect();
    layered(fc.nodes.len(), &pairs)
}

/// The layout of `fc` that follows the layout `other` of another
/// flowchart: each node with a partner there (`partners`, its id to the
/// other's) takes its partner's layer and order ([`guided`]).
pub fn layout_like(
    fc: &Flowchart,
    other: &Flowchart,
    other_layout: &Layout,
    partners: &HashMap<NodeId, NodeId>,
) -> Layout {
    let place: HashMap<NodeId, usize> = (other.nodes.iter().enumerate())
        .map(|(i, n)| (n.id, i))
        .collect();
    let guide: Vec<Option<(usize, usize)>> = (fc.nodes.iter())
        .map(|n| {
            let i = *place.get(partners.get(&n.id)?)?;
            Some((*other_layout.layer.get(i)?, *other_layout.slot.get(i)?))
        })
        .collect();
    let pairs: Vec<(usize, usize)> = edge_ends(fc).into_iter().flatten().collect();
    guided(fc.nodes.len(), &pairs, &guide)
}

/// The SVG of one flowchart drawn in `layout`: nodes `<g class="node[
/// matched]" data-id=…>` (with `data-partner`, the other side's id, when
/// matched), edges `<g class="edge[ kept]">`. Everything styled by
/// attributes, no ids.
pub fn graph_svg(
    fc: &Flowchart,
    layout: &Layout,
    partners: &HashMap<NodeId, NodeId>,
    kept: &[bool],
) -> String {
    let ends = edge_ends(fc);
    let node_h = node_height(fc);
    let (centres, width, height) = positions(layout, node_h);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"flowchart\" width=\"{width:.0}\" \
         height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"sans-serif\" font-size=\"{FONT_PX}\">"
    );
    for ((e, end), &k) in fc
        .edges
        .iter()
        .zip(&ends)
        .zip(kept.iter().chain(std::iter::repeat(&false)))
    {
        let Some((a, b)) = *end else { continue };
        let (Some(&p), Some(&q)) = (centres.get(a), centres.get(b)) else {
            continue;
        };
        let rank = |v: usize| layout.layer.get(v).copied().unwrap_or(0);
        edge_svg(
            &mut out,
            e,
            (p, q, node_h),
            rank(a).cmp(&rank(b)),
            a == b,
            k,
        );
    }
    for (node, &c) in fc.nodes.iter().zip(&centres) {
        node_svg(&mut out, node, (c, node_h), partners.get(&node.id).copied());
    }
    out.push_str("</svg>");
    out
}

/// One edge from the node centred at `p` to the one at `q`, nodes
/// `node_h` high.
fn edge_svg(
    out: &mut String,
    e: &Edge,
    (p, q, node_h): ((f64, f64), (f64, f64), f64),
    order: std::cmp::Ordering,
    self_loop: bool,
    kept: bool,
) {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let (hw, hh) = (NODE_W / 2.0, node_h / 2.0);
    // Path, the point and direction the arrow ends at, the label's place.
    let (path, tip, from, mid) = if self_loop {
        let (x, y) = (p.0 + hw, p.1);
        let c = x + 28.0;
        (
            format!(
                "M{x:.1},{:.1} C{c:.1},{:.1} {c:.1},{:.1} {x:.1},{:.1}",
                y - 8.0,
                y - 22.0,
                y + 22.0,
                y + 8.0
            ),
            (x, y + 8.0),
            (c, y + 22.0),
            (c, y),
        )
    } else {
        match order {
            Less => {
                let (s, t) = ((p.0, p.1 + hh), (q.0, q.1 - hh));
                (line(s, t), t, s, ((s.0 + t.0) / 2.0, (s.1 + t.1) / 2.0))
            }
            Equal => {
                let side = if q.0 >= p.0 { hw } else { -hw };
                let (s, t) = ((p.0 + side, p.1), (q.0 - side, q.1));
                (line(s, t), t, s, ((s.0 + t.0) / 2.0, s.1 - 4.0))
            }
            Greater => {
                // Back upwards: a curve out to the right of both nodes.
                let (s, t) = ((p.0 + hw, p.1), (q.0 + hw, q.1));
                let c = s.0.max(t.0) + 40.0;
                (
                    format!(
                        "M{:.1},{:.1} C{c:.1},{:.1} {c:.1},{:.1} {:.1},{:.1}",
                        s.0, s.1, s.1, t.1, t.0, t.1
                    ),
                    t,
                    (c, t.1),
                    (c - 10.0, (s.1 + t.1) / 2.0),
                )
            }
        }
    };
    let (stroke, width) = if kept {
        (MATCHED_STROKE, 2.2)
    } else {
        (PLAIN_STROKE, 1.2)
    };
    let dash = match e.edge_type {
        EdgeType::Plain | EdgeType::Unknown => "",
        EdgeType::Dotted => " stroke-dasharray=\"2 3\"",
        EdgeType::Wiggly => " stroke-dasharray=\"7 2 2 2\"",
    };
    let class = if kept { "edge kept" } else { "edge" };
    let _ = write!(
        out,
        "<g class=\"{class}\"><path d=\"{path}\" fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{width}\"{dash}/>"
    );
    if e.directed {
        let _ = write!(
            out,
            "<polygon points=\"{}\" fill=\"{stroke}\"/>",
            arrow(from, tip)
        );
    }
    if let Some(text) = e.text.as_deref().filter(|t| !t.is_empty()) {
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" fill=\"#555\">{}</text>",
            mid.0 + 3.0,
            mid.1,
            escape(&short(text))
        );
    }
    out.push_str("</g>");
}

fn line(s: (f64, f64), t: (f64, f64)) -> String {
    format!("M{:.1},{:.1} L{:.1},{:.1}", s.0, s.1, t.0, t.1)
}

/// An arrowhead at `tip` pointing away from `from`.
fn arrow(from: (f64, f64), tip: (f64, f64)) -> String {
    let (dx, dy) = (tip.0 - from.0, tip.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (ux, uy) = (dx / len, dy / len);
    let (size, half) = (8.0, 4.0);
    let base = (tip.0 - ux * size, tip.1 - uy * size);
    format!(
        "{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
        tip.0,
        tip.1,
        base.0 - uy * half,
        base.1 + ux * half,
        base.0 + uy * half,
        base.1 - ux * half
    )
}

/// The lines of a node label: wrapped at spaces to [`LINE_CHARS`]
/// characters, a longer word split, at most [`MAX_LINES`] lines (the last
/// ending in "…" when more would follow).
fn wrap(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let mut word: Vec<char> = word.chars().collect();
        let len = line.chars().count();
        if len > 0 && len + 1 + word.len() <= LINE_CHARS {
            line.push(' ');
            line.extend(&word);
            continue;
        }
        if len > 0 {
            lines.push(std::mem::take(&mut line));
        }
        while word.len() > LINE_CHARS {
            lines.push(word.drain(..LINE_CHARS).collect());
        }
        line = word.into_iter().collect();
    }
    if !line.is_empty() {
        lines.push(line);
    }
    if lines.len() > MAX_LINES {
        lines.truncate(MAX_LINES);
        if let Some(last) = lines.last_mut() {
            let kept: String = last.chars().take(LINE_CHARS - 1).collect();
            *last = format!("{kept}…");
        }
    }
    lines
}

/// The height of every node of `fc`'s drawing: room for its longest
/// wrapped label, at least [`NODE_H`].
fn node_height(fc: &Flowchart) -> f64 {
    let lines = (fc.nodes.iter())
        .map(|n| wrap(n.text.as_deref().unwrap_or("")).len())
        .max()
        .unwrap_or(1);
    NODE_H.max(lines as f64 * LINE_PX + 12.0)
}

/// A label cut to [`LABEL_CHARS`] characters.
fn short(text: &str) -> String {
    if text.chars().count() <= LABEL_CHARS {
        text.to_string()
    } else {
        let cut: String = text.chars().take(LABEL_CHARS - 1).collect();
        format!("{cut}…")
    }
}

/// One node centred at (`x`, `y`), `node_h` high, its label wrapped.
fn node_svg(
    out: &mut String,
    node: &Node,
    ((x, y), node_h): ((f64, f64), f64),
    partner: Option<NodeId>,
) {
    let (fill, stroke, width) = match partner {
        Some(_) => (MATCHED_FILL, MATCHED_STROKE, 2.0),
        None => (PLAIN_FILL, PLAIN_STROKE, 1.0),
    };
    let text = node.text.as_deref().unwrap_or("");
    let (class, partner_attr, partner_note) = match partner {
        Some(p) => (
            "node matched",
            format!(" data-partner=\"{p}\""),
            format!(", matched to {p}"),
        ),
        None => ("node", String::new(), String::new()),
    };
    let _ = write!(
        out,
        "<g class=\"{class}\" data-id=\"{}\"{partner_attr}><title>{} {}: {}{partner_note}</title>",
        node.id,
        node.node_type.keyword(),
        node.id,
        escape(text)
    );
    let paint = format!("fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{width}\"");
    let (hw, hh) = (NODE_W / 2.0, node_h / 2.0);
    let rect = |inset: f64| {
        format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" {paint}/>",
            x - hw + inset,
            y - hh + inset,
            NODE_W - 2.0 * inset,
            node_h - 2.0 * inset
        )
    };
    let polygon = |points: [(f64, f64); 4]| {
        let p: Vec<String> = points
            .iter()
            .map(|(a, b)| format!("{:.1},{:.1}", x + a, y + b))
            .collect();
        format!("<polygon points=\"{}\" {paint}/>", p.join(" "))
    };
    let shape = match node.node_type {
        NodeType::Oval => {
            format!("<ellipse cx=\"{x:.1}\" cy=\"{y:.1}\" rx=\"{hw:.1}\" ry=\"{hh:.1}\" {paint}/>")
        }
        // A connector's short label fits a circle; a longer one widens it.
        NodeType::Circle if text.chars().count() <= 3 => {
            format!("<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{hh:.1}\" {paint}/>")
        }
        NodeType::Circle => {
            format!("<ellipse cx=\"{x:.1}\" cy=\"{y:.1}\" rx=\"{hw:.1}\" ry=\"{hh:.1}\" {paint}/>")
        }
        NodeType::Point => format!("<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"5\" {paint}/>"),
        NodeType::Diamond => polygon([(0.0, -hh), (hw, 0.0), (0.0, hh), (-hw, 0.0)]),
        NodeType::Parallelogram => {
            polygon([(-hw + 10.0, -hh), (hw, -hh), (hw - 10.0, hh), (-hw, hh)])
        }
        NodeType::DoubleRectangle => rect(0.0) + &rect(4.0),
        NodeType::Cylinder => {
            rect(0.0)
                + &format!(
                    "<ellipse cx=\"{x:.1}\" cy=\"{:.1}\" rx=\"{hw:.1}\" ry=\"5\" {paint}/>",
                    y - hh
                )
        }
        NodeType::Rectangle | NodeType::Unknown => rect(0.0),
        // Text only; a dashed outline when matched, so the highlight shows.
        NodeType::NoBox => match partner {
            Some(_) => format!(
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{NODE_W:.1}\" height=\"{node_h:.1}\" {paint} stroke-dasharray=\"3 2\"/>",
                x - hw,
                y - hh
            ),
            None => String::new(),
        },
    };
    out.push_str(&shape);
    let lines = if text.is_empty() && node.node_type != NodeType::Point {
        vec![format!("({})", node.id)]
    } else {
        wrap(text)
    };
    // The lines centred on the node: the first baseline half the block
    // above the middle (a baseline sits about a third of a line below
    // the line's middle).
    let first = y - (lines.len() as f64 - 1.0) * LINE_PX / 2.0 + FONT_PX / 3.0;
    let _ = write!(
        out,
        "<text x=\"{x:.1}\" y=\"{first:.1}\" text-anchor=\"middle\">"
    );
    for (i, line) in lines.iter().enumerate() {
        let dy = if i == 0 { 0.0 } else { LINE_PX };
        let _ = write!(
            out,
            "<tspan x=\"{x:.1}\" dy=\"{dy}\">{}</tspan>",
            escape(line)
        );
    }
    out.push_str("</text></g>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flowchart::{ParseOptions, parse};

    fn read(text: &str) -> Flowchart {
        parse(text.as_bytes(), "t.txt", &ParseOptions::default()).flowchart
    }

    #[test]
    fn graph_svg_marks_matched_nodes_and_kept_edges_and_escapes_labels() {
        let fc = read(
            "NO 1 oval \"<start>\"\nNO 2 diamond \"a very long decision label here\"\nNO 3 no-box \"S1\"\nDE 1 2 plain \"Y&N\"\nUE 2 3 wiggly\nDE 2 1 plain\nDE 2 2 plain\n",
        );
        let partners: HashMap<NodeId, NodeId> = [(1, 10), (3, 30)].into_iter().collect();
        let svg = graph_svg(&fc, &layout_of(&fc), &partners, &[true, false]);
        let doc = roxmltree::Document::parse(&svg).expect("well-formed");
        let class = |c: &str| {
            doc.descendants()
                .filter(|n| n.attribute("class") == Some(c))
                .count()
        };
        assert_eq!((class("node matched"), class("node")), (2, 1));
        assert_eq!((class("edge kept"), class("edge")), (1, 3));
        // Three directed edges, three arrowheads, and the diamond.
        assert_eq!(
            doc.descendants()
                .filter(|n| n.has_tag_name("polygon"))
                .count(),
            3 + 1
        );
        assert!(svg.contains("data-id=\"3\" data-partner=\"30\""));
        assert!(svg.contains("&lt;start&gt;") && svg.contains("Y&amp;N"));
        // The long label wrapped whole, line by line.
        assert!(
            svg.contains(">a very long</tspan><tspan x=\"")
                && svg.contains(">decision label</tspan>")
        );
        assert!(svg.contains(">here</tspan></text>"));
        // Layers: 1 on top, 2 below it, 3 below 2.
        let y = |id: &str| -> f64 {
            let g = doc
                .descendants()
                .find(|n| n.attribute("data-id") == Some(id))
                .unwrap();
            let t = g.descendants().find(|n| n.has_tag_name("text")).unwrap();
            t.attribute("y").unwrap().parse().unwrap()
        };
        assert!(y("1") < y("2") && y("2") < y("3"));
    }

    #[test]
    fn labels_wrap_at_spaces_split_long_words_and_stop_at_the_line_limit() {
        assert_eq!(wrap("Receive order data"), ["Receive order data"]);
        assert_eq!(
            wrap("Receive order data from the customer"),
            ["Receive order data", "from the customer"]
        );
        assert_eq!(
            wrap("a_very_long_identifier_of_thirty x"),
            ["a_very_long_identi", "fier_of_thirty x"]
        );
        assert!(wrap("").is_empty());
        let long = wrap(&"word ".repeat(40));
        assert_eq!(long.len(), MAX_LINES);
        assert_eq!(long[MAX_LINES - 1], "word word word…");
        assert!(long.iter().all(|l| l.chars().count() <= LINE_CHARS));
    }
}
