//! `clefeval compare` end to end: on goldens/compare (changes worked out by
//! hand in goldens/compare/README.md), and on result files the binary
//! writes for the goldens of every task, changed programmatically (a run,
//! topic, level, tolerance, document or structure dropped, a figure made
//! worse, a field broken) to check that the gate catches each change.

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
fn regression_beyond_tolerance_exits_1() {
    let (base, cur) = paths();
    let (code, out, _) = compare(&[&base, &cur]);
    assert_eq!(code, 1, "{out}");
    let regressions: Vec<&str> = out.lines().filter(|l| l.contains("REGRESSION")).collect();
    assert_eq!(regressions.len(), 1, "{out}");
    assert!(regressions[0].contains("FC-0001"));
    assert!(regressions[0].contains("complete"));
    assert!(regressions[0].contains("+0.0500"));
    assert!(
        out.ends_with(
            "flowchart: 12 figures compared, 1 regression, 7 improvements (tolerance 0)\n"
        ),
        "{out}"
    );
}

#[test]
fn json_counts_match_the_hand_computed_changes() {
    let (base, cur) = paths();
    let (code, out, _) = compare(&[&base, &cur, "--format", "json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["compared"], 12);
    assert_eq!(v["regressions"], 1);
    assert_eq!(v["improvements"], 7);
    assert_eq!(v["changes"].as_array().map(Vec::len), Some(8));
}

#[test]
fn within_tolerance_exits_0() {
    let (base, cur) = paths();
    let (code, out, _) = compare(&[&base, &cur, "--tolerance", "0.15", "--format", "json"]);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["regressions"], 0);
    assert_eq!(v["improvements"], 5);
}

#[test]
fn the_reverse_direction_swaps_the_verdicts() {
    let (base, cur) = paths();
    let (code, out, _) = compare(&[&cur, &base, "--format", "json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["regressions"], 7);
    assert_eq!(v["improvements"], 1);
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

/// The `--format json` result of `command` on gold and runs under goldens/.
fn scored(command: &str, gold: &str, runs: &[&str]) -> Value {
    let gold = goldens(gold);
    let runs: Vec<String> = runs.iter().map(|r| goldens(r)).collect();
    let mut args = vec![command, "--gold", &gold, "--format", "json", "--quiet"];
    for run in &runs {
        args.extend(["--run", run]);
    }
    written(&args)
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

/// Writes `value` as `name` in the scratch folder; its path.
fn file(name: &str, value: &Value) -> String {
    let path = scratch().join(name);
    std::fs::write(&path, value.to_string()).expect("write");
    path.display().to_string()
}

/// `compare BASE CUR --format json` on two values; the exit code, the
/// regressions as `run|item|metric|baseline|current`, and stderr.
fn regressions(name: &str, base: &Value, cur: &Value) -> (i32, Vec<String>, String) {
    let b = file(&format!("{name}-baseline.json"), base);
    let c = file(&format!("{name}-current.json"), cur);
    let (code, out, err) = compare(&[&b, &c, "--format", "json"]);
    if code == 2 {
        return (code, Vec::new(), err);
    }
    let v: Value = serde_json::from_str(&out).expect("json");
    let list: Vec<String> = v["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .filter(|ch| ch["verdict"] == "regression")
        .map(|ch| {
            ["run", "item", "metric", "baseline", "current"]
                .map(|k| ch[k].as_str().unwrap_or_default().to_owned())
                .join("|")
        })
        .collect();
    assert_eq!(v["regressions"].as_u64(), Some(list.len() as u64));
    (code, list, err)
}

/// `compare` of two values that cannot be compared: exit 2; stderr.
fn refused(name: &str, base: &Value, cur: &Value) -> String {
    let (code, list, err) = regressions(name, base, cur);
    assert_eq!(code, 2, "{name}: {list:?}");
    err
}

#[test]
fn real_results_compare_equal_to_themselves() {
    for (name, v) in [
        ("fc", flowchart()),
        ("seg", segmentation()),
        ("rec", recognition()),
    ] {
        let (code, list, err) = regressions(&format!("self-{name}"), v, v);
        assert_eq!((code, list.len()), (0, 0), "{name}: {err}");
    }
}

/// Drops element `index` of the array at `pointer` (whose `key` must be
/// `name`) from a copy of `base`; compare must exit 1 with `expected` the
/// one regression. The changed copy.
fn dropped(
    base: &Value,
    pointer: &str,
    index: usize,
    (key, name): (&str, Value),
    expected: &str,
) -> Value {
    let mut cur = base.clone();
    let items = cur
        .pointer_mut(pointer)
        .and_then(Value::as_array_mut)
        .expect(pointer);
    assert_eq!(items[index][key], name);
    items.remove(index);
    let (code, list, err) = regressions(&format!("drop-{key}"), base, &cur);
    assert_eq!((code, list), (1, vec![expected.to_owned()]), "{err}");
    cur
}

#[test]
fn mutation_a_dropped_run_or_topic_is_caught() {
    let base = flowchart();
    let run = ("run", json!("recognizer-b"));
    dropped(base, "/runs", 1, run, "recognizer-b|all|run|present|absent");
    let topic = ("topic", json!("FC-0003"));
    let expected = "recognizer-a|FC-0003|item|present|absent";
    let cur = dropped(base, "/runs/0/topics", 2, topic, expected);

    // In table form too: the line names the run and the topic.
    let b = file("drop-topic-table-b.json", base);
    let c = file("drop-topic-table-c.json", &cur);
    let (code, out, _) = compare(&[&b, &c]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().filter(|l| l.contains("REGRESSION")).collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].starts_with("recognizer-a  FC-0003"), "{out}");
    assert!(
        out.ends_with("1 regression, 0 improvements (tolerance 0)\n"),
        "{out}"
    );
}

#[test]
fn a_dropped_level_or_mean_is_a_regression() {
    let base = flowchart();
    let mut cur = base.clone();
    let levels = cur["runs"][1]["topics"][4]["levels"]
        .as_object_mut()
        .expect("levels");
    levels.remove("complete").expect("complete level");
    let topic = cur["runs"][1]["topics"][4]["topic"]
        .as_str()
        .expect("topic")
        .to_owned();
    let (code, list, _) = regressions("drop-level", base, &cur);
    assert_eq!(code, 1);
    assert_eq!(
        list,
        [format!("recognizer-b|{topic}|complete|present|absent")]
    );

    let mut cur = base.clone();
    let means = cur["runs"][0]["summary"]["mean_distance"]
        .as_object_mut()
        .expect("means");
    means.remove("basic");
    let (code, list, _) = regressions("drop-mean", base, &cur);
    assert_eq!(code, 1);
    assert_eq!(list, ["recognizer-a|summary|basic mean|present|absent"]);
}

#[test]
fn a_distance_worse_beyond_the_tolerance_is_a_regression() {
    let base = flowchart();
    let mut cur = base.clone();
    let topic = &mut cur["runs"][0]["topics"][1];
    assert_eq!(topic["topic"], "FC-0002");
    let d = topic["levels"]["intermediate"]["distance"]
        .as_f64()
        .expect("distance");
    topic["levels"]["intermediate"]["distance"] = json!(d + 0.25);
    let (code, list, _) = regressions("worse", base, &cur);
    assert_eq!(code, 1);
    assert_eq!(
        list,
        [format!(
            "recognizer-a|FC-0002|intermediate|{d:.4}|{:.4}",
            d + 0.25
        )]
    );
    // Beyond a tolerance of 0.3 it is not.
    let b = file("worse-b.json", base);
    let c = file("worse-c.json", &cur);
    let (code, out, _) = compare(&[&b, &c, "--tolerance", "0.3"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 regressions"), "{out}");
}

#[test]
fn a_dropped_tolerance_or_document_is_a_regression() {
    let base = segmentation();
    let t = ("t", json!(10));
    dropped(
        base,
        "/runs/0/tolerances",
        10,
        t,
        "run-osra|summary|t=10|present|absent",
    );
    let doc = ("doc", json!("EP-1000002-A1"));
    let expected = "run-osra|EP-1000002-A1|item|present|absent";
    dropped(base, "/runs/0/documents", 1, doc, expected);

    let mut cur = base.clone();
    cur["runs"][0]["documents"][0]["tolerances"][20]["f1"] = json!(0.0);
    let (code, list, _) = regressions("worse-f1", base, &cur);
    assert_eq!(code, 1);
    assert_eq!(list.len(), 1);
    assert!(
        list[0].starts_with("run-osra|EP-1000001-A1|f1@t=20|"),
        "{list:?}"
    );
}

#[test]
fn a_dropped_structure_or_worse_outcome_is_a_regression() {
    let base = recognition();
    let name = ("name", json!("match_aromatic"));
    let expected = "handmade|match_aromatic|item|present|absent";
    dropped(base, "/runs/0/structures", 4, name, expected);

    let mut cur = base.clone();
    cur["runs"][0]["structures"][4]["outcome"] = json!("wrong");
    let (code, list, _) = regressions("worse-outcome", base, &cur);
    assert_eq!(code, 1);
    assert_eq!(list, ["handmade|match_aromatic|outcome|match|wrong"]);
}

#[test]
fn malformed_fields_exit_2_naming_the_file_and_the_path() {
    let base = flowchart();
    let cases = [
        (
            "wrong-type",
            "/runs/1/topics/3/levels/basic/distance",
            json!("abc"),
            "$.runs[1].topics[3].levels.basic.distance: expected a number, found \"abc\"",
        ),
        (
            "nan-string",
            "/runs/0/topics/0/levels/complete/distance",
            json!("NaN"),
            "$.runs[0].topics[0].levels.complete.distance: expected a number, found \"NaN\"",
        ),
        (
            "topic-type",
            "/runs/0/topics/1/topic",
            json!(2),
            "$.runs[0].topics[1].topic: expected a string, found 2",
        ),
        (
            "levels-type",
            "/runs/0/topics/1/levels",
            json!([]),
            "$.runs[0].topics[1].levels: expected an object, found an array",
        ),
        (
            "settings-type",
            "/settings",
            json!("all"),
            "$.settings: expected an object, found \"all\"",
        ),
    ];
    for (name, pointer, value, message) in cases {
        let mut cur = base.clone();
        *cur.pointer_mut(pointer).expect(pointer) = value;
        let err = refused(name, base, &cur);
        let path = scratch().join(format!("{name}-current.json"));
        assert_eq!(
            err,
            format!("clefeval: error: {}: {message}\n", path.display()),
            "{name}"
        );
    }
    // A missing required field, in the baseline this time.
    let mut bad = base.clone();
    let level = bad["runs"][0]["topics"][2]["levels"]["basic"]
        .as_object_mut()
        .expect("level");
    level.remove("distance");
    let err = refused("missing-field", &bad, base);
    let path = scratch().join("missing-field-baseline.json");
    assert_eq!(
        err,
        format!(
            "clefeval: error: {}: $.runs[0].topics[2].levels.basic.distance: missing (a required field)\n",
            path.display()
        )
    );
    let mut bad = recognition().clone();
    bad["runs"][0]["structures"][0]
        .as_object_mut()
        .expect("structure")
        .remove("outcome");
    let err = refused("missing-outcome", recognition(), &bad);
    assert!(
        err.ends_with(
            "current.json: $.runs[0].structures[0].outcome: missing (a required field)\n"
        ),
        "{err}"
    );
    let mut bad = segmentation().clone();
    bad["runs"][0]["documents"][1]["tolerances"][5]["precision"] = json!(null);
    let err = refused("null-precision", segmentation(), &bad);
    assert!(err.ends_with("current.json: $.runs[0].documents[1].tolerances[5].precision: expected a number, found null\n"), "{err}");
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
    let mut cur = base.clone();
    cur["settings"]["denominator"] = json!("max");
    cur["settings"]["induced"] = json!(true);
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
    old["settings"]
        .as_object_mut()
        .expect("settings")
        .remove("denominator");
    let err = refused("settings-absent", &old, &cur);
    assert!(
        err.contains("$.settings.denominator: \"union\" (absent, the default) in "),
        "{err}"
    );

    let mut seg = segmentation().clone();
    seg["settings"]["tolerances"] = json!([0, 10, 20]);
    let err = refused("seg-settings", segmentation(), &seg);
    assert!(err.contains("$.settings.tolerances: [0,1,2,"), "{err}");
    let mut rec = recognition().clone();
    rec["settings"]["timeout_seconds"] = json!(2.0);
    let err = refused("rec-settings", recognition(), &rec);
    assert!(
        err.contains("$.settings.timeout_seconds: 10.0 in "),
        "{err}"
    );
}

#[test]
fn settings_absent_but_at_their_defaults_compare() {
    for (name, v) in [
        ("fc", flowchart()),
        ("seg", segmentation()),
        ("rec", recognition()),
    ] {
        // A file of a version that wrote no settings, and one without a
        // single setting, against the full file: the same settings.
        let mut none = v.clone();
        none.as_object_mut().expect("object").remove("settings");
        let (code, list, err) = regressions(&format!("no-settings-{name}"), v, &none);
        assert_eq!((code, list.len()), (0, 0), "{name}: {err}");
        let (code, _, err) = regressions(&format!("no-settings-rev-{name}"), &none, v);
        assert_eq!(code, 0, "{name}: {err}");
        let settings = v["settings"].as_object().expect("settings");
        for key in settings.keys() {
            let mut one = v.clone();
            one["settings"]
                .as_object_mut()
                .expect("settings")
                .remove(key);
            let (code, _, err) = regressions(&format!("no-{key}-{name}"), v, &one);
            assert_eq!(code, 0, "{name}: {key}: {err}");
        }
    }
    // Where files were is not compared.
    let mut moved = segmentation().clone();
    moved["settings"]["gold"] = json!(["/elsewhere/gold.csv"]);
    let (code, _, err) = regressions("moved", segmentation(), &moved);
    assert_eq!(code, 0, "{err}");
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
    let (code, list, err) = regressions("rejected-now", &scored, &rejected);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        list,
        [format!(
            "recognizer-b|all|run|scored|rejected in the current file: {empty}: holds no flowchart files (*.txt, *.mmd, *.mermaid, *.md, *.dot, *.gv, *.graphml, *.drawio)"
        )]
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
    let (code, list, _) = regressions("lost", &scored, &lost);
    assert_eq!(
        (code, list),
        (1, vec!["recognizer-b|all|run|present|absent".to_owned()])
    );
    // Rejected in both files: nothing changed.
    let (code, list, _) = regressions("rejected-both", &rejected, &rejected);
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
    let change = &v["changes"][0];
    assert_eq!(change["current"], "scored");
    assert_eq!(change["verdict"], "improvement");
    assert_eq!(
        change["baseline"],
        format!(
            "rejected in the baseline: {empty}: holds no flowchart files (*.txt, *.mmd, *.mermaid, *.md, *.dot, *.gv, *.graphml, *.drawio)"
        )
    );
}

#[test]
fn files_of_other_versions_or_without_one_compare() {
    for value in [flowchart(), segmentation(), recognition()] {
        assert_eq!(value["version"], env!("CARGO_PKG_VERSION"));
        // Written before "version" and "diagnostic_list" existed.
        let mut old = value.clone();
        old.as_object_mut().unwrap().remove("version");
        strip_lists(&mut old);
        let mut newer = value.clone();
        newer["version"] = json!("99.0.0");
        for (base, cur) in [
            (&old, value),
            (value, &old),
            (&old, &newer),
            (&newer, value),
        ] {
            let (code, list, err) = regressions("versions", base, cur);
            assert_eq!((code, list.len()), (0, 0), "{err}");
        }
    }
    let mut bad = flowchart().clone();
    bad["version"] = json!(["0.1.0"]);
    let err = refused("bad-version", flowchart(), &bad);
    assert!(
        err.contains("$.version: expected a string, found an array"),
        "{err}"
    );
}

/// Removes every `diagnostic_list` of `v`.
fn strip_lists(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.remove("diagnostic_list");
            map.values_mut().for_each(strip_lists);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_lists),
        _ => {}
    }
}
