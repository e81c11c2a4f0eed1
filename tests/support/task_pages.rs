//! The command lines that write each task's `--html` page from the bundled
//! goldens, run in the package root (the paths are relative to it): the
//! page tests and the browser check use the same pages.

#![allow(dead_code)]

/// (task, arguments before `--html FILE`) for every task's page, the
/// demo's last.
pub const TASK_PAGES: [(&str, &[&str]); 6] = [
    (
        "flowchart",
        &[
            "flowchart",
            "--gold",
            "goldens/flowchart/gold",
            "--run",
            "goldens/flowchart/runs/recognizer-a",
            "--run",
            "goldens/flowchart/runs/recognizer-b",
        ],
    ),
    (
        "segmentation",
        &[
            "segmentation",
            "--gold",
            "goldens/segmentation/gold",
            "--run",
            "goldens/segmentation/run-osra",
            "--run",
            "goldens/segmentation/run-shifted",
            "--pages",
            "goldens/segmentation/pages",
        ],
    ),
    (
        "recognition",
        &[
            "recognition",
            "--gold",
            "goldens/recognition/gold",
            "--run",
            "goldens/recognition/runs/handmade",
        ],
    ),
    (
        "prior-art",
        &[
            "prior-art",
            "--qrels",
            "goldens/passage/doc/qrels.txt",
            "--groups",
            "goldens/passage/doc/groups.txt",
            "--run",
            "goldens/passage/doc/runs",
        ],
    ),
    (
        "passage",
        &[
            "passage",
            "--qrels",
            "goldens/passage/demo/qrels.txt",
            "--groups",
            "goldens/passage/demo/groups.txt",
            "--run",
            "goldens/passage/demo/runs",
            "--compare",
            "MAP@100",
        ],
    ),
    ("demo", &["demo"]),
];

/// Runs the binary in the package root with `args`; fails the test,
/// naming the arguments and the binary's stderr, unless it succeeds.
pub fn run_in_root<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(
    args: &[S],
) -> std::process::Output {
    run_in(std::path::Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

/// [`run_in_root`] in the folder `dir`.
pub fn run_in<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(
    dir: &std::path::Path,
    args: &[S],
) -> std::process::Output {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}
