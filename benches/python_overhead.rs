//! The Rust side of the Python package's call overhead
//! (`docs/python.md`, "Speed"): one small flowchart pair of the goldens
//! (FC-0005, gold against recognizer-b) read from its two texts and scored
//! at all three levels with the default settings, as
//! `clefeval.flowchart_pair` does for a Python caller. `python_overhead.py`
//! times the Python call on the same pair; the difference of the two
//! medians is what the call from Python adds.
//! Run: `cargo bench --bench python_overhead`.

use clefeval::flowchart::mcs::{Level, Settings};
use clefeval::flowchart::score::score_pair;
use clefeval::flowchart::{ParseOptions, parse};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// The pair, relative to the repository root.
const GOLD: &str = "goldens/flowchart/gold/FC-0005.txt";
const RUN: &str = "goldens/flowchart/runs/recognizer-b/FC-0005.txt";

fn read(path: &str) -> Vec<u8> {
    std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

fn bench(c: &mut Criterion) {
    let (gold, run) = (read(GOLD), read(RUN));
    let settings = Settings::default();
    let options = ParseOptions::default();
    c.bench_function("python_overhead/rust_flowchart_pair", |b| {
        b.iter(|| {
            let g = parse(black_box(&gold), "<gold>", &options);
            let r = parse(black_box(&run), "<run>", &options);
            black_box(score_pair(
                &g.flowchart,
                &r.flowchart,
                &Level::ALL,
                &settings,
            ))
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
