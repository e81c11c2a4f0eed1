//! The flowchart file reader (the format of `docs/formats.md`).
//!
//! One record per line, the first token names its kind (`MT`, `NO`, `DE`,
//! `UE`, `CO`, `MN`; case-insensitive). Tokens are separated by blanks or
//! tabs; a text field is everything between the first and the last double
//! quote of the line. Every malformed line gets a diagnostic naming file and
//! line, and reading goes on. Reading is linear in the input size: each line
//! is scanned a bounded number of times, and echoed tokens are shortened.
//!
//! Severity rules (also in `docs/formats.md`): a record that cannot be read
//! into the graph (a node or edge without a usable integer id, a duplicate
//! id, an edge to an undefined node, an unknown record kind in strict mode)
//! is an error and rejects the file; everything that leaves the graph intact
//! (declared counts, unknown or missing types, bad locations, junk after the
//! fields, a missing quote, encoding fallbacks) is a warning.

use super::model::{Declared, Edge, EdgeType, Flowchart, MetaNode, Node, NodeId, NodeType};
use crate::diagnostics::{Diagnostic, FileDiagnostics, Severity};
use std::borrow::Cow;
use std::collections::HashMap;
use std::num::IntErrorKind;

/// How strictly to read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// An unknown record kind is an error (rejects the file) instead of a warning.
    pub strict: bool,
}

/// A flowchart as read, with the diagnostics of its file in line order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parsed {
    /// What could be read. Records that caused an error are left out.
    pub flowchart: Flowchart,
    /// At most [`crate::diagnostics::MAX_PER_FILE`], then one that counts the
    /// rest.
    pub diagnostics: Vec<Diagnostic>,
    /// Errors found, listed or not (the counting diagnostic not included).
    pub errors: usize,
    /// Warnings found, listed or not.
    pub warnings: usize,
}

impl Parsed {
    /// A file with any error is rejected: its topic scores as missing.
    pub fn is_rejected(&self) -> bool {
        self.errors > 0
    }
}

/// Longest token echoed in a message, in characters.
const MAX_ECHO: usize = 40;

const BLANKS: [char; 2] = [' ', '\t'];

/// Largest flowchart file read (16 MiB; real ones hold a few kilobytes): a
/// larger file is rejected with an error naming it, without being read.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Whether `bytes` look like a CLEF-IP flowchart text: UTF-16 with its
/// byte-order mark, or a first line that is not blank starting with one of
/// the record kinds (`MT`, `NO`, `DE`, `UE`, `CO`, `MN`, any case) and a
/// blank or the line's end.
pub fn looks_like(bytes: &[u8]) -> bool {
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        return true;
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let Some(line) = (bytes.split(|&b| b == b'\n'))
        .map(|l| l.trim_ascii())
        .find(|l| !l.is_empty())
    else {
        return false;
    };
    let (kind, rest) = line.split_at(line.len().min(2));
    let known = ["MT", "NO", "DE", "UE", "CO", "MN"]
        .iter()
        .any(|k| kind.eq_ignore_ascii_case(k.as_bytes()));
    known && rest.first().is_none_or(|b| *b == b' ' || *b == b'\t')
}

/// Reads the bytes of one flowchart file; `file_name` is used in diagnostics.
/// Binary data (docs/formats.md, "Binary files") is rejected with one error
/// and read as an empty flowchart.
pub fn parse(bytes: &[u8], file_name: &str, options: &ParseOptions) -> Parsed {
    let mut reader = Reader {
        options: *options,
        sink: Sink::new(file_name),
        flowchart: Flowchart::default(),
        node_lines: HashMap::new(),
        title_line: None,
        declared_lines: [None; 3],
    };
    let text = decode(bytes, &mut reader.sink);
    if let Some(error) =
        crate::diagnostics::binary_data(file_name, text.as_bytes(), "a flowchart file")
    {
        return Parsed {
            diagnostics: vec![error],
            errors: 1,
            ..Parsed::default()
        };
    }
    for (index, raw) in text.split('\n').enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        reader.line(index + 1, line);
    }
    reader.finish()
}

/// Strips a UTF-8 BOM and decodes: UTF-8, else UTF-16 when a UTF-16 BOM
/// says so, else Latin-1 (every byte is a character), with a warning.
fn decode<'a>(bytes: &'a [u8], sink: &mut Sink) -> Cow<'a, str> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        sink.push(
            Severity::Warning,
            None,
            "file is UTF-16 (little endian); read as such, but save flowcharts as UTF-8".into(),
        );
        return Cow::Owned(decode_utf16(rest, u16::from_le_bytes));
    }
    if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        sink.push(
            Severity::Warning,
            None,
            "file is UTF-16 (big endian); read as such, but save flowcharts as UTF-8".into(),
        );
        return Cow::Owned(decode_utf16(rest, u16::from_be_bytes));
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(e) => {
            let valid = bytes.get(..e.valid_up_to()).unwrap_or_default();
            let line = 1 + valid.iter().filter(|&&b| b == b'\n').count();
            sink.push(
                Severity::Warning,
                Some(line),
                "not valid UTF-8 (first invalid byte on this line); the file is read as Latin-1"
                    .into(),
            );
            Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect())
        }
    }
}

fn decode_utf16(bytes: &[u8], unit: fn([u8; 2]) -> u16) -> String {
    let (pairs, _odd_byte) = bytes.as_chunks::<2>();
    char::decode_utf16(pairs.iter().map(|&pair| unit(pair)))
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect()
}

/// The diagnostics of one file, capped by [`crate::diagnostics::MAX_PER_FILE`].
struct Sink(FileDiagnostics);

impl Sink {
    fn new(file: &str) -> Self {
        Sink(FileDiagnostics::new(file))
    }

    fn push(&mut self, severity: Severity, line: Option<usize>, message: String) {
        self.0.push(severity, line, message);
    }

    fn warn(&mut self, line: usize, message: String) {
        self.push(Severity::Warning, Some(line), message);
    }

    fn error(&mut self, line: usize, message: String) {
        self.push(Severity::Error, Some(line), message);
    }

    /// The listed diagnostics in line order (file-wide ones first), then
    /// one that counts those not listed.
    fn finish(mut self, flowchart: Flowchart) -> Parsed {
        self.0.sort_by_line();
        let (errors, warnings) = (self.0.errors(), self.0.warnings());
        Parsed {
            flowchart,
            diagnostics: self.0.finish(),
            errors,
            warnings,
        }
    }
}

/// A line cut at its first and last double quote.
struct Fields<'a> {
    /// Before the first quote (the whole line when it has none).
    head: &'a str,
    /// Between the first and the last quote.
    text: Option<&'a str>,
    /// After the last quote.
    tail: &'a str,
    /// Only one quote: the text runs to the end of the line.
    unterminated: bool,
}

impl<'a> Fields<'a> {
    fn of(line: &'a str) -> Self {
        match line.split_once('"') {
            None => Fields {
                head: line,
                text: None,
                tail: "",
                unterminated: false,
            },
            Some((head, after)) => match after.rsplit_once('"') {
                Some((text, tail)) => Fields {
                    head,
                    text: Some(text),
                    tail,
                    unterminated: false,
                },
                None => Fields {
                    head,
                    text: Some(after.trim_end_matches(BLANKS)),
                    tail: "",
                    unterminated: true,
                },
            },
        }
    }
}

/// The next blank-separated token of `s` and what follows it.
fn next_token(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_start_matches(BLANKS);
    if s.is_empty() {
        None
    } else {
        Some(s.split_once(BLANKS).unwrap_or((s, "")))
    }
}

fn is_blank(s: &str) -> bool {
    s.trim_matches(BLANKS).is_empty()
}

/// `s` (trimmed) for a message, in backquotes, shortened to [`MAX_ECHO`] characters.
fn echo(s: &str) -> String {
    let s = s.trim_matches(BLANKS);
    let mut chars = s.chars();
    let shown: String = chars.by_ref().take(MAX_ECHO).collect();
    if chars.next().is_some() {
        format!("`{shown}…`")
    } else {
        format!("`{shown}`")
    }
}

/// Why a token is not a node id, or the id.
fn parse_id(token: &str) -> Result<NodeId, String> {
    token.parse::<NodeId>().map_err(|e| match e.kind() {
        IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
            format!("{} is beyond the 64-bit integer range", echo(token))
        }
        _ => format!("{} is not an integer", echo(token)),
    })
}

/// `(x,y)` with blanks allowed around the numbers; finite numbers only.
fn parse_location(s: &str) -> Option<(f64, f64)> {
    let inner = s
        .trim_matches(BLANKS)
        .strip_prefix('(')?
        .strip_suffix(')')?;
    let (x, y) = inner.split_once(',')?;
    let x: f64 = x.trim_matches(BLANKS).parse().ok()?;
    let y: f64 = y.trim_matches(BLANKS).parse().ok()?;
    (x.is_finite() && y.is_finite()).then_some((x, y))
}

/// Which `MT` count a line declares.
#[derive(Clone, Copy)]
enum Count {
    Nodes,
    Directed,
    Undirected,
}

impl Count {
    fn of(word: &str) -> Option<Self> {
        [
            ("NO", Count::Nodes),
            ("DE", Count::Directed),
            ("UE", Count::Undirected),
        ]
        .into_iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(word))
        .map(|(_, c)| c)
    }

    fn keyword(self) -> &'static str {
        match self {
            Count::Nodes => "NO",
            Count::Directed => "DE",
            Count::Undirected => "UE",
        }
    }

    fn what(self) -> &'static str {
        match self {
            Count::Nodes => "nodes",
            Count::Directed => "directed edges",
            Count::Undirected => "undirected edges",
        }
    }

    /// The records of this kind in `flowchart`.
    fn records(self, flowchart: &Flowchart) -> usize {
        match self {
            Count::Nodes => flowchart.nodes.len(),
            Count::Directed => flowchart.directed_edge_count(),
            Count::Undirected => flowchart.undirected_edge_count(),
        }
    }

    /// The line of this count's `MT` record among `lines` (one per kind).
    fn line(self, lines: &mut [Option<usize>; 3]) -> &mut Option<usize> {
        let [nodes, directed, undirected] = lines;
        match self {
            Count::Nodes => nodes,
            Count::Directed => directed,
            Count::Undirected => undirected,
        }
    }

    fn slot(self, declared: &mut Declared) -> &mut Option<u64> {
        match self {
            Count::Nodes => &mut declared.nodes,
            Count::Directed => &mut declared.directed_edges,
            Count::Undirected => &mut declared.undirected_edges,
        }
    }
}

struct Reader {
    options: ParseOptions,
    sink: Sink,
    flowchart: Flowchart,
    /// Line of the `NO` record of each node id.
    node_lines: HashMap<NodeId, usize>,
    title_line: Option<usize>,
    /// Line of the `MT NO`, `MT DE`, `MT UE` records (by [`Count`]).
    declared_lines: [Option<usize>; 3],
}

impl Reader {
    fn line(&mut self, n: usize, line: &str) {
        if is_blank(line) {
            return;
        }
        let fields = Fields::of(line);
        let Some((kind, rest)) = next_token(fields.head) else {
            self.unknown_kind(n, "line does not start with a record kind".into());
            return;
        };
        let is = |k: &str| kind.eq_ignore_ascii_case(k);
        if is("CO") {
            return;
        }
        if is("MN") {
            // Kept as written: everything after the keyword, quotes included
            // (a stray carriage return at the end is dropped like a blank).
            let trimmed = line.trim_start_matches(BLANKS);
            let members = trimmed.get(kind.len()..).unwrap_or_default();
            self.meta_node(n, members.trim_matches([' ', '\t', '\r']));
            return;
        }
        let known = is("MT") || is("NO") || is("DE") || is("UE");
        if !known {
            self.unknown_kind(
                n,
                format!(
                    "unknown record kind {} (expected MT, NO, DE, UE, CO or MN)",
                    echo(kind)
                ),
            );
            return;
        }
        if fields.unterminated {
            self.sink.warn(
                n,
                "unterminated quote: the text runs to the end of the line".into(),
            );
        }
        if is("MT") {
            self.meta(n, rest, &fields);
        } else if is("NO") {
            self.node(n, rest, &fields);
        } else {
            self.edge(n, is("DE"), rest, &fields);
        }
    }

    fn unknown_kind(&mut self, n: usize, message: String) {
        if self.options.strict {
            self.sink.error(n, message);
        } else {
            self.sink.warn(n, format!("{message}; line ignored"));
        }
    }

    /// Warns about anything but blanks in `junk`, found `place`.
    fn junk(&mut self, n: usize, junk: &str, place: &str) {
        if !is_blank(junk) {
            self.sink
                .warn(n, format!("unexpected {} {place}; ignored", echo(junk)));
        }
    }

    /// Warns about junk between the fields and the text, and after the text.
    fn no_more(&mut self, n: usize, rest: &str, fields: &Fields, after_fields: &str) {
        self.junk(n, rest, after_fields);
        if fields.text.is_some() {
            self.junk(n, fields.tail, "after the text");
        }
    }

    fn meta(&mut self, n: usize, rest: &str, fields: &Fields) {
        let Some((key, rest)) = next_token(rest) else {
            self.sink.warn(
                n,
                "MT record without a field name (Title, NO, DE or UE); ignored".into(),
            );
            return;
        };
        if key.eq_ignore_ascii_case("title") {
            self.title(n, rest, fields);
        } else if let Some(count) = Count::of(key) {
            self.count(n, count, rest, fields);
        } else {
            self.sink.warn(
                n,
                format!(
                    "unknown MT field {} (expected Title, NO, DE or UE); ignored",
                    echo(key)
                ),
            );
        }
    }

    fn title(&mut self, n: usize, rest: &str, fields: &Fields) {
        let title = match fields.text {
            Some(text) => {
                self.no_more(n, rest, fields, "before the title");
                text
            }
            None => {
                let bare = rest.trim_matches(BLANKS);
                if bare.is_empty() {
                    self.sink
                        .warn(n, "MT Title without a title; ignored".into());
                    return;
                }
                self.sink.warn(
                    n,
                    "MT Title without quotes; the rest of the line is taken as the title".into(),
                );
                bare
            }
        };
        match self.title_line {
            Some(first) => self.sink.warn(
                n,
                format!("second MT Title (the first is on line {first}); ignored"),
            ),
            None => {
                self.title_line = Some(n);
                self.flowchart.title = Some(title.to_string());
            }
        }
    }

    fn count(&mut self, n: usize, count: Count, rest: &str, fields: &Fields) {
        let key = count.keyword();
        let Some((value, rest)) = next_token(rest) else {
            self.sink
                .warn(n, format!("MT {key} without a count; ignored"));
            return;
        };
        let Ok(value) = value.parse::<u64>() else {
            self.sink.warn(
                n,
                format!(
                    "MT {key} count {} is not a non-negative integer; ignored",
                    echo(value)
                ),
            );
            return;
        };
        self.junk(n, rest, "after the count");
        if let Some(text) = fields.text {
            self.sink.warn(
                n,
                format!("unexpected text {} after the count; ignored", echo(text)),
            );
            self.junk(n, fields.tail, "after the text");
        }
        let line = count.line(&mut self.declared_lines);
        match *line {
            Some(first) => self.sink.warn(
                n,
                format!("second MT {key} (the first is on line {first}); ignored"),
            ),
            None => {
                *line = Some(n);
                *count.slot(&mut self.flowchart.declared) = Some(value);
            }
        }
    }

    fn node(&mut self, n: usize, rest: &str, fields: &Fields) {
        let Some((id, rest)) = next_token(rest) else {
            self.sink
                .error(n, "NO record without a node id; the node is ignored".into());
            return;
        };
        let id = match parse_id(id) {
            Ok(id) => id,
            Err(why) => {
                self.sink
                    .error(n, format!("node id {why}; the node is ignored"));
                return;
            }
        };
        let (node_type, rest) = self.type_field(
            n,
            rest,
            format_args!("node {id}"),
            "node",
            NodeType::from_keyword,
            NodeType::Unknown,
        );
        // The location comes last: after the text, or after the type when
        // there is no text.
        let (before_location, location_field, place) = match fields.text {
            Some(_) => (rest, fields.tail, "after the text"),
            None => ("", rest, "after the node type"),
        };
        self.junk(n, before_location, "before the text");
        let location = if !location_field.trim_start_matches(BLANKS).starts_with('(') {
            self.junk(n, location_field, place);
            None
        } else {
            let parsed = parse_location(location_field);
            if parsed.is_none() {
                self.sink.warn(
                    n,
                    format!(
                        "{} is not a location `(x,y)` of finite numbers; ignored",
                        echo(location_field)
                    ),
                );
            }
            parsed
        };
        if let Some(first) = self.node_lines.get(&id) {
            self.sink.error(
                n,
                format!(
                    "duplicate node id {id} (first defined on line {first}); this node is ignored"
                ),
            );
            return;
        }
        self.node_lines.insert(id, n);
        self.flowchart.nodes.push(Node {
            id,
            node_type,
            text: fields.text.map(str::to_string),
            location,
            line: n,
        });
    }

    /// The type keyword that starts `rest` and what follows it; `unknown`
    /// with a warning when the keyword is missing or not a type `what`.
    fn type_field<'a, T>(
        &mut self,
        n: usize,
        rest: &'a str,
        subject: std::fmt::Arguments,
        what: &str,
        lookup: fn(&str) -> Option<T>,
        unknown: T,
    ) -> (T, &'a str) {
        let Some((word, rest)) = next_token(rest) else {
            self.sink.warn(
                n,
                format!("{subject} has no {what} type; read as `unknown`"),
            );
            return (unknown, "");
        };
        let found = lookup(word).unwrap_or_else(|| {
            self.sink.warn(
                n,
                format!("unknown {what} type {}; read as `unknown`", echo(word)),
            );
            unknown
        });
        (found, rest)
    }

    fn edge(&mut self, n: usize, directed: bool, rest: &str, fields: &Fields) {
        let kind = if directed { "DE" } else { "UE" };
        let Some((a, rest)) = next_token(rest) else {
            self.sink.error(
                n,
                format!("{kind} record without node ids; the edge is ignored"),
            );
            return;
        };
        let Some((b, rest)) = next_token(rest) else {
            self.sink.error(
                n,
                format!("{kind} record with only one node id; the edge is ignored"),
            );
            return;
        };
        let (from, to) = match (parse_id(a), parse_id(b)) {
            (Ok(from), Ok(to)) => (from, to),
            (from, to) => {
                for why in [from.err(), to.err()].into_iter().flatten() {
                    self.sink
                        .error(n, format!("edge endpoint {why}; the edge is ignored"));
                }
                return;
            }
        };
        let (edge_type, rest) = self.type_field(
            n,
            rest,
            format_args!("{kind} {from} {to}"),
            "edge",
            EdgeType::from_keyword,
            EdgeType::Unknown,
        );
        let place = if fields.text.is_some() {
            "before the text"
        } else {
            "after the edge type"
        };
        self.no_more(n, rest, fields, place);
        self.flowchart.edges.push(Edge {
            from,
            to,
            directed,
            edge_type,
            text: fields.text.map(str::to_string),
            line: n,
        });
    }

    fn meta_node(&mut self, n: usize, members: &str) {
        if members.is_empty() {
            self.sink
                .warn(n, "MN record without members; ignored".into());
            return;
        }
        self.flowchart.meta_nodes.push(MetaNode {
            fields: members.to_string(),
            line: n,
        });
    }

    /// Checks that need the whole file: edge endpoints, declared counts.
    fn finish(mut self) -> Parsed {
        let node_lines = &self.node_lines;
        let sink = &mut self.sink;
        self.flowchart.edges.retain(|e| {
            let mut undefined = vec![e.from];
            if e.to != e.from {
                undefined.push(e.to);
            }
            undefined.retain(|id| !node_lines.contains_key(id));
            if undefined.is_empty() {
                return true;
            }
            let names: Vec<String> = undefined.iter().map(i64::to_string).collect();
            let noun = if names.len() == 1 {
                "node id"
            } else {
                "node ids"
            };
            sink.error(
                e.line,
                format!(
                    "edge names {noun} {}, which no NO record defines; the edge is ignored",
                    names.join(" and ")
                ),
            );
            false
        });
        for count in [Count::Nodes, Count::Directed, Count::Undirected] {
            let declared = *count.slot(&mut self.flowchart.declared);
            let (Some(declared), Some(line)) = (declared, *count.line(&mut self.declared_lines))
            else {
                continue;
            };
            let records = count.records(&self.flowchart);
            if declared != records as u64 {
                self.sink.warn(
                    line,
                    format!(
                        "MT {} {declared} differs from the number of {} read ({records}); the records win",
                        count.keyword(),
                        count.what()
                    ),
                );
            }
        }
        if self.flowchart.nodes.is_empty() {
            self.sink.push(
                Severity::Warning,
                None,
                "no nodes: the flowchart is empty".into(),
            );
        }
        self.sink.finish(self.flowchart)
    }
}

#[cfg(test)]
mod tests;
