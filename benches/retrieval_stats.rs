//! Between-runs statistics speed (criterion): every pair of 20 runs
//! (190 pairs) over 100 topics, each with a randomization test of 10 000
//! permutations and a paired t-test, Holm's correction over the pairs.
//!
//! `cargo bench --bench retrieval_stats`

use clefeval::retrieval::Evaluation;
use clefeval::retrieval::report::{TopicRow, TopicStatus};
use clefeval::retrieval::significance::{SplitMix64, compare_runs};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

#[path = "../tests/support/retrieval_runs.rs"]
mod retrieval_runs;
use retrieval_runs::{scored_run, summary};

const RUNS: usize = 20;
const TOPICS: usize = 100;

/// 20 runs of 100 topics, one measure (`MAP@100`): a run's score of a
/// topic is the topic's difficulty plus the run's skill plus noise, in
/// [0, 1], so some pairs differ clearly and others not at all.
fn evaluation() -> Evaluation {
    let mut rng = SplitMix64(2009);
    let mut unit = move || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let difficulty: Vec<f64> = (0..TOPICS).map(|_| unit()).collect();
    let runs = (0..RUNS)
        .map(|r| {
            let skill = (r as f64 - RUNS as f64 / 2.0) * 0.01;
            let topics: Vec<TopicRow> = difficulty
                .iter()
                .enumerate()
                .map(|(t, d)| TopicRow {
                    topic: format!("T{t}"),
                    status: TopicStatus::Ok,
                    num_ret: 100,
                    num_rel: 5,
                    num_rel_ret: 3,
                    values: vec![(d + skill + 0.2 * (unit() - 0.5)).clamp(0.0, 1.0)],
                })
                .collect();
            let mean = topics.iter().map(|t| t.values[0]).sum::<f64>() / TOPICS as f64;
            scored_run(
                &format!("run{r}"),
                topics,
                summary(TOPICS, vec![Some(mean)]),
                Vec::new(),
            )
        })
        .collect();
    retrieval_runs::evaluation(vec!["MAP@100".into()], runs)
}

fn compare(c: &mut Criterion) {
    let ev = evaluation();
    let mut group = c.benchmark_group("compare");
    group.sample_size(20);
    group.bench_function("20 runs x 100 topics, 10 000 permutations", |b| {
        b.iter(|| compare_runs(black_box(&ev), "MAP@100", 10_000, 0).unwrap())
    });
    group.finish();
}

criterion_group!(benches, compare);
criterion_main!(benches);
