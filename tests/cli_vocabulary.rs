//! The command line's one vocabulary: every command takes the shared
//! options under the same names (short and long, the old names as hidden
//! aliases), every option of `-h` is described, the top-level help lists
//! the exit codes, `--output` with a known extension picks the format, and
//! a reader that closes standard output early ends the output, not the
//! command.

use clap::Parser;
use clefeval::cli::{Cli, Command};
use std::path::PathBuf;
use std::process::{Command as Process, Stdio};

/// Each command with the arguments it requires (never opened: parsing only).
const COMMANDS: &[(&str, &[&str])] = &[
    ("validate", &["g"]),
    ("flowchart", &["--gold", "g", "--run", "r"]),
    ("segmentation", &["--gold", "g", "--run", "r"]),
    ("recognition", &["--gold", "g", "--run", "r"]),
    ("prior-art", &["--qrels", "q", "--run", "r"]),
    ("passage", &["--qrels", "q", "--run", "r"]),
    ("detection", &["--gold", "g", "--run", "r"]),
    ("compare", &["a.json", "b.json"]),
    ("merge", &["p.json"]),
    ("report", &["r.json"]),
    ("demo", &[]),
];

/// The commands that write a result in a choice of formats.
const FORMATTED: &[&str] = &[
    "validate",
    "flowchart",
    "segmentation",
    "recognition",
    "prior-art",
    "passage",
    "detection",
    "compare",
    "report",
];

/// The commands whose work runs in parallel.
const PARALLEL: &[&str] = &["flowchart", "segmentation", "recognition", "detection"];

fn parse(command: &str, extra: &[&str]) -> Result<Cli, clap::Error> {
    let required = COMMANDS.iter().find(|(c, _)| *c == command).unwrap().1;
    let argv = ["clefeval", command]
        .into_iter()
        .chain(required.iter().copied())
        .chain(extra.iter().copied());
    Cli::try_parse_from(argv)
}

fn accepts(command: &str, extra: &[&str]) {
    if let Err(e) = parse(command, extra) {
        panic!("clefeval {command} {}: {e}", extra.join(" "));
    }
}

fn clefeval(args: &[&str]) -> std::process::Output {
    Process::new(env!("CARGO_BIN_EXE_clefeval"))
        .args(args)
        .output()
        .unwrap()
}

fn goldens(rest: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("goldens")
        .join(rest)
}

/// A fresh folder for one test's files, removed when dropped.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("clefeval-{name}-"))
        .tempdir()
        .unwrap()
}

#[test]
fn every_command_takes_quiet_short_and_long() {
    for (command, _) in COMMANDS {
        accepts(command, &["-q"]);
        accepts(command, &["--quiet"]);
    }
}

#[test]
fn every_formatted_command_takes_format_and_output_short_and_long() {
    for command in FORMATTED {
        accepts(command, &["-f", "csv", "-o", "x.csv"]);
        accepts(command, &["--format", "csv", "--output", "x.csv"]);
    }
    accepts("merge", &["-o", "x.json"]);
    accepts("merge", &["--output", "x.json"]);
}

#[test]
fn every_parallel_command_takes_threads_short_and_long() {
    for command in PARALLEL {
        accepts(command, &["-j", "3"]);
        accepts(command, &["--threads", "3"]);
    }
    let Command::Segmentation(a) = parse("segmentation", &["-j", "3"]).unwrap().command else {
        panic!("not segmentation")
    };
    assert_eq!(a.threads, Some(3));
}

#[test]
fn old_names_stay_as_hidden_aliases() {
    let Command::Recognition(a) = parse("recognition", &["--jobs", "2", "--review", "p.html"])
        .unwrap()
        .command
    else {
        panic!("not recognition")
    };
    assert_eq!(a.jobs, Some(2));
    assert_eq!(a.review, Some(PathBuf::from("p.html")));
    let help = String::from_utf8(clefeval(&["recognition", "--help"]).stdout).unwrap();
    assert!(!help.contains("--jobs"), "{help}");
    assert!(!help.contains("--review"), "{help}");
    assert!(help.contains("-j, --threads <N>"), "{help}");
    assert!(help.contains("--html <FILE>"), "{help}");
}

/// The option lines of a help text: each starts with `-` after the indent.
fn option_lines(help: &str) -> Vec<&str> {
    help.lines()
        .filter(|l| l.starts_with("  -") || l.starts_with("      --"))
        .collect()
}

#[test]
fn every_option_of_short_help_has_a_description() {
    for (command, _) in COMMANDS {
        let out = clefeval(&[command, "-h"]);
        assert_eq!(out.status.code(), Some(0), "{command}");
        let help = String::from_utf8(out.stdout).unwrap();
        let lines = option_lines(&help);
        assert!(lines.len() >= 2, "{command}: {help}");
        for line in lines {
            // The option and its value name, then two spaces or more, then words.
            let spec_end = line
                .trim_start()
                .find("  ")
                .map(|i| i + line.len() - line.trim_start().len());
            let described = spec_end.is_some_and(|i| line[i..].trim().len() >= 4);
            assert!(described, "clefeval {command} -h: no description: {line:?}");
        }
    }
}

#[test]
fn long_help_says_more_than_short_help() {
    let short = String::from_utf8(clefeval(&["flowchart", "-h"]).stdout).unwrap();
    let long = String::from_utf8(clefeval(&["flowchart", "--help"]).stdout).unwrap();
    assert!(long.len() > short.len());
    assert!(long.contains("max(|Ft|, |Fs|)"), "{long}");
}

#[test]
fn top_level_help_lists_the_exit_codes() {
    let help = String::from_utf8(clefeval(&["--help"]).stdout).unwrap();
    assert!(help.contains("Exit status:"), "{help}");
    for code in ["  0 ", "  1 ", "  2 ", "  130 "] {
        assert!(help.contains(code), "{code:?} missing: {help}");
    }
}

#[test]
fn a_negative_tolerance_is_refused_with_a_sentence() {
    let out = clefeval(&["compare", "a.json", "b.json", "--tolerance", "-1"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "clefeval: error: --tolerance must be a number ≥ 0\n"
    );
}

/// `-o x.html` is refused before any work (the page is `--html`'s); an
/// extension of no output format writes the table with a warning.
#[test]
fn output_named_as_a_page_is_refused_and_an_unknown_extension_warned() {
    let tmp = scratch("vocab-html");
    let dir = tmp.path();
    let gold = goldens("flowchart/gold");
    let gold = gold.to_str().unwrap();
    for name in ["report.html", "REPORT.HTM"] {
        let page = dir.join(name);
        let out = clefeval(&["validate", gold, "-o", page.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(
            stderr,
            format!(
                "clefeval: error: --output {}: --output writes the table (.txt), the CSV (.csv) \
                 or the JSON (.json), not a page; the page is written by --html FILE\n",
                page.display()
            )
        );
        assert!(!page.exists());
    }
    let notes = dir.join("notes.md");
    let out = clefeval(&["validate", gold, "-o", notes.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let table = clefeval(&["validate", gold]).stdout;
    assert_eq!(std::fs::read(&notes).unwrap(), table);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("has an extension of no output format (.txt, .csv, .json); it is written in --format table"),
        "{stderr}"
    );
}

#[test]
fn output_with_a_json_extension_writes_json() {
    let tmp = scratch("vocab");
    let dir = tmp.path();
    let gold = goldens("flowchart/gold");
    let gold = gold.to_str().unwrap();
    let file = dir.join("x.json");
    let out = clefeval(&["validate", gold, "-o", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let by_extension = std::fs::read_to_string(&file).unwrap();
    let asked = clefeval(&["validate", gold, "--format", "json"]).stdout;
    assert_eq!(by_extension.as_bytes(), asked.as_slice());
    let value: serde_json::Value = serde_json::from_str(&by_extension).unwrap();
    assert_eq!(value["task"], "validate");

    let csv = dir.join("x.csv");
    clefeval(&["validate", gold, "-o", csv.to_str().unwrap()]);
    let asked = clefeval(&["validate", gold, "--format", "csv"]).stdout;
    assert_eq!(std::fs::read(&csv).unwrap(), asked);

    // An explicit --format wins, with a warning naming the mismatch.
    let out = clefeval(&["validate", gold, "-f", "csv", "-o", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(std::fs::read(&file).unwrap(), asked);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("is written in --format csv, not json"),
        "{stderr}"
    );

    // `report` writes no JSON: the extension's format is refused by name.
    let out = clefeval(&["report", "r.json", "-o", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("this command does not write json"),
        "{stderr}"
    );
}

#[test]
fn a_reader_that_stops_early_ends_the_output_not_the_command() {
    let gold = goldens("flowchart/gold");
    let mut child = Process::new(env!("CARGO_BIN_EXE_clefeval"))
        .args(["validate", gold.to_str().unwrap(), "--format", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Closing the read end before the command writes: every write fails
    // with a broken pipe.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8(out.stderr).unwrap(), "");
}

/// Per command, the options that may be given more than once.
const REPEATING: &[(&str, &[&str])] = &[
    ("validate", &[]),
    ("flowchart", &["--gold <PATH>", "--run <PATH>"]),
    ("segmentation", &["--gold <PATH>", "--run <PATH>"]),
    ("recognition", &["--gold <PATH>", "--run <PATH>"]),
    (
        "prior-art",
        &[
            "--run <PATH>",
            "--ranks <N,...>",
            "--compare <MEASURE>",
            "--correlate <NAME,NAME>",
        ],
    ),
    (
        "passage",
        &[
            "--run <PATH>",
            "--ranks <N,...>",
            "--compare <MEASURE>",
            "--correlate <NAME,NAME>",
        ],
    ),
    ("detection", &["--run <PATH>"]),
    ("compare", &[]),
    ("merge", &[]),
    ("report", &["--gold <PATH>", "--run <PATH>"]),
    ("demo", &[]),
];

/// The option (and value) of an option line of a help text.
fn option_spec(line: &str) -> &str {
    let spec = line.trim_start().split("  ").next().unwrap();
    // `-o, --output <FILE>`: the long name.
    spec.split_once(", ").map_or(spec, |(_, long)| long)
}

#[test]
fn every_repeating_option_shows_dots_in_help_and_usage() {
    for &(command, repeating) in REPEATING {
        for flag in ["-h", "--help"] {
            let help = String::from_utf8(clefeval(&[command, flag]).stdout).unwrap();
            let dotted: Vec<&str> = option_lines(&help)
                .into_iter()
                .map(option_spec)
                .filter(|spec| spec.ends_with("..."))
                .collect();
            let want: Vec<String> = repeating.iter().map(|o| format!("{o}...")).collect();
            assert_eq!(dotted, want, "clefeval {command} {flag}: {help}");
        }
    }
    // The usage line names the required ones so, in the help (`-h`,
    // `help COMMAND`) and in an error message alike.
    for (command, required) in [
        ("flowchart", "--gold <PATH>... --run <PATH>..."),
        ("segmentation", "--gold <PATH>... --run <PATH>..."),
        ("recognition", "--gold <PATH>... --run <PATH>..."),
        ("prior-art", "--qrels <FILE> --run <PATH>..."),
        ("passage", "--qrels <FILE> --run <PATH>..."),
        ("detection", "--gold <PATH> --run <PATH>..."),
    ] {
        let usage = format!("Usage: clefeval {command} [OPTIONS] {required}\n");
        for asked in [vec![command, "-h"], vec!["help", command]] {
            let help = String::from_utf8(clefeval(&asked).stdout).unwrap();
            assert!(help.contains(&usage), "{asked:?}: {help}");
        }
        let out = clefeval(&[command]);
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains(&usage), "{command}: {stderr}");
    }
}

#[test]
fn a_repeating_option_still_takes_one_value_each_time() {
    // `--run a b` is one run and a stray argument, as before the dots.
    let out = clefeval(&["flowchart", "--gold", "g", "--run", "a", "b"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("unexpected argument 'b'"), "{stderr}");
    let Command::Report(a) =
        Cli::try_parse_from(["clefeval", "report", "--run", "a", "r.json", "--run", "b"])
            .unwrap()
            .command
    else {
        panic!("not report")
    };
    assert_eq!(a.run, [PathBuf::from("a"), PathBuf::from("b")]);
    assert_eq!(a.result, PathBuf::from("r.json"));
    // The binary parses so too: a missing `r.json` is the input error, not
    // a missing argument.
    let out = clefeval(&["report", "--run", "a", "r.json", "--run", "b"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.starts_with("clefeval: error: r.json:"), "{stderr}");
}

/// `clefeval ARGS` run in the folder `dir`.
fn clefeval_in(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    Process::new(env!("CARGO_BIN_EXE_clefeval"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_closing_line_names_every_file_written_as_given_and_quiet_silences_it() {
    let tmp = scratch("written");
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("out")).unwrap();
    let golden = |rest: &str| goldens(rest).to_str().unwrap().to_owned();
    let (fc_gold, fc_run) = (
        golden("flowchart/gold"),
        golden("flowchart/runs/recognizer-a"),
    );
    let (sg_gold, sg_run) = (golden("segmentation/gold"), golden("segmentation/run-osra"));
    let sg_run2 = golden("segmentation/run-shifted");
    let sg_pages = golden("segmentation/pages");
    let (rc_gold, rc_run) = (
        golden("recognition/gold"),
        golden("recognition/runs/handmade"),
    );
    let (qrels, hand_doc) = (
        golden("passage/hand/qrels.txt"),
        golden("passage/hand/hand-doc"),
    );
    let (base, current) = (
        golden("compare/baseline.json"),
        golden("compare/current.json"),
    );
    let flowchart = |rest: &[&'static str]| -> Vec<&str> {
        let scored = ["flowchart", "--gold", &fc_gold, "--run", &fc_run];
        scored.into_iter().chain(rest.iter().copied()).collect()
    };
    let segmentation = [
        "segmentation",
        "--gold",
        &sg_gold,
        "--run",
        &sg_run,
        "--run",
        &sg_run2,
        "--pages",
        &sg_pages,
    ];
    let runs: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["validate", &fc_gold, "-o", "out/v.csv"],
            "the CSV to out/v.csv",
        ),
        (
            flowchart(&["--partial", "f.jsonl", "--html", "./f.html", "-o", "f.txt"]),
            "the finished pairs to f.jsonl, the HTML page to ./f.html and the table to f.txt",
        ),
        (
            flowchart(&["--shard", "1/2", "-o", "p1.json"]),
            "the JSON to p1.json",
        ),
        (
            flowchart(&["--shard", "2/2", "-o", "p2.json"]),
            "the JSON to p2.json",
        ),
        (
            vec!["merge", "p1.json", "p2.json", "-o", "out/whole.json"],
            "the merged result to out/whole.json",
        ),
        (
            (segmentation.into_iter())
                .chain([
                    "--overlays",
                    "ovl",
                    "--at",
                    "10",
                    "-o",
                    "s.json",
                    "--html",
                    "s.html",
                ])
                .collect(),
            // The PNG files in the folder (empty before), counted below.
            "{N} overlay images into ovl (a folder per run), the JSON to s.json and the HTML page to s.html",
        ),
        (
            vec!["report", "s.json", "-o", "s.txt", "--html", "out/s.html"],
            "the HTML page to out/s.html and the table to s.txt",
        ),
        (
            vec![
                "recognition",
                "--gold",
                &rc_gold,
                "--run",
                &rc_run,
                "--html",
                "r.html",
                "-o",
                "r.csv",
            ],
            "the HTML page to r.html and the CSV to r.csv",
        ),
        (
            vec![
                "prior-art",
                "--qrels",
                &qrels,
                "--run",
                &hand_doc,
                "-f",
                "trec",
                "-o",
                "p.trec",
            ],
            "the trec_eval lines to p.trec",
        ),
        (
            vec!["compare", &base, &current, "-o", "c.txt"],
            "the table to c.txt",
        ),
    ];
    for (args, wrote) in &runs {
        let out = clefeval_in(dir, args);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{args:?}: {out:?}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        let pngs = std::fs::read_dir(dir.join("ovl"))
            .map(|runs| {
                (runs.flatten())
                    .flat_map(|run| std::fs::read_dir(run.path()).unwrap().flatten())
                    .filter(|f| f.path().extension().is_some_and(|e| e == "png"))
                    .count()
            })
            .unwrap_or(0);
        let wrote = wrote.replace("{N}", &pngs.to_string());
        assert_eq!(
            stderr.lines().last(),
            Some(format!("clefeval: wrote {wrote}").as_str()),
            "{args:?}: {stderr}"
        );
    }
    // The count the line was checked against is not a trivial zero.
    assert!(std::fs::read_dir(dir.join("ovl/run-osra")).unwrap().count() > 0);
    for (args, _) in &runs {
        let quiet: Vec<&str> = args.iter().copied().chain(["-q"]).collect();
        let out = clefeval_in(dir, &quiet);
        assert!(matches!(out.status.code(), Some(0 | 1)), "{quiet:?}");
        assert_eq!(String::from_utf8(out.stderr).unwrap(), "", "{quiet:?}");
    }
    // Nothing written to a file, nothing to close with.
    let out = clefeval_in(dir, &["validate", &fc_gold]);
    assert_eq!(String::from_utf8(out.stderr).unwrap(), "");
}

/// One bad value of each task's settings, as each shell is given it, and
/// the phrase the library's one settings constructor words it with: the
/// command line names the option `--time-limit`, Python and C `time_limit`
/// (`python/tests/test_errors.py` and `native/tests/checks.c` hold the
/// same cases).
const BAD_SETTINGS: &[(&str, &[&str], &str, &str)] = &[
    (
        "flowchart",
        &["--time-limit", "-1"],
        "time_limit",
        "must be a number of seconds, not -1",
    ),
    (
        "segmentation",
        &["--tolerances", "0,x"],
        "tolerances",
        "takes whole numbers of pixels in 0..=65535; not \"x\"",
    ),
    (
        "recognition",
        &["--timeout", "0"],
        "timeout",
        "must be a positive number of seconds, not 0",
    ),
    (
        "prior-art",
        &["--cutoff", "0"],
        "cutoff",
        "must be at least 1, not 0",
    ),
    (
        "passage",
        &["--permutations", "0"],
        "permutations",
        "must be at least 1, not 0",
    ),
];

#[test]
fn a_bad_setting_is_worded_by_the_library_before_any_work() {
    let gold = |task: &str| match task {
        "flowchart" => [
            "--gold",
            "goldens/flowchart/gold",
            "--run",
            "goldens/flowchart/runs/recognizer-a",
        ],
        "segmentation" => [
            "--gold",
            "goldens/segmentation/gold",
            "--run",
            "goldens/segmentation/run-osra",
        ],
        "recognition" => [
            "--gold",
            "goldens/recognition/gold",
            "--run",
            "goldens/recognition/runs/handmade",
        ],
        _ => [
            "--qrels",
            "goldens/passage/doc/qrels.txt",
            "--run",
            "goldens/passage/doc/runs",
        ],
    };
    for (task, bad, option, phrase) in BAD_SETTINGS {
        let mut args = vec![*task];
        args.extend(gold(task));
        args.extend(*bad);
        let out = clefeval_in(std::path::Path::new(env!("CARGO_MANIFEST_DIR")), &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        let flag = format!("--{}", option.replace('_', "-"));
        assert_eq!(
            String::from_utf8(out.stderr).unwrap(),
            format!("clefeval: error: {flag} {phrase}\n"),
            "{args:?}"
        );
    }
}

/// The JSON of `segmentation` on the bundled gold and `runs` (each a
/// `--run` argument), run from the project's root.
fn segmentation_json(runs: &[&str]) -> std::process::Output {
    let mut args = vec![
        "segmentation",
        "--gold",
        "goldens/segmentation/gold",
        "-f",
        "json",
    ];
    for run in runs {
        args.extend(["--run", run]);
    }
    clefeval_in(std::path::Path::new(env!("CARGO_MANIFEST_DIR")), &args)
}

fn run_names_of(out: &std::process::Output) -> Vec<String> {
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    (doc["runs"].as_array().unwrap().iter())
        .map(|r| r["run"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_runs_name_never_depends_on_the_other_runs() {
    let alone = segmentation_json(&["goldens/segmentation/run-osra"]);
    let beside = segmentation_json(&[
        "goldens/segmentation/run-shifted",
        "goldens/segmentation/run-osra",
    ]);
    assert_eq!(run_names_of(&alone), ["run-osra"]);
    assert_eq!(run_names_of(&beside), ["run-shifted", "run-osra"]);
}

#[test]
fn two_runs_of_one_name_are_refused_and_named_apart_with_equals() {
    let osra = "goldens/segmentation/run-osra";
    let out = segmentation_json(&[osra, osra]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "clefeval: error: two runs are named `run-osra`: {osra} and {osra}; name them apart with --run NAME=PATH\n"
        )
    );
    let named = segmentation_json(&[&format!("first={osra}"), &format!("second={osra}")]);
    assert_eq!(named.status.code(), Some(0));
    assert_eq!(run_names_of(&named), ["first", "second"]);
    let doc: serde_json::Value = serde_json::from_slice(&named.stdout).unwrap();
    assert_eq!(doc["runs"][0]["tolerances"], doc["runs"][1]["tolerances"]);
    let empty = segmentation_json(&[&format!("={osra}")]);
    assert_eq!(empty.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(empty.stderr).unwrap(),
        format!(
            "clefeval: error: --run ={osra}: a run's name (before the `=`) must not be empty\n"
        )
    );
}

/// What an option's placeholder may say (docs/cli.md, "Placeholders"): a
/// kind, a list of one (`,...`), or a choice (its words, or clap's name of
/// a choice whose `--help` lists the possible values).
const PLACEHOLDERS: &[&str] = &[
    "PATH",
    "FILE",
    "DIR",
    "N",
    "X",
    "SECONDS",
    "MEASURE",
    "NAME",
    "N,...",
    "X,...",
    "NAME,NAME",
    "NAME,...",
    "true|false",
    "N..=N|N,...",
    "N|none",
    "2|10",
    "K/N",
    "FORMAT",
    "LEVEL",
    "DENOMINATOR",
    "ORDER",
    "TASK",
];

#[test]
fn every_command_says_more_with_long_help_and_names_values_by_their_kind() {
    let text = |args: &[&str]| String::from_utf8(clefeval(args).stdout).unwrap();
    for (command, _) in COMMANDS {
        let (short, long) = (text(&[command, "-h"]), text(&[command, "--help"]));
        assert!(
            long.len() > short.len() && long.starts_with(short.lines().next().unwrap()),
            "{command}: -h and --help\n{short}\n{long}"
        );
        for line in long
            .lines()
            .map(str::trim_start)
            .filter(|l| l.starts_with('-'))
        {
            let Some((_, rest)) = line.split_once(" <") else {
                continue;
            };
            let placeholder = rest.split_once('>').unwrap().0;
            assert!(
                PLACEHOLDERS.contains(&placeholder),
                "{command}: <{placeholder}> in {line:?}"
            );
            if line.starts_with("--gold ") || line.starts_with("--run ") {
                assert_eq!(placeholder, "PATH", "{command}: {line}");
            }
        }
    }
}
