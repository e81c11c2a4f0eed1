//! The generated flowchart workload of `benches/flowchart.rs` on disk, so
//! that `clefeval flowchart` and the solver comparisons
//! (`benches/mcs_vs_cpsat.py`, `benches/mcs_vs_rascal.py`) score exactly
//! the same pairs, and per-pair times of the engine on such a folder.
//!
//! `cargo bench --bench flowchart_workload -- write NAME COUNT MIN MAX SEED`
//! writes `COUNT` pairs with gold sizes in `MIN..=MAX` nodes (the generator
//! of `pairs(COUNT, MIN, MAX, SEED)` in the benches) to
//! `target/flowchart-workload/NAME/{gold,run}/pair-NNNN.txt`, replacing what
//! was there. The submission's nodes are renumbered 1..n in the order the
//! generator shuffled them into, so the written file keeps that node order
//! (the writer orders nodes by id) and the two files of a pair do not share
//! ids; the graphs are those of the benches (each file is read back and
//! compared before it is written).
//!
//! `write-heavy` takes the same arguments and writes submissions with heavy
//! recognizer damage (`heavy_submission`: merged and split boxes, many
//! missing and spurious edges, reversed arrows, wrong node types, garbled
//! labels): the pairs on which a proof of the optimum can take long.
//! `write-damaged NAME COUNT MIN MAX SEED PERCENT` writes that damage
//! scaled to `PERCENT` % (`damaged_submission`: as many merged and split
//! boxes and spurious edges, as likely a lost, reversed or undirected edge
//! and a wrong node type, times PERCENT / 100); at 100 it is `write-heavy`.
//! `write-heavy-reference` writes the heavy reference workload of
//! docs/flowchart-distance.md, `write-damaged heavy-reference 150 52 136
//! 21 39`, whose committed results are in `benches/reference/`.
//!
//! `write-four` writes one gold folder and four runs of it, as an organizer
//! scores a lab: `runs/copies` (renumbered copies), `runs/ocr` (labels read
//! back by OCR), `runs/mild` (as `write`), `runs/heavy` (as `write-heavy`),
//! gold sizes skewed towards small charts (`four_readings`).
//!
//! `cargo bench --bench flowchart_workload -- time DIR LEVEL SECONDS
//! [--ignore-direction]` scores every pair of `DIR/{gold,run}` at `LEVEL`
//! with that time limit, as `clefeval flowchart` does (`score_pair`), on one
//! thread, and prints one JSON line per pair: stem, wall seconds of the
//! scoring alone (files already read), |mcs|, exactness and the proven
//! upper bound of a cut result (`mcs_upper`, null when exact).

#[path = "support/flowchart_workload.rs"]
mod flowchart_workload;

use clefeval::flowchart::mcs::{Level, Settings};
use clefeval::flowchart::score::score_pair;
use clefeval::flowchart::{Flowchart, ParseOptions, canonical, parse, read_file, write};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

const USAGE: &str = "usage: cargo bench --bench flowchart_workload -- write NAME COUNT MIN MAX SEED
       cargo bench --bench flowchart_workload -- write-heavy NAME COUNT MIN MAX SEED
       cargo bench --bench flowchart_workload -- write-damaged NAME COUNT MIN MAX SEED PERCENT
       cargo bench --bench flowchart_workload -- write-heavy-reference
       cargo bench --bench flowchart_workload -- write-four NAME COUNT MIN MAX SEED
       cargo bench --bench flowchart_workload -- time DIR LEVEL SECONDS [--ignore-direction]";

/// Which submissions to write.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// `write`: one mild run.
    Mild,
    /// `write-heavy`: one heavily damaged run.
    Heavy,
    /// `write-damaged`: one run with the heavy damage scaled.
    Damaged,
    /// `write-four`: four runs of one gold.
    Four,
}

/// The workload to write, from the command line.
struct Request {
    kind: Kind,
    name: String,
    count: usize,
    min: usize,
    max: usize,
    seed: u64,
    /// The share of the heavy damage (`write-damaged`; 1 otherwise).
    share: f64,
}

/// The heavy reference workload (`write-heavy-reference`): 150 pairs of
/// 52–136 gold nodes (109–289 nodes + edges), seed 21, 39 % of the heavy
/// damage.
const HEAVY_REFERENCE: [&str; 6] = ["heavy-reference", "150", "52", "136", "21", "39"];

/// The folder to time, from the command line.
struct Timing {
    dir: PathBuf,
    level: Level,
    settings: Settings,
}

fn parse_write(args: &[String], kind: Kind) -> Result<Request, String> {
    let number = |what: &str, text: &str| {
        text.parse::<u64>()
            .map_err(|_| format!("{what} must be a non-negative integer, not {text:?}"))
    };
    let (args, share) = match (kind, args) {
        (Kind::Damaged, [rest @ .., percent]) if rest.len() == 5 => {
            let percent = number("PERCENT", percent)?;
            if percent > 100 {
                return Err(format!("PERCENT must be at most 100, not {percent}"));
            }
            (rest, percent as f64 / 100.0)
        }
        (Kind::Damaged, _) => {
            return Err(format!(
                "write-damaged: expected 6 arguments, got {}",
                args.len()
            ));
        }
        _ => (args, 1.0),
    };
    let [name, count, min, max, seed] = args else {
        return Err(format!("write: expected 5 arguments, got {}", args.len()));
    };
    let request = Request {
        kind,
        name: name.clone(),
        count: number("COUNT", count)? as usize,
        min: number("MIN", min)? as usize,
        max: number("MAX", max)? as usize,
        seed: number("SEED", seed)?,
        share,
    };
    if request.min > request.max {
        return Err(format!("MIN {} is above MAX {}", request.min, request.max));
    }
    if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
        return Err(format!("NAME {name:?} must be a plain folder name"));
    }
    Ok(request)
}

/// `flowchart` with its nodes renumbered 1..n in their current order.
fn renumbered_in_order(flowchart: &Flowchart) -> Flowchart {
    let ids: HashMap<i64, i64> = flowchart
        .nodes
        .iter()
        .zip(1..)
        .map(|(node, new)| (node.id, new))
        .collect();
    let mut out = flowchart.clone();
    for node in &mut out.nodes {
        node.id = ids[&node.id];
    }
    for edge in &mut out.edges {
        edge.from = ids[&edge.from];
        edge.to = ids[&edge.to];
    }
    out
}

/// Writes `flowchart` to `path` and checks that the text reads back
/// without diagnostics as the same graph.
fn write_checked(path: &Path, flowchart: &Flowchart) -> std::io::Result<()> {
    let text = write(flowchart);
    let back = parse(
        text.as_bytes(),
        &path.display().to_string(),
        &ParseOptions::default(),
    );
    if !back.diagnostics.is_empty() || canonical(&back.flowchart) != canonical(flowchart) {
        return Err(std::io::Error::other(format!(
            "{} does not read back as written: {:?}",
            path.display(),
            back.diagnostics
        )));
    }
    std::fs::write(path, text)
}

fn write_workload(root: &Path, request: &Request) -> std::io::Result<()> {
    let dir = root.join(&request.name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir)?;
    }
    let gold_dir = dir.join("gold");
    std::fs::create_dir_all(&gold_dir)?;
    if request.kind == Kind::Four {
        let names = ["copies", "ocr", "mild", "heavy"];
        for name in names {
            std::fs::create_dir_all(dir.join("runs").join(name))?;
        }
        let sets = flowchart_workload::four_readings(
            request.count,
            request.min,
            request.max,
            request.seed,
        );
        for (k, (gold, runs)) in sets.iter().enumerate() {
            let file = format!("pair-{k:04}.txt");
            write_checked(&gold_dir.join(&file), gold)?;
            for (name, run) in names.iter().zip(runs) {
                let path = dir.join("runs").join(name).join(&file);
                write_checked(&path, &renumbered_in_order(run))?;
            }
        }
        println!(
            "wrote {} golds and four runs to {}",
            sets.len(),
            dir.display()
        );
        return Ok(());
    }
    let run_dir = dir.join("run");
    std::fs::create_dir_all(&run_dir)?;
    let (count, min, max, seed) = (request.count, request.min, request.max, request.seed);
    let pairs = match request.kind {
        Kind::Heavy => flowchart_workload::heavy_pairs(count, min, max, seed),
        Kind::Damaged => flowchart_workload::damaged_pairs(count, min, max, seed, request.share),
        _ => flowchart_workload::pairs(count, min, max, seed),
    };
    for (k, (gold, run)) in pairs.iter().enumerate() {
        let file = format!("pair-{k:04}.txt");
        write_checked(&gold_dir.join(&file), gold)?;
        write_checked(&run_dir.join(&file), &renumbered_in_order(run))?;
    }
    println!("wrote {} pairs to {}", pairs.len(), dir.display());
    Ok(())
}

fn parse_time(args: &[String]) -> Result<Timing, String> {
    let (dir, level, seconds, ignore_direction) = match args {
        [dir, level, seconds] => (dir, level, seconds, false),
        [dir, level, seconds, flag] if flag == "--ignore-direction" => (dir, level, seconds, true),
        _ => return Err(format!("time: unexpected arguments {args:?}")),
    };
    let level = Level::ALL
        .into_iter()
        .find(|l| l.name() == level)
        .ok_or_else(|| format!("LEVEL must be basic, intermediate or complete, not {level:?}"))?;
    let limit = seconds
        .parse::<f64>()
        .ok()
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| format!("SECONDS must be a non-negative number, not {seconds:?}"))?;
    Ok(Timing {
        dir: PathBuf::from(dir),
        level,
        settings: Settings {
            ignore_direction,
            time_limit: Some(limit),
            ..Settings::default()
        },
    })
}

/// Times the scoring of every pair of `timing.dir`; a pair whose files
/// cannot be read is reported on stderr and skipped.
fn time_workload(timing: &Timing) -> std::io::Result<()> {
    let mut golds: Vec<PathBuf> = std::fs::read_dir(timing.dir.join("gold"))?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    golds.sort();
    let options = ParseOptions::default();
    // One worker, as `clefeval flowchart --threads 1`; the loop runs on it.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(std::io::Error::other)?;
    pool.install(|| time_pairs(timing, &golds, &options));
    Ok(())
}

fn time_pairs(timing: &Timing, golds: &[PathBuf], options: &ParseOptions) {
    for gold_path in golds {
        let Some(file) = gold_path.file_name() else {
            continue;
        };
        let run_path = timing.dir.join("run").join(file);
        let (gold, run) = (read_file(gold_path, options), read_file(&run_path, options));
        if gold.is_rejected() || run.is_rejected() {
            for d in gold.diagnostics.iter().chain(&run.diagnostics) {
                eprintln!("{d}");
            }
            continue;
        }
        let t0 = Instant::now();
        let levels = score_pair(
            &gold.flowchart,
            &run.flowchart,
            &[timing.level],
            &timing.settings,
        );
        let seconds = t0.elapsed().as_secs_f64();
        if let Some(score) = levels.get(timing.level) {
            let line = serde_json::json!({
                "pair": Path::new(file).with_extension("").display().to_string(),
                "seconds": seconds,
                "mcs": score.mcs,
                "exact": score.exact,
                "mcs_upper": score.mcs_upper,
            });
            println!("{line}");
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    match args.split_first() {
        Some((command, rest)) if command.starts_with("write") => {
            let preset: Vec<String> = HEAVY_REFERENCE.map(String::from).into();
            let (kind, rest) = match command.as_str() {
                "write" => (Kind::Mild, rest),
                "write-heavy" => (Kind::Heavy, rest),
                "write-damaged" => (Kind::Damaged, rest),
                "write-heavy-reference" if rest.is_empty() => (Kind::Damaged, &preset[..]),
                "write-heavy-reference" => {
                    return Err("write-heavy-reference takes no arguments".to_string());
                }
                "write-four" => (Kind::Four, rest),
                _ => return Err(format!("unknown command {command:?}")),
            };
            let request = parse_write(rest, kind)?;
            let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/flowchart-workload");
            write_workload(&root, &request)
                .map_err(|e| format!("cannot write {}: {e}", root.join(&request.name).display()))
        }
        Some((command, rest)) if command == "time" => {
            let timing = parse_time(rest)?;
            time_workload(&timing).map_err(|e| format!("cannot read {}: {e}", timing.dir.display()))
        }
        _ => Err(
            "expected `write`, `write-heavy`, `write-damaged`, `write-heavy-reference`, \
             `write-four` or `time`"
                .to_string(),
        ),
    }
}

fn main() -> ExitCode {
    // Cargo passes `--bench` to harness-less bench targets.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
