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

/// `clefeval flowchart` on the gold and run A, with `extra` arguments.
fn run_a(extra: &[&str]) -> (String, String, Option<i32>) {
    clefeval(&[&["flowchart", "--gold", GOLD, "--run", RUN_A][..], extra].concat())
}

#[test]
fn one_run_json_matches_on_one_and_two_threads() {
    for threads in ["1", "2"] {
        let (out, _, code) = run_a(&["--format", "json", "--threads", threads]);
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
        "run,topic,status,gold_size,run_size,basic_mcs,basic_distance,basic_exact,\
         basic_node_matched,basic_node_precision,basic_node_recall,basic_node_f1,\
         basic_edge_matched,basic_edge_precision,basic_edge_recall,basic_edge_f1,\
         gold_triplets,run_triplets,triplet_matched,triplet_precision,triplet_recall,triplet_f1"
    );
    assert_eq!(lines.len(), 7);
    // A missing topic: every score 0; the gold's 58 edges are its triplets.
    assert_eq!(
        lines[4],
        "recognizer-a,FC-0004,missing,110,,0,1,true,0,0,0,0,0,0,0,0,58,0,0,0,0,0"
    );
}

/// The levels' (mcs, mcs_upper, exact) per topic of run 0, in topic order.
fn intervals(json: &str) -> Vec<(String, String, u64, u64, bool)> {
    let value: serde_json::Value = serde_json::from_str(json).expect("JSON output");
    let mut out = Vec::new();
    for topic in value["runs"][0]["topics"].as_array().expect("topics") {
        let name = topic["topic"].as_str().expect("topic").to_string();
        for level in ["basic", "intermediate", "complete"] {
            let l = &topic["levels"][level];
            let mcs = l["mcs"].as_u64().expect("mcs");
            let upper = l["mcs_upper"].as_u64().unwrap_or(mcs);
            let exact = l["exact"].as_bool().expect("exact");
            out.push((name.clone(), level.to_string(), mcs, upper, exact));
        }
    }
    out
}

/// A work budget cuts at the same place on every run and thread count, and
/// every interval it leaves holds the exact maximum (from `--budget none`,
/// which gives the goldens' verified results).
#[test]
fn a_work_budget_cuts_the_same_way_on_every_thread_count() {
    let json = |budget: &str, threads: &str| {
        let (out, err, code) =
            run_a(&["--format", "json", "--budget", budget, "--threads", threads]);
        assert_eq!(code, Some(0), "{err}");
        out
    };
    let exact = json("none", "2");
    let unlimited =
        expected("recognizer-a.json").replace("\"budget\": 80000000", "\"budget\": null");
    assert_eq!(exact, unlimited, "--budget none gives the verified results");
    let exact = intervals(&exact);
    assert!(exact.iter().all(|l| l.4), "every golden result is exact");
    let mut cut_levels = 0;
    for budget in ["50", "300"] {
        let first = json(budget, "1");
        for threads in ["1", "2", "4"] {
            assert_eq!(
                json(budget, threads),
                first,
                "budget {budget}, {threads} threads"
            );
        }
        for (cut, proven) in intervals(&first).iter().zip(&exact) {
            let (topic, level, mcs, upper, is_exact) = cut;
            let optimum = proven.2;
            assert!(
                *mcs <= optimum && optimum <= *upper,
                "{topic} {level}: [{mcs}, {upper}] misses {optimum} (budget {budget})"
            );
            if *is_exact {
                assert_eq!(*mcs, optimum, "{topic} {level} (budget {budget})");
            } else {
                cut_levels += 1;
            }
        }
    }
    // 50 units cut FC-0001 and FC-0003 at the basic level and FC-0002 at
    // the intermediate and complete levels; 300 units FC-0003's basic
    // level alone.
    assert_eq!(cut_levels, 5);
}

/// The table names every level a budget cut with its intervals for |mcs|
/// and d; the verified optimum (60 at FC-0002's intermediate level) lies
/// in the interval printed.
#[test]
fn the_table_lists_cut_levels_with_their_intervals() {
    let (out, err, code) = run_a(&["--budget", "50"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("* 3 topics cut by the work budget or the time limit"),
        "{out}"
    );
    let line = out
        .lines()
        .find(|l| {
            l.trim_start()
                .starts_with("FC-0002 intermediate: |mcs| in [")
        })
        .unwrap_or_else(|| panic!("no interval line for FC-0002:\n{out}"));
    let numbers: Vec<u64> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .skip(1)
        .take(2)
        .map(|w| w.parse().expect("a number"))
        .collect();
    assert!(numbers[0] <= 60 && 60 <= numbers[1], "{line}");
    assert!(
        numbers[0] < numbers[1],
        "a cut interval is not a point: {line}"
    );
}
