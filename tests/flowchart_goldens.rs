//! Goldens of `clefeval flowchart`: the real binary on `goldens/flowchart`
//! (gold and two recognizer-like runs) must print exactly the expected JSON,
//! whatever the thread count. The expected numbers were checked with an
//! independent CP-SAT model (`goldens/flowchart/verify_cpsat.py`).

use std::path::Path;
use std::process::Command;

fn clefeval(args: &[&str]) -> (String, String, Option<i32>) {
    let out = Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("the clefeval binary runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

fn expected(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("goldens/flowchart/expected")
        .join(name);
    std::fs::read_to_string(path).expect("expected file exists")
}

const GOLD: &str = "goldens/flowchart/gold";
const RUN_A: &str = "goldens/flowchart/runs/recognizer-a";
const RUN_B: &str = "goldens/flowchart/runs/recognizer-b";

#[test]
fn one_run_json_matches_on_one_and_two_threads() {
    for threads in ["1", "2"] {
        let (out, _, code) = clefeval(&[
            "flowchart",
            "--gold",
            GOLD,
            "--run",
            RUN_A,
            "--format",
            "json",
            "--threads",
            threads,
        ]);
        assert_eq!(code, Some(0));
        assert_eq!(out, expected("recognizer-a.json"), "threads {threads}");
    }
}

#[test]
fn two_runs_json_matches() {
    let (out, _, code) = clefeval(&[
        "flowchart",
        "--gold",
        GOLD,
        "--run",
        RUN_B,
        "--run",
        RUN_A,
        "--format",
        "json",
    ]);
    assert_eq!(code, Some(0));
    assert_eq!(out, expected("two-runs.json"));
}

#[test]
fn table_lists_missing_and_rejected_topics_and_ranks_runs() {
    let (out, _, code) = clefeval(&["flowchart", "--gold", GOLD, "--run", RUN_A, "--run", RUN_B]);
    assert_eq!(code, Some(0));
    assert!(out.contains("missing (distance 1): FC-0004\n"), "{out}");
    assert!(out.contains("rejected (distance 1): FC-0006\n"), "{out}");
    assert!(out.contains("recognizer-a/FC-0006.txt:48: error:"), "{out}");
    // recognizer-b has the lower mean complete distance (0.3973 < 0.4434).
    let ranking = out.split("== ranking").nth(1).expect("a ranking table");
    assert!(
        ranking.find("recognizer-b") < ranking.find("recognizer-a"),
        "{ranking}"
    );
    assert!(out.contains("0.4434"), "{out}");
}

#[test]
fn bad_arguments_and_unreadable_gold_exit_2() {
    let (_, err, code) = clefeval(&["flowchart", "--gold", "no/such/dir", "--run", RUN_A]);
    assert_eq!(code, Some(2), "{err}");
    let (_, err, code) = clefeval(&[
        "flowchart",
        "--gold",
        GOLD,
        "--run",
        RUN_A,
        "--time-limit",
        "-1",
    ]);
    assert_eq!(code, Some(2), "{err}");
    // A gold file with an error cannot be scored against.
    let (_, err, code) = clefeval(&["flowchart", "--gold", RUN_A, "--run", RUN_B]);
    assert_eq!(code, Some(2));
    assert!(err.contains("FC-0006.txt:48"), "{err}");
}

#[test]
fn csv_has_one_row_per_topic() {
    let (out, _, code) = clefeval(&[
        "flowchart",
        "--gold",
        GOLD,
        "--run",
        RUN_A,
        "--level",
        "basic",
        "--format",
        "csv",
    ]);
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "run,topic,status,gold_size,run_size,basic_mcs,basic_distance,basic_exact"
    );
    assert_eq!(lines.len(), 7);
    assert_eq!(lines[4], "recognizer-a,FC-0004,missing,110,,0,1,true");
}
