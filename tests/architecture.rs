//! The layering rules of ARCHITECTURE.md, checked on the source itself:
//! no import cycle among the modules of `src/`, no task module imports
//! another task, the command line or the task table, and the shared
//! layers (`report`, `inputs`, `diagnostics`) import no task.
//!
//! What counts as an import: every path a module's code names, outside
//! comments, string and character literals (raw and byte strings too) and
//! `#[cfg(test)]` items (a `#[cfg(test)] mod name;` file is left out
//! whole):
//! - `use` items, their `{…}` groups expanded at any depth;
//! - paths written inline in code: `crate::…`, `super::…` (any number of
//!   `super::super::`), `self::…`, and a path starting with a name that
//!   names a module (a child module, a module brought in by `use`, or one
//!   a glob `use …::*` brings in).
//! - a path given as a string to an attribute key that takes a function
//!   (serde's `deserialize_with = "crate::…"` and the like); every other
//!   string is text, not code.
//!
//! Paths are resolved relative to the module they are in (`a/b.rs` is
//! module `a::b`, `a/mod.rs` is module `a`, an inline `mod c { … }` in it
//! is `a::c`): `use super::x::y` in module `a::b` names module `a::x`
//! (the longest known module a path names). Visibility (`pub(super)`,
//! `pub(in …)`) is not a path use. A module using its own ancestor or
//! descendant (a child using its parent's types) is the usual Rust shape
//! and is not counted as an edge. Not seen: an item re-exported by a
//! parent (`use super::Item` where the parent has `pub use x::Item`)
//! counts as a use of the parent, not of `x`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

/// A module path: `["flowchart", "mcs", "search"]`; the crate root is `[]`.
type Module = Vec<String>;

/// Module → its source text.
type Modules = BTreeMap<Module, String>;

/// Module → the modules it imports → where it first names each (the path
/// and its line).
type Edges = BTreeMap<Module, BTreeMap<Module, String>>;

fn modules() -> Modules {
    let mut out = Modules::new();
    let mut stack = vec![Path::new(SRC).to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src is readable") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let rel = path.strip_prefix(SRC).expect("under src");
            // The binary is a crate of its own (a thin wrapper of `cli`).
            if path.extension().is_none_or(|e| e != "rs") || rel == Path::new("main.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("source is UTF-8");
            out.insert(module_of(rel), text);
        }
    }
    out
}

/// The module a file under `src/` is: `a/b.rs` is `a::b`, `a/mod.rs` is
/// `a`, `lib.rs` the root.
fn module_of(rel: &Path) -> Module {
    let mut parts: Module = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

fn display(module: &[String]) -> String {
    if module.is_empty() {
        "crate".to_string()
    } else {
        module.join("::")
    }
}

fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_' || c == '$'
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// The text with comments (line, block, doc), string literals (plain,
/// raw, byte, C) and character literals blanked out; line breaks are kept,
/// so line numbers still match the file.
fn blank_comments_and_literals(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    let mut out = String::with_capacity(text.len());
    // A blanked span leaves one space and its line breaks.
    let blank = |out: &mut String, span: &[char]| {
        out.push(' ');
        out.extend(span.iter().filter(|&&ch| ch == '\n'));
    };
    // The end of a quoted literal whose opening quote is at `i`.
    let quoted_end = |i: usize, quote: char| {
        let mut j = i + 1;
        while j < c.len() {
            match c[j] {
                '\\' => j += 2,
                ch if ch == quote => return j + 1,
                _ => j += 1,
            }
        }
        c.len()
    };
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch == '/' && at(i + 1) == '/' {
            let end = (i..c.len()).find(|&j| c[j] == '\n').unwrap_or(c.len());
            blank(&mut out, &c[i..end]);
            i = end;
        } else if ch == '/' && at(i + 1) == '*' {
            let (mut j, mut depth) = (i + 2, 1);
            while j < c.len() && depth > 0 {
                if c[j] == '/' && at(j + 1) == '*' {
                    depth += 1;
                    j += 2;
                } else if c[j] == '*' && at(j + 1) == '/' {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            blank(&mut out, &c[i..j.min(c.len())]);
            i = j;
        } else if is_ident_start(ch) && !ch.is_numeric() {
            let mut j = i;
            while j < c.len() && is_ident_char(c[j]) {
                j += 1;
            }
            let word: String = c[i..j].iter().collect();
            let hashes = (j..c.len()).take_while(|&h| c[h] == '#').count();
            let end = if matches!(word.as_str(), "r" | "br" | "cr") && at(j + hashes) == '"' {
                // A raw string: up to `"` and as many `#` as it opened with.
                let close: Vec<char> = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                let from = j + hashes + 1;
                (from..c.len())
                    .find(|&k| c[k..].starts_with(&close))
                    .map_or(c.len(), |k| k + close.len())
            } else if matches!(word.as_str(), "b" | "c") && at(j) == '"' {
                quoted_end(j, '"')
            } else if word == "b" && at(j) == '\'' {
                quoted_end(j, '\'')
            } else {
                out.push_str(&word);
                i = j;
                continue;
            };
            blank(&mut out, &c[i..end]);
            i = end;
        } else if ch == '"' {
            let end = quoted_end(i, '"');
            let content: String = c[i + 1..end.saturating_sub(1).max(i + 1)].iter().collect();
            if names_a_function(&out, &content) {
                out.push(' ');
                out.push_str(&content);
                out.push(' ');
            } else {
                blank(&mut out, &c[i..end]);
            }
            i = end;
        } else if ch == '\'' && (at(i + 1) == '\\' || at(i + 2) == '\'') {
            // A character literal (`'x'`, `'"'`, `'\''`), not a lifetime.
            let end = if at(i + 1) == '\\' {
                quoted_end(i + 1, '\'')
            } else {
                i + 3
            };
            blank(&mut out, &c[i..end.min(c.len())]);
            i = end;
        } else {
            out.push(ch);
            i += 1;
        }
    }
    out
}

/// Whether a string literal is code: a whole path given to an attribute
/// key that takes a function path (serde's `deserialize_with = "…"` and
/// the like), judged from the code before it.
fn names_a_function(before: &str, content: &str) -> bool {
    const KEYS: [&str; 5] = [
        "with",
        "serialize_with",
        "deserialize_with",
        "default",
        "skip_serializing_if",
    ];
    let Some(before) = before.trim_end().strip_suffix('=') else {
        return false;
    };
    let key = before.trim_end();
    let key = &key[key.trim_end_matches(is_ident_char).len()..];
    KEYS.contains(&key)
        && content.contains("::")
        && content
            .split("::")
            .all(|s| s.chars().next().is_some_and(is_ident_start) && s.chars().all(is_ident_char))
}

/// A word (identifier, keyword, number), `::` or one other character.
struct Token {
    text: String,
    line: usize,
}

fn tokens(code: &str) -> Vec<Token> {
    let c: Vec<char> = code.chars().collect();
    let (mut out, mut i, mut line) = (Vec::new(), 0, 1);
    while i < c.len() {
        let ch = c[i];
        let len = if ch.is_whitespace() {
            line += usize::from(ch == '\n');
            i += 1;
            continue;
        } else if is_ident_char(ch) {
            (i..c.len()).take_while(|&j| is_ident_char(c[j])).count()
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            2
        } else {
            1
        };
        out.push(Token {
            text: c[i..i + len].iter().collect(),
            line,
        });
        i += len;
    }
    out
}

fn is_ident(word: &str) -> bool {
    word.chars().next().is_some_and(is_ident_start)
}

/// How a named path is used.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// Written in code.
    Path,
    /// A `use` item binding its last name (`None`: `as _`).
    Use,
    /// A glob `use …::*`.
    Glob,
}

/// A path a module names.
struct Named {
    /// The module the path is in (the file's module, or an inline module
    /// in it).
    scope: Module,
    segments: Vec<String>,
    /// For a `use`: the name it binds (`None` for `as _` and globs).
    binding: Option<String>,
    kind: Kind,
    line: usize,
}

/// What a file's code names, and the modules it declares test-only
/// (`#[cfg(test)] mod name;`).
#[derive(Default)]
struct Scan {
    named: Vec<Named>,
    test_modules: Vec<Module>,
}

/// The index after the bracket group opening at `open`.
fn after_group(toks: &[Token], open: usize) -> usize {
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t.text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
    }
    toks.len()
}

/// The index after the item starting at `from`: after its `;` or its
/// closing brace (or before the brace closing what it is in).
fn end_of_item(toks: &[Token], from: usize) -> usize {
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(from) {
        match t.text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" => depth = depth.saturating_sub(1),
            "}" if depth == 0 => return k,
            "}" => {
                depth -= 1;
                if depth == 0 {
                    return k + 1;
                }
            }
            ";" if depth == 0 => return k + 1,
            _ => {}
        }
    }
    toks.len()
}

/// Reads the use tree at `*k` (after `use`), expanded into its paths.
fn use_tree(
    toks: &[Token],
    k: &mut usize,
    prefix: &[String],
    out: &mut Vec<(Module, Kind, Option<String>)>,
) {
    let t = |k: usize| toks.get(k).map_or("", |t| t.text.as_str());
    let mut segments = prefix.to_vec();
    if t(*k) == "::" {
        *k += 1;
    }
    loop {
        match t(*k) {
            "{" => {
                *k += 1;
                while *k < toks.len() && t(*k) != "}" {
                    let before = *k;
                    use_tree(toks, k, &segments, out);
                    if t(*k) == "," || *k == before {
                        *k += 1;
                    }
                }
                *k += 1;
                return;
            }
            "*" => {
                *k += 1;
                out.push((segments, Kind::Glob, None));
                return;
            }
            word if is_ident(word) => {
                segments.push(word.to_string());
                *k += 1;
                if t(*k) == "::" {
                    *k += 1;
                    continue;
                }
                if segments.len() > 1 && segments.last().is_some_and(|s| s == "self") {
                    segments.pop();
                }
                let mut binding = segments.last().cloned();
                if t(*k) == "as" {
                    binding = Some(t(*k + 1).to_string()).filter(|b| b != "_");
                    *k += 2;
                }
                out.push((segments, Kind::Use, binding));
                return;
            }
            _ => return,
        }
    }
}

/// The paths named in the code of module `file`, outside comments,
/// literals and `#[cfg(test)]` items.
fn scan(file: &[String], text: &str) -> Scan {
    let toks = tokens(&blank_comments_and_literals(text));
    let t = |k: usize| toks.get(k).map_or("", |t| t.text.as_str());
    let mut out = Scan::default();
    // Inline modules open at this point: name and the brace depth inside.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let scope = |inline: &[(String, usize)]| -> Module {
        file.iter()
            .cloned()
            .chain(inline.iter().map(|(n, _)| n.clone()))
            .collect()
    };
    let (mut k, mut depth) = (0, 0usize);
    while k < toks.len() {
        let prev = if k == 0 { "" } else { t(k - 1) };
        match t(k) {
            "#" if (1..=6)
                .map(|d| t(k + d))
                .eq(["[", "cfg", "(", "test", ")", "]"]) =>
            {
                let mut item = k + 7;
                while t(item) == "#" && t(item + 1) == "[" {
                    item = after_group(&toks, item + 1);
                }
                let mut m = item;
                if t(m) == "pub" {
                    m += 1;
                    if t(m) == "(" {
                        m = after_group(&toks, m);
                    }
                }
                if t(m) == "mod" && is_ident(t(m + 1)) && t(m + 2) == ";" {
                    let mut module = scope(&inline);
                    module.push(t(m + 1).to_string());
                    out.test_modules.push(module);
                }
                k = end_of_item(&toks, item);
            }
            // Visibility, not a use: `pub(crate)`, `pub(super)`, `pub(in …)`.
            "pub" if t(k + 1) == "(" && matches!(t(k + 2), "crate" | "self" | "super" | "in") => {
                k = after_group(&toks, k + 1);
            }
            "{" => {
                depth += 1;
                k += 1;
            }
            "}" => {
                if inline.last().is_some_and(|&(_, d)| d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                k += 1;
            }
            "mod" if is_ident(t(k + 1)) && t(k + 2) == "{" => {
                depth += 1;
                inline.push((t(k + 1).to_string(), depth));
                k += 3;
            }
            "use" if prev != "::" => {
                let line = toks[k].line;
                k += 1;
                let mut paths = Vec::new();
                use_tree(&toks, &mut k, &[], &mut paths);
                for (segments, kind, binding) in paths {
                    out.named.push(Named {
                        scope: scope(&inline),
                        segments,
                        binding,
                        kind,
                        line,
                    });
                }
            }
            word if is_ident(word) && t(k + 1) == "::" && !matches!(prev, "::" | ".") => {
                let line = toks[k].line;
                let mut segments = Vec::new();
                while is_ident(t(k)) {
                    segments.push(t(k).to_string());
                    k += 1;
                    if t(k) == "::" && is_ident(t(k + 1)) {
                        k += 1;
                    } else {
                        break;
                    }
                }
                out.named.push(Named {
                    scope: scope(&inline),
                    segments,
                    binding: None,
                    kind: Kind::Path,
                    line,
                });
            }
            _ => k += 1,
        }
    }
    out
}

/// The names of modules bound in each module's scope: by `use` (name →
/// module) and by glob `use` (the modules whose names it brings in).
#[derive(Default)]
struct Scopes {
    aliases: BTreeMap<Module, BTreeMap<String, Module>>,
    globs: BTreeMap<Module, Vec<Module>>,
}

/// The longest known module `segments` names from module `scope`, and
/// whether it is the whole path.
fn resolve(
    modules: &Modules,
    scopes: &Scopes,
    scope: &[String],
    segments: &[String],
) -> Option<(Module, bool)> {
    let first = segments.first()?.as_str();
    let (mut base, mut i) = match first {
        "crate" | "$crate" => (Vec::new(), 1),
        "self" | "super" => (scope.to_vec(), usize::from(first == "self")),
        _ => (scope.to_vec(), 0),
    };
    while segments.get(i).is_some_and(|s| s == "super") {
        base.pop()?;
        i += 1;
    }
    let anchored = i > 0;
    let mut stepped = false;
    while let Some(s) = segments.get(i) {
        let mut child = base.clone();
        child.push(s.clone());
        let next = if modules.contains_key(&child) {
            Some(child)
        } else if let Some(m) = scopes.aliases.get(&base).and_then(|a| a.get(s)) {
            Some(m.clone())
        } else {
            scopes.globs.get(&base).into_iter().flatten().find_map(|g| {
                let mut through = g.clone();
                through.push(s.clone());
                modules.contains_key(&through).then_some(through)
            })
        };
        let Some(next) = next else { break };
        base = next;
        stepped = true;
        i += 1;
    }
    ((stepped || anchored) && modules.contains_key(&base)).then_some((base, i == segments.len()))
}

/// Module → the modules it imports (own ancestors and descendants left
/// out), with where it names each.
fn imports(modules: &Modules) -> Edges {
    let scans: BTreeMap<&Module, Scan> = modules
        .iter()
        .map(|(name, text)| (name, scan(name, text)))
        .collect();
    let test_only: Vec<&Module> = scans.values().flat_map(|s| &s.test_modules).collect();
    let live: Modules = modules
        .iter()
        .filter(|(name, _)| !test_only.iter().any(|t| name.starts_with(t)))
        .map(|(name, text)| (name.clone(), text.clone()))
        .collect();
    let uses = || {
        scans
            .iter()
            .filter(|(name, _)| live.contains_key(**name))
            .flat_map(|(_, s)| &s.named)
    };
    // Modules brought in by `use` can name further modules (`use
    // super::a; use a::b;`): a few rounds reach them all.
    let mut scopes = Scopes::default();
    for _ in 0..4 {
        let mut next = Scopes::default();
        for n in uses().filter(|n| n.kind != Kind::Path) {
            let Some((module, true)) = resolve(&live, &scopes, &n.scope, &n.segments) else {
                continue;
            };
            match (&n.binding, n.kind) {
                (_, Kind::Glob) => next.globs.entry(n.scope.clone()).or_default().push(module),
                (Some(b), _) => {
                    next.aliases
                        .entry(n.scope.clone())
                        .or_default()
                        .insert(b.clone(), module);
                }
                (None, _) => {}
            }
        }
        scopes = next;
    }
    live.keys()
        .map(|name| {
            let mut targets = BTreeMap::new();
            for n in &scans[name].named {
                let Some((t, _)) = resolve(&live, &scopes, &n.scope, &n.segments) else {
                    continue;
                };
                if !t.starts_with(name) && !name.starts_with(&t) {
                    let glob = if n.kind == Kind::Glob { "::*" } else { "" };
                    targets.entry(t).or_insert_with(|| {
                        format!("{}{glob} (line {})", n.segments.join("::"), n.line)
                    });
                }
            }
            (name.clone(), targets)
        })
        .collect()
}

/// The strongly connected components of more than one module (Tarjan),
/// each sorted.
fn cycles(edges: &Edges) -> Vec<Vec<String>> {
    struct Walk<'a> {
        edges: &'a Edges,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(w: &mut Walk<'a>, v: &'a Module) {
        let i = w.index.len();
        w.index.insert(v, i);
        w.low.insert(v, i);
        w.stack.push(v);
        for t in w.edges.get(v).into_iter().flat_map(BTreeMap::keys) {
            if !w.index.contains_key(t) {
                visit(w, t);
                let low = w.low[t].min(w.low[v]);
                w.low.insert(v, low);
            } else if w.stack.contains(&t) {
                let low = w.index[t].min(w.low[v]);
                w.low.insert(v, low);
            }
        }
        if w.low[v] == w.index[v] {
            let mut component = Vec::new();
            while let Some(t) = w.stack.pop() {
                component.push(display(t));
                if t == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                w.found.push(component);
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v) {
            visit(&mut walk, v);
        }
    }
    walk.found.sort();
    walk.found
}

/// A cycle and the imports that make it, one per line.
fn describe(edges: &Edges, cycle: &[String]) -> String {
    let mut out = format!("cycle: {}", cycle.join(", "));
    for (from, targets) in edges {
        for (to, at) in targets {
            if cycle.contains(&display(from)) && cycle.contains(&display(to)) {
                out.push_str(&format!("\n  {} -> {}: {at}", display(from), display(to)));
            }
        }
    }
    out
}

const TASKS: [&str; 5] = [
    "flowchart",
    "segmentation",
    "recognition",
    "retrieval",
    "detection",
];

/// The imports the layering forbids, as `from imports to`.
fn layer_breaks(edges: &Edges) -> Vec<String> {
    let mut wrong = Vec::new();
    for (from, targets) in edges {
        let Some(top) = from.first().map(String::as_str) else {
            continue;
        };
        for t in targets.keys() {
            let Some(to) = t.first().map(String::as_str) else {
                continue;
            };
            let forbidden = if TASKS.contains(&top) {
                (TASKS.contains(&to) && to != top) || to == "cli" || to == "tasks"
            } else if matches!(
                top,
                "report" | "inputs" | "outputs" | "diagnostics" | "task" | "rng"
            ) {
                TASKS.contains(&to) || to == "cli" || to == "tasks"
            } else {
                false
            };
            if forbidden {
                wrong.push(format!("{} imports {}", display(from), display(t)));
            }
        }
    }
    wrong
}

#[test]
fn no_import_cycle_among_modules() {
    let modules = modules();
    assert!(modules.len() > 50, "found only {} modules", modules.len());
    let edges = imports(&modules);
    let found: Vec<String> = (cycles(&edges).iter())
        .map(|cycle| describe(&edges, cycle))
        .collect();
    assert!(found.is_empty(), "import cycles:\n{}", found.join("\n"));
}

#[test]
fn tasks_and_shared_layers_import_what_the_layering_allows() {
    let edges = imports(&modules());
    assert_eq!(layer_breaks(&edges), Vec::<String>::new());
}

/// The lines of the shells' sources (`python/src`, `native/src`) that name
/// the command line's module: the shells reach the library through the
/// task seam, never through `cli`.
fn shell_uses_of_cli(sources: &[(String, String)]) -> Vec<String> {
    let mut found = Vec::new();
    for (file, text) in sources {
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            let names_cli = ["clefeval::cli", "engine::cli", "crate::cli"]
                .iter()
                .any(|p| {
                    code.contains(&format!("{p}::"))
                        || code.contains(&format!("{p};"))
                        || code.contains(&format!("{p},"))
                });
            if names_cli {
                found.push(format!("{file}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn the_python_and_c_shells_import_nothing_from_the_command_line() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sources = Vec::new();
    for dir in ["python/src", "native/src"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("shell sources") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("UTF-8 source");
                sources.push((path.display().to_string(), text));
            }
        }
    }
    assert!(
        sources.len() >= 8,
        "found only {} shell files",
        sources.len()
    );
    assert_eq!(shell_uses_of_cli(&sources), Vec::<String>::new());
    // Planted: each way of naming the command line is found; a comment is not.
    let planted = [(
        "x.rs".to_string(),
        "use clefeval::cli::with_threads;\nuse engine::cli;\n// clefeval::cli::Fatal\nlet f = clefeval::cli::Fatal;".to_string(),
    )];
    assert_eq!(
        shell_uses_of_cli(&planted),
        [
            "x.rs:1: use clefeval::cli::with_threads;",
            "x.rs:2: use engine::cli;",
            "x.rs:4: let f = clefeval::cli::Fatal;"
        ]
    );
}

// The checker on small made-up crates.

/// Modules from (file under `src/`, text) pairs.
fn planted(files: &[(&str, &str)]) -> Modules {
    files
        .iter()
        .map(|&(file, text)| (module_of(Path::new(file)), text.to_string()))
        .collect()
}

fn module(name: &str) -> Module {
    name.split("::").map(String::from).collect()
}

fn targets(edges: &Edges, from: &str) -> BTreeSet<String> {
    edges[&module(from)].keys().map(|t| display(t)).collect()
}

fn names<const N: usize>(list: [&str; N]) -> BTreeSet<String> {
    list.into_iter().map(String::from).collect()
}

fn cycle(list: &[&str]) -> Vec<Vec<String>> {
    vec![list.iter().map(|m| m.to_string()).collect()]
}

#[test]
fn the_checker_finds_a_cycle_through_an_inline_super_path() {
    let modules = planted(&[
        ("a/mod.rs", "mod x;\nmod y;\n"),
        (
            "a/x.rs",
            "use super::y::f;\npub(super) const CONST: u32 = 1;\n",
        ),
        (
            "a/y.rs",
            "pub(super) fn f() -> u32 {\n    2 * super::x::CONST\n}\n",
        ),
    ]);
    let edges = imports(&modules);
    assert_eq!(
        edges[&module("a::y")][&module("a::x")],
        "super::x::CONST (line 2)"
    );
    assert_eq!(cycles(&edges), cycle(&["a::x", "a::y"]));
}

#[test]
fn the_checker_finds_a_cycle_through_an_inline_crate_path() {
    let modules = planted(&[
        ("a.rs", "pub fn f() -> u32 { crate::b::g() + 1 }"),
        ("b.rs", "use crate::a::f;\npub fn g() -> u32 { 1 }"),
    ]);
    assert_eq!(cycles(&imports(&modules)), cycle(&["a", "b"]));
}

#[test]
fn the_checker_finds_a_cycle_through_self_in_a_mod_rs() {
    // `p/mod.rs` is module `p`: `self::super::q` is the crate's `q`, not
    // `p::q`.
    let modules = planted(&[
        (
            "p/mod.rs",
            "mod q;\npub fn f() -> u32 { self::super::q::N }",
        ),
        ("p/q.rs", "pub const N: u32 = 1;"),
        ("q.rs", "pub const N: u32 = crate::p::f();"),
    ]);
    let edges = imports(&modules);
    assert_eq!(targets(&edges, "p"), names(["q"]));
    assert_eq!(cycles(&edges), cycle(&["p", "q"]));
}

#[test]
fn the_checker_finds_a_cycle_through_a_use_group() {
    let modules = planted(&[
        ("a/mod.rs", "mod x;\nmod y;\nmod z;"),
        (
            "a/x.rs",
            "use super::{\n    y::{self, Y},\n    z as zed,\n};",
        ),
        ("a/y.rs", "pub(in crate::a) use super::x::X;"),
        ("a/z.rs", ""),
    ]);
    let edges = imports(&modules);
    assert_eq!(targets(&edges, "a::x"), names(["a::y", "a::z"]));
    assert_eq!(targets(&edges, "a::y"), names(["a::x"]));
    assert_eq!(cycles(&edges), cycle(&["a::x", "a::y"]));
}

#[test]
fn the_checker_follows_modules_brought_in_by_use() {
    let modules = planted(&[
        ("a/mod.rs", "mod b;\nmod c;"),
        ("a/b.rs", "use super::c;\nfn f() -> u32 { c::d::N }"),
        ("a/c/mod.rs", "mod d;"),
        ("a/c/d.rs", "use super::super::*;\nfn g() { b::f() }"),
    ]);
    let edges = imports(&modules);
    assert_eq!(targets(&edges, "a::b"), names(["a::c", "a::c::d"]));
    assert_eq!(cycles(&edges), cycle(&["a::b", "a::c::d"]));
}

#[test]
fn the_checker_sees_no_cycle_in_a_child_using_its_parent() {
    let modules = planted(&[
        (
            "a/mod.rs",
            "mod child;\nuse self::child::Thing;\nfn f() { child::g() }",
        ),
        (
            "a/child.rs",
            "use super::Parent;\npub(super) fn g() { super::h(); crate::a::h() }",
        ),
    ]);
    let edges = imports(&modules);
    assert!(edges.values().all(BTreeMap::is_empty), "{:?}", edges);
    assert_eq!(cycles(&edges), Vec::<Vec<String>>::new());
}

#[test]
fn the_checker_sees_no_path_in_a_string_literal() {
    let modules = planted(&[
        (
            "a.rs",
            concat!(
                "/// Call `crate::b::f()`.\n",
                "pub const DOC: &str = \"crate::b::f() \\\" super::b::G\";\n",
                "pub const RAW: &str = r#\"a \"quoted\" crate::b::f\"#;\n",
                "pub const BYTES: &[u8] = b\"crate::b\";\n",
                "pub const QUOTE: char = '\"';\n",
                "pub fn f<'a>(s: &'a str) -> &'a str { s }\n",
            ),
        ),
        ("b.rs", "use crate::a::DOC;"),
    ]);
    let edges = imports(&modules);
    assert!(edges[&module("a")].is_empty(), "{:?}", edges);
    assert_eq!(cycles(&edges), Vec::<Vec<String>>::new());
    // Code after the literals is still read.
    let mut more = modules.clone();
    let a = more.get_mut(&module("a")).expect("a");
    a.push_str("fn g() { crate::b::h() }\n");
    assert_eq!(cycles(&imports(&more)), cycle(&["a", "b"]));
    // A function path given to serde is code.
    let mut serde = modules.clone();
    let a = serde.get_mut(&module("a")).expect("a");
    a.push_str("struct S {\n    #[serde(deserialize_with = \"crate::b::read\")]\n    x: u32,\n}\n");
    assert_eq!(
        imports(&serde)[&module("a")][&module("b")],
        "crate::b::read (line 8)"
    );
}

#[test]
fn the_checker_sees_no_path_in_a_comment() {
    let modules = planted(&[
        (
            "a.rs",
            "// see crate::b::f\n/* and super::b::g /* nested */ crate::b */\nfn f() {} // crate::b::h()",
        ),
        ("b.rs", "use crate::a::f;"),
    ]);
    assert_eq!(cycles(&imports(&modules)), Vec::<Vec<String>>::new());
}

#[test]
fn the_checker_sees_no_path_in_a_test_module() {
    let modules = planted(&[
        (
            "a.rs",
            concat!(
                "pub fn f() {}\n",
                "#[cfg(test)]\nmod tests {\n",
                "    use crate::b::g;\n",
                "    #[test]\n    fn t() { super::super::b::g(); let _ = \"}\"; }\n",
                "}\n",
                "#[cfg(test)]\nmod more;\n",
                "#[cfg(test)]\nuse crate::b::{g, G};\n",
            ),
        ),
        ("a/more.rs", "use crate::b::g;"),
        ("b.rs", "use crate::a::f;\npub fn g() {}"),
    ]);
    let edges = imports(&modules);
    assert!(edges[&module("a")].is_empty(), "{:?}", edges);
    assert!(!edges.contains_key(&module("a::more")), "a test-only file");
    assert_eq!(cycles(&edges), Vec::<Vec<String>>::new());
    // Code after the test items is still read.
    let mut more = modules.clone();
    let a = more.get_mut(&module("a")).expect("a");
    a.push_str("fn h() { crate::b::g() }\n");
    assert_eq!(cycles(&imports(&more)), cycle(&["a", "b"]));
}

#[test]
fn the_checker_sees_a_layer_break() {
    let modules = planted(&[
        ("flowchart/mod.rs", "fn f() { crate::retrieval::g() }"),
        ("retrieval/mod.rs", "use crate::report::Table;"),
        ("report/mod.rs", "use crate::cli::run;"),
        ("cli/mod.rs", "use crate::flowchart::f;"),
    ]);
    assert_eq!(
        layer_breaks(&imports(&modules)),
        vec![
            "flowchart imports retrieval".to_string(),
            "report imports cli".to_string(),
        ]
    );
}
