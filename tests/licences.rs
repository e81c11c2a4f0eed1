//! Every package the workspace depends on may be distributed with clefeval
//! under `MIT OR Apache-2.0`: the normal, build and dev dependencies of all
//! three members (the root crate, `native/`, `python/`), as
//! `cargo metadata --format-version 1 --locked --offline` lists them.
//!
//! Each package's SPDX `license` expression (AND, OR, WITH, parentheses and
//! the old `/` for OR) is evaluated against [`ALLOWED`]: an OR needs one side
//! allowed, an AND both. A package without a `license` field fails unless it
//! is listed in [`CHECKED_BY_HAND`] with the reason; the members themselves
//! must declare exactly `MIT OR Apache-2.0`. `deny.toml` holds the same
//! policy for `cargo deny check licenses`.
//!
//! Offline: cargo's own cache only. `cargo metadata` lists the packages of
//! every platform, and a build downloads only the host's; where some of the
//! others (Windows, macOS, wasm) were never downloaded, the test checks the
//! host's graph (`--filter-platform`) and says so on stderr.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::process::Command;

use serde_json::Value;

/// What the workspace members declare.
const WORKSPACE_LICENCE: &str = "MIT OR Apache-2.0";

/// Licences that allow distributing the whole under `MIT OR Apache-2.0`,
/// kept to those some dependency needs (where an OR offers MIT or
/// Apache-2.0, the other side need not be listed). A `WITH` pair counts only
/// as written here.
const ALLOWED: &[&str] = &[
    "MIT",
    "Apache-2.0",
    // target-lexicon (pyo3's build script): Apache-2.0 plus a permission.
    "Apache-2.0 WITH LLVM-exception",
    // foldhash, zlib-rs: permissive, no notice needed in binaries.
    "Zlib",
    // unicode-ident's tables: `(MIT OR Apache-2.0) AND Unicode-3.0`.
    "Unicode-3.0",
];

/// Licences allowed for one package only, and only while no member ships it
/// (it is reachable from no member through normal dependencies alone):
/// `(package, licence, why)`.
const EXCEPTIONS: &[(&str, &str, &str)] = &[(
    "cbindgen",
    "MPL-2.0",
    "dev-dependency: tests/native.rs runs it to check native/include/clefeval.h; \
     MPL-2.0 is file-level copyleft and nothing of cbindgen is linked into or shipped \
     with any artefact",
)];

/// Packages with no `license` field (a `license-file` instead) whose licence
/// text was read by hand: `(package, why)`. None so far.
const CHECKED_BY_HAND: &[(&str, &str)] = &[];

// ---------------------------------------------------------------------------
// SPDX expressions.

#[derive(Debug, Clone, PartialEq)]
enum Expr {
    /// A licence id, or `ID WITH EXCEPTION` as one term.
    Licence(String),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Open,
    Close,
    And,
    Or,
    With,
    Id(String),
}

fn tokens(text: &str) -> Result<Vec<Token>, String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<Token>| {
        if word.is_empty() {
            return;
        }
        out.push(match word.as_str() {
            "AND" | "and" => Token::And,
            "OR" | "or" => Token::Or,
            "WITH" | "with" => Token::With,
            _ => Token::Id(word.clone()),
        });
        word.clear();
    };
    for c in text.chars() {
        match c {
            '(' | ')' | '/' => {
                flush(&mut word, &mut out);
                out.push(match c {
                    '(' => Token::Open,
                    ')' => Token::Close,
                    // Cargo's old separator: `MIT/Apache-2.0`.
                    _ => Token::Or,
                });
            }
            c if c.is_whitespace() => flush(&mut word, &mut out),
            c if c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '+' | ':') => word.push(c),
            c => return Err(format!("{c:?} in a licence expression")),
        }
    }
    flush(&mut word, &mut out);
    Ok(out)
}

/// Parses an SPDX licence expression: WITH binds tightest, then AND, then OR.
fn parse(text: &str) -> Result<Expr, String> {
    let tokens = tokens(text)?;
    let mut at = 0;
    let expr = parse_or(&tokens, &mut at)?;
    match tokens.get(at) {
        None => Ok(expr),
        Some(t) => Err(format!("unexpected {t:?} in {text:?}")),
    }
}

fn parse_or(tokens: &[Token], at: &mut usize) -> Result<Expr, String> {
    let mut left = parse_and(tokens, at)?;
    while tokens.get(*at) == Some(&Token::Or) {
        *at += 1;
        left = Expr::Or(Box::new(left), Box::new(parse_and(tokens, at)?));
    }
    Ok(left)
}

fn parse_and(tokens: &[Token], at: &mut usize) -> Result<Expr, String> {
    let mut left = parse_term(tokens, at)?;
    while tokens.get(*at) == Some(&Token::And) {
        *at += 1;
        left = Expr::And(Box::new(left), Box::new(parse_term(tokens, at)?));
    }
    Ok(left)
}

fn parse_term(tokens: &[Token], at: &mut usize) -> Result<Expr, String> {
    let token = tokens.get(*at).ok_or("the expression ends early")?;
    *at += 1;
    match token {
        Token::Open => {
            let inner = parse_or(tokens, at)?;
            if tokens.get(*at) != Some(&Token::Close) {
                return Err("a '(' is not closed".into());
            }
            *at += 1;
            Ok(inner)
        }
        Token::Id(id) => {
            if tokens.get(*at) != Some(&Token::With) {
                return Ok(Expr::Licence(id.clone()));
            }
            *at += 1;
            match tokens.get(*at) {
                Some(Token::Id(exception)) => {
                    *at += 1;
                    Ok(Expr::Licence(format!("{id} WITH {exception}")))
                }
                other => Err(format!("WITH needs an exception id, not {other:?}")),
            }
        }
        other => Err(format!("expected a licence, not {other:?}")),
    }
}

/// Whether the expression can be satisfied with licences `allowed` accepts.
fn satisfied(expr: &Expr, allowed: &dyn Fn(&str) -> bool) -> bool {
    match expr {
        Expr::Licence(id) => allowed(id),
        Expr::And(a, b) => satisfied(a, allowed) && satisfied(b, allowed),
        Expr::Or(a, b) => satisfied(a, allowed) || satisfied(b, allowed),
    }
}

/// SPDX ids match case-insensitively; `A WITH B` only as a whole.
fn same_licence(a: &str, b: &str) -> bool {
    let words = |s: &str| {
        s.split_whitespace()
            .map(str::to_ascii_lowercase)
            .collect::<Vec<_>>()
    };
    words(a) == words(b)
}

/// The allow-list's verdict on one expression.
fn allowed_expression(text: &str) -> Result<bool, String> {
    let expr = parse(text)?;
    Ok(satisfied(&expr, &|id| {
        ALLOWED.iter().any(|a| same_licence(a, id))
    }))
}

/// The verdict on one dependency: `shipped` when a member reaches it through
/// normal dependencies alone (it may end up in a binary).
fn verdict(name: &str, licence: Option<&str>, shipped: bool) -> Result<(), String> {
    let Some(text) = licence else {
        return match CHECKED_BY_HAND.iter().find(|(n, _)| *n == name) {
            Some(_) => Ok(()),
            None => Err("no `license` field: read its licence file and list it in \
                         CHECKED_BY_HAND with the reason, or drop it"
                .into()),
        };
    };
    let expr = parse(text).map_err(|e| format!("{text:?} does not parse: {e}"))?;
    let extra: Vec<&str> = EXCEPTIONS
        .iter()
        .filter(|(n, _, _)| *n == name)
        .map(|(_, licence, _)| *licence)
        .collect();
    if satisfied(&expr, &|id| ALLOWED.iter().any(|a| same_licence(a, id))) {
        return Ok(());
    }
    let with_exception = satisfied(&expr, &|id| {
        ALLOWED.iter().chain(&extra).any(|a| same_licence(a, id))
    });
    match (with_exception, shipped) {
        (true, false) => Ok(()),
        (true, true) => Err(format!(
            "{text:?} is allowed only while it is not shipped (EXCEPTIONS), and a member \
             now depends on it as a normal dependency"
        )),
        (false, _) => Err(format!(
            "{text:?} is not allowed for MIT OR Apache-2.0 distribution"
        )),
    }
}

// ---------------------------------------------------------------------------
// The dependency graph.

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

fn run_cargo(args: &[&str]) -> Result<String, String> {
    let out = Command::new(cargo())
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .map_err(|e| format!("cannot run {}: {e}", cargo()))?;
    if out.status.success() {
        String::from_utf8(out.stdout).map_err(|e| e.to_string())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// `cargo metadata` of the workspace, offline: every platform when all
/// packages are in cargo's cache, else the host's.
fn metadata() -> Value {
    let base = ["metadata", "--format-version", "1", "--locked", "--offline"];
    let text = match run_cargo(&base) {
        Ok(text) => text,
        Err(e) if e.contains("--offline") => {
            let version = run_cargo(&["-vV"]).expect("cargo -vV");
            let host = version
                .lines()
                .find_map(|l| l.strip_prefix("host: "))
                .expect("cargo -vV names the host");
            eprintln!(
                "licences: some other platforms' packages are not in cargo's cache \
                 (offline); checking the {host} graph only"
            );
            let mut args = base.to_vec();
            args.extend(["--filter-platform", host]);
            run_cargo(&args).unwrap_or_else(|e| panic!("cargo metadata failed:\n{e}"))
        }
        Err(e) => panic!("cargo metadata failed:\n{e}"),
    };
    serde_json::from_str(&text).expect("cargo metadata prints JSON")
}

/// Package ids reachable from the members through normal dependencies alone.
fn shipped(meta: &Value, members: &BTreeSet<&str>) -> BTreeSet<String> {
    let nodes: HashMap<&str, &Value> = meta["resolve"]["nodes"]
        .as_array()
        .expect("resolve.nodes")
        .iter()
        .map(|n| (n["id"].as_str().expect("node id"), n))
        .collect();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut todo: Vec<&str> = members.iter().copied().collect();
    while let Some(id) = todo.pop() {
        if !seen.insert(id.to_owned()) {
            continue;
        }
        let Some(node) = nodes.get(id) else { continue };
        for dep in node["deps"].as_array().into_iter().flatten() {
            let normal = dep["dep_kinds"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|k| k["kind"].is_null());
            if normal {
                todo.push(dep["pkg"].as_str().expect("dep pkg"));
            }
        }
    }
    seen
}

#[test]
fn every_dependency_allows_mit_or_apache_distribution() {
    let meta = metadata();
    let members: BTreeSet<&str> = meta["workspace_members"]
        .as_array()
        .expect("workspace_members")
        .iter()
        .map(|m| m.as_str().expect("member id"))
        .collect();
    let shipped = shipped(&meta, &members);

    let mut failures = Vec::new();
    let mut inventory: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut names = BTreeSet::new();
    for package in meta["packages"].as_array().expect("packages") {
        let id = package["id"].as_str().expect("package id");
        let name = package["name"].as_str().expect("package name");
        let version = package["version"].as_str().expect("package version");
        let licence = package["license"].as_str();
        names.insert(name);
        inventory
            .entry(licence.unwrap_or("(no license field)").to_owned())
            .or_default()
            .push(format!("{name} {version}"));
        if members.contains(id) {
            if licence != Some(WORKSPACE_LICENCE) {
                failures.push(format!(
                    "workspace member {name}: license = {licence:?}, not {WORKSPACE_LICENCE:?}"
                ));
            }
        } else if let Err(why) = verdict(name, licence, shipped.contains(id)) {
            failures.push(format!("{name} {version}: {why}"));
        }
    }
    assert_eq!(members.len(), 3, "members: {members:?}");
    for (name, _, _) in EXCEPTIONS {
        if !names.contains(name) {
            eprintln!("licences: EXCEPTIONS names {name}, which is no longer a dependency");
        }
    }
    let listing: String = inventory
        .iter()
        .map(|(licence, crates)| format!("  {licence}: {}\n", crates.join(", ")))
        .collect();
    assert!(
        failures.is_empty(),
        "licences that do not allow distributing clefeval under {WORKSPACE_LICENCE}:\n  {}\n\
         every licence in the graph:\n{listing}",
        failures.join("\n  ")
    );
}

// ---------------------------------------------------------------------------
// The evaluator on planted cases.

mod evaluator {
    use super::*;

    fn allowed(text: &str) -> bool {
        allowed_expression(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
    }

    #[test]
    fn permissive_expressions_pass() {
        for text in [
            "MIT",
            "MIT OR Apache-2.0",
            "Apache-2.0 OR MIT",
            "(MIT OR Apache-2.0) AND Unicode-3.0",
            "Apache-2.0 WITH LLVM-exception",
            "Apache-2.0 WITH LLVM-exception OR Apache-2.0 OR MIT",
            "MIT/Apache-2.0",
            "Apache-2.0 / MIT",
            "Unlicense/MIT",
            "MIT OR Apache-2.0 OR LGPL-2.1-or-later",
            "BSD-3-Clause OR Apache-2.0",
            "Zlib",
            "mit or apache-2.0",
            // AND binds tighter than OR: MIT alone is enough.
            "MIT OR GPL-3.0 AND LGPL-2.1",
            "GPL-3.0 AND LGPL-2.1 OR MIT",
            "((MIT))",
        ] {
            assert!(allowed(text), "{text:?} should pass");
        }
    }

    #[test]
    fn copyleft_or_unknown_expressions_fail() {
        for text in [
            "GPL-3.0",
            "MIT AND GPL-2.0",
            "(MIT OR GPL-3.0) AND LGPL-2.1",
            "GPL-2.0 OR LGPL-2.1",
            "MPL-2.0",
            "MIT AND (GPL-3.0 OR AGPL-3.0)",
            // An exception counts only as listed: not Apache-2.0 by itself.
            "Apache-2.0 WITH Classpath-exception-2.0",
            "GPL-2.0 WITH LLVM-exception",
            "LicenseRef-Proprietary",
            "MIT+",
            "BSD-3-Clause",
        ] {
            assert!(!allowed(text), "{text:?} should fail");
        }
    }

    #[test]
    fn malformed_expressions_are_errors() {
        for text in [
            "",
            "MIT OR",
            "(MIT",
            "MIT)",
            "MIT WITH",
            "AND MIT",
            "MIT Apache-2.0",
            "MIT, Apache-2.0",
            "(MIT) WITH LLVM-exception",
        ] {
            assert!(
                allowed_expression(text).is_err(),
                "{text:?} should not parse"
            );
        }
    }

    #[test]
    fn precedence_and_old_separator() {
        let lic = |s: &str| Box::new(Expr::Licence(s.into()));
        assert_eq!(
            parse("MIT OR GPL-3.0 AND LGPL-2.1").unwrap(),
            Expr::Or(
                lic("MIT"),
                Box::new(Expr::And(lic("GPL-3.0"), lic("LGPL-2.1")))
            )
        );
        assert_eq!(
            parse("MIT/Apache-2.0").unwrap(),
            parse("MIT OR Apache-2.0").unwrap()
        );
        assert_eq!(
            parse("Apache-2.0 WITH LLVM-exception OR MIT").unwrap(),
            Expr::Or(lic("Apache-2.0 WITH LLVM-exception"), lic("MIT"))
        );
    }

    #[test]
    fn packages() {
        assert!(verdict("serde", Some("MIT OR Apache-2.0"), true).is_ok());
        assert!(verdict("somegpl", Some("GPL-3.0-only"), false).is_err());
        // No licence field and not checked by hand.
        assert!(verdict("mystery", None, true).is_err());
        assert!(verdict("mystery", None, false).is_err());
        // cbindgen's MPL-2.0 holds only while it is a dev-dependency.
        assert!(verdict("cbindgen", Some("MPL-2.0"), false).is_ok());
        assert!(verdict("cbindgen", Some("MPL-2.0"), true).is_err());
        assert!(verdict("cbindgen", Some("GPL-3.0"), false).is_err());
        // The exception is cbindgen's, no one else's.
        assert!(verdict("other", Some("MPL-2.0"), false).is_err());
    }
}

/// The Python package carries the licence texts and the notices of the C
/// code it links in (`NOTICE`) in its own folder, where maturin finds them
/// for the wheel's metadata (`License-File`); they are the repository's,
/// word for word.
#[test]
fn the_python_package_carries_the_same_licence_texts() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in ["LICENSE-MIT", "LICENSE-APACHE", "NOTICE"] {
        let top = std::fs::read(root.join(name)).expect("the repository's licence");
        let python = std::fs::read(root.join("python").join(name)).expect("python/'s copy");
        assert!(top == python, "python/{name} differs from {name}");
    }
}
