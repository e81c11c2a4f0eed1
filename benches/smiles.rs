//! SMILES to Standard InChI in-process, one thread: clefeval's reader alone
//! (parse, valence, kekulization, stereo: the connection table the InChI
//! library takes), reader plus library, and the library alone on the
//! connection tables read beforehand (the floor of any SMILES-to-InChI
//! scorer that uses it). Input: the 631 SMILES of
//! goldens/recognition/smiles/rdkit_cases.tsv that RDKit gives an InChI
//! for, cycled to 10,000. The same SMILES through RDKit:
//! benches/smiles_vs_rdkit.py.
//!
//! Run: cargo bench --bench smiles

use clefeval::recognition::{inchi, smiles};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;

const STRUCTURES: usize = 10_000;

fn cases() -> Vec<String> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("goldens/recognition/smiles/rdkit_cases.tsv");
    let text = std::fs::read_to_string(path).expect("rdkit_cases.tsv");
    let good: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let mut f = l.split('\t');
            let (s, status) = (f.next()?, f.next()?);
            (status == "inchi").then(|| s.to_string())
        })
        .collect();
    good.iter().cycle().take(STRUCTURES).cloned().collect()
}

fn conversion(c: &mut Criterion) {
    let cases = cases();
    let mut group = c.benchmark_group("smiles_10000");
    group.sample_size(10);
    group.bench_function("read", |b| {
        b.iter(|| {
            for s in &cases {
                black_box(smiles::read(s).map(|m| m.to_inchi_input()).is_ok());
            }
        })
    });
    let tables: Vec<_> = (cases.iter())
        .filter_map(|s| smiles::read(s).ok())
        .map(|m| m.to_inchi_input())
        .collect();
    assert_eq!(tables.len(), cases.len());
    group.bench_function("inchi_only", |b| {
        b.iter(|| {
            for t in &tables {
                black_box(inchi::from_molecule(t).is_ok());
            }
        })
    });
    group.bench_function("read_and_inchi", |b| {
        b.iter(|| {
            for s in &cases {
                black_box(smiles::convert(s).is_ok());
            }
        })
    });
    group.finish();
}

criterion_group!(benches, conversion);
criterion_main!(benches);
