//! Throughput of InChI conversion: the library in-process (one thread, the
//! reference time per structure) against the pool of `clefeval inchi-worker`
//! processes (1 and 2 workers). Input: the 300 molecules of
//! goldens/recognition/rdkit/agreement.sdf cycled to 2,000 MOL texts.
//! Target: pool with 2 workers within 1.3x of in-process time / 2.
//!
//! Run: cargo bench --bench recognition

use clefeval::recognition::{Pool, WorkerCommand, inchi, molfile};
use criterion::{Criterion, criterion_group, criterion_main};
use std::path::Path;
use std::time::Duration;

const STRUCTURES: usize = 2000;

fn texts() -> Vec<String> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("goldens/recognition/rdkit/agreement.sdf");
    let sdf = std::fs::read_to_string(path).expect("agreement.sdf");
    let records: Vec<String> = sdf
        .split("$$$$\n")
        .filter(|r| !r.trim().is_empty())
        .map(|r| {
            molfile::from_bytes(r.as_bytes())
                .expect("checked record")
                .text
        })
        .collect();
    records.iter().cycle().take(STRUCTURES).cloned().collect()
}

fn conversion(c: &mut Criterion) {
    let texts = texts();
    let mut group = c.benchmark_group("inchi_2000");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("in_process", |b| {
        b.iter(|| {
            texts
                .iter()
                .map(|t| inchi::convert(t))
                .filter(Result::is_ok)
                .count()
        })
    });
    for jobs in [1, 2] {
        let pool = Pool {
            command: WorkerCommand::clefeval(env!("CARGO_BIN_EXE_clefeval")),
            jobs,
            timeout: Duration::from_secs(10),
        };
        group.bench_function(format!("pool_{jobs}_workers"), |b| {
            b.iter(|| {
                pool.convert_all(&texts, &|| {})
                    .expect("workers start")
                    .len()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, conversion);
criterion_main!(benches);
