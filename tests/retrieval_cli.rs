//! `clefeval prior-art` and `clefeval passage` through the binary: the
//! JSON against the verified expected files of `goldens/passage/`, the
//! trec, CSV and table layouts against the same numbers, the thread count,
//! the input errors, hostile run files beside a good run, and `compare`
//! on the commands' results.

use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use tempfile::TempDir;

const TOLERANCE: f64 = 1e-12;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("goldens/passage")
}

/// Runs the binary in `goldens/passage`: (exit code, stdout, stderr).
fn clefeval<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run clefeval");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The command line that writes the expected file `expected`: its qrels,
/// groups and settings; its runs as their folder when they are all of it.
fn command_of(expected: &Value) -> Vec<String> {
    let s = &expected["settings"];
    let mut args: Vec<String> = vec![
        expected["task"].as_str().unwrap().into(),
        "--qrels".into(),
        expected["qrels"].as_str().unwrap().into(),
        "--order".into(),
        s["order"].as_str().unwrap().into(),
        "--cutoff".into(),
        s["cutoff"].to_string(),
        "--ndcg-base".into(),
        s["ndcg_base"].to_string(),
        "--min-relevance".into(),
        s["min_relevance"].to_string(),
    ];
    if let Some(groups) = expected["groups"].as_str() {
        args.extend(["--groups".into(), groups.into()]);
    }
    if s["keep_headings"] == true {
        args.push("--keep-headings".into());
    }
    let files: Vec<&str> = (expected["runs"].as_array().unwrap().iter())
        .map(|r| r["file"].as_str().unwrap())
        .collect();
    let folder = Path::new(files[0]).parent().unwrap();
    let mut in_folder: Vec<String> = std::fs::read_dir(root().join(folder))
        .unwrap()
        .map(|e| folder.join(e.unwrap().file_name()).display().to_string())
        .collect();
    in_folder.sort();
    if in_folder == files {
        args.extend(["--run".into(), folder.display().to_string()]);
    } else {
        for file in files {
            args.extend(["--run".into(), file.into()]);
        }
    }
    args
}

/// Every leaf of `v` by its path, and every array's length as `path.len`.
fn leaves(v: &Value, at: &str, out: &mut HashMap<String, Value>) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                leaves(v, &format!("{at}.{k}"), out);
            }
        }
        Value::Array(items) => {
            out.insert(format!("{at}.len"), Value::from(items.len()));
            for (i, v) in items.iter().enumerate() {
                leaves(v, &format!("{at}[{i}]"), out);
            }
        }
        leaf => {
            out.insert(at.to_owned(), leaf.clone());
        }
    }
}

/// The differences of `actual` from `expected` over the expected file's
/// result fields (not the inputs it names): floats within the tolerance,
/// everything else exactly.
fn differences(actual: &Value, expected: &Value) -> Vec<String> {
    let mut want = HashMap::new();
    for key in ["measures", "columns", "runs"] {
        leaves(&expected[key], key, &mut want);
    }
    let mut got = HashMap::new();
    leaves(actual, "", &mut got);
    let mut out = Vec::new();
    for (path, e) in want {
        if path.ends_with(".file") {
            continue;
        }
        let a = got.get(&format!(".{path}")).unwrap_or(&Value::Null);
        let same = match (a.as_f64(), e.as_f64()) {
            (Some(x), Some(y)) if e.is_f64() => (x - y).abs() <= TOLERANCE,
            _ => a == &e,
        };
        if !same {
            out.push(format!("{path}: {a} != {e}"));
        }
    }
    out.sort();
    out
}

/// The command of `expected_file` with `-f json` and its document.
fn json_of(expected: &Value, extra: &[&str]) -> (Value, String) {
    let mut args = command_of(expected);
    args.extend(["-f".into(), "json".into()]);
    args.extend(extra.iter().map(|s| s.to_string()));
    let (code, out, err) = clefeval(&args);
    assert_eq!(code, 0, "{args:?}: {err}");
    (serde_json::from_str(&out).unwrap(), out)
}

fn check_json(expected_file: &str) {
    let expected = read_json(&root().join(expected_file));
    let (actual, text) = json_of(&expected, &[]);
    let diffs = differences(&actual, &expected);
    assert!(
        diffs.is_empty(),
        "{expected_file}: {} differences: {:#?}",
        diffs.len(),
        &diffs[..diffs.len().min(20)]
    );
    assert_eq!(actual["task"], expected["task"]);
    // The version right after the task.
    let head = format!(
        "{{\n  \"task\": \"{}\",\n  \"version\": \"{}\",\n",
        expected["task"].as_str().unwrap(),
        env!("CARGO_PKG_VERSION")
    );
    assert!(text.starts_with(&head), "{}", &text[..80]);
}

macro_rules! golden {
    ($($name:ident => $file:expr,)*) => {$(
        #[test]
        fn $name() {
            check_json($file);
        }
    )*};
}

golden! {
    json_prior_art_default => "expected/prior-art.default.json",
    json_prior_art_order_score => "expected/prior-art.order-score.json",
    json_prior_art_cutoff_20 => "expected/prior-art.cutoff-20.json",
    json_prior_art_ndcg_base_2 => "expected/prior-art.ndcg-base-2.json",
    json_prior_art_min_relevance_2 => "expected/prior-art.min-relevance-2.json",
    json_passage_default => "expected/passage.default.json",
    json_passage_order_score => "expected/passage.order-score.json",
    json_passage_cutoff_20 => "expected/passage.cutoff-20.json",
    json_passage_ndcg_base_2 => "expected/passage.ndcg-base-2.json",
    json_passage_min_relevance_2 => "expected/passage.min-relevance-2.json",
    json_passage_keep_headings => "expected/passage.keep-headings.json",
    json_passage_6col_default => "expected/passage-6col.default.json",
    json_hand_prior_art_default => "hand/expected/prior-art.default.json",
    json_hand_prior_art_order_score => "hand/expected/prior-art.order-score.json",
    json_hand_prior_art_ndcg_base_2 => "hand/expected/prior-art.ndcg-base-2.json",
    json_hand_passage_default => "hand/expected/passage.default.json",
    json_hand_passage_order_score => "hand/expected/passage.order-score.json",
    json_hand_passage_ndcg_base_2 => "hand/expected/passage.ndcg-base-2.json",
    json_hand_passage_keep_headings => "hand/expected/passage.keep-headings.json",
    json_demo_default => "demo/expected/passage.default.json",
    json_demo_order_score => "demo/expected/passage.order-score.json",
}

/// The output of the command of `expected` in `format`.
fn output_of(expected: &Value, format: &str, extra: &[&str]) -> String {
    let mut args = command_of(expected);
    args.extend(["-f".into(), format.into()]);
    args.extend(extra.iter().map(|s| s.to_string()));
    let (code, out, err) = clefeval(&args);
    assert_eq!(code, 0, "{err}");
    out
}

/// Each mean of a run of the expected file, `(label, measure) → value`,
/// labels `all` and `all:GROUP`; `num_q` among the measures.
fn means(run: &Value, measures: &[String]) -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    let groups = run["groups"].as_object().unwrap();
    let summaries = std::iter::once(("all".to_string(), &run["all"]))
        .chain(groups.iter().map(|(g, s)| (format!("all:{g}"), s)));
    for (label, summary) in summaries {
        for m in measures.iter().chain(&["num_q".to_string()]) {
            out.push((label.clone(), m.clone(), summary[m].clone()));
        }
    }
    out
}

fn names(expected: &Value, key: &str) -> Vec<String> {
    (expected[key].as_array().unwrap().iter())
        .map(|m| m.as_str().unwrap().to_owned())
        .collect()
}

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

fn check_trec(expected_file: &str) {
    let expected = read_json(&root().join(expected_file));
    let (json, _) = json_of(&expected, &[]);
    let text = output_of(&expected, "trec", &[]);
    let mut values: HashMap<(String, String, String), String> = HashMap::new();
    let mut run = String::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('\t').collect();
        assert_eq!(cells.len(), 3, "{line:?}");
        if cells[0] == "runid" {
            run = cells[2].to_owned();
            continue;
        }
        let key = (run.clone(), cells[0].to_owned(), cells[1].to_owned());
        assert!(values.insert(key, cells[2].to_owned()).is_none(), "{line}");
    }
    let measures = names(&expected, "measures");
    let columns = names(&expected, "columns");
    let mut checked = 0;
    for (r, want) in expected["runs"].as_array().unwrap().iter().enumerate() {
        let name = want["run"].as_str().unwrap();
        let got = |m: &str, t: &str| values.get(&(name.into(), m.into(), t.into())).cloned();
        for (i, row) in want["topics"].as_array().unwrap().iter().enumerate() {
            let topic = row[0].as_str().unwrap();
            for (c, column) in columns.iter().enumerate().skip(2) {
                let cell = got(column, topic);
                if row[1] == "missing" {
                    assert_eq!(cell, None, "{name} {topic}: a missing topic prints no rows");
                    continue;
                }
                let cell = cell.unwrap();
                let value: f64 = cell.parse().unwrap();
                // The shortest decimal of its double, within the tolerance of
                // the expected value, and the same number as the JSON's.
                assert_eq!(value.to_string(), cell);
                assert!(close(value, row[c].as_f64().unwrap(), TOLERANCE));
                let json_value = json["runs"][r]["topics"][i][c].as_f64().unwrap();
                assert!(close(value, json_value, 1e-15));
                checked += 1;
            }
        }
        for (label, measure, want) in means(want, &measures) {
            match want.as_f64() {
                Some(w) => {
                    let v: f64 = got(&measure, &label).unwrap().parse().unwrap();
                    assert!(close(v, w, TOLERANCE), "{name} {label} {measure}");
                    checked += 1;
                }
                None => assert_eq!(got(&measure, &label), None),
            }
        }
    }
    assert!(checked > 400, "{checked}");
}

#[test]
fn trec_lines_read_back_to_the_expected_values() {
    check_trec("expected/prior-art.default.json");
    check_trec("expected/passage.default.json");
    check_trec("demo/expected/passage.order-score.json");
}

#[test]
fn csv_carries_the_expected_values() {
    for file in [
        "expected/prior-art.cutoff-20.json",
        "expected/passage.keep-headings.json",
    ] {
        let expected = read_json(&root().join(file));
        let text = output_of(&expected, "csv", &[]);
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        let measures = names(&expected, "measures");
        let mut want_header: Vec<String> = "run,topic,status,num_q,num_ret,num_rel,num_rel_ret"
            .split(',')
            .map(String::from)
            .collect();
        want_header.extend(measures.iter().cloned());
        assert_eq!(header, want_header);
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        let row_of = |run: &str, topic: &str| {
            rows.iter()
                .find(|r| &r[0] == run && &r[1] == topic)
                .unwrap_or_else(|| panic!("no row {run} {topic}"))
                .clone()
        };
        let mut count = 0;
        for run in expected["runs"].as_array().unwrap() {
            let name = run["run"].as_str().unwrap();
            for topic in run["topics"].as_array().unwrap() {
                let row = row_of(name, topic[0].as_str().unwrap());
                assert_eq!(&row[2], topic[1].as_str().unwrap());
                assert_eq!(&row[3], "");
                for c in 2..topic.as_array().unwrap().len() {
                    let v: f64 = row[c + 2].parse().unwrap();
                    assert!(close(v, topic[c].as_f64().unwrap(), TOLERANCE));
                }
                count += 1;
            }
            for (label, measure, want) in means(run, &measures) {
                let row = row_of(name, &label);
                assert_eq!(&row[2], "mean");
                let cell = &row[header.iter().position(|h| *h == measure).unwrap()];
                match want.as_f64() {
                    Some(w) => assert!(close(cell.parse().unwrap(), w, TOLERANCE)),
                    None => assert_eq!(cell, ""),
                }
            }
            count += 1 + run["groups"].as_object().unwrap().len();
        }
        assert_eq!(rows.len(), count, "{file}");
    }
}

#[test]
fn the_table_carries_the_expected_values_at_4_decimals() {
    let expected = read_json(&root().join("expected/passage.default.json"));
    let text = output_of(&expected, "table", &[]);
    let measures = names(&expected, "measures");
    let mut checked = 0;
    let mut maps = Vec::new();
    for run in expected["runs"].as_array().unwrap() {
        let name = run["run"].as_str().unwrap();
        let start = text.find(&format!("== run {name} (")).unwrap();
        let section = &text[start..];
        let section = &section[..section[3..].find("\n== ").map_or(section.len(), |e| e + 3)];
        let row_of = |label: &str| -> Vec<&str> {
            (section.lines())
                .find(|l| l.split_whitespace().next() == Some(label))
                .unwrap_or_else(|| panic!("{name}: no row {label}"))
                .split_whitespace()
                .collect()
        };
        for topic in run["topics"].as_array().unwrap() {
            let row = row_of(topic[0].as_str().unwrap());
            assert_eq!(row[1], topic[1].as_str().unwrap());
            for (cell, want) in row[2..].iter().zip(&topic.as_array().unwrap()[2..]) {
                let v: f64 = cell.parse().unwrap();
                assert!(
                    close(v, want.as_f64().unwrap(), 5.000_001e-5),
                    "{name} {cell} {want}"
                );
                checked += 1;
            }
        }
        // `all  mean of N  counts…  means…`
        let all = row_of("all");
        assert_eq!(all[1..3], ["mean", "of"]);
        assert_eq!(all[3], run["all"]["num_q"].to_string());
        for (cell, m) in all[7..].iter().zip(&measures) {
            let v: f64 = cell.parse().unwrap();
            assert!(close(v, run["all"][m].as_f64().unwrap(), 5.000_001e-5));
        }
        maps.push((run["all"]["MAP@100"].as_f64().unwrap(), name));
    }
    assert!(checked > 800, "{checked}");
    // The ranking: by mean MAP@100, higher first.
    maps.sort_by(|a, b| b.0.total_cmp(&a.0));
    let ranking = &text[text.find("== ranking (by mean MAP@100) ==").unwrap()..];
    let order: Vec<&str> = (ranking.lines().skip(3))
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(order, maps.iter().map(|m| m.1).collect::<Vec<_>>());
}

#[test]
fn output_is_the_same_on_one_and_two_threads() {
    for file in [
        "expected/prior-art.order-score.json",
        "expected/passage.default.json",
    ] {
        let expected = read_json(&root().join(file));
        for format in ["table", "csv", "json", "trec"] {
            let one = output_of(&expected, format, &["-j", "1"]);
            let two = output_of(&expected, format, &["--threads", "2"]);
            assert_eq!(one, two, "{file} {format}");
            assert!(!one.is_empty());
        }
    }
}

/// A fresh folder for one test's files, removed when dropped.
fn temp_dir(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("clefeval-retrieval-cli-{name}-"))
        .tempdir()
        .unwrap()
}

const DOC_QRELS: &str = "doc/qrels.txt";
const GOOD: &str = "doc/runs/lab4-short-PAC";

/// `prior-art` on the document qrels with `runs`, as JSON: (code, the
/// document or null, stderr).
fn prior_art(runs: &[&Path], extra: &[&str]) -> (i32, Value, String) {
    let mut args: Vec<String> = ["prior-art", "--qrels", DOC_QRELS, "-f", "json"]
        .map(String::from)
        .to_vec();
    for run in runs {
        args.extend(["--run".into(), run.display().to_string()]);
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    let (code, out, err) = clefeval(&args);
    (code, serde_json::from_str(&out).unwrap_or(Value::Null), err)
}

/// The good run's result alone, without its `file`.
fn good_alone() -> Value {
    let (code, doc, err) = prior_art(&[Path::new(GOOD)], &[]);
    assert_eq!(code, 0, "{err}");
    without_file(&doc["runs"][0])
}

fn without_file(run: &Value) -> Value {
    let mut run = run.clone();
    run.as_object_mut().unwrap().remove("file");
    run
}

#[test]
fn paths_that_do_not_exist_stop_before_scoring() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["prior-art", "--qrels", "no-such-qrels", "--run", GOOD],
            "--qrels no-such-qrels: no such file or folder",
        ),
        (
            &[
                "passage",
                "--qrels",
                "passage/qrels.txt",
                "--run",
                "passage/runs",
                "--run",
                "no-such-run",
            ],
            "--run no-such-run: no such file or folder",
        ),
        (
            &[
                "prior-art",
                "--qrels",
                DOC_QRELS,
                "--groups",
                "no-groups",
                "--run",
                GOOD,
            ],
            "--groups no-groups: no such file or folder",
        ),
        (
            &[
                "prior-art",
                "--qrels",
                DOC_QRELS,
                "--run",
                GOOD,
                "-o",
                "no-folder/out.txt",
            ],
            "cannot write no-folder/out.txt: folder no-folder does not exist",
        ),
    ];
    for (args, message) in cases {
        let (code, out, err) = clefeval(args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(out, "");
        assert_eq!(err, format!("clefeval: error: {message}\n"), "{args:?}");
    }
}

#[test]
fn two_runs_of_one_name_stop_naming_both() {
    let tmp = temp_dir("same-name");
    let dir = tmp.path();
    let other = dir.join("lab4-short-PAC.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, &std::fs::read(root().join(GOOD)).unwrap()).unwrap();
    std::fs::write(&other, gz.finish().unwrap()).unwrap();
    let (code, _, err) = prior_art(&[Path::new(GOOD), &other], &[]);
    assert_eq!(code, 2);
    assert!(err.contains(&other.display().to_string()), "{err}");
    assert!(err.contains(GOOD), "{err}");
    assert!(err.contains("run name `lab4-short-PAC`"), "{err}");
}

#[test]
fn bad_settings_are_refused_with_a_sentence() {
    let cases: [(&[&str], &str); 6] = [
        (
            &["--ndcg-base", "3"],
            "--ndcg-base must be 10 (the 2009 overview's) or 2, not 3",
        ),
        (&["--ndcg-base", "e"], "invalid value 'e' for '--ndcg-base"),
        (&["--cutoff", "0"], "--cutoff must be at least 1, not 0"),
        (&["--ranks", "5,0"], "--ranks must be at least 1, not 0"),
        (
            &["--min-relevance", "0"],
            "--min-relevance must be a grade of at least 1, not 0",
        ),
        (
            &["--keep-headings"],
            "--keep-headings applies to passage runs only",
        ),
    ];
    for (extra, message) in cases {
        let (code, doc, err) = prior_art(&[Path::new(GOOD)], extra);
        assert_eq!(code, 2, "{extra:?}");
        assert_eq!(doc, Value::Null);
        assert!(err.contains(message), "{extra:?}: {err}");
    }
    // `trec` is a format of these commands only.
    let (code, _, err) = clefeval(&["segmentation", "--gold", "x", "--run", "y", "-f", "trec"]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid value 'trec'"), "{err}");
}

/// Writes `bytes` as `dir/name` and scores it beside the good run: the
/// hostile run is rejected with a diagnostic naming it, the good run's
/// scores are as without it.
fn rejected_beside_the_good_run(dir: &Path, name: &str, bytes: &[u8], message: &str) {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    let (code, doc, err) = prior_art(&[Path::new(GOOD), &path], &[]);
    assert_eq!(code, 0, "{name}: {err}");
    assert_eq!(without_file(&doc["runs"][0]), good_alone(), "{name}");
    let run = &doc["runs"][1];
    assert_eq!(run["status"], "rejected", "{name}");
    // The first finding about a line (what the whole file looks like may
    // come before it).
    let lines = run["diagnostics"].as_array().unwrap().iter();
    let first = (lines.map(|d| d.as_str().unwrap()))
        .find(|d| !d.contains(": error: looks like "))
        .unwrap();
    let named = format!("{}", path.display());
    assert!(first.starts_with(&named), "{name}: {first}");
    assert!(first.contains(message), "{name}: {first}");
    // Also on stderr, since the JSON is on stdout.
    assert!(err.contains(&named), "{name}: {err}");
    // Alone, no run can be scored: exit 2 naming it.
    let (code, _, err) = prior_art(&[&path], &[]);
    assert_eq!(code, 2, "{name}");
    assert!(err.contains("no run can be scored"), "{err}");
    assert!(err.contains(&named), "{err}");
}

#[test]
fn hostile_runs_are_rejected_and_the_good_run_unchanged() {
    let tmp = temp_dir("hostile");
    let dir = tmp.path();
    let mut junk = b"PAC-101 Q0 EP-1 one 2.0 t\n".to_vec();
    junk.extend((0u32..3000).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
    let mut long = b"PAC-101 Q0 EP-1 1 2.0 ".to_vec();
    long.extend(std::iter::repeat_n(b'x', 10 << 20));
    long.push(b'\n');
    let cases: [(&str, &[u8], &str); 7] = [
        ("junk", &junk, ":1: error: rank `one` is not a number"),
        (
            "nul",
            b"PAC-101 Q0 EP-1 1 2.0 t\nPAC-101 Q0 EP\x00-2 2 1.0 t\n",
            ":2: error: binary data (a NUL byte)",
        ),
        (
            "columns",
            b"PAC-101 Q0 EP-1 1\n",
            ":1: error: expected `topic Q0 doc rank score [tag]` (5 or 6 columns), found 4 columns",
        ),
        (
            "passage-lines",
            b"PAC-101 Q0 EP-1 /p[1] 1 2.0\n",
            ":1: error:",
        ),
        ("corrupt.gz", b"\x1f\x8b\x08\x00garbage", ": error:"),
        ("empty.gz", b"", ": error: empty file: not gzip data"),
        ("long", &long, ":1: error: line longer than 64 KiB"),
    ];
    for (name, bytes, message) in cases {
        rejected_beside_the_good_run(dir, name, bytes, message);
    }
}

#[test]
fn a_passage_run_given_to_prior_art_and_back_is_rejected() {
    let (code, out, err) = clefeval(&[
        "passage",
        "--qrels",
        "passage/qrels.txt",
        "--run",
        "passage/runs/lab1-bm25-PSG",
        "--run",
        GOOD,
        "-f",
        "json",
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(err, "", "-q: nothing on stderr");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["runs"][0]["status"], "ok");
    assert_eq!(doc["runs"][1]["status"], "rejected");
    let diagnostics = &doc["runs"][1]["diagnostics"];
    assert_eq!(
        diagnostics[0],
        format!(
            "{GOOD}: error: looks like a document run (no XPath in column 4): \
             `clefeval prior-art` scores it"
        )
    );
    assert!(
        diagnostics[1]
            .as_str()
            .unwrap()
            .starts_with(&format!("{GOOD}:1: error:"))
    );
}

/// A run of the other task, or qrels given as a run, is named for what it
/// looks like, and the line given for a rejected run is bounded: the first
/// four findings, then how many more.
#[test]
fn a_rejected_run_says_what_it_looks_like_in_a_bounded_line() {
    let qrels = "doc/qrels.txt";
    let (code, _, err) = clefeval(&["prior-art", "--qrels", qrels, "--run", qrels]);
    assert_eq!(code, 2);
    let line = err
        .lines()
        .find(|l| l.starts_with("run qrels.txt rejected:"))
        .unwrap();
    assert!(
        line.starts_with(&format!(
            "run qrels.txt rejected: {qrels}: error: looks like a qrels file \
             (topic, iteration, document, relevance), not a run; "
        )),
        "{line}"
    );
    assert_eq!(line.matches(": error: ").count(), 4, "{line}");
    assert!(
        line.ends_with("more (--format json lists every one)"),
        "{line}"
    );
    assert!(line.len() < 600, "{} characters: {line}", line.len());
    // Passage qrels, given to either task as a run.
    let qrels = "passage/qrels.txt";
    for (task, judged) in [("prior-art", "doc/qrels.txt"), ("passage", qrels)] {
        let (code, _, err) = clefeval(&[task, "--qrels", judged, "--run", qrels]);
        assert_eq!(code, 2);
        assert!(
            err.contains(&format!(
                "run qrels.txt rejected: {qrels}: error: looks like a passage qrels file"
            )),
            "{task}: {err}"
        );
    }
}

#[test]
fn crlf_bom_and_latin1_runs_score_like_the_clean_file() {
    let tmp = temp_dir("crlf");
    let dir = tmp.path();
    let clean = std::fs::read_to_string(root().join(GOOD)).unwrap();
    let crlf = dir.join("lab4-short-PAC");
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend(clean.replace('\n', "\r\n").bytes());
    std::fs::write(&crlf, bytes).unwrap();
    let (code, doc, err) = prior_art(&[&crlf], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(without_file(&doc["runs"][0]), good_alone());
    // A Latin-1 byte in a document id: ids are compared as bytes, the run
    // is scored and the good run is unchanged.
    let latin1 = dir.join("latin1");
    std::fs::write(
        &latin1,
        b"PAC-101 Q0 EP-\xe9 1 2.0 t\nPAC-101 Q0 EP-\xe9 2 1.0 t\n",
    )
    .unwrap();
    let (code, doc, err) = prior_art(&[Path::new(GOOD), &latin1], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(without_file(&doc["runs"][0]), good_alone());
    let run = &doc["runs"][1];
    assert_eq!(run["status"], "ok");
    assert_eq!(run["duplicates"][0]["doc"], "EP-\u{fffd}");
    assert_eq!(run["duplicates"][0]["line"], 2);
}

#[test]
fn a_folder_with_no_run_file_is_rejected_in_its_place() {
    let tmp = temp_dir("empty-folder");
    let dir = tmp.path();
    let empty = dir.join("empty");
    std::fs::create_dir(&empty).unwrap();
    std::fs::create_dir(empty.join("sub")).unwrap();
    std::fs::write(empty.join(".hidden"), "PAC-101 Q0 EP-1 1 2.0 t\n").unwrap();
    let (code, doc, err) = prior_art(&[&empty, Path::new(GOOD)], &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(doc["runs"][0]["run"], "empty");
    assert_eq!(doc["runs"][0]["status"], "rejected");
    assert_eq!(
        doc["runs"][0]["diagnostics"][0],
        format!("{}: error: holds no run file", empty.display())
    );
    assert_eq!(without_file(&doc["runs"][1]), good_alone());
    let (code, _, err) = prior_art(&[&empty], &[]);
    assert_eq!(code, 2);
    assert!(err.contains("holds no run file"), "{err}");
}

#[test]
fn html_output_and_files() {
    let tmp = temp_dir("outputs");
    let dir = tmp.path();
    let (page, out) = (dir.join("page.html"), dir.join("out.json"));
    let (code, stdout, err) = clefeval(&[
        "passage",
        "--qrels",
        "demo/qrels.txt",
        "--run",
        "demo/runs",
        "-q",
        "-f",
        "json",
        "-o",
        out.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(stdout, "");
    let doc = read_json(&out);
    assert_eq!(doc["runs"].as_array().unwrap().len(), 3);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("lab2-lm-PSG"));
}

/// `compare` on two result files written by the commands.
fn compare(base: &Path, cur: &Path) -> (i32, String, String) {
    clefeval(&["compare", base.to_str().unwrap(), cur.to_str().unwrap()])
}

#[test]
fn compare_reads_the_results_of_these_commands() {
    let tmp = temp_dir("compare");
    let dir = tmp.path();
    let expected = read_json(&root().join("expected/passage.default.json"));
    let (doc, text) = json_of(&expected, &[]);
    let base = dir.join("base.json");
    std::fs::write(&base, &text).unwrap();
    let (code, out, err) = compare(&base, &base);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("passage: ") && out.contains(" 0 regressions"),
        "{out}"
    );
    // A run dropped.
    let mut dropped = doc.clone();
    dropped["runs"].as_array_mut().unwrap().remove(1);
    let cur = dir.join("dropped.json");
    std::fs::write(&cur, dropped.to_string()).unwrap();
    let (code, out, _) = compare(&base, &cur);
    assert_eq!(code, 1, "{out}");
    let lost: Vec<&str> = out.lines().filter(|l| l.contains("REGRESSION")).collect();
    assert_eq!(lost.len(), 1, "{out}");
    assert!(
        lost[0].starts_with("lab2-lm-PSG") && lost[0].contains("run"),
        "{out}"
    );
    // A topic value lowered by hand: the run's mean no longer follows
    // from its rows, and the file is refused.
    let mut lowered = doc.clone();
    let topic = lowered["runs"][0]["topics"][0][0]
        .as_str()
        .unwrap()
        .to_owned();
    let p5 = lowered["runs"][0]["topics"][0][5].as_f64().unwrap();
    lowered["runs"][0]["topics"][0][5] = Value::from(p5 - 0.1);
    std::fs::write(&cur, lowered.to_string()).unwrap();
    let (code, out, err) = compare(&base, &cur);
    assert_eq!(code, 2, "{out}");
    assert_eq!(topic, "tPSG-3");
    assert_eq!(
        err,
        format!(
            "clefeval: error: {}: $.runs[0].all.P@5: the file says 0.30666666666666664, its topic rows make 0.3\n",
            cur.display()
        )
    );
    // Other settings: not comparable.
    let cut_expected = read_json(&root().join("expected/passage.cutoff-20.json"));
    let (cut, text) = json_of(&cut_expected, &[]);
    assert_eq!(cut["settings"]["cutoff"], 20);
    std::fs::write(&cur, text).unwrap();
    let (code, _, err) = compare(&base, &cur);
    assert_eq!(code, 2);
    assert!(
        err.contains("different settings") && err.contains("$.settings.cutoff: 100"),
        "{err}"
    );
}

#[test]
fn a_topic_the_run_lost_is_a_regression_of_its_measures() {
    let tmp = temp_dir("compare-lost");
    let dir = tmp.path();
    // lab2-lm-PSG without its lines for tPSG-3: that topic scores zeros.
    let run = std::fs::read_to_string(root().join("passage/runs/lab2-lm-PSG")).unwrap();
    let kept: String = (run.lines())
        .filter(|l| !l.starts_with("tPSG-3 "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(kept.len() < run.len());
    let lost = dir.join("lab2-lm-PSG");
    std::fs::write(&lost, kept).unwrap();
    let score = |run: &str, out: &Path| {
        let args = [
            "passage",
            "--qrels",
            "passage/qrels.txt",
            "--run",
            run,
            "-f",
            "json",
        ];
        let (code, json, err) = clefeval(&args);
        assert_eq!(code, 0, "{err}");
        std::fs::write(out, json).unwrap();
    };
    let (base, cur) = (dir.join("base.json"), dir.join("cur.json"));
    score("passage/runs/lab2-lm-PSG", &base);
    score(lost.to_str().unwrap(), &cur);
    let (code, out, err) = compare(&base, &cur);
    assert_eq!(code, 1, "{out}{err}");
    let base_doc = read_json(&base);
    let row = (base_doc["runs"][0]["topics"].as_array().unwrap().iter())
        .find(|t| t[0] == "tPSG-3")
        .expect("tPSG-3 scored in the baseline");
    let p5 = row[5].as_f64().unwrap();
    assert!(p5 > 0.0, "P@5 of tPSG-3 in the baseline: {p5}");
    // Its P@5 falls to 0 and is named on its line.
    let line = format!("{:.4}", p5);
    assert!(
        out.lines().any(|l| l.contains("tPSG-3")
            && l.contains("P@5")
            && l.contains(&line)
            && l.ends_with("REGRESSION")),
        "{out}"
    );
    // Nothing of another topic changed.
    for l in out
        .lines()
        .filter(|l| l.ends_with("REGRESSION") || l.ends_with("improvement"))
    {
        assert!(l.contains("tPSG-3") || l.contains(" all "), "{l}\n{out}");
    }
}

#[test]
fn malformed_qrels_or_groups_stop_naming_file_and_line() {
    let tmp = temp_dir("gold");
    let dir = tmp.path();
    let qrels = dir.join("qrels.txt");
    std::fs::write(&qrels, b"PAC-101 0 EP-1 1\nPAC-101 0 EP\x002 1\n").unwrap();
    let groups = dir.join("groups.txt");
    std::fs::write(&groups, b"PAC-101 EN extra\n").unwrap();
    let cases = [
        (
            vec!["--qrels", qrels.to_str().unwrap()],
            format!("{}:2: error: binary data", qrels.display()),
        ),
        (
            vec!["--qrels", DOC_QRELS, "--groups", groups.to_str().unwrap()],
            format!("{}:1: error:", groups.display()),
        ),
    ];
    for (args, message) in cases {
        let mut all = vec!["prior-art", "--run", GOOD];
        all.extend(args);
        let (code, out, err) = clefeval(&all);
        assert_eq!(code, 2, "{err}");
        assert_eq!(out, "");
        assert!(
            err.starts_with(&format!("clefeval: error: {message}")),
            "{err}"
        );
    }
}

// Between runs: `--compare`, `--permutations`, `--seed`, `--correlate`.

/// The demo's passage runs scored with `extra`: (code, stdout, stderr).
fn demo_with(extra: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "passage",
        "--qrels",
        "demo/qrels.txt",
        "--groups",
        "demo/groups.txt",
        "--run",
        "demo/runs",
    ];
    args.extend(extra);
    clefeval(&args)
}

/// The demo's JSON with `extra`; the command must succeed.
fn demo_json(extra: &[&str]) -> Value {
    let mut args = vec!["-f", "json"];
    args.extend(extra);
    let (code, out, err) = demo_with(&args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

/// Each scored run's per-topic values of `measure`, from the JSON.
fn topic_values(doc: &Value, measure: &str) -> Vec<(String, Vec<f64>)> {
    let columns = doc["columns"].as_array().unwrap();
    let k = columns.iter().position(|c| c == measure).unwrap();
    (doc["runs"].as_array().unwrap().iter())
        .filter(|r| r["status"] == "ok")
        .map(|r| {
            let rows = r["topics"].as_array().unwrap();
            let values = rows.iter().map(|row| row[k].as_f64().unwrap()).collect();
            (r["run"].as_str().unwrap().to_owned(), values)
        })
        .collect()
}

/// Student's t with 3 degrees of freedom, two-sided:
/// p = 1 − (2/π)(x/(1 + x²) + atan x) with x = |t|/√3.
fn t3_two_sided(t: f64) -> f64 {
    let x = t.abs() / 3f64.sqrt();
    1.0 - 2.0 / std::f64::consts::PI * (x / (1.0 + x * x) + x.atan())
}

#[test]
fn compare_on_the_demo_matches_an_exact_hand_computation() {
    let doc = demo_json(&["--compare", "MAP@100"]);
    let runs = topic_values(&doc, "MAP@100");
    assert_eq!(runs.len(), 3);
    let comparisons = doc["comparisons"].as_array().unwrap();
    assert_eq!(comparisons.len(), 1);
    let c = &comparisons[0];
    assert_eq!(c["measure"], "MAP@100");
    assert_eq!(
        (&c["topics"], &c["permutations"], &c["seed"]),
        (&Value::from(4), &Value::from(10_000), &Value::from(0))
    );
    let pairs = c["pairs"].as_array().unwrap();
    // (0, 1), (0, 2), (1, 2).
    let order = [(0, 1), (0, 2), (1, 2)];
    assert_eq!(pairs.len(), 3);
    let (mut rand_p, mut t_p, mut exact_p) = (Vec::new(), Vec::new(), Vec::new());
    for (pair, &(i, j)) in pairs.iter().zip(&order) {
        let (a, b) = (&runs[i], &runs[j]);
        assert_eq!(
            (pair["a"].as_str(), pair["b"].as_str()),
            (Some(&*a.0), Some(&*b.0))
        );
        let d: Vec<f64> = a.1.iter().zip(&b.1).map(|(x, y)| x - y).collect();
        let n = d.len() as f64;
        let mean = d.iter().sum::<f64>() / n;
        assert!(close(
            pair["mean_difference"].as_f64().unwrap(),
            mean,
            1e-12
        ));
        // Paired t-test, by hand with the closed form of the df = 3 tail.
        let s = (d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        let t = mean / (s / n.sqrt());
        assert!(close(pair["t"].as_f64().unwrap(), t, 1e-12), "{pair}");
        assert_eq!(pair["df"], 3);
        let p = pair["t_p"].as_f64().unwrap();
        assert!(close(p, t3_two_sided(t), 1e-12), "{p} {}", t3_two_sided(t));
        // Randomization: the exact p over the 2^4 sign patterns, and the
        // sampled one within 5 standard errors of it.
        let observed = d.iter().sum::<f64>().abs();
        let extreme = (0..16u32)
            .filter(|m| {
                let t: f64 = (d.iter().enumerate())
                    .map(|(i, x)| if m >> i & 1 == 1 { -x } else { *x })
                    .sum();
                t.abs() >= observed - 1e-9
            })
            .count();
        let exact = extreme as f64 / 16.0;
        exact_p.push(exact);
        let sampled = pair["randomization_p"].as_f64().unwrap();
        let se = (exact * (1.0 - exact) / 10_000.0).sqrt();
        assert!((sampled - exact).abs() <= 5.0 * se, "{sampled} vs {exact}");
        rand_p.push(sampled);
        t_p.push(p);
    }
    // The demo's AP@100: acme 5/6, 1/2, 2/3, 1/2; lab2 1, 1, 2/3, 1; lab3
    // 1, 1, 0, 1. acme − lab2: d = −1/6, −1/2, 0, −1/2, mean −7/24, s =
    // 1/4, t = −7/3; only the 4 patterns that keep the three nonzero signs
    // alike reach |T| = 7/6 (p = 4/16). acme − lab3: 14 of 16 reach 1/2.
    // lab2 − lab3: d = 0, 0, 2/3, 0, every pattern as extreme.
    assert!(close(pairs[0]["t"].as_f64().unwrap(), -7.0 / 3.0, 1e-12));
    assert_eq!(exact_p, [0.25, 0.875, 1.0]);
    // Holm over the 3 pairs, by hand on the printed p-values.
    for (key, p) in [("randomization_p_holm", &rand_p), ("t_p_holm", &t_p)] {
        let mut sorted: Vec<(f64, usize)> = p.iter().copied().zip(0..).collect();
        sorted.sort_by(|x, y| x.0.total_cmp(&y.0));
        let mut running = 0.0f64;
        for (k, (v, i)) in sorted.into_iter().enumerate() {
            running = running.max(((3 - k) as f64 * v).min(1.0));
            let got = pairs[i][key].as_f64().unwrap();
            assert!(
                close(got, running, 1e-12),
                "{key} of pair {i}: {got} != {running}"
            );
        }
    }
}

/// A result file with comparisons, as the library's values give it: the
/// evaluation's fields, then `comparisons`.
#[derive(serde::Serialize)]
struct WithComparisons<'a> {
    #[serde(flatten)]
    evaluation: &'a clefeval::retrieval::Evaluation,
    comparisons: Vec<clefeval::retrieval::significance::Comparison>,
}

#[test]
fn compare_through_the_command_is_the_library_s() {
    use clefeval::report::to_json;
    use clefeval::retrieval::significance::compare_runs;
    use clefeval::retrieval::{Settings, Task, evaluate};
    let doc_dir = root().join("doc");
    let mut files: Vec<PathBuf> = std::fs::read_dir(doc_dir.join("runs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut evaluation = evaluate(
        &Settings::new(Task::PriorArt),
        &doc_dir.join("qrels.txt"),
        Some(&doc_dir.join("groups.txt")),
        &clefeval::inputs::Run::each(&files),
    )
    .unwrap();
    // The command adds the digests of its inputs to the library's value.
    let named = [
        ("qrels", vec![doc_dir.join("qrels.txt")]),
        ("groups", vec![doc_dir.join("groups.txt")]),
        ("run", files.clone()),
    ];
    evaluation.inputs = (named.iter())
        .flat_map(|(role, paths)| clefeval::inputs::digest_inputs(role, paths, &[], None))
        .collect();
    let mut args: Vec<String> = vec!["prior-art".into(), "--qrels".into()];
    args.push(doc_dir.join("qrels.txt").display().to_string());
    args.extend([
        "--groups".into(),
        doc_dir.join("groups.txt").display().to_string(),
    ]);
    for f in &files {
        args.extend(["--run".into(), f.display().to_string()]);
    }
    args.extend(["-f".into(), "json".into()]);
    // Without --compare: the evaluation's JSON, byte for byte.
    let (code, plain, err) = clefeval(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(plain, to_json(&evaluation) + "\n");
    let cases: [(&[&str], &[&str], usize, u64); 2] = [
        (
            &["--compare", "MAP@100", "--compare", "P@10"],
            &["MAP@100", "P@10"],
            10_000,
            0,
        ),
        (
            &[
                "--compare",
                "PRES@100",
                "--permutations",
                "2000",
                "--seed",
                "99",
            ],
            &["PRES@100"],
            2000,
            99,
        ),
    ];
    for (extra, measures, permutations, seed) in cases {
        let mut with = args.clone();
        with.extend(extra.iter().map(|s| s.to_string()));
        let (code, out, err) = clefeval(&with);
        assert_eq!(code, 0, "{err}");
        let comparisons = (measures.iter())
            .map(|m| compare_runs(&evaluation, m, permutations, seed).unwrap())
            .collect();
        let want = WithComparisons {
            evaluation: &evaluation,
            comparisons,
        };
        assert_eq!(out, to_json(&want) + "\n", "{extra:?}");
        // 4 runs: 6 pairs; the plain output's lines first.
        assert_eq!(want.comparisons[0].pairs.len(), 6);
        assert!(out.starts_with(plain.trim_end().trim_end_matches('}').trim_end()));
    }
}

#[test]
fn comparisons_are_the_same_on_one_and_two_threads() {
    let expected = read_json(&root().join("expected/prior-art.default.json"));
    let extra = [
        "--compare",
        "MAP@100",
        "--compare",
        "nDCG@100",
        "--correlate",
        "all,PRES@100",
    ];
    for format in ["table", "json", "csv"] {
        let one = output_of(&expected, format, &[&extra[..], &["-j", "1"]].concat());
        let two = output_of(&expected, format, &[&extra[..], &["-j", "2"]].concat());
        assert_eq!(one, two, "{format}");
    }
    let table = output_of(&expected, "table", &extra);
    assert!(
        table.contains("== runs compared by nDCG@100 ==\nnDCG@100: 4 runs, 28 topics"),
        "{table}"
    );
    assert!(
        table.contains("== correlation of the runs ==\nCorrelation of 4 runs"),
        "{table}"
    );
}

#[test]
fn the_seed_moves_the_randomization_p_and_not_the_t_test() {
    let pairs = |seed: &str| {
        let doc = demo_json(&["--compare", "MAP@100", "--seed", seed]);
        assert_eq!(doc["comparisons"][0]["seed"], seed.parse::<u64>().unwrap());
        doc["comparisons"][0]["pairs"].as_array().unwrap().clone()
    };
    let (zero, other) = (pairs("0"), pairs("12345"));
    assert_eq!(zero, pairs("0"), "the same seed, the same p-values");
    for (a, b) in zero.iter().zip(&other) {
        for key in ["mean_difference", "t", "t_p", "t_p_holm"] {
            assert_eq!(a[key], b[key], "{key}");
        }
    }
    // acme − lab2 has exact p 4/16: 10 000 draws from two seeds differ.
    assert_ne!(zero[0]["randomization_p"], other[0]["randomization_p"]);
    // No permutation fewer.
    let doc = demo_json(&["--compare", "MAP@100", "--permutations", "1"]);
    assert_eq!(doc["comparisons"][0]["permutations"], 1);
    for pair in doc["comparisons"][0]["pairs"].as_array().unwrap() {
        let p = pair["randomization_p"].as_f64().unwrap();
        assert!(p == 0.0 || p == 1.0, "{p}");
    }
}

#[test]
fn between_run_mistakes_exit_2_with_a_sentence() {
    // An unknown measure is refused before any scoring: the broken qrels
    // are never read.
    let tmp = temp_dir("between");
    let dir = tmp.path();
    let broken = dir.join("qrels.txt");
    std::fs::write(&broken, "not a qrels line\n").unwrap();
    let (code, out, err) = clefeval(&[
        "passage",
        "--qrels",
        broken.to_str().unwrap(),
        "--run",
        "demo/runs",
        "--compare",
        "MAP@10",
    ]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.starts_with("clefeval: error: --compare has an unknown measure `MAP@10` (known: P@5, ")
            && err.contains("MAP@100"),
        "{err}"
    );
    // A measure of the other settings is unknown under these.
    let (code, _, err) = demo_with(&["--cutoff", "20", "--compare", "MAP@100"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("unknown measure `MAP@100`") && err.contains("MAP@20"),
        "{err}"
    );
    let cases: [(&[&str], &str); 6] = [
        (
            &["--run", "demo/runs/acme-bm25-PSG", "--compare", "MAP@100"],
            "--compare MAP@100: comparing runs needs at least two scored runs, found 1",
        ),
        (
            &["--run", "demo/runs/acme-bm25-PSG", "--correlate", "all,EN"],
            "--correlate all,EN: correlating runs needs at least two scored runs, found 1",
        ),
        (
            &[
                "--run",
                "demo/runs",
                "--groups",
                "demo/groups.txt",
                "--correlate",
                "XX,all",
            ],
            "--correlate XX,all: `XX` is neither a topic group (known: all, EN, DE, FR) nor a measure",
        ),
        (
            &["--run", "demo/runs", "--correlate", "EN"],
            "two views A,B",
        ),
        (
            &["--run", "demo/runs", "--permutations", "0"],
            "--permutations must be at least 1, not 0",
        ),
        (
            &["--run", "demo/runs", "--seed=-1"],
            "invalid value '-1' for '--seed <N>'",
        ),
    ];
    for (extra, message) in cases {
        let mut args = vec!["passage", "--qrels", "demo/qrels.txt"];
        args.extend(extra);
        let (code, out, err) = clefeval(&args);
        assert_eq!((code, out.as_str()), (2, ""), "{extra:?}");
        assert!(err.contains(message), "{extra:?}: {err}");
    }
}

/// Kendall's τ-b (no ties here) and Spearman's ρ of two short lists, the
/// textbook way: (C − D) / (n(n − 1)/2) and 1 − 6Σd²/(n(n² − 1)).
fn tau_and_rho(x: &[f64], y: &[f64]) -> (f64, f64) {
    let n = x.len();
    let mut s = 0i32;
    for i in 0..n {
        for j in i + 1..n {
            s += ((x[i] - x[j]) * (y[i] - y[j])).signum() as i32;
        }
    }
    let rank = |v: &[f64], i: usize| v.iter().filter(|&&w| w < v[i]).count() as f64;
    let d2: f64 = (0..n).map(|i| (rank(x, i) - rank(y, i)).powi(2)).sum();
    let n = n as f64;
    (
        f64::from(s) / (n * (n - 1.0) / 2.0),
        1.0 - 6.0 * d2 / (n * (n * n - 1.0)),
    )
}

#[test]
fn correlate_on_the_demo_by_hand() {
    let doc = demo_json(&["--correlate", "EN,all", "--correlate", "MAP@100,nDCG@100"]);
    assert!(doc.get("comparisons").is_none());
    let correlations = doc["correlations"].as_array().unwrap();
    assert_eq!(correlations.len(), 2);
    let runs = doc["runs"].as_array().unwrap();
    let mean = |run: &Value, group: Option<&str>, m: &str| {
        let summary = match group {
            Some(g) => &run["groups"][g],
            None => &run["all"],
        };
        summary[m].as_f64().unwrap()
    };
    let views = [
        (
            runs.iter()
                .map(|r| mean(r, Some("EN"), "MAP@100"))
                .collect::<Vec<_>>(),
            runs.iter()
                .map(|r| mean(r, None, "MAP@100"))
                .collect::<Vec<_>>(),
        ),
        (
            runs.iter().map(|r| mean(r, None, "MAP@100")).collect(),
            runs.iter().map(|r| mean(r, None, "nDCG@100")).collect(),
        ),
    ];
    for (c, (a, b)) in correlations.iter().zip(&views) {
        assert_eq!(c["n"], 3);
        assert_eq!(c["values_a"], Value::from(a.clone()));
        assert_eq!(c["values_b"], Value::from(b.clone()));
        let (tau, rho) = tau_and_rho(a, b);
        assert!(
            close(c["kendall_tau_b"].as_f64().unwrap(), tau, 1e-12),
            "{c}"
        );
        assert!(
            close(c["spearman_rho"].as_f64().unwrap(), rho, 1e-12),
            "{c}"
        );
    }
    // By hand: EN's MAP@100 is 0.75, 0.8333, 0.5 (ranks 2, 3, 1) and the
    // overall one 0.625, 0.9167, 0.75 (ranks 1, 3, 2): pairs (1,2) and
    // (2,3) concordant, (1,3) discordant, τ-b = 1/3; Σd² = 2, ρ = 1/2.
    assert_eq!(correlations[0]["a"]["group"], "EN");
    assert_eq!(correlations[0]["b"]["measure"], "MAP@100");
    assert!(close(
        correlations[0]["kendall_tau_b"].as_f64().unwrap(),
        1.0 / 3.0,
        1e-12
    ));
    assert!(close(
        correlations[0]["spearman_rho"].as_f64().unwrap(),
        0.5,
        1e-12
    ));
}

#[test]
fn csv_and_trec_keep_their_layout_and_the_tables_go_to_stderr() {
    let extra = ["--compare", "MAP@100", "--correlate", "EN,all"];
    for format in ["csv", "trec"] {
        let (code, plain, plain_err) = demo_with(&["-f", format]);
        assert_eq!(code, 0);
        let (code, out, err) = demo_with(&[&["-f", format][..], &extra].concat());
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, plain, "{format}");
        let tables = err.strip_prefix(plain_err.as_str()).unwrap();
        assert!(
            tables.starts_with("\n== runs compared by MAP@100 ==\nMAP@100: 3 runs"),
            "{err}"
        );
        assert!(
            tables.contains("== correlation of the runs ==\nCorrelation of 3 runs"),
            "{err}"
        );
        let (code, out, err) = demo_with(&[&["-f", format, "-q"][..], &extra].concat());
        assert_eq!((code, out, err), (0, plain, String::new()));
    }
    // The table: the plain table, then the comparison's and correlation's.
    let (_, plain, _) = demo_with(&[]);
    let (_, table, _) = demo_with(&extra);
    let tail = table.strip_prefix(plain.as_str()).unwrap();
    let lines: Vec<&str> = tail.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "",
            "== runs compared by MAP@100 ==",
            "MAP@100: 3 runs, 4 topics, randomization test with 10000 permutations (seed 0)"
        ]
    );
    assert!(
        lines[5].starts_with("acme-bm25-PSG  lab3-rerank-PSG  0.6250  0.7500  -0.1250"),
        "{tail}"
    );
    assert!(
        tail.ends_with("Kendall's tau-b  0.3333\nSpearman's rho   0.5000\n"),
        "{tail}"
    );
}

#[test]
fn compare_ignores_the_comparisons_and_correlations() {
    let tmp = temp_dir("compare-between");
    let dir = tmp.path();
    let (plain, with) = (dir.join("plain.json"), dir.join("with.json"));
    let doc = demo_json(&[]);
    std::fs::write(&plain, doc.to_string()).unwrap();
    let doc = demo_json(&["--compare", "MAP@100", "--correlate", "EN,all"]);
    std::fs::write(&with, doc.to_string()).unwrap();
    for (base, cur) in [(&plain, &with), (&with, &plain), (&with, &with)] {
        let (code, out, err) = compare(base, cur);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains(" 0 regressions, 0 improvements"), "{out}");
    }
}

#[test]
fn the_html_page_shows_the_comparisons_when_asked() {
    let tmp = temp_dir("html-between");
    let dir = tmp.path();
    let page = |extra: &[&str]| {
        let path = dir.join("page.html");
        let (code, _, err) =
            demo_with(&[&["-q", "--html", path.to_str().unwrap()][..], extra].concat());
        assert_eq!(code, 0, "{err}");
        std::fs::read_to_string(&path).unwrap()
    };
    assert!(!page(&[]).contains("psg-comparisons"));
    let html = page(&["--compare", "MAP@100", "--compare", "MAP(D)"]);
    assert_eq!(html.matches("id=\"psg-comparisons\"").count(), 1);
    assert!(html.contains("<h3>MAP@100</h3>") && html.contains("<h3>MAP(D)</h3>"));
}

#[test]
fn the_demo_compares_its_passage_runs_and_shows_them_on_its_page() {
    let tmp = temp_dir("demo");
    let dir = tmp.path();
    let path = dir.join("demo.html");
    let (code, out, err) = clefeval(&["demo", "--html", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    // The same table as `--compare MAP@100` on the demo's runs.
    let (_, plain, _) = demo_with(&[]);
    let (_, with, _) = demo_with(&["--compare", "MAP@100"]);
    let comparison = with.strip_prefix(plain.as_str()).unwrap();
    assert!(comparison.starts_with("\n== runs compared by MAP@100 =="));
    assert!(
        out.contains(&format!("== clefeval passage: bundled runs ==\n{with}")),
        "{out}"
    );
    assert!(out.contains("The six tasks' report"), "{out}");
    let html = std::fs::read_to_string(&path).unwrap();
    for id in [
        "task-passage",
        "psg-ranking",
        "psg-means-bars",
        "psg-groups",
        "psg-topic-map",
        "psg-lists",
        "psg-comparisons",
    ] {
        assert_eq!(html.matches(&format!("id=\"{id}\"")).count(), 1, "#{id}");
    }
    let (flowchart, passage) = (
        html.find("id=\"task-flowchart\"").unwrap(),
        html.find("id=\"task-passage\"").unwrap(),
    );
    assert!(flowchart < passage && passage < html.find("id=\"psg-ranking\"").unwrap());
}
