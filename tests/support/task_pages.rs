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
