//! Graphviz DOT flowcharts (`.dot`, `.gv`, or the first ```` ```dot ````
//! block of a Markdown answer; docs/formats.md, "Graphviz DOT"): the whole
//! DOT language as Graphviz reads it — `strict`, `graph`/`digraph`, node,
//! edge and graph statements, `node [...]` and `edge [...]` defaults
//! scoped by subgraphs, `a -> {b c}` and chains, ports, quoted strings
//! with `+`, HTML-like labels, comments — of which a node's `shape`,
//! `peripheries`, `label`, `style` and `clef_type` and an edge's `dir`,
//! `style`, `label` and `clef_type` are read; every other attribute is
//! ignored. Nodes are numbered in the order their names first appear.

use super::answer;
use super::built::{self, Built};
use super::diagram_text::{Dialect, cut, plain};
use super::model::{EdgeType, NodeType};
use super::parse::{ParseOptions, Parsed};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// Deepest nesting of subgraphs and attribute lists read; deeper is an
/// error (a hostile file cannot exhaust the stack).
const MAX_DEPTH: usize = 100;

/// Whether `bytes` are a DOT graph: a Markdown block tagged `dot`,
/// `graphviz` or `gv`, or a text whose first word (comments aside) is
/// `digraph`, `strict`, or `graph` followed by `{` after an optional name.
pub fn looks_like(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    let text = text.trim_start_matches('\u{feff}');
    if let Some(block) = answer::first_block(text) {
        return block.language == answer::Language::Dot;
    }
    let mut lexer = Lexer::new(text);
    let first = lexer.next_token();
    let second = lexer.next_token();
    let third = lexer.next_token();
    match (first, second, third) {
        (Ok(Some(a)), Ok(b), Ok(c)) => match a.word().as_deref() {
            Some("digraph" | "strict") => true,
            Some("graph") => {
                let open = |t: &Option<Token>| t.as_ref().is_some_and(|t| t.is_punct('{'));
                open(&b) || (b.as_ref().is_some_and(|t| t.id().is_some()) && open(&c))
            }
            _ => false,
        },
        _ => false,
    }
}

/// Reads the DOT graph in `bytes` (a file named `file`).
pub fn read(bytes: &[u8], file: &str, _: &ParseOptions) -> Parsed {
    let (mut built, text) = match built::start(bytes, file, "a DOT graph") {
        Ok(started) => started,
        Err(binary) => return *binary,
    };
    let text: &str = &text;
    let (source, first_line) = match answer::first_block(text) {
        Some(block) if block.language == answer::Language::Dot => {
            answer::warn_outside(text, &block, &mut built.sink);
            (Cow::Owned(block.lines.join("\n")), block.first)
        }
        _ => (Cow::Borrowed(text), 0),
    };
    let mut reader = Reader {
        lexer: Lexer::new(&source),
        peeked: None,
        first_line,
        built,
        directed: true,
        strict: false,
        graph_name: String::new(),
        scopes: vec![Scope::default()],
        nodes: Vec::new(),
        edges: Vec::new(),
        strict_edges: HashMap::new(),
    };
    if let Err(e) = reader.graph() {
        reader
            .built
            .sink
            .error(Some(e.line + first_line), e.message);
    }
    reader.finish()
}

/// A syntax error and its line within the DOT text (1-based).
struct Syntax {
    line: usize,
    message: String,
}

/// How an identifier was written: its text's meaning depends on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A name or a number.
    Plain,
    /// `"…"`: label escapes (`\n`, `\N`, …) and entities apply.
    Quoted,
    /// `<…>`: an HTML-like label, its tags stripped.
    Html,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok<'a> {
    /// Borrowed from the text but where escapes or `+` changed it.
    Id(Cow<'a, str>, Kind),
    Punct(char),
    /// `->` (true) or `--` (false).
    Edge(bool),
}

#[derive(Clone, Debug, PartialEq)]
struct Token<'a> {
    tok: Tok<'a>,
    line: usize,
}

impl<'a> Token<'a> {
    /// The identifier's text, borrowed from the file where it can be.
    fn id_text(&self) -> Option<Cow<'a, str>> {
        match &self.tok {
            Tok::Id(s, _) => Some(s.clone()),
            _ => None,
        }
    }

    fn id(&self) -> Option<(&str, Kind)> {
        match &self.tok {
            Tok::Id(s, k) => Some((s.as_ref(), *k)),
            _ => None,
        }
    }

    /// A plain identifier in lowercase (keywords are case-insensitive).
    fn word(&self) -> Option<String> {
        match &self.tok {
            Tok::Id(s, Kind::Plain) => Some(s.to_ascii_lowercase()),
            _ => None,
        }
    }

    fn is_punct(&self, c: char) -> bool {
        self.tok == Tok::Punct(c)
    }

    fn is_keyword(&self, k: &str) -> bool {
        matches!(&self.tok, Tok::Id(s, Kind::Plain) if s.eq_ignore_ascii_case(k))
    }
}

struct Lexer<'a> {
    text: &'a str,
    at: usize,
    line: usize,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Self {
        Lexer {
            text,
            at: 0,
            line: 1,
        }
    }

    fn rest(&self) -> &'a str {
        self.text.get(self.at..).unwrap_or_default()
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn error(&self, message: impl Into<String>) -> Syntax {
        Syntax {
            line: self.line,
            message: message.into(),
        }
    }

    /// Whether only blanks stand before the place read on its line.
    fn at_line_start(&self) -> bool {
        let before = self.text.get(..self.at).unwrap_or_default();
        before
            .rsplit('\n')
            .next()
            .is_none_or(|l| l.trim().is_empty())
    }

    /// Skips blanks and comments: `// …`, `/* … */`, and a line starting
    /// with `#` (C preprocessor output).
    fn skip(&mut self) -> Result<(), Syntax> {
        loop {
            // ASCII blanks without decoding characters.
            while let Some(&b) = self.text.as_bytes().get(self.at) {
                match b {
                    b' ' | b'\t' | b'\r' => self.at += 1,
                    b'\n' => {
                        self.at += 1;
                        self.line += 1;
                    }
                    _ => break,
                }
            }
            // Most tokens start with an ASCII byte that opens no comment.
            if (self.text.as_bytes().get(self.at))
                .is_some_and(|b| b.is_ascii() && !matches!(b, b'/' | b'#' | 0x0b | 0x0c))
            {
                return Ok(());
            }
            let rest = self.rest();
            if rest.starts_with(char::is_whitespace) {
                self.bump();
            } else if rest.starts_with("//") || (rest.starts_with('#') && self.at_line_start()) {
                while self.peek().is_some_and(|c| c != '\n') {
                    self.bump();
                }
            } else if rest.starts_with("/*") {
                let line = self.line;
                match rest.find("*/") {
                    Some(end) => {
                        for _ in rest.get(..end + 2).unwrap_or_default().chars() {
                            self.bump();
                        }
                    }
                    None => {
                        return Err(Syntax {
                            line,
                            message: "a `/*` comment is never closed".into(),
                        });
                    }
                }
            } else {
                return Ok(());
            }
        }
    }

    fn next_token(&mut self) -> Result<Option<Token<'a>>, Syntax> {
        self.skip()?;
        let line = self.line;
        let Some(c) = self.peek() else {
            return Ok(None);
        };
        let rest = self.rest();
        let tok = if rest.starts_with("->") || rest.starts_with("--") {
            self.bump();
            self.bump();
            Tok::Edge(rest.starts_with("->"))
        } else if matches!(c, '{' | '}' | '[' | ']' | '=' | ';' | ',' | ':') {
            self.bump();
            Tok::Punct(c)
        } else if c == '"' {
            let mut s = self.quoted()?;
            // `"a" + "b"` is one string.
            loop {
                let (at, line) = (self.at, self.line);
                self.skip()?;
                if self.peek() == Some('+') {
                    self.bump();
                    self.skip()?;
                    if self.peek() == Some('"') {
                        let more = self.quoted()?;
                        s.to_mut().push_str(&more);
                        continue;
                    }
                    return Err(self.error("`+` must join two quoted strings"));
                }
                (self.at, self.line) = (at, line);
                break;
            }
            Tok::Id(s, Kind::Quoted)
        } else if c == '<' {
            Tok::Id(self.html()?, Kind::Html)
        } else if c.is_alphanumeric() || c == '_' || c == '.' || c == '-' || !c.is_ascii() {
            let start = self.at;
            let bytes = self.text.as_bytes();
            if c == '-' || c == '.' || c.is_ascii_digit() {
                self.at += 1;
                while bytes
                    .get(self.at)
                    .is_some_and(|b| b.is_ascii_digit() || *b == b'.')
                {
                    self.at += 1;
                }
            } else {
                // ASCII letters, digits and `_` byte by byte; any other
                // character (never a line feed) is taken whole.
                loop {
                    match bytes.get(self.at) {
                        Some(b) if b.is_ascii_alphanumeric() || *b == b'_' => self.at += 1,
                        Some(b) if !b.is_ascii() => {
                            self.bump();
                        }
                        _ => break,
                    }
                }
            }
            let word = self.text.get(start..self.at).unwrap_or_default();
            if word == "-" || word == "." {
                return Err(self.error(format!("unexpected `{word}`")));
            }
            Tok::Id(Cow::Borrowed(word), Kind::Plain)
        } else {
            return Err(self.error(format!("unexpected character `{c}`")));
        };
        Ok(Some(Token { tok, line }))
    }

    /// A `"…"` string without its quotes: `\"` is a quote, a backslash
    /// before a line break joins the lines, other escapes stay for labels.
    fn quoted(&mut self) -> Result<Cow<'a, str>, Syntax> {
        let line = self.line;
        self.bump();
        // Borrowed when no escape comes before the closing quote.
        let rest = self.rest();
        if let Some(end) = memchr::memchr2(b'"', b'\\', rest.as_bytes())
            && rest.as_bytes().get(end) == Some(&b'"')
        {
            let body = rest.get(..end).unwrap_or_default();
            self.line += memchr::memchr_iter(b'\n', body.as_bytes()).count();
            self.at += end + 1;
            return Ok(Cow::Borrowed(body));
        }
        let mut s = String::new();
        loop {
            // The text up to the next quote, backslash or line feed is taken
            // whole (none of the three is part of a longer character).
            let rest = self.rest();
            let plain = memchr::memchr3(b'"', b'\\', b'\n', rest.as_bytes()).unwrap_or(rest.len());
            s.push_str(rest.get(..plain).unwrap_or_default());
            self.at += plain;
            match self.bump() {
                None => {
                    return Err(Syntax {
                        line,
                        message: "a quoted string is never closed".into(),
                    });
                }
                Some('"') => return Ok(Cow::Owned(s)),
                Some('\\') => match self.peek() {
                    Some('"') => {
                        self.bump();
                        s.push('"');
                    }
                    Some('\n') => {
                        self.bump();
                    }
                    Some('\r') => {
                        self.bump();
                        if self.peek() == Some('\n') {
                            self.bump();
                        }
                    }
                    _ => s.push('\\'),
                },
                Some(c) => s.push(c),
            }
        }
    }

    /// An HTML-like string `<…>` (its `<` and `>` nested) without its outer
    /// brackets.
    fn html(&mut self) -> Result<Cow<'a, str>, Syntax> {
        let line = self.line;
        self.bump();
        let start = self.at;
        let mut depth = 1usize;
        while let Some(c) = self.bump() {
            match c {
                '<' => depth += 1,
                '>' => {
                    depth -= 1;
                    if depth == 0 {
                        let end = self.at - 1;
                        return Ok(Cow::Borrowed(self.text.get(start..end).unwrap_or_default()));
                    }
                }
                _ => {}
            }
        }
        Err(Syntax {
            line,
            message: "an HTML-like label `<…>` is never closed".into(),
        })
    }
}

/// An attribute's value and how it was written.
#[derive(Clone, Debug)]
struct Value<'a> {
    text: Cow<'a, str>,
    kind: Kind,
}

/// Defaults of a scope, each attribute once.
type Attrs<'a> = HashMap<Cow<'a, str>, Value<'a>>;

/// A statement's own attributes, as written: the last of a name wins.
/// Looked up by a scan (a few per statement); a node's or edge's
/// attributes are read a fixed number of times, so the scans stay linear
/// in the file.
type Own<'a> = Vec<(Cow<'a, str>, Value<'a>)>;

/// The value of `key` among `own`, else among `defaults`.
fn lookup<'v, 'a>(own: &'v Own<'a>, defaults: &'v Attrs<'a>, key: &str) -> Option<&'v Value<'a>> {
    (own.iter().rev().find(|(k, _)| k.as_ref() == key))
        .map(|(_, v)| v)
        .or_else(|| defaults.get(key))
}

/// The defaults of a graph or subgraph, shared by the nodes and edges
/// made under them until a default changes.
#[derive(Clone, Default)]
struct Scope<'a> {
    node: Rc<Attrs<'a>>,
    edge: Rc<Attrs<'a>>,
}

/// An edge as declared, with the defaults in force at its creation.
struct RawEdge<'a> {
    tail: usize,
    head: usize,
    /// Both shared by the edges of one statement.
    defaults: Rc<Attrs<'a>>,
    own: Rc<Own<'a>>,
    line: usize,
}

impl<'a> RawEdge<'a> {
    fn get(&self, key: &str) -> Option<&Value<'a>> {
        lookup(&self.own, &self.defaults, key)
    }
}

struct Reader<'a> {
    lexer: Lexer<'a>,
    peeked: Option<Option<Token<'a>>>,
    /// Lines before the DOT text in the file (a Markdown answer's).
    first_line: usize,
    built: Built,
    directed: bool,
    strict: bool,
    graph_name: String,
    scopes: Vec<Scope<'a>>,
    /// Each node's name, attributes and line, by index.
    nodes: Vec<NodeDecl<'a>>,
    edges: Vec<RawEdge<'a>>,
    /// The edge of each (tail, head) in a strict graph.
    strict_edges: HashMap<(usize, usize), usize>,
}

struct NodeDecl<'a> {
    name: Cow<'a, str>,
    /// The defaults it was made under, and its own attributes (which win).
    defaults: Rc<Attrs<'a>>,
    attrs: Own<'a>,
    line: usize,
}

impl<'a> NodeDecl<'a> {
    fn get(&self, key: &str) -> Option<&Value<'a>> {
        lookup(&self.attrs, &self.defaults, key)
    }
}

impl<'a> Reader<'a> {
    fn peek(&mut self) -> Result<Option<&Token<'a>>, Syntax> {
        if self.peeked.is_none() {
            self.peeked = Some(self.lexer.next_token()?);
        }
        Ok(self.peeked.as_ref().and_then(Option::as_ref))
    }

    fn next(&mut self) -> Result<Option<Token<'a>>, Syntax> {
        match self.peeked.take() {
            Some(t) => Ok(t),
            None => self.lexer.next_token(),
        }
    }

    fn error(&self, message: impl Into<String>) -> Syntax {
        self.lexer.error(message)
    }

    fn expect(&mut self, c: char, what: &str) -> Result<(), Syntax> {
        match self.next()? {
            Some(t) if t.is_punct(c) => Ok(()),
            Some(t) => Err(Syntax {
                line: t.line,
                message: format!("expected `{c}` {what}, found {}", shown(&t)),
            }),
            None => Err(self.error(format!("expected `{c}` {what}, found the end"))),
        }
    }

    /// `[strict] (graph | digraph) [ID] { statements }`; anything after the
    /// first graph is ignored with a warning.
    fn graph(&mut self) -> Result<(), Syntax> {
        let mut first = self.next()?;
        if first.as_ref().is_some_and(|t| t.is_keyword("strict")) {
            self.strict = true;
            first = self.next()?;
        }
        match first.as_ref().and_then(Token::word).as_deref() {
            Some("digraph") => self.directed = true,
            Some("graph") => self.directed = false,
            _ => {
                return Err(match first {
                    Some(t) => Syntax {
                        line: t.line,
                        message: format!(
                            "a DOT graph starts with `digraph` or `graph`, found {}",
                            shown(&t)
                        ),
                    },
                    None => self.error("no DOT graph: the text is empty"),
                });
            }
        }
        if let Some((name, _)) = self.peek()?.and_then(Token::id) {
            self.graph_name = name.to_string();
            self.next()?;
        }
        self.expect('{', "to open the graph")?;
        self.statements(0)?;
        if let Some(t) = self.next()? {
            self.built.sink.warning(
                Some(t.line + self.first_line),
                "only the first graph of a DOT file is read; the rest is ignored",
            );
        }
        Ok(())
    }

    /// Statements up to and including the `}` that closes them; the node
    /// names they mention, in order (a subgraph as an edge's end).
    fn statements(&mut self, depth: usize) -> Result<Vec<usize>, Syntax> {
        if depth > MAX_DEPTH {
            return Err(self.error(format!("subgraphs nested more than {MAX_DEPTH} deep")));
        }
        // The graph's own statements name no subgraph's nodes: nothing to list.
        let mut mentioned = Mentioned {
            off: depth == 0,
            ..Mentioned::default()
        };
        loop {
            let (close, separator) = match self.peek()? {
                Some(t) => (t.is_punct('}'), t.is_punct(';')),
                None => return Err(self.error("the graph's `{` is never closed by `}`")),
            };
            if close {
                self.next()?;
                return Ok(mentioned.list);
            }
            if separator {
                self.next()?;
                continue;
            }
            self.statement(depth, &mut mentioned)?;
        }
    }

    fn statement(&mut self, depth: usize, mentioned: &mut Mentioned) -> Result<(), Syntax> {
        let Some(t) = self.next()? else {
            return Err(self.error("unexpected end of the graph"));
        };
        let keyword = ["graph", "node", "edge"]
            .into_iter()
            .find(|k| t.is_keyword(k));
        if let Some(keyword) = keyword {
            let attrs = self.attr_lists(false)?;
            let scope = self.scopes.last_mut();
            match (keyword, scope) {
                ("node", Some(scope)) => Rc::make_mut(&mut scope.node).extend(attrs),
                ("edge", Some(scope)) => Rc::make_mut(&mut scope.edge).extend(attrs),
                _ => {}
            }
            return Ok(());
        }
        let tails = if t.is_keyword("subgraph") || t.is_punct('{') {
            self.subgraph(t.clone(), depth)?
        } else if let Some(name) = t.id_text() {
            if self.peek()?.is_some_and(|n| n.is_punct('=')) {
                // `ID = ID`: a graph attribute.
                self.next()?;
                self.value(|| "after `=`".into())?;
                return Ok(());
            }
            self.port()?;
            let Some(index) = self.node(name, t.line) else {
                return Ok(());
            };
            if !self.peek()?.is_some_and(|n| matches!(n.tok, Tok::Edge(_))) {
                let attrs = self.attr_lists(true)?;
                if let Some(node) = self.nodes.get_mut(index) {
                    node.attrs.extend(attrs);
                }
                mentioned.push(&[index]);
                return Ok(());
            }
            vec![index]
        } else {
            return Err(Syntax {
                line: t.line,
                message: format!("expected a statement, found {}", shown(&t)),
            });
        };
        mentioned.push(&tails);
        // An edge statement: ends joined by `->` or `--`, then attributes.
        let mut ends = vec![(tails, t.line)];
        while let Some(&Token {
            tok: Tok::Edge(arrow),
            line: op_line,
        }) = self.peek()?
        {
            self.next()?;
            if arrow != self.directed {
                let (written, wanted) = if self.directed {
                    ("--", "->")
                } else {
                    ("->", "--")
                };
                return Err(Syntax {
                    line: op_line,
                    message: format!(
                        "`{written}` in a {}: its edges are written `{wanted}`",
                        if self.directed { "digraph" } else { "graph" }
                    ),
                });
            }
            let Some(head) = self.next()? else {
                return Err(self.error("an edge without its second end"));
            };
            let heads = if head.is_keyword("subgraph") || head.is_punct('{') {
                self.subgraph(head, depth)?
            } else if let Some(name) = head.id_text() {
                self.port()?;
                self.node(name, head.line).into_iter().collect()
            } else {
                return Err(Syntax {
                    line: head.line,
                    message: format!("expected a node after the edge, found {}", shown(&head)),
                });
            };
            mentioned.push(&heads);
            ends.push((heads, op_line));
        }
        let own = Rc::new(self.attr_lists(true)?);
        let defaults = (self.scopes.last())
            .map(|s| Rc::clone(&s.edge))
            .unwrap_or_default();
        for pair in ends.windows(2) {
            if let [(tails, _), (heads, line)] = pair {
                for &tail in tails {
                    for &head in heads {
                        self.edge(tail, head, &defaults, &own, *line);
                    }
                }
            }
        }
        Ok(())
    }

    /// `[subgraph [ID]] { statements }`, `first` being `subgraph` or `{`:
    /// its own scope of defaults; the nodes it mentions.
    fn subgraph(&mut self, first: Token<'a>, depth: usize) -> Result<Vec<usize>, Syntax> {
        if first.is_keyword("subgraph") {
            if self.peek()?.is_some_and(|t| t.id().is_some()) {
                self.next()?;
            }
            self.expect('{', "to open the subgraph")?;
        }
        let scope = self.scopes.last().cloned().unwrap_or_default();
        self.scopes.push(scope);
        let mentioned = self.statements(depth + 1);
        self.scopes.pop();
        mentioned
    }

    /// An optional port after a node name (`:port`, `:port:sw`), ignored.
    fn port(&mut self) -> Result<(), Syntax> {
        for _ in 0..2 {
            if !self.peek()?.is_some_and(|t| t.is_punct(':')) {
                return Ok(());
            }
            self.next()?;
            self.value(|| "after `:`".into())?;
        }
        Ok(())
    }

    /// The value next; `what` says where it was expected, for the error.
    fn value(&mut self, what: impl FnOnce() -> String) -> Result<Value<'a>, Syntax> {
        match self.next()? {
            Some(Token {
                tok: Tok::Id(text, kind),
                ..
            }) => Ok(Value { text, kind }),
            Some(t) => Err(Syntax {
                line: t.line,
                message: format!("expected a value {}, found {}", what(), shown(&t)),
            }),
            None => Err(self.error(format!("expected a value {}, found the end", what()))),
        }
    }

    /// `[a=b, c=d; e=f] [g=h]`, none or more; `optional` when none may
    /// follow (a node or edge statement), else one must (`node [...]`).
    fn attr_lists(&mut self, optional: bool) -> Result<Own<'a>, Syntax> {
        let mut attrs = Own::new();
        let mut lists = 0;
        while self.peek()?.is_some_and(|t| t.is_punct('[')) {
            self.next()?;
            lists += 1;
            loop {
                let Some(t) = self.next()? else {
                    return Err(self.error("an attribute list `[` is never closed by `]`"));
                };
                if t.is_punct(']') {
                    break;
                }
                if t.is_punct(',') || t.is_punct(';') {
                    continue;
                }
                let Token {
                    tok: Tok::Id(key, _),
                    ..
                } = t
                else {
                    return Err(Syntax {
                        line: t.line,
                        message: format!("expected an attribute name, found {}", shown(&t)),
                    });
                };
                // `[a]` alone sets `a=true`.
                let value = if self.peek()?.is_some_and(|n| n.is_punct('=')) {
                    self.next()?;
                    self.value(|| format!("for `{key}`"))?
                } else {
                    Value {
                        text: "true".into(),
                        kind: Kind::Plain,
                    }
                };
                attrs.push((key, value));
            }
        }
        if lists == 0 && !optional {
            return Err(self.error("`node`, `edge` or `graph` without its `[...]`"));
        }
        Ok(attrs)
    }

    /// The node named `name`: added with the defaults of the scope it first
    /// appears in.
    fn node(&mut self, name: Cow<'a, str>, line: usize) -> Option<usize> {
        let known = self.nodes.len();
        let index = self.built.node(&name, line + self.first_line)?;
        if index < known {
            return Some(index);
        }
        let defaults = (self.scopes.last())
            .map(|s| Rc::clone(&s.node))
            .unwrap_or_default();
        self.nodes.push(NodeDecl {
            name,
            defaults,
            attrs: Own::new(),
            line: line + self.first_line,
        });
        Some(index)
    }

    fn edge(
        &mut self,
        tail: usize,
        head: usize,
        defaults: &Rc<Attrs<'a>>,
        own: &Rc<Own<'a>>,
        line: usize,
    ) {
        if self.strict {
            let key = if self.directed || tail <= head {
                (tail, head)
            } else {
                (head, tail)
            };
            if let Some(existing) = self
                .strict_edges
                .get(&key)
                .and_then(|&i| self.edges.get_mut(i))
            {
                // The later statement's attributes win, its defaults too.
                let merged = Rc::make_mut(&mut existing.own);
                merged.extend(defaults.iter().map(|(k, v)| (k.clone(), v.clone())));
                merged.extend(own.iter().cloned());
                return;
            }
            self.strict_edges.insert(key, self.edges.len());
        }
        // One past the cap, so that the flowchart's cap says so.
        if self.edges.len() <= super::built::MAX_ITEMS {
            self.edges.push(RawEdge {
                tail,
                head,
                defaults: Rc::clone(defaults),
                own: Rc::clone(own),
                line: line + self.first_line,
            });
        }
    }

    /// Every node's and edge's type and text from its attributes.
    fn finish(mut self) -> Parsed {
        let nodes = std::mem::take(&mut self.nodes);
        for (index, node) in nodes.iter().enumerate() {
            let node_type = self.node_type(node);
            let text = match node.get("label") {
                Some(label) => self.label(label, &[("N", node.name.as_ref())]),
                None if node_type == NodeType::Point => String::new(),
                // Graphviz's default label `\N`: the name, as a label.
                None => super::diagram_text::entities_decoded(&node.name),
            };
            self.built.set(index, node_type, text);
        }
        let edges = std::mem::take(&mut self.edges);
        for edge in edges {
            self.finish_edge(&nodes, edge);
        }
        self.built.finish()
    }

    fn node_type(&mut self, node: &NodeDecl<'a>) -> NodeType {
        let name = &node.name;
        if let Some(value) = node.get("clef_type") {
            match NodeType::from_keyword(value.text.trim()) {
                Some(t) => return t,
                None => self.built.sink.warning(
                    Some(node.line),
                    format!(
                        "node `{name}`: clef_type `{}` is no CLEF-IP node type; ignored",
                        cut(&value.text)
                    ),
                ),
            }
        }
        let shape = (node.get("shape")).map_or(Cow::Borrowed("ellipse"), |v| lowercase(&v.text));
        let double = (node.get("peripheries"))
            .and_then(|p| p.text.trim().parse::<u32>().ok())
            .is_some_and(|p| p >= 2);
        match shape.as_ref() {
            "box" | "rect" | "rectangle" | "square" if double => NodeType::DoubleRectangle,
            "box" | "rect" | "rectangle" | "square" => NodeType::Rectangle,
            "ellipse" | "oval" => NodeType::Oval,
            "circle" | "doublecircle" => NodeType::Circle,
            "diamond" => NodeType::Diamond,
            "parallelogram" => NodeType::Parallelogram,
            "cylinder" => NodeType::Cylinder,
            "plaintext" | "plain" | "none" => NodeType::NoBox,
            "point" => NodeType::Point,
            other => {
                self.built.sink.warning(
                    Some(node.line),
                    format!(
                        "node `{name}`: unknown shape `{}`; read as `unknown`",
                        cut(other)
                    ),
                );
                NodeType::Unknown
            }
        }
    }

    fn finish_edge(&mut self, nodes: &[NodeDecl<'a>], edge: RawEdge<'a>) {
        let name = |i: usize| nodes.get(i).map_or("", |n| n.name.as_ref());
        let (tail, head) = (name(edge.tail), name(edge.head));
        let style = edge
            .get("style")
            .map_or(Cow::Borrowed(""), |s| lowercase(&s.text));
        if style.split(',').any(|s| s.trim() == "invis") {
            return;
        }
        let kind = match edge.get("clef_type") {
            Some(v) => EdgeType::from_keyword(v.text.trim()).unwrap_or_else(|| {
                self.built.sink.warning(
                    Some(edge.line),
                    format!(
                        "edge `{tail}` to `{head}`: clef_type `{}` is no CLEF-IP edge type; ignored",
                        cut(&v.text)
                    ),
                );
                plain_or_dotted(&style)
            }),
            None => plain_or_dotted(&style),
        };
        let text = edge
            .get("label")
            .map(|l| {
                // `\E` names the edge: made only for a label that may say it.
                let edge_name = match l.text.contains('\\') {
                    true => format!("{tail}{}{head}", if self.directed { "->" } else { "--" }),
                    false => String::new(),
                };
                self.label(l, &[("T", tail), ("H", head), ("E", &edge_name)])
            })
            .unwrap_or_default();
        let dir = edge
            .get("dir")
            .map_or(Cow::Borrowed("forward"), |d| lowercase(&d.text));
        let (a, b) = (edge.tail, edge.head);
        let built = &mut self.built;
        match (self.directed, dir.as_ref()) {
            (false, _) | (true, "none") => built.edge(a, b, false, kind, text, edge.line),
            (true, "back") => built.edge(b, a, true, kind, text, edge.line),
            (true, "both") => {
                built.edge(a, b, true, kind, text.clone(), edge.line);
                built.edge(b, a, true, kind, text, edge.line);
            }
            _ => built.edge(a, b, true, kind, text, edge.line),
        }
    }

    /// A label's plain text: an HTML-like label without its tags; a quoted
    /// one with its escapes (`\n`, `\l`, `\r` a blank, `\N` and the like
    /// the names in `names` or the graph's) and entities decoded.
    fn label(&self, value: &Value, names: &[(&str, &str)]) -> String {
        match value.kind {
            Kind::Html => plain(&value.text, Dialect::Markup),
            Kind::Plain => value.text.to_string(),
            Kind::Quoted => {
                let mut out = String::with_capacity(value.text.len());
                let mut chars = value.text.chars();
                while let Some(c) = chars.next() {
                    if c != '\\' {
                        out.push(c);
                        continue;
                    }
                    match chars.next() {
                        Some('n' | 'l' | 'r') => out.push(' '),
                        Some('G') => out.push_str(&self.graph_name),
                        Some(e @ ('N' | 'T' | 'H' | 'E')) => {
                            let key = e.to_string();
                            if let Some((_, name)) = names.iter().find(|(k, _)| *k == key) {
                                out.push_str(name);
                            }
                        }
                        Some(other) => out.push(other),
                        None => {}
                    }
                }
                super::diagram_text::entities_decoded(&out)
            }
        }
    }
}

/// `text` in ASCII lower case, copied only when it has an upper-case letter.
fn lowercase(text: &str) -> Cow<'_, str> {
    if text.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(text.to_ascii_lowercase())
    } else {
        Cow::Borrowed(text)
    }
}

fn plain_or_dotted(style: &str) -> EdgeType {
    if style
        .split(',')
        .any(|s| matches!(s.trim(), "dotted" | "dashed"))
    {
        EdgeType::Dotted
    } else {
        EdgeType::Plain
    }
}

/// The nodes a subgraph mentions, each once, in the order first
/// mentioned.
#[derive(Default)]
struct Mentioned {
    list: Vec<usize>,
    seen: HashSet<usize>,
    /// Nothing is listed (the graph's own statements).
    off: bool,
}

impl Mentioned {
    fn push(&mut self, indices: &[usize]) {
        if self.off {
            return;
        }
        for &i in indices {
            if self.seen.insert(i) {
                self.list.push(i);
            }
        }
    }
}

/// A token as a message shows it.
fn shown(t: &Token) -> String {
    match &t.tok {
        Tok::Id(s, Kind::Quoted) => format!("`\"{}\"`", cut(s)),
        Tok::Id(s, Kind::Html) => format!("`<{}>`", cut(s)),
        Tok::Id(s, Kind::Plain) => format!("`{}`", cut(s)),
        Tok::Punct(c) => format!("`{c}`"),
        Tok::Edge(true) => "`->`".into(),
        Tok::Edge(false) => "`--`".into(),
    }
}

#[cfg(test)]
mod tests;
