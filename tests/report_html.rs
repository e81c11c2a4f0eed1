//! The `--html` page of `clefeval segmentation` on goldens/segmentation,
//! read back by parsing it (it is XML-well-formed): the plotted curves equal
//! the JSON output of the same run, the drawn lines sit where those values
//! put them, the tables carry the checked ranking (expected/ranking.txt) and
//! every document, and nothing on the page points outside it.

#[path = "support/page.rs"]
mod page;
#[path = "support/task_pages.rs"]
mod task_pages;

use page::{assert_self_contained, by_id, chart_data, parse, rows, tables, text};
use roxmltree::{Document, Node};
use serde_json::Value;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use task_pages::TASK_PAGES;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn dir() -> PathBuf {
    root().join("goldens/segmentation")
}

/// Runs the binary in `dir` with `args`; fails the test unless it succeeds.
fn succeed(dir: &Path, args: &[&OsStr]) -> Output {
    task_pages::run_in(dir, args)
}

/// Runs the binary with `args` plus `--format json --html FILE` and returns
/// (JSON output, page).
fn page_of(args: &[&OsStr]) -> (Value, String) {
    let tmp = tempfile::Builder::new()
        .prefix("clefeval-html-")
        .tempdir()
        .unwrap();
    let page = tmp.path().join("page.html");
    let options = ["--format", "json", "--quiet", "--html"].map(OsStr::new);
    let out = succeed(root(), &[args, &options, &[page.as_os_str()]].concat());
    let json = serde_json::from_slice(&out.stdout).unwrap();
    let html = std::fs::read_to_string(&page).unwrap();
    (json, html)
}

/// The segmentation page of the two bundled runs, with the page checks.
fn render() -> (Value, String) {
    let d = dir();
    let (gold, osra, shifted, pages) = (
        d.join("gold"),
        d.join("run-osra"),
        d.join("run-shifted"),
        d.join("pages"),
    );
    page_of(&[
        "segmentation".as_ref(),
        "--gold".as_ref(),
        gold.as_os_str(),
        "--run".as_ref(),
        osra.as_os_str(),
        "--run".as_ref(),
        shifted.as_os_str(),
        "--pages".as_ref(),
        pages.as_os_str(),
    ])
}

#[test]
fn curves_equal_the_json_figures_and_lines_sit_at_them() {
    let (json, html) = render();
    let doc = parse(&html);
    let runs = json["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    for (id, field) in [
        ("seg-curve-f1", "f1"),
        ("seg-curve-precision", "precision"),
        ("seg-curve-recall", "recall"),
    ] {
        let figure = by_id(&doc, id);
        let data = figure
            .children()
            .find(|n| n.attribute("class") == Some("chart-data"))
            .and_then(|n| n.text())
            .unwrap();
        let data: Value = serde_json::from_str(data).unwrap();
        assert_eq!(data["marker"]["x"], 55.0);
        let series = data["series"].as_array().unwrap();
        assert_eq!(series.len(), runs.len());
        let svg = figure.children().find(|n| n.has_tag_name("svg")).unwrap();
        for (i, (s, run)) in series.iter().zip(runs).enumerate() {
            assert_eq!(s["name"], run["run"]);
            assert_eq!(s["colour"], i);
            let figures = run["tolerances"].as_array().unwrap();
            let expected: Vec<Value> = figures
                .iter()
                .map(|f| serde_json::json!([f["t"].as_f64().unwrap(), f[field]]))
                .collect();
            assert_eq!(s["points"].as_array().unwrap(), &expected, "{id} {i}");
            // Exactly one 56-point line in the run's colour: the series.
            let colour = ["#1F77B4", "#FF7F0E"][i];
            let lines: Vec<Vec<(f64, f64)>> = svg
                .descendants()
                .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke") == Some(colour))
                .map(|n| {
                    n.attribute("points")
                        .unwrap()
                        .split_whitespace()
                        .map(|p| {
                            let (x, y) = p.split_once(',').unwrap();
                            (x.parse().unwrap(), y.parse().unwrap())
                        })
                        .collect()
                })
                .filter(|p: &Vec<(f64, f64)>| p.len() > 2)
                .collect();
            assert_eq!(lines.len(), 1, "{id} run {i}");
            let line = &lines[0];
            assert_eq!(line.len(), 56);
            // Pixels are affine in (t, value): map y back through the
            // axis (value 0 at the bottom, 1 at the top of the same scale
            // in every chart) and compare within a pixel's worth.
            let values: Vec<f64> = figures.iter().map(|f| f[field].as_f64().unwrap()).collect();
            let (lo, hi) = (0..56).fold((0, 0), |(lo, hi), k| {
                (
                    if values[k] < values[lo] { k } else { lo },
                    if values[k] > values[hi] { k } else { hi },
                )
            });
            assert!(
                values[hi] - values[lo] > 0.2,
                "{id} run {i}: a curve that moves"
            );
            let per_unit = (line[lo].1 - line[hi].1) / (values[hi] - values[lo]);
            for k in 0..56 {
                let y = line[lo].1 - (values[k] - values[lo]) * per_unit;
                assert!((y - line[k].1).abs() <= 1.0, "{id} run {i} t={k}");
                let x = line[0].0 + k as f64 * (line[55].0 - line[0].0) / 55.0;
                assert!((x - line[k].0).abs() <= 1.0, "{id} run {i} t={k}");
            }
        }
    }
}

#[test]
fn tables_carry_the_checked_ranking_and_every_document() {
    let (json, html) = render();
    let doc = parse(&html);
    let ranking = by_id(&doc, "seg-ranking")
        .descendants()
        .find(|n| n.has_tag_name("table"))
        .unwrap();
    let golden = std::fs::read_to_string(dir().join("expected/ranking.txt")).unwrap();
    let expected: Vec<Vec<String>> = golden
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect();
    assert_eq!(rows(ranking), expected);
    let runs = json["runs"].as_array().unwrap();
    for (i, run) in runs.iter().enumerate() {
        let section = by_id(&doc, &format!("seg-run-{i}"));
        let tables: Vec<Node> = section
            .descendants()
            .filter(|n| n.has_tag_name("table") && n.parent().is_some_and(|p| p == section))
            .collect();
        assert_eq!(tables.len(), 2);
        // Micro figures at the standard tolerances, counts as in the JSON.
        let micro = rows(tables[0]);
        let t: Vec<&str> = micro.iter().map(|r| r[0].as_str()).collect();
        assert_eq!(t, ["0", "10", "20", "40", "55"]);
        for row in &micro {
            let f = &run["tolerances"][row[0].parse::<usize>().unwrap()];
            let counts = [&f["tp"], &f["fp"], &f["fn"]].map(|v| v.to_string());
            assert_eq!(row[1..4], counts);
            assert_eq!(row[6], format!("{:.4}", f["f1"].as_f64().unwrap()));
        }
        // One expandable row per document, its detail every tolerance.
        let documents = run["documents"].as_array().unwrap();
        let names: Vec<String> = rows(tables[1]).into_iter().map(|r| r[0].clone()).collect();
        let expected: Vec<String> = documents
            .iter()
            .map(|d| d["doc"].as_str().unwrap().to_string())
            .collect();
        assert!(!expected.is_empty());
        assert_eq!(names, expected);
        let details = tables[1]
            .descendants()
            .filter(|n| n.attribute("class") == Some("detail"))
            .map(|d| d.descendants().find(|n| n.has_tag_name("table")).map(rows));
        for (detail, d) in details.zip(documents) {
            let detail = detail.unwrap();
            assert_eq!(detail.len(), 56);
            assert_eq!(
                detail[55][6],
                format!("{:.4}", d["tolerances"][55]["f1"].as_f64().unwrap())
            );
        }
    }
}

#[test]
fn the_page_references_nothing_outside_itself() {
    let (_, html) = render();
    let doc = parse(&html);
    assert_self_contained(&doc, 1);
    // Deterministic: a second run gives the same bytes.
    assert_eq!(render().1, html);
}

/// The flowchart goldens, relative to the package root (the commands'
/// working folder), as in tests/flowchart_goldens.rs: the diagnostics in
/// the JSON name files by these paths.
fn flowchart_goldens() -> PathBuf {
    PathBuf::from("goldens/flowchart")
}

/// A JSON file of the goldens.
fn golden_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The flowchart page of the two bundled runs, in the order of
/// expected/two-runs.json (recognizer-b first).
fn flowchart_page() -> (Value, String) {
    let d = flowchart_goldens();
    let (gold, b, a) = (
        d.join("gold"),
        d.join("runs/recognizer-b"),
        d.join("runs/recognizer-a"),
    );
    page_of(&[
        "flowchart".as_ref(),
        "--gold".as_ref(),
        gold.as_os_str(),
        "--run".as_ref(),
        b.as_os_str(),
        "--run".as_ref(),
        a.as_os_str(),
    ])
}

/// The bars of one member of the bar chart `id` (drawn in `colour`) have
/// heights in proportion to `counts`: the tallest bar is the largest
/// count, a zero count draws a zero-high bar (pixels are whole).
fn assert_bars_drawn(doc: &Document, id: &str, colour: &str, counts: &[u64]) {
    let svg = by_id(doc, id)
        .children()
        .find(|n| n.has_tag_name("svg"))
        .unwrap();
    let heights: Vec<f64> = svg
        .descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some(colour))
        .filter_map(|n| n.attribute("height")?.parse().ok())
        .take(counts.len())
        .collect();
    assert_eq!(heights.len(), counts.len(), "{id}");
    let top = *counts.iter().max().unwrap() as f64;
    let per_unit = heights.iter().cloned().fold(0.0, f64::max) / top;
    for (h, &n) in heights.iter().zip(counts) {
        assert!(
            (h - n as f64 * per_unit).abs() <= 1.5,
            "{id}: {heights:?} {counts:?}"
        );
    }
}

#[test]
fn flowchart_topic_rows_and_distributions_equal_the_golden_json() {
    let (json, html) = flowchart_page();
    let golden = golden_json(
        &root()
            .join(flowchart_goldens())
            .join("expected/two-runs.json"),
    );
    // The page comes from the same evaluation as the checked golden output.
    assert!(
        json == golden,
        "the JSON differs from expected/two-runs.json"
    );
    let doc = parse(&html);
    let runs = golden["runs"].as_array().unwrap();
    let levels = ["basic", "intermediate", "complete"];
    for (i, run) in runs.iter().enumerate() {
        let section = by_id(&doc, &format!("fc-run-{i}"));
        let table = tables(section)[0];
        let got = rows(table);
        let topics = run["topics"].as_array().unwrap();
        assert_eq!(got.len(), topics.len());
        for (row, t) in got.iter().zip(topics) {
            let mut want = vec![
                t["topic"].as_str().unwrap().to_string(),
                t["status"].as_str().unwrap().to_string(),
                t["gold_size"].to_string(),
                t["run_size"].as_u64().map_or("-".into(), |s| s.to_string()),
            ];
            for l in levels {
                let s = &t["levels"][l];
                want.push(s["mcs"].to_string());
                want.push(format!("{:.4}", s["distance"].as_f64().unwrap()));
            }
            // Node and edge F1 at the finest level, then triplet F1.
            let f1 = |v: &serde_json::Value| format!("{:.4}", v["f1"].as_f64().unwrap());
            want.push(f1(&t["levels"]["complete"]["nodes"]));
            want.push(f1(&t["levels"]["complete"]["edges"]));
            want.push(f1(&t["triplets"]));
            assert_eq!(row, &want);
        }
    }
    // The triplet F1 distribution: per run, the topics in each bin of 0.1
    // (F1 1 in the last).
    let data = chart_data(&doc, "fc-dist-triplet-f1");
    for (i, run) in runs.iter().enumerate() {
        let mut bins = [0u64; 10];
        for t in run["topics"].as_array().unwrap() {
            let f = t["triplets"]["f1"].as_f64().unwrap();
            bins[((f * 10.0) as usize).min(9)] += 1;
        }
        assert_eq!(
            data["bars"][i]["counts"],
            serde_json::json!(bins),
            "run {i}"
        );
    }
    // One distribution per level: per run, the topics in each bin of 0.1.
    for l in levels {
        let data = chart_data(&doc, &format!("fc-dist-{l}"));
        for (i, run) in runs.iter().enumerate() {
            let mut bins = [0u64; 10];
            for t in run["topics"].as_array().unwrap() {
                let d = t["levels"][l]["distance"].as_f64().unwrap();
                bins[((d * 10.0) as usize).min(9)] += 1;
            }
            assert_eq!(data["bars"][i]["name"], run["run"]);
            assert_eq!(
                data["bars"][i]["counts"],
                serde_json::json!(bins),
                "{l} run {i}"
            );
            let colour = ["#1F77B4", "#FF7F0E"][i];
            assert_bars_drawn(&doc, &format!("fc-dist-{l}"), colour, &bins);
        }
    }
    // Hand check: recognizer-b at the complete level has FC-0004 at 0 and
    // FC-0003 (rejected), FC-0006 (missing) at 1.
    let complete = chart_data(&doc, "fc-dist-complete");
    assert_eq!(complete["bars"][0]["counts"][0], 2);
    assert_eq!(complete["bars"][0]["counts"][9], 2);
    // The ranking: recognizer-b (mean complete d 0.3973) before recognizer-a.
    let ranking = rows(tables(by_id(&doc, "fc-ranking"))[0]);
    let order: Vec<(&str, &str)> = ranking
        .iter()
        .map(|r| (r[1].as_str(), r[4].as_str()))
        .collect();
    assert_eq!(
        order,
        [("recognizer-b", "0.3973"), ("recognizer-a", "0.4434")]
    );
}

/// The nodes of a drawn graph: (id, partner) of the matched ones, and the
/// count of all nodes; the kept and all edges.
fn drawn(figure: Node) -> (Vec<(i64, i64)>, usize, usize, usize) {
    let class = |n: &Node, c: &str| n.attribute("class") == Some(c);
    let id = |n: &Node, a: &str| -> i64 { n.attribute(a).unwrap().parse().unwrap() };
    let matched = figure
        .descendants()
        .filter(|n| class(n, "node matched"))
        .map(|n| (id(&n, "data-id"), id(&n, "data-partner")))
        .collect();
    let nodes = figure
        .descendants()
        .filter(|n| class(n, "node") || class(n, "node matched"))
        .count();
    let kept = figure
        .descendants()
        .filter(|n| class(n, "edge kept"))
        .count();
    let edges = kept + figure.descendants().filter(|n| class(n, "edge")).count();
    (matched, nodes, kept, edges)
}

#[test]
fn flowchart_graphs_highlight_the_reported_mapping_and_label_pairs_sum_to_the_cost() {
    let (json, html) = flowchart_page();
    let doc = parse(&html);
    for (i, run) in json["runs"].as_array().unwrap().iter().enumerate() {
        let table = tables(by_id(&doc, &format!("fc-run-{i}")))[0];
        let details: Vec<Node> = table
            .descendants()
            .filter(|n| n.has_tag_name("details"))
            .collect();
        let topics = run["topics"].as_array().unwrap();
        assert_eq!(details.len(), topics.len());
        for (detail, t) in details.iter().zip(topics) {
            let name = t["topic"].as_str().unwrap();
            let figure = |side: &str| {
                detail
                    .descendants()
                    .find(|n| n.attribute("class") == Some(&format!("graph {side}")))
            };
            let gold = drawn(figure("gold").unwrap());
            let c = &t["levels"]["complete"];
            if t["status"] != "ok" {
                // Gold drawn alone, nothing matched.
                assert!(figure("run").is_none(), "{name}");
                assert_eq!(gold.0.len(), 0);
                continue;
            }
            let run_side = drawn(figure("run").unwrap());
            let mapping: Vec<(i64, i64)> = c["mapping"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| (p[0].as_i64().unwrap(), p[1].as_i64().unwrap()))
                .collect();
            // Every node and edge drawn; the matched ones are the mapping's.
            assert_eq!(
                gold.1 + gold.3,
                t["gold_size"].as_u64().unwrap() as usize,
                "{name}"
            );
            assert_eq!(
                run_side.1 + run_side.3,
                t["run_size"].as_u64().unwrap() as usize,
                "{name}"
            );
            let mut g = gold.0.clone();
            g.sort_unstable();
            let mut want = mapping.clone();
            want.sort_unstable();
            assert_eq!(g, want, "{name}");
            let mut r: Vec<(i64, i64)> = run_side.0.iter().map(|&(x, p)| (p, x)).collect();
            r.sort_unstable();
            assert_eq!(r, want, "{name}");
            // |mcs| = matched nodes + preserved edges, on both sides.
            let mcs = c["mcs"].as_u64().unwrap() as usize;
            assert_eq!(mapping.len() + gold.2, mcs, "{name}");
            assert_eq!(run_side.2, gold.2, "{name}");
            // The label pairs: one per mapped pair, their ned sum the best cost.
            let pairs = detail
                .descendants()
                .find(|n| n.has_tag_name("table"))
                .unwrap();
            let cells: Vec<f64> = pairs
                .descendants()
                .filter(|n| n.has_tag_name("tr"))
                .filter_map(|tr| tr.children().filter(|n| n.has_tag_name("td")).nth(4))
                .map(|td| td.attribute("data-sort").unwrap().parse().unwrap())
                .collect();
            assert_eq!(cells.len(), mapping.len(), "{name}");
            let sum: f64 = cells.iter().sum();
            let best = c["label_cost_best"].as_f64().unwrap();
            assert!((sum - best).abs() < 1e-9, "{name}: {sum} vs {best}");
        }
    }
    // Hand check, recognizer-a FC-0001: "Reserve items" read as "Reserve
    // itcms" (1 edit of 13) and "END" as "E N D" (normalized "e n d": 2 of 5).
    let section = by_id(&doc, "fc-run-1");
    let text = text(section);
    assert!(text.contains("Reserve itcms0.0769"), "{text}");
    assert!(text.contains("E N D0.4000"), "{text}");
}

/// The recognition page of `run` against `gold` (folders under
/// goldens/recognition), optionally with clips.
fn recognition_page(gold: &str, run: &str, clips: Option<&str>) -> (Value, String) {
    let d = root().join("goldens/recognition");
    let (gold, run) = (d.join(gold), d.join(run));
    let mut args: Vec<&OsStr> = vec![
        "recognition".as_ref(),
        "--gold".as_ref(),
        gold.as_os_str(),
        "--run".as_ref(),
        run.as_os_str(),
    ];
    let clips = clips.map(|c| d.join(c));
    if let Some(c) = &clips {
        args.extend(["--clips".as_ref(), c.as_os_str()]);
    }
    page_of(&args)
}

#[test]
fn recognition_outcome_counts_equal_the_goldens_expected_outcomes() {
    let outcomes = [
        "match",
        "stereo",
        "formula",
        "wrong",
        "unreadable",
        "missing",
        "manual",
    ];
    for (gold, run, clips, expected) in [
        ("gold", "runs/handmade", None, "expected/handmade.json"),
        (
            "osra/gold",
            "osra/runs/osra",
            Some("osra/clips"),
            "expected/osra.json",
        ),
    ] {
        let (_, html) = recognition_page(gold, run, clips);
        let expected = golden_json(&root().join("goldens/recognition").join(expected));
        let structures = expected["structures"].as_array().unwrap();
        let want: Vec<u64> = outcomes
            .iter()
            .map(|o| structures.iter().filter(|s| s["outcome"] == *o).count() as u64)
            .collect();
        assert_eq!(want.iter().sum::<u64>(), structures.len() as u64);
        let doc = parse(&html);
        // The bars: one group per outcome, one bar (this run) per group.
        let data = chart_data(&doc, "rec-outcome-bars");
        assert_eq!(data["categories"], serde_json::json!(outcomes));
        assert_eq!(data["bars"][0]["counts"], serde_json::json!(want), "{run}");
        assert_bars_drawn(&doc, "rec-outcome-bars", "#1F77B4", &want);
        // The table: automatic = all but manual, recalled = matches.
        let table = rows(tables(by_id(&doc, "rec-outcomes"))[0]);
        let row = &table[0];
        let (matched, manual) = (want[0], want[6]);
        let total = structures.len() as u64;
        assert_eq!(
            row[1..4],
            [total, total - manual, matched].map(|n| n.to_string())
        );
        // Ignoring stereo, the gold with stereo and the recall on it, from
        // the expected outcomes and gold InChIs (a `/t` or `/b` layer).
        let automatic = (total - manual) as f64;
        let percent = |n: u64, of: f64| {
            format!(
                "{:.2}",
                if of == 0.0 {
                    0.0
                } else {
                    100.0 * n as f64 / of
                }
            )
        };
        let stereo_gold: Vec<&serde_json::Value> = (structures.iter())
            .filter(|s| s["outcome"] != "manual")
            .filter(|s| {
                let inchi = s["gold_inchi"].as_str().unwrap_or("");
                inchi.split('/').skip(2).any(|l| l.starts_with(['t', 'b']))
            })
            .collect();
        let stereo_matched = stereo_gold
            .iter()
            .filter(|s| s["outcome"] == "match")
            .count();
        assert_eq!(
            row[5..8],
            [
                percent(want[0] + want[1], automatic),
                stereo_gold.len().to_string(),
                percent(stereo_matched as u64, stereo_gold.len() as f64),
            ]
        );
        let counts: Vec<String> = want[1..].iter().map(u64::to_string).collect();
        assert_eq!(row[8..], counts[..]);
        // The gallery: one card per structure, marked with its outcome.
        let cards: Vec<(String, String)> = doc
            .descendants()
            .filter(|n| {
                n.has_tag_name("section")
                    && n.attribute("class").is_some_and(|c| c.starts_with("card "))
            })
            .map(|n| {
                let class = n.attribute("class").unwrap().to_string();
                let name = n
                    .children()
                    .find(|h| h.has_tag_name("h3"))
                    .map(text)
                    .unwrap();
                (name, class)
            })
            .collect();
        assert_eq!(cards.len(), structures.len());
        for s in structures {
            let name = s["name"].as_str().unwrap();
            let class = format!("card has-{}", s["outcome"].as_str().unwrap());
            assert!(cards.contains(&(name.to_string(), class)), "{name}");
        }
    }
}

#[test]
fn flowchart_page_is_the_same_for_any_thread_count_and_without_the_complete_level() {
    let d = root().join("goldens/flowchart");
    let (gold, a) = (d.join("gold"), d.join("runs/recognizer-a"));
    let args = |threads: &'static str| -> Vec<&OsStr> {
        vec![
            "flowchart".as_ref(),
            "--gold".as_ref(),
            gold.as_os_str(),
            "--run".as_ref(),
            a.as_os_str(),
            "--threads".as_ref(),
            threads.as_ref(),
        ]
    };
    let one = page_of(&args("1")).1;
    assert_eq!(page_of(&args("2")).1, one);
    // The complete level not scored: graphs drawn, nothing highlighted, and
    // the page says why.
    let mut basic = args("2");
    basic.extend([OsStr::new("--level"), OsStr::new("basic")]);
    let (_, html) = page_of(&basic);
    let doc = parse(&html);
    let classes = |c: &str| {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(c))
            .count()
    };
    assert_eq!(classes("node matched") + classes("edge kept"), 0);
    // Gold graphs of all six topics, runs of the four accepted ones.
    assert_eq!(
        (classes("graph gold"), classes("graph run")),
        (6, 4),
        "{html}"
    );
    assert_eq!(
        html.matches("shown for the complete level, which was not scored")
            .count(),
        4
    );
    assert!(by_id(&doc, "fc-dist-basic").has_tag_name("figure"));
    assert!(!html.contains("fc-dist-complete"));
}

#[test]
fn an_html_file_that_cannot_be_written_stops_with_exit_2_naming_it() {
    let d = root().join("goldens/flowchart");
    let page = root().join("no/such/folder/page.html");
    let out = Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .arg("flowchart")
        .arg("--gold")
        .arg(d.join("gold"))
        .arg("--run")
        .arg(d.join("runs/recognizer-b"))
        .arg("--html")
        .arg(&page)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("clefeval: error: cannot write ") && stderr.contains("page.html"),
        "{stderr}"
    );
}

/// The note under a topic's graphs names the limit that cut its complete
/// level, and no limit where the level is exact: at 50 units of budget
/// FC-0002's complete level is cut by the budget (as the JSON says), the
/// other scored topics' complete levels are exact, and no time limit is
/// set.
#[test]
fn the_mapping_note_names_only_the_limit_that_cut() {
    let d = flowchart_goldens();
    let (gold, a) = (d.join("gold"), d.join("runs/recognizer-a"));
    let (json, html) = page_of(&[
        "flowchart".as_ref(),
        "--gold".as_ref(),
        gold.as_os_str(),
        "--run".as_ref(),
        a.as_os_str(),
        "--budget".as_ref(),
        "50".as_ref(),
    ]);
    let cut: Vec<&str> = json["runs"][0]["topics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["levels"]["complete"]["cut_by"] == "budget")
        .map(|t| t["topic"].as_str().unwrap())
        .collect();
    assert_eq!(cut, ["FC-0002"]);
    let by_budget = "the complete level was cut by the work budget: the least label cost found";
    assert_eq!(html.matches(by_budget).count(), 1);
    assert!(!html.contains("cut by the time limit"));
    // Every scored topic whose complete level is exact.
    let scored_exact = json["runs"][0]["topics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["levels"]["complete"]["exact"] == true && t["status"] == "ok")
        .count();
    assert_eq!(scored_exact, 3);
    let exact = "(the complete-level mapping of least label cost)";
    assert_eq!(html.matches(exact).count(), scored_exact);
}

/// The heading level of an element (`h1` … `h6`), if it is a heading.
fn heading_level(node: Node) -> Option<usize> {
    let name = node.tag_name().name();
    let digit = name.strip_prefix('h')?;
    digit.parse().ok().filter(|l| (1..=6).contains(l))
}

/// How many `<section>` elements hold `node`.
fn section_depth(node: Node) -> usize {
    node.ancestors()
        .skip(1)
        .filter(|n| n.has_tag_name("section"))
        .count()
}

/// The outline of a page: one `<h1>` (the title, a child of `<body>`);
/// every other heading in a section, the section's own heading (its first
/// element) at level 2 + the sections around it, every other heading of
/// the section one level below that. Returns (level, text) of every
/// heading in page order.
fn outline(doc: &Document) -> Vec<(usize, String)> {
    let mut headings = Vec::new();
    for h in doc.descendants().filter(|n| heading_level(*n).is_some()) {
        let level = heading_level(h).unwrap();
        let label = text(h);
        if level == 1 {
            assert!(h.parent().unwrap().has_tag_name("body"), "{label}");
        } else {
            let section = h
                .ancestors()
                .find(|n| n.has_tag_name("section"))
                .unwrap_or_else(|| panic!("heading {label:?} outside any section"));
            let own = 2 + section_depth(section);
            let first = section.children().find(|n| n.is_element()) == Some(h);
            let want = if first { own } else { own + 1 };
            assert_eq!(level, want, "heading {label:?}");
        }
        headings.push((level, label));
    }
    assert_eq!(headings.iter().filter(|h| h.0 == 1).count(), 1);
    headings
}

/// The contents of a page, read from `<body>`'s `<nav>` as (task, label)
/// pairs: the task is the entry a nested entry sits under (None at the top
/// level). Every entry links a section found exactly once whose heading is
/// the entry's label and which lies in its task's section; no label repeats
/// among the top entries nor among one task's entries; every section at
/// the levels the contents cover is linked.
fn contents(doc: &Document) -> Vec<(Option<String>, String)> {
    let body = doc
        .root_element()
        .children()
        .find(|n| n.has_tag_name("body"))
        .unwrap();
    let Some(nav) = body.children().find(|n| n.has_tag_name("nav")) else {
        return Vec::new();
    };
    let mut entries = Vec::new();
    let mut linked = Vec::new();
    for a in nav.descendants().filter(|n| n.has_tag_name("a")) {
        let id = a.attribute("href").unwrap().strip_prefix('#').unwrap();
        let targets: Vec<Node> = doc
            .descendants()
            .filter(|n| n.attribute("id") == Some(id))
            .collect();
        assert_eq!(targets.len(), 1, "#{id}");
        let target = targets[0];
        assert!(target.has_tag_name("section"), "#{id}");
        let heading = target.children().find(|n| n.is_element()).unwrap();
        let label = text(a);
        assert_eq!(text(heading), label, "#{id}");
        // Nested: <li><a>task</a><ul><li><a>label</a></li></ul></li>.
        let task = a
            .ancestors()
            .filter(|n| n.has_tag_name("li"))
            .nth(1)
            .map(|li| li.children().find(|n| n.has_tag_name("a")).unwrap());
        if let Some(task) = task {
            let task_id = task.attribute("href").unwrap().strip_prefix('#').unwrap();
            assert!(
                target
                    .ancestors()
                    .any(|n| n.attribute("id") == Some(task_id)),
                "#{id} outside #{task_id}"
            );
        }
        let entry = (task.map(text), label);
        assert!(!entries.contains(&entry), "{entry:?} twice");
        entries.push(entry);
        linked.push(id);
    }
    let deepest = usize::from(nav.descendants().any(|n| n.has_tag_name("ul")));
    let sections: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("section") && section_depth(*n) <= deepest)
        .filter_map(|n| n.attribute("id"))
        .collect();
    assert_eq!(linked, sections);
    entries
}

/// The sections of the flowchart page of the two bundled runs.
const FLOWCHART_SECTIONS: [&str; 4] = [
    "Ranking",
    "Distance distributions",
    "Run recognizer-a",
    "Run recognizer-b",
];

/// The sections of the segmentation page of the two bundled runs.
const SEGMENTATION_SECTIONS: [&str; 4] = [
    "Ranking",
    "Curves over the tolerances",
    "Run run-osra",
    "Run run-shifted",
];

/// The sections of the prior-art page of goldens/passage/doc and of the
/// passage page of goldens/passage/demo, both with their groups.
const PASSAGE_SECTIONS: [&str; 6] = [
    "Ranking",
    "Means of every measure",
    "Means by topic group",
    "Per topic",
    "Recall at cut-off",
    "Topics and lines set aside",
];

#[test]
fn every_task_page_has_one_title_sections_below_it_and_a_flat_contents_line() {
    let passage = [&PASSAGE_SECTIONS[..], &["Comparisons of the runs"]].concat();
    let sections: [&[&str]; 5] = [
        &FLOWCHART_SECTIONS,
        &SEGMENTATION_SECTIONS,
        &["Outcomes", "Review"],
        &PASSAGE_SECTIONS,
        &passage,
    ];
    for ((_, args), sections) in TASK_PAGES.iter().zip(sections) {
        let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
        let html = page_of(&args).1;
        let doc = parse(&html);
        let headings = outline(&doc);
        let task = args[0].to_str().unwrap();
        assert_eq!(headings[0], (1, format!("clefeval {task}")));
        let top: Vec<&str> = headings
            .iter()
            .filter(|h| h.0 == 2)
            .map(|h| h.1.as_str())
            .collect();
        assert_eq!(top, sections, "{task}");
        // The contents: one flat line, an entry per section.
        let entries = contents(&doc);
        let labels: Vec<&str> = entries.iter().map(|e| e.1.as_str()).collect();
        assert_eq!(labels, sections, "{task}");
        assert!(entries.iter().all(|e| e.0.is_none()), "{task}");
    }
}

/// Runs `clefeval demo` in `dir` with `args`; returns its standard output.
fn demo(dir: &Path, args: &[&OsStr]) -> String {
    let out = succeed(dir, &[&["demo".as_ref()], args].concat());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_demo_page_holds_each_task_under_its_heading_and_lists_its_sections_under_it() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("demo-outline");
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("demo.html");
    demo(root(), &["--html".as_ref(), page.as_os_str()]);
    let html = std::fs::read_to_string(&page).unwrap();
    let doc = parse(&html);
    let headings = outline(&doc);
    assert_eq!(headings[0], (1, "clefeval demo".to_string()));
    let tasks = [
        "Task 1: flowcharts",
        "Task 2: chemical-diagram segmentation",
        "Task 3: chemical structure recognition",
        "Task 4: prior art",
        "Task 5: claims to passage",
        "Task 6: detection (COCO average precision)",
    ];
    let level = |l: usize| -> Vec<&str> {
        headings
            .iter()
            .filter(|h| h.0 == l)
            .map(|h| h.1.as_str())
            .collect()
    };
    assert_eq!(level(2), tasks);
    // Five tasks have a ranking, each one level below its task.
    assert_eq!(level(3).iter().filter(|h| **h == "Ranking").count(), 5);
    // Recognition's cards and the segmentation runs' document tables sit a
    // level below their sections.
    assert!(level(4).contains(&"match_v3000"));
    assert!(level(4).contains(&"Documents (click a row for every tolerance)"));

    let entries = contents(&doc);
    let under = |task: &str| -> Vec<&str> {
        entries
            .iter()
            .filter(|e| e.0.as_deref() == Some(task))
            .map(|e| e.1.as_str())
            .collect()
    };
    let top: Vec<&str> = entries
        .iter()
        .filter(|e| e.0.is_none())
        .map(|e| e.1.as_str())
        .collect();
    assert_eq!(top, tasks);
    // The demo scores every bundled flowchart run: the two CLEF-IP ones
    // and the Markdown answers.
    let flowchart = [&FLOWCHART_SECTIONS[..], &["Run vlm-answers"]].concat();
    assert_eq!(under(tasks[0]), flowchart);
    assert_eq!(under(tasks[1]), SEGMENTATION_SECTIONS);
    assert_eq!(
        under(tasks[2]),
        [
            "Outcomes",
            "Review",
            "Outcomes: OSRA on drawn clips",
            "Review: OSRA on drawn clips"
        ]
    );
    // Prior art has the passage page's sections, without a comparison.
    assert_eq!(under(tasks[3]), PASSAGE_SECTIONS);
    let passage = [&PASSAGE_SECTIONS[..], &["Comparisons of the runs"]].concat();
    assert_eq!(under(tasks[4]), passage);
    assert_eq!(
        under(tasks[5]),
        ["Ranking", "Precision–recall curves", "Run osra.json"]
    );
}

#[test]
fn the_demo_prints_paths_as_given() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("demo-paths");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("out")).unwrap();
    let page = dir.join("page.html");
    let absolute = root().join("goldens");
    let absolute = absolute.to_str().unwrap();

    // From the package root, the bundled data is `goldens/`, as a user
    // would type it: the same output as with `--data goldens`.
    let default = demo(root(), &["--html".as_ref(), page.as_os_str()]);
    assert!(!default.contains(absolute), "{default}");
    for line in [
        "goldens/flowchart/gold/FC-0001.txt: ok: 18 nodes",
        "(every diagnostic: clefeval validate goldens/flowchart/broken)",
        "  goldens/flowchart/runs/recognizer-a/FC-0006.txt:48: error: ",
        "goldens/segmentation/run-shifted/run.csv:3: warning: ",
    ] {
        assert!(
            default.lines().any(|l| l.starts_with(line)),
            "{line}: {default}"
        );
    }
    let given = demo(
        root(),
        &[
            "--data".as_ref(),
            "goldens".as_ref(),
            "--html".as_ref(),
            page.as_os_str(),
        ],
    );
    assert_eq!(given, default);
    assert!(default.ends_with(&format!(
        "report (charts, graphs, review): {} (open it in a browser)\n",
        page.display()
    )));

    // From elsewhere: the page as typed (relative), the data as typed
    // (absolute).
    let goldens = root().join("goldens");
    let elsewhere = demo(
        &dir,
        &[
            "--data".as_ref(),
            goldens.as_os_str(),
            "--html".as_ref(),
            "out/demo.html".as_ref(),
        ],
    );
    assert!(dir.join("out/demo.html").is_file());
    assert!(
        elsewhere
            .ends_with("report (charts, graphs, review): out/demo.html (open it in a browser)\n")
    );
    let first = format!("{}/flowchart/gold/FC-0001.txt: ok", goldens.display());
    assert!(
        elsewhere.lines().any(|l| l.starts_with(&first)),
        "{elsewhere}"
    );
}

#[test]
fn the_demo_writes_its_page_when_its_output_is_closed() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("demo-closed");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // Standard output a pipe whose reading end is already closed, as in
    // `clefeval demo | head -1` once head has read its line.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .current_dir(&dir)
        .arg("demo")
        .stdout(writer)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    assert!(dir.join("demo-report.html").is_file());
}
