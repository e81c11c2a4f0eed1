//! The retrieval tasks against the expected outputs in `goldens/passage/`
//! (an independent reference checked against trec_eval): every topic row,
//! the means overall and per group, and the lists of left-out, missing,
//! unknown topics, duplicates and removed headings.

use clefeval::retrieval::{Order, Settings, Task, evaluate};
use serde_json::Value;
use std::path::{Path, PathBuf};

const ROOT: &str = "goldens/passage";
const TOLERANCE: f64 = 1e-12;

fn settings_of(expected: &Value) -> Settings {
    let task = match expected["task"].as_str() {
        Some("prior-art") => Task::PriorArt,
        Some("passage") => Task::Passage,
        other => panic!("unknown task {other:?}"),
    };
    let s = &expected["settings"];
    let mut settings = Settings::new(task);
    settings.order = match s["order"].as_str() {
        Some("file") => Order::File,
        Some("score") => Order::Score,
        other => panic!("unknown order {other:?}"),
    };
    settings.cutoff = s["cutoff"].as_u64().unwrap() as usize;
    settings.ndcg_base = s["ndcg_base"].as_u64().unwrap() as u32;
    settings.min_relevance = s["min_relevance"].as_i64().unwrap();
    settings.keep_headings = s["keep_headings"].as_bool().unwrap();
    settings
}

/// Compares `actual` with `expected`: numbers within the tolerance (exactly
/// for integers), everything else exactly; fields of `expected` only.
fn compare(actual: &Value, expected: &Value, at: &str, failures: &mut Vec<String>) {
    match (actual, expected) {
        (Value::Number(a), Value::Number(e)) => {
            if e.is_f64() {
                let (a, e) = (a.as_f64().unwrap(), e.as_f64().unwrap());
                if (a - e).abs() > TOLERANCE {
                    failures.push(format!("{at}: {a} != {e}"));
                }
            } else if a.as_f64() != e.as_f64() {
                failures.push(format!("{at}: {a} != {e}"));
            }
        }
        (Value::Array(a), Value::Array(e)) => {
            if a.len() != e.len() {
                failures.push(format!("{at}: length {} != {}", a.len(), e.len()));
                return;
            }
            for (i, (a, e)) in a.iter().zip(e).enumerate() {
                compare(a, e, &format!("{at}[{i}]"), failures);
            }
        }
        (Value::Object(a), Value::Object(e)) => {
            for (k, e) in e {
                match a.get(k) {
                    Some(a) => compare(a, e, &format!("{at}.{k}"), failures),
                    None => failures.push(format!("{at}.{k}: absent")),
                }
            }
        }
        (a, e) if a == e => {}
        (a, e) => failures.push(format!("{at}: {a} != {e}")),
    }
}

fn check(expected_file: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(ROOT);
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join(expected_file)).unwrap()).unwrap();
    let settings = settings_of(&expected);
    let qrels = root.join(expected["qrels"].as_str().unwrap());
    let groups = expected["groups"].as_str().map(|g| root.join(g));
    let runs: Vec<PathBuf> = expected["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| root.join(r["file"].as_str().unwrap()))
        .collect();
    let evaluation = evaluate(
        &settings,
        &qrels,
        groups.as_deref(),
        &clefeval::inputs::Run::each(&runs),
    )
    .unwrap();
    let actual = serde_json::to_value(&evaluation).unwrap();
    let mut failures = Vec::new();
    compare(
        &actual["measures"],
        &expected["measures"],
        "measures",
        &mut failures,
    );
    compare(
        &actual["columns"],
        &expected["columns"],
        "columns",
        &mut failures,
    );
    for (i, run) in expected["runs"].as_array().unwrap().iter().enumerate() {
        let got = &actual["runs"][i];
        assert_eq!(
            got["status"], "ok",
            "{expected_file}: {}",
            got["diagnostics"]
        );
        for key in run.as_object().unwrap().keys().filter(|k| *k != "file") {
            let at = format!("{}.{key}", run["run"].as_str().unwrap());
            compare(&got[key], &run[key], &at, &mut failures);
        }
    }
    assert!(
        failures.is_empty(),
        "{expected_file}: {} differences, first: {:#?}",
        failures.len(),
        &failures[..failures.len().min(20)]
    );
}

macro_rules! golden {
    ($($name:ident => $file:expr,)*) => {$(
        #[test]
        fn $name() {
            check($file);
        }
    )*};
}

golden! {
    prior_art_default => "expected/prior-art.default.json",
    prior_art_order_score => "expected/prior-art.order-score.json",
    prior_art_cutoff_20 => "expected/prior-art.cutoff-20.json",
    prior_art_ndcg_base_2 => "expected/prior-art.ndcg-base-2.json",
    prior_art_min_relevance_2 => "expected/prior-art.min-relevance-2.json",
    passage_default => "expected/passage.default.json",
    passage_order_score => "expected/passage.order-score.json",
    passage_cutoff_20 => "expected/passage.cutoff-20.json",
    passage_ndcg_base_2 => "expected/passage.ndcg-base-2.json",
    passage_min_relevance_2 => "expected/passage.min-relevance-2.json",
    passage_keep_headings => "expected/passage.keep-headings.json",
    passage_6col_default => "expected/passage-6col.default.json",
    hand_prior_art_default => "hand/expected/prior-art.default.json",
    hand_prior_art_order_score => "hand/expected/prior-art.order-score.json",
    hand_prior_art_ndcg_base_2 => "hand/expected/prior-art.ndcg-base-2.json",
    hand_passage_default => "hand/expected/passage.default.json",
    hand_passage_order_score => "hand/expected/passage.order-score.json",
    hand_passage_ndcg_base_2 => "hand/expected/passage.ndcg-base-2.json",
    hand_passage_keep_headings => "hand/expected/passage.keep-headings.json",
    demo_default => "demo/expected/passage.default.json",
    demo_order_score => "demo/expected/passage.order-score.json",
}
