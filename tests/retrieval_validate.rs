//! `clefeval validate --task prior-art|passage` run as the real binary on
//! the hand-made run files of `goldens/passage/validate/` (each error and
//! warning, one file per kind; the expected diagnostics are worked out in
//! that folder's README), and on generated runs: a topic over its limit
//! across interleaved lines, the per-file cap of diagnostics, special
//! files, exit statuses, the JSON, and memory that does not grow with the
//! run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use tempfile::TempDir;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn fixtures() -> PathBuf {
    Path::new(ROOT).join("goldens/passage/validate")
}

/// `clefeval validate ARGS` run in the fixtures folder.
fn validate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .arg("validate")
        .args(args)
        .current_dir(fixtures())
        .stdin(Stdio::null())
        .output()
        .expect("the clefeval binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 output")
}

fn expected(name: &str) -> String {
    let path = fixtures().join("expected").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A fresh scratch folder for one test, removed when dropped.
fn scratch(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("clefeval-rvalidate-{name}-"))
        .tempdir()
        .unwrap()
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn prior_art_fixtures_give_every_expected_diagnostic() {
    let out = validate(&[
        "--task",
        "prior-art",
        "--qrels",
        "doc-qrels.txt",
        "prior-art",
    ]);
    assert_eq!(stdout(&out), expected("prior-art.txt"));
    assert_eq!(out.status.code(), Some(1));
    // The kinds, one line each, as worked out in the README.
    let text = stdout(&out);
    for line in [
        "prior-art/errors-PAC:2: error: rank `two` is not a number",
        "prior-art/errors-PAC:4: error: score `NaN` is not a number",
        "prior-art/errors-PAC:5: error: a passage line (XPath in column 4) in a document run; \
         expected `topic Q0 doc rank score [tag]`",
        "prior-art/errors-PAC:6: error: expected `topic Q0 doc rank score [tag]` (5 or 6 \
         columns), found 4 columns",
        "prior-art/limit-PAC:1001: error: topic `V-1` has more than 1000 lines (this is its \
         1001st): the prior-art task takes at most 1000 a topic",
        "prior-art/warnings-PAC:4: warning: document `EP-1000001-A1` is listed again for topic \
         `V-1` (first at line 2): only one of its lines is scored",
        "prior-art/warnings-PAC:6: warning: rank 4 is below the rank 5 of line 5, the topic's \
         previous line: lines are ranked by the rank column, not by their order in the file",
        "prior-art/warnings-PAC:8: warning: rank 1 repeats the rank of line 7, the topic's \
         previous line: tied lines are ranked in file order",
        "prior-art/warnings-PAC:9: warning: topic `V-9` is not in the qrels: its lines are not \
         scored",
        "prior-art/warnings-PAC:10: warning: topic `V-1` comes back here after other topics (its \
         previous line is line 6): a topic's lines should be contiguous",
        "prior-art/warnings-PAC:11: warning: document `EP-1000002-A1` is listed again for topic \
         `V-1` (first at line 3): only one of its lines is scored",
        "prior-art/limit-PAC: rejected, 1 error, 0 warnings: 1003 lines, 2 topics",
        "4 files: 1 ok, 1 with warnings, 2 rejected",
    ] {
        assert!(text.lines().any(|l| l == line), "missing: {line}\n{text}");
    }
}

#[test]
fn passage_fixtures_give_every_expected_diagnostic() {
    let out = validate(&[
        "--task",
        "passage",
        "--qrels",
        "passage-qrels.txt",
        "passage",
    ]);
    assert_eq!(stdout(&out), expected("passage.txt"));
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    for line in [
        "passage/errors-PSG:2: error: XPath `2` does not start with `/` (a document run line?)",
        "passage/errors-PSG:3: error: expected `topic Q0 doc xpath rank score` (6 columns), \
         found 5 columns",
        "passage/limit-PSG:102: error: topic `W-1` has more than 100 documents (`EP-1300101-A1` \
         is its 101st): the passage task takes at most 100 a topic",
        "passage/folder-PSG.tar.gz: error: a tar run must hold exactly one regular file and \
         nothing else; its first entry is not a file",
        "passage/two-files-PSG.zip: error: a zip run must hold exactly one regular file; this \
         one holds 2",
        "passage/not-gzip-PSG.gz: error: unreadable: invalid gzip header",
        "passage/truncated-PSG.gz: error: unreadable after line 19: incomplete deflate stream",
        "passage/warnings-PSG:2: warning: heading passage `/patent-document/description/heading` \
         of `EP-1200001-A1`: heading lines are removed before scoring (kept with \
         --keep-headings)",
        "passage/warnings-PSG:3: warning: passage `EP-1200001-A1` `/patent-document/abstract/p` \
         is listed again for topic `W-1` (first at line 1): only one of its lines is scored",
        "passage/warnings-PSG:9: warning: passage `EP-1200003-A1` \
         `/patent-document/claims/claim` is listed again for topic `W-2` (first at line 7): \
         only one of its lines is scored",
        "passage/compressed-PSG.gz: ok: 4 lines, 2 topics",
        "9 files: 2 ok, 1 with warnings, 6 rejected",
    ] {
        assert!(text.lines().any(|l| l == line), "missing: {line}\n{text}");
    }
}

#[test]
fn clean_and_warned_runs_exit_0() {
    let out = validate(&["--task", "prior-art", "prior-art/clean-PAC"]);
    assert_eq!(
        stdout(&out),
        "prior-art/clean-PAC: ok: 5 lines, 2 topics\n1 file: 1 ok, 0 with warnings, 0 rejected\n"
    );
    assert_eq!(out.status.code(), Some(0));
    let out = validate(&[
        "--task",
        "passage",
        "passage/clean-PSG",
        "passage/compressed-PSG.gz",
    ]);
    assert_eq!(
        stdout(&out),
        "passage/clean-PSG: ok: 4 lines, 2 topics\n\
         passage/compressed-PSG.gz: ok: 4 lines, 2 topics\n\
         2 files: 2 ok, 0 with warnings, 0 rejected\n"
    );
    assert_eq!(out.status.code(), Some(0));
    let out = validate(&["--task", "prior-art", "prior-art/warnings-PAC"]);
    assert_eq!(out.status.code(), Some(0));
    // Without the qrels no topic is unknown: 5 warnings, not 6.
    assert!(stdout(&out).ends_with(
        "prior-art/warnings-PAC: ok, 5 warnings: 10 lines, 3 topics\n\
         1 file: 0 ok, 1 with warnings, 0 rejected\n"
    ));
}

#[test]
fn a_document_run_checked_as_passages_is_rejected_line_by_line() {
    let out = validate(&["--task", "passage", "prior-art/clean-PAC"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.starts_with(
        "prior-art/clean-PAC:2: error: XPath `1` does not start with `/` (a document run line?)\n"
    ));
    assert!(text.contains(
        "prior-art/clean-PAC:7: error: expected `topic Q0 doc xpath rank score` (6 columns), \
         found 5 columns\n"
    ));
    assert!(
        text.contains("prior-art/clean-PAC: rejected, 5 errors, 0 warnings: 5 lines, 0 topics\n")
    );
}

#[test]
fn exit_2_when_the_command_cannot_run() {
    let tmp = scratch("exit2");
    let dir = tmp.path();
    let cases: [(Vec<&str>, &str); 7] = [
        (
            vec!["--task", "passage", "nowhere-PSG"],
            "clefeval: error: nowhere-PSG: no such file or folder",
        ),
        (
            vec![
                "--task",
                "passage",
                "--qrels",
                "none.txt",
                "passage/clean-PSG",
            ],
            "clefeval: error: --qrels none.txt: no such file or folder",
        ),
        (
            vec![
                "--task",
                "passage",
                "--output",
                "no/such/out.txt",
                "passage/clean-PSG",
            ],
            "clefeval: error: cannot write no/such/out.txt: folder no/such does not exist",
        ),
        (
            vec!["--task", "passage", "--strict", "passage/clean-PSG"],
            "clefeval: error: --strict applies to flowchart files only",
        ),
        (
            vec!["--qrels", "doc-qrels.txt", "passage/clean-PSG"],
            "clefeval: error: --qrels applies to --task prior-art and --task passage only",
        ),
        (
            // Document qrels read as passage qrels: 4 columns.
            vec![
                "--task",
                "passage",
                "--qrels",
                "doc-qrels.txt",
                "passage/clean-PSG",
            ],
            "clefeval: error: doc-qrels.txt:2: expected `topic 0 doc xpath relevance` or \
             `topic Q0 doc xpath rank score`, found 4 columns",
        ),
        (
            vec!["--task", "passage", s(dir)],
            "no run file in the given folders",
        ),
    ];
    for (args, message) in cases {
        let out = validate(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
        assert_eq!(stdout(&out), "", "{args:?}");
    }
}

fn mkfifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

#[test]
fn special_files_and_folders_are_named_not_opened() {
    let tmp = scratch("special");
    let dir = tmp.path();
    let runs = dir.join("runs");
    std::fs::create_dir(&runs).unwrap();
    std::fs::copy(fixtures().join("passage/clean-PSG"), runs.join("a-PSG")).unwrap();
    mkfifo(&runs.join("b-PSG"));
    std::fs::create_dir(runs.join("c-PSG")).unwrap();
    std::fs::write(runs.join(".hidden"), "not a run").unwrap();
    let fifo = dir.join("fifo-PSG");
    mkfifo(&fifo);
    // A folder gives its files (the FIFO among them, not the sub-folder);
    // a FIFO named directly is refused the same way. Files are listed
    // sorted by path.
    let out = validate(&["--task", "passage", s(&runs), s(&fifo)]);
    let (r, f) = (runs.display(), fifo.display());
    assert_eq!(
        stdout(&out),
        format!(
            "{f}: error: is a FIFO (named pipe), not a regular file\n\
             {f}: rejected, 1 error, 0 warnings: 0 lines, 0 topics\n\
             {r}/a-PSG: ok: 4 lines, 2 topics\n\
             {r}/b-PSG: error: is a FIFO (named pipe), not a regular file\n\
             {r}/b-PSG: rejected, 1 error, 0 warnings: 0 lines, 0 topics\n\
             3 files: 1 ok, 0 with warnings, 2 rejected\n"
        )
    );
    assert_eq!(out.status.code(), Some(1));
    // A FIFO as the qrels stops the command before any run is read.
    let out = validate(&["--task", "passage", "--qrels", s(&fifo), s(&runs)]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!("clefeval: error: {f}: is a FIFO (named pipe), not a regular file\n")
    );
}

#[test]
fn json_and_csv_carry_the_same_findings() {
    let out = validate(&[
        "--task",
        "prior-art",
        "--qrels",
        "doc-qrels.txt",
        "--format",
        "json",
        "prior-art/errors-PAC",
        "prior-art/clean-PAC",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(json["task"], "validate");
    assert_eq!(json["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(json["checked_task"], "prior-art");
    assert_eq!(
        json["settings"],
        serde_json::json!({"qrels": "doc-qrels.txt", "max_lines_per_topic": 1000})
    );
    assert_eq!(
        json["summary"],
        serde_json::json!({"files": 2, "ok": 1, "warnings": 0, "rejected": 1})
    );
    let files = json["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    assert_eq!(
        files[0],
        serde_json::json!({
            "file": "prior-art/clean-PAC", "run": "clean-PAC", "status": "ok",
            "lines": 5, "topics": 2, "errors": 0, "warnings": 0, "diagnostics": [],
            "diagnostic_list": []
        })
    );
    let bad = &files[1];
    assert_eq!(bad["status"], "rejected");
    assert_eq!(
        (bad["errors"].as_u64(), bad["warnings"].as_u64()),
        (Some(6), Some(1))
    );
    assert_eq!(
        bad["diagnostics"][0],
        serde_json::json!({
            "file": "prior-art/errors-PAC", "line": 2, "severity": "error",
            "message": "rank `two` is not a number"
        })
    );
    assert_eq!(bad["diagnostic_list"], bad["diagnostics"]);
    let lines: Vec<u64> = bad["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [2, 3, 4, 5, 6, 7, 8]);

    let out = validate(&[
        "--task",
        "passage",
        "--format",
        "json",
        "passage/compressed-PSG.gz",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["checked_task"], "passage");
    assert_eq!(
        json["settings"],
        serde_json::json!({"qrels": null, "max_documents_per_topic": 100})
    );
    assert_eq!(json["files"][0]["run"], "compressed-PSG");

    let out = validate(&[
        "--task",
        "prior-art",
        "--format",
        "csv",
        "prior-art/clean-PAC",
        "prior-art/errors-PAC",
    ]);
    assert_eq!(
        stdout(&out),
        "file,run,status,errors,warnings,lines,topics\n\
         prior-art/clean-PAC,clean-PAC,ok,0,0,5,2\n\
         prior-art/errors-PAC,errors-PAC,rejected,6,1,8,1\n"
    );
}

#[test]
fn output_goes_to_the_named_file() {
    let tmp = scratch("output");
    let dir = tmp.path();
    let target = dir.join("report.txt");
    let out = validate(&[
        "--task",
        "prior-art",
        "--output",
        s(&target),
        "prior-art/clean-PAC",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "prior-art/clean-PAC: ok: 5 lines, 2 topics\n1 file: 1 ok, 0 with warnings, 0 rejected\n"
    );
}

#[test]
fn interleaved_topics_are_checked_over_all_their_lines() {
    // Topic A names 60 documents (lines 1–60), B one (line 61), then A
    // repeats line 2's passage (line 62, found across the blocks) and names
    // 41 more documents (lines 63–103): its 101st document, D101, is on
    // line 103. Line 104 repeats line 1's passage after the limit: once a
    // topic is over it, duplicates are no longer looked for.
    let tmp = scratch("interleaved");
    let dir = tmp.path();
    let run = dir.join("mixed-PSG");
    let mut text = String::new();
    for i in 1..=60 {
        text += &format!("A Q0 D{i} /p {i} 1\n");
    }
    text += "B Q0 D1 /p 1 1\n";
    text += "A Q0 D2 /p 61 1\n";
    for i in 61..=101 {
        text += &format!("A Q0 D{i} /p {} 1\n", i + 1);
    }
    text += "A Q0 D1 /p 103 1\n";
    std::fs::write(&run, text).unwrap();
    let out = validate(&["--task", "passage", s(&run)]);
    let r = run.display();
    assert_eq!(
        stdout(&out),
        format!(
            "{r}:62: warning: topic `A` comes back here after other topics (its previous line is \
             line 60): a topic's lines should be contiguous\n\
             {r}:62: warning: passage `D2` `/p` is listed again for topic `A` (first at line 2): \
             only one of its lines is scored\n\
             {r}:103: error: topic `A` has more than 100 documents (`D101` is its 101st): the \
             passage task takes at most 100 a topic\n\
             {r}: rejected, 1 error, 2 warnings: 104 lines, 2 topics\n\
             1 file: 0 ok, 0 with warnings, 1 rejected\n"
        )
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn diagnostics_past_the_cap_are_counted_in_one_line() {
    let tmp = scratch("cap");
    let dir = tmp.path();
    let run = dir.join("junk-PAC");
    let mut text = String::from("T Q0 D0 1 1\n");
    for i in 0..1500 {
        text += &format!("T Q0 D{i} x 1\n");
    }
    std::fs::write(&run, text).unwrap();
    let out = validate(&["--task", "prior-art", "--format", "json", s(&run)]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let file = &json["files"][0];
    assert_eq!(file["errors"], 1500);
    let listed = file["diagnostics"].as_array().unwrap();
    assert_eq!(listed.len(), 1001);
    assert_eq!(listed[999]["line"], 1001);
    let closing = serde_json::json!({
        "file": s(&run), "line": null, "severity": "error",
        "message": "500 more diagnostics not listed (errors: 500, warnings: 0)"
    });
    assert_eq!(listed[1000], closing);
    // The structured list's closing entry also carries the counts.
    let mut counted = closing;
    counted["suppressed"] = serde_json::json!({"errors": 500, "warnings": 0});
    assert_eq!(file["diagnostic_list"][1000], counted);
    assert_eq!(file["diagnostic_list"][999], listed[999]);
}

#[test]
fn flowchart_stays_the_default_task() {
    let args = ["goldens/flowchart/broken"];
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_clefeval"))
            .arg("validate")
            .args(extra)
            .args(args)
            .current_dir(ROOT)
            .output()
            .unwrap()
    };
    let default = run(&[]);
    let named = run(&["--task", "flowchart"]);
    assert_eq!(default.stdout, named.stdout);
    assert_eq!(default.status.code(), Some(1));
    assert_eq!(
        stdout(&default),
        std::fs::read_to_string(Path::new(ROOT).join("goldens/flowchart/validate-broken.expected"))
            .unwrap()
    );
}
