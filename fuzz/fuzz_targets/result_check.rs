//! What every result-file target checks of arbitrary bytes read as a
//! result file (`merge`, `report`, `compare` read them): the JSON read as
//! `report` reads it, checked by its task (`report::check`), rendered as
//! a table and CSV, compared with itself and merged as the one part it may
//! say it is: no panic, no hang; a refusal names the file. A file that
//! compare accepts (its task's check first) compares equal to itself.

use clefeval::report::OutputFormat;
use clefeval::report::compare::At;
use clefeval::report::merge::Part;
use clefeval::report::rerender::Rerender;
use clefeval::tasks;
use std::path::Path;

const FILE: &str = "result.json";

/// Checks `data` as a result file; with `tasks` given, a file whose
/// `task` is none of them is read as one of the first (so that a target
/// explores that task's check and rules).
pub fn check(data: &[u8], tasks: &[&str]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(mut doc) =
        clefeval::report::saved::read_result_as::<serde_json::Value>(Path::new(FILE), text)
    else {
        return;
    };
    let mut owned = None;
    if let (Some(first), Some(object)) = (tasks.first(), doc.as_object_mut()) {
        let named = object.get("task").and_then(|t| t.as_str());
        if !named.is_some_and(|t| tasks.contains(&t)) {
            object.insert("task".into(), serde_json::Value::from(*first));
            owned = Some(doc.to_string());
        }
    }
    let text = owned.as_deref().unwrap_or(text);
    let part = Part {
        file: FILE,
        doc: &doc,
    };
    for format in [OutputFormat::Table, OutputFormat::Csv] {
        let asked = Rerender {
            format,
            page: format == OutputFormat::Table,
            gold: &[],
            runs: &[],
            clips: None,
        };
        if let Err(e) = tasks::rerender(&part, text, &asked) {
            assert!(e.contains(FILE), "{e}");
        }
    }
    let at = At::root(FILE, &doc);
    match tasks::compare(&at, &at, 0.0) {
        Ok(comparison) => assert!(
            comparison.changes.is_empty(),
            "{:?}",
            comparison.changes.first()
        ),
        Err(e) => assert!(e.contains(FILE), "{e}"),
    }
    if let Err(e) = tasks::merge(&[part]) {
        assert!(!e.is_empty());
    }
}
