//! The layering rules of ARCHITECTURE.md, checked on the source itself:
//! no import cycle among the modules of `src/`, no task module imports
//! another task, the command line or the task table, and the shared
//! layers (`report`, `inputs`, `diagnostics`) import no task.
//!
//! Imports are read from `use` items and `crate::` paths outside comments
//! and outside `#[cfg(test)]` modules. A module using its own ancestor or
//! descendant (a child using its parent's types) is the usual Rust shape
//! and is not counted as an edge.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

/// Module path (`["flowchart", "mcs", "search"]`) → source text.
type Modules = BTreeMap<Vec<String>, String>;

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
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path
                .strip_prefix(SRC)
                .expect("under src")
                .with_extension("");
            let mut parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(
                parts.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                parts.pop();
            }
            let text = std::fs::read_to_string(&path).expect("source is UTF-8");
            out.insert(parts, code_only(&text));
        }
    }
    out
}

/// The text without line comments and without test modules: a
/// `#[cfg(test)] mod name;` line is dropped, and an inline
/// `#[cfg(test)] mod name { … }` closes its file, so the rest is dropped.
fn code_only(text: &str) -> String {
    let mut code = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        code.push_str(&rest[..at]);
        let after = &rest[at..];
        match (after.find(';'), after.find('{')) {
            (Some(semi), Some(brace)) if semi < brace => rest = &after[semi + 1..],
            (Some(semi), None) => rest = &after[semi + 1..],
            _ => {
                rest = "";
                break;
            }
        }
    }
    code.push_str(rest);
    code.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths a module names: each `use` item (one level of braces
/// expanded) and each `crate::…` path in its code.
fn named_paths(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let preceded_ok = rest[..at]
            .chars()
            .last()
            .is_none_or(|c| !c.is_alphanumeric() && c != '_');
        rest = &rest[at + 4..];
        let Some(end) = rest.find(';') else { break };
        if !preceded_ok {
            continue;
        }
        let item: String = rest[..end].chars().filter(|c| !c.is_whitespace()).collect();
        match (item.find("::{"), item.ends_with('}')) {
            (Some(open), true) => {
                let base = &item[..open];
                for part in split_top(&item[open + 3..item.len() - 1]) {
                    paths.push(format!("{base}::{part}"));
                }
            }
            _ => paths.push(item),
        }
    }
    for (at, _) in code.match_indices("crate::") {
        let tail: String = code[at..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        paths.push(tail);
    }
    paths
}

/// `a, b::{c, d}, e` split at the commas outside braces.
fn split_top(list: &str) -> Vec<String> {
    let (mut out, mut depth, mut current) = (Vec::new(), 0, String::new());
    for c in list.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    out.push(current);
    out
}

/// The longest known module a path names, resolved from module `from`.
fn resolve(modules: &Modules, from: &[String], path: &str) -> Option<Vec<String>> {
    let path = path.split("::{").next().unwrap_or(path);
    let mut parts: Vec<&str> = path.split("::").filter(|p| !p.is_empty()).collect();
    let mut base: Vec<String> = match parts.first().copied() {
        Some("crate") => {
            parts.remove(0);
            Vec::new()
        }
        Some("super") => {
            let mut base = from.to_vec();
            while parts.first() == Some(&"super") {
                parts.remove(0);
                base.pop();
            }
            base
        }
        Some("self") => {
            parts.remove(0);
            from.to_vec()
        }
        _ => return None,
    };
    let mut best = None;
    for part in parts {
        base.push(part.split(" as ").next().unwrap_or(part).to_string());
        if modules.contains_key(&base) {
            best = Some(base.clone());
        }
    }
    best
}

/// Module → the modules it imports (own ancestors and descendants left out).
fn imports(modules: &Modules) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    modules
        .iter()
        .map(|(name, code)| {
            let targets = named_paths(code)
                .iter()
                .filter_map(|p| resolve(modules, name, p))
                .filter(|t| !t.starts_with(name) && !name.starts_with(t))
                .collect();
            (name.clone(), targets)
        })
        .collect()
}

/// The strongly connected components of more than one module (Tarjan).
fn cycles(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'a Vec<String>, usize>,
        low: BTreeMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(w: &mut Walk<'a>, v: &'a Vec<String>) {
        let i = w.index.len();
        w.index.insert(v, i);
        w.low.insert(v, i);
        w.stack.push(v);
        for t in &w.edges[v] {
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
                component.push(t.join("::"));
                if t == v {
                    break;
                }
            }
            if component.len() > 1 {
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
    walk.found
}

const TASKS: [&str; 4] = ["flowchart", "segmentation", "recognition", "retrieval"];

#[test]
fn no_import_cycle_among_modules() {
    let modules = modules();
    assert!(modules.len() > 50, "found only {} modules", modules.len());
    let edges = imports(&modules);
    assert_eq!(cycles(&edges), Vec::<Vec<String>>::new());
}

#[test]
fn tasks_and_shared_layers_import_what_the_layering_allows() {
    let modules = modules();
    let edges = imports(&modules);
    let mut wrong = Vec::new();
    for (from, targets) in &edges {
        let Some(top) = from.first().map(String::as_str) else {
            continue;
        };
        for t in targets {
            let to = t[0].as_str();
            let forbidden = if TASKS.contains(&top) {
                (TASKS.contains(&to) && to != top) || to == "cli" || to == "tasks"
            } else if matches!(top, "report" | "inputs" | "diagnostics") {
                TASKS.contains(&to) || to == "cli" || to == "tasks"
            } else {
                false
            };
            if forbidden {
                wrong.push(format!("{} imports {}", from.join("::"), t.join("::")));
            }
        }
    }
    assert_eq!(wrong, Vec::<String>::new());
}

/// The checker itself finds a cycle and a forbidden import when one is
/// there (a small made-up crate).
#[test]
fn the_checker_sees_a_cycle_and_a_layer_break() {
    let module = |name: &str| name.split("::").map(String::from).collect::<Vec<_>>();
    let mut modules = Modules::new();
    modules.insert(module("a"), "use crate::b::Thing;".into());
    modules.insert(module("b"), "use crate::{a::Other, c};".into());
    modules.insert(module("c"), "fn f() { super::a::g(); }".into());
    modules.insert(module("a::child"), "use super::Parent;".into());
    let edges = imports(&modules);
    assert_eq!(edges[&module("a")], BTreeSet::from([module("b")]));
    assert_eq!(
        edges[&module("b")],
        BTreeSet::from([module("a"), module("c")])
    );
    assert!(
        edges[&module("a::child")].is_empty(),
        "a parent is not an edge"
    );
    let mut found = cycles(&edges);
    for c in &mut found {
        c.sort();
    }
    assert_eq!(found, vec![vec!["a".to_string(), "b".to_string()]]);
}
