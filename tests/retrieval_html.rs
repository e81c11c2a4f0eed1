//! The `--html` page of the text-retrieval evaluations
//! (`retrieval::html::page`), built from the library's evaluation of
//! goldens/passage/demo and goldens/passage/hand and read back as XML: the
//! ranking and the tables print the evaluation's means, every chart's data
//! equals the evaluation's figures, the lists and the rejected runs are
//! shown, and the page is deterministic and references nothing outside it.

#[path = "support/page.rs"]
mod page;

use clefeval::inputs::Run;
use clefeval::retrieval::html;
use clefeval::retrieval::report::Summary;
use clefeval::retrieval::{Evaluation, Settings, Task, evaluate};
use page::{
    assert_self_contained, by_id, chart_data, parse, row_cells, rows, tables, text, unique_ids,
};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use tempfile::TempDir;

fn golden(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("goldens/passage")
        .join(path)
}

/// The demo's three passage runs, with or without its groups.
fn demo(groups: bool, ranks: &[usize]) -> Evaluation {
    let mut settings = Settings::new(Task::Passage);
    settings.ranks = ranks.to_vec();
    let runs = ["acme-bm25-PSG", "lab2-lm-PSG.gz", "lab3-rerank-PSG.zip"]
        .map(|r| golden(&format!("demo/runs/{r}")));
    let groups = groups.then(|| golden("demo/groups.txt"));
    evaluate(
        &settings,
        &golden("demo/qrels.txt"),
        groups.as_deref(),
        &Run::each(&runs),
    )
    .unwrap()
}

/// A fresh scratch folder, removed when dropped.
fn scratch(name: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("clefeval-retrieval-html-{name}-"))
        .tempdir()
        .unwrap()
}

/// The hand-computed document run, the same run under a name that needs
/// escaping, and a run with a malformed line (rejected), against the hand
/// qrels and groups.
fn hand_prior_art(dir: &Path) -> Evaluation {
    let odd = dir.join("a<b>&\"c\"");
    std::fs::copy(golden("hand/hand-doc"), &odd).unwrap();
    let bad = dir.join("bad-PAC");
    std::fs::write(&bad, "H-1 Q0 EP-1 1 2.0 t\nH-1 Q0 EP-2 two 1.0 t\n").unwrap();
    evaluate(
        &Settings::new(Task::PriorArt),
        &golden("hand/qrels.txt"),
        Some(&golden("hand/groups.txt")),
        &Run::each(&[golden("hand/hand-doc"), bad, odd]),
    )
    .unwrap()
}

/// The hand-computed passage run: group DE has no scored topic.
fn hand_passage() -> Evaluation {
    evaluate(
        &Settings::new(Task::Passage),
        &golden("hand/passage-qrels.txt"),
        Some(&golden("hand/groups.txt")),
        &[Run::at(golden("hand/hand-passage"))],
    )
    .unwrap()
}

/// The evaluation's JSON (the figures the page must show).
fn json_of(evaluation: &Evaluation) -> Value {
    serde_json::to_value(evaluation).unwrap()
}

/// `value` as a chart's data block holds it: written as JSON text and
/// read back the way the tests read the page. serde_json's reader may miss
/// the nearest double by one unit in the last place, so a chart's figures
/// are compared with the evaluation's after the same trip; the text is the
/// shortest that reads back exactly, so equal texts mean equal doubles.
fn as_in_page(value: &Value) -> Value {
    serde_json::from_str(&value.to_string()).unwrap()
}

/// The `data-sort` values of a table's data rows.
fn sort_values(table: roxmltree::Node) -> Vec<Vec<Option<f64>>> {
    row_cells(table, |td| {
        td.attribute("data-sort").map(|v| v.parse().unwrap())
    })
}

/// The header texts of a table.
fn headers(table: roxmltree::Node) -> Vec<String> {
    table
        .descendants()
        .filter(|n| n.has_tag_name("th"))
        .map(text)
        .collect()
}

/// A printed mean equals `mean` (4 decimals; `–` for none) and its sort
/// value equals it exactly.
fn assert_mean(printed: &str, sort: Option<f64>, mean: Option<f64>, at: &str) {
    match mean {
        Some(m) => {
            let shown: f64 = printed
                .parse()
                .unwrap_or_else(|_| panic!("{at}: {printed}"));
            assert!((shown - m).abs() <= 5e-5, "{at}: {printed} vs {m}");
            assert_eq!(printed, format!("{m:.4}"), "{at}");
            assert_eq!(sort, Some(m), "{at}");
        }
        None => assert_eq!(printed, "–", "{at}"),
    }
}

#[test]
fn ranking_lists_every_scored_run_by_map_with_the_evaluation_means() {
    let evaluation = demo(true, &[]);
    let page = html::page(&evaluation);
    let doc = parse(&page);
    let table = tables(by_id(&doc, "psg-ranking"))[0];
    let heads = headers(table);
    assert_eq!(
        heads,
        [
            "rank",
            "run",
            "topics",
            "MAP@100",
            "PRES@20",
            "PRES@100",
            "nDCG@100",
            "MAP(D)",
            "Precision(D)"
        ]
    );
    let texts = rows(table);
    let sorts = sort_values(table);
    // Mean MAP@100: lab2 11/12, lab3 3/4, acme 5/8.
    let names: Vec<&str> = texts.iter().map(|r| r[1].as_str()).collect();
    assert_eq!(names, ["lab2-lm-PSG", "lab3-rerank-PSG", "acme-bm25-PSG"]);
    for (i, (row, sort)) in texts.iter().zip(&sorts).enumerate() {
        assert_eq!(row[0], (i + 1).to_string());
        let run = evaluation.runs.iter().find(|r| r.run == row[1]).unwrap();
        let all = &run.scores.as_ref().unwrap().all;
        assert_eq!(row[2], all.num_q.to_string());
        for col in 3..heads.len() {
            let at = format!("{} {}", row[1], heads[col]);
            let m = evaluation.measures.iter().position(|m| *m == heads[col]);
            assert_mean(&row[col], sort[col], all.means[m.unwrap()], &at);
        }
    }
    assert!(page.contains("ranked by their mean MAP@100"));
}

#[test]
fn another_cut_off_renames_the_headline_and_adds_its_pres() {
    let mut settings = Settings::new(Task::Passage);
    settings.cutoff = 50;
    let demo = golden("demo");
    let evaluation = evaluate(
        &settings,
        &demo.join("qrels.txt"),
        None,
        &[Run::at(demo.join("runs/acme-bm25-PSG"))],
    )
    .unwrap();
    let page = html::page(&evaluation);
    let doc = parse(&page);
    assert_eq!(
        headers(tables(by_id(&doc, "psg-ranking"))[0]),
        [
            "rank",
            "run",
            "topics",
            "MAP@50",
            "PRES@20",
            "PRES@100",
            "PRES@50",
            "nDCG@50",
            "MAP(D)",
            "Precision(D)"
        ]
    );
    assert!(page.contains("ranked by their mean MAP@50"));
    assert!(page.contains("cut-off N = 50"));
    let data = chart_data(&doc, "psg-topic-map");
    assert_eq!(data["title"], "AP@50 per topic");
}

#[test]
fn means_bars_and_table_equal_every_mean_of_every_run() {
    let evaluation = demo(true, &[]);
    let json = json_of(&evaluation);
    let page = html::page(&evaluation);
    let doc = parse(&page);
    let data = chart_data(&doc, "psg-means-bars");
    assert_eq!(data["categories"], json["measures"]);
    let runs = json["runs"].as_array().unwrap();
    let bars = data["bars"].as_array().unwrap();
    assert_eq!(bars.len(), 3);
    let measures = json["measures"].as_array().unwrap();
    for (i, (b, run)) in bars.iter().zip(runs).enumerate() {
        assert_eq!(b["name"], run["run"]);
        assert_eq!(b["colour"], i);
        let want: Vec<Value> = measures
            .iter()
            .map(|m| run["all"][m.as_str().unwrap()].clone())
            .collect();
        assert_eq!(b["values"], as_in_page(&json!(want)), "{}", run["run"]);
    }
    // The table: the counts, then a row per measure; a column per run in
    // the given order.
    let table = tables(by_id(&doc, "psg-means"))[0];
    assert_eq!(
        headers(table),
        ["measure", "acme-bm25-PSG", "lab2-lm-PSG", "lab3-rerank-PSG"]
    );
    let (texts, sorts) = (rows(table), sort_values(table));
    assert_eq!(texts.len(), 4 + measures.len());
    let scores: Vec<_> = evaluation
        .runs
        .iter()
        .map(|r| &r.scores.as_ref().unwrap().all)
        .collect();
    let counts: Vec<Vec<String>> = texts[..4].iter().map(|r| r[1..].to_vec()).collect();
    let want: Vec<Vec<String>> = [
        |s: &Summary| s.num_q,
        |s: &Summary| s.num_ret,
        |s: &Summary| s.num_rel,
        |s: &Summary| s.num_rel_ret,
    ]
    .iter()
    .map(|f| scores.iter().map(|s| f(s).to_string()).collect())
    .collect();
    assert_eq!(counts, want);
    // acme retrieves 9 documents within the cut-offs, lab2 6, lab3 5.
    assert_eq!(counts[1], ["9", "6", "5"]);
    for (i, m) in evaluation.measures.iter().enumerate() {
        let (row, sort) = (&texts[4 + i], &sorts[4 + i]);
        assert_eq!(&row[0], m);
        for (j, all) in scores.iter().enumerate() {
            assert_mean(&row[j + 1], sort[j + 1], all.means[i], &format!("{j} {m}"));
        }
    }
    // Spot checks against the demo's expected means.
    assert_eq!(bars[1]["values"][10], as_in_page(&json!(11.0 / 12.0)));
    assert_eq!(bars[2]["values"][14], as_in_page(&json!(29.0 / 48.0)));
}

#[test]
fn group_charts_show_the_headline_means_per_group() {
    let evaluation = demo(true, &[]);
    let json = json_of(&evaluation);
    let page = html::page(&evaluation);
    let doc = parse(&page);
    for (id, measure) in [
        ("psg-group-map", "MAP@100"),
        ("psg-group-pres", "PRES@100"),
        ("psg-group-mapd", "MAP(D)"),
    ] {
        let data = chart_data(&doc, id);
        assert_eq!(data["categories"], json!(["EN", "DE", "FR"]), "{id}");
        for (b, run) in data["bars"]
            .as_array()
            .unwrap()
            .iter()
            .zip(json["runs"].as_array().unwrap())
        {
            assert_eq!(b["name"], run["run"]);
            let want: Vec<Value> = ["EN", "DE", "FR"]
                .iter()
                .map(|g| run["groups"][g][measure].clone())
                .collect();
            assert_eq!(b["values"], as_in_page(&json!(want)), "{id} {}", run["run"]);
        }
    }
    // tPSG-5 (DE) is left out: EN holds tPSG-1 and tPSG-3, DE tPSG-2, FR tPSG-4.
    assert!(text(by_id(&doc, "psg-groups")).contains("EN 2, DE 1, FR 1"));
    // lab3 misses tPSG-3: its EN MAP@100 is (1 + 0) / 2.
    assert_eq!(
        chart_data(&doc, "psg-group-map")["bars"][2]["values"][0],
        0.5
    );

    // Prior art: MAP@N and PRES@100 only. Passage: a group without a
    // scored topic has no value.
    let tmp = scratch("groups");
    let dir = tmp.path();
    let doc_page = html::page(&hand_prior_art(dir));
    let pa = parse(&doc_page);
    assert!(
        pa.descendants()
            .all(|n| n.attribute("id") != Some("pa-group-mapd"))
    );
    assert_eq!(
        chart_data(&pa, "pa-group-map")["bars"][0]["values"],
        as_in_page(&json!([(11.0 / 60.0 + 1.0) / 2.0, 0.0]))
    );
    let psg_page = html::page(&hand_passage());
    let psg = parse(&psg_page);
    assert_eq!(
        chart_data(&psg, "psg-group-mapd")["bars"][0]["values"],
        as_in_page(&json!([14.0 / 27.0, null]))
    );

    // No groups file: no groups section.
    let bare = html::page(&demo(false, &[]));
    assert!(!bare.contains("psg-groups") && !bare.contains("psg-group-map"));
}

#[test]
fn topic_chart_sorts_topics_by_the_top_run_and_plots_each_runs_ap() {
    let evaluation = demo(true, &[]);
    let json = json_of(&evaluation);
    let page = html::page(&evaluation);
    let doc = parse(&page);
    let data = chart_data(&doc, "psg-topic-map");
    // lab2 (top MAP) has AP 1, 1, 2/3, 1 on tPSG-1..4: sorted, ties in
    // qrels order.
    assert_eq!(
        data["topics"],
        json!(["tPSG-1", "tPSG-2", "tPSG-4", "tPSG-3"])
    );
    let map = json["columns"]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c == "MAP@100")
        .unwrap();
    let series = data["series"].as_array().unwrap();
    for (s, run) in series.iter().zip(json["runs"].as_array().unwrap()) {
        assert_eq!(s["name"], run["run"]);
        assert_eq!(s["joined"], run["run"] == "lab2-lm-PSG");
        let want: Vec<Value> = data["topics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                let row = run["topics"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|r| &r[0] == t)
                    .unwrap();
                row[map].clone()
            })
            .collect();
        assert_eq!(s["values"], as_in_page(&json!(want)), "{}", run["run"]);
    }
    // lab3 misses tPSG-3: 0 there.
    assert_eq!(series[2]["values"], json!([1.0, 1.0, 1.0, 0.0]));
    // acme by hand (within rounding): 5/6, 1/2, 1/2, 2/3.
    let acme: Vec<f64> = series[0]["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    for (got, want) in acme.iter().zip([5.0 / 6.0, 0.5, 0.5, 2.0 / 3.0]) {
        assert!((got - want).abs() < 1e-12, "{acme:?}");
    }
    // The table under the chart names the topics in the same order.
    let section = by_id(&doc, "psg-topics");
    let table = section
        .descendants()
        .find(|n| n.has_tag_name("table"))
        .unwrap();
    let topics: Vec<String> = rows(table).into_iter().map(|r| r[1].clone()).collect();
    assert_eq!(topics, ["tPSG-1", "tPSG-2", "tPSG-4", "tPSG-3"]);
    assert_eq!(rows(table)[1][2], "0.5000");
}

#[test]
fn recall_curve_runs_over_every_cut_off_in_order() {
    let evaluation = demo(true, &[50, 3]);
    let json = json_of(&evaluation);
    let page = html::page(&evaluation);
    let doc = parse(&page);
    let data = chart_data(&doc, "psg-recall-k");
    let series = data["series"].as_array().unwrap();
    assert_eq!(series.len(), 3);
    for (s, run) in series.iter().zip(json["runs"].as_array().unwrap()) {
        assert_eq!(s["name"], run["run"]);
        let want: Vec<Value> = [3, 5, 10, 20, 50, 100]
            .iter()
            .map(|k| json!([*k as f64, run["all"][format!("R@{k}")]]))
            .collect();
        assert_eq!(s["points"], as_in_page(&json!(want)), "{}", run["run"]);
    }
    // acme: R@5 = 11/12 (see the demo's expected means).
    assert_eq!(
        series[0]["points"][1],
        as_in_page(&json!([5.0, 11.0 / 12.0]))
    );
}

#[test]
fn lists_and_rejected_runs_are_shown_and_names_escaped() {
    let tmp = scratch("lists");
    let dir = tmp.path();
    let evaluation = hand_prior_art(dir);
    let page = html::page(&evaluation);
    let doc = parse(&page);
    // Every run named: the scored ones in the tables, the rejected one in
    // its section with the line that rejected it.
    for name in ["hand-doc", "a<b>&\"c\"", "bad-PAC"] {
        assert!(text(doc.root()).contains(name), "{name}");
    }
    assert!(page.contains("a&lt;b&gt;&amp;&quot;c&quot;"));
    assert!(!page.contains("a<b>"));
    let rejected = text(by_id(&doc, "pa-rejected"));
    assert!(rejected.contains("run bad-PAC rejected"), "{rejected}");
    assert!(rejected.contains("bad-PAC:2:"), "{rejected}");
    let ranking: Vec<String> = rows(tables(by_id(&doc, "pa-ranking"))[0])
        .into_iter()
        .map(|r| r[1].clone())
        .collect();
    // The two scored runs are the same file: equal means, ranked by name.
    assert_eq!(ranking, ["a<b>&\"c\"", "hand-doc"]);
    // A run's colour is its position among the runs given, the rejected
    // one counted.
    let bars = chart_data(&doc, "pa-means-bars");
    assert_eq!(bars["bars"][1]["name"], "a<b>&\"c\"");
    assert_eq!(bars["bars"][1]["colour"], 2);
    // The hand run: left out H-3, missing H-4, unknown H-5, one duplicate
    // (H-2, line 34); no headings column for document runs.
    let lists = tables(by_id(&doc, "pa-lists"))[0];
    assert_eq!(
        headers(lists),
        [
            "run",
            "left out",
            "missing",
            "unknown",
            "duplicates",
            "diagnostics"
        ]
    );
    assert_eq!(rows(lists)[0], ["hand-doc", "1", "1", "1", "1", "0"]);
    let details = text(by_id(&doc, "pa-lists"));
    for line in ["Left out: H-3", "Missing: H-4", "Unknown: H-5"] {
        assert!(details.contains(line), "{line}");
    }
    // Passage runs: the removed headings counted (lines 1 and 6).
    let psg = html::page(&hand_passage());
    let psg_doc = parse(&psg);
    let lists = tables(by_id(&psg_doc, "psg-lists"))[0];
    assert_eq!(headers(lists)[5], "headings removed");
    assert_eq!(
        rows(lists)[0],
        ["hand-passage", "0", "0", "0", "0", "2", "0"]
    );
    // With every run scored there is no rejected section.
    assert!(!psg.contains("psg-rejected"));
}

#[test]
fn runs_of_equal_map_are_ranked_by_name_as_in_the_table() {
    let tmp = scratch("ties");
    let dir = tmp.path();
    // One run under three names, given in reverse name order, and a run
    // with every topic missing (mean MAP 0), given first.
    let none = dir.join("aaa-nothing");
    std::fs::write(&none, "H-9 Q0 EP-1 1 1.0 t\n").unwrap();
    let mut runs = vec![none];
    for name in ["zeta", "mid", "alpha"] {
        let path = dir.join(name);
        std::fs::copy(golden("hand/hand-doc"), &path).unwrap();
        runs.push(path);
    }
    let evaluation = evaluate(
        &Settings::new(Task::PriorArt),
        &golden("hand/qrels.txt"),
        None,
        &Run::each(&runs),
    )
    .unwrap();
    let page = html::page(&evaluation);
    let doc = parse(&page);
    let ranking: Vec<String> = rows(tables(by_id(&doc, "pa-ranking"))[0])
        .into_iter()
        .map(|r| r[1].clone())
        .collect();
    assert_eq!(ranking, ["alpha", "mid", "zeta", "aaa-nothing"]);
    let table: Vec<&str> = (evaluation.ranked().iter())
        .map(|(r, _)| r.run.as_str())
        .collect();
    assert_eq!(table, ranking);
}

#[test]
fn page_is_deterministic_self_contained_and_its_ids_unique() {
    let tmp = scratch("determinism");
    let dir = tmp.path();
    for evaluation in [demo(true, &[7]), hand_prior_art(dir), hand_passage()] {
        let page = html::page(&evaluation);
        assert_eq!(html::page(&evaluation), page, "deterministic");
        let doc = parse(&page);
        assert_self_contained(&doc, 1);
        unique_ids(&doc);
        // Each chart holds one drawing and its data.
        for figure in doc.descendants().filter(|n| n.has_tag_name("figure")) {
            assert_eq!(
                figure.children().filter(|n| n.has_tag_name("svg")).count(),
                1
            );
        }
    }
}

#[test]
fn comparisons_section_prints_every_pair_of_the_comparison() {
    use clefeval::retrieval::significance::compare_runs;
    let evaluation = demo(true, &[]);
    assert!(html::comparisons_section(&evaluation, &[]).is_none());
    assert_eq!(html::page_with(&evaluation, &[]), html::page(&evaluation));
    let mut map = compare_runs(&evaluation, "MAP@100", 1000, 3).unwrap();
    let mapd = compare_runs(&evaluation, "MAP(D)", 1000, 3).unwrap();
    // Marks for each combination of tests below the level (the demo's
    // own pairs are all above it).
    map.pairs[1].randomization_p_holm = 0.01;
    map.pairs[1].t_p_holm = Some(0.04);
    map.pairs[2].t_p_holm = Some(0.049);
    let page = html::page_with(&evaluation, &[map.clone(), mapd.clone()]);
    let doc = parse(&page);
    unique_ids(&doc);
    let section = by_id(&doc, "psg-comparisons");
    let text_of = text(section);
    assert!(text_of.contains("3 runs over 4 topics (missing ones at 0); randomization test with 1000 permutations, seed 3."));
    let found = tables(section);
    assert_eq!(found.len(), 2);
    assert_eq!(
        headers(found[0]),
        [
            "run A",
            "run B",
            "mean A",
            "mean B",
            "A − B",
            "rand. p",
            "rand. p (Holm)",
            "t-test p",
            "t-test p (Holm)",
            "significant"
        ]
    );
    for (table, c) in found.iter().zip([&map, &mapd]) {
        let texts = rows(*table);
        let sorts = sort_values(*table);
        assert_eq!(texts.len(), 3);
        for ((row, sort), p) in texts.iter().zip(&sorts).zip(&c.pairs) {
            assert_eq!(
                (row[0].as_str(), row[1].as_str()),
                (p.a.as_str(), p.b.as_str())
            );
            let values = [
                Some(p.mean_a),
                Some(p.mean_b),
                Some(p.mean_difference),
                Some(p.randomization_p),
                Some(p.randomization_p_holm),
                p.t_p,
                p.t_p_holm,
            ];
            for (k, v) in values.into_iter().enumerate() {
                let v = v.unwrap();
                let printed = if k == 2 {
                    format!("{v:+.4}")
                } else {
                    format!("{v:.4}")
                };
                assert_eq!(row[k + 2], printed, "{} {} column {}", p.a, p.b, k + 2);
                assert_eq!(sort[k + 2], Some(v));
            }
        }
        let marks: Vec<String> = texts.iter().map(|r| r[9].clone()).collect();
        if std::ptr::eq(c, &map) {
            assert_eq!(marks, ["no", "* randomization and t-test", "* t-test"]);
        } else {
            assert_eq!(marks, ["no", "no", "no"]);
        }
    }
    // Sub-headings name the measures, in the order given.
    let h3: Vec<String> = section
        .descendants()
        .filter(|n| n.has_tag_name("h3"))
        .map(text)
        .collect();
    assert_eq!(h3, ["MAP@100", "MAP(D)"]);
}

#[test]
fn comparisons_leave_out_rejected_runs_and_come_before_them() {
    use clefeval::retrieval::significance::compare_runs;
    let tmp = scratch("comparisons");
    let dir = tmp.path();
    let evaluation = hand_prior_art(dir);
    let c = compare_runs(&evaluation, "P@5", 100, 0).unwrap();
    assert_eq!(c.skipped, ["bad-PAC"]);
    let page = html::page_with(&evaluation, &[c]);
    let doc = parse(&page);
    assert_self_contained(&doc, 1);
    let section = by_id(&doc, "pa-comparisons");
    assert!(text(section).contains("Rejected runs left out: bad-PAC."));
    let texts = rows(tables(section)[0]);
    assert_eq!(texts.len(), 1);
    assert_eq!(
        (texts[0][0].as_str(), texts[0][1].as_str()),
        ("hand-doc", "a<b>&\"c\"")
    );
    let at = |id: &str| page.find(&format!("id=\"{id}\"")).unwrap();
    assert!(at("pa-lists") < at("pa-comparisons") && at("pa-comparisons") < at("pa-rejected"));
}
