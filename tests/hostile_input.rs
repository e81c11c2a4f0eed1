//! Hostile input: every command of the real binary on folders that
//! mix good files from `goldens/` with bad ones made here (binary junk,
//! empty, huge, truncated, UTF-16, Latin-1, NUL bytes, absurd counts,
//! symlink loops, unreadable files, folders named like files).
//!
//! Asserted for each command: the exit status of `docs/cli.md` (0 when the
//! evaluation ran, bad submitted files are reported, not fatal; 2 only when
//! the command cannot run), a diagnostic naming each bad file, and every
//! good file scored exactly as in a clean run of the good files alone.

use serde_json::Value;
use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::Command;
use tempfile::TempDir;

const GOLDENS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/goldens");

/// Runs the binary: (exit code, stdout, stderr).
fn clefeval(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs the binary with `--format json` and parses its output; also
/// returns standard error (the notes that are not in the JSON).
fn json(args: &[&str], expected_status: i32) -> (Value, String) {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let (status, stdout, stderr) = clefeval(&all);
    assert_eq!(
        status, expected_status,
        "{args:?}\nstdout: {stdout}\nstderr: {stderr}"
    );
    let value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    (value, stderr)
}

/// A fresh scratch folder for one test, removed when dropped.
fn scratch(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("clefeval-hostile-{name}-"))
        .tempdir()
        .expect("scratch folder")
}

fn s(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

fn golden(rel: &str) -> Vec<u8> {
    fs::read(Path::new(GOLDENS).join(rel)).expect("golden file")
}

/// Deterministic pseudo-random bytes (a 64-bit LCG), all 256 values.
fn junk(len: usize, seed: u64) -> Vec<u8> {
    let mut state = seed;
    (0..len)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 56) as u8
        })
        .collect()
}

/// UTF-16LE with a byte-order mark.
fn utf16(text: &[u8]) -> Vec<u8> {
    let mut out = vec![0xFF, 0xFE];
    for unit in String::from_utf8_lossy(text).encode_utf16() {
        out.extend(unit.to_le_bytes());
    }
    out
}

/// What a bad file is on disk.
enum Bad {
    Bytes(Vec<u8>),
    /// A folder named like a file.
    Folder,
    /// A symbolic link that points at itself.
    Loop,
    /// These bytes (a good file) with no read permission.
    Unreadable(Vec<u8>),
    /// A sparse file of this many zero bytes (no disk used): past every
    /// reader's size limit.
    Sparse(u64),
}

/// The bad files of one task: the generic ones plus those whose content
/// depends on the format (`specific`: truncated, Latin-1, NUL, absurd
/// counts). `good` is a good file of the format; `locked` is what the file
/// without read permission holds (read anyway when tests run as root).
fn bad_files(
    specific: Vec<(&'static str, Vec<u8>)>,
    good: &[u8],
    locked: &[u8],
) -> Vec<(&'static str, Bad)> {
    let mut cases = vec![
        ("junk", Bad::Bytes(junk(4096, 1))),
        ("empty", Bad::Bytes(Vec::new())),
        ("utf16", Bad::Bytes(utf16(good))),
        ("huge", Bad::Bytes(junk(5 << 20, 2))),
        ("folder", Bad::Folder),
        ("loop", Bad::Loop),
        ("unreadable", Bad::Unreadable(locked.to_vec())),
        ("oversized", Bad::Sparse(10 << 30)),
    ];
    cases.extend(specific.into_iter().map(|(n, b)| (n, Bad::Bytes(b))));
    cases
}

fn make(path: &Path, bad: &Bad) {
    match bad {
        Bad::Bytes(b) => fs::write(path, b).expect("write"),
        Bad::Folder => fs::create_dir(path).expect("folder"),
        Bad::Loop => symlink(path, path).expect("symlink"),
        Bad::Unreadable(b) => {
            fs::write(path, b).expect("write");
            fs::set_permissions(path, fs::Permissions::from_mode(0o000)).expect("chmod");
        }
        Bad::Sparse(len) => fs::File::create(path)
            .and_then(|f| f.set_len(*len))
            .expect("sparse file"),
    }
}

/// True when permissions do not stop reads (root, as in CI): an
/// "unreadable" file is then a good file and must be scored as one.
fn permissions_ignored(dir: &Path) -> bool {
    let probe = dir.join("permission-probe");
    make(&probe, &Bad::Unreadable(b"x".to_vec()));
    let readable = fs::read(&probe).is_ok();
    let _ = fs::set_permissions(&probe, fs::Permissions::from_mode(0o600));
    let _ = fs::remove_file(&probe);
    readable
}

/// The JSON with every occurrence of `dir` (as a string) replaced, so that
/// entries of files in different folders compare equal.
fn without_dir(value: &Value, dir: &Path) -> Value {
    let text = value.to_string().replace(s(dir), "<dir>");
    serde_json::from_str(&text).expect("still JSON")
}

fn copy(from: &str, to: &Path) {
    fs::write(to, golden(from)).expect("copy");
}

fn mentions(diagnostics: &[String], path: &Path) -> bool {
    diagnostics.iter().any(|d| d.contains(s(path)))
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|a| {
            a.iter()
                .map(|d| d.as_str().map_or_else(|| d.to_string(), str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

// ---------------------------------------------------------------- flowchart

const GOOD_TOPICS: [&str; 3] = ["FC-0001", "FC-0002", "FC-0003"];
/// Gold topics whose submitted file is a bad one.
const BAD_SLOTS: [&str; 3] = ["FC-0004", "FC-0005", "FC-0006"];

fn flowchart_bad_files() -> Vec<(&'static str, Bad)> {
    let good = golden("flowchart/gold/FC-0004.txt");
    let mut nul = good.clone();
    let second_line = good.iter().position(|&b| b == b'\n').map_or(0, |i| i + 1);
    nul[second_line] = 0;
    let specific = vec![
        ("truncated", good[..good.len() / 2].to_vec()),
        ("latin1", b"MT Title \"Caf\xe9 cr\xe8me\"\nNO 1 oval \"d\xe9but\"\nNO 2 oval\nDE 1 2 plain\n".to_vec()),
        ("nul", nul),
        (
            "absurd",
            b"MT NO 99999999999999999999999999\nNO 99999999999999999999999 oval\nNO 1 oval\nDE 1 99999999999999999999999 plain\n".to_vec(),
        ),
    ];
    bad_files(specific, &good, &good)
}

/// Every flowchart run folder: good topics copied from recognizer-a, bad
/// files on the other gold topics (three a run), and in the first run also
/// bad files whose stem no gold file has.
#[test]
fn flowchart_scores_good_topics_and_reports_bad_files() {
    let tmp = scratch("flowchart");
    let dir = tmp.path();
    let gold = Path::new(GOLDENS).join("flowchart/gold");
    let clean = dir.join("clean");
    fs::create_dir(&clean).expect("clean");
    for t in GOOD_TOPICS {
        copy(
            &format!("flowchart/runs/recognizer-a/{t}.txt"),
            &clean.join(format!("{t}.txt")),
        );
    }
    let root_reads = permissions_ignored(dir);
    let cases = flowchart_bad_files();
    let mut runs = Vec::new();
    let mut bad_paths = Vec::new(); // (run index, topic, case, path)
    for (r, chunk) in cases.chunks(BAD_SLOTS.len()).enumerate() {
        let run = dir.join(format!("run-{r}"));
        fs::create_dir(&run).expect("run");
        for t in GOOD_TOPICS {
            copy(
                &format!("flowchart/runs/recognizer-a/{t}.txt"),
                &run.join(format!("{t}.txt")),
            );
        }
        for ((name, bad), topic) in chunk.iter().zip(BAD_SLOTS) {
            let path = run.join(format!("{topic}.txt"));
            make(&path, bad);
            bad_paths.push((r, topic, *name, path));
        }
        runs.push(run);
    }
    // Strays: bad files that pair with no gold topic are named, not read.
    let strays: Vec<PathBuf> = ["stray-junk.txt", "stray-loop.txt"]
        .iter()
        .map(|n| runs[0].join(n))
        .collect();
    make(&strays[0], &Bad::Bytes(junk(100, 3)));
    make(&strays[1], &Bad::Loop);

    let (reference, _) = json(&["flowchart", "--gold", s(&gold), "--run", s(&clean)], 0);
    let reference_topics = &reference["runs"][0]["topics"];
    let mut args = vec!["flowchart", "--gold", s(&gold)];
    for run in &runs {
        args.extend(["--run", s(run)]);
    }
    let (report, stderr) = json(&args, 0);
    let out_runs = report["runs"].as_array().expect("runs");
    assert_eq!(out_runs.len(), runs.len());
    for (r, run) in out_runs.iter().enumerate() {
        let topics = run["topics"].as_array().expect("topics");
        let topic = |name: &str| {
            topics
                .iter()
                .find(|t| t["topic"] == name)
                .unwrap_or_else(|| panic!("topic {name} in run {r}"))
        };
        for t in GOOD_TOPICS {
            let expected = reference_topics
                .as_array()
                .and_then(|a| a.iter().find(|x| x["topic"] == t))
                .expect("clean topic");
            assert_eq!(
                without_dir(topic(t), &runs[r]),
                without_dir(expected, &clean),
                "good topic {t} in run {r}"
            );
        }
        for (_, slot, name, path) in bad_paths.iter().filter(|b| b.0 == r) {
            let entry = topic(slot);
            if *name == "unreadable" && root_reads {
                assert_eq!(entry["status"], "ok", "{name}: {entry}");
                continue;
            }
            let diagnostics = strings(&entry["diagnostics"]);
            assert!(
                mentions(&diagnostics, path),
                "{name}: no diagnostic naming {path:?}: {entry}"
            );
            assert!(
                entry["status"] == "ok" || entry["status"] == "rejected",
                "{name}: {entry}"
            );
            if entry["status"] == "rejected" {
                assert_eq!(entry["levels"]["basic"]["distance"], 1.0, "{name}: {entry}");
            }
        }
    }
    for stray in &strays {
        assert!(
            stderr.contains(s(stray)),
            "stray {stray:?} not named:\n{stderr}"
        );
    }
    // Files that are no flowchart at all score distance 1: binary junk (a
    // NUL byte) is rejected as binary data (docs/formats.md); files that
    // cannot be read or have bad ids are rejected. (UTF-16 with a BOM is
    // decoded, with a warning, and scored.)
    for (r, slot, name, _) in &bad_paths {
        let entry = out_runs[*r]["topics"]
            .as_array()
            .and_then(|a| a.iter().find(|t| t["topic"] == **slot))
            .expect("topic");
        if ["folder", "loop", "absurd", "oversized"].contains(name) {
            assert_eq!(entry["status"], "rejected", "{name}: {entry}");
        }
        if name == &"oversized" {
            assert_eq!(
                strings(&entry["diagnostics"]),
                [format!(
                    "{}: error: larger than the 16 MiB limit for one file; not read",
                    s(&bad_paths
                        .iter()
                        .find(|b| b.2 == "oversized")
                        .expect("oversized")
                        .3)
                )],
                "{entry}"
            );
        }
        if [
            "junk",
            "huge",
            "empty",
            "folder",
            "loop",
            "absurd",
            "oversized",
        ]
        .contains(name)
        {
            for level in ["basic", "intermediate", "complete"] {
                assert_eq!(entry["levels"][level]["distance"], 1.0, "{name}: {entry}");
            }
        }
    }
}

#[test]
fn flowchart_bad_gold_cannot_run() {
    let tmp = scratch("flowchart-gold");
    let dir = tmp.path();
    // An edge to an undefined node is an error, and an error in gold data
    // is fatal.
    fs::write(dir.join("FC-0001.txt"), b"NO 1 oval\nDE 1 2 plain\n").expect("write");
    let run = Path::new(GOLDENS).join("flowchart/runs/recognizer-a");
    let (status, _, stderr) = clefeval(&["flowchart", "--gold", s(dir), "--run", s(&run)]);
    assert_eq!(status, 2, "{stderr}");
    assert!(stderr.contains(s(&dir.join("FC-0001.txt"))), "{stderr}");
    let missing = dir.join("no-such-folder");
    let (status, _, stderr) = clefeval(&["flowchart", "--gold", s(&missing), "--run", s(&run)]);
    assert_eq!(status, 2, "{stderr}");
}

// ----------------------------------------------------------------- validate

#[test]
fn validate_reports_every_bad_file_and_keeps_good_verdicts() {
    let tmp = scratch("validate");
    let dir = tmp.path();
    let root_reads = permissions_ignored(dir);
    let mut good = Vec::new();
    for t in GOOD_TOPICS {
        let path = dir.join(format!("{t}.txt"));
        copy(&format!("flowchart/gold/{t}.txt"), &path);
        good.push(path);
    }
    let mut bad = Vec::new();
    for (name, b) in flowchart_bad_files() {
        let path = dir.join(format!("{name}.txt"));
        make(&path, &b);
        bad.push((name, path));
    }
    let mut args = vec!["validate"];
    args.extend(good.iter().map(|p| s(p)));
    let (clean, _) = json(&args, 0);
    let (report, _) = json(&["validate", s(dir)], 1);
    let files = report["files"].as_array().expect("files");
    assert_eq!(files.len(), good.len() + bad.len());
    let entry = |path: &Path| {
        files
            .iter()
            .find(|f| f["file"] == s(path))
            .unwrap_or_else(|| panic!("{path:?} not in the report"))
    };
    for (i, path) in good.iter().enumerate() {
        assert_eq!(entry(path), &clean["files"][i], "{path:?}");
    }
    for (name, path) in &bad {
        let e = entry(path);
        if *name == "unreadable" && root_reads {
            assert_eq!(e["status"], "ok", "{e}");
            continue;
        }
        let diagnostics = e["diagnostics"].as_array().expect("diagnostics");
        assert!(!diagnostics.is_empty(), "{name}: {e}");
        assert!(
            diagnostics.iter().all(|d| d["file"] == s(path)),
            "{name}: {e}"
        );
    }
}

// ------------------------------------------------------------- segmentation

/// Bad CSV contents with no valid box in them (a valid box would be scored
/// as submitted and change the figures).
fn segmentation_bad_files() -> Vec<(&'static str, Bad)> {
    let good = golden("segmentation/run-shifted/run.csv");
    let specific = vec![
        ("truncated", b"EP-1000001-A1,1,33".to_vec()),
        ("latin1", b"EP-1000001-A1,1,3\xb2,534,436,232\n".to_vec()),
        ("nul", b"EP-1000001-A1,1,334,5\x0034,436,232\n".to_vec()),
        (
            "absurd",
            b"EP-1000001-A1,99999999999,334,534,436,232\nEP-1000001-A1,1,334,534,99999999999999999999,1\nEP-1000001-A1,1,334,534,436,232,7,7,7\n".to_vec(),
        ),
    ];
    // Read anyway as root: a bad line, so that no box is added either way.
    bad_files(specific, &good, b"EP-1000001-A1,1,x,y,1,1\n")
}

#[test]
fn segmentation_scores_good_boxes_and_reports_bad_files() {
    let tmp = scratch("segmentation");
    let dir = tmp.path();
    let gold = Path::new(GOLDENS).join("segmentation/gold");
    let clean = dir.join("clean");
    let run = dir.join("run");
    fs::create_dir(&clean).expect("clean");
    fs::create_dir(&run).expect("run");
    copy("segmentation/run-shifted/run.csv", &clean.join("run.csv"));
    copy("segmentation/run-shifted/run.csv", &run.join("run.csv"));
    let mut bad = Vec::new();
    for (name, b) in segmentation_bad_files() {
        let path = run.join(format!("{name}.csv"));
        make(&path, &b);
        bad.push((name, path));
    }
    for (name, b) in [
        ("junk-sdf", Bad::Bytes(junk(3000, 5))),
        (
            "unterminated-sdf",
            Bad::Bytes(b">  <Surrounding_box>\n1x2-3x4\n".to_vec()),
        ),
        (
            "bad-box-sdf",
            Bad::Bytes(b">  <Surrounding_box>\n9x9-1x1\n$$$$\n".to_vec()),
        ),
        ("folder-sdf", Bad::Folder),
    ] {
        let path = run.join(format!("{name}.sdf"));
        make(&path, &b);
        bad.push((name, path));
    }
    let (reference, _) = json(&["segmentation", "--gold", s(&gold), "--run", s(&clean)], 0);
    let (report, _) = json(&["segmentation", "--gold", s(&gold), "--run", s(&run)], 0);
    let (expected, got) = (&reference["runs"][0], &report["runs"][0]);
    assert_eq!(got["tolerances"], expected["tolerances"]);
    assert_eq!(
        got["max_unambiguous_tolerance"],
        expected["max_unambiguous_tolerance"]
    );
    for doc in expected["documents"].as_array().expect("documents") {
        let same = got["documents"]
            .as_array()
            .and_then(|d| d.iter().find(|x| x["doc"] == doc["doc"]))
            .unwrap_or_else(|| panic!("document {} lost", doc["doc"]));
        assert_eq!(same, doc);
    }
    let diagnostics = strings(&got["diagnostics"]);
    for (name, path) in &bad {
        // An empty file says that its document has no boxes: nothing to report.
        if *name == "empty" {
            continue;
        }
        assert!(
            mentions(&diagnostics, path),
            "{name}: {path:?} not named in {diagnostics:#?}"
        );
    }
    assert!(
        diagnostics.contains(&format!(
            "{}: error: larger than the 256 MiB limit for one file; not read",
            s(&run.join("oversized.csv"))
        )),
        "{diagnostics:#?}"
    );
}

#[test]
fn segmentation_bad_pages_are_reported_and_scores_kept() {
    let tmp = scratch("segmentation-pages");
    let dir = tmp.path();
    let pages = dir.join("pages");
    fs::create_dir(&pages).expect("pages");
    // Junk as the first document's page image, a folder as the second's.
    fs::write(pages.join("EP-1000001-A1.tif"), junk(70_000, 6)).expect("write");
    fs::create_dir(pages.join("EP-1000002-A1.tif")).expect("folder");
    let gold = Path::new(GOLDENS).join("segmentation/gold");
    let run = Path::new(GOLDENS).join("segmentation/run-shifted");
    let (reference, _) = json(&["segmentation", "--gold", s(&gold), "--run", s(&run)], 0);
    let (report, _) = json(
        &[
            "segmentation",
            "--gold",
            s(&gold),
            "--run",
            s(&run),
            "--pages",
            s(&pages),
        ],
        0,
    );
    assert_eq!(
        report["runs"][0]["tolerances"],
        reference["runs"][0]["tolerances"]
    );
    let all = report.to_string();
    assert!(all.contains(s(&pages.join("EP-1000001-A1.tif"))), "{all}");
    assert!(all.contains("EP-1000002-A1"), "{all}");
    // A page image past the 1 GiB limit: named, not read, scores kept.
    let tif = pages.join("EP-1000001-A1.tif");
    fs::remove_file(&tif).expect("remove");
    make(&tif, &Bad::Sparse((1 << 30) + 1));
    let args = ["segmentation", "--gold", s(&gold), "--run", s(&run)];
    let (report, _) = json(&[&args[..], &["--pages", s(&pages)]].concat(), 0);
    assert_eq!(
        report["runs"][0]["tolerances"],
        reference["runs"][0]["tolerances"]
    );
    let limit = format!(
        "{}: error: larger than the 1024 MiB limit for one file; not read; no page checks for this document",
        s(&tif)
    );
    assert!(strings(&report["diagnostics"]).contains(&limit), "{report}");
}

#[test]
fn segmentation_missing_gold_cannot_run() {
    let tmp = scratch("segmentation-gold");
    let dir = tmp.path();
    let run = Path::new(GOLDENS).join("segmentation/run-shifted");
    let missing = dir.join("no-such.csv");
    let (status, _, stderr) = clefeval(&["segmentation", "--gold", s(&missing), "--run", s(&run)]);
    assert_eq!(status, 2, "{stderr}");
}

// -------------------------------------------------------------- recognition

/// Gold structures whose submitted file is replaced by a bad one.
const REC_SLOTS: [&str; 12] = [
    "match_aromatic",
    "match_charge_isotope",
    "match_explicit_h",
    "match_shuffled",
    "match_v3000",
    "formula_moved_substituent",
    "stereo_flipped_centre",
    "stereo_removed_ez",
    "wrong_changed_element",
    "unreadable_counts_999",
    "unreadable_empty",
    "unreadable_garbage",
];

fn recognition_bad_files() -> Vec<(&'static str, Bad)> {
    let good = golden("recognition/gold/match_aromatic.mol");
    let text = String::from_utf8_lossy(&good).into_owned();
    let mut nul = good.clone();
    nul[good.len() / 2] = 0;
    let latin1: Vec<u8> = text
        .replacen(" C   0", " \u{e9}   0", 1)
        .chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
        .collect();
    let absurd = text.replacen("  8  8  0", "999999999  0", 1).into_bytes();
    let specific = vec![
        ("truncated", good[..good.len() / 2].to_vec()),
        ("latin1", latin1),
        ("nul", nul),
        ("absurd", absurd),
        ("deep-sdf", b"$$$$\n".repeat(200_000)),
    ];
    bad_files(specific, &good, &good)
}

#[test]
fn recognition_scores_good_structures_and_reports_bad_files() {
    let tmp = scratch("recognition");
    let dir = tmp.path();
    let gold = Path::new(GOLDENS).join("recognition/gold");
    let handmade = Path::new(GOLDENS).join("recognition/runs/handmade");
    let root_reads = permissions_ignored(dir);
    let fill = |run: &Path| {
        fs::create_dir(run).expect("run");
        for entry in fs::read_dir(&handmade).expect("handmade") {
            let path = entry.expect("entry").path();
            fs::copy(&path, run.join(path.file_name().expect("name"))).expect("copy");
        }
    };
    let clean = dir.join("clean");
    fill(&clean);
    let cases = recognition_bad_files();
    assert!(cases.len() <= REC_SLOTS.len() * 2);
    let mut runs = Vec::new();
    let mut bad = Vec::new(); // (run, slot, case)
    for (r, chunk) in cases.chunks(REC_SLOTS.len().div_ceil(2)).enumerate() {
        let run = dir.join(format!("run-{r}"));
        fill(&run);
        for ((name, b), slot) in chunk.iter().zip(REC_SLOTS) {
            let path = run.join(format!("{slot}.mol"));
            let _ = fs::remove_file(&path);
            make(&path, b);
            bad.push((r, slot, *name));
        }
        runs.push(run);
    }
    let (reference, _) = json(
        &[
            "recognition",
            "--gold",
            s(&gold),
            "--run",
            s(&clean),
            "--jobs",
            "2",
        ],
        0,
    );
    let mut args = vec!["recognition", "--gold", s(&gold), "--jobs", "2"];
    for run in &runs {
        args.extend(["--run", s(run)]);
    }
    let (report, _) = json(&args, 0);
    let expected = reference["runs"][0]["structures"]
        .as_array()
        .expect("structures");
    for (r, run) in report["runs"].as_array().expect("runs").iter().enumerate() {
        let structures = run["structures"].as_array().expect("structures");
        assert_eq!(structures.len(), expected.len());
        for (got, want) in structures.iter().zip(expected) {
            let name = want["name"].as_str().expect("name");
            match bad.iter().find(|b| b.0 == r && b.1 == name) {
                Some((_, _, case)) if !(*case == "unreadable" && root_reads) => {
                    assert_eq!(got["name"], name);
                    assert_eq!(got["outcome"], "unreadable", "{case}: {got}");
                    let reason = got["reason"].as_str().unwrap_or_default();
                    assert!(!reason.is_empty(), "{case}: {got}");
                }
                _ => assert_eq!(
                    without_dir(got, &runs[r]),
                    without_dir(want, &clean),
                    "good structure {name} in run {r}"
                ),
            }
        }
    }
}

#[test]
fn recognition_missing_gold_cannot_run() {
    let tmp = scratch("recognition-gold");
    let dir = tmp.path();
    let run = Path::new(GOLDENS).join("recognition/runs/handmade");
    let empty = dir.join("empty-gold");
    fs::create_dir(&empty).expect("folder");
    for gold in [dir.join("no-such-folder"), empty] {
        let (status, _, stderr) = clefeval(&["recognition", "--gold", s(&gold), "--run", s(&run)]);
        assert_eq!(status, 2, "{gold:?}: {stderr}");
    }
}

// ------------------------------------------------------------------ compare

#[test]
fn compare_refuses_bad_result_files_and_names_them() {
    let tmp = scratch("compare");
    let dir = tmp.path();
    let good = Path::new(GOLDENS).join("compare/baseline.json");
    let (status, stdout, stderr) = clefeval(&["compare", s(&good), s(&good)]);
    assert_eq!(status, 0, "{stdout}{stderr}");
    let text = golden("compare/baseline.json");
    let mut nul = text.clone();
    nul[text.len() / 2] = 0;
    let cases = vec![
        ("junk", Bad::Bytes(junk(4096, 7))),
        ("empty", Bad::Bytes(Vec::new())),
        ("truncated", Bad::Bytes(text[..text.len() / 2].to_vec())),
        ("utf16", Bad::Bytes(utf16(&text))),
        ("nul", Bad::Bytes(nul)),
        ("huge", Bad::Bytes(junk(5 << 20, 8))),
        ("oversized", Bad::Sparse(10 << 30)),
        (
            "deep",
            Bad::Bytes([b"[".repeat(100_000), b"]".repeat(100_000)].concat()),
        ),
        ("folder", Bad::Folder),
        ("loop", Bad::Loop),
    ];
    for (name, b) in &cases {
        let path = dir.join(format!("{name}.json"));
        make(&path, b);
        for args in [[s(&path), s(&good)], [s(&good), s(&path)]] {
            let mut all = vec!["compare"];
            all.extend(args);
            let (status, stdout, stderr) = clefeval(&all);
            assert_eq!(status, 2, "{name}: {stdout}{stderr}");
            assert!(
                stderr.contains(s(&path)),
                "{name}: file not named: {stderr}"
            );
        }
    }
}

// ------------------------------------------------------ unwritable outputs

/// Every scoring command, on bundled data, as its argument list.
fn scoring_commands() -> Vec<Vec<String>> {
    let g = |rel: &str| Path::new(GOLDENS).join(rel).display().to_string();
    let args = |list: &[&str]| list.iter().map(ToString::to_string).collect::<Vec<_>>();
    vec![
        args(&[
            "flowchart",
            "--gold",
            &g("flowchart/gold"),
            "--run",
            &g("flowchart/runs/recognizer-a"),
            "--level",
            "basic",
        ]),
        args(&[
            "segmentation",
            "--gold",
            &g("segmentation/gold"),
            "--run",
            &g("segmentation/run-shifted"),
        ]),
        args(&[
            "recognition",
            "--gold",
            &g("recognition/gold"),
            "--run",
            &g("recognition/runs/handmade"),
        ]),
    ]
}

#[test]
fn unwritable_output_or_page_is_named_and_exits_2() {
    let missing = Path::new("/nonexistent/dir");
    for command in scoring_commands() {
        for (option, file) in [("--output", "x.json"), ("--html", "x.html")] {
            let target = missing.join(file);
            let mut all: Vec<&str> = command.iter().map(String::as_str).collect();
            all.extend([option, s(&target), "--quiet"]);
            let (status, _, stderr) = clefeval(&all);
            assert_eq!(status, 2, "{all:?}: {stderr}");
            assert!(
                stderr.contains(&format!("cannot write {}", s(&target))),
                "{all:?}: path not named: {stderr}"
            );
        }
    }
    let gold = Path::new(GOLDENS).join("flowchart/gold");
    let target = missing.join("x.json");
    for all in [
        vec!["validate", s(&gold), "--output", s(&target)],
        vec!["demo", "--html", s(&target)],
    ] {
        let (status, _, stderr) = clefeval(&all);
        assert_eq!(status, 2, "{all:?}: {stderr}");
        assert!(stderr.contains(s(&target)), "{all:?}: {stderr}");
    }
}

#[test]
fn empty_gold_folder_is_named() {
    let tmp = scratch("empty-gold");
    let dir = tmp.path();
    let empty = dir.join("empty");
    fs::create_dir(&empty).expect("folder");
    for command in [
        vec!["flowchart", "--gold", s(&empty), "--run", s(&empty)],
        vec!["segmentation", "--gold", s(&empty), "--run", s(&empty)],
        vec!["recognition", "--gold", s(&empty), "--run", s(&empty)],
        vec!["validate", s(&empty)],
    ] {
        let (status, _, stderr) = clefeval(&command);
        assert_eq!(status, 2, "{command:?}: {stderr}");
        assert!(stderr.contains(s(&empty)), "{command:?}: {stderr}");
    }
}

// ------------------------------------------------- fuzz finding regressions

/// segmentation_csv fuzz input (its first finding): the csv crate ends a
/// record at a lone CR too, so a file of one LF-line may hold two records.
/// Each record yields one box or one diagnostic naming the file and line 1.
#[test]
fn csv_lone_cr_ends_a_record() {
    use clefeval::segmentation::{boxes::BoxSet, csv::read_bytes};
    let crash = b"EP-1000001-A1,1,EP21000001-A1,1,33400,620\r\xf86,4\xd1\xd11,1";
    let mut set = BoxSet::default();
    let d = read_bytes("f.csv", crash, &mut set);
    assert_eq!(set.len() + d.len(), 2, "{d:?}");
    assert!(
        d.iter().all(|d| d.file == "f.csv" && d.line == Some(1)),
        "{d:?}"
    );
    // Classic Mac line ends: two good boxes.
    let mut set = BoxSet::default();
    let d = read_bytes("mac.csv", b"EP-1,1,10,20,30,40\rEP-1,2,1,2,3,4\r", &mut set);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(set.len(), 2);
}
