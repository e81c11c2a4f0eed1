//! A result file read back (`merge`, `report`, `compare`) on arbitrary
//! bytes: the JSON read as `report` reads it, checked by its task
//! (`report::check`), rendered as a table and CSV, compared with itself
//! and merged as the one part it may say it is: no panic, no hang; a
//! refusal names the file. A file that compare accepts (its task's check
//! first) compares equal to itself. The seeds are every task's results.
#![no_main]

use clefeval::report::OutputFormat;
use clefeval::report::compare::At;
use clefeval::report::merge::Part;
use clefeval::report::rerender::Rerender;
use clefeval::tasks;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

const FILE: &str = "result.json";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(doc) =
        clefeval::report::saved::read_result_as::<serde_json::Value>(Path::new(FILE), text)
    else {
        return;
    };
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
});
