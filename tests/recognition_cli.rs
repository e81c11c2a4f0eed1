//! `clefeval recognition` end to end: the hand-made pairs of
//! goldens/recognition against the outcomes and InChIs RDKit gave
//! (expected/handmade.json, made by make_handmade.py), bad input, several
//! runs, determinism over --jobs, exit status.

use serde_json::Value;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use tempfile::TempDir;

fn goldens() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("goldens/recognition")
}

fn clefeval<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .args(args)
        .output()
        .expect("the clefeval binary runs")
}

fn json_of<S: AsRef<OsStr>>(args: &[S]) -> Value {
    let out = clefeval(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON output")
}

fn path(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// A fresh empty folder under the system temp folder, removed when dropped.
fn scratch(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("clefeval-rec-{name}-"))
        .tempdir()
        .unwrap()
}

/// The arguments scoring the hand-made run in `format`.
fn handmade(format: &str) -> Vec<PathBuf> {
    let g = goldens();
    ["recognition", "--gold"]
        .map(PathBuf::from)
        .into_iter()
        .chain([g.join("gold"), "--run".into(), g.join("runs/handmade")])
        .chain(["--format", format].map(PathBuf::from))
        .collect()
}

#[test]
fn handmade_pairs_give_rdkits_outcomes_and_inchis() {
    let g = goldens();
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(g.join("expected/handmade.json")).unwrap())
            .unwrap();
    let got = json_of(&handmade("json"));
    assert_eq!(got["task"], "recognition");
    let run = &got["runs"][0];
    assert_eq!(run["run"], "handmade");
    let structures = run["structures"].as_array().unwrap();
    let want = expected["structures"].as_array().unwrap();
    assert_eq!(structures.len(), want.len());
    for (s, w) in structures.iter().zip(want) {
        assert_eq!(s["name"], w["name"]);
        for field in ["outcome", "gold_inchi", "run_inchi"] {
            assert_eq!(s[field], w[field], "{} {field}", w["name"]);
        }
    }
    let summary = &run["summary"];
    // 17 cases: 6 match, 2 stereo, 1 formula, 1 wrong, 3 unreadable,
    // 1 missing, 3 manual; recall = 6 / (17 - 3).
    let counts = [
        ("structures", 17),
        ("manual", 3),
        ("automatic", 14),
        ("match", 6),
        ("stereo", 2),
        ("formula", 1),
        ("wrong", 1),
        ("unreadable", 3),
        ("missing", 1),
    ];
    for (field, n) in counts {
        assert_eq!(summary[field], n, "{field}");
    }
    assert_eq!(summary["recall"].as_f64().unwrap(), 6.0 / 14.0);
    let reason = |name: &str| {
        structures
            .iter()
            .find(|s| s["name"] == name)
            .map(|s| s["reason"].as_str().unwrap_or("").to_owned())
            .unwrap()
    };
    assert_eq!(reason("unreadable_empty"), "empty file");
    assert_eq!(
        reason("unreadable_counts_999"),
        "line 10: M  END inside the atom block (the counts line promises 999 atoms and 2 bonds)"
    );
    assert_eq!(reason("missing_file"), "no submitted structure");
    assert_eq!(
        reason("manual_alias"),
        "atom 1 is drawn as the alias \"R1\", which the InChI library ignores"
    );
    assert!(
        reason("manual_rgroup").starts_with("InChI library"),
        "{}",
        reason("manual_rgroup")
    );
    assert_eq!(reason("match_shuffled"), "");
}

#[test]
fn the_librarys_reason_is_printed_whole_in_the_table_and_the_json() {
    let args = |format| clefeval(&handmade(format));
    // The R-group gold structure: the library's error without the word it
    // cuts itself (`inp`), and no cut of ours.
    let reason = "InChI library: Error 190 (no InChI; Unknown element(s): R#)";
    let table = String::from_utf8(args("table").stdout).unwrap();
    let row = table.lines().find(|l| l.contains("manual_rgroup")).unwrap();
    assert!(row.ends_with(&format!("manual      {reason}")), "{row:?}");
    let json: Value = serde_json::from_slice(&args("json").stdout).unwrap();
    let rgroup = (json["runs"][0]["structures"].as_array().unwrap().iter())
        .find(|s| s["name"] == "manual_rgroup")
        .unwrap();
    assert_eq!(rgroup["reason"], reason);
}

#[test]
fn bad_input_files_are_unreadable_and_the_rest_is_scored() {
    let g = goldens();
    let tmp = scratch("bad");
    let dir = tmp.path();
    let (gold, run) = (dir.join("gold"), dir.join("run"));
    std::fs::create_dir_all(&gold).unwrap();
    std::fs::create_dir_all(&run).unwrap();
    let good = std::fs::read(g.join("gold/match_shuffled.mol")).unwrap();
    for name in [
        "good", "junk", "nul", "folder", "dangling", "counts", "fifo",
    ] {
        std::fs::write(gold.join(format!("{name}.mol")), &good).unwrap();
    }
    std::fs::write(run.join("good.mol"), &good).unwrap();
    // 50 MB of junk without NUL bytes or record ends.
    std::fs::write(run.join("junk.mol"), vec![b'j'; 50 << 20]).unwrap();
    let mut nul = good.clone();
    nul[60] = 0;
    std::fs::write(run.join("nul.mol"), nul).unwrap();
    std::fs::create_dir(run.join("folder.mol")).unwrap();
    std::os::unix::fs::symlink(dir.join("nowhere.mol"), run.join("dangling.mol")).unwrap();
    // A named pipe nobody writes to: reading it would block for ever.
    let fifo = Command::new("mkfifo")
        .arg(run.join("fifo.mol"))
        .status()
        .unwrap();
    assert!(fifo.success());
    std::fs::copy(
        g.join("runs/handmade/unreadable_counts_999.mol"),
        run.join("counts.mol"),
    )
    .unwrap();
    let got = json_of(&[
        "recognition",
        "--gold",
        path(&gold),
        "--run",
        path(&run),
        "--format",
        "json",
    ]);
    let structures = got["runs"][0]["structures"].as_array().unwrap();
    let by_name = |n: &str| structures.iter().find(|s| s["name"] == n).unwrap();
    assert_eq!(by_name("good")["outcome"], "match");
    let fifo_reason = format!(
        "{}: is a FIFO (named pipe), not a regular file",
        run.join("fifo.mol").display()
    );
    let folder_reason = format!(
        "{}: is a folder, not a regular file",
        run.join("folder.mol").display()
    );
    let dangling_reason = format!(
        "{}: no such file or folder",
        run.join("dangling.mol").display()
    );
    let reasons = [
        (
            "junk",
            "larger than the 16 MiB read limit and no SDF record end ($$$$) within it",
        ),
        ("nul", "binary data (a NUL byte), not a MOL file; not read"),
        ("folder", folder_reason.as_str()),
        ("fifo", fifo_reason.as_str()),
        ("dangling", dangling_reason.as_str()),
        (
            "counts",
            "line 10: M  END inside the atom block (the counts line promises 999 atoms and 2 bonds)",
        ),
    ];
    for (name, reason) in reasons {
        assert_eq!(by_name(name)["outcome"], "unreadable", "{name}");
        assert_eq!(by_name(name)["reason"], reason, "{name}");
    }
}

#[test]
fn several_runs_are_ranked_and_output_does_not_depend_on_jobs() {
    let g = goldens();
    let tmp = scratch("rank");
    let dir = tmp.path();
    // A second run: the hand-made one with two more structures right.
    let better = dir.join("better");
    std::fs::create_dir_all(&better).unwrap();
    for entry in std::fs::read_dir(g.join("runs/handmade")).unwrap() {
        let p = entry.unwrap().path();
        std::fs::copy(&p, better.join(p.file_name().unwrap())).unwrap();
    }
    for name in ["formula_moved_substituent", "missing_file"] {
        std::fs::copy(
            g.join(format!("gold/{name}.mol")),
            better.join(format!("{name}.mol")),
        )
        .unwrap();
    }
    let args = |jobs: &'static str| {
        vec![
            "recognition".to_owned(),
            "--gold".into(),
            path(&g.join("gold")).into(),
            "--run".into(),
            path(&g.join("runs/handmade")).into(),
            "--run".into(),
            path(&better).into(),
            "--jobs".into(),
            jobs.into(),
        ]
    };
    let run = |extra: &[&str], jobs| {
        let mut a = args(jobs);
        a.extend(extra.iter().map(|s| s.to_string()));
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        let out = clefeval(&refs);
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stdout).unwrap()
    };
    let table = run(&["--format", "table"], "1");
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(
        lines[0],
        "rank  run       structures  automatic  recalled      %  recall  ignoring stereo  stereo gold  on stereo  stereo  formula  wrong  unreadable  missing  manual"
    );
    assert_eq!(
        lines[2],
        // Ignoring stereo: (8 + 2) / 14; the two stereo gold structures
        // are the `stereo` ones in both runs.
        "   1  better            17         14         8  57.14  0.5714           0.7143            2     0.0000       2        0      1           3        0       3"
    );
    assert_eq!(
        lines[3],
        "   2  handmade          17         14         6  42.86  0.4286           0.5714            2     0.0000       2        1      1           3        1       3"
    );
    for format in ["json", "csv", "table"] {
        let one = run(&["--format", format], "1");
        assert_eq!(one, run(&["--format", format], "3"), "{format}");
    }
}

#[test]
fn bad_arguments_exit_2() {
    let g = goldens();
    let gold = g.join("gold");
    let handmade = g.join("runs/handmade");
    let cases: [&[&str]; 6] = [
        &[
            "--gold",
            path(&gold),
            "--run",
            path(&handmade),
            "--output",
            "/nonexistent/folder/out.txt",
        ],
        &["--gold", "/nonexistent/gold", "--run", path(&handmade)],
        &["--gold", path(&gold), "--run", "/nonexistent/run"],
        &[
            "--gold",
            path(&gold),
            "--run",
            path(&handmade),
            "--jobs",
            "0",
        ],
        &[
            "--gold",
            path(&gold),
            "--run",
            path(&handmade),
            "--timeout=-1",
        ],
        &[
            "--gold",
            path(&gold),
            "--run",
            path(&handmade),
            "--timeout",
            "1e300",
        ],
    ];
    for case in cases {
        let mut args = vec!["recognition"];
        args.extend_from_slice(case);
        let out = clefeval(&args);
        assert_eq!(out.status.code(), Some(2), "{case:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.starts_with("clefeval: error: "), "{stderr}");
    }
}

#[test]
fn demo_scores_the_bundled_recognition_runs() {
    // The page goes to a scratch file, not into the checkout.
    let tmp = scratch("demo");
    let page = tmp.path().join("demo-rec.html");
    let out = clefeval(&["demo", "--html", page.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains(
            "   1  handmade          17         14         6  42.86  0.4286           0.5714            2     0.0000       2        1      1           3        1       3\n"
        ),
        "{stdout}"
    );
    // The OSRA clips beside it, as MOL files and as OSRA's SMILES table.
    for line in [
        "   1  osra                 21         21        14  66.67  0.6667           0.7619           10     0.5000       2        0      2           3        0       0\n",
        "   2  osra-smiles          21         21        13  61.90  0.6190           0.7143           10     0.5000       2        0      3           3        0       0\n",
    ] {
        assert!(stdout.contains(line), "{stdout}");
    }
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("id=\"rec-osra-review\"") && html.contains("id=\"rec-review\""));
    assert!(html.contains("id=\"rec-osra-f-match\"") && html.contains("id=\"f-match\""));
}

#[test]
fn html_option_writes_the_review_page_too() {
    let g = goldens();
    let tmp = scratch("html");
    let page = tmp.path().join("review.html");
    let out = clefeval(&[
        "recognition",
        "--gold",
        path(&g.join("gold")),
        "--run",
        path(&g.join("runs/handmade")),
        "--html",
        path(&page),
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html.matches("<section class=\"card").count(), 17);
    // Manual gold structures are drawn for review: R#, * and alias labels.
    assert!(html.contains("<tspan>R#</tspan>") && html.contains("<tspan>*</tspan>"));
    assert!(html.contains("<tspan>R1</tspan>"));
    assert!(html.contains("class=\"card has-manual\""));
}

#[test]
fn gold_the_file_system_cannot_give_exits_2_and_junk_gold_is_manual() {
    let tmp = scratch("gold-unreadable");
    let gold = tmp.path();
    let handmade = goldens().join("gold/match_aromatic.mol");
    std::fs::copy(&handmade, gold.join("match_aromatic.mol")).unwrap();
    std::fs::write(gold.join("junk.mol"), b"\x00\x01 not a molfile").unwrap();
    let run = goldens().join("runs/handmade");

    // Junk bytes in a gold file: scored, the structure listed as manual.
    let v = json_of(&[
        "recognition",
        "--gold",
        path(gold),
        "--run",
        path(&run),
        "--format",
        "json",
    ]);
    let structures = v["runs"][0]["structures"].as_array().unwrap();
    let junk = structures.iter().find(|s| s["name"] == "junk").unwrap();
    assert_eq!(junk["outcome"], "manual");
    assert!(
        junk["reason"].as_str().unwrap().contains("NUL byte"),
        "{junk}"
    );
    let aromatic = structures
        .iter()
        .find(|s| s["name"] == "match_aromatic")
        .unwrap();
    assert_eq!(aromatic["outcome"], "match");

    // A folder named like a gold file: the gold data cannot be read.
    std::fs::create_dir(gold.join("zzz.mol")).unwrap();
    let out = clefeval(&["recognition", "--gold", path(gold), "--run", path(&run)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("zzz.mol: is a folder, not a regular file"),
        "{stderr}"
    );
}

#[test]
fn the_progress_bar_knows_every_file_to_read_before_the_first() {
    use clefeval::recognition::worker::{Pool, WorkerCommand};
    let g = goldens();
    // A second run of three of the hand-made files.
    let tmp = scratch("progress");
    let second = tmp.path().join("second");
    std::fs::create_dir_all(&second).unwrap();
    for name in [
        "manual_star_atom",
        "stereo_flipped_centre",
        "unreadable_empty",
    ] {
        let file = format!("{name}.mol");
        std::fs::copy(g.join("runs/handmade").join(&file), second.join(&file)).unwrap();
    }
    let pool = Pool {
        command: WorkerCommand::clefeval(env!("CARGO_BIN_EXE_clefeval")),
        jobs: 2,
        timeout: std::time::Duration::from_secs(10),
    };
    let bar = indicatif::ProgressBar::hidden();
    let runs = [g.join("runs/handmade"), second.clone()];
    clefeval::recognition::evaluate(
        &[g.join("gold")],
        &clefeval::inputs::Run::each(&runs),
        &pool,
        &bar,
        false,
        None,
        &Default::default(),
    )
    .unwrap();
    // 17 gold files read once, 16 hand-made files paired (`missing_file`
    // has none) and the 3 of the second run, refused ones included.
    assert_eq!(bar.length(), Some(17 + 16 + 3));
    assert_eq!(bar.position(), 17 + 16 + 3);
}
