//! The `--html` page of `clefeval segmentation` on goldens/segmentation,
//! read back by parsing it (it is XML-well-formed): the plotted curves equal
//! the JSON output of the same run, the drawn lines sit where those values
//! put them, the tables carry the checked ranking (expected/ranking.txt) and
//! every document, and nothing on the page points outside it.

use roxmltree::{Document, Node, ParsingOptions};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("goldens/segmentation")
}

/// Runs the binary with `--format json --html` and returns (JSON, page).
fn render() -> (Value, String) {
    let d = dir();
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    let name = format!("clefeval-seg-html-{}-{call}.html", std::process::id());
    let page = std::env::temp_dir().join(name);
    let out = Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .arg("segmentation")
        .arg("--gold")
        .arg(d.join("gold"))
        .arg("--run")
        .arg(d.join("run-osra"))
        .arg("--run")
        .arg(d.join("run-shifted"))
        .arg("--pages")
        .arg(d.join("pages"))
        .args(["--format", "json", "--html"])
        .arg(&page)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = serde_json::from_slice(&out.stdout).unwrap();
    let html = std::fs::read_to_string(&page).unwrap();
    std::fs::remove_file(&page).unwrap();
    (json, html)
}

fn parse(html: &str) -> Document<'_> {
    let options = ParsingOptions {
        allow_dtd: true,
        ..ParsingOptions::default()
    };
    Document::parse_with_options(html, options).expect("the page is well-formed")
}

fn by_id<'a, 'i>(doc: &'a Document<'i>, id: &str) -> Node<'a, 'i> {
    doc.descendants()
        .find(|n| n.attribute("id") == Some(id))
        .unwrap_or_else(|| panic!("no element #{id}"))
}

fn text(node: Node) -> String {
    node.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect()
}

/// The data rows (first row of each `<tbody>`) of a table, as cell texts.
fn rows(table: Node) -> Vec<Vec<String>> {
    table
        .children()
        .filter(|n| n.has_tag_name("tbody"))
        .filter_map(|b| b.children().find(|n| n.has_tag_name("tr")))
        .map(|tr| {
            tr.children()
                .filter(|n| n.has_tag_name("td"))
                .map(text)
                .collect()
        })
        .collect()
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
    for node in doc.descendants() {
        for a in node.attributes() {
            let v = a.value();
            if matches!(a.name(), "src" | "href" | "action" | "poster" | "srcset") {
                assert!(
                    v.starts_with('#') || v.starts_with("data:"),
                    "{}={v}",
                    a.name()
                );
            }
            assert!(
                !v.contains("http:") && !v.contains("https:"),
                "{}={v}",
                a.name()
            );
        }
        let tag = node.tag_name().name();
        assert!(
            !["link", "iframe", "object", "embed", "img", "base"].contains(&tag),
            "{tag}"
        );
        if let Some(t) = node.text() {
            assert!(!t.contains("url(") && !t.contains("@import"), "{t}");
            assert!(!t.contains("http:") && !t.contains("https:"), "{t}");
        }
    }
    // The only scripts: the chart data blocks and one inline script.
    let scripts: Vec<Node> = doc
        .descendants()
        .filter(|n| n.has_tag_name("script"))
        .collect();
    assert_eq!(
        scripts
            .iter()
            .filter(|s| s.attribute("type").is_none())
            .count(),
        1
    );
    assert!(scripts.iter().all(|s| s.attribute("src").is_none()));
    // Deterministic: a second run gives the same bytes.
    assert_eq!(render().1, html);
}
