//! The C API (`native/`, docs/c-api.md) from C: the committed header is the
//! one cbindgen makes from `native/src` today; the C example
//! `native/examples/score.c`, compiled with `cc` against the header and
//! linked with the shared and with the static library, prints the
//! hand-computed figures of its built-in pairs, the figures the command
//! line writes for a golden flowchart pair, and the recognition outcomes
//! and InChIs of the golden structures; `native/tests/checks.c` prints the
//! expected lines at the edges of the contract.
//!
//! The native crate is built by `cargo build -p clefeval-native` with this
//! test's profile into its own target folder (cargo has released its lock
//! on it by the time tests run), reusing the library `cargo test` built.
//! Set `CLEFEVAL_UPDATE_HEADER=1` to write the header instead of checking
//! it.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The header cbindgen makes from `native/src` with `native/cbindgen.toml`.
fn generated_header() -> String {
    let native = Path::new(ROOT).join("native");
    let config = cbindgen::Config::from_file(native.join("cbindgen.toml")).unwrap();
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(native.join("src/lib.rs"))
        .generate()
        .unwrap();
    let mut bytes = Vec::new();
    bindings.write(&mut bytes);
    String::from_utf8(bytes).unwrap()
}

#[test]
fn committed_header_is_what_cbindgen_generates() {
    let path = Path::new(ROOT).join("native/include/clefeval.h");
    let fresh = generated_header();
    if std::env::var_os("CLEFEVAL_UPDATE_HEADER").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{} is not the header native/src gives: regenerate it with \
         CLEFEVAL_UPDATE_HEADER=1 cargo test --release --test native",
        path.display()
    );
    for name in [
        "clefeval_flowchart_score",
        "clefeval_flowchart_options_default",
        "clefeval_flowchart_score_free",
        "clefeval_recognition_outcome",
        "clefeval_recognition_outcome_isolated",
        "clefeval_recognition_free",
        "clefeval_last_error",
        "CLEFEVAL_STATUS_PARSE_ERROR",
        "CLEFEVAL_LEVEL_ALL",
    ] {
        assert!(fresh.contains(name), "the header lacks {name}");
    }
}

/// The folder of the built libraries (`<target>/<profile>`, where this test
/// binary's `deps/` is), built once with this binary's profile. This test
/// target is selected with them so that the dependencies' features are
/// those `cargo test` chose: the library built for the tests is reused
/// instead of built again.
fn libraries() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let exe = std::env::current_exe().unwrap();
        let profile_dir = exe.ancestors().nth(2).unwrap().to_path_buf();
        let target = profile_dir.parent().unwrap();
        let mut cargo = Command::new(env!("CARGO"));
        cargo.args(["build", "--offline", "--lib"]);
        if profile_dir.ends_with("release") {
            cargo.arg("--release");
        }
        let status = cargo
            .args(["-p", "clefeval-native", "-p", "clefeval"])
            .args(["--test", "native"])
            .arg("--manifest-path")
            .arg(Path::new(ROOT).join("Cargo.toml"))
            .arg("--target-dir")
            .arg(target)
            .status()
            .unwrap();
        assert!(status.success(), "cargo build -p clefeval-native failed");
        profile_dir
    })
}

/// `native/<source>` compiled once with `cc` against the header, linked
/// with the shared or the static library (`static_link`).
fn compiled(source: &str, static_link: bool) -> PathBuf {
    static BUILT: Mutex<BTreeMap<(String, bool), PathBuf>> = Mutex::new(BTreeMap::new());
    let mut built = BUILT.lock().unwrap();
    let key = (source.to_string(), static_link);
    if let Some(binary) = built.get(&key) {
        return binary.clone();
    }
    let lib = libraries();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("native");
    std::fs::create_dir_all(&dir).unwrap();
    let stem = Path::new(source).file_stem().unwrap().to_str().unwrap();
    let link = if static_link { "static" } else { "shared" };
    let binary = dir.join(format!("{stem}-{link}"));
    let mut cc = Command::new(std::env::var_os("CC").unwrap_or("cc".into()));
    cc.args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-O1"])
        .arg(Path::new(ROOT).join("native").join(source))
        .arg("-I")
        .arg(Path::new(ROOT).join("native/include"))
        .arg("-o")
        .arg(&binary);
    if static_link {
        // The system libraries `--print native-static-libs` names.
        cc.arg(lib.join("libclefeval.a")).args([
            "-lgcc_s",
            "-lutil",
            "-lrt",
            "-lpthread",
            "-lm",
            "-ldl",
            "-lc",
        ]);
    } else {
        cc.arg("-L")
            .arg(lib)
            .arg("-lclefeval")
            .arg(format!("-Wl,-rpath,{}", lib.display()))
            .args(["-lpthread", "-lm"]);
    }
    let out = cc
        .output()
        .unwrap_or_else(|e| panic!("cannot run cc ({e}): the C API's checks need a C compiler"));
    assert!(
        out.status.success(),
        "cc {source} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    built.insert(key, binary.clone());
    binary
}

/// The example linked with the shared or the static library.
fn example(static_link: bool) -> PathBuf {
    compiled("examples/score.c", static_link)
}

/// The example's output for `args`; it must exit 0.
fn run_example(static_link: bool, args: &[PathBuf]) -> String {
    let out = Command::new(example(static_link))
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "the example failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// The value of `key=` on the output line starting with `prefix`.
fn field(output: &str, prefix: &str, key: &str) -> String {
    let line = output
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line {prefix:?} in:\n{output}"));
    let at = line
        .find(&format!(" {key}="))
        .unwrap_or_else(|| panic!("no {key}= in {line:?}"));
    line[at + key.len() + 2..]
        .split(' ')
        .next()
        .unwrap()
        .to_string()
}

fn number(output: &str, prefix: &str, key: &str) -> f64 {
    field(output, prefix, key).parse().unwrap()
}

/// The first number written after `"key": ` in JSON text, read exactly.
fn json_number(text: &str, key: &str) -> f64 {
    let label = format!("\"{key}\": ");
    let at = text.find(&label).unwrap() + label.len();
    let token: String = text[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | 'e' | 'E' | '+'))
        .collect();
    token.parse().unwrap()
}

/// The built-in pair, by hand. Gold: START (oval) → Read data (rectangle)
/// → END (oval); run: the same with a diamond in the middle and the label
/// `End`. |Ft| = |Fs| = 3 nodes + 2 edges = 5.
/// - basic: every node maps, both edges kept: |mcs| = 5, d = 1 − 5/5 = 0;
/// - intermediate: only the ovals map (2 ways), no edge is kept:
///   |mcs| = 2, d = 1 − 2/(5 + 5 − 2) = 0.75; max denominator 1 − 2/5 = 0.6;
/// - complete: START↔START, END↔End cost 0 after case folding; the swapped
///   mapping costs ned(start, end) + ned(end, start) = 1 + 1 = 2; best 0,
///   mean 1, per-subgraph mean ned 0 and 1 (bins 0 and 9), d = 0.75.
#[test]
fn c_example_gives_the_hand_computed_figures_of_its_built_in_pairs() {
    let out = run_example(false, &[]);
    assert!(out.starts_with("clefeval 0."), "{out}");
    assert_eq!(field(&out, "sizes:", "gold"), "5");
    assert_eq!(field(&out, "sizes:", "run"), "5");
    assert_eq!(field(&out, "basic:", "mcs"), "5");
    assert_eq!(number(&out, "basic:", "distance"), 0.0);
    assert_eq!(field(&out, "intermediate:", "mcs"), "2");
    assert_eq!(number(&out, "intermediate:", "distance"), 0.75);
    assert_eq!(field(&out, "complete:", "mcs"), "2");
    assert_eq!(number(&out, "complete:", "distance"), 0.75);
    assert_eq!(field(&out, "complete:", "exact"), "1");
    assert_eq!(number(&out, "labels:", "best"), 0.0);
    assert_eq!(number(&out, "labels:", "mean"), 1.0);
    assert_eq!(field(&out, "labels:", "mappings"), "2");
    assert_eq!(field(&out, "labels:", "best_mappings"), "1");
    assert!(out.contains("\nhistogram: 1 0 0 0 0 0 0 0 0 1\n"), "{out}");
    assert!(out.contains("\nmapping: 1:1 3:3\n"), "{out}");
    assert!(out.contains("\nwarnings: none\n"), "{out}");
    assert_eq!(number(&out, "intermediate/max:", "distance"), 0.6);

    let ethanol = "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3";
    let methanol = "InChI=1S/CH4O/c1-2/h2H,1H3";
    let recognition: Vec<&str> = out.split("recognition: ").skip(1).collect();
    assert_eq!(recognition.len(), 2, "{out}");
    assert!(
        recognition[0].starts_with(&format!("match\n  gold {ethanol}\n  run  {ethanol}\n")),
        "{out}"
    );
    assert!(
        recognition[1].starts_with(&format!("wrong\n  gold {ethanol}\n  run  {methanol}\n")),
        "{out}"
    );

    // Failures: the status, the line and the message.
    assert!(
        out.contains(
            "duplicate id: parse error (line 2): run:2: error: duplicate node id 1 \
             (first defined on line 1); this node is ignored\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("null text: null pointer (line 0): gold is a null pointer\n"),
        "{out}"
    );
    assert!(
        out.contains("latin-1 text: invalid UTF-8 (line 1): run:1: not valid UTF-8 (byte 15)"),
        "{out}"
    );
}

/// A golden pair: the example's figures are those of the command line's
/// expected JSON, bit for bit; the golden structures' outcomes and InChIs
/// are those of the independent reference (RDKit with the InChI library).
#[test]
fn c_example_gives_the_command_lines_figures_on_golden_pairs() {
    let goldens = Path::new(ROOT).join("goldens");
    let structures = goldens.join("recognition");
    let mut args = vec![
        goldens.join("flowchart/gold/FC-0001.txt"),
        goldens.join("flowchart/runs/recognizer-a/FC-0001.txt"),
    ];
    let names = [
        "match_aromatic",
        "wrong_changed_element",
        "stereo_flipped_centre",
    ];
    for name in names {
        args.push(structures.join(format!("gold/{name}.mol")));
        args.push(structures.join(format!("runs/handmade/{name}.mol")));
    }
    let out = run_example(false, &args);
    assert_eq!(out, run_example(true, &args), "shared and static differ");

    let text =
        std::fs::read_to_string(goldens.join("flowchart/expected/recognizer-a.json")).unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    let topic = json["runs"][0]["topics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["topic"] == "FC-0001")
        .unwrap();
    assert_eq!(
        field(&out, "sizes:", "gold"),
        topic["gold_size"].to_string()
    );
    assert_eq!(field(&out, "sizes:", "run"), topic["run_size"].to_string());
    // The numbers as written (serde_json's reading may round the last bit).
    let block = &text[text.find("\"topic\": \"FC-0001\"").unwrap()..];
    for level in ["basic", "intermediate", "complete"] {
        let expected = &topic["levels"][level];
        let prefix = format!("{level}:");
        assert_eq!(field(&out, &prefix, "mcs"), expected["mcs"].to_string());
        let written = &block[block.find(&format!("\"{level}\": {{")).unwrap()..];
        let distance = number(&out, &prefix, "distance");
        assert_eq!(distance, json_number(written, "distance"), "{level}");
        assert_eq!(field(&out, &prefix, "exact"), "1");
    }
    let complete = &topic["levels"]["complete"];
    let written = &block[block.find("\"label_cost_best\"").unwrap()..];
    let best = json_number(written, "label_cost_best");
    assert_eq!(number(&out, "labels:", "best"), best);
    let mapping: Vec<String> = complete["mapping"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| format!("{}:{}", pair[0], pair[1]))
        .collect();
    assert!(
        out.contains(&format!("\nmapping: {}\n", mapping.join(" "))),
        "{out}"
    );

    let text = std::fs::read_to_string(structures.join("expected/handmade.json")).unwrap();
    let reference: Value = serde_json::from_str(&text).unwrap();
    let recognition: Vec<&str> = out.split("recognition: ").skip(1).collect();
    assert_eq!(recognition.len(), names.len(), "{out}");
    for (name, printed) in names.iter().zip(recognition) {
        let expected = reference["structures"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == *name)
            .unwrap();
        let want = format!(
            "{}\n  gold {}\n  run  {}\n",
            expected["outcome"].as_str().unwrap(),
            expected["gold_inchi"].as_str().unwrap(),
            expected["run_inchi"].as_str().unwrap()
        );
        assert!(printed.starts_with(&want), "{name}: {printed}");
    }
}

/// The crash-isolated mode (worker processes of the `clefeval` binary)
/// gives what the in-process mode gives; a worker that cannot start is a
/// status with a message naming the program.
#[test]
fn c_example_in_worker_processes_gives_the_same_outcomes() {
    let in_process = run_example(false, &[]);
    let out = Command::new(example(false))
        .env("CLEFEVAL_WORKER", env!("CARGO_BIN_EXE_clefeval"))
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), in_process);

    let out = Command::new(example(false))
        .env("CLEFEVAL_WORKER", "/nonexistent/clefeval")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains(
            "recognition: worker failed (line 0): cannot start the InChI worker /nonexistent/clefeval: "
        ),
        "{stdout}"
    );
}

/// The contract at the edges, from C (`native/tests/checks.c`): options
/// out of range, a search cut by a budget of 1 (inexact, cut by the
/// budget, its interval holding the exact size), warnings and strict
/// reading, levels alone, MOL texts without an InChI, null pointers,
/// freeing twice, the last error cleared by a success, the generic entry
/// (a file pair scored to the golden's distance, a bad setting, an unknown
/// task, field or path), and 4 threads scoring and converting at once. Every line of the expected output was
/// checked by hand against docs/c-api.md.
#[test]
fn c_checks_of_the_contract_print_the_expected_lines() {
    let out = Command::new(compiled("tests/checks.c", false))
        .current_dir(ROOT)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let expected = std::fs::read_to_string(Path::new(ROOT).join("native/tests/checks.expected"));
    assert_eq!(stdout, expected.unwrap());
}
