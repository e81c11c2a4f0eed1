//! `clefeval validate` on the bundled flowcharts, run as the real binary:
//! the output must equal the checked-in expectations byte for byte (each
//! expected line was written from reading the files, then compared).

use std::path::Path;
use std::process::{Command, Output};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn validate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .arg("validate")
        .args(args)
        .current_dir(ROOT)
        .output()
        .expect("the clefeval binary runs")
}

fn expected(name: &str) -> String {
    let path = Path::new(ROOT).join("goldens/flowchart").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

#[test]
fn gold_flowcharts_are_all_ok() {
    let out = validate(&["goldens/flowchart/gold"]);
    assert_eq!(stdout(&out), expected("validate-gold.expected"));
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn broken_flowcharts_get_every_diagnostic_and_exit_1() {
    let out = validate(&["goldens/flowchart/broken"]);
    assert_eq!(stdout(&out), expected("validate-broken.expected"));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn strict_mode_rejects_unknown_record_kinds() {
    let out = validate(&["--strict", "goldens/flowchart/broken/unknown-record.txt"]);
    assert_eq!(stdout(&out), expected("validate-strict.expected"));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn json_carries_the_same_findings() {
    let out = validate(&["--format", "json", "goldens/flowchart/broken"]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(json["task"], "validate");
    assert_eq!(json["summary"]["files"], 10);
    assert_eq!(json["summary"]["ok"], 0);
    assert_eq!(json["summary"]["warnings"], 6);
    assert_eq!(json["summary"]["rejected"], 4);
    let files = json["files"].as_array().expect("files array");
    let dup = &files[2];
    assert_eq!(dup["file"], "goldens/flowchart/broken/duplicate-id.txt");
    assert_eq!(dup["status"], "rejected");
    assert_eq!(dup["nodes"], 2);
    assert_eq!(dup["declared"]["nodes"], 3);
    assert_eq!(dup["declared"]["directed_edges"], serde_json::Value::Null);
    assert_eq!(dup["diagnostics"][1]["line"], 4);
    assert_eq!(dup["diagnostics"][1]["severity"], "error");
    // Every diagnostic line of the text output is in the JSON, in order.
    let from_json: Vec<String> = files
        .iter()
        .flat_map(|f| f["diagnostics"].as_array().cloned().unwrap_or_default())
        .map(|d| match d["line"].as_u64() {
            Some(line) => format!(
                "{}:{line}: {}: {}",
                d["file"].as_str().unwrap_or(""),
                d["severity"].as_str().unwrap_or(""),
                d["message"].as_str().unwrap_or("")
            ),
            None => format!(
                "{}: {}: {}",
                d["file"].as_str().unwrap_or(""),
                d["severity"].as_str().unwrap_or(""),
                d["message"].as_str().unwrap_or("")
            ),
        })
        .collect();
    let from_text: Vec<String> = expected("validate-broken.expected")
        .lines()
        .filter(|l| l.contains(": error: ") || l.contains(": warning: "))
        .map(str::to_string)
        .collect();
    assert_eq!(from_json, from_text);
}

#[test]
fn csv_has_one_row_per_file() {
    let out = validate(&[
        "--format",
        "csv",
        "goldens/flowchart/broken/duplicate-id.txt",
        "goldens/flowchart/gold/FC-0005.txt",
    ]);
    assert_eq!(
        stdout(&out),
        "file,status,errors,warnings,nodes,declared_nodes,directed_edges,declared_directed_edges,undirected_edges,declared_undirected_edges\n\
         goldens/flowchart/broken/duplicate-id.txt,rejected,1,1,2,3,1,,1,\n\
         goldens/flowchart/gold/FC-0005.txt,ok,0,0,12,12,10,10,4,4\n"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn missing_path_cannot_run() {
    let out = validate(&["goldens/flowchart/gold", "goldens/no-such-folder"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("clefeval: error: goldens/no-such-folder: no such file or folder"),
        "{err}"
    );
}

#[test]
fn folder_without_flowcharts_cannot_run() {
    let out = validate(&["src"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(
        "no flowchart files (*.txt, *.mmd, *.mermaid, *.md, *.dot, *.gv, *.graphml, *.drawio)"
    ));
}

#[test]
fn demo_validates_the_bundled_flowcharts() {
    // The page goes to a scratch file, not into the checkout.
    let tmp = tempfile::Builder::new()
        .prefix("clefeval-demo-")
        .tempdir()
        .expect("temp folder");
    let page = tmp.path().join("demo-fc.html");
    let out = Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .arg("demo")
        .arg("--html")
        .arg(&page)
        .current_dir(ROOT)
        .output()
        .expect("the clefeval binary runs");
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(text.contains(&expected("validate-gold.expected")), "{text}");
    // The broken examples only as their total (the last line of their
    // expected report) and the command that lists every diagnostic.
    let broken = expected("validate-broken.expected");
    let total = broken.lines().last().unwrap_or_default();
    assert_eq!(total, "10 files: 0 ok, 6 with warnings, 4 rejected");
    assert!(
        text.contains(&format!(
            "{total}\n(every diagnostic: clefeval validate goldens/flowchart/broken)\n"
        )),
        "{text}"
    );
}

#[test]
fn output_option_writes_the_report_to_a_file() {
    let tmp = tempfile::Builder::new()
        .prefix("clefeval-validate-")
        .tempdir()
        .expect("temp folder");
    let path = tmp.path().join("report.txt");
    let out = validate(&[
        "--output",
        &path.display().to_string(),
        "goldens/flowchart/gold",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    let written = std::fs::read_to_string(&path).expect("report written");
    assert_eq!(written, expected("validate-gold.expected"));
}
