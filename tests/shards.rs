//! `--shard K/N` and `clefeval merge` end to end: every part of an
//! evaluation of the goldens (flowchart, segmentation, recognition, and the
//! text tasks `prior-art` and `passage` with their topic groups) run as its
//! own process, the parts merged in any order, and the merged result byte
//! for byte the result of one whole run, for N = 1, 3 and 7 (7 is more
//! parts than some goldens have topics: empty parts included). Files that are not the parts of one evaluation,
//! a part missing or given twice, and a shard that is no part are refused
//! with their reason.

use std::path::Path;
use std::process::{Command, Output};
use tempfile::TempDir;

fn clefeval(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("the clefeval binary runs")
}

/// The standard output of a command that must succeed.
fn ok(args: &[&str]) -> Vec<u8> {
    let out = clefeval(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    out.stdout
}

/// The error of a command that must stop with exit 2.
fn refused(args: &[&str]) -> String {
    let out = clefeval(args);
    assert_eq!(out.status.code(), Some(2), "{args:?} must be refused");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A scratch folder of its own for each test, removed when dropped.
fn scratch(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("clefeval-shards-{name}-"))
        .tempdir()
        .expect("scratch folder")
}

const FLOWCHART: &[&str] = &[
    "flowchart",
    "--gold",
    "goldens/flowchart/gold",
    "--run",
    "goldens/flowchart/runs/recognizer-a",
    "--run",
    "goldens/flowchart/runs/recognizer-b",
];

const SEGMENTATION: &[&str] = &[
    "segmentation",
    "--gold",
    "goldens/segmentation/gold",
    "--run",
    "goldens/segmentation/run-osra",
    "--run",
    "goldens/segmentation/run-shifted",
    "--pages",
    "goldens/segmentation/pages",
];

const RECOGNITION: &[&str] = &[
    "recognition",
    "--gold",
    "goldens/recognition/gold",
    "--run",
    "goldens/recognition/runs/handmade",
    "--jobs",
    "2",
];

/// Document runs with topic groups: unknown topics, duplicate lines and
/// left-out topics in the runs.
const PRIOR_ART: &[&str] = &[
    "prior-art",
    "--qrels",
    "goldens/passage/doc/qrels.txt",
    "--groups",
    "goldens/passage/doc/groups.txt",
    "--run",
    "goldens/passage/doc/runs",
];

/// Passage runs with language groups (removed headings, duplicates,
/// unknown topics), beside a zipped run of other topics (every topic
/// unknown, every qrels topic missing) and a file that is no passage run
/// (rejected).
const PASSAGE: &[&str] = &[
    "passage",
    "--qrels",
    "goldens/passage/passage/qrels.txt",
    "--groups",
    "goldens/passage/passage/groups.txt",
    "--run",
    "goldens/passage/passage/runs",
    "--run",
    "goldens/passage/demo/runs/lab3-rerank-PSG.zip",
    "--run",
    "goldens/passage/doc/qrels.txt",
];

/// The hand-computed document run (H-1, H-2 scored, H-3 left out, H-4
/// missing, H-5 unknown) and a passage run read as a document run
/// (rejected), by trec_eval's order: four qrels topics, so 7 parts
/// leave three empty.
const HAND: &[&str] = &[
    "prior-art",
    "--qrels",
    "goldens/passage/hand/qrels.txt",
    "--groups",
    "goldens/passage/hand/groups.txt",
    "--run",
    "goldens/passage/hand/hand-doc",
    "--run",
    "goldens/passage/hand/hand-passage",
    "--order",
    "score",
];

/// Writes part `k` of `n` of `command` to `dir` and returns its path.
fn part(dir: &Path, command: &[&str], k: usize, n: usize) -> String {
    let path = dir.join(format!("part-{k}-of-{n}.json"));
    let shard = format!("{k}/{n}");
    let args = [command, &["--format", "json", "--quiet", "--shard", &shard]].concat();
    std::fs::write(&path, ok(&args)).expect("part written");
    path.display().to_string()
}

/// For N = 1, 3, 7: the parts of `command`, merged (given last part
/// first), equal the whole run's JSON byte for byte; each part says which
/// it is, and the whole and merged results say nothing of parts.
fn merges_to_the_whole(name: &str, command: &[&str]) {
    let tmp = scratch(name);
    let dir = tmp.path();
    let whole = ok(&[command, &["--format", "json", "--quiet"]].concat());
    let text = String::from_utf8_lossy(&whole);
    assert!(!text.contains("\"shard\""));
    assert!(text.contains("\"sha256\""));
    for n in [1, 3, 7] {
        let mut parts: Vec<String> = (1..=n).map(|k| part(dir, command, k, n)).collect();
        let second = std::fs::read_to_string(&parts[n.min(2) - 1]).expect("part");
        let k = n.min(2);
        assert!(second.contains(&format!(
            "\"shard\": {{\n    \"index\": {k},\n    \"count\": {n}"
        )));
        parts.reverse();
        let out = dir.join(format!("merged-{n}.json"));
        let out_arg = out.display().to_string();
        let args: Vec<&str> = ["merge"]
            .into_iter()
            .chain(parts.iter().map(String::as_str))
            .chain(["-o", &out_arg])
            .collect();
        ok(&args);
        let merged = std::fs::read(&out).expect("merged file");
        assert!(
            merged == whole,
            "{name}: {n} parts merged differ from the whole run"
        );
        // To standard output, the same.
        assert!(ok(&args[..args.len() - 2]) == whole);
    }
}

#[test]
fn flowchart_parts_merge_to_the_whole() {
    merges_to_the_whole("flowchart", FLOWCHART);
}

#[test]
fn segmentation_parts_merge_to_the_whole() {
    merges_to_the_whole("segmentation", SEGMENTATION);
}

#[test]
fn recognition_parts_merge_to_the_whole() {
    merges_to_the_whole("recognition", RECOGNITION);
}

#[test]
fn prior_art_parts_merge_to_the_whole() {
    merges_to_the_whole("prior-art", PRIOR_ART);
    merges_to_the_whole("hand", HAND);
}

/// The comparisons and correlations of text runs need every topic: the
/// parts record what was asked, and the merge makes them from the whole.
#[test]
fn text_comparisons_are_made_by_the_merge() {
    let between = [
        "--compare",
        "MAP@100",
        "--compare",
        "P@10",
        "--permutations",
        "500",
        "--seed",
        "3",
        "--correlate",
        "all,EN",
        "--correlate",
        "MAP@100,PRES@100",
    ];
    let command = [PRIOR_ART, &between[..]].concat();
    let whole = String::from_utf8(ok(&[&command[..], &["-f", "json", "-q"]].concat())).unwrap();
    assert!(whole.contains("\"comparisons\"") && whole.contains("\"correlations\""));
    merges_to_the_whole("prior-art-compared", &command);
    let tmp = scratch("text-asked");
    let dir = tmp.path();
    let json = |path: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let first = json(&part(dir, &command, 1, 2));
    assert_eq!(first.get("comparisons"), None);
    assert_eq!(
        first["shard"]["asked"],
        serde_json::json!({
            "compare": ["MAP@100", "P@10"],
            "permutations": 500,
            "seed": 3,
            "correlate": [["all", "EN"], ["MAP@100", "PRES@100"]]
        })
    );
    // A view the whole run refuses is refused by the merge, in its words.
    let unknown = [PRIOR_ART, &["--correlate", "all,XX"]].concat();
    let said = refused(&[&unknown[..], &["-f", "json", "-q"]].concat());
    assert!(
        said.contains("--correlate all,XX: `XX` is neither"),
        "{said}"
    );
    let parts: Vec<String> = (1..=2).map(|k| part(dir, &unknown, k, 2)).collect();
    assert_eq!(refused(&["merge", &parts[0], &parts[1]]), said);
    // Parts that asked for other comparisons are not one evaluation.
    let other = part(dir, &command, 2, 2);
    assert_eq!(
        refused(&["merge", &parts[0], &other]),
        format!(
            "clefeval: error: {other}: $.shard.asked: other comparisons or correlations asked for than in part 1\n"
        )
    );
}

#[test]
fn passage_parts_merge_to_the_whole() {
    merges_to_the_whole("passage", PASSAGE);
}

/// The hand qrels' four topics, each of cost 1, dealt in name order to
/// 3 parts: H-1 → 1, H-2 → 2, H-3 → 3, H-4 → 1. Part 1 also takes H-5,
/// which the run has and the qrels lack; part 3 holds only the left-out
/// H-3, so its run scores no topic. Each part records where its topics
/// go: their places in the qrels and among the groups' members.
#[test]
fn text_topics_are_dealt_in_name_order_and_placed_in_the_part() {
    let tmp = scratch("text-split");
    let dir = tmp.path();
    let read = |k: usize| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(part(dir, HAND, k, 3)).unwrap()).unwrap()
    };
    let rows = |json: &serde_json::Value| -> Vec<String> {
        (json["runs"][0]["topics"].as_array().unwrap().iter())
            .map(|row| row[0].as_str().unwrap().to_string())
            .collect()
    };
    let first = read(1);
    assert_eq!(rows(&first), ["H-1", "H-4"]);
    assert_eq!(
        first["shard"],
        serde_json::json!({
            "index": 1,
            "count": 3,
            "topics": [["H-1", 0], ["H-4", 3]],
            "groups": [["EN", [["H-1", 0]]], ["DE", [["H-4", 0]]]]
        })
    );
    let run = &first["runs"][0];
    assert_eq!(run["unknown"], serde_json::json!(["H-5"]));
    assert_eq!(run["missing"], serde_json::json!(["H-4"]));
    assert_eq!(run["all"]["num_q"], 2);
    assert_eq!(run["groups"]["EN"]["num_q"], 1);
    assert_eq!(first["runs"][1]["status"], "rejected");
    let second = read(2);
    assert_eq!(rows(&second), ["H-2"]);
    assert_eq!(
        second["shard"]["groups"][0],
        serde_json::json!(["EN", [["H-2", 1]]])
    );
    assert_eq!(second["runs"][0]["unknown"], serde_json::json!([]));
    let third = read(3);
    assert_eq!(rows(&third), Vec::<String>::new());
    assert_eq!(third["shard"]["topics"], serde_json::json!([["H-3", 2]]));
    let run = &third["runs"][0];
    assert_eq!(run["left_out"], serde_json::json!(["H-3"]));
    assert_eq!(run["all"]["num_q"], 0);
    assert_eq!(run["all"]["MAP@100"], serde_json::Value::Null);
}

/// A missing or repeated part of a text evaluation is refused; so is a
/// part scored with other settings.
#[test]
fn a_missing_or_repeated_text_part_is_refused() {
    let tmp = scratch("text-refused");
    let dir = tmp.path();
    let parts: Vec<String> = (1..=3).map(|k| part(dir, PASSAGE, k, 3)).collect();
    let [p1, p2, p3] = [&parts[0], &parts[1], &parts[2]].map(String::as_str);
    assert_eq!(
        refused(&["merge", p1, p2]),
        "clefeval: error: part 3 of 3 missing (given: 1, 2)\n"
    );
    assert_eq!(
        refused(&["merge", p3, p1, p3, p2]),
        format!("clefeval: error: part 3 of 3 is given 2 times: {p3}, {p3}\n")
    );
    let cut = part(dir, &[PASSAGE, &["--cutoff", "20"]].concat(), 2, 3);
    let err = refused(&["merge", p1, &cut, p3]);
    assert!(err.contains("$.settings.cutoff"), "{err}");
}

/// The flowchart goldens' six topics by gold size (FC-0004 110, FC-0002
/// 67, FC-0006 43, FC-0001 37, FC-0003 29, FC-0005 26) into 3 parts by
/// longest processing time, each to the part least loaded then: 110 → 1,
/// 67 → 2, 43 → 3, 37 → 3 (loads 110, 67, 43), 29 → 2 (110, 67, 80), 26 → 3
/// (110, 96, 80): parts {FC-0004}, {FC-0002, FC-0003}, {FC-0001, FC-0005,
/// FC-0006}; every run gets the same.
#[test]
fn topics_are_split_by_gold_size_the_same_for_every_run() {
    let tmp = scratch("split");
    let dir = tmp.path();
    let topics = |k: usize| -> Vec<Vec<String>> {
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(part(dir, FLOWCHART, k, 3)).unwrap())
                .unwrap();
        (json["runs"].as_array().unwrap().iter())
            .map(|run| {
                (run["topics"].as_array().unwrap().iter())
                    .map(|t| t["topic"].as_str().unwrap().to_string())
                    .collect()
            })
            .collect()
    };
    assert_eq!(topics(1), [["FC-0004"]; 2]);
    assert_eq!(topics(2), [["FC-0002", "FC-0003"]; 2]);
    assert_eq!(topics(3), [["FC-0001", "FC-0005", "FC-0006"]; 2]);
}

#[test]
fn a_missing_repeated_or_foreign_part_is_refused_with_the_reason() {
    let tmp = scratch("refused");
    let dir = tmp.path();
    let parts: Vec<String> = (1..=3).map(|k| part(dir, FLOWCHART, k, 3)).collect();
    let [p1, p2, p3] = [&parts[0], &parts[1], &parts[2]].map(String::as_str);
    assert_eq!(
        refused(&["merge", p3, p1]),
        "clefeval: error: part 2 of 3 missing (given: 1, 3)\n"
    );
    assert_eq!(
        refused(&["merge", p1, p2, p3, p2]),
        format!("clefeval: error: part 2 of 3 is given 2 times: {p2}, {p2}\n")
    );
    // A part of another split of the same evaluation.
    let other = part(dir, FLOWCHART, 2, 7);
    assert_eq!(
        refused(&["merge", p1, &other, p3]),
        format!(
            "clefeval: error: {p1} and {other} are not parts of one evaluation: a part of 3 and a part of 7\n"
        )
    );
    // A part scored with other settings.
    let basic = dir.join("basic.json");
    let args = [
        FLOWCHART,
        &["--level", "basic", "--format", "json", "--shard", "2/3"],
    ]
    .concat();
    std::fs::write(&basic, ok(&args)).unwrap();
    let basic = basic.display().to_string();
    let err = refused(&["merge", p1, &basic, p3]);
    assert!(
        err.starts_with(&format!(
            "clefeval: error: {p1} and {basic} are not parts of one evaluation: {p1} and {basic} were scored with different settings"
        )),
        "{err}"
    );
    assert!(err.contains("$.settings.levels"), "{err}");
    // A part scored on other data: the gold with one file changed.
    let gold = dir.join("gold");
    std::fs::create_dir_all(&gold).unwrap();
    for entry in std::fs::read_dir("goldens/flowchart/gold").unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, gold.join(path.file_name().unwrap())).unwrap();
    }
    let changed = gold.join("FC-0005.txt");
    let mut text = std::fs::read_to_string(&changed).unwrap();
    text.push('\n');
    std::fs::write(&changed, text).unwrap();
    let gold = gold.display().to_string();
    let mut command = FLOWCHART.to_vec();
    command[2] = &gold;
    let foreign = part(dir, &command, 2, 3);
    let err = refused(&["merge", p1, &foreign, p3]);
    assert!(
        err.starts_with(&format!(
            "clefeval: error: {p1} and {foreign} are not parts of one evaluation: they scored other data: gold file FC-0005.txt: 636 bytes, sha256 34eb5463"
        )),
        "{err}"
    );
    assert!(err.contains("in the first, 637 bytes, sha256 "), "{err}");
    // A whole evaluation is no part.
    let whole = dir.join("whole.json");
    std::fs::write(&whole, ok(&[FLOWCHART, &["--format", "json"]].concat())).unwrap();
    let whole = whole.display().to_string();
    assert_eq!(
        refused(&["merge", p1, &whole]),
        format!(
            "clefeval: error: {whole}: no \"shard\" field: a whole (or merged) evaluation, not one of its parts\n"
        )
    );
    // Parts of two tasks.
    let seg = part(dir, SEGMENTATION, 2, 3);
    let err = refused(&["merge", p1, &seg, p3]);
    assert_eq!(
        err,
        format!(
            "clefeval: error: {p1} and {seg} are not parts of one evaluation: task \"flowchart\" in the first, \"segmentation\" in the second\n"
        )
    );
}

/// Parts written with the paths spelled otherwise (as on another machine)
/// merge: the digests prove the same data. The merged file spells the
/// input paths as part 1 does, whatever the order given, and its scores are
/// the whole run's.
#[test]
fn parts_with_paths_spelled_otherwise_merge() {
    let tmp = scratch("paths");
    let dir = tmp.path();
    let p1 = part(dir, FLOWCHART, 1, 2);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let absolute: Vec<String> = (FLOWCHART.iter())
        .map(|a| match a.strip_prefix("goldens/") {
            Some(_) => root.join(a).display().to_string(),
            None => a.to_string(),
        })
        .collect();
    let absolute: Vec<&str> = absolute.iter().map(String::as_str).collect();
    let p2 = part(dir, &absolute, 2, 2);
    assert!(
        std::fs::read_to_string(&p2)
            .unwrap()
            .contains(&root.display().to_string())
    );
    let json = |bytes: Vec<u8>| -> serde_json::Value { serde_json::from_slice(&bytes).unwrap() };
    let whole = json(ok(&[FLOWCHART, &["--format", "json", "--quiet"]].concat()));
    let merged = json(ok(&["merge", &p2, &p1]));
    assert_eq!(merged["inputs"], whole["inputs"]);
    for (m, w) in merged["runs"]
        .as_array()
        .unwrap()
        .iter()
        .zip(whole["runs"].as_array().unwrap())
    {
        assert_eq!(m["summary"], w["summary"]);
    }
}

#[test]
fn a_shard_that_is_no_part_is_refused() {
    for bad in ["0/3", "4/3", "3", "a/b"] {
        let err = refused(&[FLOWCHART, &["--shard", bad]].concat());
        assert!(err.contains("a shard is K/N"), "{bad}: {err}");
    }
}

/// `clefeval report` on a saved result (and on a merged one) prints the
/// table and CSV the scoring command printed and writes the same page
/// when the inputs are given again; without them the page leaves the
/// drawings out and says so.
#[test]
fn a_saved_or_merged_result_renders_as_the_command_did() {
    let tmp = scratch("report");
    let dir = tmp.path();
    for (name, command, inputs) in [
        ("flowchart", FLOWCHART, &FLOWCHART[1..]),
        ("segmentation", SEGMENTATION, &[][..]),
        ("recognition", RECOGNITION, &RECOGNITION[1..5]),
    ] {
        let saved = dir.join(format!("{name}.json"));
        std::fs::write(
            &saved,
            ok(&[command, &["--format", "json", "--quiet"]].concat()),
        )
        .unwrap();
        let merged = dir.join(format!("{name}-merged.json"));
        let parts: Vec<String> = (1..=3).map(|k| part(dir, command, k, 3)).collect();
        let merge = [
            &["merge", "-o", merged.to_str().unwrap()][..],
            &parts.iter().map(String::as_str).collect::<Vec<_>>(),
        ]
        .concat();
        ok(&merge);
        let page = dir.join(format!("{name}.html"));
        let page_arg = page.display().to_string();
        let table = ok(&[command, &["--quiet", "--html", &page_arg]].concat());
        let csv = ok(&[command, &["--quiet", "--format", "csv"]].concat());
        for result in [&saved, &merged] {
            let result = result.display().to_string();
            let again = dir.join("again.html");
            let again_arg = again.display().to_string();
            let args = [&["report", &result, "--html", &again_arg][..], inputs].concat();
            assert!(ok(&args) == table, "{name}: the table");
            assert!(
                ok(&["report", &result, "--format", "csv"]) == csv,
                "{name}: the CSV"
            );
            let (a, b) = (
                std::fs::read(&page).unwrap(),
                std::fs::read(&again).unwrap(),
            );
            assert!(a == b, "{name}: the page");
        }
        if !inputs.is_empty() {
            let out = clefeval(&["report", saved.to_str().unwrap(), "--html", &page_arg]);
            assert_eq!(out.status.code(), Some(0));
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains("the page leaves out the")
                    && err.contains("give --gold and --run again"),
                "{err}"
            );
        }
    }
    // Text retrieval (groups in the groups file's order, not by name),
    // saved whole and merged from 3 parts.
    for (task, data) in [("prior-art", "doc"), ("passage", "passage")] {
        let root = format!("goldens/passage/{data}");
        let (qrels, groups, runs) = (
            format!("{root}/qrels.txt"),
            format!("{root}/groups.txt"),
            format!("{root}/runs"),
        );
        let scored = [task, "--qrels", &qrels, "--groups", &groups, "--run", &runs];
        let command = [&scored[..], &["-q"]].concat();
        let saved = dir.join(format!("{task}.json"));
        std::fs::write(&saved, ok(&[&command[..], &["-f", "json"]].concat())).unwrap();
        let merged = dir.join(format!("{task}-merged.json"));
        let parts: Vec<String> = (1..=3).map(|k| part(dir, &scored, k, 3)).collect();
        let merge = [
            &["merge", "-o", merged.to_str().unwrap()][..],
            &parts.iter().map(String::as_str).collect::<Vec<_>>(),
        ]
        .concat();
        ok(&merge);
        let page = dir.join(format!("{task}.html"));
        let table = ok(&[&command[..], &["--html", page.to_str().unwrap()]].concat());
        let csv = ok(&[&command[..], &["-f", "csv"]].concat());
        for result in [&saved, &merged] {
            let result = result.to_str().unwrap();
            let again = dir.join("again.html");
            assert!(
                ok(&["report", result, "--html", again.to_str().unwrap()]) == table,
                "{task}: the table"
            );
            assert!(
                ok(&["report", result, "-f", "csv"]) == csv,
                "{task}: the CSV"
            );
            assert!(
                std::fs::read(&page).unwrap() == std::fs::read(&again).unwrap(),
                "{task}: the page"
            );
        }
    }
    let err = refused(&["report", "goldens/passage/doc/qrels.txt"]);
    assert!(err.contains("not a JSON result file"), "{err}");
}

/// Segmentation parts that find crowded pages (too many candidate pairs,
/// an error each) in different documents: the merged run lists them after
/// the run's other findings in document and page order, as the whole run
/// does; a document only the run has (no gold boxes) is part 1's.
#[test]
fn crowded_pages_found_by_different_parts_merge_in_document_order() {
    let tmp = scratch("crowded");
    let dir = tmp.path();
    // 1 200 identical boxes a side give 1 440 000 candidate pairs, more
    // than the 1 240 000 a page of them may have. E, the largest, is part
    // 1's of 3, A part 2's, C part 3's: joined in part order they would
    // not be in document order.
    let size = |doc: &str| if doc == "E" { 1300 } else { 1200 };
    let piled = |doc: &str, page: u32| format!("{doc},{page},0,0,10,10\n").repeat(size(doc));
    let mut gold = String::from("doc,page,x,y,width,height\n");
    let mut run = gold.clone();
    for doc in ["A", "C", "E"] {
        for page in [1, 2] {
            gold.push_str(&piled(doc, page));
            run.push_str(&piled(doc, page));
        }
    }
    for doc in ["B", "D", "F", "G"] {
        gold.push_str(&format!("{doc},1,100,100,50,50\n{doc},1,300,300,50,50\n"));
        run.push_str(&format!("{doc},1,102,101,50,50\n"));
    }
    run.push_str("Z,1,5,5,5,5\nZ,1,500,5,5,5\n");
    std::fs::write(dir.join("gold.csv"), gold).unwrap();
    std::fs::write(dir.join("run.csv"), run).unwrap();
    let (gold, run) = (dir.join("gold.csv"), dir.join("run.csv"));
    let (gold, run) = (gold.to_str().unwrap(), run.to_str().unwrap());
    let command = [
        "segmentation",
        "--gold",
        gold,
        "--run",
        run,
        "--tolerances",
        "0,5",
    ];
    let whole: serde_json::Value =
        serde_json::from_slice(&ok(
            &[&command[..], &["--format", "json", "--quiet"]].concat()
        ))
        .unwrap();
    let listed: Vec<&str> = (whole["runs"][0]["diagnostics"].as_array().unwrap().iter())
        .map(|d| d.as_str().unwrap())
        .collect();
    assert_eq!(listed.len(), 7, "{listed:?}");
    assert!(
        listed[0].contains("document \"Z\" has no gold boxes"),
        "{listed:?}"
    );
    for (line, (doc, page)) in
        listed[1..]
            .iter()
            .zip([("A", 1), ("A", 2), ("C", 1), ("C", 2), ("E", 1), ("E", 2)])
    {
        assert!(
            line.contains(&format!(
                ": error: page {page} of {doc}: {} submitted",
                size(doc)
            )),
            "{line}"
        );
    }
    let first = std::fs::read_to_string(part(dir, &command, 1, 3)).unwrap();
    assert!(first.contains("page 1 of E: 1300") && !first.contains("page 1 of A:"));
    merges_to_the_whole("crowded-merge", &command);
}

/// `compare` reads neither the digests nor the part: a result with them
/// and the same result written without them (as older versions wrote it)
/// compare with no change, both ways; a part against the whole lacks the
/// other parts' topics, which is a regression.
#[test]
fn compare_holds_no_digest_against_a_result_without_them() {
    let tmp = scratch("compare");
    let dir = tmp.path();
    let whole = ok(&[FLOWCHART, &["--format", "json", "--quiet"]].concat());
    let mut old: serde_json::Value = serde_json::from_slice(&whole).unwrap();
    old.as_object_mut().unwrap().remove("inputs");
    let (new_file, old_file) = (dir.join("new.json"), dir.join("old.json"));
    std::fs::write(&new_file, &whole).unwrap();
    std::fs::write(&old_file, serde_json::to_string_pretty(&old).unwrap()).unwrap();
    let (new_file, old_file) = (new_file.to_str().unwrap(), old_file.to_str().unwrap());
    for (a, b) in [(old_file, new_file), (new_file, old_file)] {
        let out = String::from_utf8(ok(&["compare", a, b, "--format", "json"])).unwrap();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            (v["regressions"].as_u64(), v["improvements"].as_u64()),
            (Some(0), Some(0))
        );
        assert_eq!(v["changes"], serde_json::json!([]));
        assert!(v["compared"].as_u64().unwrap() > 0);
    }
    let first = part(dir, FLOWCHART, 1, 3);
    let out = clefeval(&["compare", new_file, &first]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
