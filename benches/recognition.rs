//! Throughput of InChI conversion: the library in-process (one thread, the
//! reference time per structure) against the pool of `clefeval inchi-worker`
//! processes (1 and 2 workers). Input: the 300 molecules of
//! goldens/recognition/rdkit/agreement.sdf cycled to 2,000 MOL texts.
//! Target: pool with 2 workers within 1.3x of in-process time / 2.
//!
//! Wall-clock figures need otherwise idle cores, so a second group counts
//! CPU time instead (user + system of this process and of its reaped
//! children, the workers; Linux `/proc/self/stat`, 10 ms ticks): the pool's
//! total CPU against the library's is the worker overhead, whatever else
//! runs on the machine.
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

/// CPU time used so far by this process and its reaped children.
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the parenthesized command name; utime is field 14.
    let after = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<u64> = after
        .split_whitespace()
        .skip(11)
        .take(4)
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    Duration::from_millis(fields.iter().sum::<u64>() * 10)
}

fn conversion_cpu(c: &mut Criterion) {
    let texts = texts();
    let mut group = c.benchmark_group("inchi_2000_cpu");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("in_process", |b| {
        b.iter_custom(|iterations| {
            let start = cpu_time();
            for _ in 0..iterations {
                texts.iter().for_each(|t| drop(inchi::convert(t)));
            }
            cpu_time() - start
        })
    });
    let pool = Pool {
        command: WorkerCommand::clefeval(env!("CARGO_BIN_EXE_clefeval")),
        jobs: 2,
        timeout: Duration::from_secs(10),
    };
    group.bench_function("pool_2_workers", |b| {
        b.iter_custom(|iterations| {
            let start = cpu_time();
            for _ in 0..iterations {
                drop(pool.convert_all(&texts, &|| {}).expect("workers start"));
            }
            cpu_time() - start
        })
    });
    group.finish();
}

criterion_group!(benches, conversion, conversion_cpu);
criterion_main!(benches);
