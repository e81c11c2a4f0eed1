//! Document-run scoring at trec_eval's scale (criterion): a generated run
//! of 20 000 topics × 1 000 documents (20 M lines, about 760 MB, scores
//! tied in groups of four) against qrels of 1–30 relevant documents a
//! topic, about half of them retrieved (no qrels line repeats). Scored with `--order score` (the
//! order trec_eval uses), so the side-by-side script
//! `benches/retrieval_vs_trec_eval.py` can set the figures beside
//! trec_eval's, pytrec_eval's and ranx's on the same files.
//!
//! - `cargo bench --bench retrieval_trec -- write DIR [TOPICS [DOCS]]`
//!   writes `DIR/qrels.txt` and `DIR/run.txt` and exits;
//! - `cargo bench --bench retrieval_trec` scores them with criterion
//!   (the files are written first, to `target/retrieval-trec/`, when
//!   absent; `CLEFEVAL_TREC_DIR` names another folder).

use clefeval::retrieval::{Order, Settings, Task, evaluate};
use criterion::{Criterion, criterion_group};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

#[path = "support/lcg.rs"]
mod lcg;

use lcg::Lcg;

const TOPICS: usize = 20_000;
const DOCS: usize = 1_000;

/// Writes `qrels.txt` and `run.txt` into `dir`. A topic retrieves `docs`
/// distinct documents with increasing ids (so no line is a duplicate and
/// every tool reads the same ranking); scores fall by one every four
/// ranks, so ties are ordered by document id as trec_eval does.
fn write_files(dir: &Path, topics: usize, docs: usize) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut rng = Lcg(2009);
    let mut run = BufWriter::with_capacity(1 << 20, File::create(dir.join("run.txt"))?);
    let mut qrels = BufWriter::new(File::create(dir.join("qrels.txt"))?);
    let mut ids = Vec::with_capacity(docs);
    for t in 0..topics {
        let topic = format!("PAC-{:05}", t + 1);
        ids.clear();
        let mut id = 1_000_000 + rng.below(4_000_000);
        for _ in 0..docs {
            id += 1 + rng.below(5);
            ids.push(id);
        }
        for (i, id) in ids.iter().enumerate() {
            let score = (docs - i / 4 * 4) as f64 / 10.0;
            writeln!(run, "{topic} Q0 EP-{id}-A1 {} {score:.1} bench", i + 1)?;
        }
        let relevant = 1 + rng.below(30) as usize;
        for k in 0..relevant {
            let grade = 1 + rng.below(3);
            if k % 2 == 0 {
                // One retrieved relevant document per stratum of the
                // ranking, so no qrels line repeats.
                let stratum = (docs / 15).max(1);
                let at = ids[(k / 2 * stratum + rng.below(stratum as u64) as usize).min(docs - 1)];
                writeln!(qrels, "{topic} 0 EP-{at}-A1 {grade}")?;
            } else {
                // Never retrieved: ids of the run stay below 9 000 000.
                writeln!(qrels, "{topic} 0 EP-{}-A1 {grade}", 9_000_000 + k)?;
            }
        }
    }
    run.flush()?;
    qrels.flush()
}

fn data_dir() -> PathBuf {
    std::env::var_os("CLEFEVAL_TREC_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target/retrieval-trec"))
}

fn scoring(c: &mut Criterion) {
    let dir = data_dir();
    let (qrels, run) = (dir.join("qrels.txt"), dir.join("run.txt"));
    if !run.is_file() || !qrels.is_file() {
        write_files(&dir, TOPICS, DOCS).expect("write the bench files");
    }
    let mut settings = Settings::new(Task::PriorArt);
    settings.order = Order::Score;
    let mut group = c.benchmark_group("retrieval_trec");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(60));
    group.bench_function("prior-art --order score, 20000 topics x 1000 docs", |b| {
        b.iter(|| {
            let e = evaluate(&settings, &qrels, None, &[clefeval::inputs::Run::at(&run)]).unwrap();
            assert!(e.runs[0].scores.is_some());
            e
        })
    });
    group.finish();
}

criterion_group!(benches, scoring);

fn main() -> ExitCode {
    // Cargo passes `--bench` to harness-less bench targets.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if args.first().map(String::as_str) == Some("write") {
        let number = |i: usize, default: usize| {
            args.get(i).map_or(Ok(default), |s| {
                s.parse::<usize>().map_err(|e| format!("{s}: {e}"))
            })
        };
        let (Some(dir), Ok(topics), Ok(docs)) = (args.get(1), number(2, TOPICS), number(3, DOCS))
        else {
            eprintln!("usage: retrieval_trec write DIR [TOPICS [DOCS]]");
            return ExitCode::from(2);
        };
        return match write_files(Path::new(dir), topics, docs) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("cannot write {dir}: {e}");
                ExitCode::from(2)
            }
        };
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
    ExitCode::SUCCESS
}
