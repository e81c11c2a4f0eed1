//! Resource bounds: the real binary on large generated inputs,
//! its peak resident memory read from the kernel when it ends
//! (`wait4`'s `ru_maxrss`, which also covers the InChI worker processes it
//! waited for), asserted against a bound:
//! - segmentation holds the boxes, so its memory is a fixed multiple of
//!   its input;
//! - flowchart, validate and recognition read a folder file by file, so
//!   their memory stays far below the folder's size;
//! - the text-retrieval commands stream a run topic by topic, so a run
//!   grouped by topic costs one topic's lines whatever its size.
//!
//! The bounds are values, not timings: each input takes a second or two.
//!
//! A child's `ru_maxrss` also counts the memory of this test process at the
//! moment it was spawned (Linux records the old address space's peak,
//! `VmHWM`, at exec), so inputs are written as streams, never held here, and each
//! measurement first checks that this process stays below [`BASE`]: the
//! bounds are then bounds on the child itself.

use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use tempfile::TempDir;

/// Memory every bound allows whatever the input: the binary itself, its
/// threads and libraries (a small input peaks at about 5 MiB).
const BASE: u64 = 16 * MIB;

/// Peak resident memory of this process's address space (`VmHWM`), bytes:
/// what a child spawned now inherits in its `ru_maxrss`.
fn own_peak() -> u64 {
    let status = fs::read_to_string("/proc/self/status").unwrap();
    let kib = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .unwrap();
    kib * 1024
}

/// What one run of the binary gave.
struct Run {
    status: i32,
    stdout: String,
    stderr: String,
    /// Peak resident set size, bytes.
    peak: u64,
}

/// Runs the binary with `args` and reads its peak resident memory.
fn measure(dir: &Path, args: &[&str]) -> Run {
    let own = own_peak();
    assert!(own < BASE, "the test process itself peaked at {own} bytes");
    let (out, err) = (dir.join("stdout"), dir.join("stderr"));
    // Reaped by wait4 below: std's wait gives no resource usage.
    #[allow(clippy::zombie_processes)]
    let child = Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(fs::File::create(&out).unwrap())
        .stderr(fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let pid = i32::try_from(child.id()).unwrap();
    let mut status = 0;
    // SAFETY: rusage is plain old data (all zeros is a valid value), and
    // wait4 reaps our own child, which `child` never waits for.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "wait4 failed");
    assert!(libc::WIFEXITED(status), "killed: status {status}");
    Run {
        status: libc::WEXITSTATUS(status),
        stdout: fs::read_to_string(out).unwrap(),
        stderr: fs::read_to_string(err).unwrap(),
        // ru_maxrss is in kibibytes on Linux.
        peak: u64::try_from(usage.ru_maxrss).unwrap() * 1024,
    }
}

/// Runs the binary with `args` and `--format json`; asserts exit 0 and
/// returns the run and its parsed output.
fn measure_json(dir: &Path, args: &[&str]) -> (Run, serde_json::Value) {
    let run = measure(dir, &[args, &["--format", "json"]].concat());
    assert_eq!(run.status, 0, "{}", run.stderr);
    let report = serde_json::from_str(&run.stdout).unwrap();
    (run, report)
}

/// A fresh folder for one test's files, removed when dropped.
fn scratch(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("clefeval-resource-{name}-"))
        .tempdir()
        .unwrap()
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Total size of the files of a folder.
fn folder_size(dir: &Path) -> u64 {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum()
}

const MIB: u64 = 1 << 20;

#[test]
fn segmentation_memory_is_a_fixed_multiple_of_its_input() {
    let tmp = scratch("segmentation");
    let dir = tmp.path();
    // 400 000 boxes a side on 4 000 pages of 100 documents: each run box is
    // its gold box moved 3 px right, so TP is 400 000 from t = 3 on.
    let mut gold = BufWriter::new(fs::File::create(dir.join("gold.csv")).unwrap());
    let mut run = BufWriter::new(fs::File::create(dir.join("run.csv")).unwrap());
    for i in 0..400_000u32 {
        let (doc, page, slot) = (i / 4000, 1 + (i / 100) % 40, i % 100);
        let (x, y) = (150 * (slot % 10), 200 * (slot / 10));
        writeln!(gold, "EP-{doc:07}-A1,{page},{x},{y},100,120").unwrap();
        writeln!(run, "EP-{doc:07}-A1,{page},{},{y},100,120", x + 3).unwrap();
    }
    gold.flush().unwrap();
    run.flush().unwrap();
    drop((gold, run));
    let input = folder_size(dir);
    let large = measure(
        dir,
        &[
            "segmentation",
            "--gold",
            s(&dir.join("gold.csv")),
            "--run",
            s(&dir.join("run.csv")),
            "--tolerances",
            "0,3",
            "--format",
            "csv",
        ],
    );
    assert_eq!(large.status, 0, "{}", large.stderr);
    let rows: Vec<&str> = large.stdout.lines().collect();
    assert_eq!(
        rows.first()
            .map(|r| r.split(',').take(5).collect::<Vec<_>>()),
        Some(vec!["run", "t", "tp", "fp", "fn"]),
        "{}",
        large.stdout
    );
    let tp: Vec<&str> = rows
        .iter()
        .skip(1)
        .filter_map(|r| r.split(',').nth(2))
        .collect();
    assert_eq!(tp, ["0", "400000"], "{}", large.stdout);
    eprintln!(
        "segmentation: input {} MiB, peak {} MiB",
        input / MIB,
        large.peak / MIB,
    );
    assert!(
        large.peak <= BASE + 4 * input,
        "peak {} bytes for {input} bytes of input",
        large.peak
    );
}

const GOLDENS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/goldens");
/// Files in each generated folder, and the padding that makes each large.
const FILES: usize = 400;
const PADDING: usize = 128 << 10;

/// A gold folder and a run folder of [`FILES`] topics each: gold files are
/// `content`, run files are `content` followed by `tail` repeated to
/// [`PADDING`] bytes (ignored by the reader: comments, or text after the
/// first SDF record). Returns (gold, run) folders.
fn folders(dir: &Path, ext: &str, content: &[u8], tail: &str) -> (PathBuf, PathBuf) {
    let (g, r) = (dir.join("gold"), dir.join("run"));
    fs::create_dir_all(&g).unwrap();
    fs::create_dir_all(&r).unwrap();
    let padding = tail.repeat(PADDING / tail.len());
    for i in 0..FILES {
        fs::write(g.join(format!("T-{i:04}.{ext}")), content).unwrap();
        let padded = [content, padding.as_bytes()].concat();
        fs::write(r.join(format!("T-{i:04}.{ext}")), padded).unwrap();
    }
    (g, r)
}

/// Asserts that the binary's peak memory stayed below [`BASE`] plus an
/// eighth of the run folder: the folder was not held whole.
fn assert_streamed(task: &str, large: &Run, run: &Path) {
    let size = folder_size(run);
    eprintln!(
        "{task}: run folder {} MiB in {FILES} files, peak {} MiB",
        size / MIB,
        large.peak / MIB,
    );
    assert!(size >= 50 * MIB);
    assert!(
        large.peak < BASE + size / 8,
        "{task}: peak {} bytes for a run folder of {size} bytes",
        large.peak
    );
}

#[test]
fn flowchart_and_validate_read_a_folder_file_by_file() {
    let tmp = scratch("flowchart");
    let dir = tmp.path();
    let topic = fs::read(Path::new(GOLDENS).join("flowchart/gold/FC-0001.txt")).unwrap();
    let tail = "CO a comment line of a large flowchart file\n";
    let (gold, run) = folders(dir, "txt", &topic, tail);
    let args = [
        "flowchart",
        "--gold",
        s(&gold),
        "--run",
        s(&run),
        "--threads",
        "2",
    ];
    let (large, report) = measure_json(dir, &args);
    // Every topic is the gold flowchart itself: distance 0 at every level.
    let topics = report["runs"][0]["topics"].as_array().unwrap();
    assert_eq!(topics.len(), FILES);
    let distance = |t: &serde_json::Value| t["levels"]["complete"]["distance"].as_f64();
    assert!(topics.iter().all(|t| distance(t) == Some(0.0)));
    assert_streamed("flowchart", &large, &run);

    let large = measure(dir, &["validate", s(&run)]);
    assert_eq!(large.status, 0, "{}", large.stderr);
    assert_eq!(
        large.stdout.lines().last(),
        Some("400 files: 400 ok, 0 with warnings, 0 rejected")
    );
    assert_streamed("validate", &large, &run);
}

#[test]
fn recognition_reads_a_folder_file_by_file() {
    let tmp = scratch("recognition");
    let dir = tmp.path();
    let mol = fs::read(Path::new(GOLDENS).join("recognition/gold/match_aromatic.mol")).unwrap();
    // Run files: the molecule as an SDF's first record, then more records'
    // worth of text the reader must not keep.
    let sdf = [&mol[..], b"$$$$\n"].concat();
    let tail = "> <padding>\nnot part of the first record\n\n";
    let (gold, run) = folders(dir, "sdf", &sdf, tail);
    let args = [
        "recognition",
        "--gold",
        s(&gold),
        "--run",
        s(&run),
        "--jobs",
        "2",
    ];
    let (large, report) = measure_json(dir, &args);
    assert_eq!(report["runs"][0]["summary"]["match"], FILES);
    assert_streamed("recognition", &large, &run);
}

/// A random flowchart of `nodes` rectangles and `edges` directed edges
/// (xorshift from `seed`).
fn random_flowchart(nodes: u64, edges: usize, seed: u64) -> String {
    let mut state = seed;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let mut text: String = (1..=nodes)
        .map(|i| format!("NO {i} rectangle \"step {i}\"\n"))
        .collect();
    for _ in 0..edges {
        let (a, b) = (1 + next(nodes), 1 + next(nodes));
        text.push_str(&format!("DE {a} {b} plain\n"));
    }
    text
}

#[test]
fn flowchart_time_limit_gives_an_inexact_result_with_valid_bounds() {
    // Two random 40-node, 90-edge graphs: far more than the 1 024 search
    // nodes after which the deadline is first checked, so a limit of 0 s
    // always cuts the search, on any machine.
    let tmp = scratch("time-limit");
    let dir = tmp.path();
    let (gold, run) = (dir.join("gold"), dir.join("run"));
    fs::create_dir_all(&gold).unwrap();
    fs::create_dir_all(&run).unwrap();
    fs::write(gold.join("FC-1.txt"), random_flowchart(40, 90, 7)).unwrap();
    fs::write(run.join("FC-1.txt"), random_flowchart(40, 90, 11)).unwrap();
    let args = [
        "flowchart",
        "--gold",
        s(&gold),
        "--run",
        s(&run),
        "--level",
        "basic",
        "--time-limit",
        "0",
    ];
    let (_, report) = measure_json(dir, &args);
    let topic = &report["runs"][0]["topics"][0];
    let basic = &topic["levels"]["basic"];
    assert_eq!(basic["exact"], false, "{topic}");
    let (size_t, size_s) = (
        topic["gold_size"].as_f64().unwrap(),
        topic["run_size"].as_f64().unwrap(),
    );
    assert_eq!((size_t, size_s), (130.0, 130.0));
    let lower_mcs = basic["mcs"].as_f64().unwrap();
    let upper_mcs = basic["mcs_upper"].as_f64().unwrap();
    // A common subgraph of 40 mapped nodes exists (any bijection), so the
    // best found is at least 40; the bound is at most the smaller graph.
    assert!(
        40.0 <= lower_mcs && lower_mcs <= upper_mcs && upper_mcs <= 130.0,
        "{basic}"
    );
    // d = 1 − m / (|Ft| + |Fs| − m): the distance of the best found is the
    // interval's top, that of the bound its bottom.
    let d = |m: f64| 1.0 - m / (size_t + size_s - m);
    let (high, low) = (
        basic["distance"].as_f64().unwrap(),
        basic["distance_lower"].as_f64().unwrap(),
    );
    assert!((high - d(lower_mcs)).abs() < 1e-12, "{basic}");
    assert!((low - d(upper_mcs)).abs() < 1e-12, "{basic}");
    assert!(0.0 <= low && low <= high && high <= 1.0, "{basic}");
    assert_eq!(
        report["runs"][0]["summary"]["inexact"], 1,
        "{}",
        report["runs"][0]["summary"]
    );
}

/// A prior-art run of 2 000 topics × 1 000 lines (about 95 MB), grouped by
/// topic, written as a stream, and its qrels (one relevant document in 50).
fn large_prior_art_run(dir: &Path) -> (PathBuf, PathBuf) {
    let (run, qrels) = (dir.join("large-PAC"), dir.join("qrels"));
    let mut w = BufWriter::new(fs::File::create(&run).unwrap());
    let mut q = BufWriter::new(fs::File::create(&qrels).unwrap());
    for t in 0..2000 {
        for i in 1..=1000 {
            let doc = format!("EP-{:07}-A1", t * 7 + i);
            writeln!(w, "PAC-{t} Q0 {doc} {i} {}.25 lab1-bm25", 2000 - i).unwrap();
            if i % 50 == 7 {
                writeln!(q, "PAC-{t} 0 {doc} 1").unwrap();
            }
        }
    }
    w.into_inner().unwrap().sync_all().unwrap();
    q.into_inner().unwrap().sync_all().unwrap();
    (run, qrels)
}

#[test]
fn retrieval_streams_a_run_grouped_by_topic() {
    let tmp = scratch("retrieval");
    let dir = tmp.path();
    let (run, qrels) = large_prior_art_run(dir);
    let size = fs::metadata(&run).unwrap().len();
    assert!(size > 90 * 1_000_000, "{size}");
    let checked = measure(dir, &["validate", "--task", "prior-art", s(&run)]);
    assert_eq!(checked.status, 0, "{}", checked.stderr);
    assert!(checked.stdout.ends_with(
        ": ok: 2000000 lines, 2000 topics\n1 file: 1 ok, 0 with warnings, 0 rejected\n"
    ));
    let (scored, report) = measure_json(
        dir,
        &[
            "prior-art",
            "--qrels",
            s(&qrels),
            "--run",
            s(&run),
            "-j",
            "1",
        ],
    );
    // 20 relevant documents a topic, at ranks 7, 57, …, 957: 2 within 100.
    let all = &report["runs"][0]["all"];
    assert_eq!(all["num_q"], 2000);
    assert_eq!(all["num_rel"], 40_000);
    assert_eq!(all["num_rel_ret"], 4000);
    assert_eq!(all["num_ret"], 200_000);
    eprintln!(
        "retrieval: run {} MiB, validate peak {} MiB, prior-art peak {} MiB",
        size / MIB,
        checked.peak / MIB,
        scored.peak / MIB
    );
    // validate holds one topic's lines; prior-art also the qrels, read
    // into tables (a small multiple of their 1 MiB file), and the rows.
    let qrels_size = fs::metadata(&qrels).unwrap().len();
    assert!(checked.peak < BASE, "validate peak {} bytes", checked.peak);
    assert!(
        scored.peak < BASE + 8 * qrels_size,
        "prior-art peak {} bytes for qrels of {qrels_size} bytes",
        scored.peak
    );
    assert!(scored.peak < size / 4);
}
