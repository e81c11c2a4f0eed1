//! `clefeval compare` end to end on goldens/compare (changes worked out by
//! hand in goldens/compare/README.md).

use std::path::PathBuf;
use std::process::Command;

fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("goldens/compare")
        .join(name)
}

fn compare(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .arg("compare")
        .args(args)
        .output()
        .expect("run clefeval");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
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
            "flowchart: 12 figures compared, 1 regressions, 7 improvements (tolerance 0)\n"
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
