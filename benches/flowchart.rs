//! Flowchart distance benches on generated, realistic workloads.
//!
//! Gold flowcharts of 10–150 nodes: mostly rectangles, some diamonds,
//! ovals and parallelograms, a main flow with branches and loops back,
//! reference labels as `no-box` nodes on wiggly undirected edges, 1–2 edges
//! per node. Submissions are recognizer-like edits of the gold: missed and
//! spurious edges, reversed arrows, undirected read for directed, wrong
//! node types, a merged box, OCR-noisy labels, nodes in another order.
//!
//! With `CLEFEVAL_BENCH_SWEEP=1` (or `=pairs`, `=workload` for one part),
//! a sweep first prints per-pair times (max
//! and median) and the search-node counts with each search ingredient
//! switched off (`CLEFEVAL_BENCH_VERBOSE=1` adds a line per pair).
//! Run: `cargo bench --bench flowchart` (`-- split/` for one long pair on
//! 1 and 2 threads).

use clefeval::flowchart::Flowchart;
use clefeval::flowchart::mcs::{self, Level, Settings, Tuning};
use clefeval::flowchart::score;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rayon::prelude::*;
use std::hint::black_box;
use std::time::{Duration, Instant};

// The heavy-damage generator is used by `flowchart_workload.rs` only.
#[allow(dead_code)]
#[path = "support/flowchart_workload.rs"]
mod flowchart_workload;
use flowchart_workload::{pairs, topics};

/// `CLEFEVAL_BENCH_SWEEP=1` enables every timed pass, `=pairs` or
/// `=workload` only one.
fn sweep_enabled(part: &str) -> bool {
    std::env::var("CLEFEVAL_BENCH_SWEEP").is_ok_and(|v| v == "1" || v == part)
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Per-pair times over 300 pairs of 10–60 nodes (all three levels each), the
/// slowest 150-node pairs at the intermediate level, and search-node counts
/// per ingredient.
fn sweep() {
    let settings = limited();
    let small = pairs(300, 10, 60, 1);
    let mut times = Vec::new();
    let verbose = std::env::var_os("CLEFEVAL_BENCH_VERBOSE").is_some();
    let settings = if verbose {
        Settings {
            time_limit: Some(Duration::from_secs(1)),
            ..settings
        }
    } else {
        settings
    };
    let mut cut = 0;
    for (i, (g, s)) in small.iter().enumerate() {
        // As `score::score_pair` does: the intermediate maximum once, shared.
        let t0 = Instant::now();
        let typed = mcs::typed_maximum(g, s, &settings);
        for level in Level::ALL {
            let t1 = Instant::now();
            let r = black_box(mcs::maximum_common_subgraph_with(
                g, s, level, &settings, &typed,
            ));
            cut += usize::from(!r.exact);
            if verbose {
                println!(
                    "pair {i} ({} vs {} nodes) {}: {:?} size {} root bound {} incumbent {} nodes {} mappings {:?} exact {}",
                    g.nodes.len(),
                    s.nodes.len(),
                    level.name(),
                    t1.elapsed(),
                    r.size,
                    r.stats.root_bound,
                    r.stats.incumbent,
                    r.stats.nodes,
                    r.labels.map(|l| l.mappings),
                    r.exact
                );
            }
        }
        times.push(t0.elapsed());
    }
    let max = *times.iter().max().unwrap_or(&Duration::ZERO);
    println!(
        "sweep 300 pairs of 10-60 nodes, 3 levels each: median {:?}, max {:?}, {cut} of 900 cut at 1 s",
        median(&mut times),
        max
    );
    let big = pairs(20, 150, 150, 2);
    let mut times = Vec::new();
    for (g, s) in &big {
        let t0 = Instant::now();
        black_box(mcs::maximum_common_subgraph(
            g,
            s,
            Level::Intermediate,
            &settings,
        ));
        times.push(t0.elapsed());
    }
    let max = *times.iter().max().unwrap_or(&Duration::ZERO);
    println!(
        "sweep 20 pairs of 150 nodes, intermediate (1 s limit): median {:?}, max {:?}",
        median(&mut times),
        max
    );
    let full = Tuning::default();
    let variants = [
        ("all ingredients", full),
        (
            "no free-to-mapped term",
            Tuning {
                free_to_mapped: false,
                ..full
            },
        ),
        (
            "no free-to-free histograms",
            Tuning {
                free_to_free: false,
                ..full
            },
        ),
        (
            "no degree-pairing bound",
            Tuning {
                degree_bound: false,
                ..full
            },
        ),
        (
            "no edge-split relaxation (the assignment bound instead)",
            Tuning {
                lagrangian: false,
                ..full
            },
        ),
        (
            "no edge-split relaxation nor assignment bound",
            Tuning {
                lagrangian: false,
                assignment_bound: false,
                ..full
            },
        ),
        (
            "no losses of the restricted inner assignments",
            Tuning {
                local_loss: false,
                ..full
            },
        ),
        (
            "no incumbent (greedy + local search)",
            Tuning {
                incumbent: false,
                ..full
            },
        ),
        (
            "no value ordering",
            Tuning {
                value_ordering: false,
                ..full
            },
        ),
        (
            "no twin pruning",
            Tuning {
                twins: false,
                ..full
            },
        ),
    ];
    let sample = pairs(60, 10, 40, 3);
    let limited = Settings {
        time_limit: Some(Duration::from_secs(2)),
        ..Settings::default()
    };
    for (name, tuning) in variants {
        let t0 = Instant::now();
        let (mut nodes, mut cut) = (0u64, 0);
        for (g, s) in &sample {
            for level in [Level::Basic, Level::Intermediate] {
                let r = mcs::maximum_common_subgraph_tuned(g, s, level, &limited, tuning);
                nodes += r.stats.nodes;
                cut += usize::from(!r.exact);
            }
        }
        println!(
            "search nodes, 60 pairs of 10-40 nodes, basic+intermediate, {name}: {nodes} ({cut} cut at 2 s, {:?})",
            t0.elapsed()
        );
    }
    // The label searches (least cost, enumeration) are where the losses of
    // `mcs/local.rs` prune: the complete level with and without them.
    let no_losses = Tuning {
        local_loss: false,
        ..full
    };
    for (name, tuning) in [("all ingredients", full), ("no losses", no_losses)] {
        let t0 = Instant::now();
        let (mut nodes, mut cut) = (0u64, 0);
        for (g, s) in &sample {
            let r = mcs::maximum_common_subgraph_tuned(g, s, Level::Complete, &limited, tuning);
            nodes += r.stats.nodes;
            cut += usize::from(!r.exact || r.labels.is_some_and(|l| l.truncated));
        }
        println!(
            "search nodes, 60 pairs of 10-40 nodes, complete, {name}: {nodes} ({cut} cut at 2 s, {:?})",
            t0.elapsed()
        );
    }
}

/// Default settings with a 1 s limit per pair and level: some basic-level
/// pairs are not solved exactly within it (see docs/flowchart-distance.md).
fn limited() -> Settings {
    Settings {
        time_limit: Some(Duration::from_secs(1)),
        ..Settings::default()
    }
}

fn bench_pairs(c: &mut Criterion) {
    if sweep_enabled("pairs") {
        sweep();
    }
    let settings = limited();
    let mut group = c.benchmark_group("pair");
    group.sample_size(10);
    for n in [10, 30, 60, 150] {
        let set = pairs(8, n, n, 10 + n as u64);
        for level in Level::ALL {
            if n == 150 && level == Level::Complete {
                continue;
            }
            group.bench_with_input(BenchmarkId::new(level.name(), n), &set, |b, set| {
                b.iter(|| {
                    for (g, s) in set {
                        black_box(mcs::maximum_common_subgraph(g, s, level, &settings));
                    }
                })
            });
        }
    }
    group.finish();
}

/// 150 topics of `min..=max` nodes, 4 runs each.
type Workload = (Vec<Flowchart>, Vec<Vec<Flowchart>>);

fn workload(min: usize, max: usize) -> Workload {
    topics(min, max, 4, 7)
}

/// Scores the whole workload at all three levels on `pool`; returns how
/// many (pair, level) results the time limit cut.
fn score_workload(
    pool: &rayon::ThreadPool,
    (golds, runs): &Workload,
    settings: &Settings,
) -> usize {
    let jobs: Vec<(usize, usize)> = (0..runs.len())
        .flat_map(|r| (0..golds.len()).map(move |t| (r, t)))
        .collect();
    pool.install(|| {
        jobs.par_iter()
            .map(|&(r, t)| {
                let levels = score::score_pair(&golds[t], &runs[r][t], &Level::ALL, settings);
                Level::ALL
                    .iter()
                    .filter(|&&l| levels.get(l).is_some_and(|s| !s.exact))
                    .count()
            })
            .sum()
    })
}

/// 150 topics × 4 runs × 3 levels on 1 and 2 threads: topics of 10–40
/// nodes in criterion; with `CLEFEVAL_BENCH_SWEEP`, one timed pass over
/// topics of 10–150 nodes (200 ms limit per pair and level) first.
fn bench_workload(c: &mut Criterion) {
    let settings = Settings {
        time_limit: Some(Duration::from_millis(200)),
        ..Settings::default()
    };
    let pools: Vec<rayon::ThreadPool> = [1, 2]
        .iter()
        .map(|&n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
        })
        .collect();
    if sweep_enabled("workload") {
        let big = workload(10, 150);
        for (threads, pool) in [1, 2].iter().zip(&pools) {
            let t0 = Instant::now();
            let cut = score_workload(pool, &big, &settings);
            println!(
                "workload 150 topics of 10-150 nodes x 4 runs x 3 levels, {threads} thread(s): {:?}, {cut} of 1800 cut at 200 ms",
                t0.elapsed()
            );
        }
    }
    let small = workload(10, 40);
    let mut group = c.benchmark_group("workload");
    group.sample_size(10);
    for (threads, pool) in [1, 2].iter().zip(&pools) {
        group.bench_function(BenchmarkId::new("150x4x3-10to40", threads), |b| {
            b.iter(|| score_workload(pool, &small, &settings))
        });
    }
    group.finish();
}

/// One workload pair whose complete level enumerates 43 968 maximum
/// mappings (topic 1, run 4 of the 10–150-node workload), no time limit,
/// on pools of 1 and 2 threads: one pair's label searches split over the
/// free threads (`search/split.rs`; the results are the same).
fn bench_split(c: &mut Criterion) {
    let (golds, runs) = workload(10, 150);
    let (g, s) = (&golds[1], &runs[3][1]);
    // No work budget: under one the label searches are not split.
    let settings = Settings {
        budget: None,
        ..Settings::default()
    };
    let mut group = c.benchmark_group("split");
    group.sample_size(10);
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        group.bench_function(BenchmarkId::new("complete-43968-mappings", threads), |b| {
            b.iter(|| {
                pool.install(|| {
                    black_box(mcs::maximum_common_subgraph(
                        g,
                        s,
                        Level::Complete,
                        &settings,
                    ))
                })
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_pairs, bench_workload, bench_split);
criterion_main!(benches);
