//! `clefeval detection` as a user runs it: the numbers of the command's
//! JSON equal pycocotools' (goldens/detection, written by make_coco.py and
//! demo/make_demo.py), each option reaches the evaluation, the parts of a
//! sharded evaluation merge byte for byte into the whole, `report`,
//! `compare` and the generic entry read and write the same values, and
//! every input mistake is named.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn golden(rel: &str) -> String {
    format!("goldens/detection/{rel}")
}

fn clefeval(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .current_dir(root())
        .args(args)
        .output()
        .unwrap()
}

fn json_of(args: &[&str]) -> Value {
    let mut all = vec!["detection", "--format", "json"];
    all.extend(args);
    let out = clefeval(&all);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn expected(rel: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(root().join(golden(rel))).unwrap()).unwrap()
}

fn stats(run: &Value) -> Vec<f64> {
    (run["summary"].as_array().unwrap().iter())
        .map(|s| s["value"].as_f64().unwrap())
        .collect()
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn close(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-12)
}

/// The command's twelve numbers, AP per category and per-image counts
/// against pycocotools' for each fixture and option set.
#[test]
fn the_command_gives_pycocotools_numbers_with_each_option_set() {
    let cases: [(&str, &str, &[&str]); 4] = [
        ("odd", "expected.json", &[]),
        ("random", "expected.json", &[]),
        ("random", "expected_pooled.json", &["--use-cats", "false"]),
        (
            "random",
            "expected_params.json",
            &["--iou-thresholds", "0.3,0.5,0.7", "--max-dets", "20,1,5"],
        ),
    ];
    for (case, file, options) in cases {
        let (gold, run) = (
            golden(&format!("{case}/gold.json")),
            golden(&format!("{case}/run.json")),
        );
        let mut args = vec!["--gold", gold.as_str(), "--run", run.as_str()];
        args.extend(options);
        let doc = json_of(&args);
        let want = expected(&format!("{case}/{file}"));
        let run = &doc["runs"][0];
        let got = stats(run);
        assert!(
            close(&got, &numbers(&want["stats"])),
            "{case} {file}: {got:?}"
        );
        let aps: Vec<f64> = (run["categories"].as_array().unwrap().iter())
            .map(|c| c["ap"].as_f64().unwrap())
            .collect();
        assert!(
            close(&aps, &numbers(&want["per_category"])),
            "{case} {file}"
        );
        let images = run["images"].as_array().unwrap();
        let per_image = want["per_image"].as_object().unwrap();
        assert_eq!(images.len(), per_image.len(), "{case} {file}");
        for image in images {
            let key = match &image["image"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let counts = [&image["tp"], &image["fp"], &image["fn"]].map(|v| v.as_u64().unwrap());
            let w: Vec<u64> = (per_image[&key].as_array().unwrap().iter())
                .map(|x| x.as_u64().unwrap())
                .collect();
            assert_eq!(counts.to_vec(), w, "{case} {file} image {key}");
        }
    }
}

/// The demo: OSRA's boxes on the bundled pages, scored by its confidence.
#[test]
fn the_demo_run_gives_pycocotools_numbers_to_the_bit() {
    let doc = json_of(&[
        "--gold",
        &golden("demo/gold.json"),
        "--run",
        &golden("demo/osra.json"),
    ]);
    let got = stats(&doc["runs"][0]);
    assert_eq!(got, numbers(&expected("demo/expected.json")["stats"]));
    assert_eq!(doc["runs"][0]["detections"], 9);
    // The table says the same numbers as pycocotools prints them.
    let out = clefeval(&[
        "detection",
        "--gold",
        &golden("demo/gold.json"),
        "--run",
        &golden("demo/osra.json"),
    ]);
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(
        table.contains("AP       0.50:0.95     all       100   0.8680\n"),
        "{table}"
    );
    assert!(
        table.contains("AR1      0.50:0.95     all         1   0.3667\n"),
        "{table}"
    );
}

fn temp(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("detection-task");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn write_json(args: &[&str], to: &Path) {
    let mut all = vec![
        "detection",
        "--format",
        "json",
        "-q",
        "-o",
        to.to_str().unwrap(),
    ];
    all.extend(args);
    let out = clefeval(&all);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `clefeval merge` of `parts` (in the order given) into the scratch file
/// `name`: it succeeds and writes the bytes of `whole`.
fn merged_as_whole(parts: &[&PathBuf], whole: &Path, name: &str) -> PathBuf {
    let merged = temp(name);
    let mut args = vec!["merge"];
    args.extend(parts.iter().map(|p| p.to_str().unwrap()));
    args.extend(["-q", "-o", merged.to_str().unwrap()]);
    let out = clefeval(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(whole).unwrap()
    );
    merged
}

/// Parts in any order merge into the whole byte for byte, on one thread
/// or two; the merged file renders and compares as the whole.
#[test]
fn parts_merge_into_the_whole_byte_for_byte() {
    let (gold, run, odd) = (
        golden("random/gold.json"),
        golden("random/run.json"),
        format!("odd={}", golden("odd/run.json")),
    );
    let runs = [
        "--gold",
        gold.as_str(),
        "--run",
        run.as_str(),
        "--run",
        odd.as_str(),
    ];
    // The odd run names images the random gold does not have: rejected,
    // in every part alike.
    let whole = temp("whole.json");
    write_json(&[&runs[..], &["-j", "1"]].concat(), &whole);
    let two = temp("whole-2.json");
    write_json(&[&runs[..], &["-j", "2"]].concat(), &two);
    assert_eq!(std::fs::read(&whole).unwrap(), std::fs::read(&two).unwrap());
    let parts: Vec<PathBuf> = (1..=3).map(|k| temp(&format!("part{k}.json"))).collect();
    for (k, part) in parts.iter().enumerate() {
        let shard = format!("{}/3", k + 1);
        write_json(&[&runs[..], &["--shard", shard.as_str()]].concat(), part);
        let doc: Value = serde_json::from_slice(&std::fs::read(part).unwrap()).unwrap();
        assert!(
            doc["runs"][0]["matches"]
                .as_array()
                .is_some_and(|m| !m.is_empty())
        );
    }
    let merged = merged_as_whole(&[&parts[2], &parts[0], &parts[1]], &whole, "merged.json");
    let doc: Value = serde_json::from_slice(&std::fs::read(&whole).unwrap()).unwrap();
    assert_eq!(doc["rejected_runs"][0]["run"], "odd");
    let reason = doc["rejected_runs"][0]["diagnostics"][0].as_str().unwrap();
    assert!(
        reason.contains("odd/run.json: $[0].image_id: image"),
        "{reason}"
    );
    // A part with a pair given twice is refused, naming it.
    let mut doubled: Value = serde_json::from_slice(&std::fs::read(&parts[0]).unwrap()).unwrap();
    let first = doubled["runs"][0]["matches"][0].clone();
    doubled["runs"][0]["matches"]
        .as_array_mut()
        .unwrap()
        .push(first);
    let tampered = temp("part1-doubled.json");
    std::fs::write(&tampered, serde_json::to_string(&doubled).unwrap()).unwrap();
    let out = clefeval(&[
        "merge",
        tampered.to_str().unwrap(),
        parts[1].to_str().unwrap(),
        parts[2].to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("given twice"), "{err}");
    // report renders the merged file as the command printed the whole.
    let table = clefeval(&[&["detection"], &runs[..]].concat());
    let rendered = clefeval(&["report", merged.to_str().unwrap()]);
    assert_eq!(
        String::from_utf8(rendered.stdout).unwrap(),
        String::from_utf8(table.stdout).unwrap()
    );
    let cmp = clefeval(&["compare", whole.to_str().unwrap(), merged.to_str().unwrap()]);
    assert_eq!(cmp.status.code(), Some(0));
    // The odd case (a detection of a category the gold lacks, crowd boxes,
    // annotation id 0) in two parts: its dropped count and warning too.
    let odd = [
        "--gold",
        "goldens/detection/odd/gold.json",
        "--run",
        "goldens/detection/odd/run.json",
    ];
    let whole = temp("odd-whole.json");
    write_json(&odd, &whole);
    let parts: Vec<PathBuf> = (1..=2)
        .map(|k| temp(&format!("odd-part{k}.json")))
        .collect();
    for (k, part) in parts.iter().enumerate() {
        let shard = format!("{}/2", k + 1);
        write_json(&[&odd[..], &["--shard", shard.as_str()]].concat(), part);
    }
    merged_as_whole(&[&parts[1], &parts[0]], &whole, "odd-merged.json");
    let doc: Value = serde_json::from_slice(&std::fs::read(&whole).unwrap()).unwrap();
    assert_eq!(doc["runs"][0]["dropped"], 1);
}

/// The generic entry (C, Python) writes what the command writes.
#[test]
fn the_generic_entry_writes_the_commands_json() {
    let (gold, run) = (golden("random/gold.json"), golden("random/run.json"));
    let request = serde_json::json!({
        "gold": [root().join(&gold)],
        "runs": [root().join(&run)],
        "settings": {"max_dets": "1,5,20", "categories": "2,3"},
        "threads": 2,
    });
    let from_entry: Value = serde_json::from_str(
        &clefeval::tasks::evaluate("detection", &request.to_string()).unwrap(),
    )
    .unwrap();
    let gold_abs = root().join(&gold);
    let run_abs = root().join(&run);
    let from_command = json_of(&[
        "--gold",
        gold_abs.to_str().unwrap(),
        "--run",
        run_abs.to_str().unwrap(),
        "--max-dets",
        "1,5,20",
        "--categories",
        "2,3",
    ]);
    assert_eq!(from_entry, from_command);
    let cats: Vec<i64> = (from_entry["runs"][0]["categories"]
        .as_array()
        .unwrap()
        .iter())
    .map(|c| c["id"].as_i64().unwrap())
    .collect();
    assert_eq!(cats, [2, 3]);
    let bad =
        serde_json::json!({"gold": [gold_abs], "runs": [run_abs], "settings": {"max_dets": "1,5"}});
    let err = clefeval::tasks::evaluate("detection", &bad.to_string()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "max_dets takes three values (as pycocotools' summary reads them), not 2"
    );
}

/// Each input mistake is named: exit 2 before any scoring, or the one run
/// rejected with its reason while the rest is scored.
#[test]
fn every_input_mistake_is_named() {
    let (gold, run) = (golden("random/gold.json"), golden("random/run.json"));
    let fails = |args: &[&str]| {
        let out = clefeval(&[&["detection"], args].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        String::from_utf8(out.stderr).unwrap()
    };
    let err = fails(&["--gold", "no/such.json", "--run", &run]);
    assert!(err.contains("--gold no/such.json: "), "{err}");
    let err = fails(&["--gold", &run, "--run", &run]);
    assert!(
        err.contains("goldens/detection/random/run.json: $: a list, as a detections file is, not a COCO ground truth"),
        "{err}"
    );
    let err = fails(&["--gold", &gold, "--run", &run, "--categories", "2,9"]);
    assert!(
        err.contains("--categories: goldens/detection/random/gold.json has no category 9"),
        "{err}"
    );
    let err = fails(&["--gold", &gold, "--run", &run, "--images", "1,\"x\""]);
    assert!(
        err.contains("--images: goldens/detection/random/gold.json has no image"),
        "{err}"
    );
    let err = fails(&["--gold", &gold, "--run", &run, "--iou-thresholds", "0.5,2"]);
    assert!(
        err.contains("--iou-thresholds takes numbers in 0..=1; not \"2\""),
        "{err}"
    );
    // The gold given as a run: that run is rejected, the other scored.
    let doc = json_of(&["--gold", &gold, "--run", &run, "--run", &gold]);
    let rejected = &doc["rejected_runs"][0];
    assert_eq!(rejected["run"], "gold.json");
    let reason = rejected["diagnostics"][0].as_str().unwrap();
    assert!(
        reason.starts_with("goldens/detection/random/gold.json: $: an object"),
        "{reason}"
    );
    // Every run rejected: nothing to score.
    let err = fails(&["--gold", &gold, "--run", &gold]);
    assert!(err.contains("no run can be scored"), "{err}");
}

/// Hostile detections files beside a good run: each rejected, named with
/// its JSON path (or what it is), the good run scored as alone.
#[test]
fn hostile_runs_are_rejected_by_name_and_the_rest_scored() {
    let dir = temp("hostile");
    std::fs::create_dir_all(&dir).unwrap();
    let det = |field: &str| {
        format!(
            r#"[{{"image_id": 1, "category_id": 1, "bbox": [0, 0, 1, 1], "score": 0.5, {field}}}]"#
        )
    };
    let deep = format!("[{}", "[".repeat(5000));
    let nested_id = format!(
        r#"[{{"image_id": {}1{}}}]"#,
        "[".repeat(200),
        "]".repeat(200)
    );
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "deep",
            deep,
            "$[0]: expected a detection object, found a list",
        ),
        (
            "nested-id",
            nested_id,
            "$[0].image_id: expected a whole number or a string",
        ),
        (
            "huge",
            det(r#""x": 0"#).replace("0.5", "1e400"),
            "$[0].score: number out of range",
        ),
        (
            "nan",
            det(r#""x": 0"#).replace("0.5", "NaN"),
            "$[0].score: expected value",
        ),
        (
            "string-score",
            det(r#""x": 0"#).replace("0.5", "\"0.5\""),
            "$[0].score: invalid type: string \"0.5\", expected f64",
        ),
        (
            "float-id",
            det(r#""x": 0"#).replace("\"image_id\": 1", "\"image_id\": 1.5"),
            "$[0].image_id: expected a whole number or a string",
        ),
        (
            "short-box",
            det(r#""x": 0"#).replace("[0, 0, 1, 1]", "[0, 0, 1]"),
            "$[0].bbox: invalid length 3, expected an array of length 4",
        ),
        ("empty", String::new(), "empty file"),
        (
            "junk",
            "\u{0}\u{1}binary".into(),
            "binary data (a NUL byte), not a COCO JSON file; not read",
        ),
        (
            "number",
            "[1]".into(),
            "$[0]: expected a detection object, found a number",
        ),
    ];
    let (gold, good) = (golden("random/gold.json"), golden("random/run.json"));
    let alone = json_of(&["--gold", &gold, "--run", &good]);
    let mut args = vec![
        "--gold".to_string(),
        gold.clone(),
        "--run".into(),
        good.clone(),
    ];
    for (name, text, _) in &cases {
        let path = dir.join(format!("{name}.json"));
        std::fs::write(&path, text).unwrap();
        args.push("--run".into());
        args.push(path.to_str().unwrap().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let doc = json_of(&args);
    assert_eq!(doc["runs"][0]["summary"], alone["runs"][0]["summary"]);
    let rejected = doc["rejected_runs"].as_array().unwrap();
    assert_eq!(rejected.len(), cases.len());
    for ((name, _, why), r) in cases.iter().zip(rejected) {
        let reason = r["diagnostics"][0].as_str().unwrap();
        let path = dir.join(format!("{name}.json"));
        let want = format!("{}: {why}", path.display());
        assert!(reason.starts_with(&want), "{reason}\nwanted {want}");
    }
}
