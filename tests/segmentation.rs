//! Segmentation scoring: hand-computed cases (`docs/metrics.md`) and a brute-force
//! matching reference on random small pages.

use clefeval::segmentation::boxes::{BBox, BoxSet, Entry, Origin};
use clefeval::segmentation::csv::read_bytes;
use clefeval::segmentation::evaluate::{Options, evaluate};
use clefeval::segmentation::report::Report;
use clefeval::segmentation::report::RunReport;
use clefeval::segmentation::score::{Figures, score};
use clefeval::segmentation::score::{candidate_pairs, max_pairs};
use clefeval::segmentation::tolerances::{Tolerance, Tolerances};
use proptest::prelude::*;
use std::path::PathBuf;

fn set(csv: &str) -> BoxSet {
    let mut s = BoxSet::default();
    let d = read_bytes("t.csv", csv.as_bytes(), &mut s);
    assert!(d.is_empty(), "{d:?}");
    s
}

fn px(spec: &str) -> Tolerances {
    Tolerances::parse_pixels(spec).unwrap()
}

fn no_dpi(_: &str, _: u32) -> Option<(f64, f64)> {
    None
}

/// Micro TP at each tolerance.
fn tps(gold: &str, run: &str, tolerances: &str) -> Vec<u64> {
    let s = score(&set(gold), &set(run), &px(tolerances), &no_dpi);
    s.total.counts.iter().map(|c| c.tp).collect()
}

fn report(gold: &str, run: &str, tolerances: &str) -> RunReport {
    let t = px(tolerances);
    let s = score(&set(gold), &set(run), &t, &no_dpi);
    RunReport::new("r".into(), &s, &t, Vec::new())
}

#[test]
fn boxes_exactly_at_t_and_t_plus_one() {
    // Page 1: left side 5 px off (right side equal): matches from t = 5.
    // Page 2: bottom 6 px off: matches from t = 6.
    let gold = "D,1,100,100,50,50\nD,2,100,100,50,50\n";
    let run = "D,1,105,100,45,50\nD,2,100,100,50,56\n";
    assert_eq!(tps(gold, run, "4,5,6,7"), vec![0, 1, 2, 2]);
}

#[test]
fn one_submitted_box_near_two_gold_boxes_takes_the_assignment_that_maximizes_tp() {
    // G1 = (0,0,100,100), G2 = (10,0,100,100); S1 = (5,0,100,100) is 5 px
    // from both; S2 = (0,0,100,100) is 0 px from G1 and 10 px from G2.
    // At t = 5: S1–G2 and S2–G1 give TP 2 (S1–G1 would leave S2 alone).
    let gold = "D,1,0,0,100,100\nD,1,10,0,100,100\n";
    let run = "D,1,5,0,100,100\nD,1,0,0,100,100\n";
    assert_eq!(
        tps(gold, run, "0..=10"),
        vec![1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2]
    );
    // S1 has two gold boxes within 5 px: ambiguous from 5 on.
    let r = report(gold, run, "0..=10");
    assert_eq!(r.max_unambiguous_tolerance, Some(Tolerance::Pixels(4)));
    let r = report(gold, run, "0,10,20");
    assert_eq!(r.max_unambiguous_tolerance, Some(Tolerance::Pixels(0)));
    let r = report(gold, run, "5,10");
    assert_eq!(r.max_unambiguous_tolerance, None);
}

#[test]
fn two_submitted_boxes_on_one_gold_box() {
    let r = report("D,1,0,0,10,10\n", "D,1,0,0,10,10\nD,1,1,1,9,9\n", "0,1");
    let f: Vec<(u64, u64, u64)> = r.tolerances.iter().map(|f| (f.tp, f.fp, f.fn_)).collect();
    assert_eq!(f, vec![(1, 1, 0), (1, 1, 0)]);
    assert_eq!(r.tolerances[0].precision, 0.5);
    assert_eq!(r.tolerances[0].recall, 1.0);
    assert!((r.tolerances[0].f1 - 2.0 / 3.0).abs() < 1e-15);
    // One submitted box with one gold box each: no ambiguity.
    assert_eq!(r.max_unambiguous_tolerance, Some(Tolerance::Pixels(1)));
}

#[test]
fn boxes_on_the_wrong_page_or_document_do_not_match() {
    let gold = "D,1,0,0,10,10\nE,1,0,0,10,10\n";
    let run = "D,2,0,0,10,10\nF,1,0,0,10,10\n";
    let r = report(gold, run, "55");
    let f = &r.tolerances[0];
    assert_eq!((f.tp, f.fp, f.fn_), (0, 2, 2));
    // Documents D, E, F each get their own figures.
    let docs: Vec<(&str, u64, u64, u64)> = r
        .documents
        .iter()
        .map(|d| {
            (
                d.doc.as_str(),
                d.tolerances[0].tp,
                d.tolerances[0].fp,
                d.tolerances[0].fn_,
            )
        })
        .collect();
    assert_eq!(docs, vec![("D", 0, 1, 1), ("E", 0, 0, 1), ("F", 0, 1, 0)]);
}

#[test]
fn zero_denominators_give_zero_and_are_flagged() {
    // Empty gold: recall has no denominator; precision is 0/1; F1 0/0.
    let r = report("", "D,1,0,0,10,10\n", "0");
    let f = &r.tolerances[0];
    assert_eq!((f.precision, f.recall, f.f1), (0.0, 0.0, 0.0));
    assert_eq!(f.zero_denominator, vec!["recall", "f1"]);
    // Empty submission.
    let r = report("D,1,0,0,10,10\n", "", "0");
    let f = &r.tolerances[0];
    assert_eq!((f.precision, f.recall, f.f1), (0.0, 0.0, 0.0));
    assert_eq!(f.zero_denominator, vec!["precision", "f1"]);
    // Both empty: everything flagged, nothing NaN.
    let f = Figures::new(Tolerance::Pixels(0), &Default::default());
    assert_eq!(f.zero_denominator, vec!["precision", "recall", "f1"]);
    assert!(!f.precision.is_nan() && !f.recall.is_nan() && !f.f1.is_nan());
    let json = serde_json::to_string(&f).unwrap();
    assert_eq!(
        json,
        r#"{"t":0,"tp":0,"fp":0,"fn":0,"precision":0.0,"recall":0.0,"f1":0.0,"zero_denominator":["precision","recall","f1"]}"#
    );
}

#[test]
fn micro_average_sums_counts_before_the_ratios() {
    // D: 1 of 1 gold found with 1 submitted; E: 0 of 3 gold, 1 submitted.
    // Micro precision 1/2, recall 1/4 (the macro mean of recalls would be 1/2).
    let gold = "D,1,0,0,10,10\nE,1,0,0,10,10\nE,1,50,0,10,10\nE,2,0,0,10,10\n";
    let run = "D,1,0,0,10,10\nE,1,200,200,10,10\n";
    let r = report(gold, run, "0");
    let f = &r.tolerances[0];
    assert_eq!((f.tp, f.fp, f.fn_), (1, 1, 3));
    assert_eq!((f.precision, f.recall), (0.5, 0.25));
    assert!((f.f1 - 2.0 * 0.5 * 0.25 / 0.75).abs() < 1e-15);
}

// ---- brute-force reference ------------------------------------------------

/// Largest matching by trying every assignment: submitted box `i` takes any
/// free gold box it is `near`, or none.
fn brute_tp(
    subs: &[BBox],
    golds: &[BBox],
    near: &dyn Fn(&BBox, &BBox) -> bool,
    i: usize,
    used: &mut Vec<bool>,
) -> u64 {
    if i == subs.len() {
        return 0;
    }
    let mut best = brute_tp(subs, golds, near, i + 1, used);
    for (j, g) in golds.iter().enumerate() {
        if !used[j] && near(&subs[i], g) {
            used[j] = true;
            best = best.max(1 + brute_tp(subs, golds, near, i + 1, used));
            used[j] = false;
        }
    }
    best
}

fn bbox() -> impl Strategy<Value = (u32, BBox)> {
    (1u32..=2, 0u32..30, 0u32..30, 1u32..20, 1u32..20).prop_map(|(page, x, y, width, height)| {
        (
            page,
            BBox {
                x,
                y,
                width,
                height,
            },
        )
    })
}

fn to_set(boxes: &[(u32, BBox)]) -> BoxSet {
    let mut s = BoxSet::default();
    for (i, &(page, bbox)) in boxes.iter().enumerate() {
        s.push("D", page, bbox, Origin::at(0, i + 1));
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn matching_equals_brute_force_at_every_tolerance(
        gold in prop::collection::vec(bbox(), 0..7),
        run in prop::collection::vec(bbox(), 0..7),
    ) {
        let tolerances = px("0..=12");
        let sweep = score(&to_set(&gold), &to_set(&run), &tolerances, &no_dpi);
        for (level, counts) in sweep.total.counts.iter().enumerate() {
            let t = level as u64;
            let mut expected = 0;
            let mut ambiguous = false;
            for page in 1..=2 {
                let g: Vec<BBox> = gold.iter().filter(|b| b.0 == page).map(|b| b.1).collect();
                let s: Vec<BBox> = run.iter().filter(|b| b.0 == page).map(|b| b.1).collect();
                let near = |a: &BBox, b: &BBox| a.tolerance_to(b) <= t;
                expected += brute_tp(&s, &g, &near, 0, &mut vec![false; g.len()]);
                ambiguous |= s.iter().any(|s| g.iter().filter(|g| s.tolerance_to(g) <= t).count() >= 2);
            }
            prop_assert_eq!(counts.tp, expected, "t = {}", t);
            prop_assert_eq!(counts.submitted, run.len() as u64);
            prop_assert_eq!(counts.gold, gold.len() as u64);
            prop_assert_eq!(sweep.total.first_ambiguous.is_some_and(|f| f <= level), ambiguous, "t = {}", t);
        }
    }

    #[test]
    fn millimetre_sweeps_equal_brute_force_on_each_axis(
        gold in prop::collection::vec(bbox(), 0..6),
        run in prop::collection::vec(bbox(), 0..6),
        dpi in (50u32..=400, 50u32..=400),
    ) {
        // A pair matches at τ mm when its horizontal sides differ by at most
        // floor(τ·rx/25.4) px and its vertical sides by floor(τ·ry/25.4).
        let mm = [0.0, 0.3, 0.5, 1.0, 2.5];
        let tolerances = Tolerances::Millimetres(mm.to_vec());
        let (rx, ry) = (f64::from(dpi.0), f64::from(dpi.1));
        let sweep = score(&to_set(&gold), &to_set(&run), &tolerances, &|_, _| Some((rx, ry)));
        for (counts, &tau) in sweep.total.counts.iter().zip(&mm) {
            let (limit_x, limit_y) = ((tau * rx / 25.4 + 1e-6).floor() as u64, (tau * ry / 25.4 + 1e-6).floor() as u64);
            let mut expected = 0;
            for page in 1..=2 {
                let g: Vec<BBox> = gold.iter().filter(|b| b.0 == page).map(|b| b.1).collect();
                let s: Vec<BBox> = run.iter().filter(|b| b.0 == page).map(|b| b.1).collect();
                let near = |a: &BBox, b: &BBox| a.dx(b) <= limit_x && a.dy(b) <= limit_y;
                expected += brute_tp(&s, &g, &near, 0, &mut vec![false; g.len()]);
            }
            prop_assert_eq!(counts.tp, expected, "tau = {}", tau);
        }
    }

    #[test]
    fn any_csv_bytes_are_read_without_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let mut s = BoxSet::default();
        let diagnostics = read_bytes("fuzz.csv", &bytes, &mut s);
        for d in &diagnostics {
            prop_assert!(d.line.is_some_and(|l| l >= 1));
        }
    }

    #[test]
    fn csv_like_text_is_read_without_panic(text in "([A-C,0-9.\\- \r\n]|\u{feff}){0,200}") {
        let mut s = BoxSet::default();
        let _ = read_bytes("fuzz.csv", text.as_bytes(), &mut s);
    }
}

proptest! {
    #[test]
    fn any_sdf_text_is_read_without_panic(text in "([<>$ \n0-9x\\-]|Page|Surrounding_box|\u{e9}){0,300}") {
        let mut s = BoxSet::default();
        let _ = clefeval::segmentation::sdf::read_text("fuzz.sdf", "D", &text, &mut s);
    }
}

/// Scores `gold` and `run` CSV text through the whole evaluation (files in
/// a fresh folder named after `tag`) at `tolerances`.
fn evaluate_csv(tag: &str, gold: &str, run: &str, tolerances: &str) -> (Report, PathBuf) {
    let tmp = tempfile::Builder::new()
        .prefix(&format!("clefeval-{tag}-"))
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("gold.csv"), gold).unwrap();
    std::fs::write(dir.join("run.csv"), run).unwrap();
    let report = evaluate(&Options {
        gold: vec![dir.join("gold.csv")],
        runs: clefeval::inputs::Run::each(&[dir.join("run.csv")]),
        tolerances: px(tolerances),
        pages: None,
        overlays: None,
        progress: false,
        shard: None,
        min_score: None,
    })
    .unwrap();
    (report, dir.join("run.csv"))
}

#[test]
fn a_page_of_thousands_of_piled_boxes_is_still_matched_within_the_pair_limit() {
    // 2 001 identical submitted boxes on one gold box: 2 001 candidate pairs,
    // far below the limit; one of them matches.
    let piled = "D,1,0,0,10,10\n".repeat(2001);
    let (report, _) = evaluate_csv("piled", "D,1,0,0,10,10\n", &piled, "0");
    let f = &report.runs[0].tolerances[0];
    assert_eq!((f.tp, f.fp, f.fn_), (1, 2000, 0));
    assert!(report.runs[0].diagnostics.is_empty());
}

#[test]
fn a_page_with_too_many_candidate_pairs_is_reported_and_matches_nothing() {
    // 1 200 identical boxes a side: 1 440 000 pairs > 1 000 000 + 100 × 2 400.
    let n = 1200;
    assert!(n * n > max_pairs(n, n));
    let page = "D,1,0,0,10,10\n".repeat(n);
    let (report, run) = evaluate_csv(
        "crowded",
        &format!("{page}D,2,0,0,10,10\n"),
        &format!("D,2,0,0,10,10\n{page}"),
        "0",
    );
    let f = &report.runs[0].tolerances[0];
    assert_eq!((f.tp, f.fp, f.fn_), (1, n as u64, n as u64));
    let lines: Vec<String> = report.runs[0]
        .diagnostics
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        lines,
        vec![format!(
            "{}:2: error: page 1 of D: 1200 submitted and 1200 gold boxes give more than 1240000 candidate pairs (boxes piled within tolerance of each other): nothing on it is matched",
            run.display()
        )]
    );
}

/// Every pair of `subs` and `golds` with its level, straight from the
/// definition (all pairs tried), sorted.
fn all_pairs(subs: &[Entry], golds: &[Entry], thresholds: &[u64]) -> Vec<(u32, u32, u32)> {
    let mut out = Vec::new();
    for (i, s) in subs.iter().enumerate() {
        for (j, g) in golds.iter().enumerate() {
            let t = s.bbox.tolerance_to(&g.bbox);
            if let Some(level) = thresholds.iter().position(|&th| t <= th) {
                out.push((i as u32, j as u32, level as u32));
            }
        }
    }
    out.sort_unstable();
    out
}

fn entries(boxes: &[BBox]) -> Vec<Entry> {
    boxes
        .iter()
        .enumerate()
        .map(|(i, &bbox)| Entry {
            bbox,
            origin: Origin::at(0, i + 1),
        })
        .collect()
}

fn wide_bbox() -> impl Strategy<Value = BBox> {
    (0u32..600, 0u32..600, 1u32..80, 1u32..80).prop_map(|(x, y, width, height)| BBox {
        x,
        y,
        width,
        height,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The spatial index finds exactly the pairs that trying every pair
    /// finds, with the same levels, on pages of up to 80 boxes a side
    /// spread over several index columns, for any tolerance list.
    #[test]
    fn candidate_pairs_equal_all_pairs(
        golds in prop::collection::vec(wide_bbox(), 0..80),
        subs in prop::collection::vec(wide_bbox(), 0..80),
        mut thresholds in prop::collection::vec(0u64..90, 1..6),
    ) {
        thresholds.sort_unstable();
        thresholds.dedup();
        let list: Vec<String> = thresholds.iter().map(u64::to_string).collect();
        let tolerances = px(&list.join(","));
        let (subs, golds) = (entries(&subs), entries(&golds));
        let mut pairs = Vec::new();
        prop_assert!(candidate_pairs(&subs, &golds, &tolerances, (300.0, 300.0), &mut pairs));
        let mut got: Vec<(u32, u32, u32)> = pairs.iter().map(|p| (p.sub, p.gold, p.level)).collect();
        got.sort_unstable();
        prop_assert_eq!(got, all_pairs(&subs, &golds, &thresholds));
    }
}

#[test]
fn a_page_of_50_000_boxes_a_side_is_matched_exactly() {
    // Gold: a 250 × 200 grid of 100 × 100 boxes, 200 px apart. Submitted box
    // i is gold box i with its left side moved right by i mod 56 px (right
    // side kept), so it matches its own gold box from t = i mod 56 and no
    // other (the next gold box is 200 px away). The tolerance list is 0..=55:
    // TP at t is the number of i with i mod 56 <= t. A second page holds a
    // single column of 50 000 boxes 3 px apart (one x, all in one index
    // column): submitted = gold there, TP 50 000 at t = 0; at t >= 3 many
    // gold boxes are in reach, but a perfect matching stays.
    let n = 50_000u32;
    let mut gold = BoxSet::default();
    let mut run = BoxSet::default();
    for i in 0..n {
        let g = BBox {
            x: 200 * (i % 250),
            y: 200 * (i / 250),
            width: 100,
            height: 100,
        };
        let shift = i % 56;
        let s = BBox {
            x: g.x + shift,
            width: g.width - shift,
            ..g
        };
        gold.push("D", 1, g, Origin::at(0, i as usize + 1));
        run.push("D", 1, s, Origin::at(0, i as usize + 1));
        let c = BBox {
            x: 10,
            y: 3 * i,
            width: 50,
            height: 2,
        };
        gold.push("D", 2, c, Origin::at(0, i as usize + 1));
        run.push("D", 2, c, Origin::at(0, i as usize + 1));
    }
    let sweep = score(&gold, &run, &px("0..=55"), &no_dpi);
    assert!(sweep.crowded.is_empty());
    let tp: Vec<u64> = sweep.total.counts.iter().map(|c| c.tp).collect();
    let expected: Vec<u64> = (0..56u32)
        .map(|t| u64::from((0..n).filter(|i| i % 56 <= t).count() as u32) + u64::from(n))
        .collect();
    assert_eq!(tp, expected);
    assert_eq!(expected[0], 893 + 50_000); // 50 000 / 56 = 892 rest 48: 893 with i mod 56 = 0
    assert_eq!(expected[55], 100_000);
    // Column page: at t = 3 a box reaches its neighbours 3 px above and below.
    assert_eq!(sweep.total.first_ambiguous, Some(3));
}
