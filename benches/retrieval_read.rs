//! Reading and scoring speed of the retrieval tasks on generated runs:
//! 1 000 topics × 1 000 lines, once as a document run and once as a
//! passage run (100 documents × 10 passages a topic), each scored five
//! times; prints the best time and lines per second.
//!
//! `cargo bench --bench retrieval_read [-- FOLDER]` (the files are
//! written to FOLDER and kept, by default to a folder in the system's
//! temporary one that is removed at the end).

use clefeval::retrieval::{Settings, Task, evaluate};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

const TOPICS: usize = 1000;
const LINES: usize = 1000;

#[path = "support/lcg.rs"]
mod lcg;

use lcg::Lcg;

fn write_files(dir: &Path) -> [(Task, PathBuf, PathBuf); 2] {
    let mut rng = Lcg(2009);
    let (mut run, mut qrels) = (String::new(), String::new());
    for t in 0..TOPICS {
        for i in 0..LINES {
            let doc = 1_000_000 + rng.below(1_000_000);
            let score = 1000.0 - i as f64 * 0.5;
            writeln!(run, "PAC-{t} Q0 EP-{doc}-A1 {} {score:.3} run", i + 1).unwrap();
            if i % 97 == 3 {
                writeln!(qrels, "PAC-{t} 0 EP-{doc}-A1 {}", 1 + rng.below(3)).unwrap();
            }
        }
    }
    let doc = (Task::PriorArt, dir.join("doc-qrels"), dir.join("doc-run"));
    std::fs::write(&doc.1, &qrels).unwrap();
    std::fs::write(&doc.2, &run).unwrap();
    let (mut run, mut qrels) = (String::new(), String::new());
    for t in 0..TOPICS {
        let mut rank = 1;
        for d in 0..LINES / 10 {
            let doc = 1_000_000 + rng.below(1_000_000);
            for _ in 0..10 {
                let p = 1 + rng.below(80);
                let score = 2000.0 - rank as f64 * 0.1;
                writeln!(
                    run,
                    "tPSG-{t} Q0 EP-{doc}-A1 /patent-document/description/p[{p}] {rank} {score:.3}"
                )
                .unwrap();
                if d % 17 == 2 && p.is_multiple_of(3) {
                    writeln!(
                        qrels,
                        "tPSG-{t} 0 EP-{doc}-A1 /patent-document/description[1]/p[{p}] 1"
                    )
                    .unwrap();
                }
                rank += 1;
            }
        }
    }
    let passage = (
        Task::Passage,
        dir.join("passage-qrels"),
        dir.join("passage-run"),
    );
    std::fs::write(&passage.1, &qrels).unwrap();
    std::fs::write(&passage.2, &run).unwrap();
    [doc, passage]
}

fn main() {
    // Cargo passes `--bench` to harness-less bench targets.
    let tmp;
    let dir = match std::env::args().skip(1).find(|a| a != "--bench") {
        Some(folder) => PathBuf::from(folder),
        None => {
            tmp = tempfile::Builder::new()
                .prefix("clefeval-retrieval-speed-")
                .tempdir()
                .unwrap();
            tmp.path().to_path_buf()
        }
    };
    std::fs::create_dir_all(&dir).unwrap();
    for (task, qrels, run) in write_files(&dir) {
        let settings = Settings::new(task);
        let mut best = f64::INFINITY;
        for _ in 0..5 {
            let start = Instant::now();
            let e = evaluate(&settings, &qrels, None, &[clefeval::inputs::Run::at(&run)]).unwrap();
            best = best.min(start.elapsed().as_secs_f64());
            assert!(e.runs[0].scores.is_some());
        }
        let lines = (TOPICS * LINES) as f64;
        let bytes = std::fs::metadata(&run).unwrap().len() as f64;
        println!(
            "{task:?}: {} lines, {:.0} MB: best {:.3} s, {:.2} M lines/s, {:.0} MB/s",
            TOPICS * LINES,
            bytes / 1e6,
            best,
            lines / best / 1e6,
            bytes / best / 1e6
        );
    }
}
