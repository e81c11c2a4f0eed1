//! The measures beside the distance, checked against what computes them
//! independently: the triplet scores of every bundled topic against the
//! Python reference of goldens/flowchart/triplets (its expected.jsonl),
//! and the node and edge precision, recall and F1 against their closed
//! form — without `--induced` every maximum common subgraph maps, in each
//! class of compatible nodes, every node of the smaller side, so matched
//! nodes = Σ min(n_gold, n_run) over the classes and matched edges =
//! |mcs| − matched nodes.

use clefeval::flowchart::{Flowchart, ParseOptions, read_file};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root(rest: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rest)
}

/// The JSON of `clefeval flowchart` on the bundled gold and both runs.
fn scored() -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["flowchart", "--gold", "goldens/flowchart/gold"])
        .args(["--run", "goldens/flowchart/runs/recognizer-a"])
        .args(["--run", "goldens/flowchart/runs/recognizer-b"])
        .args(["--format", "json", "--quiet"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn triplet_scores_equal_the_python_reference() {
    let result = scored();
    let reference =
        std::fs::read_to_string(root("goldens/flowchart/triplets/expected.jsonl")).unwrap();
    let mut topics = 0;
    for line in reference.lines() {
        let want: Value = serde_json::from_str(line).unwrap();
        let run = (result["runs"].as_array().unwrap().iter())
            .find(|r| r["run"] == want["run"])
            .unwrap();
        if let Some(topic) = want["topic"].as_str() {
            let got = (run["topics"].as_array().unwrap().iter())
                .find(|t| t["topic"] == topic)
                .unwrap();
            let t = &got["triplets"];
            assert_eq!(got["status"], want["status"], "{topic}");
            for (ours, theirs) in [
                ("gold", "gold_triplets"),
                ("run", "run_triplets"),
                ("matched", "matched"),
                ("precision", "precision"),
                ("recall", "recall"),
                ("f1", "f1"),
            ] {
                assert_eq!(t[ours].as_f64(), want[theirs].as_f64(), "{topic} {ours}");
            }
            topics += 1;
        } else {
            let mean = &run["summary"]["mean_triplets"];
            for field in ["precision", "recall", "f1"] {
                let theirs = want[format!("mean_{field}")].as_f64().unwrap();
                assert_eq!(
                    mean[field].as_f64(),
                    Some(theirs),
                    "{} {field}",
                    want["run"]
                );
            }
        }
    }
    assert_eq!(topics, 12);
}

/// The node types of a flowchart, counted.
fn by_type(f: &Flowchart) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for n in &f.nodes {
        *counts.entry(n.node_type.keyword().to_string()).or_default() += 1;
    }
    counts
}

fn prf(matched: usize, run: usize, gold: usize) -> (f64, f64, f64) {
    let ratio = |n: usize, d: usize| if d == 0 { 0.0 } else { n as f64 / d as f64 };
    let (p, r) = (ratio(matched, run), ratio(matched, gold));
    let f = if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    };
    (p, r, f)
}

#[test]
fn node_and_edge_scores_follow_from_the_classes_and_mcs() {
    let result = scored();
    let read = |p: PathBuf| read_file(&p, &ParseOptions::default()).flowchart;
    let mut checked = 0;
    for run in result["runs"].as_array().unwrap() {
        let name = run["run"].as_str().unwrap();
        for topic in run["topics"].as_array().unwrap() {
            let stem = topic["topic"].as_str().unwrap();
            let gold = read(root("goldens/flowchart/gold").join(format!("{stem}.txt")));
            let levels = &topic["levels"];
            if topic["status"] != "ok" {
                for level in ["basic", "intermediate", "complete"] {
                    assert_eq!(levels[level]["nodes"]["f1"], 0.0);
                    assert_eq!(levels[level]["edges"]["matched"], 0);
                }
                continue;
            }
            let sub = read(
                root("goldens/flowchart/runs")
                    .join(name)
                    .join(format!("{stem}.txt")),
            );
            let (g, s) = (by_type(&gold), by_type(&sub));
            let typed: usize = (g.iter())
                .map(|(t, n)| (*n).min(s.get(t).copied().unwrap_or(0)))
                .sum();
            let untyped = gold.nodes.len().min(sub.nodes.len());
            for (level, nodes) in [
                ("basic", untyped),
                ("intermediate", typed),
                ("complete", typed),
            ] {
                let l = &levels[level];
                let mcs = l["mcs"].as_u64().unwrap() as usize;
                let edges = mcs - nodes;
                assert_eq!(l["nodes"]["matched"], nodes, "{name} {stem} {level}");
                assert_eq!(l["edges"]["matched"], edges, "{name} {stem} {level}");
                let (p, r, f) = prf(nodes, sub.nodes.len(), gold.nodes.len());
                assert_eq!(
                    (
                        l["nodes"]["precision"].as_f64(),
                        l["nodes"]["recall"].as_f64(),
                        l["nodes"]["f1"].as_f64()
                    ),
                    (Some(p), Some(r), Some(f))
                );
                let (p, r, f) = prf(edges, sub.edges.len(), gold.edges.len());
                assert_eq!(
                    (
                        l["edges"]["precision"].as_f64(),
                        l["edges"]["recall"].as_f64(),
                        l["edges"]["f1"].as_f64()
                    ),
                    (Some(p), Some(r), Some(f))
                );
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 24);
}
