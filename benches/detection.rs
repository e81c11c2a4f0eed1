//! COCO average precision in-process, one thread: reading the two files,
//! and the evaluation (matching, accumulation, the twelve numbers), on the
//! sets benches/detection_sets.py writes (5,000 images × 100 detections,
//! 1 and 80 categories). Without them the bench says so and measures
//! nothing.
//!
//! Run: python3 benches/detection_sets.py && cargo bench --bench detection

use clefeval::coco;
use clefeval::detection::params::Params;
use clefeval::detection::score;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;

fn sets(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-detection");
    let mut group = c.benchmark_group("coco_5000x100");
    group.sample_size(10);
    for name in ["one", "eighty"] {
        let dir = root.join(name);
        let (Ok(gold_bytes), Ok(run_bytes)) = (
            std::fs::read(dir.join("gold.json")),
            std::fs::read(dir.join("run.json")),
        ) else {
            eprintln!(
                "{}: no set; run python3 benches/detection_sets.py",
                dir.display()
            );
            continue;
        };
        group.bench_function(format!("{name}/read"), |b| {
            b.iter(|| {
                let gold = coco::read_gold(&gold_bytes).unwrap();
                let run = coco::read_detections(&run_bytes).unwrap();
                black_box((gold.annotations.len(), run.len()))
            })
        });
        let gold = coco::read_gold(&gold_bytes).unwrap();
        let run = coco::read_detections(&run_bytes).unwrap();
        let params = Params::default();
        let prepared = score::Prepared::new(&gold, &run, &params).unwrap();
        let stats = score::summarize(
            &score::accumulate(&score::evaluate(&prepared, &params), &params),
            &params,
        );
        eprintln!("{name}: {stats:?}");
        group.bench_function(format!("{name}/evaluate"), |b| {
            b.iter(|| {
                let prepared = score::Prepared::new(&gold, &run, &params).unwrap();
                let evaluated = score::evaluate(&prepared, &params);
                let acc = score::accumulate(&evaluated, &params);
                black_box(score::summarize(&acc, &params))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, sets);
criterion_main!(benches);
