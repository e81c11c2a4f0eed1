//! The generic entry (`clefeval::tasks::evaluate`, behind the C API's
//! `clefeval_evaluate`) gives, for every task, the JSON the command line
//! writes with `--format json` for the same inputs and settings: one seam,
//! the same numbers.

#[path = "support/task_pages.rs"]
mod task_pages;

use serde_json::{Value, json};
use task_pages::TASK_PAGES;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The command line's JSON for `args`, run from the project's root.
fn command_json(args: &[&str]) -> Value {
    let more = ["--format", "json", "--quiet"];
    let out = task_pages::run_in_root(&args.iter().chain(&more).collect::<Vec<_>>());
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The generic entry's JSON for `request`, from the project's root (the
/// request's relative paths are the command's).
fn seam_json(task: &str, request: Value) -> Value {
    std::env::set_current_dir(ROOT).unwrap();
    let text = clefeval::tasks::evaluate(task, &request.to_string()).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The request the command-line arguments `args` (after the subcommand)
/// ask for: paths by role, `NAME=PATH` runs named, every other option a
/// setting by its snake-case name (`--level` one level, `--compare`
/// repeated), numbers as numbers.
fn request_of(args: &[&str]) -> Value {
    let mut request = json!({"runs": [], "settings": {}});
    for pair in args.chunks(2) {
        let [flag, value] = pair else {
            panic!("{pair:?}")
        };
        let number = (value.parse::<u64>().map(Value::from))
            .or_else(|_| value.parse::<f64>().map(Value::from))
            .ok();
        match *flag {
            "--gold" => request["gold"] = json!([value]),
            "--run" => request["runs"]
                .as_array_mut()
                .unwrap()
                .push(match value.split_once('=') {
                    Some((name, path)) => json!({"name": name, "path": path}),
                    None => json!(value),
                }),
            "--qrels" | "--groups" | "--pages" | "--shard" => request[&flag[2..]] = json!(value),
            "-j" => request["threads"] = json!(number),
            "--level" => request["settings"]["levels"] = json!([value]),
            "--compare" => request["settings"]["compare"] = json!([value]),
            _ => {
                let name = flag[2..].replace('-', "_");
                request["settings"][name] = number.unwrap_or_else(|| json!(value));
            }
        }
    }
    request
}

#[test]
fn every_task_gives_the_commands_json_through_the_seam() {
    // Beyond each page's command: named runs, levels and a denominator,
    // millimetres, a timeout and worker processes, a cut-off and a part.
    let more: [&[&str]; 5] = [
        &[
            "--run",
            "again=goldens/flowchart/runs/recognizer-a",
            "--level",
            "intermediate",
            "--denominator",
            "max",
        ],
        &["--tolerance-mm", "0.5,2"],
        &["--timeout", "5", "-j", "2"],
        &["--cutoff", "20", "--shard", "1/2"],
        &[],
    ];
    for ((task, page), more) in TASK_PAGES.iter().zip(more) {
        let args: Vec<&str> = page.iter().chain(more).copied().collect();
        let mut request = request_of(&args[1..]);
        if *task == "recognition" {
            request["worker"] = json!([env!("CARGO_BIN_EXE_clefeval"), "inchi-worker"]);
        }
        assert_eq!(seam_json(task, request), command_json(&args), "{task}");
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

#[test]
fn smiles_tables_and_their_columns_reach_the_seam() {
    let args = [
        "recognition",
        "--gold",
        "goldens/recognition/smiles/measures/gold.smi",
        "--run",
        "goldens/recognition/smiles/measures/run.csv",
        "--run",
        "osra=goldens/recognition/osra/runs/osra-smiles",
        "--smiles-column",
        "SMILES",
        "--name-column",
        "image_id",
    ];
    let mut request = request_of(&args[1..]);
    request["worker"] = json!([env!("CARGO_BIN_EXE_clefeval"), "inchi-worker"]);
    assert_eq!(request["settings"]["smiles_column"], "SMILES");
    let through_seam = seam_json("recognition", request);
    assert_eq!(through_seam, command_json(&args));
    assert_eq!(through_seam["settings"]["name_column"], "image_id");
    assert_eq!(through_seam["runs"][0]["summary"]["structures"], 14);
}
