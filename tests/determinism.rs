//! Determinism: every task on the goldens gives byte-identical
//! JSON whatever the number of threads or worker processes.
//!
//! `flowchart` has `--threads`; `recognition` has `--jobs`; `validate` and
//! `segmentation` use rayon's global pool, sized here by `RAYON_NUM_THREADS`.

use std::process::Command;

const GOLDENS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/goldens");

/// The JSON output of one run of the binary (which must exit with `status`).
fn output(args: &[String], rayon_threads: Option<usize>, status: i32) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_clefeval"));
    command.args(args).args(["--format", "json"]);
    if let Some(n) = rayon_threads {
        command.env("RAYON_NUM_THREADS", n.to_string());
    }
    let out = command.output().expect("the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        out.status.code(),
        Some(status),
        "{args:?}\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.trim_start().starts_with('{'), "not JSON: {stdout}");
    stdout
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|a| a.replace("{g}", GOLDENS)).collect()
}

/// Outputs with `option` (`--threads`, `--jobs`) set to each of `counts`.
fn with_option(base: &[String], option: &str, counts: &[usize]) -> Vec<(String, String)> {
    counts
        .iter()
        .map(|n| {
            let mut a = base.to_vec();
            a.extend([option.to_string(), n.to_string()]);
            (format!("{option} {n}"), output(&a, None, 0))
        })
        .collect()
}

/// Outputs with rayon's global pool of 1, 2 and 8 threads.
fn with_rayon_threads(args: &[String], status: i32) -> Vec<(String, String)> {
    [1, 2, 8]
        .iter()
        .map(|&n| (format!("{n} rayon threads"), output(args, Some(n), status)))
        .collect()
}

/// Asserts that all outputs are byte-identical to the first.
fn all_equal(outputs: &[(String, String)]) {
    let (first_label, first) = &outputs[0];
    for (label, text) in &outputs[1..] {
        assert!(
            text == first,
            "output with {label} differs from output with {first_label}"
        );
    }
}

#[test]
fn flowchart_is_identical_with_1_2_and_8_threads() {
    let base = args(&[
        "flowchart",
        "--gold",
        "{g}/flowchart/gold",
        "--run",
        "{g}/flowchart/runs/recognizer-a",
        "--run",
        "{g}/flowchart/runs/recognizer-b",
    ]);
    all_equal(&with_option(&base, "--threads", &[1, 2, 8]));
}

#[test]
fn validate_is_identical_with_1_2_and_8_threads() {
    let a = args(&["validate", "{g}/flowchart/gold", "{g}/flowchart/broken"]);
    all_equal(&with_rayon_threads(&a, 1));
}

#[test]
fn segmentation_is_identical_with_1_2_and_8_threads() {
    let a = args(&[
        "segmentation",
        "--gold",
        "{g}/segmentation/gold",
        "--run",
        "{g}/segmentation/run-osra",
        "--run",
        "{g}/segmentation/run-shifted",
        "--pages",
        "{g}/segmentation/pages",
    ]);
    all_equal(&with_rayon_threads(&a, 0));
}

#[test]
fn recognition_is_identical_with_1_and_4_jobs() {
    let base = args(&[
        "recognition",
        "--gold",
        "{g}/recognition/gold",
        "--run",
        "{g}/recognition/runs/handmade",
    ]);
    all_equal(&with_option(&base, "--jobs", &[1, 4]));
}
