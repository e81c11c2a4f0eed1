//! draw.io flowcharts (`.drawio`: an `<mxfile>` of pages, or a bare
//! `<mxGraphModel>`; docs/formats.md, "draw.io"). The first page is read,
//! plain or compressed as draw.io writes it (base64 of the raw deflate of
//! the URL-encoded XML); further pages are ignored with a warning. Vertex
//! cells in document order are the nodes 1, 2, …, their type from the
//! style (or an attribute `clef_type`), their text the `value` (a
//! `UserObject`'s `label`); edge cells join their `source` and `target`,
//! undirected when `endArrow=none` and no `startArrow`, dotted when
//! `dashed=1`, their text the `value` and that of their `edgeLabel`
//! children. Group cells change nothing.

use super::built::{self, Built};
use super::diagram_text::cut;
use super::model::{EdgeType, NodeType};
use super::parse::{ParseOptions, Parsed};
use super::xml::{self, is};
use roxmltree::{Document, Node};
use std::collections::{HashMap, HashSet};
use std::io::Read;

/// Largest page a compressed diagram may inflate to: far above any drawn
/// flowchart (a deflate bomb is refused, not inflated).
const MAX_INFLATED: u64 = 64 << 20;

/// Whether `bytes` are a draw.io document: its first element is `mxfile`
/// or `mxGraphModel`.
pub fn looks_like(bytes: &[u8]) -> bool {
    xml::root_name(bytes).is_some_and(|name| name == "mxfile" || name == "mxGraphModel")
}

/// Reads the draw.io document in `bytes` (a file named `file`).
pub fn read(bytes: &[u8], file: &str, _: &ParseOptions) -> Parsed {
    let (mut built, text) = match built::start(bytes, file, "a draw.io document") {
        Ok(started) => started,
        Err(binary) => return *binary,
    };
    let Some(doc) = xml::parse(&text, "a draw.io document", &mut built.sink) else {
        return built.finish();
    };
    let root = doc.root_element();
    match root.tag_name().name() {
        "mxGraphModel" => model(root, &Lines::Own(&xml::LineIndex::new(&text)), &mut built),
        "mxfile" => pages(&doc, &text, root, &mut built),
        other => built.sink.error(
            Some(xml::line(&doc, root)),
            format!("the document's root is `<{}>`, not `<mxfile>` or `<mxGraphModel>`: not a draw.io file", cut(other)),
        ),
    }
    built.finish()
}

/// Where a cell's line comes from: its own document, or the `<diagram>`
/// element a compressed page was read from.
enum Lines<'a> {
    Own(&'a xml::LineIndex),
    Fixed(usize),
}

impl Lines<'_> {
    fn of(&self, node: Node) -> usize {
        match self {
            Lines::Own(index) => index.line(node),
            Lines::Fixed(line) => *line,
        }
    }
}

/// The first `<diagram>` of an `<mxfile>`, plain or compressed.
fn pages(doc: &Document, text: &str, root: Node, built: &mut Built) {
    let pages: Vec<Node> = root.children().filter(|n| is(n, "diagram")).collect();
    let Some(&first) = pages.first() else {
        built.sink.error(
            Some(xml::line(doc, root)),
            "no `<diagram>` page in the draw.io file",
        );
        return;
    };
    let line = xml::line(doc, first);
    if pages.len() > 1 {
        let name = first.attribute("name").unwrap_or("the first");
        built.sink.warning(
            Some(line),
            format!(
                "a file of {} pages: only the first page (`{}`) is read",
                pages.len(),
                cut(name)
            ),
        );
    }
    if let Some(model_node) = first.children().find(|n| is(n, "mxGraphModel")) {
        return model(model_node, &Lines::Own(&xml::LineIndex::new(text)), built);
    }
    let packed = first.text().unwrap_or_default();
    let inner = match inflated(packed) {
        Ok(inner) => inner,
        Err(e) => {
            built
                .sink
                .error(Some(line), format!("the page cannot be decompressed: {e}"));
            return;
        }
    };
    let mut sink = crate::diagnostics::FileDiagnostics::new("");
    let Some(inner_doc) = xml::parse(&inner, "a draw.io page", &mut sink) else {
        built.sink.error(
            Some(line),
            "the decompressed page is not well-formed XML".to_string(),
        );
        return;
    };
    let model_node = inner_doc.root_element();
    if !is(&model_node, "mxGraphModel") {
        built.sink.error(
            Some(line),
            format!(
                "the decompressed page is `<{}>`, not `<mxGraphModel>`",
                cut(model_node.tag_name().name())
            ),
        );
        return;
    }
    model(model_node, &Lines::Fixed(line), built);
}

/// A compressed page's XML: base64, raw deflate, then URL-encoding undone.
fn inflated(packed: &str) -> Result<String, String> {
    use base64::Engine;
    let compact: String = packed.chars().filter(|c| !c.is_whitespace()).collect();
    let deflated = base64::engine::general_purpose::STANDARD
        .decode(compact.as_bytes())
        .map_err(|e| format!("not base64 ({e})"))?;
    let mut encoded = Vec::new();
    flate2::read::DeflateDecoder::new(deflated.as_slice())
        .take(MAX_INFLATED + 1)
        .read_to_end(&mut encoded)
        .map_err(|e| format!("not raw deflate data ({e})"))?;
    if encoded.len() as u64 > MAX_INFLATED {
        return Err(format!("it inflates past {} MiB", MAX_INFLATED >> 20));
    }
    let decoded = percent_decoded(&encoded)?;
    String::from_utf8(decoded).map_err(|_| "its text is not UTF-8".to_string())
}

/// `bytes` with every `%XX` as the byte it stands for (JavaScript's
/// `decodeURIComponent`, the bytes then read as UTF-8).
fn percent_decoded(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| format!("a `%` at byte {i} of the inflated page starts no `%XX`"))?;
            out.push(hex);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    Ok(out)
}

/// One cell of the model, its wrapper's attributes merged.
struct Cell<'a> {
    id: &'a str,
    vertex: bool,
    edge: bool,
    style: Style<'a>,
    value: &'a str,
    parent: Option<&'a str>,
    source: Option<&'a str>,
    target: Option<&'a str>,
    clef_type: Option<&'a str>,
    /// Width and height of its geometry, as written.
    size: Option<(&'a str, &'a str)>,
    line: usize,
}

/// A cell's style: `name;key=value;…`.
struct Style<'a> {
    /// The first entry without `=` (`ellipse`, `rhombus`, `text`, …).
    name: Option<&'a str>,
    pairs: Vec<(&'a str, &'a str)>,
}

impl<'a> Style<'a> {
    fn parse(style: &'a str) -> Self {
        let mut name = None;
        let mut pairs = Vec::new();
        for entry in style.split(';').map(str::trim).filter(|e| !e.is_empty()) {
            match entry.split_once('=') {
                Some((k, v)) => pairs.push((k.trim(), v.trim())),
                None if name.is_none() => name = Some(entry),
                None => {}
            }
        }
        Style { name, pairs }
    }

    fn get(&self, key: &str) -> Option<&'a str> {
        self.pairs
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|&(_, v)| v)
    }

    /// The shape's name: `shape=…`, else the style's first name.
    fn shape(&self) -> Option<&'a str> {
        self.get("shape").or(self.name)
    }

    fn html(&self) -> bool {
        self.get("html") == Some("1")
    }
}

/// The cells of `<root>`, each a `<mxCell>` or a `<UserObject>`/`<object>`
/// holding one.
fn cells<'a>(root: Node<'a, '_>, lines: &Lines) -> Vec<Cell<'a>> {
    let mut out = Vec::new();
    for element in root.children().filter(Node::is_element) {
        let (wrapper, cell) = match element.tag_name().name() {
            "mxCell" => (None, element),
            "UserObject" | "object" => match element.children().find(|n| is(n, "mxCell")) {
                Some(cell) => (Some(element), cell),
                None => continue,
            },
            _ => continue,
        };
        let attr = |name: &str| {
            wrapper
                .and_then(|w| w.attribute(name))
                .or_else(|| cell.attribute(name))
        };
        let geometry = cell.children().find(|n| is(n, "mxGeometry"));
        let style = cell.attribute("style").unwrap_or_default();
        let style_parsed = Style::parse(style);
        out.push(Cell {
            id: attr("id").unwrap_or_default(),
            vertex: cell.attribute("vertex") == Some("1"),
            edge: cell.attribute("edge") == Some("1"),
            clef_type: wrapper
                .and_then(|w| w.attribute("clef_type"))
                .or(style_parsed.get("clef_type")),
            style: style_parsed,
            value: wrapper
                .and_then(|w| w.attribute("label"))
                .or_else(|| cell.attribute("value"))
                .unwrap_or_default(),
            parent: cell.attribute("parent"),
            source: cell.attribute("source"),
            target: cell.attribute("target"),
            size: geometry.and_then(|g| Some((g.attribute("width")?, g.attribute("height")?))),
            line: lines.of(element),
        });
    }
    out
}

/// Reads the flowchart of one `<mxGraphModel>`.
fn model(model: Node, lines: &Lines, built: &mut Built) {
    let Some(root) = model.children().find(|n| is(n, "root")) else {
        built.sink.error(
            Some(lines.of(model)),
            "the `<mxGraphModel>` has no `<root>`",
        );
        return;
    };
    let cells = cells(root, lines);
    let mut by_id: HashMap<&str, &Cell> = HashMap::new();
    for cell in &cells {
        if let Some(first) = by_id.insert(cell.id, cell) {
            built.sink.error(
                Some(cell.line),
                format!(
                    "cell `{}` is given twice (first on line {})",
                    cut(cell.id),
                    first.line
                ),
            );
        }
    }
    let edge_ids: HashSet<&str> = cells.iter().filter(|c| c.edge).map(|c| c.id).collect();
    let is_label = |c: &Cell| {
        c.style.name == Some("edgeLabel") && c.parent.is_some_and(|p| edge_ids.contains(p))
    };
    // An edge's label cells, in document order.
    let mut labels: HashMap<&str, Vec<String>> = HashMap::new();
    for cell in cells.iter().filter(|c| is_label(c)) {
        if let Some(parent) = cell.parent {
            let text = xml::label_text(cell.value, cell.style.html());
            if !text.is_empty() {
                labels.entry(parent).or_default().push(text);
            }
        }
    }
    let mut groups = HashSet::new();
    for cell in cells.iter().filter(|c| c.vertex && !is_label(c)) {
        if cell.style.name == Some("group") {
            groups.insert(cell.id);
            continue;
        }
        let Some(index) = built.node(cell.id, cell.line) else {
            return;
        };
        let node_type = node_type(cell, built);
        built.set(
            index,
            node_type,
            xml::label_text(cell.value, cell.style.html()),
        );
    }
    let mut warned = false;
    for cell in cells.iter().filter(|c| c.edge) {
        let (Some(source), Some(target)) = (cell.source, cell.target) else {
            if !warned {
                warned = true;
                built.sink.warning(
                    Some(cell.line),
                    "an edge not attached at both ends (no `source` or `target`) is dropped",
                );
            }
            continue;
        };
        let ends = (built.index_of(source), built.index_of(target));
        let (Some(a), Some(b)) = ends else {
            let missing = if ends.0.is_none() { source } else { target };
            if groups.contains(missing) {
                built.sink.warning(
                    Some(cell.line),
                    format!(
                        "an edge to the group `{}` is dropped (a group is no node)",
                        cut(missing)
                    ),
                );
            } else {
                built.sink.error(
                    Some(cell.line),
                    format!(
                        "an edge names the cell `{}`, which is no vertex of the page",
                        cut(missing)
                    ),
                );
            }
            continue;
        };
        let kind = match cell.clef_type {
            Some(value) => EdgeType::from_keyword(value.trim()).unwrap_or_else(|| {
                built.sink.warning(
                    Some(cell.line),
                    format!(
                        "edge `{}`: clef_type `{}` is no CLEF-IP edge type; ignored",
                        cut(cell.id),
                        cut(value)
                    ),
                );
                dashed(&cell.style)
            }),
            None => dashed(&cell.style),
        };
        let mut texts = vec![xml::label_text(cell.value, cell.style.html())];
        texts.extend(labels.remove(cell.id).unwrap_or_default());
        texts.retain(|t| !t.is_empty());
        let text = texts.join(" ");
        let arrow = |key: &str, default: &str| cell.style.get(key).unwrap_or(default) != "none";
        match (arrow("endArrow", "classic"), arrow("startArrow", "none")) {
            (true, false) => built.edge(a, b, true, kind, text, cell.line),
            (false, false) => built.edge(a, b, false, kind, text, cell.line),
            (false, true) => built.edge(b, a, true, kind, text, cell.line),
            (true, true) => {
                built.edge(a, b, true, kind, text.clone(), cell.line);
                built.edge(b, a, true, kind, text, cell.line);
            }
        }
    }
}

fn dashed(style: &Style) -> EdgeType {
    if style.get("dashed") == Some("1") {
        EdgeType::Dotted
    } else {
        EdgeType::Plain
    }
}

/// A vertex's type: its `clef_type`, else its style's shape.
fn node_type(cell: &Cell, built: &mut Built) -> NodeType {
    if let Some(value) = cell.clef_type {
        match NodeType::from_keyword(value.trim()) {
            Some(t) => return t,
            None => built.sink.warning(
                Some(cell.line),
                format!(
                    "cell `{}`: clef_type `{}` is no CLEF-IP node type; ignored",
                    cut(cell.id),
                    cut(value)
                ),
            ),
        }
    }
    let round = |(w, h): (&str, &str)| (w.parse::<f64>().ok(), h.parse::<f64>().ok());
    match cell.style.shape() {
        None | Some("rect" | "rectangle" | "label" | "mxgraph.flowchart.process") => {
            NodeType::Rectangle
        }
        Some("ellipse" | "doubleEllipse") => match cell.size.map(round) {
            Some((Some(w), Some(h))) if w == h => NodeType::Circle,
            _ => NodeType::Oval,
        },
        Some(
            "mxgraph.flowchart.terminator"
            | "mxgraph.flowchart.start_1"
            | "mxgraph.flowchart.start_2",
        ) => NodeType::Oval,
        Some("rhombus" | "mxgraph.flowchart.decision") => NodeType::Diamond,
        Some("parallelogram" | "mxgraph.flowchart.data") => NodeType::Parallelogram,
        Some("process" | "mxgraph.flowchart.predefined_process") => NodeType::DoubleRectangle,
        Some("cylinder" | "cylinder3" | "mxgraph.flowchart.database") => NodeType::Cylinder,
        Some("text" | "mxgraph.flowchart.annotation_1" | "mxgraph.flowchart.annotation_2") => {
            NodeType::NoBox
        }
        Some(other) => {
            built.sink.warning(
                Some(cell.line),
                format!(
                    "cell `{}`: unknown shape `{}`; read as `unknown`",
                    cut(cell.id),
                    cut(other)
                ),
            );
            NodeType::Unknown
        }
    }
}

#[cfg(test)]
mod tests;
