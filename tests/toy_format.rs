//! A flowchart format is one reader module and one line in the format
//! table (src/flowchart/formats.rs): the test-only toy format
//! (src/flowchart/toy.rs, the `toy-format` feature) is read by the command
//! line's `flowchart` and `validate` with no other change, scored as the
//! same chart written in the CLEF-IP text format; the command built
//! without the feature does not know it. (Python reads it too:
//! python/tests/test_toy_format.py, run by tests/python.rs.)

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The `clefeval` command built with the toy format (the `clefeval_toy`
/// example, built here by Cargo in this test's profile).
fn toy_command() -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut build = Command::new(cargo);
    build.current_dir(ROOT).args([
        "build",
        "--quiet",
        "--features",
        "toy-format",
        "--example",
        "clefeval_toy",
    ]);
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        build.arg("--release");
        "release"
    };
    let status = build.status().unwrap();
    assert!(status.success(), "cargo build of the toy command: {status}");
    // Cargo's own target folder: CARGO_TARGET_DIR when set.
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(ROOT).join("target"));
    target.join(profile).join("examples/clefeval_toy")
}

fn run(command: &Path, args: &[&str], dir: &Path) -> Output {
    Command::new(command)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// Gold A→B→C in CLEF-IP text; the run A→B, A→C in the toy format and,
/// as a control, the same run in CLEF-IP text.
fn lab() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    let nodes = "NO 1 rectangle \"A\"\nNO 2 rectangle \"B\"\nNO 3 rectangle \"C\"\n";
    write(
        "gold/FC-1.txt",
        &format!("{nodes}DE 1 2 plain\nDE 2 3 plain\n"),
    );
    write(
        "text/FC-1.txt",
        &format!("{nodes}DE 1 2 plain\nDE 1 3 plain\n"),
    );
    write("toy/FC-1.toy", "toy flowchart\nA -> B\nA -> C\n");
    write("broken/FC-1.toy", "toy flowchart\nA -> B\nA and C\n");
    dir
}

#[test]
fn the_toy_format_is_read_by_the_command_line_and_validate() {
    let toy = toy_command();
    let dir = lab();
    let args = [
        "flowchart",
        "--gold",
        "gold",
        "--run",
        "toy",
        "--run",
        "text",
    ];
    let out = run(
        &toy,
        &[&args[..], &["-f", "json", "-q"]].concat(),
        dir.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (toy_run, text_run) = (&doc["runs"][0], &doc["runs"][1]);
    assert_eq!(
        (&toy_run["run"], &text_run["run"]),
        (&"toy".into(), &"text".into())
    );
    // Read as the same chart, scored the same: 3 nodes and 1 edge in
    // common of 5 + 5, d = 1 − 4 / (5 + 5 − 4) at every level.
    assert_eq!(toy_run["topics"], text_run["topics"]);
    for level in ["basic", "intermediate", "complete"] {
        let scored = &toy_run["topics"][0]["levels"][level];
        assert_eq!(scored["mcs"], 4, "{level}");
        assert_eq!(scored["distance"], 1.0 - 4.0 / 6.0, "{level}");
    }

    let out = run(&toy, &["validate", "toy", "broken"], dir.path());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("toy/FC-1.toy: ok: 3 nodes"), "{text}");
    assert!(
        text.contains("broken/FC-1.toy:3: error: expected `A -> B`"),
        "{text}"
    );
    assert_eq!(out.status.code(), Some(1), "{text}");
}

#[test]
fn the_command_without_the_toy_format_does_not_read_it() {
    let dir = lab();
    let plain = Path::new(env!("CARGO_BIN_EXE_clefeval"));
    let out = run(
        plain,
        &["flowchart", "--gold", "gold", "--run", "toy"],
        dir.path(),
    );
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains("toy: holds no flowchart files (*.txt, *.mmd, *.mermaid, *.md, *.dot, *.gv, *.graphml, *.drawio)"),
        "{text}"
    );
    assert_eq!(out.status.code(), Some(2));
}
