//! Result files checked on reading, end to end: for every task, a whole
//! result of the goldens and its two parts, each with one value tampered
//! (out of its range, a summary its topics do not make, a cut interval
//! that misses its value, a topic given twice, another version), are
//! refused by `clefeval merge` and `report` (exit 2) with the file and the
//! JSON path in the message; the genuine files are read as before (the
//! merge of the parts byte for byte the whole).

#[path = "support/task_pages.rs"]
mod task_pages;

use serde_json::{Value, json};
use std::path::Path;
use std::process::{Command, Output};
use task_pages::{TASK_PAGES, run_in_root};
use tempfile::TempDir;

fn ok(args: &[&str]) -> Vec<u8> {
    run_in_root(args).stdout
}

fn refused(args: &[&str]) -> String {
    let out: Output = Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("the clefeval binary runs");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{args:?} must be refused: {err}"
    );
    assert!(out.stdout.is_empty(), "{args:?} wrote a result");
    err
}

/// The command line of `task`'s page on the goldens (without its page).
fn command(task: &str) -> &'static [&'static str] {
    (TASK_PAGES.iter().find(|(t, _)| *t == task))
        .map(|(_, args)| *args)
        .expect("a task with a page")
}

const DETECTION: &[&str] = &[
    "detection",
    "--gold",
    "goldens/detection/demo/gold.json",
    "--run",
    "goldens/detection/demo/osra.json",
];

/// A whole result of `command` and its two parts, written to `dir`.
struct Written {
    whole: Value,
    parts: [Value; 2],
}

fn written(command: &[&str]) -> Written {
    let json = |extra: &[&str]| -> Value {
        let args = [command, &["--format", "json", "--quiet"], extra].concat();
        serde_json::from_slice(&ok(&args)).expect("JSON")
    };
    Written {
        whole: json(&[]),
        parts: [json(&["--shard", "1/2"]), json(&["--shard", "2/2"])],
    }
}

fn save(dir: &Path, name: &str, doc: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string_pretty(doc).unwrap() + "\n").unwrap();
    path.display().to_string()
}

/// One tampering: what it does to a result, and what the refusal must
/// say after the file's name.
struct Tamper {
    what: &'static str,
    /// Only a part can be caught (what it keeps makes the value again).
    part_only: bool,
    edit: Box<dyn Fn(&mut Value)>,
    says: String,
}

/// The value at `pointer` set to `value`.
fn set(pointer: &'static str, value: Value, says: &str) -> Tamper {
    Tamper {
        what: pointer,
        part_only: false,
        edit: Box::new(move |doc| *doc.pointer_mut(pointer).expect(pointer) = value.clone()),
        says: says.to_owned(),
    }
}

/// The first item of the list at `pointer` given again at its end; the
/// refusal names the copy and the first.
fn doubled(pointer: &'static str) -> Tamper {
    Tamper {
        what: "a doubled item",
        part_only: false,
        edit: Box::new(move |doc| {
            let list = doc.pointer_mut(pointer).and_then(Value::as_array_mut);
            let list = list.expect(pointer);
            list.push(list[0].clone());
        }),
        says: format!(
            " is given twice (first at ${}[0])",
            pointer
                .replace('/', ".")
                .replace(".0", "[0]")
                .replace(".1", "[1]")
        ),
    }
}

/// Each tampering of `command`'s results refused by `merge` (part 2
/// tampered), `report` and `compare` against the genuine file (part 2 and
/// the whole tampered), naming the file and the path; the genuine files
/// read as before.
fn refused_everywhere(name: &str, command: &[&str], tampers: &[Tamper]) {
    let tmp: TempDir = tempfile::Builder::new()
        .prefix(&format!("clefeval-checked-{name}-"))
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    let w = written(command);
    let whole = save(dir, "whole.json", &w.whole);
    let one = save(dir, "part-1.json", &w.parts[0]);
    save(dir, "part-2.json", &w.parts[1]);
    let two = dir.join("part-2.json").display().to_string();
    let merged = ok(&["merge", &two, &one]);
    assert_eq!(
        merged,
        ok(&[command, &["--format", "json", "--quiet"]].concat()),
        "{name}: the merge of the genuine parts is the whole, byte for byte"
    );
    ok(&["report", &whole]);
    ok(&["report", &two]);
    ok(&["compare", &whole, &whole]);
    ok(&["compare", &two, &two]);
    for t in tampers {
        for (k, (genuine, path)) in [(&w.whole, &whole), (&w.parts[1], &two)]
            .into_iter()
            .enumerate()
        {
            if t.part_only && k == 0 {
                continue;
            }
            let mut doc = genuine.clone();
            (t.edit)(&mut doc);
            let file = save(dir, "tampered.json", &doc);
            let named = format!("{file}: $");
            let mut errors = vec![
                refused(&["report", &file]),
                refused(&["compare", path, &file]),
                refused(&["compare", &file, path]),
            ];
            if k == 1 {
                errors.push(refused(&["merge", &one, &file]));
            }
            for err in errors {
                assert!(
                    err.contains(&named)
                        && err.contains(&t.says)
                        && (!t.says.starts_with('$')
                            || err.contains(&format!("{file}: {}", t.says))),
                    "{name}, {}: expected {named:?} and {:?} in {err:?}",
                    t.what,
                    t.says
                );
            }
        }
    }
}

/// The tamperings every task's file is refused for: another version, and
/// `more` of its own.
fn with_version(more: Vec<Tamper>) -> Vec<Tamper> {
    let mut all = vec![set(
        "/version",
        json!("0.0.9"),
        "$.version: written by clefeval 0.0.9; this clefeval (",
    )];
    all.extend(more);
    all
}

#[test]
fn tampered_flowchart_results_are_refused() {
    let cut = Tamper {
        what: "a cut interval below its value",
        part_only: false,
        edit: Box::new(|doc| {
            let level = doc.pointer_mut("/runs/0/topics/0/levels/basic").unwrap();
            let mcs = level["mcs"].as_u64().unwrap();
            level["exact"] = json!(false);
            level["mcs_upper"] = json!(mcs - 1);
            level["distance_lower"] = json!(0.5);
        }),
        says: "$.runs[0].topics[0].levels.basic.mcs_upper: the interval [".into(),
    };
    refused_everywhere(
        "flowchart",
        command("flowchart"),
        &with_version(vec![
            set(
                "/runs/0/topics/0/levels/basic/distance",
                json!(-5.0),
                "$.runs[0].topics[0].levels.basic.distance: the file says -5.0, |mcs|, the sizes and the best label cost make ",
            ),
            set(
                "/runs/1/summary/mean_distance/complete",
                json!(0.3),
                "$.runs[1].summary.mean_distance.complete: the file says 0.3, its topics make ",
            ),
            set(
                "/runs/0/topics/0/levels/intermediate/nodes/precision",
                json!(1.5),
                "$.runs[0].topics[0].levels.intermediate.nodes.precision: 1.5 is out of its range [0, 1]",
            ),
            cut,
            doubled("/runs/0/topics"),
            set(
                "/runs/0/topics/0/topic",
                json!(2),
                "$.runs[0].topics[0].topic: not a result this clefeval reads: invalid type: integer `2`, expected a string",
            ),
        ]),
    );
}

#[test]
fn tampered_segmentation_results_are_refused() {
    refused_everywhere(
        "segmentation",
        command("segmentation"),
        &with_version(vec![
            set(
                "/runs/0/documents/0/tolerances/3/recall",
                json!(-5.0),
                "$.runs[0].documents[0].tolerances[3].recall: the file says -5.0, its counts make ",
            ),
            set(
                "/runs/1/tolerances/10/f1",
                json!(0.25),
                "$.runs[1].tolerances[10].f1: the file says 0.25, its counts make ",
            ),
            set(
                "/runs/0/tolerances/2/tp",
                json!(0),
                "$.runs[0].tolerances[2]",
            ),
            doubled("/runs/0/documents"),
        ]),
    );
}

#[test]
fn tampered_recognition_results_are_refused() {
    refused_everywhere(
        "recognition",
        command("recognition"),
        &with_version(vec![
            set(
                "/runs/0/summary/recall",
                json!(1.5),
                "$.runs[0].summary.recall: the file says 1.5, its structures make ",
            ),
            set(
                "/runs/0/summary/match",
                json!(1000),
                "$.runs[0].summary.match: the file says 1000, its structures make ",
            ),
            doubled("/runs/0/structures"),
        ]),
    );
}

#[test]
fn tampered_text_retrieval_results_are_refused() {
    refused_everywhere(
        "prior-art",
        command("prior-art"),
        &with_version(vec![
            set(
                "/runs/0/topics/0/5",
                json!(-5.0),
                "$.runs[0].topics[0][5]: -5 is out of its range [0, 1] (P@5)",
            ),
            set(
                "/runs/0/all/P@10",
                json!(0.5),
                "$.runs[0].all.P@10: the file says 0.5, its topic rows make ",
            ),
            doubled("/runs/0/topics"),
        ]),
    );
}

#[test]
fn tampered_detection_results_are_refused() {
    refused_everywhere(
        "detection",
        DETECTION,
        &with_version(vec![
            set(
                "/runs/0/summary/0/value",
                json!(-5.0),
                "$.runs[0].summary[0].value: -5 is out of its range [0, 1] (nor −1)",
            ),
            set(
                "/runs/0/categories/0/gold",
                json!(0),
                "$.runs[0].categories[0].ap: ",
            ),
            doubled("/runs/0/images"),
            Tamper {
                part_only: true,
                ..set(
                    "/runs/0/summary/1/value",
                    json!(0.125),
                    "$.runs[0].summary[1].value: the file says 0.125, its matches make ",
                )
            },
        ]),
    );
}
