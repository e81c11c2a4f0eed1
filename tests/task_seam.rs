//! The generic entry (`clefeval::tasks::evaluate`, behind the C API's
//! `clefeval_evaluate`) gives, for every task, the JSON the command line
//! writes with `--format json` for the same inputs and settings: one seam,
//! the same numbers.

use serde_json::{Value, json};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The command line's JSON for `args`, run from the project's root.
fn command_json(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .current_dir(ROOT)
        .args(args)
        .args(["--format", "json", "--quiet"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The generic entry's JSON for `request`, from the project's root (the
/// request's relative paths are the command's).
fn seam_json(task: &str, request: Value) -> Value {
    std::env::set_current_dir(ROOT).unwrap();
    let text = clefeval::tasks::evaluate(task, &request.to_string()).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn every_task_gives_the_commands_json_through_the_seam() {
    let worker = [env!("CARGO_BIN_EXE_clefeval"), "inchi-worker"];
    let cases: [(&str, Value, &[&str]); 5] = [
        (
            "flowchart",
            json!({"gold": ["goldens/flowchart/gold"],
                   "runs": ["goldens/flowchart/runs/recognizer-a", "goldens/flowchart/runs/recognizer-b"],
                   "settings": {"levels": ["intermediate"], "denominator": "max"}}),
            &[
                "flowchart",
                "--gold",
                "goldens/flowchart/gold",
                "--run",
                "goldens/flowchart/runs/recognizer-a",
                "--run",
                "goldens/flowchart/runs/recognizer-b",
                "--level",
                "intermediate",
                "--denominator",
                "max",
            ],
        ),
        (
            "segmentation",
            json!({"gold": ["goldens/segmentation/gold"],
                   "runs": [{"name": "osra", "path": "goldens/segmentation/run-osra"}],
                   "pages": "goldens/segmentation/pages",
                   "settings": {"tolerance_mm": "0.5,2"}}),
            &[
                "segmentation",
                "--gold",
                "goldens/segmentation/gold",
                "--run",
                "osra=goldens/segmentation/run-osra",
                "--pages",
                "goldens/segmentation/pages",
                "--tolerance-mm",
                "0.5,2",
            ],
        ),
        (
            "recognition",
            json!({"gold": ["goldens/recognition/gold"],
                   "runs": ["goldens/recognition/runs/handmade"],
                   "settings": {"timeout": 5}, "worker": worker, "threads": 2}),
            &[
                "recognition",
                "--gold",
                "goldens/recognition/gold",
                "--run",
                "goldens/recognition/runs/handmade",
                "--timeout",
                "5",
                "-j",
                "2",
            ],
        ),
        (
            "prior-art",
            json!({"qrels": "goldens/passage/doc/qrels.txt", "groups": "goldens/passage/doc/groups.txt",
                   "runs": ["goldens/passage/doc/runs"], "settings": {"cutoff": 20}, "shard": "1/2"}),
            &[
                "prior-art",
                "--qrels",
                "goldens/passage/doc/qrels.txt",
                "--groups",
                "goldens/passage/doc/groups.txt",
                "--run",
                "goldens/passage/doc/runs",
                "--cutoff",
                "20",
                "--shard",
                "1/2",
            ],
        ),
        (
            "passage",
            json!({"qrels": "goldens/passage/demo/qrels.txt", "groups": "goldens/passage/demo/groups.txt",
                   "runs": ["goldens/passage/demo/runs"], "settings": {"compare": ["MAP@100"]}}),
            &[
                "passage",
                "--qrels",
                "goldens/passage/demo/qrels.txt",
                "--groups",
                "goldens/passage/demo/groups.txt",
                "--run",
                "goldens/passage/demo/runs",
                "--compare",
                "MAP@100",
            ],
        ),
    ];
    // One case at a time: `seam_json` sets the process's working folder.
    for (task, request, args) in cases {
        assert_eq!(seam_json(task, request), command_json(args), "{task}");
    }
}

#[test]
fn a_request_that_is_not_one_is_named() {
    let error = |task: &str, request: &str| {
        clefeval::tasks::evaluate(task, request)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        error("flowchart", r#"{"settings": {"budget": 0}}"#),
        "budget must be a whole number of work units above 0 (or no limit)"
    );
    assert_eq!(
        error("passage", r#"{"gold": ["g"], "qrels": "q"}"#),
        "gold: this task reads no gold"
    );
    assert_eq!(
        error("prior-art", r#"{"runs": ["r"]}"#),
        "qrels: the relevance judgements are required"
    );
    assert_eq!(
        error("segmentation", r#"{"settings": {"tolerances": 5}}"#),
        "tolerances is 5: invalid type: integer `5`, expected a string"
    );
}
