//! `clefeval compare` end to end: on goldens/compare (two genuine results,
//! the changes worked out in goldens/compare/README.md), and on result
//! files the binary writes for the goldens of every task, from gold and
//! runs changed on disk (a run, topic, document or structure dropped, a
//! topic read worse) to check that the gate catches each change, and
//! edited by hand (a value out of range, a summary changed, a field of the
//! wrong type) to check that such a file is refused, naming the path.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("goldens/compare")
        .join(name)
}

fn clefeval(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .args(args)
        .output()
        .expect("run clefeval");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn compare(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["compare"];
    all.extend_from_slice(args);
    clefeval(&all)
}

fn paths() -> (String, String) {
    (
        golden("baseline.json").display().to_string(),
        golden("current.json").display().to_string(),
    )
}

#[test]
fn the_compare_goldens_are_what_the_command_writes() {
    for (file, run) in [
        ("baseline.json", "recognizer-a"),
        ("current.json", "recognizer-b"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_clefeval"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["flowchart", "--gold", "goldens/flowchart/gold", "--run"])
            .arg(format!("r=goldens/flowchart/runs/{run}"))
            .args(["--format", "json", "--quiet"])
            .output()
            .expect("run clefeval");
        let want = std::fs::read(golden(file)).expect("golden");
        assert!(out.stdout == want, "{file}: run goldens/compare/make.sh");
    }
}

/// A figure's change as compare names it: `run|item|metric|verdict`.
fn change(run: &str, item: &str, metric: &str, verdict: &str) -> String {
    format!("{run}|{item}|{metric}|{verdict}")
}

/// The figures compared and the changes beyond `tolerance` (sorted, as
/// [`change`]) of flowchart result `cur` against `base`, worked out here
/// from the two files' figures (lower distances, higher F1s are better),
/// not by compare.
fn flowchart_changes(base: &Value, cur: &Value, tolerance: f64) -> (usize, Vec<String>) {
    let mut compared = 0;
    let mut changes = Vec::new();
    let mut number = |run: &str, item: &str, metric: &str, b: &Value, c: &Value, lower: bool| {
        compared += 1;
        let (b, c) = (b.as_f64().expect("number"), c.as_f64().expect("number"));
        let gain = if lower { b - c } else { c - b };
        if gain < -tolerance {
            changes.push(change(run, item, metric, "regression"));
        } else if gain > tolerance {
            changes.push(change(run, item, metric, "improvement"));
        }
    };
    let levels = ["basic", "intermediate", "complete"];
    let runs = |v: &Value| v["runs"].as_array().expect("runs").clone();
    let cur_runs = runs(cur);
    let mut absent = Vec::new();
    for b_run in runs(base) {
        let name = b_run["run"].as_str().expect("run");
        let Some(c_run) = cur_runs.iter().find(|r| r["run"] == name) else {
            absent.push(change(name, "all", "run", "regression"));
            continue;
        };
        let topics = |r: &Value| r["topics"].as_array().expect("topics").clone();
        let c_topics = topics(c_run);
        for bt in topics(&b_run) {
            let topic = bt["topic"].as_str().expect("topic");
            let Some(ct) = c_topics.iter().find(|t| t["topic"] == topic) else {
                absent.push(change(name, topic, "item", "regression"));
                continue;
            };
            for level in levels {
                let d = |t: &Value| t["levels"][level]["distance"].clone();
                number(name, topic, level, &d(&bt), &d(ct), true);
            }
            let f1 = |t: &Value| t["triplets"]["f1"].clone();
            number(name, topic, "triplet F1", &f1(&bt), &f1(ct), false);
        }
        let (bs, cs) = (&b_run["summary"], &c_run["summary"]);
        for level in levels {
            let m = |s: &Value| s["mean_distance"][level].clone();
            number(
                name,
                "summary",
                &format!("{level} mean"),
                &m(bs),
                &m(cs),
                true,
            );
            for (kind, word) in [("mean_nodes", "node"), ("mean_edges", "edge")] {
                let f = |s: &Value| s[kind][level]["f1"].clone();
                let metric = format!("{level} mean {word} F1");
                number(name, "summary", &metric, &f(bs), &f(cs), false);
            }
        }
        let f = |s: &Value| s["mean_triplets"]["f1"].clone();
        number(name, "summary", "mean triplet F1", &f(bs), &f(cs), false);
    }
    compared += absent.len();
    changes.extend(absent);
    changes.sort();
    (compared, changes)
}

/// `compare --format json` of files `base` and `cur` at `tolerance`: the
/// exit code, the figures compared and the changes that are no note
/// (sorted, as [`change`]).
fn compared_files(base: &str, cur: &str, tolerance: f64) -> (i32, usize, Vec<String>) {
    let tolerance = tolerance.to_string();
    let (code, out, err) = compare(&[base, cur, "--format", "json", "--tolerance", &tolerance]);
    assert!(code == 0 || code == 1, "{err}");
    let v: Value = serde_json::from_str(&out).expect("json");
    let mut list: Vec<String> = v["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .filter(|ch| ch["verdict"] != "note")
        .map(|ch| {
            let [run, item, metric, verdict] =
                ["run", "item", "metric", "verdict"].map(|k| ch[k].as_str().expect(k));
            change(run, item, metric, verdict)
        })
        .collect();
    list.sort();
    let count = |verdict: &str| list.iter().filter(|c| c.ends_with(verdict)).count() as u64;
    assert_eq!(v["regressions"].as_u64(), Some(count("|regression")));
    assert_eq!(v["improvements"].as_u64(), Some(count("|improvement")));
    let compared = v["compared"].as_u64().expect("compared") as usize;
    (code, compared, list)
}

fn read(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json")
}

#[test]
fn regression_beyond_tolerance_exits_1() {
    let (base, cur) = paths();
    let (code, out, _) = compare(&[&base, &cur]);
    assert_eq!(code, 1, "{out}");
    let regressions = out.lines().filter(|l| l.ends_with("REGRESSION")).count();
    assert_eq!(regressions, 13, "{out}");
    // recognizer-b dropped FC-0001's three label nodes: 1 - 31/37.
    let line = [
        "r",
        "FC-0001",
        "basic",
        "0.1026",
        "0.1622",
        "+0.0596",
        "REGRESSION",
    ];
    assert!(
        out.lines()
            .any(|l| l.split_whitespace().eq(line.iter().copied())),
        "{out}"
    );
    assert!(
        out.ends_with(
            "flowchart: 34 figures compared, 13 regressions, 17 improvements (tolerance 0)\n"
        ),
        "{out}"
    );
}

#[test]
fn the_changes_are_those_worked_out_from_the_two_files() {
    let (base, cur) = paths();
    let (b, c) = (read(&base), read(&cur));
    // The counts of goldens/compare/README.md: each way, at 0 and 0.15.
    for (from, to, (bv, cv), tolerance, counts) in [
        (&base, &cur, (&b, &c), 0.0, (1, 13, 17)),
        (&base, &cur, (&b, &c), 0.15, (1, 4, 6)),
        (&cur, &base, (&c, &b), 0.0, (1, 17, 13)),
    ] {
        let (code, compared, list) = compared_files(from, to, tolerance);
        let (want_compared, want) = flowchart_changes(bv, cv, tolerance);
        assert_eq!((compared, &list), (want_compared, &want), "{tolerance}");
        assert_eq!(compared, 34);
        let count = |v: &str| list.iter().filter(|c| c.ends_with(v)).count();
        assert_eq!(
            (code, count("|regression"), count("|improvement")),
            counts,
            "{tolerance}"
        );
    }
}

#[test]
fn unusable_inputs_exit_2_with_the_file_named() {
    let (base, _) = paths();
    let missing = golden("no-such.json").display().to_string();
    let (code, _, err) = compare(&[&base, &missing]);
    assert_eq!(code, 2);
    assert!(err.contains("no-such.json"), "{err}");

    let readme = golden("README.md").display().to_string();
    let (code, _, err) = compare(&[&base, &readme]);
    assert_eq!(code, 2);
    assert!(err.contains("README.md:1: not a JSON result file"), "{err}");
}

// ------------------------------------------- result files of the goldens

fn scratch() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("compare-strict");
        std::fs::create_dir_all(&dir).expect("scratch folder");
        dir
    })
}

/// The JSON a command writes for the goldens.
fn written(args: &[&str]) -> Value {
    let (code, out, err) = clefeval(args);
    assert!(code == 0 || code == 1, "{args:?}: {err}");
    serde_json::from_str(&out).expect("result JSON")
}

fn goldens(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("goldens")
        .join(rel)
        .display()
        .to_string()
}

/// The `--format json` result of `command` on `gold` and `runs` (paths,
/// or `NAME=PATH`).
fn score(command: &str, gold: &str, runs: &[String]) -> Value {
    let mut args = vec![command, "--gold", gold, "--format", "json", "--quiet"];
    for run in runs {
        args.extend(["--run", run]);
    }
    written(&args)
}

/// The `--format json` result of `command` on gold and runs under goldens/.
fn scored(command: &str, gold: &str, runs: &[&str]) -> Value {
    let runs: Vec<String> = runs.iter().map(|r| goldens(r)).collect();
    score(command, &goldens(gold), &runs)
}

/// Flowchart result of the goldens: two runs, six topics, three levels.
fn flowchart() -> &'static Value {
    static V: OnceLock<Value> = OnceLock::new();
    let runs = ["flowchart/runs/recognizer-a", "flowchart/runs/recognizer-b"];
    V.get_or_init(|| scored("flowchart", "flowchart/gold", &runs))
}

/// Segmentation result of the goldens: one run, two documents, 56 tolerances.
fn segmentation() -> &'static Value {
    static V: OnceLock<Value> = OnceLock::new();
    let runs = ["segmentation/run-osra"];
    V.get_or_init(|| scored("segmentation", "segmentation/gold", &runs))
}

/// Recognition result of the goldens: one run, 17 structures.
fn recognition() -> &'static Value {
    static V: OnceLock<Value> = OnceLock::new();
    let runs = ["recognition/runs/handmade"];
    V.get_or_init(|| scored("recognition", "recognition/gold", &runs))
}

/// A copy of the goldens folder `from` as scratch folder `to` (made
/// afresh), without the files `left_out` and with each file `name` of
/// `swapped` holding the golden file `with` instead; its path.
fn copied(from: &str, to: &str, left_out: &[&str], swapped: &[(&str, &str)]) -> String {
    let dest = scratch().join(to);
    let _ = std::fs::remove_dir_all(&dest);
    std::fs::create_dir_all(&dest).expect("scratch folder");
    for entry in std::fs::read_dir(goldens(from)).expect("golden folder") {
        let entry = entry.expect("entry");
        let name = entry.file_name().to_string_lossy().into_owned();
        if left_out.contains(&name.as_str()) {
            continue;
        }
        let source = match swapped.iter().find(|(n, _)| *n == name) {
            Some((_, with)) => PathBuf::from(goldens(with)),
            None => entry.path(),
        };
        std::fs::copy(source, dest.join(&name)).expect("copy");
    }
    dest.display().to_string()
}

/// Writes `value` as `name` in the scratch folder; its path.
fn file(name: &str, value: &Value) -> String {
    let path = scratch().join(name);
    std::fs::write(&path, value.to_string()).expect("write");
    path.display().to_string()
}

/// [`compared_files`] of two values written as `{name}-baseline.json` and
/// `{name}-current.json`.
fn compared_values(
    name: &str,
    base: &Value,
    cur: &Value,
    tolerance: f64,
) -> (i32, usize, Vec<String>) {
    let b = file(&format!("{name}-baseline.json"), base);
    let c = file(&format!("{name}-current.json"), cur);
    compared_files(&b, &c, tolerance)
}

/// `compare` of two values that cannot be compared: exit 2; stderr.
fn refused(name: &str, base: &Value, cur: &Value) -> String {
    let b = file(&format!("{name}-baseline.json"), base);
    let c = file(&format!("{name}-current.json"), cur);
    let (code, out, err) = compare(&[&b, &c, "--format", "json"]);
    assert_eq!(code, 2, "{name}: {out}");
    err
}

#[test]
fn real_results_compare_equal_to_themselves() {
    for (name, v) in [
        ("fc", flowchart()),
        ("seg", segmentation()),
        ("rec", recognition()),
    ] {
        let (code, _, list) = compared_values(&format!("self-{name}"), v, v, 0.0);
        assert_eq!((code, list.len()), (0, 0), "{name}");
    }
}

const RUN_A: &str = "flowchart/runs/recognizer-a";
const RUN_B: &str = "flowchart/runs/recognizer-b";

#[test]
fn a_dropped_run_or_topic_is_caught() {
    let base = flowchart();
    // recognizer-b not given this time.
    let only_a = scored("flowchart", "flowchart/gold", &[RUN_A]);
    let (code, _, list) = compared_values("drop-run", base, &only_a, 0.0);
    let want = vec![change("recognizer-b", "all", "run", "regression")];
    assert_eq!((code, list), (1, want));

    // A gold folder without FC-0003: the topic is absent from both runs,
    // and each run's means are over five topics.
    let gold = copied("flowchart/gold", "gold-without-fc3", &["FC-0003.txt"], &[]);
    let cur = score("flowchart", &gold, &[goldens(RUN_A), goldens(RUN_B)]);
    let (code, compared, list) = compared_values("drop-topic", base, &cur, 0.0);
    let (want_compared, want) = flowchart_changes(base, &cur, 0.0);
    assert_eq!((code, compared, &list), (1, want_compared, &want));
    for run in ["recognizer-a", "recognizer-b"] {
        assert!(
            list.contains(&change(run, "FC-0003", "item", "regression")),
            "{list:?}"
        );
    }

    // In table form too: the line names the run and the topic.
    let b = file("drop-topic-table-b.json", base);
    let c = file("drop-topic-table-c.json", &cur);
    let (code, out, _) = compare(&[&b, &c]);
    assert_eq!(code, 1);
    let line = out
        .lines()
        .find(|l| l.starts_with("recognizer-a  FC-0003"))
        .expect(&out);
    assert!(line.ends_with("REGRESSION"), "{out}");
}

#[test]
fn a_topic_read_worse_is_a_regression_at_each_level() {
    // recognizer-a's reading of FC-0002 swapped for recognizer-b's reading
    // of FC-0001, a diagram of another size and other labels.
    let run = copied(
        RUN_A,
        "worse/recognizer-a",
        &[],
        &[("FC-0002.txt", "flowchart/runs/recognizer-b/FC-0001.txt")],
    );
    let base = scored("flowchart", "flowchart/gold", &[RUN_A]);
    let cur = score("flowchart", &goldens("flowchart/gold"), &[run]);
    for tolerance in [0.0, 0.3] {
        let (code, compared, list) = compared_values("worse", &base, &cur, tolerance);
        let (want_compared, want) = flowchart_changes(&base, &cur, tolerance);
        assert_eq!(
            (code, compared, &list),
            (1, want_compared, &want),
            "{tolerance}"
        );
        for level in ["basic", "intermediate", "complete"] {
            let worse = change("recognizer-a", "FC-0002", level, "regression");
            assert!(list.contains(&worse), "{tolerance}: {list:?}");
        }
    }
}

#[test]
fn a_dropped_document_or_structure_is_a_regression() {
    // The segmentation gold and run without EP-1000002-A1.
    let dir = scratch().join("seg-gold");
    std::fs::create_dir_all(&dir).expect("folder");
    let csv = std::fs::read_to_string(goldens("segmentation/gold/gold.csv")).expect("gold");
    let kept: String = csv
        .lines()
        .filter(|l| !l.starts_with("EP-1000002-A1,"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.join("gold.csv"), kept).expect("write");
    let run = copied(
        "segmentation/run-osra",
        "seg-run/run-osra",
        &["EP-1000002-A1.sdf"],
        &[],
    );
    let cur = score("segmentation", &dir.display().to_string(), &[run]);
    let (code, _, list) = compared_values("drop-doc", segmentation(), &cur, 0.0);
    assert_eq!(code, 1);
    assert!(
        list.contains(&change("run-osra", "EP-1000002-A1", "item", "regression")),
        "{list:?}"
    );
    // Everything else that changed is a total over the documents.
    assert!(
        list.iter()
            .all(|c| c.starts_with("run-osra|summary|") || c.contains("EP-1000002-A1")),
        "{list:?}"
    );

    // The recognition gold without match_aromatic.
    let gold = copied("recognition/gold", "rec-gold", &["match_aromatic.mol"], &[]);
    let cur = score(
        "recognition",
        &gold,
        &[goldens("recognition/runs/handmade")],
    );
    let (code, _, list) = compared_values("drop-structure", recognition(), &cur, 0.0);
    assert_eq!(code, 1);
    assert!(
        list.contains(&change("handmade", "match_aromatic", "item", "regression")),
        "{list:?}"
    );
    assert!(
        list.iter()
            .all(|c| c.starts_with("handmade|summary|") || c.contains("match_aromatic")),
        "{list:?}"
    );
}

#[test]
fn boxes_read_worse_are_regressions_of_their_document() {
    // EP-1000001-A1 given the boxes OSRA found on EP-1000002-A1's pages.
    let run = copied(
        "segmentation/run-osra",
        "seg-worse/run-osra",
        &[],
        &[(
            "EP-1000001-A1.sdf",
            "segmentation/run-osra/EP-1000002-A1.sdf",
        )],
    );
    let cur = score("segmentation", &goldens("segmentation/gold"), &[run]);
    let (code, _, list) = compared_values("seg-worse", segmentation(), &cur, 0.0);
    assert_eq!(code, 1);
    assert!(
        list.iter()
            .any(|c| c.starts_with("run-osra|EP-1000001-A1|f1@t=") && c.ends_with("|regression")),
        "{list:?}"
    );
    // The other document is as it was; the totals follow the first.
    assert!(
        list.iter()
            .all(|c| (c.starts_with("run-osra|EP-1000001-A1|")
                || c.starts_with("run-osra|summary|"))
                && c.ends_with("|regression")),
        "{list:?}"
    );
}

#[test]
fn a_worse_outcome_is_a_regression() {
    // match_aromatic read as the structure with a changed element.
    let run = copied(
        "recognition/runs/handmade",
        "rec-worse/handmade",
        &[],
        &[(
            "match_aromatic.mol",
            "recognition/runs/handmade/wrong_changed_element.mol",
        )],
    );
    let cur = score("recognition", &goldens("recognition/gold"), &[run]);
    let structure = &cur["runs"][0]["structures"][4];
    assert_eq!(structure["name"], "match_aromatic");
    assert_eq!(structure["outcome"], "wrong");
    let (code, _, list) = compared_values("worse-outcome", recognition(), &cur, 0.0);
    assert_eq!(code, 1);
    assert!(
        list.contains(&change(
            "handmade",
            "match_aromatic",
            "outcome",
            "regression"
        )),
        "{list:?}"
    );
}

/// `compare` of `base` against a copy of it edited by `edit`: refused
/// (exit 2) naming the current file; the message after its name.
fn refused_edit(name: &str, base: &Value, edit: impl FnOnce(&mut Value)) -> String {
    let mut cur = base.clone();
    edit(&mut cur);
    let err = refused(name, base, &cur);
    let path = scratch().join(format!("{name}-current.json"));
    let prefix = format!("clefeval: error: {}: ", path.display());
    err.strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{name}: {err}"))
        .trim_end()
        .to_owned()
}

/// An edit of a result file by hand.
type Edit = Box<dyn FnOnce(&mut Value)>;

fn set(pointer: &str, value: Value) -> impl FnOnce(&mut Value) {
    let pointer = pointer.to_owned();
    move |v: &mut Value| *v.pointer_mut(&pointer).expect("pointer") = value
}

fn remove(pointer: &str, key: &str) -> impl FnOnce(&mut Value) {
    let (pointer, key) = (pointer.to_owned(), key.to_owned());
    move |v: &mut Value| match v.pointer_mut(&pointer).expect("pointer") {
        Value::Object(map) => drop(map.remove(&key).expect("key")),
        Value::Array(items) => drop(items.remove(key.parse::<usize>().expect("index"))),
        _ => panic!("{pointer}"),
    }
}

#[test]
fn a_file_that_contradicts_itself_is_refused_naming_the_path() {
    let fc = flowchart();
    let topic1 = "/runs/0/topics/1";
    let d = |t: &str, l: &str| {
        fc.pointer(&format!("{t}/levels/{l}/distance"))
            .cloned()
            .expect("distance")
    };
    let worse = json!(d(topic1, "intermediate").as_f64().expect("number") + 0.25);
    let mut cases: Vec<(&str, &Value, Edit, &str)> = vec![
        (
            "out-of-range",
            fc,
            Box::new(set("/runs/0/topics/1/levels/basic/distance", json!(-5.0))),
            "$.runs[0].topics[1].levels.basic.distance: the file says -5.0, |mcs|, the sizes and the best label cost make 0.02941176470588236",
        ),
        (
            "worse-by-hand",
            fc,
            Box::new(set("/runs/0/topics/1/levels/intermediate/distance", worse)),
            "$.runs[0].topics[1].levels.intermediate.distance: the file says 0.43918918918918914, |mcs|, the sizes and the best label cost make 0.18918918918918914",
        ),
        (
            "f1-out-of-range",
            fc,
            Box::new(set("/runs/0/topics/1/triplets/f1", json!(1.5))),
            "$.runs[0].topics[1].triplets.f1: the file says 1.5, its counts make 0.8857142857142857",
        ),
        (
            "topic-dropped",
            fc,
            Box::new(remove("/runs/0/topics", "2")),
            "$.runs[0].summary.mean_distance.basic: the file says 0.3999330547401389, its topics make 0.44120998826881175",
        ),
        (
            "mean-dropped",
            fc,
            Box::new(remove("/runs/0/summary/mean_distance", "basic")),
            "$.runs[0].summary.mean_distance.basic: the file says nothing, its topics make 0.3999330547401389",
        ),
        (
            "level-dropped",
            fc,
            Box::new(remove("/runs/1/topics/4/levels", "complete")),
            "$.runs[1].topics[4].levels.complete: a level the settings score is missing",
        ),
        (
            "interval",
            fc,
            Box::new(|v: &mut Value| {
                let level = v
                    .pointer_mut("/runs/0/topics/0/levels/basic")
                    .expect("level");
                let mcs = level["mcs"].as_u64().expect("mcs");
                level["exact"] = json!(false);
                level["mcs_upper"] = json!(mcs - 1);
            }),
            "$.runs[0].topics[0].levels.basic.mcs_upper: the interval [35, 34] misses its value 35",
        ),
        (
            "topic-doubled",
            fc,
            Box::new(|v: &mut Value| {
                let topics = v
                    .pointer_mut("/runs/0/topics")
                    .and_then(Value::as_array_mut)
                    .expect("topics");
                topics.push(topics[0].clone());
            }),
            "$.runs[0].topics[6].topic: \"FC-0001\" is given twice (first at $.runs[0].topics[0])",
        ),
        (
            "denominator-by-hand",
            fc,
            Box::new(set("/settings/denominator", json!("max"))),
            "$.runs[0].topics[0].levels.basic.distance: the file says 0.10256410256410253, |mcs|, the sizes and the best label cost make 0.05405405405405406",
        ),
        (
            "wrong-type",
            fc,
            Box::new(set("/runs/1/topics/3/levels/basic/distance", json!("abc"))),
            "$.runs[1].topics[3].levels.basic.distance: not a result this clefeval reads: invalid type: string \"abc\", expected f64",
        ),
        (
            "topic-type",
            fc,
            Box::new(set("/runs/0/topics/1/topic", json!(2))),
            "$.runs[0].topics[1].topic: not a result this clefeval reads: invalid type: integer `2`, expected a string",
        ),
        (
            "settings-type",
            fc,
            Box::new(set("/settings", json!("all"))),
            "$.settings: not a result this clefeval reads: invalid type: string \"all\", expected struct Requested",
        ),
        (
            "no-settings",
            fc,
            Box::new(remove("", "settings")),
            "$: not a result this clefeval reads: missing field `settings`",
        ),
        (
            "other-version",
            fc,
            Box::new(set("/version", json!("99.0.0"))),
            "$.version: written by clefeval 99.0.0; this clefeval (0.1.0) reads the result files of its own version only",
        ),
        (
            "version-type",
            fc,
            Box::new(set("/version", json!(["0.1.0"]))),
            "$.version: [\"0.1.0\"] is no version of clefeval",
        ),
        (
            "tolerance-dropped",
            segmentation(),
            Box::new(remove("/runs/0/tolerances", "10")),
            "$.runs[0].tolerances: 55 figures for the 56 tolerances of the sweep",
        ),
        (
            "document-dropped",
            segmentation(),
            Box::new(remove("/runs/0/documents", "1")),
            "$.runs[0].tolerances[0].f1: the file says 0.4444444444444444, its documents make 0.3333333333333333",
        ),
        (
            "f1-by-hand",
            segmentation(),
            Box::new(set("/runs/0/documents/0/tolerances/20/f1", json!(0.0))),
            "$.runs[0].documents[0].tolerances[20].f1: the file says 0.0, its counts make 0.6666666666666666",
        ),
        (
            "null-precision",
            segmentation(),
            Box::new(set(
                "/runs/0/documents/1/tolerances/5/precision",
                Value::Null,
            )),
            "$.runs[0].documents[1].tolerances[5].precision: not a result this clefeval reads: invalid type: null, expected f64",
        ),
        (
            "structure-dropped",
            recognition(),
            Box::new(remove("/runs/0/structures", "4")),
            "$.runs[0].summary.automatic: the file says 14, its structures make 13",
        ),
        (
            "outcome-by-hand",
            recognition(),
            Box::new(set("/runs/0/structures/4/outcome", json!("wrong"))),
            "$.runs[0].structures[4].outcome: wrong where its two InChIs make match",
        ),
        (
            "no-outcome",
            recognition(),
            Box::new(remove("/runs/0/structures/0", "outcome")),
            "$.runs[0].structures[0]: not a result this clefeval reads: missing field `outcome`",
        ),
    ];
    for (name, base, edit, want) in cases.drain(..) {
        assert_eq!(refused_edit(name, base, edit), want, "{name}");
    }
    // A file without a version, in the baseline this time.
    let mut bad = fc.clone();
    remove("", "version")(&mut bad);
    let err = refused("no-version", &bad, fc);
    let path = scratch().join("no-version-baseline.json");
    assert_eq!(
        err,
        format!(
            "clefeval: error: {}: no \"version\" field: not a result file\n",
            path.display()
        )
    );
}

#[test]
fn other_tasks_and_files_exit_2_saying_why() {
    let fc = flowchart();
    let mut unknown = fc.clone();
    unknown["task"] = json!("trademark");
    let err = refused("unknown-task", fc, &unknown);
    assert!(err.contains("unknown-task-current.json: $.task: unknown task \"trademark\"; compare reads the --format json output of flowchart, segmentation, recognition, prior-art, passage or detection"), "{err}");

    let gold = goldens("flowchart/gold");
    let validate = written(&["validate", &gold, "--format", "json"]);
    let err = refused("validate", &validate, fc);
    assert!(err.contains("validate-baseline.json: $.task: \"validate\" is not a scoring task and the file has no runs: it is not a scoring result"), "{err}");

    let err = refused("two-tasks", fc, segmentation());
    assert!(
        err.contains("two-tasks-baseline.json is a flowchart result and "),
        "{err}"
    );
    assert!(
        err.contains("two-tasks-current.json a segmentation result"),
        "{err}"
    );

    let err = refused("no-task", &json!({"runs": []}), fc);
    assert!(
        err.contains("no-task-baseline.json: $: not a clefeval result file (no \"task\" field)"),
        "{err}"
    );

    // The output of compare itself.
    let (b, c) = paths();
    let (code, out, _) = compare(&[&b, &c, "--format", "json"]);
    assert_eq!(code, 1);
    let output: Value = serde_json::from_str(&out).expect("json");
    let err = refused("compare-output", fc, &output);
    assert!(
        err.contains(
            "compare-output-current.json: $: the output of clefeval compare, not a scoring result"
        ),
        "{err}"
    );
}

#[test]
fn different_settings_exit_2_and_are_named() {
    let base = flowchart();
    let gold = goldens("flowchart/gold");
    let (a, b) = (goldens(RUN_A), goldens(RUN_B));
    let cur = written(&[
        "flowchart",
        "--gold",
        &gold,
        "--run",
        &a,
        "--run",
        &b,
        "--denominator",
        "max",
        "--induced",
        "--format",
        "json",
        "--quiet",
    ]);
    let err = refused("settings", base, &cur);
    let (b, c) = (
        scratch()
            .join("settings-baseline.json")
            .display()
            .to_string(),
        scratch()
            .join("settings-current.json")
            .display()
            .to_string(),
    );
    assert_eq!(
        err,
        format!(
            "clefeval: error: {b} and {c} were scored with different settings, their figures are not comparable:\n  \
             $.settings.denominator: \"union\" in {b}, \"max\" in {c}\n  \
             $.settings.induced: false in {b}, true in {c}\n"
        )
    );
    // A setting absent on one side counts as its default: `max` differs from it.
    let mut old = base.clone();
    remove("/settings", "denominator")(&mut old);
    let err = refused("settings-absent", &old, &cur);
    assert!(
        err.contains("$.settings.denominator: \"union\" (absent, the default) in "),
        "{err}"
    );

    let seg_gold = goldens("segmentation/gold");
    let osra = goldens("segmentation/run-osra");
    let seg = written(&[
        "segmentation",
        "--gold",
        &seg_gold,
        "--run",
        &osra,
        "--tolerances",
        "0,10,20",
        "--format",
        "json",
        "--quiet",
    ]);
    let err = refused("seg-settings", segmentation(), &seg);
    assert!(err.contains("$.settings.tolerances: [0,1,2,"), "{err}");
    let rec_gold = goldens("recognition/gold");
    let handmade = goldens("recognition/runs/handmade");
    let rec = written(&[
        "recognition",
        "--gold",
        &rec_gold,
        "--run",
        &handmade,
        "--timeout",
        "2",
        "--format",
        "json",
        "--quiet",
    ]);
    let err = refused("rec-settings", recognition(), &rec);
    assert!(
        err.contains("$.settings.timeout_seconds: 10.0 in "),
        "{err}"
    );
}

#[test]
fn settings_left_out_compare_as_their_defaults_where_the_reader_has_them() {
    // Every flowchart setting has its default; segmentation's pages and
    // overlays too.
    let fc = flowchart();
    for key in fc["settings"].as_object().expect("settings").keys() {
        let mut one = fc.clone();
        remove("/settings", key)(&mut one);
        let (code, _, list) = compared_values(&format!("no-{key}"), fc, &one, 0.0);
        assert_eq!((code, list.len()), (0, 0), "{key}");
    }
    for key in ["pages", "overlays", "overlay_tolerance"] {
        let mut one = segmentation().clone();
        remove("/settings", key)(&mut one);
        let (code, _, list) = compared_values(&format!("no-{key}"), segmentation(), &one, 0.0);
        assert_eq!((code, list.len()), (0, 0), "{key}");
    }
    // The gold and the tolerances of a segmentation have none.
    for key in ["gold", "tolerances"] {
        let msg = refused_edit(
            &format!("no-{key}"),
            segmentation(),
            remove("/settings", key),
        );
        assert_eq!(
            msg,
            format!("$.settings: not a result this clefeval reads: missing field `{key}`")
        );
    }
    // Where files were is not compared.
    let mut moved = segmentation().clone();
    moved["settings"]["gold"] = json!(["/elsewhere/gold.csv"]);
    let (code, _, list) = compared_values("moved", segmentation(), &moved, 0.0);
    assert_eq!((code, list.len()), (0, 0));
}

/// The flowchart result of recognizer-a and a run `recognizer-b`: the
/// bundled one, or an empty folder of that name (rejected: holds no file).
fn with_run_b(rejected: bool) -> (Value, String) {
    let empty = scratch().join("empty").join("recognizer-b");
    std::fs::create_dir_all(&empty).expect("empty run folder");
    let b = if rejected {
        empty.display().to_string()
    } else {
        goldens("flowchart/runs/recognizer-b")
    };
    let gold = goldens("flowchart/gold");
    let a = goldens("flowchart/runs/recognizer-a");
    let args = ["flowchart", "--gold", &gold, "--run", &a, "--run", &b];
    let v = written(
        &[
            &args[..],
            &["--level", "basic", "--format", "json", "--quiet"],
        ]
        .concat(),
    );
    (v, empty.display().to_string())
}

#[test]
fn a_run_rejected_in_the_current_file_is_a_regression_with_its_reason() {
    let (scored, _) = with_run_b(false);
    let (rejected, empty) = with_run_b(true);
    assert_eq!(rejected["rejected_runs"][0]["run"], "recognizer-b");
    let b = file("rejected-now-b.json", &scored);
    let c = file("rejected-now-c.json", &rejected);
    let (code, out, err) = compare(&[&b, &c, "--format", "json"]);
    assert_eq!(code, 1, "{err}");
    let v: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["regressions"], 1);
    let first = &v["changes"][0];
    assert_eq!(
        (&first["run"], &first["item"]),
        (&json!("recognizer-b"), &json!("all"))
    );
    assert_eq!(first["baseline"], "scored");
    assert_eq!(
        first["current"],
        format!(
            "rejected in the current file: {empty}: holds no flowchart files (*.txt, *.mmd, *.mermaid, *.md, *.dot, *.gv, *.graphml, *.drawio)"
        )
    );
    // The table says so on the run's line.
    let (b, c) = (
        file("rejected-b.json", &scored),
        file("rejected-c.json", &rejected),
    );
    let (code, out, _) = compare(&[&b, &c]);
    assert_eq!(code, 1);
    let line = out
        .lines()
        .find(|l| l.starts_with("recognizer-b"))
        .expect("line");
    assert!(line.contains("rejected in the current file: "), "{out}");
    assert!(line.ends_with("REGRESSION"), "{out}");
    // A run lost from the file says absent, not rejected.
    let mut lost = rejected.clone();
    lost.as_object_mut().unwrap().remove("rejected_runs");
    let (code, _, list) = compared_values("lost", &scored, &lost, 0.0);
    assert_eq!(
        (code, list),
        (1, vec![change("recognizer-b", "all", "run", "regression")])
    );
    // Rejected in both files: nothing changed.
    let (code, _, list) = compared_values("rejected-both", &rejected, &rejected, 0.0);
    assert_eq!((code, list.len()), (0, 0));
    // Rejected in the baseline and scored now: an improvement, exit 0.
    let b = file("improved-b.json", &rejected);
    let c = file("improved-c.json", &scored);
    let (code, out, _) = compare(&[&b, &c, "--format", "json"]);
    assert_eq!(code, 0, "{out}");
    let v: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(
        (v["regressions"].as_u64(), v["improvements"].as_u64()),
        (Some(0), Some(1))
    );
    let first = &v["changes"][0];
    assert_eq!(first["current"], "scored");
    assert_eq!(first["verdict"], "improvement");
    assert_eq!(
        first["baseline"],
        format!(
            "rejected in the baseline: {empty}: holds no flowchart files (*.txt, *.mmd, *.mermaid, *.md, *.dot, *.gv, *.graphml, *.drawio)"
        )
    );
}
