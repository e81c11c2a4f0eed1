//! `clefeval merge` speed (criterion): 100 parts of one flowchart
//! evaluation joined into the whole, from their JSON texts to the merged
//! text (what the command does between reading the files and writing the
//! result).
//!
//! The evaluation: 2 runs of 2 000 topics each, every topic a copy of one
//! of the flowchart goldens' scored topics (all three levels, with the
//! complete level's mapping) under its own name, 9.5 MB of JSON in all,
//! split into 100 parts by the `--shard` rule (gold sizes).

use clefeval::inputs::Shard;
use clefeval::report::merge::Part;
use clefeval::tasks::merge;
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use std::hint::black_box;

const TOPICS: usize = 2_000;
const PARTS: usize = 100;

/// The JSON texts of the `PARTS` parts.
fn parts() -> Vec<String> {
    let golden = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/goldens/flowchart/expected/two-runs.json"
    );
    let whole: Value = serde_json::from_str(&std::fs::read_to_string(golden).expect("golden"))
        .expect("golden JSON");
    let topics_of = |run: &Value| -> Vec<Value> {
        let golden = run["topics"].as_array().expect("topics");
        (0..TOPICS)
            .map(|i| {
                let mut t = golden[i % golden.len()].clone();
                t["topic"] = json!(format!("T-{i:05}"));
                t
            })
            .collect()
    };
    let runs: Vec<Vec<Value>> = whole["runs"]
        .as_array()
        .expect("runs")
        .iter()
        .map(topics_of)
        .collect();
    let costs: Vec<(String, u64)> = (runs[0].iter())
        .map(|t| {
            (
                t["topic"].as_str().unwrap_or("").to_string(),
                t["gold_size"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    (1..=PARTS)
        .map(|index| {
            let shard = Shard {
                index,
                count: PARTS,
            };
            let mine = shard.topics(costs.iter().map(|(t, c)| (t.as_str(), *c)));
            let mut part = whole.clone();
            part["shard"] = json!({"index": index, "count": PARTS});
            for (run, topics) in part["runs"]
                .as_array_mut()
                .expect("runs")
                .iter_mut()
                .zip(&runs)
            {
                let kept: Vec<Value> = (topics.iter())
                    .filter(|t| mine.contains(t["topic"].as_str().unwrap_or("")))
                    .cloned()
                    .collect();
                run["topics"] = Value::Array(kept);
            }
            serde_json::to_string_pretty(&part).expect("part JSON")
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let texts = parts();
    let names: Vec<String> = (1..=PARTS).map(|k| format!("part-{k}.json")).collect();
    let mut group = c.benchmark_group("merge");
    group.sample_size(20);
    group.bench_function("100 parts, 2 runs x 2000 flowchart topics", |b| {
        b.iter(|| {
            let docs: Vec<Value> = (texts.iter())
                .map(|t| serde_json::from_str(t).expect("part"))
                .collect();
            let parts: Vec<Part> = (names.iter().zip(&docs))
                .map(|(file, doc)| Part { file, doc })
                .collect();
            black_box(merge(&parts).expect("merged"))
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
