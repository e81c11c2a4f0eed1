//! A careless user gets a clear error (docs/cli.md, "Input errors"): the
//! real binary on special files, typos, swapped or wrong folders and bad
//! output paths. Every command must end (a harness timeout turns a hang
//! into a failure), name the path involved, and score the other files and
//! runs exactly as it does without the mistake.

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::ffi::{CString, OsStr, OsString};
use std::io::Read;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tempfile::TempDir;

/// How long one command may take before the test calls it a hang.
const TIMEOUT: Duration = Duration::from_secs(20);

/// What one command did.
struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Ran {
    fn text(&self) -> String {
        format!("{}\n{}", self.stdout, self.stderr)
    }

    /// Asserts the exit code and that the output names `path`.
    fn expect(&self, code: i32, path: &Path) -> &Self {
        assert_eq!(self.code, Some(code), "{}", self.text());
        let name = path.display().to_string();
        assert!(
            self.text().contains(&name),
            "{name} not named in:\n{}",
            self.text()
        );
        self
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("{e}: {}", self.text()))
    }
}

/// Runs clefeval from the repository root; kills it and fails the test when
/// it has not ended within [`TIMEOUT`].
fn clefeval<S: AsRef<OsStr>>(args: &[S]) -> Ran {
    let args: Vec<OsString> = args.iter().map(|a| a.as_ref().to_owned()).collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .args(&args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            pipe.read_to_string(&mut text).unwrap();
            text
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > TIMEOUT {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("clefeval {args:?} did not end within {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Ran {
        code: status.code(),
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
}

fn goldens(rest: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("goldens")
        .join(rest)
}

/// A fresh folder for one test, removed when dropped.
fn scratch(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("clefeval-careless-{name}-"))
        .tempdir()
        .unwrap()
}

/// Copies the files of folder `from` into a new folder `to`.
fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let p = entry.unwrap().path();
        std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
    }
}

/// The special file system entries that are no file of data.
#[derive(Clone, Copy, Debug)]
enum Special {
    Fifo,
    Socket,
    Folder,
}

impl Special {
    const ALL: [Special; 3] = [Special::Fifo, Special::Socket, Special::Folder];

    fn make(self, path: &Path) {
        match self {
            Special::Fifo => {
                let c = CString::new(path.as_os_str().as_bytes()).unwrap();
                // SAFETY: `c` is a valid NUL-terminated path.
                assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
            }
            Special::Socket => {
                // The socket file stays when the listener is dropped.
                std::os::unix::net::UnixListener::bind(path).unwrap();
            }
            Special::Folder => std::fs::create_dir(path).unwrap(),
        }
    }
}

/// One command and the data it is tried on: a good run folder, the name a
/// special entry takes in it (a gold topic the run lacks, or an extra file),
/// and how to pick the per-item scores out of the JSON output.
struct Task {
    command: &'static str,
    gold: Option<&'static str>,
    run: &'static str,
    special: &'static str,
    extra: &'static [&'static str],
    scores: fn(&Value) -> BTreeMap<String, Value>,
}

fn keyed(items: &Value, key: &str, drop: &[&str]) -> BTreeMap<String, Value> {
    items
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            let name = item[key].as_str().unwrap();
            let name = Path::new(name).file_name().unwrap().to_string_lossy();
            let mut item = item.clone();
            for field in drop {
                item.as_object_mut().unwrap().remove(*field);
            }
            (name.into_owned(), item)
        })
        .collect()
}

const TASKS: [Task; 4] = [
    Task {
        command: "validate",
        gold: None,
        run: "flowchart/runs/recognizer-a",
        special: "FC-0004.txt",
        extra: &[],
        scores: |v| {
            keyed(
                &v["files"],
                "file",
                &["file", "diagnostics", "diagnostic_list"],
            )
        },
    },
    Task {
        command: "flowchart",
        gold: Some("flowchart/gold"),
        run: "flowchart/runs/recognizer-a",
        special: "FC-0004.txt",
        extra: &["--level", "intermediate", "--quiet"],
        scores: |v| {
            keyed(
                &v["runs"][0]["topics"],
                "topic",
                &["diagnostics", "diagnostic_list"],
            )
        },
    },
    Task {
        command: "segmentation",
        gold: Some("segmentation/gold"),
        run: "segmentation/run-shifted",
        special: "extra.csv",
        extra: &["--quiet"],
        scores: |v| {
            let run = &v["runs"][0];
            ["tolerances", "documents"]
                .into_iter()
                .map(|k| (k.to_string(), run[k].clone()))
                .collect()
        },
    },
    Task {
        command: "recognition",
        gold: Some("recognition/gold"),
        run: "recognition/runs/handmade",
        special: "missing_file.mol",
        extra: &["--quiet"],
        scores: |v| keyed(&v["runs"][0]["structures"], "name", &[]),
    },
];

impl Task {
    /// The command on run paths `runs`, JSON output.
    fn run(&self, runs: &[&Path]) -> Ran {
        let mut args: Vec<OsString> = vec![self.command.into()];
        if let Some(gold) = self.gold {
            args.extend(["--gold".into(), goldens(gold).into_os_string()]);
        }
        for run in runs {
            if self.gold.is_some() {
                args.push("--run".into());
            }
            args.push(run.as_os_str().to_owned());
        }
        args.extend(["--format", "json"].map(OsString::from));
        args.extend(self.extra.iter().map(OsString::from));
        clefeval(&args)
    }

    /// The command on its bundled gold and run, with `extra` arguments.
    fn bundled(&self, extra: &[&OsStr]) -> Ran {
        let mut args: Vec<&OsStr> = vec![self.command.as_ref()];
        let (gold, run) = (self.gold.map(goldens), goldens(self.run));
        if let Some(gold) = &gold {
            args.extend(["--gold".as_ref(), gold.as_os_str(), "--run".as_ref()]);
        }
        args.push(run.as_os_str());
        args.extend(extra);
        clefeval(&args)
    }

    /// The scores of the JSON output without the item named `skip` (the
    /// stem or file name of the special entry).
    fn scores_without(&self, ran: &Ran, skip: &str) -> BTreeMap<String, Value> {
        let mut scores = (self.scores)(&ran.json());
        let stem = Path::new(skip).file_stem().unwrap().to_string_lossy();
        scores.remove(skip);
        scores.remove(stem.as_ref());
        scores
    }
}

#[test]
fn special_files_in_a_run_folder_are_named_and_the_rest_is_scored() {
    for task in &TASKS {
        for special in Special::ALL {
            let tmp = scratch(&format!("special-{}-{special:?}", task.command));
            let dir = tmp.path();
            let clean = dir.join("clean").join("run");
            let odd = dir.join("odd").join("run");
            copy_folder(&goldens(task.run), &clean);
            copy_folder(&goldens(task.run), &odd);
            let entry = odd.join(task.special);
            special.make(&entry);
            let base = task.run(&[&clean]);
            assert_eq!(base.code, Some(i32::from(task.command == "validate")));
            // validate rejects the special entry (exit 1); the others score it
            // as a rejected or unreadable item, or skip it (segmentation).
            let got = task.run(&[&odd]);
            let code = if task.command == "validate" { 1 } else { 0 };
            got.expect(code, &entry);
            assert_eq!(
                task.scores_without(&got, task.special),
                task.scores_without(&base, task.special),
                "{} {special:?}",
                task.command
            );
        }
    }
}

#[test]
fn special_files_given_directly_are_named() {
    for task in &TASKS {
        for special in Special::ALL {
            let tmp = scratch(&format!("direct-{}-{special:?}", task.command));
            let dir = tmp.path();
            let entry = dir.join(task.special);
            special.make(&entry);
            let got = task.run(&[&entry]);
            // A file given directly is read as one: refused and named. A
            // folder is a run folder holding nothing: no run to score.
            let code = match (special, task.command) {
                (Special::Folder, _) | (_, "segmentation") => 2,
                (_, "validate") => 1,
                _ => 0,
            };
            got.expect(code, &entry);
        }
    }
}

#[test]
fn a_fifo_among_the_gold_files_is_named() {
    for task in &TASKS[1..] {
        let tmp = scratch(&format!("gold-fifo-{}", task.command));
        let dir = tmp.path();
        let gold = dir.join("gold");
        copy_folder(&goldens(task.gold.unwrap()), &gold);
        let fifo = gold.join(format!(
            "zz-extra.{}",
            task.special.rsplit('.').next().unwrap()
        ));
        Special::Fifo.make(&fifo);
        let mut args: Vec<&OsStr> = vec![task.command.as_ref(), "--gold".as_ref()];
        let run = goldens(task.run);
        args.extend([gold.as_os_str(), "--run".as_ref(), run.as_os_str()]);
        // Gold flowcharts and structures must all be read; gold boxes are
        // scored when some could be read, the unreadable file named.
        let code = if task.command == "segmentation" { 0 } else { 2 };
        clefeval(&args).expect(code, &fifo);
    }
}

#[test]
fn a_path_that_does_not_exist_stops_every_command_before_scoring() {
    let typo = goldens("flowchart/runs/recognizer-aa");
    for task in &TASKS {
        task.run(&[&typo]).expect(2, &typo);
        if let Some(gold) = task.gold {
            let wrong_gold = goldens(&format!("{gold}-typo"));
            let ran = clefeval(&[
                OsStr::new(task.command),
                "--gold".as_ref(),
                wrong_gold.as_os_str(),
                "--run".as_ref(),
                goldens(task.run).as_os_str(),
            ]);
            ran.expect(2, &wrong_gold);
            assert!(ran.stdout.is_empty(), "{}", ran.stdout);
            // One good run and one typo: still no scoring at all.
            let ran = task.run(&[&goldens(task.run), &typo]);
            ran.expect(2, &typo);
            assert!(ran.stdout.is_empty(), "{}", ran.stdout);
        }
    }
    let [_, _, segmentation, recognition] = &TASKS;
    for pages in ["goldens/no-pages", "goldens/segmentation/gold/gold.csv"] {
        let ran = segmentation.bundled(&["--pages".as_ref(), pages.as_ref()]);
        ran.expect(2, Path::new(pages));
    }
    let ran = recognition.bundled(&["--clips".as_ref(), "goldens/no-pages".as_ref()]);
    ran.expect(2, Path::new("goldens/no-pages"));
}

#[test]
fn an_output_that_cannot_be_written_stops_before_scoring() {
    let tmp = scratch("outputs");
    let dir = tmp.path().to_path_buf();
    let file = dir.join("a-file.txt");
    std::fs::write(&file, "x").unwrap();
    let no_folder = dir.join("no-folder").join("out.html");
    let under_a_file = file.join("out.html");
    let [validate, flowchart, segmentation, recognition] = &TASKS;
    for flag in ["--output", "--html"] {
        for bad in [&no_folder, &under_a_file, &dir] {
            let ran = flowchart.bundled(&[flag.as_ref(), bad.as_os_str()]);
            ran.expect(2, bad);
            assert!(ran.stdout.is_empty(), "{}", ran.stdout);
        }
    }
    let ran = recognition.bundled(&["--review".as_ref(), no_folder.as_os_str()]);
    ran.expect(2, &no_folder);
    for bad in [&file, &no_folder] {
        let overlays = [
            "--pages",
            "goldens/segmentation/pages",
            "--at",
            "10",
            "--overlays",
        ];
        let mut args: Vec<&OsStr> = overlays.iter().map(OsStr::new).collect();
        args.push(bad.as_os_str());
        segmentation.bundled(&args).expect(2, bad);
    }
    validate
        .bundled(&["--output".as_ref(), dir.as_os_str()])
        .expect(2, &dir);
}

#[test]
fn at_without_overlays_is_an_error() {
    let ran = TASKS[2].bundled(&["--at".as_ref(), "10".as_ref()]);
    assert_eq!(ran.code, Some(2), "{}", ran.text());
    assert!(ran.stderr.contains("--overlays"), "{}", ran.stderr);
}

/// The JSON of `flowchart` on `runs` (up to the intermediate level, quick).
fn flowchart_json<S: AsRef<OsStr>>(gold: &str, runs: &[S]) -> Ran {
    let mut args: Vec<OsString> = ["flowchart", "--gold", gold, "--level", "intermediate"]
        .map(OsString::from)
        .to_vec();
    for run in runs {
        args.extend(["--run".into(), run.as_ref().to_owned()]);
    }
    args.extend(["--format", "json", "--quiet"].map(OsString::from));
    clefeval(&args)
}

/// The first run of a flowchart JSON output, as scored.
fn first_run(ran: &Ran) -> Value {
    ran.json()["runs"][0].clone()
}

#[test]
fn a_run_of_the_wrong_kind_is_rejected_and_the_other_runs_are_scored() {
    let gold = "goldens/flowchart/gold";
    let good = "goldens/flowchart/runs/recognizer-a";
    let clean = flowchart_json(gold, &[good]);
    assert_eq!(clean.code, Some(0));
    let empty_tmp = scratch("empty-run");
    let empty = empty_tmp.path();
    let pages_tmp = scratch("rejected-page");
    let pages = pages_tmp.path();
    let wrong = [
        // A folder of MOL files, a box CSV, the parent of the run folders,
        // an empty folder.
        "goldens/recognition/gold",
        "goldens/segmentation/gold/gold.csv",
        "goldens/flowchart/runs",
        empty.to_str().unwrap(),
    ];
    for bad in wrong {
        let ran = flowchart_json(gold, &[good, bad]);
        ran.expect(0, Path::new(bad));
        let json = ran.json();
        assert_eq!(first_run(&ran), first_run(&clean), "{bad}");
        let rejected = &json["rejected_runs"][0];
        assert_eq!(rejected["status"], "rejected");
        assert!(
            rejected["diagnostics"][0].as_str().unwrap().contains(bad),
            "{rejected}"
        );
        // The table says so too, on a line of its own.
        let table = clefeval(&["flowchart", "--gold", gold, "--run", good, "--run", bad]);
        assert_eq!(table.code, Some(0));
        assert!(
            table
                .stdout
                .lines()
                .any(|l| l.starts_with("run ") && l.contains("rejected") && l.contains(bad)),
            "{}",
            table.stdout
        );
        // So does the page.
        let page = pages.join("page.html");
        let html = [
            &["flowchart", "--gold", gold, "--run", good, "--run", bad][..],
            &[
                "--level",
                "basic",
                "--quiet",
                "--html",
                page.to_str().unwrap(),
            ],
        ]
        .concat();
        assert_eq!(clefeval(&html).code, Some(0));
        let written = std::fs::read_to_string(&page).unwrap();
        std::fs::remove_file(&page).unwrap();
        assert!(written.contains("id=\"fc-rejected\""), "{written}");
        assert!(written.contains(bad), "{bad} not on the page");
        // Alone, no run can be scored: exit 2, naming it.
        flowchart_json(gold, &[bad]).expect(2, Path::new(bad));
    }
    // A MOL folder given to segmentation and recognition alike.
    for task in &TASKS[2..] {
        let other = goldens("flowchart/gold");
        let ran = task.run(&[&goldens(task.run), &other]);
        ran.expect(0, &other);
        assert_eq!(ran.json()["rejected_runs"][0]["status"], "rejected");
        task.run(&[empty]).expect(2, empty);
    }
}

#[test]
fn swapped_gold_and_run_or_a_gold_file_as_a_run_are_scored_as_given() {
    let gold = "goldens/flowchart/gold";
    let run = "goldens/flowchart/runs/recognizer-a";
    // Swapped: the run is read as gold, and gold with an error stops the
    // command, naming the file and line.
    let swapped = flowchart_json(run, &[gold]);
    swapped.expect(2, Path::new("recognizer-a/FC-0006.txt:48"));
    assert!(swapped.stdout.is_empty(), "{}", swapped.stdout);
    // And the run given as gold reads cleanly: the error says so.
    assert!(
        swapped.stderr.trim_end().ends_with(&format!(
            "the gold and run folders look swapped: the run {gold} reads without an error"
        )),
        "{}",
        swapped.stderr
    );
    // Gold that cannot be read beside a run that cannot either: no hint.
    let both = flowchart_json(run, &[run]);
    assert_eq!(both.code, Some(2));
    assert!(!both.stderr.contains("swapped"), "{}", both.stderr);
    // A run given as the qrels and the qrels as a run.
    let qrels = goldens("passage/doc/qrels.txt");
    let a_run = goldens("passage/doc/runs/lab1-bm25-PAC");
    let swapped = clefeval(&[
        "prior-art".as_ref(),
        "--qrels".as_ref(),
        a_run.as_os_str(),
        "--run".as_ref(),
        qrels.as_os_str(),
    ]);
    swapped.expect(2, &a_run);
    assert!(
        swapped.stderr.contains(
            "found 6 columns: a run's line, not a judgement (are the qrels and the run swapped?)"
        ),
        "{}",
        swapped.stderr
    );
    // Swapped box files are boxes all the same: scored as given.
    let swapped = clefeval(&[
        "segmentation",
        "--gold",
        "goldens/segmentation/run-shifted",
        "--run",
        "goldens/segmentation/gold",
        "--format",
        "json",
    ]);
    swapped.expect(0, Path::new("goldens/segmentation/run-shifted"));
    assert_eq!(swapped.json()["runs"][0]["run"], "gold");
    // One gold file as a run: its topic scores 0, the others are missing.
    let file = "goldens/flowchart/gold/FC-0001.txt";
    let ran = flowchart_json(gold, &[file]);
    ran.expect(0, Path::new("FC-0001.txt"));
    let topics = first_run(&ran)["topics"].clone();
    let status = |topic: &Value| topic["status"].as_str().unwrap().to_string();
    for topic in topics.as_array().unwrap() {
        let expected = if topic["topic"] == "FC-0001" {
            "ok"
        } else {
            "missing"
        };
        assert_eq!(status(topic), expected, "{topic}");
    }
}

/// A scratch folder holding a copy of the run `recognizer-a` under `name`.
fn copied_run(test: &str, name: &str) -> (TempDir, PathBuf) {
    let dir = scratch(test);
    let run = dir.path().join(name);
    copy_folder(&goldens("flowchart/runs/recognizer-a"), &run);
    (dir, run)
}

/// The topics of the first run scored but `skip`, without their diagnostics
/// (which name the files' paths).
fn topics_without(ran: &Ran, skip: &str) -> BTreeMap<String, Value> {
    let mut topics = keyed(
        &first_run(ran)["topics"],
        "topic",
        &["diagnostics", "diagnostic_list"],
    );
    topics.remove(skip);
    topics
}

/// `flowchart` on the bundled run `recognizer-a`, as it is.
fn clean_flowchart() -> Ran {
    flowchart_json(
        "goldens/flowchart/gold",
        &["goldens/flowchart/runs/recognizer-a"],
    )
}

#[test]
fn a_path_with_spaces_works() {
    let (_dir, run) = copied_run("spaces", "my run folder");
    let ran = flowchart_json("goldens/flowchart/gold", &[&run]);
    ran.expect(0, Path::new("my run folder"));
    assert_eq!(first_run(&ran)["run"], "my run folder");
    assert_eq!(
        topics_without(&ran, ""),
        topics_without(&clean_flowchart(), "")
    );
}

#[test]
fn an_unreadable_file_is_named() {
    use std::os::unix::fs::PermissionsExt;
    let (_dir, run) = copied_run("permissions", "run");
    let locked = run.join("FC-0001.txt");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let ran = flowchart_json("goldens/flowchart/gold", &[&run]);
    assert_eq!(ran.code, Some(0), "{}", ran.text());
    // Root reads a file whatever its permissions, so the file is scored
    // and there is no refusal to look for; anyone else is refused.
    if std::fs::read(&locked).is_err() {
        ran.expect(0, &locked);
        let topic = &first_run(&ran)["topics"][0];
        assert_eq!(topic["status"], "rejected", "{topic}");
        assert_eq!(
            topics_without(&ran, "FC-0001"),
            topics_without(&clean_flowchart(), "FC-0001")
        );
    }
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o644)).unwrap();
}

#[test]
fn a_symlink_loop_is_named() {
    let (_dir, run) = copied_run("loop", "run");
    let looped = run.join("FC-0004.txt");
    std::os::unix::fs::symlink(&looped, &looped).unwrap();
    let ran = flowchart_json("goldens/flowchart/gold", &[&run]);
    ran.expect(0, &looped);
    assert_eq!(
        topics_without(&ran, "FC-0004"),
        topics_without(&clean_flowchart(), "FC-0004")
    );
    // Given directly, the loop is no path to read: exit 2 before scoring.
    flowchart_json("goldens/flowchart/gold", &[&looped]).expect(2, &looped);
    let validate = clefeval(&[OsStr::new("validate"), looped.as_os_str()]);
    validate.expect(2, &looped);
}

/// Every object of `v` holding `"diagnostics"` holds `"diagnostic_list"`
/// too, the same entries as objects (a line `file[:line]: severity:
/// message`; a rejected run's reason `file: message`); returns the objects.
fn diagnostic_lists(v: &Value, found: &mut Vec<Value>) {
    match v {
        Value::Object(map) => {
            if let Some(lines) = map.get("diagnostics") {
                let list = map.get("diagnostic_list").expect("diagnostic_list").clone();
                let (lines, list) = (lines.as_array().unwrap(), list.as_array().unwrap());
                assert_eq!(lines.len(), list.len(), "{v}");
                for (line, d) in lines.iter().zip(list) {
                    let at = match d["line"].as_u64() {
                        Some(n) => format!("{}:{n}", d["file"].as_str().unwrap()),
                        None => d["file"].as_str().unwrap().to_string(),
                    };
                    let message = d["message"].as_str().unwrap();
                    let severity = d["severity"].as_str().unwrap();
                    assert!(["error", "warning"].contains(&severity), "{d}");
                    if let Some(line) = line.as_str() {
                        let plain = format!("{at}: {message}");
                        let full = format!("{at}: {severity}: {message}");
                        assert!(line == full || line == plain, "{line} vs {d}");
                    } else {
                        // validate's diagnostics were objects from the start.
                        let mut d = d.clone();
                        d.as_object_mut().unwrap().remove("suppressed");
                        assert_eq!(line, &d);
                    }
                    found.push(d.clone());
                }
            }
            map.values().for_each(|x| diagnostic_lists(x, found));
        }
        Value::Array(items) => items.iter().for_each(|x| diagnostic_lists(x, found)),
        _ => {}
    }
}

/// The JSON opens with `"task"` then `"version"`, this build's.
fn assert_task_then_version(ran: &Ran, task: &str) {
    let head = format!(
        "{{\n  \"task\": \"{task}\",\n  \"version\": \"{}\",\n",
        env!("CARGO_PKG_VERSION")
    );
    assert!(ran.stdout.starts_with(&head), "{}", ran.text());
}

#[test]
fn every_json_says_its_version_and_lists_diagnostics_as_lines_and_objects() {
    let tmp = scratch("lists");
    let dir = tmp.path();
    let empty = dir.join("empty");
    std::fs::create_dir(&empty).unwrap();
    // A box CSV of 5000 bad lines: 1000 listed, then the closing count.
    let boxes = dir.join("seven");
    copy_folder(&goldens("segmentation/run-shifted"), &boxes);
    let seven = boxes.join("seven.csv");
    std::fs::write(&seven, "EP-1000001-A1,1,1,1,5,5,7\n".repeat(5000)).unwrap();
    // A flowchart file of 2000 errors.
    let capped = dir.join("FC-0001.txt");
    let text = format!("NO 1 oval\n{}", "DE 1 9 plain\n".repeat(2000));
    std::fs::write(&capped, text).unwrap();
    let [validate, flowchart, _, recognition] = &TASKS;
    let closing = |found: &[Value], file: &Path, errors: u64| {
        let last = found
            .iter()
            .find(|d| d["file"] == file.to_str().unwrap() && d.get("suppressed").is_some())
            .unwrap_or_else(|| panic!("no closing diagnostic of {}", file.display()));
        assert_eq!(last["suppressed"]["errors"], errors, "{last}");
        assert_eq!(last["suppressed"]["warnings"], 0, "{last}");
        assert_eq!(last["line"], Value::Null);
        let message =
            format!("{errors} more diagnostics not listed (errors: {errors}, warnings: 0)");
        assert_eq!(last["message"], message.as_str());
    };
    let broken = goldens("flowchart/broken");
    let ran = validate.run(&[&broken, &capped]);
    assert_task_then_version(&ran, "validate");
    let mut found = Vec::new();
    diagnostic_lists(&ran.json(), &mut found);
    assert!(found.len() > 1001, "{}", found.len());
    closing(&found, &capped, 1000);
    let ran = flowchart.run(&[&goldens(flowchart.run), &empty]);
    assert_task_then_version(&ran, "flowchart");
    let mut found = Vec::new();
    diagnostic_lists(&ran.json(), &mut found);
    // The rejected run's reason (fields in name order), and FC-0006's error.
    let messages: Vec<&str> = found
        .iter()
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert_eq!(
        messages[0],
        "holds no flowchart files (*.txt, *.mmd, *.mermaid, *.md, *.dot, *.gv, *.graphml, *.drawio)"
    );
    assert_eq!(found[0]["file"], empty.to_str().unwrap());
    assert_eq!(found[1]["line"], 48);
    let pages = ["--pages", "goldens/segmentation/pages"];
    let mut args: Vec<OsString> = ["segmentation", "--gold", "goldens/segmentation/gold"]
        .map(OsString::from)
        .to_vec();
    args.extend(["--run".into(), boxes.clone().into_os_string()]);
    args.extend(["--run".into(), empty.clone().into_os_string()]);
    args.extend(pages.map(OsString::from));
    args.extend(["--format", "json", "--quiet"].map(OsString::from));
    let ran = clefeval(&args);
    assert_task_then_version(&ran, "segmentation");
    let mut found = Vec::new();
    diagnostic_lists(&ran.json(), &mut found);
    closing(&found, &seven, 4000);
    let ran = recognition.run(&[&goldens(recognition.run), &empty]);
    assert_task_then_version(&ran, "recognition");
    let mut found = Vec::new();
    diagnostic_lists(&ran.json(), &mut found);
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0]["message"],
        "holds no structure files (*.mol, *.sdf, *.smi, *.csv, *.tsv)"
    );
    // compare writes the version too.
    let a = dir.join("a.json");
    std::fs::write(&a, flowchart.run(&[&goldens(flowchart.run)]).stdout).unwrap();
    let args = [OsStr::new("compare"), a.as_os_str(), a.as_os_str()];
    let ran = clefeval(&[&args[..], &["--format".as_ref(), "json".as_ref()]].concat());
    assert_task_then_version(&ran, "flowchart");
}

#[test]
fn a_fifo_named_like_a_page_image_or_a_clip_is_named_and_never_waited_on() {
    let tmp = scratch("fifo-images");
    let dir = tmp.path();
    let pages = dir.join("pages");
    copy_folder(&goldens("segmentation/pages"), &pages);
    let page = pages.join("EP-1000002-A1.tif");
    std::fs::remove_file(&page).unwrap();
    Special::Fifo.make(&page);
    let [_, _, segmentation, recognition] = &TASKS;
    let args = [OsStr::new("--pages"), pages.as_os_str()];
    let ran = segmentation.bundled(&[&args[..], &["--format".as_ref(), "json".as_ref()]].concat());
    ran.expect(0, &page);
    let lines = ran.json()["diagnostics"].clone();
    let lines: Vec<&str> = lines
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    let refused = format!(
        "{}: error: is a FIFO (named pipe), not a regular file; no page checks for this document",
        page.display()
    );
    assert!(lines.contains(&refused.as_str()), "{lines:?}");
    // The other document's page is read: its box past the edge is found.
    assert!(
        ran.text().contains("reaches past page 1 of EP-1000001-A1"),
        "{}",
        ran.text()
    );

    let clips = dir.join("clips");
    std::fs::create_dir(&clips).unwrap();
    let clip = clips.join("formula_moved_substituent.png");
    Special::Fifo.make(&clip);
    let review = dir.join("review.html");
    let args = [
        OsStr::new("--clips"),
        clips.as_os_str(),
        "--review".as_ref(),
        review.as_os_str(),
        "--quiet".as_ref(),
    ];
    let ran = recognition.bundled(&args);
    assert_eq!(ran.code, Some(0), "{}", ran.text());
    let page = std::fs::read_to_string(&review).unwrap();
    let note = format!(
        "clip {}: is a FIFO (named pipe), not a regular file",
        clip.display()
    );
    assert!(page.contains(&note), "{note} not on the review page");
}

#[test]
fn every_command_words_the_same_mistake_the_same_way() {
    let tmp = scratch("wording");
    let dir = tmp.path();
    let [validate, flowchart, segmentation, recognition] = &TASKS;
    // A path that does not exist.
    let typo = dir.join("no-such-run");
    for task in &TASKS {
        let flag = if task.gold.is_some() { "--run " } else { "" };
        let ran = task.run(&[&typo]);
        let message = format!(
            "clefeval: error: {flag}{}: no such file or folder\n",
            typo.display()
        );
        assert_eq!((ran.code, ran.stderr.as_str()), (Some(2), message.as_str()));
    }
    for r in &RETRIEVAL {
        let ran = r.runs(&[&typo]);
        let message = format!(
            "clefeval: error: --run {}: no such file or folder\n",
            typo.display()
        );
        assert_eq!((ran.code, ran.stderr.as_str()), (Some(2), message.as_str()));
    }
    let result = dir.join("result.json");
    std::fs::write(&result, flowchart.run(&[&goldens(flowchart.run)]).stdout).unwrap();
    // The commands that read result files (`compare`, `merge`, `report`)
    // word it the same.
    let compare = |baseline: &Path| {
        let ran = clefeval(&[
            OsStr::new("compare"),
            baseline.as_os_str(),
            result.as_os_str(),
        ]);
        assert_eq!(ran.code, Some(2), "{}", ran.text());
        for command in ["merge", "report"] {
            let other = clefeval(&[OsStr::new(command), baseline.as_os_str()]);
            assert_eq!(
                (other.code, &other.stderr),
                (Some(2), &ran.stderr),
                "{command}"
            );
        }
        ran.stderr
    };
    let message = format!(
        "clefeval: error: {}: no such file or folder\n",
        typo.display()
    );
    assert_eq!(compare(&typo), message);
    // A folder or a FIFO where a file is read: in a run folder, and as a
    // file `compare` reads.
    for (special, kind) in [
        (Special::Folder, "a folder"),
        (Special::Fifo, "a FIFO (named pipe)"),
    ] {
        for task in &TASKS {
            let run = dir.join(format!("{}-{special:?}", task.command));
            copy_folder(&goldens(task.run), &run);
            let entry = run.join(task.special);
            special.make(&entry);
            let ran = task.run(&[&run]);
            let what = format!("is {kind}, not a regular file");
            // A diagnostic about the entry, or (recognition) a structure's
            // reason, `PATH: WHAT`.
            let mut found = Vec::new();
            diagnostic_lists(&ran.json(), &mut found);
            let file = entry.to_str().unwrap();
            let named = found
                .iter()
                .any(|d| d["file"] == file && d["message"] == what.as_str());
            let why = format!("{file}: {what}");
            let reason = ran.json()["runs"][0]["structures"]
                .as_array()
                .is_some_and(|s| s.iter().any(|s| s["reason"] == why.as_str()));
            assert!(named || reason, "{}: {}", task.command, ran.text());
        }
        let entry = dir.join(format!("{special:?}.json"));
        special.make(&entry);
        let message = format!(
            "clefeval: error: {}: is {kind}, not a regular file\n",
            entry.display()
        );
        assert_eq!(compare(&entry), message);
        // The same entry as the qrels or the groups of a retrieval command.
        for r in &RETRIEVAL {
            for ran in [
                r.on(Some(&entry), None, &[&r.good()]),
                r.on(None, Some(&entry), &[&r.good()]),
            ] {
                assert_eq!((ran.code, ran.stderr.as_str()), (Some(2), message.as_str()));
            }
        }
    }
    // A FIFO in a retrieval run folder is a run rejected with that reason
    // (a folder in it is no run: skipped).
    for r in &RETRIEVAL {
        let run = dir.join(format!("{}-fifo", r.command));
        copy_folder(r.good().parent().unwrap(), &run);
        let entry = run.join("zz-special");
        Special::Fifo.make(&entry);
        let mut found = Vec::new();
        diagnostic_lists(&r.runs(&[&run]).json(), &mut found);
        let what = "is a FIFO (named pipe), not a regular file";
        assert!(
            found
                .iter()
                .any(|d| d["file"] == entry.to_str().unwrap() && d["message"] == what),
            "{}: {found:?}",
            r.command
        );
    }
    // Binary data named like an input file.
    let binary = b"GIF89a\x01\x00\x00\x00junk";
    for (task, kind) in [
        (validate, "a flowchart file"),
        (flowchart, "a flowchart file"),
        (segmentation, "a box CSV file"),
        (recognition, "a MOL file"),
    ] {
        let run = dir.join(format!("{}-binary", task.command));
        copy_folder(&goldens(task.run), &run);
        let entry = run.join(task.special);
        std::fs::write(&entry, binary).unwrap();
        let text = task.run(&[&run]).text();
        let message = format!("binary data (a NUL byte), not {kind}; not read");
        assert!(text.contains(&message), "{}: {text}", task.command);
    }
    for r in &RETRIEVAL {
        let run = dir.join(format!("{}-binary", r.command));
        std::fs::create_dir(&run).unwrap();
        r.copy_into(&run, "a-run");
        std::fs::write(run.join("zz-binary"), binary).unwrap();
        let text = r.runs(&[&run]).text();
        let message = "binary data (a NUL byte), not a text file; not read";
        assert!(text.contains(message), "{}: {text}", r.command);
    }
    let junk = dir.join("junk.json");
    std::fs::write(&junk, binary).unwrap();
    let message = format!(
        "clefeval: error: {}: binary data (a NUL byte), not a JSON result file; not read\n",
        junk.display()
    );
    assert_eq!(compare(&junk), message);
    // An empty folder: as the gold (validate: as its path), and as a run.
    let empty = dir.join("empty");
    std::fs::create_dir(&empty).unwrap();
    let kinds = [
        "flowchart files (*.txt, *.mmd, *.mermaid, *.md, *.dot, *.gv, *.graphml, *.drawio)",
        "flowchart files (*.txt, *.mmd, *.mermaid, *.md, *.dot, *.gv, *.graphml, *.drawio)",
        "readable box files (*.csv, *.sdf, *.json)",
        "structure files (*.mol, *.sdf, *.smi, *.csv, *.tsv)",
    ];
    for (task, kind) in TASKS.iter().zip(kinds) {
        let holds_no = format!("{}: holds no {kind}", empty.display());
        let ran = match task.gold {
            None => task.run(&[&empty]),
            Some(_) => clefeval(&[
                OsStr::new(task.command),
                "--gold".as_ref(),
                empty.as_os_str(),
                "--run".as_ref(),
                goldens(task.run).as_os_str(),
            ]),
        };
        let flag = if task.gold.is_some() { "--gold " } else { "" };
        let message = format!("clefeval: error: {flag}{holds_no}\n");
        assert_eq!((ran.code, ran.stderr.as_str()), (Some(2), message.as_str()));
        if task.gold.is_some() {
            let ran = task.run(&[&goldens(task.run), &empty]);
            assert_eq!(ran.code, Some(0), "{}", ran.text());
            assert_eq!(
                ran.json()["rejected_runs"][0]["diagnostics"][0],
                holds_no.as_str()
            );
            let listed = &ran.json()["rejected_runs"][0]["diagnostic_list"][0];
            assert_eq!(listed["message"], format!("holds no {kind}").as_str());
        }
    }
    // Retrieval runs are rejected in their place among the runs.
    for r in &RETRIEVAL {
        let ran = r.runs(&[&r.good(), &empty]);
        assert_eq!(ran.code, Some(0), "{}", ran.text());
        let listed = &ran.json()["runs"][1]["diagnostic_list"][0];
        assert_eq!(listed["file"], empty.to_str().unwrap());
        assert_eq!(listed["message"], "holds no run file");
    }
    // An output whose folder does not exist.
    let out = dir.join("no-folder").join("out.txt");
    let message = format!(
        "clefeval: error: cannot write {}: folder {} does not exist\n",
        out.display(),
        dir.join("no-folder").display()
    );
    for task in &TASKS {
        let ran = task.bundled(&["--output".as_ref(), out.as_os_str()]);
        assert_eq!((ran.code, ran.stderr.as_str()), (Some(2), message.as_str()));
    }
    for r in &RETRIEVAL {
        let (qrels, run) = (goldens(r.qrels), r.good());
        let ran = clefeval(&[
            OsStr::new(r.command),
            "--qrels".as_ref(),
            qrels.as_os_str(),
            "--run".as_ref(),
            run.as_os_str(),
            "--output".as_ref(),
            out.as_os_str(),
        ]);
        assert_eq!((ran.code, ran.stderr.as_str()), (Some(2), message.as_str()));
    }
    let ran = clefeval(&[
        OsStr::new("compare"),
        result.as_os_str(),
        result.as_os_str(),
        "--output".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!((ran.code, ran.stderr.as_str()), (Some(2), message.as_str()));
}

/// A text-retrieval command on its bundled data (`goldens/passage/`): the
/// qrels, the groups, and one good run file.
struct Retrieval {
    command: &'static str,
    qrels: &'static str,
    groups: &'static str,
    run: &'static str,
}

const RETRIEVAL: [Retrieval; 2] = [
    Retrieval {
        command: "prior-art",
        qrels: "passage/doc/qrels.txt",
        groups: "passage/doc/groups.txt",
        run: "passage/doc/runs/lab4-short-PAC",
    },
    Retrieval {
        command: "passage",
        qrels: "passage/passage/qrels.txt",
        groups: "passage/passage/groups.txt",
        run: "passage/passage/runs/lab1-bm25-PSG",
    },
];

impl Retrieval {
    /// The good run file.
    fn good(&self) -> PathBuf {
        goldens(self.run)
    }

    /// The good run's name, its file name.
    fn name(&self) -> &'static str {
        self.run.rsplit('/').next().unwrap()
    }

    /// A copy of the good run in `folder`, under `name`.
    fn copy_into(&self, folder: &Path, name: &str) -> PathBuf {
        let copy = folder.join(name);
        std::fs::copy(self.good(), &copy).unwrap();
        copy
    }

    /// The command on the run paths `runs`, JSON output, with `qrels` and
    /// `groups` in place of the bundled ones when given.
    fn on(&self, qrels: Option<&Path>, groups: Option<&Path>, runs: &[&Path]) -> Ran {
        let qrels = qrels.map_or_else(|| goldens(self.qrels), Path::to_path_buf);
        let groups = groups.map_or_else(|| goldens(self.groups), Path::to_path_buf);
        let mut args: Vec<OsString> = vec![self.command.into()];
        args.extend(["--qrels".into(), qrels.into_os_string()]);
        args.extend(["--groups".into(), groups.into_os_string()]);
        for run in runs {
            args.extend(["--run".into(), run.as_os_str().to_owned()]);
        }
        args.extend(["--format", "json"].map(OsString::from));
        clefeval(&args)
    }

    /// The command on the bundled qrels and groups and the run paths `runs`.
    fn runs(&self, runs: &[&Path]) -> Ran {
        self.on(None, None, runs)
    }

    /// The good run scored alone, as [`scored_runs`] gives it.
    fn clean(&self) -> Value {
        let ran = self.runs(&[&self.good()]);
        assert_eq!(ran.code, Some(0), "{}", ran.text());
        scored_runs(&ran).remove(self.name()).unwrap()
    }
}

/// The runs of a retrieval JSON output by name, without their `file`.
fn scored_runs(ran: &Ran) -> BTreeMap<String, Value> {
    keyed(&ran.json()["runs"], "run", &["file"])
}

/// The run `name` of `runs` is rejected for one reason, about `path`.
fn rejected_for(runs: &BTreeMap<String, Value>, name: &str, path: &Path, why: &str) {
    let run = &runs[name];
    assert_eq!(run["status"], "rejected", "{run}");
    let list = run["diagnostic_list"].as_array().unwrap();
    assert_eq!(list.len(), 1, "{run}");
    assert_eq!(list[0]["file"], path.to_str().unwrap(), "{run}");
    assert_eq!(list[0]["message"], why, "{run}");
}

/// `is a FIFO (named pipe), not a regular file` and the like.
fn not_regular(special: Special) -> &'static str {
    match special {
        Special::Fifo => "is a FIFO (named pipe), not a regular file",
        Special::Socket => "is a socket, not a regular file",
        Special::Folder => "is a folder, not a regular file",
    }
}

#[test]
fn a_retrieval_run_that_is_no_regular_file_is_rejected_and_never_waited_on() {
    for r in &RETRIEVAL {
        let clean = r.clean();
        for special in [Special::Fifo, Special::Socket] {
            let tmp = scratch(&format!("retrieval-run-{}-{special:?}", r.command));
            let dir = tmp.path();
            let why = not_regular(special);
            // Given directly: alone, no run can be scored.
            let entry = dir.join("odd-run");
            special.make(&entry);
            let alone = r.runs(&[&entry]);
            alone.expect(2, &entry);
            assert!(alone.stdout.is_empty(), "{}", alone.stdout);
            let line = format!("run odd-run rejected: {}: error: {why}", entry.display());
            assert!(alone.stderr.contains(&line), "{}", alone.stderr);
            // Beside the good run: rejected in its place, the good run
            // scored as alone.
            let ran = r.runs(&[&r.good(), &entry]);
            ran.expect(0, &entry);
            let runs = scored_runs(&ran);
            assert_eq!(runs.len(), 2, "{}", ran.text());
            assert_eq!(ran.json()["runs"][1]["run"], "odd-run");
            rejected_for(&runs, "odd-run", &entry, why);
            let good = r.name();
            assert_eq!(runs[good], clean, "{} {special:?}", r.command);
            // In a run folder beside a copy of the good run.
            let folder = dir.join("runs");
            std::fs::create_dir(&folder).unwrap();
            r.copy_into(&folder, good);
            let inside = folder.join("zz-odd");
            special.make(&inside);
            let ran = r.runs(&[&folder]);
            ran.expect(0, &inside);
            let runs = scored_runs(&ran);
            assert_eq!(runs.len(), 2, "{}", ran.text());
            rejected_for(&runs, "zz-odd", &inside, why);
            assert_eq!(runs[good], clean, "{} {special:?}", r.command);
        }
        // A folder given directly holds no run file; one inside a run
        // folder is no run and is skipped.
        let tmp = scratch(&format!("retrieval-run-{}-folder", r.command));
        let dir = tmp.path();
        let folder = dir.join("runs");
        std::fs::create_dir(&folder).unwrap();
        let ran = r.runs(&[&r.good(), &folder]);
        ran.expect(0, &folder);
        rejected_for(&scored_runs(&ran), "runs", &folder, "holds no run file");
        r.copy_into(&folder, "a-run");
        std::fs::create_dir(folder.join("zz-folder")).unwrap();
        let ran = r.runs(&[&folder]);
        assert_eq!(ran.code, Some(0), "{}", ran.text());
        let runs = scored_runs(&ran);
        assert_eq!(runs.keys().collect::<Vec<_>>(), ["a-run"], "{}", ran.text());
        let mut renamed = runs["a-run"].clone();
        renamed["run"] = clean["run"].clone();
        assert_eq!(renamed, clean);
    }
}

#[test]
fn qrels_or_groups_that_are_no_regular_file_stop_before_scoring() {
    for r in &RETRIEVAL {
        for special in Special::ALL {
            let tmp = scratch(&format!("retrieval-gold-{}-{special:?}", r.command));
            let dir = tmp.path();
            let entry = dir.join("judgements.txt");
            special.make(&entry);
            let message = format!(
                "clefeval: error: {}: {}\n",
                entry.display(),
                not_regular(special)
            );
            for ran in [
                r.on(Some(&entry), None, &[&r.good()]),
                r.on(None, Some(&entry), &[&r.good()]),
            ] {
                assert_eq!((ran.code, ran.stderr.as_str()), (Some(2), message.as_str()));
                assert!(ran.stdout.is_empty(), "{}", ran.stdout);
            }
            // validate reads the qrels through the same rule.
            let ran = clefeval(&[
                OsStr::new("validate"),
                "--task".as_ref(),
                r.command.as_ref(),
                "--qrels".as_ref(),
                entry.as_os_str(),
                r.good().as_os_str(),
            ]);
            assert_eq!((ran.code, ran.stderr.as_str()), (Some(2), message.as_str()));
        }
    }
}

#[test]
fn validate_refuses_a_retrieval_run_that_is_no_regular_file() {
    /// `validate --task COMMAND` on `paths`: the exit code and its files
    /// by name.
    fn validate(command: &str, paths: &[&Path]) -> (Option<i32>, BTreeMap<String, Value>) {
        let mut args: Vec<&OsStr> = ["validate", "--task", command, "--format", "json"]
            .map(OsStr::new)
            .to_vec();
        args.extend(paths.iter().map(|p| p.as_os_str()));
        let ran = clefeval(&args);
        (ran.code, keyed(&ran.json()["files"], "file", &[]))
    }
    /// A file's verdict and counts.
    fn verdict(file: &Value) -> [&Value; 5] {
        ["status", "lines", "topics", "errors", "warnings"].map(|k| &file[k])
    }
    for r in &RETRIEVAL {
        let good = r.name();
        let (_, alone) = validate(r.command, &[&r.good()]);
        for special in [Special::Fifo, Special::Socket] {
            let tmp = scratch(&format!("retrieval-validate-{}-{special:?}", r.command));
            let dir = tmp.path().to_path_buf();
            r.copy_into(&dir, good);
            let entry = dir.join("zz-odd");
            special.make(&entry);
            for path in [&entry, &dir] {
                let (code, files) = validate(r.command, &[path]);
                assert_eq!(code, Some(1), "{files:?}");
                let odd = &files["zz-odd"];
                assert_eq!(odd["file"], entry.to_str().unwrap());
                let rejected = [json!("rejected"), json!(0), json!(0), json!(1), json!(0)];
                assert_eq!(verdict(odd), rejected.each_ref());
                assert_eq!(odd["diagnostics"][0]["message"], not_regular(special));
                if path == &dir {
                    assert_eq!(verdict(&files[good]), verdict(&alone[good]));
                }
            }
        }
    }
}

#[test]
fn a_symlink_loop_among_retrieval_inputs_is_named() {
    for r in &RETRIEVAL {
        let clean = r.clean();
        let tmp = scratch(&format!("retrieval-loop-{}", r.command));
        let dir = tmp.path();
        let good = r.name();
        r.copy_into(dir, good);
        let looped = dir.join("zz-loop");
        std::os::unix::fs::symlink(&looped, &looped).unwrap();
        // In a run folder: that run is rejected with the file system's
        // reason, the good run scored as alone.
        let ran = r.runs(&[dir]);
        ran.expect(0, &looped);
        let runs = scored_runs(&ran);
        let reason = runs["zz-loop"]["diagnostic_list"][0]["message"].clone();
        assert!(
            reason.as_str().unwrap().starts_with("cannot read: "),
            "{reason}"
        );
        rejected_for(&runs, "zz-loop", &looped, reason.as_str().unwrap());
        assert_eq!(runs[good], clean, "{}", r.command);
        // Given as a run, the qrels or the groups: no path to read, exit 2
        // before scoring.
        for (flag, ran) in [
            ("--run", r.runs(&[&looped])),
            ("--qrels", r.on(Some(&looped), None, &[&r.good()])),
            ("--groups", r.on(None, Some(&looped), &[&r.good()])),
        ] {
            let head = format!(
                "clefeval: error: {flag} {}: cannot read: ",
                looped.display()
            );
            assert_eq!(ran.code, Some(2), "{}", ran.text());
            assert!(ran.stderr.starts_with(&head), "{}", ran.stderr);
            assert!(ran.stdout.is_empty(), "{}", ran.stdout);
        }
    }
}

#[test]
fn a_retrieval_run_path_with_spaces_works() {
    for r in &RETRIEVAL {
        let clean = r.clean();
        let tmp = scratch(&format!("retrieval-spaces-{}", r.command));
        let dir = tmp.path();
        let folder = dir.join("my run folder");
        std::fs::create_dir(&folder).unwrap();
        let good = r.name();
        let file = r.copy_into(&folder, good);
        for path in [&folder, &file] {
            let ran = r.runs(&[path]);
            assert_eq!(ran.code, Some(0), "{}", ran.text());
            assert_eq!(ran.json()["runs"][0]["file"], file.to_str().unwrap());
            assert_eq!(scored_runs(&ran)[good], clean, "{}", r.command);
        }
        // A run file whose own name has spaces is named by it.
        let spaced = folder.join("lab 9 run");
        std::fs::rename(&file, &spaced).unwrap();
        let ran = r.runs(&[&spaced]);
        assert_eq!(ran.code, Some(0), "{}", ran.text());
        let mut run = scored_runs(&ran)["lab 9 run"].clone();
        run["run"] = clean["run"].clone();
        assert_eq!(run, clean, "{}", r.command);
    }
}

/// The `skipped_files` of a JSON output as `(file name, reason)`.
fn skipped(ran: &Ran) -> Vec<(String, String)> {
    let json = ran.json();
    let Some(list) = json.get("skipped_files") else {
        return Vec::new();
    };
    (list.as_array().unwrap().iter())
        .map(|s| {
            let file = Path::new(s["file"].as_str().unwrap());
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            (name, s["reason"].as_str().unwrap().to_string())
        })
        .collect()
}

#[test]
fn files_a_task_does_not_take_are_listed_as_skipped_and_never_scored() {
    // A flowchart run with a README, a picture and a misnamed topic file:
    // each listed with why, the topic missing, every other topic scored as
    // before.
    let (_dir, run) = copied_run("skipped", "recognizer-a");
    std::fs::rename(run.join("FC-0001.txt"), run.join("FC-001.txt")).unwrap();
    std::fs::write(run.join("README.md"), "# Our run\n\nMade with model X.\n").unwrap();
    std::fs::write(run.join("figure.png"), b"\x89PNG\r\n").unwrap();
    let ran = flowchart_json("goldens/flowchart/gold", &[&run]);
    assert_eq!(ran.code, Some(0), "{}", ran.text());
    let reasons = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        (pairs.iter())
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    assert_eq!(
        skipped(&ran),
        reasons(&[
            (
                "FC-001.txt",
                "no gold file has this stem (nearest: FC-0001)"
            ),
            ("README.md", "no diagram block: not a flowchart file"),
            (
                "figure.png",
                "not one of the flowchart files (*.txt, *.mmd, *.mermaid, *.md, *.dot, *.gv, *.graphml, *.drawio)"
            ),
        ])
    );
    let topics = keyed(&first_run(&ran)["topics"], "topic", &[]);
    assert_eq!(topics["FC-0001"]["status"], "missing");
    assert_eq!(
        topics_without(&ran, "FC-0001"),
        topics_without(&clean_flowchart(), "FC-0001")
    );
    // The table ends with them, one line each.
    let table = clefeval(&[
        "flowchart".as_ref(),
        "--gold".as_ref(),
        "goldens/flowchart/gold".as_ref(),
        "--run".as_ref(),
        run.as_os_str(),
        "--level".as_ref(),
        "basic".as_ref(),
    ]);
    let tail: Vec<&str> = table.stdout.lines().rev().take(3).collect();
    assert_eq!(
        tail,
        [
            format!(
                "skipped {}: not one of the flowchart files (*.txt, *.mmd, *.mermaid, *.md, *.dot, *.gv, *.graphml, *.drawio)",
                run.join("figure.png").display()
            ),
            format!(
                "skipped {}: no diagram block: not a flowchart file",
                run.join("README.md").display()
            ),
            format!(
                "skipped {}: no gold file has this stem (nearest: FC-0001)",
                run.join("FC-001.txt").display()
            ),
        ]
    );

    // A retrieval run folder: a README of `#` lines, a prose note and an
    // empty file are no runs, listed and not ranked; a qrels file is read
    // and rejected for what it looks like; the two runs are scored.
    let dir = scratch("skipped-runs");
    let runs = dir.path().join("runs");
    copy_folder(&goldens("passage/doc/runs"), &runs);
    let scored: Vec<String> = std::fs::read_dir(&runs)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    std::fs::write(
        runs.join("README.md"),
        "# The runs of group X\n# made in 2026\n",
    )
    .unwrap();
    std::fs::write(
        runs.join("NOTES.txt"),
        "These are our runs.\nEach file is one run.\n",
    )
    .unwrap();
    std::fs::write(runs.join("empty"), "").unwrap();
    std::fs::copy(goldens("passage/doc/qrels.txt"), runs.join("qrels-copy")).unwrap();
    let qrels = goldens("passage/doc/qrels.txt");
    let prior_art = |runs: &Path, format: &str| {
        clefeval(&[
            "prior-art".as_ref(),
            "--qrels".as_ref(),
            qrels.as_os_str(),
            "--run".as_ref(),
            runs.as_os_str(),
            "--format".as_ref(),
            format.as_ref(),
            "--quiet".as_ref(),
        ])
    };
    let ran = prior_art(&runs, "json");
    assert_eq!(ran.code, Some(0), "{}", ran.text());
    let not_a_run = "not a run: none of its lines has the columns of a run";
    assert_eq!(
        skipped(&ran),
        reasons(&[
            ("NOTES.txt", not_a_run),
            ("README.md", not_a_run),
            ("empty", not_a_run)
        ])
    );
    let listed = ran.json()["runs"].clone();
    let names: Vec<&str> = (listed.as_array().unwrap().iter())
        .map(|r| r["run"].as_str().unwrap())
        .collect();
    let mut expected: Vec<&str> = scored.iter().map(String::as_str).collect();
    expected.push("qrels-copy");
    expected.sort();
    assert_eq!(names, expected);
    let rejected = &listed[names.iter().position(|n| *n == "qrels-copy").unwrap()];
    assert_eq!(rejected["status"], "rejected", "{rejected}");
    assert!(
        rejected["diagnostics"][0]
            .as_str()
            .unwrap()
            .contains("looks like a qrels file"),
        "{rejected}"
    );
    // Each scored run as it is alone.
    let alone = prior_art(&goldens("passage/doc/runs"), "json").json();
    for (r, name) in names
        .iter()
        .enumerate()
        .filter(|(_, n)| **n != "qrels-copy")
    {
        let same = (alone["runs"].as_array().unwrap().iter())
            .find(|a| a["run"] == *name)
            .unwrap();
        for key in ["topics", "all", "missing", "duplicates"] {
            assert_eq!(listed[r][key], same[key], "{name} {key}");
        }
    }
    let table = prior_art(&runs, "table");
    assert!(table.stdout.ends_with(&format!(
        "skipped {}: {not_a_run}\n",
        runs.join("empty").display()
    )));
    assert!(
        !table.stdout.contains("== run README.md"),
        "{}",
        table.stdout
    );

    // The other tasks list a README in a run folder too.
    for task in &TASKS[2..] {
        let dir = scratch("skipped-task");
        let run = dir.path().join("run");
        copy_folder(&goldens(task.run), &run);
        std::fs::write(run.join("README.md"), "notes\n").unwrap();
        let ran = task.run(&[&run]);
        assert_eq!(ran.code, Some(0), "{}", ran.text());
        let (file, reason) = skipped(&ran).into_iter().next().unwrap();
        assert_eq!(file, "README.md", "{}", task.command);
        assert!(reason.starts_with("not one of the "), "{reason}");
        assert_eq!(
            task.scores_without(&ran, "README.md"),
            task.scores_without(
                &task.bundled(&["--format".as_ref(), "json".as_ref(), "--quiet".as_ref()]),
                "README.md"
            ),
            "{}",
            task.command
        );
    }
}
