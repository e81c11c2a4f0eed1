//! Diagnostics a user can read, through the real binary: the documented box
//! CSV header is taken silently, every reader caps its diagnostics per file
//! with the same closing wording, and binary data named like an input file
//! is rejected with a reason naming its path.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use tempfile::TempDir;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Exit status, stdout and stderr of one command.
fn clefeval(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A fresh folder for one test, removed when dropped.
fn scratch(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("clefeval-diag-{name}-"))
        .tempdir()
        .unwrap()
}

fn golden(path: &str) -> String {
    format!("{ROOT}/goldens/{path}")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn json(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap().to_string())
        .collect()
}

/// Segmentation JSON for the gold `gold` and one run.
fn segmentation(gold: &str, run: &Path) -> Value {
    let (code, out, err) = clefeval(&[
        "segmentation",
        "--gold",
        gold,
        "--run",
        s(run),
        "--format",
        "json",
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    json(&out)
}

/// A scratch folder and a run folder in it holding a copy of the OSRA
/// golden run.
fn osra_run(name: &str) -> (TempDir, PathBuf) {
    let dir = scratch(name);
    let run = dir.path().join("run");
    std::fs::create_dir(&run).unwrap();
    for sdf in ["EP-1000001-A1.sdf", "EP-1000002-A1.sdf"] {
        std::fs::copy(
            golden(&format!("segmentation/run-osra/{sdf}")),
            run.join(sdf),
        )
        .unwrap();
    }
    (dir, run)
}

/// The first run's documents and tolerance rows are the same in both.
fn assert_same_scores(after: &Value, before: &Value) {
    for key in ["documents", "tolerances"] {
        assert_eq!(after["runs"][0][key], before["runs"][0][key], "{key}");
    }
}

#[test]
fn the_documented_header_is_silent_and_another_header_is_reported() {
    let gold_dir = golden("segmentation/gold");
    let run = golden("segmentation/run-osra");
    let report = segmentation(&gold_dir, Path::new(&run));
    assert_eq!(report["diagnostics"], Value::Array(vec![]));

    let tmp = scratch("header");
    let dir = tmp.path();
    let gold = dir.join("gold.csv");
    let text = std::fs::read_to_string(golden("segmentation/gold/gold.csv")).unwrap();
    let body = text.split_once('\n').unwrap().1;
    std::fs::write(&gold, format!("document,pg,x,y,w,h\n{body}")).unwrap();
    let other = segmentation(s(&gold), Path::new(&run));
    assert_eq!(
        strings(&other["diagnostics"]),
        vec![format!(
            "{}:1: warning: first line taken as a header (its numeric fields do not parse)",
            gold.display()
        )]
    );
    // The scores do not depend on the header's wording.
    assert_eq!(other["runs"], report["runs"]);
}

#[test]
fn a_seven_column_csv_gets_a_thousand_diagnostics_and_no_false_document() {
    let (_dir, run) = osra_run("seven");
    let gold = golden("segmentation/gold");
    let before = segmentation(&gold, &run);
    let boxes = run.join("boxes.csv");
    std::fs::write(&boxes, "EP-1000001-A1,1,1,1,5,5,7\n".repeat(5000)).unwrap();
    let after = segmentation(&gold, &run);
    let found = strings(&after["runs"][0]["diagnostics"]);
    let name = boxes.display().to_string();
    let of_file: Vec<&String> = found.iter().filter(|d| d.starts_with(&name)).collect();
    assert_eq!(of_file.len(), 1000 + 1);
    assert_eq!(
        *of_file[0],
        format!(
            "{name}:1: error: expected 6 fields (doc-id,page,x,y,width,height), found 7; line skipped"
        )
    );
    assert_eq!(
        *of_file[1000],
        format!("{name}: error: 4000 more diagnostics not listed (errors: 4000, warnings: 0)")
    );
    assert!(
        !found.iter().any(|d| d.contains("\"boxes\"")),
        "the file name taken as a document: {found:?}"
    );
    assert_eq!(found.len(), of_file.len());
    assert_same_scores(&after, &before);
}

#[test]
fn a_flowchart_file_with_two_thousand_errors_gets_the_same_cap() {
    let tmp = scratch("fc-cap");
    let dir = tmp.path();
    let file = dir.join("FC-0001.txt");
    let mut text = String::from("NO 1 oval\n");
    for _ in 0..2000 {
        text.push_str("DE 1 9 plain\n");
    }
    std::fs::write(&file, text).unwrap();
    let (code, out, _) = clefeval(&["validate", s(&file), "--format", "json"]);
    assert_eq!(code, 1);
    let report = json(&out);
    let files = report["files"].as_array().expect("files");
    let found = files[0]["diagnostics"].as_array().unwrap();
    assert_eq!(found.len(), 1000 + 1);
    assert_eq!(
        (files[0]["errors"].as_u64(), files[0]["warnings"].as_u64()),
        (Some(2000), Some(0))
    );
    let last = &found[1000];
    assert_eq!(last["file"], s(&file));
    assert_eq!(last["line"], Value::Null);
    assert_eq!(last["severity"], "error");
    assert_eq!(
        last["message"],
        "1000 more diagnostics not listed (errors: 1000, warnings: 0)"
    );
}

/// Flowchart JSON and table for the gold topics and one run folder.
fn flowchart(run: &Path) -> (Value, String) {
    let gold = golden("flowchart/gold");
    let args = ["flowchart", "--gold", &gold, "--run", s(run), "--quiet"];
    let (code, table, err) = clefeval(&args);
    assert_eq!(code, 0, "{err}");
    let mut with_json = args.to_vec();
    with_json.extend(["--format", "json"]);
    let (code, out, err) = clefeval(&with_json);
    assert_eq!(code, 0, "{err}");
    (json(&out), table)
}

fn topics(report: &Value) -> Vec<Value> {
    report["runs"][0]["topics"].as_array().unwrap().clone()
}

#[test]
fn a_binary_flowchart_file_is_rejected_and_the_others_are_unchanged() {
    let tmp = scratch("fc-binary");
    let dir = tmp.path();
    let run = dir.join("run");
    std::fs::create_dir(&run).unwrap();
    let gold = Path::new(ROOT).join("goldens/flowchart/gold");
    for entry in std::fs::read_dir(&gold).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, run.join(path.file_name().unwrap())).unwrap();
    }
    let (before, _) = flowchart(&run);
    let binary = run.join("FC-0001.txt");
    let mut bytes: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
    bytes.extend_from_slice(b"NO 1 oval\n");
    std::fs::write(&binary, bytes).unwrap();
    let (after, table) = flowchart(&run);
    let reason = format!(
        "{}: error: binary data (a NUL byte), not a flowchart file; not read",
        binary.display()
    );
    let (was, now) = (topics(&before), topics(&after));
    assert_eq!(was.len(), now.len());
    for (was, now) in was.iter().zip(&now) {
        if now["topic"] == "FC-0001" {
            assert_eq!(now["status"], "rejected");
            assert_eq!(strings(&now["diagnostics"]), vec![reason.clone()]);
            assert_eq!(now["levels"]["basic"]["distance"], 1.0);
        } else {
            assert_eq!(was, now);
        }
    }
    assert!(table.contains("rejected (distance 1): FC-0001"), "{table}");
    assert!(table.contains(&reason), "{table}");
}

#[test]
fn a_binary_box_csv_is_named_and_the_other_files_are_scored_as_before() {
    let (_dir, run) = osra_run("seg-binary");
    let gold = golden("segmentation/gold");
    let before = segmentation(&gold, &run);
    let binary = run.join("EP-1000002-A1-extra.csv");
    let mut bytes = b"EP-1000001-A1,1,1,1,5,5\n".to_vec();
    bytes.extend((0..=255u8).cycle().take(3000));
    std::fs::write(&binary, bytes).unwrap();
    let after = segmentation(&gold, &run);
    assert_eq!(
        strings(&after["runs"][0]["diagnostics"]),
        vec![format!(
            "{}: error: binary data (a NUL byte), not a box CSV file; not read",
            binary.display()
        )]
    );
    assert_same_scores(&after, &before);
}

#[test]
fn an_empty_flowchart_file_is_still_ok_against_an_empty_gold() {
    let tmp = scratch("fc-empty");
    let dir = tmp.path();
    let (gold, run) = (dir.join("gold"), dir.join("run"));
    std::fs::create_dir(&gold).unwrap();
    std::fs::create_dir(&run).unwrap();
    std::fs::write(gold.join("FC-0001.txt"), "").unwrap();
    std::fs::write(run.join("FC-0001.txt"), "").unwrap();
    let (code, out, err) = clefeval(&[
        "flowchart",
        "--gold",
        s(&gold),
        "--run",
        s(&run),
        "--format",
        "json",
        "--quiet",
    ]);
    assert_eq!(code, 0, "{err}");
    let topic = &json(&out)["runs"][0]["topics"][0];
    assert_eq!(topic["status"], "ok", "{topic}");
    assert_eq!(topic["levels"]["basic"]["distance"], 0.0);
}
