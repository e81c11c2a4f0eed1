//! Flowcharts in the formats today's recognizers write, read beside the
//! CLEF-IP text format. The Mermaid fixtures of goldens/flowchart/mermaid
//! were written from the bundled CLEF-IP files by an independent converter
//! (its `make.py`): scored alone or mixed with CLEF-IP files, every topic's
//! figures at every level are those of the CLEF-IP files they come from.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root(rest: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rest)
}

/// The JSON of `clefeval flowchart` on `gold` and one run.
fn scored(gold: &Path, run: &Path) -> Value {
    scored_with(&[], gold, run)
}

/// The same with edge types counted.
fn scored_with_types(gold: &Path, run: &Path) -> Value {
    scored_with(&["--edge-types"], gold, run)
}

fn scored_with(options: &[&str], gold: &Path, run: &Path) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .arg("flowchart")
        .args(options)
        .arg("--gold")
        .arg(gold)
        .arg("--run")
        .arg(run)
        .args(["--format", "json", "--quiet"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Each topic's `levels` of the first run, by topic, without the complete
/// level's `mapping`: it pairs node ids, and a Mermaid file numbers its
/// nodes 1, 2, … where a CLEF-IP file may skip ids.
fn levels(result: &Value) -> Vec<(String, Value)> {
    (result["runs"][0]["topics"].as_array().unwrap().iter())
        .filter(|t| t["status"] == "ok")
        .map(|t| {
            let mut levels = t["levels"].clone();
            levels["complete"]
                .as_object_mut()
                .unwrap()
                .remove("mapping");
            (t["topic"].as_str().unwrap().to_string(), levels)
        })
        .collect()
}

#[test]
fn mermaid_files_score_as_the_clef_ip_files_they_were_written_from() {
    let clef = levels(&scored(
        &root("goldens/flowchart/gold"),
        &root("goldens/flowchart/runs/recognizer-a"),
    ));
    let want: Vec<(String, Value)> = (clef.into_iter())
        .filter(|(topic, _)| topic == "FC-0001" || topic == "FC-0003")
        .collect();
    assert_eq!(want.len(), 2);
    let mermaid_run = root("goldens/flowchart/mermaid/runs/recognizer-a");
    // Mermaid gold and run (a `.mmd` file and a Markdown answer).
    let both = levels(&scored(
        &root("goldens/flowchart/mermaid/gold"),
        &mermaid_run,
    ));
    assert_eq!(both, want);
    // CLEF-IP gold, Mermaid run: a topic pairs by stem whatever the format.
    let mixed = scored(&root("goldens/flowchart/gold"), &mermaid_run);
    let mixed: Vec<(String, Value)> = levels(&mixed);
    assert_eq!(mixed, want);
}

#[test]
fn a_markdown_file_without_a_diagram_is_skipped_and_listed() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    std::fs::create_dir(&run).unwrap();
    let from = root("goldens/flowchart/mermaid/runs/recognizer-a");
    for entry in std::fs::read_dir(&from).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, run.join(path.file_name().unwrap())).unwrap();
    }
    std::fs::write(
        run.join("README.md"),
        "# Our answers\n\nOne file per figure.\n",
    )
    .unwrap();
    let result = scored(&root("goldens/flowchart/mermaid/gold"), &run);
    assert_eq!(
        result["skipped_files"],
        serde_json::json!([{
            "file": run.join("README.md").display().to_string(),
            "reason": "no diagram block: not a flowchart file"
        }])
    );
    assert_eq!(result["runs"][0]["topics"].as_array().unwrap().len(), 2);
}

/// The CLEF-IP type of a vertex type of Mermaid's own parser (`null`: a
/// bare id).
fn clef_type(mermaid: &Value) -> &'static str {
    match mermaid.as_str() {
        None | Some("square") => "rectangle",
        Some("round" | "stadium") => "oval",
        Some("circle" | "doublecircle") => "circle",
        Some("diamond") => "diamond",
        Some("lean_right" | "lean_left") => "parallelogram",
        Some("subroutine") => "double-rectangle",
        Some("cylinder") => "cylinder",
        Some("text") => "no-box",
        Some("sm-circ") => "point",
        Some(_) => "unknown",
    }
}

/// The fixtures read as the real Mermaid parser read them
/// (goldens/flowchart/mermaid/reference.jsonl, written by its
/// reference.mjs with the npm package `mermaid` 11).
#[test]
fn mermaid_fixtures_read_as_the_real_mermaid_parser_reads_them() {
    assert_eq!(read_as_mermaid_does(&root("goldens/flowchart/mermaid")), 5);
}

/// What `clefeval convert --to mermaid` writes from every bundled
/// flowchart and from a file of every shape, line and awkward text
/// (goldens/flowchart/convert, by its make.sh): the files committed are
/// the writer's output today, and the real Mermaid parser reads each as
/// clefeval does.
#[test]
fn converted_mermaid_is_read_by_the_real_mermaid_parser_as_by_clefeval() {
    let dir = root("goldens/flowchart/convert");
    let mermaid = dir.join("mermaid");
    let reference = std::fs::read_to_string(dir.join("reference.jsonl")).unwrap();
    for line in reference.lines() {
        let want: Value = serde_json::from_str(line).unwrap();
        let file = want["file"].as_str().unwrap();
        let (folder, stem) = match file.split_once('/') {
            Some((folder, name)) => (folder, name.trim_end_matches(".mmd")),
            None => ("", file.trim_end_matches(".mmd")),
        };
        let source = match folder {
            "" => dir.join(format!("{stem}.txt")),
            "gold" => root("goldens/flowchart/gold").join(format!("{stem}.txt")),
            run => root("goldens/flowchart/runs")
                .join(run)
                .join(format!("{stem}.txt")),
        };
        let out = Command::new(env!("CARGO_BIN_EXE_clefeval"))
            .arg("convert")
            .arg(&source)
            .args(["--to", "mermaid", "-o", "-", "-q"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{file}");
        let committed = std::fs::read_to_string(mermaid.join(file)).unwrap();
        assert_eq!(String::from_utf8(out.stdout).unwrap(), committed, "{file}");
    }
    assert_eq!(read_as_mermaid_does(&dir), 15);
}

/// The text Mermaid's renderer shows for a text as its parser stores it:
/// the placeholders of its entity codes (`ﬂ°°35¶ß` for `#35;`, `ﬂ°lt¶ß` for
/// `#lt;`) decoded, the ends trimmed.
fn shown_by_mermaid(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('ﬂ') {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 'ﬂ'.len_utf8()..];
        let body = tail.strip_prefix('°').unwrap();
        let end = body.find('¶').unwrap();
        let name = &body[..end];
        let c = match name.strip_prefix('°') {
            Some(number) => char::from_u32(number.parse().unwrap()).unwrap(),
            None => match name {
                "quot" => '"',
                "amp" => '&',
                "lt" => '<',
                "gt" => '>',
                "apos" => '\'',
                other => panic!("entity {other}"),
            },
        };
        out.push(c);
        rest = body[end..].strip_prefix("¶ß").unwrap();
    }
    out.push_str(rest);
    out.trim().to_string()
}

/// Checks every file of `dir`'s reference.jsonl, named relative to `dir`
/// or its `mermaid` folder, against clefeval's reading: the same nodes in
/// the same order with the same texts and the type of the table, and per
/// Mermaid edge the same ends and text, `arrow_point`, `arrow_circle`,
/// `arrow_cross` one directed edge, `arrow_open` an undirected one, the
/// `double_arrow_…` kinds one edge each way, invisible links none. Returns
/// how many files it checked.
fn read_as_mermaid_does(dir: &Path) -> usize {
    use clefeval::flowchart::{ParseOptions, mermaid};
    let reference = std::fs::read_to_string(dir.join("reference.jsonl")).unwrap();
    let mut files = 0;
    for line in reference.lines() {
        let want: Value = serde_json::from_str(line).unwrap();
        assert!(want.get("error").is_none(), "{want}");
        let file = want["file"].as_str().unwrap();
        let path = [dir.join(file), dir.join("mermaid").join(file)]
            .into_iter()
            .find(|p| p.exists())
            .unwrap();
        let bytes = std::fs::read(path).unwrap();
        let read = mermaid::read(&bytes, file, &ParseOptions::default());
        assert_eq!(read.errors, 0, "{file}: {:?}", read.diagnostics);
        let chart = read.flowchart;
        // Nodes: Mermaid's ids in order are clefeval's 1, 2, ….
        let ids: Vec<&str> = (want["nodes"].as_array().unwrap().iter())
            .map(|n| n["id"].as_str().unwrap())
            .collect();
        let nodes: Vec<(String, String)> = (want["nodes"].as_array().unwrap().iter())
            .map(|n| {
                // A small circle without a label: Mermaid stores its id.
                let text = if n["type"] == "sm-circ" && n["text"] == n["id"] {
                    String::new()
                } else {
                    shown_by_mermaid(n["text"].as_str().unwrap())
                };
                (clef_type(&n["type"]).to_string(), text)
            })
            .collect();
        let got: Vec<(String, String)> = (chart.nodes.iter())
            .map(|n| {
                (
                    n.node_type.keyword().to_string(),
                    n.text.clone().unwrap_or_default(),
                )
            })
            .collect();
        assert_eq!(got, nodes, "{file}");
        // Edges: (from, to, directed, dotted, text).
        let number =
            |id: &Value| ids.iter().position(|i| Some(*i) == id.as_str()).unwrap() as i64 + 1;
        let mut edges = Vec::new();
        for e in want["edges"].as_array().unwrap() {
            let (a, b) = (number(&e["start"]), number(&e["end"]));
            let dotted = e["stroke"] == "dotted";
            let text =
                Some(shown_by_mermaid(e["text"].as_str().unwrap())).filter(|t| !t.is_empty());
            match (e["type"].as_str().unwrap(), e["stroke"].as_str().unwrap()) {
                (_, "invisible") => {}
                ("arrow_open", _) => edges.push((a, b, false, dotted, text)),
                (kind, _) if kind.starts_with("double_arrow") => {
                    edges.push((a, b, true, dotted, text.clone()));
                    edges.push((b, a, true, dotted, text));
                }
                _ => edges.push((a, b, true, dotted, text)),
            }
        }
        let got: Vec<_> = (chart.edges.iter())
            .map(|e| {
                let dotted = e.edge_type == clefeval::flowchart::EdgeType::Dotted;
                (e.from, e.to, e.directed, dotted, e.text.clone())
            })
            .collect();
        assert_eq!(got, edges, "{file}");
        files += 1;
    }
    files
}

/// Each topic's status and levels (the complete level's `mapping` aside),
/// by topic, leaving out `except`.
fn figures(result: &Value, except: &[&str]) -> Vec<(String, Value, Value)> {
    (result["runs"][0]["topics"].as_array().unwrap().iter())
        .filter(|t| !except.contains(&t["topic"].as_str().unwrap()))
        .map(|t| {
            let mut levels = t["levels"].clone();
            if let Some(complete) = levels["complete"].as_object_mut() {
                complete.remove("mapping");
            }
            (
                t["topic"].as_str().unwrap().to_string(),
                t["status"].clone(),
                levels,
            )
        })
        .collect()
}

/// The bundled gold and runs written in `format` (goldens/flowchart/formats,
/// by its make.py) score as the CLEF-IP files they were written from, with
/// edge types counted: each in its format, and each run beside the CLEF-IP
/// gold. `except` lists topics the format reads otherwise by its own rules.
fn scores_as_clef(format: &str, except: &[(&str, &str)]) {
    let dir = root("goldens/flowchart/formats").join(format);
    let gold = root("goldens/flowchart/gold");
    for run in ["recognizer-a", "recognizer-b"] {
        let skip: Vec<&str> = (except.iter())
            .filter(|(r, _)| *r == run)
            .map(|(_, t)| *t)
            .collect();
        let clef = scored_with_types(&gold, &root("goldens/flowchart/runs").join(run));
        let want = figures(&clef, &skip);
        assert_eq!(want.len(), 6 - skip.len());
        let both = scored_with_types(&dir.join("gold"), &dir.join("runs").join(run));
        assert_eq!(figures(&both, &skip), want, "{format} {run}");
        let mixed = scored_with_types(&gold, &dir.join("runs").join(run));
        assert_eq!(
            figures(&mixed, &skip),
            want,
            "{format} {run} beside CLEF-IP gold"
        );
    }
}

/// In DOT naming a node declares it: recognizer-a's FC-0006 (an edge to an
/// undeclared node, rejected in CLEF-IP text) reads with one more node, and
/// recognizer-b's FC-0003 (a node declared twice) with its last
/// declaration.
#[test]
fn dot_files_score_as_the_clef_ip_files_they_were_written_from() {
    scores_as_clef(
        "dot",
        &[("recognizer-a", "FC-0006"), ("recognizer-b", "FC-0003")],
    );
}

#[test]
fn graphml_files_score_as_the_clef_ip_files_they_were_written_from() {
    scores_as_clef("graphml", &[]);
}

#[test]
fn drawio_files_score_as_the_clef_ip_files_they_were_written_from() {
    scores_as_clef("drawio", &[]);
}

/// Two files of one stem: in a gold folder an error naming both (exit 2,
/// nothing scored); in a run that topic rejected, naming both, the other
/// topics scored.
#[test]
fn two_files_of_one_stem_in_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let (gold, run) = (dir.path().join("gold"), dir.path().join("run"));
    std::fs::create_dir(&gold).unwrap();
    std::fs::create_dir(&run).unwrap();
    let copy = |from: &str, to: &Path| {
        let from = root(from);
        std::fs::copy(&from, to.join(from.file_name().unwrap())).unwrap();
    };
    copy("goldens/flowchart/gold/FC-0001.txt", &gold);
    copy("goldens/flowchart/gold/FC-0003.txt", &gold);
    copy("goldens/flowchart/runs/recognizer-a/FC-0001.txt", &run);
    copy("goldens/flowchart/runs/recognizer-a/FC-0003.txt", &run);
    copy(
        "goldens/flowchart/formats/graphml/runs/recognizer-a/FC-0003.graphml",
        &run,
    );
    let result = scored(&gold, &run);
    let topics = result["runs"][0]["topics"].as_array().unwrap();
    assert_eq!(topics[0]["status"], "ok");
    assert_eq!(topics[1]["status"], "rejected");
    let graphml = run.join("FC-0003.graphml").display().to_string();
    let txt = run.join("FC-0003.txt").display().to_string();
    assert_eq!(
        topics[1]["diagnostic_list"][0]["message"],
        format!(
            "the run has 2 files of the topic FC-0003: this one and {txt}; a topic is one file"
        )
    );
    assert_eq!(topics[1]["diagnostic_list"][0]["file"], graphml);
    copy("goldens/flowchart/formats/dot/gold/FC-0001.dot", &gold);
    let out = Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .args(["flowchart", "--gold"])
        .arg(&gold)
        .arg("--run")
        .arg(&run)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "clefeval: error: gold data: two gold files have the stem `FC-0001`: {} and {}; a topic is one file\n",
            gold.join("FC-0001.dot").display(),
            gold.join("FC-0001.txt").display()
        )
    );
}

/// Runs `clefeval convert ARGS…`, returning its exit code and stderr.
fn convert(args: &[&std::ffi::OsStr]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .arg("convert")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// A CLEF-IP text with every wiggly or unknown edge plain: what a
/// Mermaid file can say of it.
fn as_mermaid_can_say(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut fields: Vec<&str> = line.split(' ').collect();
        if matches!(fields.first(), Some(&"DE" | &"UE"))
            && matches!(fields.get(3), Some(&"wiggly" | &"unknown"))
        {
            fields[3] = "plain";
        }
        out.push_str(&fields.join(" "));
        out.push('\n');
    }
    out
}

/// Every bundled flowchart (the gold and both runs) converted to each
/// format and back to CLEF-IP text is at distance 0 from the original at
/// every level, with edge types and exact labels: node and edge types,
/// texts, directions, parallel edges and self-loops all survive. Mermaid
/// has no wiggly or unknown line: its round trip is compared with the
/// original with those edges plain. Files with an error are refused.
#[test]
fn every_golden_survives_each_format_and_back() {
    let work = tempfile::tempdir().unwrap();
    let sources = [
        ("gold", root("goldens/flowchart/gold")),
        ("recognizer-a", root("goldens/flowchart/runs/recognizer-a")),
        ("recognizer-b", root("goldens/flowchart/runs/recognizer-b")),
    ];
    for format in ["clef", "mermaid", "dot", "graphml", "drawio"] {
        for (name, folder) in &sources {
            let there = work.path().join(format).join(name);
            let back = work.path().join(format).join(format!("{name}-back"));
            let original = work.path().join(format).join(format!("{name}-original"));
            std::fs::create_dir_all(&original).unwrap();
            let mut converted = 0;
            for entry in std::fs::read_dir(folder).unwrap() {
                let file = entry.unwrap().path();
                let (code, stderr) = convert(&[
                    file.as_os_str(),
                    "--to".as_ref(),
                    format.as_ref(),
                    "--out-dir".as_ref(),
                    there.as_os_str(),
                    "-q".as_ref(),
                ]);
                let text = std::fs::read_to_string(&file).unwrap();
                // The two run files with an error, on purpose.
                if file.ends_with("recognizer-a/FC-0006.txt")
                    || file.ends_with("recognizer-b/FC-0003.txt")
                {
                    assert_eq!(code, Some(2), "{}", file.display());
                    assert!(stderr.contains("nothing converted"), "{stderr}");
                    continue;
                }
                assert_eq!(code, Some(0), "{}: {stderr}", file.display());
                let text = if format == "mermaid" {
                    as_mermaid_can_say(&text)
                } else {
                    text
                };
                std::fs::write(original.join(file.file_name().unwrap()), text).unwrap();
                converted += 1;
            }
            let (code, stderr) = convert(&[
                there.as_os_str(),
                "--to".as_ref(),
                "clef".as_ref(),
                "--out-dir".as_ref(),
                back.as_os_str(),
            ]);
            assert_eq!(code, Some(0), "{stderr}");
            let result = scored_with(&["--edge-types", "--exact-labels"], &original, &back);
            let topics = result["runs"][0]["topics"].as_array().unwrap();
            assert_eq!(topics.len(), converted, "{format} {name}");
            for topic in topics {
                for level in ["basic", "intermediate", "complete"] {
                    assert_eq!(
                        topic["levels"][level]["distance"], 0.0,
                        "{format} {name} {} {level}",
                        topic["topic"]
                    );
                }
                assert_eq!(topic["triplets"]["f1"], 1.0, "{format} {name}");
            }
        }
    }
}
