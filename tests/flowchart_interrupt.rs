//! A flowchart evaluation stopped from outside keeps the results of the
//! pairs it had finished (docs/cli.md, "Interrupting a flowchart
//! evaluation"), checked through the real binary:
//!
//! - SIGINT: the outputs are written, marked interrupted, with every
//!   finished topic as an uninterrupted run gives it; exit 130;
//! - SIGKILL: the `--partial` file holds one whole JSON line per finished
//!   topic, each as an uninterrupted run gives it;
//! - every level that is not exact says which limit cut it (`cut_by`).
//!
//! The input, `tests/data/flowchart_interrupt`, is 6 heavily edited pairs
//! of 45–60 gold nodes (`cargo bench --bench flowchart_workload --
//! write-heavy NAME 6 45 60 7`), scored on one thread with a budget of
//! 500 000 units: a few seconds in all, some levels cut by the budget
//! (the same cut on every run), the others exact.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use tempfile::TempDir;

const GOLD: &str = "tests/data/flowchart_interrupt/gold";
const RUN: &str = "tests/data/flowchart_interrupt/run";

/// The scoring arguments every run here shares.
fn args() -> Vec<&'static str> {
    vec![
        "flowchart",
        "--gold",
        GOLD,
        "--run",
        RUN,
        "--format",
        "json",
        "--threads",
        "1",
        "--budget",
        "500000",
        "--quiet",
    ]
}

fn clefeval() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_clefeval"));
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

/// A fresh path for a `--partial` file of the test `name`, in a temporary
/// folder removed when the returned `TempDir` is dropped.
fn partial_path(name: &str) -> (TempDir, PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix("clefeval-interrupt-")
        .tempdir()
        .expect("temp folder");
    let path = dir.path().join(format!("{name}.jsonl"));
    (dir, path)
}

/// The uninterrupted run's topics by name (their JSON objects), scored
/// once for every test.
fn full_run() -> &'static serde_json::Map<String, Value> {
    static FULL: OnceLock<serde_json::Map<String, Value>> = OnceLock::new();
    FULL.get_or_init(|| {
        let out = clefeval().args(args()).output().expect("clefeval runs");
        assert_eq!(out.status.code(), Some(0));
        let report: Value = serde_json::from_slice(&out.stdout).expect("JSON output");
        assert!(report.get("interrupted").is_none());
        topics(&report)
    })
}

/// The topics of the report's one run, by name.
fn topics(report: &Value) -> serde_json::Map<String, Value> {
    report["runs"][0]["topics"]
        .as_array()
        .expect("topics")
        .iter()
        .map(|t| (t["topic"].as_str().expect("name").to_string(), t.clone()))
        .collect()
}

/// Starts the scoring with `--partial partial`, its stdout piped.
fn start(partial: &Path) -> Child {
    clefeval()
        .args(args())
        .arg("--partial")
        .arg(partial)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("clefeval starts")
}

/// Waits until `partial` holds `lines` whole lines (a minute at most).
fn wait_for_lines(partial: &Path, lines: usize) {
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(partial).unwrap_or_default();
        if text.matches('\n').count() >= lines {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no {lines} lines in {}",
            partial.display()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Sends `signal` to `child`.
fn signal(child: &Child, signal: i32) {
    let pid = i32::try_from(child.id()).expect("a pid");
    // SAFETY: kill(2) with the pid of a child this test started and waits
    // for; it touches no memory of this process.
    let sent = unsafe { libc::kill(pid, signal) };
    assert_eq!(sent, 0, "kill failed");
}

/// Every line of the partial file: (run, topic), each line whole JSON.
fn partial_lines(partial: &Path) -> Vec<(String, Value)> {
    let text = std::fs::read_to_string(partial).expect("partial file");
    assert!(text.ends_with('\n'), "a partial line was cut:\n{text}");
    text.lines()
        .map(|line| {
            let value: Value = serde_json::from_str(line).expect("a JSON line");
            let run = value["run"].as_str().expect("run").to_string();
            (run, value["topic"].clone())
        })
        .collect()
}

/// True when every level of `topic` is exact.
fn all_exact(topic: &Value) -> bool {
    let levels = topic["levels"].as_object().expect("levels");
    !levels.is_empty() && levels.values().all(|l| l["exact"] == Value::Bool(true))
}

#[test]
fn sigint_writes_the_finished_topics_and_exits_130() {
    let full = full_run();
    let (_dir, partial) = partial_path("sigint");
    let child = start(&partial);
    wait_for_lines(&partial, 2);
    signal(&child, libc::SIGINT);
    let out = child.wait_with_output().expect("clefeval ends");
    assert_eq!(out.status.code(), Some(130));
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    assert_eq!(report["interrupted"], Value::Bool(true));
    let got = topics(&report);
    assert_eq!(got.len(), full.len(), "every topic is listed");
    // The topics in the partial file are finished: each is in the output
    // as an uninterrupted run gives it, unless the interruption cut it.
    let finished = partial_lines(&partial);
    assert!(finished.len() >= 2);
    let mut same = 0;
    for (run, topic) in &finished {
        assert_eq!(run, "run");
        let name = topic["topic"].as_str().expect("name");
        assert_eq!(
            &got[name], topic,
            "{name}: the output and the partial file agree"
        );
        let cut = topic["levels"]
            .as_object()
            .expect("levels")
            .values()
            .any(|l| l["cut_by"] == "interrupted");
        if !cut {
            assert_eq!(topic, &full[name], "{name}");
            same += 1;
        }
    }
    assert!(same >= 2, "the first two topics finished before the signal");
    for (name, topic) in &got {
        match topic["status"].as_str() {
            Some("interrupted") => {
                assert_eq!(topic["levels"], serde_json::json!({}), "{name}");
                assert!(
                    !finished.iter().any(|(_, t)| t["topic"] == name.as_str()),
                    "{name}: not scored, not in the partial file"
                );
            }
            Some("ok") => {
                for level in topic["levels"].as_object().expect("levels").values() {
                    let cut = &level["cut_by"];
                    if level["exact"] == Value::Bool(true) {
                        assert!(cut.is_null(), "{name}: an exact level has no cut_by");
                    } else {
                        assert!(cut == "budget" || cut == "interrupted", "{name}: {cut}");
                    }
                }
            }
            other => panic!("{name}: status {other:?}"),
        }
    }
}

#[test]
fn sigkill_leaves_whole_partial_lines_equal_to_the_full_run() {
    let full = full_run();
    let (_dir, partial) = partial_path("sigkill");
    let mut child = start(&partial);
    wait_for_lines(&partial, 2);
    child.kill().expect("SIGKILL sent");
    child.wait().expect("clefeval ends");
    let lines = partial_lines(&partial);
    assert!(lines.len() >= 2);
    for (run, topic) in &lines {
        assert_eq!(run, "run");
        let name = topic["topic"].as_str().expect("name");
        assert_eq!(topic, &full[name], "{name}");
    }
}

/// Exact levels carry no `cut_by`; every other says the budget cut it, on
/// the uninterrupted run: at least one topic of each kind here.
#[test]
fn cut_levels_name_the_budget_and_exact_levels_nothing() {
    let full = full_run();
    assert!(full.values().any(all_exact));
    let mut cut = 0;
    for topic in full.values() {
        for level in topic["levels"].as_object().expect("levels").values() {
            if level["exact"] == Value::Bool(true) {
                assert!(level.get("cut_by").is_none() && level.get("mcs_upper").is_none());
            } else {
                assert_eq!(level["cut_by"], "budget");
                cut += 1;
            }
        }
    }
    assert!(cut > 0);
}

/// With `--time-limit 0` every search is cut at its first check of the
/// clock, before the budget is spent: each level says `time`.
#[test]
fn a_time_limit_cut_says_time() {
    let out = clefeval()
        .args([
            "flowchart",
            "--gold",
            "goldens/flowchart/gold",
            "--run",
            "goldens/flowchart/runs/recognizer-a",
            "--format",
            "json",
            "--quiet",
            "--time-limit",
            "0",
        ])
        .output()
        .expect("clefeval runs");
    assert_eq!(out.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    let mut cut = 0;
    for topic in topics(&report).values() {
        for level in topic["levels"].as_object().expect("levels").values() {
            if level["exact"] == Value::Bool(false) {
                assert_eq!(level["cut_by"], "time");
                cut += 1;
            }
        }
    }
    assert!(cut > 0);
}

/// A `--partial` file that cannot be written stops the command before any
/// scoring, naming the path (exit 2).
#[test]
fn an_unwritable_partial_file_is_an_error_naming_it() {
    let out = clefeval()
        .args([
            "flowchart",
            "--gold",
            GOLD,
            "--run",
            RUN,
            "--partial",
            "no-such-folder/partial.jsonl",
        ])
        .output()
        .expect("clefeval runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "cannot write no-such-folder/partial.jsonl: folder no-such-folder does not exist"
        ),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}
