//! Mermaid flowcharts (`flowchart` and `graph` diagrams), as image-to-
//! diagram models write them, alone (`.mmd`, `.mermaid`) or as the first
//! ```` ```mermaid ```` block of a Markdown answer (docs/formats.md,
//! "Mermaid"). Nodes are numbered 1, 2, … in the order their ids first
//! appear; a node's type comes from its shape (the table of the docs), its
//! text from the shape's text (a bare id is its own text). Edges: `-->`
//! (any length), `==>`, `--o`, `--x` directed plain; `-.->` directed
//! dotted; `---`, `===` undirected plain; `-.-` undirected dotted; `<-->`,
//! `o--o`, `x--x` one directed edge each way; `~~~` names its nodes and
//! adds no edge. Chains (`a --> b --> c`) and `&` groups expand. Subgraphs,
//! classes, styles, clicks and `%%` comments change no node or edge; an
//! edge to a subgraph is dropped with a warning. A statement that cannot
//! be read is an error (the file is rejected); an unknown shape a warning
//! (the node reads as `unknown`).

use super::answer;
use super::built::{self, Built};
use super::diagram_text::{Dialect, cut, plain};
use super::model::{EdgeType, NodeType};
use super::parse::{ParseOptions, Parsed};
use std::collections::HashSet;

/// The first diagram block of a Markdown `text`, when it is Mermaid.
fn mermaid_block(text: &str) -> Option<answer::Block<'_>> {
    answer::first_block(text).filter(|b| b.language == answer::Language::Mermaid)
}

/// Whether `bytes` are a Mermaid flowchart: a Markdown block tagged
/// `mermaid`, or a first line (comments and front matter aside) that is
/// `flowchart` or `graph` not followed by `{` (that is DOT).
pub fn looks_like(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    header_at(text.lines()).is_some() || mermaid_block(&text).is_some()
}

/// The line index (0-based) of the diagram's header among `lines`, if the
/// first line that is not blank, a `%%` comment or front matter is one.
fn header_at<'a>(lines: impl Iterator<Item = &'a str>) -> Option<usize> {
    let mut in_front_matter = false;
    for (i, line) in lines.enumerate() {
        let t = line.trim().trim_start_matches('\u{feff}');
        if i == 0 && t == "---" {
            in_front_matter = true;
            continue;
        }
        if in_front_matter {
            in_front_matter = t != "---";
            continue;
        }
        if t.is_empty() || t.starts_with("%%") {
            continue;
        }
        return is_header(t).then_some(i);
    }
    None
}

/// Whether a line opens a Mermaid flowchart: `flowchart` or `graph`, then
/// the end, a blank or `;`; not when a `{` follows `graph` and an optional
/// name (that is DOT: `graph {`, `graph G {`).
fn is_header(line: &str) -> bool {
    let word: String = line.chars().take_while(char::is_ascii_alphabetic).collect();
    let rest = line.get(word.len()..).unwrap_or_default();
    let after_name = rest
        .trim_start()
        .trim_start_matches(|c: char| c.is_alphanumeric() || c == '_' || c == '"')
        .trim_start();
    (word == "flowchart" || word == "graph")
        && rest
            .chars()
            .next()
            .is_none_or(|c| c.is_whitespace() || c == ';')
        && !after_name.starts_with('{')
}

/// Reads the Mermaid flowchart in `bytes` (a file named `file`).
pub fn read(bytes: &[u8], file: &str, _: &ParseOptions) -> Parsed {
    let (mut built, text) = match built::start(bytes, file, "a Mermaid flowchart") {
        Ok(started) => started,
        Err(binary) => return *binary,
    };
    let text: &str = &text;
    let (first, lines) = match mermaid_block(text) {
        Some(block) => {
            answer::warn_outside(text, &block, &mut built.sink);
            (block.first, block.lines)
        }
        None => (0, text.lines().collect()),
    };
    let mut reader = Reader::new(built);
    match header_at(lines.iter().copied()) {
        Some(at) => {
            if memchr::memmem::find(text.as_bytes(), b"subgraph").is_some() {
                reader.subgraphs = subgraph_ids(&lines);
            }
            for (i, line) in lines.iter().copied().enumerate().skip(at) {
                let number = first + i + 1;
                let line = if i == at { after_header(line) } else { line };
                reader.line(number, line);
            }
        }
        None => reader.built.sink.error(
            Some(first + 1),
            "no Mermaid flowchart: the diagram must start with `flowchart` or `graph` \
             (and a direction such as TD)",
        ),
    }
    reader.finish()
}

/// The statements after the header on its own line (`graph TD; A-->B`).
fn after_header(line: &str) -> &str {
    let t = line.trim_start();
    let word_end = t
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(t.len());
    let rest = t.get(word_end..).unwrap_or_default().trim_start();
    let direction = ["TB", "TD", "BT", "LR", "RL", ">", "<", "^", "v"]
        .iter()
        .find(|d| {
            rest.strip_prefix(**d)
                .is_some_and(|after| after.chars().next().is_none_or(|c| !c.is_alphanumeric()))
        });
    let rest = direction.map_or(rest, |d| rest.get(d.len()..).unwrap_or_default());
    rest.trim_start().strip_prefix(';').unwrap_or(rest)
}

/// The ids of every subgraph (`subgraph id`, `subgraph id [title]`; a
/// subgraph named only by a title has no id an edge could name).
fn subgraph_ids(lines: &[&str]) -> HashSet<String> {
    (lines.iter())
        .filter_map(|l| l.trim().strip_prefix("subgraph "))
        .filter_map(|rest| {
            let id: String = rest.trim().chars().take_while(|&c| is_id_char(c)).collect();
            (!id.is_empty()).then_some(id)
        })
        .collect()
}

fn is_id_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '.' | '$' | '\'')
}

/// How a link is drawn, read from its characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Link {
    /// Edges it gives: none (`~~~`), one, or one each way.
    arrows: Arrows,
    edge_type: EdgeType,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arrows {
    None,
    Undirected,
    Forward,
    Both,
}

/// The reading of one file: its nodes by Mermaid id, its edges and its
/// diagnostics.
struct Reader {
    built: Built,
    subgraphs: HashSet<String>,
    /// Subgraph ids an edge named, each warned of once.
    warned: HashSet<String>,
}

/// A statement and the place read in it (a byte offset, always at a
/// character boundary).
struct Cursor<'a> {
    s: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn rest_str(&self) -> &str {
        self.s.get(self.at..).unwrap_or_default()
    }

    fn peek(&self) -> Option<char> {
        self.rest_str().chars().next()
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.rest_str().chars().nth(k)
    }

    fn starts_with(&self, s: &str) -> bool {
        self.rest_str().starts_with(s)
    }

    /// Moves past the character here.
    fn bump(&mut self) {
        self.at += self.peek().map_or(0, char::len_utf8);
    }

    /// Moves past `n` characters.
    fn skip(&mut self, n: usize) {
        for _ in 0..n {
            self.bump();
        }
    }

    fn skip_blanks(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    fn done(&mut self) -> bool {
        self.skip_blanks();
        self.at >= self.s.len()
    }

    /// The text from here up to (not including) the first `close` outside
    /// double quotes; the cursor then stands after `close`. `close` is
    /// ASCII, so a byte-wise search never stops inside a character.
    fn until(&mut self, close: &str) -> Option<&'a str> {
        let s: &'a str = self.s;
        let rest = s.get(self.at..)?;
        let bytes = rest.as_bytes();
        let first = *close.as_bytes().first()?;
        let (mut from, mut quoted) = (0, false);
        while let Some(k) = memchr::memchr2(b'"', first, bytes.get(from..)?) {
            let i = from + k;
            from = i + 1;
            if bytes.get(i) == Some(&b'"') {
                quoted = !quoted;
            } else if !quoted
                && bytes
                    .get(i..)
                    .is_some_and(|r| r.starts_with(close.as_bytes()))
            {
                self.at += i + close.len();
                return rest.get(..i);
            }
        }
        None
    }

    /// The statement from here, for messages (cut at 40 characters).
    fn rest(&self) -> String {
        cut(self.rest_str())
    }
}

/// A node named in a statement: its index, or a subgraph's id.
enum Named {
    Node(usize),
    Subgraph(String),
    /// A node past the cap on nodes (said once), in no edge.
    Dropped,
}

impl Reader {
    fn new(built: Built) -> Self {
        Reader {
            built,
            subgraphs: HashSet::new(),
            warned: HashSet::new(),
        }
    }

    /// Reads one line: its statements, split at `;` outside quotes and
    /// brackets.
    fn line(&mut self, number: usize, line: &str) {
        let t = line.trim();
        if t.is_empty() || t.starts_with("%%") {
            return;
        }
        if memchr::memchr(b';', t.as_bytes()).is_none() {
            return self.statement(number, t);
        }
        for statement in statements(t) {
            self.statement(number, statement.trim());
        }
    }

    fn statement(&mut self, number: usize, s: &str) {
        let end = s
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(s.len());
        let (keyword, after) = s.split_at(end);
        let ends_word = after
            .chars()
            .next()
            .is_none_or(|c| !is_id_char(c) && c != '-');
        let ignored = [
            "subgraph",
            "end",
            "direction",
            "classDef",
            "class",
            "style",
            "linkStyle",
            "click",
            "accTitle",
            "accDescr",
        ];
        if s.is_empty() || (ends_word && ignored.contains(&keyword)) {
            return;
        }
        let mut cursor = Cursor { s, at: 0 };
        if let Err(message) = self.chain(number, &mut cursor) {
            self.built.sink.error(Some(number), message);
        }
    }

    /// `group (link group)*`, every pair of neighbouring groups joined.
    fn chain(&mut self, number: usize, c: &mut Cursor) -> Result<(), String> {
        let mut left = self.group(number, c)?;
        while !c.done() {
            let (link, text) = link(c)?;
            let right = self.group(number, c)?;
            for a in &left {
                for b in &right {
                    self.edge(number, a, b, link, text);
                }
            }
            left = right;
        }
        Ok(())
    }

    /// `node ('&' node)*`.
    fn group(&mut self, number: usize, c: &mut Cursor) -> Result<Vec<Named>, String> {
        let mut group = vec![self.node(number, c)?];
        loop {
            c.skip_blanks();
            if c.peek() != Some('&') {
                return Ok(group);
            }
            c.bump();
            group.push(self.node(number, c)?);
        }
    }

    /// One node: its id, then a shape with its text, then `:::class`.
    fn node(&mut self, number: usize, c: &mut Cursor) -> Result<Named, String> {
        c.skip_blanks();
        let start = c.at;
        loop {
            // ASCII letters and digits, the id's usual characters, byte by byte.
            if c.s
                .as_bytes()
                .get(c.at)
                .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
            {
                c.at += 1;
                continue;
            }
            let Some(ch) = c.peek() else { break };
            let hyphen_in_id = ch == '-'
                && c.at > start
                && c.peek_at(1)
                    .is_some_and(|n| n.is_alphanumeric() || n == '_');
            if is_id_char(ch) || hyphen_in_id {
                c.bump();
            } else {
                break;
            }
        }
        let id = c.s.get(start..c.at).unwrap_or_default();
        if id.is_empty() {
            return Err(format!("expected a node id at `{}`", c.rest()));
        }
        let shape = shape(c, id).map_err(|e| format!("node `{id}`: {e}"))?;
        if c.starts_with(":::") {
            c.skip(3);
            while c.peek().is_some_and(|ch| is_id_char(ch) || ch == '-') {
                c.bump();
            }
        }
        if shape.is_none() && self.subgraphs.contains(id) {
            return Ok(Named::Subgraph(id.to_string()));
        }
        if let Some((_, _, Some(unknown))) = &shape {
            self.built.sink.warning(
                Some(number),
                format!("node `{id}`: unknown shape {unknown}; read as `unknown`"),
            );
        }
        Ok(self.define(number, id, shape))
    }

    /// The node `id`, added at `line` when new; a shape given sets its type
    /// and text (the last one given wins). Past the cap on nodes, none.
    fn define(&mut self, line: usize, id: &str, shape: Option<Shape>) -> Named {
        let Some(index) = self.built.node(id, line) else {
            return Named::Dropped;
        };
        if let Some((node_type, text, _)) = shape {
            self.built.set(index, node_type, text);
        }
        Named::Node(index)
    }

    fn edge(&mut self, line: usize, a: &Named, b: &Named, link: Link, text: Option<&str>) {
        let (a, b) = match (a, b) {
            (Named::Node(a), Named::Node(b)) => (*a, *b),
            (Named::Dropped, _) | (_, Named::Dropped) => return,
            (Named::Subgraph(s), _) | (_, Named::Subgraph(s)) => {
                if self.warned.insert(s.clone()) {
                    self.built.sink.warning(
                        Some(line),
                        format!("an edge to the subgraph `{s}` is dropped (a subgraph is no node)"),
                    );
                }
                return;
            }
        };
        let text = text.map(|t| plain(t, Dialect::Mermaid)).unwrap_or_default();
        let (kind, built) = (link.edge_type, &mut self.built);
        match link.arrows {
            Arrows::None => {}
            Arrows::Undirected => built.edge(a, b, false, kind, text, line),
            Arrows::Forward => built.edge(a, b, true, kind, text, line),
            Arrows::Both => {
                built.edge(a, b, true, kind, text.clone(), line);
                built.edge(b, a, true, kind, text, line);
            }
        }
    }

    fn finish(self) -> Parsed {
        self.built.finish()
    }
}

/// A node's type, its text, and the name of an unknown shape (to warn of).
type Shape = (NodeType, String, Option<String>);

/// The shapes by their opening and closing characters, longest first.
const SHAPES: &[(&str, &str, NodeType)] = &[
    ("(((", ")))", NodeType::Circle),
    ("((", "))", NodeType::Circle),
    ("([", "])", NodeType::Oval),
    ("[(", ")]", NodeType::Cylinder),
    ("[[", "]]", NodeType::DoubleRectangle),
    ("{{", "}}", NodeType::Unknown),
    ("[", "]", NodeType::Rectangle),
    ("(", ")", NodeType::Oval),
    ("{", "}", NodeType::Diamond),
    (">", "]", NodeType::Unknown),
];

/// The shape after the node `id`, if one follows: `None` for a bare id.
fn shape(c: &mut Cursor, id: &str) -> Result<Option<Shape>, String> {
    if c.starts_with("@{") {
        c.skip(2);
        let body = c.until("}").ok_or("`@{` without its `}`")?;
        return Ok(Some(named_shape(body, id)));
    }
    if !matches!(c.s.as_bytes().get(c.at), Some(b'(' | b'[' | b'{' | b'>')) {
        return Ok(None);
    }
    for &(open, close, node_type) in SHAPES {
        if !c.starts_with(open) {
            continue;
        }
        c.at += open.len();
        // `[/t/]`, `[\t\]` lean; `[/t\]`, `[\t/]` trapezoids.
        if open == "[" && matches!(c.peek(), Some('/' | '\\')) {
            let lean = c.peek().unwrap_or('/');
            c.bump();
            let body = c.until("]").ok_or("`[` without its `]`")?;
            let (text, last) = match body.chars().last() {
                Some(l @ ('/' | '\\')) => (body.get(..body.len() - 1).unwrap_or_default(), l),
                _ => return Err(format!("`[{lean}` closed without `/` or `\\`")),
            };
            let text = plain(text, Dialect::Mermaid);
            return Ok(Some(if last == lean {
                (NodeType::Parallelogram, text, None)
            } else {
                (NodeType::Unknown, text, Some("trapezoid".into()))
            }));
        }
        let body = c
            .until(close)
            .ok_or_else(|| format!("`{open}` without its `{close}`"))?;
        let unknown = (node_type == NodeType::Unknown).then(|| format!("`{open}…{close}`"));
        return Ok(Some((node_type, plain(body, Dialect::Mermaid), unknown)));
    }
    Ok(None)
}

/// The shape of `@{ shape: name, label: "text" }` (other keys ignored) of
/// the node `id`. Without a label the text is the id, as Mermaid has it,
/// but for a point, which Mermaid draws without text.
fn named_shape(body: &str, id: &str) -> Shape {
    let mut name = "rect";
    let mut label = None;
    for pair in fields(body) {
        let Some((key, value)) = pair.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match key.trim() {
            "shape" => name = value.trim_matches('"'),
            "label" => label = Some(plain(value, Dialect::Mermaid)),
            _ => {}
        }
    }
    let node_type = match name {
        "rect" | "rectangle" | "proc" | "process" => NodeType::Rectangle,
        "stadium" | "terminal" | "pill" | "rounded" | "event" => NodeType::Oval,
        "circle" | "circ" | "dbl-circ" | "double-circle" => NodeType::Circle,
        "diam" | "diamond" | "decision" | "question" => NodeType::Diamond,
        "lean-r" | "lean-right" | "lean-l" | "lean-left" | "in-out" | "out-in" => {
            NodeType::Parallelogram
        }
        "subproc" | "subprocess" | "subroutine" | "fr-rect" | "framed-rectangle" => {
            NodeType::DoubleRectangle
        }
        "cyl" | "cylinder" | "db" | "database" => NodeType::Cylinder,
        "text" => NodeType::NoBox,
        "sm-circ" | "small-circle" | "start" => NodeType::Point,
        _ => NodeType::Unknown,
    };
    let unknown = (node_type == NodeType::Unknown).then(|| format!("`{name}`"));
    let text = match (label, node_type) {
        (Some(label), _) => label,
        (None, NodeType::Point) => String::new(),
        (None, _) => id.to_string(),
    };
    (node_type, text, unknown)
}

/// `body` split at commas outside double quotes.
fn fields(body: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut quoted) = (0, false);
    for (i, ch) in body.char_indices() {
        match ch {
            '"' => quoted = !quoted,
            ',' if !quoted => {
                out.push(body.get(start..i).unwrap_or_default());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(body.get(start..).unwrap_or_default());
    out
}

/// A line's statements: split at `;` outside double quotes and brackets.
fn statements(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut quoted, mut depth) = (0, false, 0i32);
    for (i, ch) in line.char_indices() {
        match ch {
            '"' => quoted = !quoted,
            '[' | '(' | '{' if !quoted => depth += 1,
            ']' | ')' | '}' if !quoted => depth -= 1,
            ';' if !quoted && depth <= 0 => {
                out.push(line.get(start..i).unwrap_or_default());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(line.get(start..).unwrap_or_default());
    out
}

/// The link at the cursor and its text (`-->|t|`, `-- t -->`).
fn link<'a>(c: &mut Cursor<'a>) -> Result<(Link, Option<&'a str>), String> {
    c.skip_blanks();
    let start = c.at;
    // A start marker: `<`, or `o`/`x` right before the line.
    let begin = match c.peek() {
        Some(m @ ('<' | 'o' | 'x')) if matches!(c.peek_at(1), Some('-' | '=')) => {
            c.bump();
            Some(m)
        }
        _ => None,
    };
    let Some(body) = c.peek() else {
        return Err(expected_link(c));
    };
    if begin.is_none() && c.starts_with("~~~") {
        while c.peek() == Some('~') {
            c.bump();
        }
        let link = Link {
            arrows: Arrows::None,
            edge_type: EdgeType::Plain,
        };
        return Ok((link, pipe_text(c)?));
    }
    let (edge_type, dash) = match (body, c.peek_at(1)) {
        ('-', Some('.')) => (EdgeType::Dotted, '.'),
        ('-', Some('-')) => (EdgeType::Plain, '-'),
        ('=', Some('=')) => (EdgeType::Plain, '='),
        _ => {
            c.at = start;
            return Err(expected_link(c));
        }
    };
    c.skip(2);
    // The line's own characters; `-- text -->` when a blank and text follow.
    let mut length = 2;
    while c.peek() == Some(dash) || (dash == '.' && c.peek() == Some('.')) {
        c.bump();
        length += 1;
    }
    let mut text = None;
    if dash == '.' {
        if c.peek() == Some('-') {
            c.bump();
            length += 1;
        } else if c.peek().is_some_and(char::is_whitespace) {
            // `-. text .->`
            let body = c.until(".-").ok_or_else(|| expected_link(c))?;
            text = Some(body);
            length = 3;
        } else {
            c.at = start;
            return Err(expected_link(c));
        }
    } else if length == 2 && c.peek().is_some_and(|ch| ch.is_whitespace() || ch == '"') {
        // `-- text -->`, `== text ==>`: the text runs to the next line of
        // the same kind.
        let close: String = [dash, dash].iter().collect();
        let body = c.until(&close).ok_or_else(|| expected_link(c))?;
        text = Some(body);
        while c.peek() == Some(dash) {
            c.bump();
        }
        length = 3;
    }
    // The end marker.
    let end = match c.peek() {
        Some('>') => {
            c.bump();
            Some('>')
        }
        Some(m @ ('o' | 'x')) if c.peek_at(1).is_none_or(|n| !is_id_char(n)) => {
            c.bump();
            Some(m)
        }
        _ => None,
    };
    let arrows = match (begin, end) {
        (None, None) if length >= 3 => Arrows::Undirected,
        (None, Some(_)) => Arrows::Forward,
        (Some('<'), Some('>')) | (Some('o'), Some('o')) | (Some('x'), Some('x')) => Arrows::Both,
        _ => {
            c.at = start;
            return Err(expected_link(c));
        }
    };
    let link = Link { arrows, edge_type };
    let piped = pipe_text(c)?;
    Ok((link, piped.or(text)))
}

/// The error of a statement with no link where one must be.
fn expected_link(c: &Cursor) -> String {
    format!("expected a link such as `-->` at `{}`", c.rest())
}

/// The `|text|` right after a link, if any.
fn pipe_text<'a>(c: &mut Cursor<'a>) -> Result<Option<&'a str>, String> {
    if c.peek() != Some('|') {
        return Ok(None);
    }
    c.bump();
    let text = c.until("|").ok_or("`|` without its closing `|`")?;
    Ok(Some(text))
}

#[cfg(test)]
mod tests;
