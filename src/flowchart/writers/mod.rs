//! Writers of the diagram formats: a [`Flowchart`] as Mermaid, Graphviz
//! DOT, GraphML (yEd) and draw.io text that the format's own tools draw
//! and that clefeval's readers read back as the same graph (docs/formats.md,
//! "Converting between formats"). The CLEF-IP writer is
//! [`super::write`]. Each writer takes the flowchart as it is and says
//! nothing; what a format cannot hold is listed by [`losses`].
//!
//! Shared here: node names (`n7`; `n_7` for the id −7), texts escaped
//! for the markup the formats read (the readers decode entities once, so
//! `&`, `<` and `>` are written as entities), and drawing positions for
//! the two formats that need them.

pub mod dot;
pub mod drawio;
pub mod graphml;
pub mod mermaid;

use super::layout::layered;
use super::model::{EdgeType, Flowchart, NodeId, NodeType};
use crate::report::html::escape;
use std::collections::HashMap;

/// The name a node of id `id` is written under: `n7`, or `n_7` for −7.
pub fn node_name(id: NodeId) -> String {
    if id < 0 {
        format!("n_{}", id.unsigned_abs())
    } else {
        format!("n{id}")
    }
}

/// `text` as markup: `&`, `<`, `>`, `"` and `'` as entities, a control
/// character as `&#N;`, so that tag stripping and one decoding give
/// `text` back.
pub fn markup(text: &str) -> String {
    with_controls(&escape(text), |c, out| {
        out.push_str(&format!("&#{};", u32::from(c)))
    })
}

/// `text` escaped for an XML attribute or element: `&`, `<`, `>`, `"`
/// and `'` as entities, a tab or line break as a character reference (an
/// attribute's would be read as a blank), and every other control
/// character, which XML 1.0 cannot hold, as U+FFFD.
pub fn xml(text: &str) -> String {
    with_controls(&escape(text), |c, out| match c {
        '\t' | '\n' | '\r' => out.push_str(&format!("&#{};", u32::from(c))),
        _ => out.push('\u{fffd}'),
    })
}

/// `text` with each control character written by `write`.
fn with_controls(text: &str, write: impl Fn(char, &mut String)) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            write(c, &mut out);
        } else {
            out.push(c);
        }
    }
    out
}

/// A node's box on a drawing: top-left corner and size, in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// Space between boxes, pixels.
const GAP_X: f64 = 40.0;
const GAP_Y: f64 = 60.0;

/// The size a node of `node_type` with `text` is drawn at: wide enough for
/// its text at about 7 px a character (wrapped at 30), a circle as wide as
/// high, a point small.
fn size(node_type: NodeType, text: &str) -> (f64, f64) {
    let chars = text.chars().count() as f64;
    let lines = (chars / 30.0).ceil().max(1.0);
    let width = (chars.min(30.0) * 7.0 + 30.0).max(120.0);
    let height = 40.0 + 16.0 * (lines - 1.0);
    match node_type {
        NodeType::Point => (12.0, 12.0),
        NodeType::Circle => (width.max(height), width.max(height)),
        NodeType::Diamond => (width * 1.3, height * 1.6),
        _ => (width, height),
    }
}

/// Where each node of `flowchart` (by index) is drawn: layer by layer from
/// the top ([`layered`]), each layer centred, every box its [`size`].
pub fn placed(flowchart: &Flowchart) -> Vec<Placed> {
    let index: HashMap<NodeId, usize> = (flowchart.nodes.iter().enumerate())
        .map(|(i, n)| (n.id, i))
        .collect();
    let edges: Vec<(usize, usize)> = (flowchart.edges.iter())
        .filter_map(|e| Some((*index.get(&e.from)?, *index.get(&e.to)?)))
        .collect();
    let layout = layered(flowchart.nodes.len(), &edges);
    let sizes: Vec<(f64, f64)> = (flowchart.nodes.iter())
        .map(|n| size(n.node_type, n.text.as_deref().unwrap_or("")))
        .collect();
    let size_of = |v: usize| sizes.get(v).copied().unwrap_or((0.0, 0.0));
    let widths: Vec<f64> = (layout.layers.iter())
        .map(|l| l.iter().map(|&v| size_of(v).0 + GAP_X).sum::<f64>())
        .collect();
    let widest = widths.iter().copied().fold(0.0, f64::max);
    let mut out = vec![
        Placed {
            x: 0.0,
            y: 0.0,
            width: 0.0,
            height: 0.0
        };
        flowchart.nodes.len()
    ];
    let mut y = 20.0;
    for (nodes, width) in layout.layers.iter().zip(&widths) {
        let mut x = 20.0 + (widest - width) / 2.0;
        let tallest = (nodes.iter().map(|&v| size_of(v).1)).fold(0.0, f64::max);
        for &v in nodes {
            let (w, h) = size_of(v);
            if let Some(p) = out.get_mut(v) {
                *p = Placed {
                    x: x.round(),
                    y: (y + (tallest - h) / 2.0).round(),
                    width: w.round(),
                    height: h.round(),
                };
            }
            x += w + GAP_X;
        }
        y += tallest + GAP_Y;
    }
    out
}

/// What a format cannot hold of `flowchart`, as warnings: Mermaid has no
/// wiggly or unknown line (written plain). Every other format holds every
/// type (DOT, GraphML and draw.io through `clef_type`); no diagram format
/// holds the node locations or the meta-nodes of a CLEF-IP file, and
/// GraphML not its title. The declared counts (`MT NO` …) are not written
/// either and not said: they count what the file holds.
pub fn losses(flowchart: &Flowchart, key: &str) -> Vec<String> {
    let mut out = Vec::new();
    if key == "mermaid" {
        for kind in [EdgeType::Wiggly, EdgeType::Unknown] {
            let n = flowchart
                .edges
                .iter()
                .filter(|e| e.edge_type == kind)
                .count();
            if n > 0 {
                out.push(format!(
                    "{n} {} edge{} written as plain: Mermaid has no such line",
                    kind.keyword(),
                    if n == 1 { "" } else { "s" }
                ));
            }
        }
    }
    if key != "clef" && key != "toy" {
        if flowchart.nodes.iter().any(|n| n.location.is_some()) {
            out.push("node locations are not written (boxes are laid out anew)".into());
        }
        if !flowchart.meta_nodes.is_empty() {
            out.push("meta-nodes (`MN`) are not written".into());
        }
        if flowchart.title.is_some() && key == "graphml" {
            out.push("the title is not written".into());
        }
    }
    out
}

#[cfg(test)]
mod tests;
