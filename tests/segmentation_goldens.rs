//! The bundled fixtures (goldens/segmentation): Group 4 pages with RDKit
//! drawings, their gold boxes, the real OSRA's SDF output and a hand-made
//! run, scored at every tolerance and compared with the independent
//! networkx reference (check_expected.py → expected/<run>.csv).

use clefeval::segmentation::evaluate::{Options, evaluate};
use clefeval::segmentation::tolerances::{Tolerance, Tolerances};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("goldens/segmentation")
}

/// A fresh folder for one test's files, removed when dropped.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("clefeval-{name}-"))
        .tempdir()
        .unwrap()
}

#[test]
fn fixtures_match_the_independent_reference() {
    let d = dir();
    let report = evaluate(&Options {
        gold: vec![d.join("gold")],
        runs: clefeval::inputs::Run::each(&[d.join("run-osra"), d.join("run-shifted")]),
        tolerances: Tolerances::parse_pixels("0..=55").unwrap(),
        pages: Some(d.join("pages")),
        overlays: None,
        progress: false,
        shard: None,
        min_score: None,
    })
    .unwrap();
    assert_eq!(report.runs.len(), 2);
    for run in &report.runs {
        let expected =
            std::fs::read_to_string(d.join("expected").join(format!("{}.csv", run.run))).unwrap();
        let rows: Vec<Vec<&str>> = expected
            .lines()
            .skip(1)
            .map(|l| l.split(',').collect())
            .collect();
        assert_eq!(rows.len(), 56);
        assert_eq!(run.tolerances.len(), 56);
        for (f, row) in run.tolerances.iter().zip(&rows) {
            let n = |i: usize| row[i].parse::<u64>().unwrap();
            let x = |i: usize| row[i].parse::<f64>().unwrap();
            assert_eq!(f.t, Tolerance::Pixels(n(0) as u32));
            assert_eq!(
                (f.tp, f.fp, f.fn_),
                (n(1), n(2), n(3)),
                "{} t={}",
                run.run,
                n(0)
            );
            for (got, want) in [(f.precision, x(4)), (f.recall, x(5)), (f.f1, x(6))] {
                assert!(
                    (got - want).abs() < 1e-12,
                    "{} t={}: {got} vs {want}",
                    run.run,
                    n(0)
                );
            }
            assert_eq!(
                run.max_unambiguous_tolerance,
                Some(Tolerance::Pixels(n(7) as u32))
            );
        }
    }
    // The page checks ran and found the one box that reaches past its page.
    let shifted = &report.runs[1];
    assert_eq!(shifted.diagnostics.len(), 1, "{:?}", shifted.diagnostics);
    assert!(shifted.diagnostics[0].to_string().ends_with(
        "run.csv:3: warning: box x 2400 y 3400 width 200 height 200 reaches past page 1 of EP-1000001-A1 (2480 × 3508 pixels)"
    ));
    assert!(
        report.runs[0].diagnostics.is_empty(),
        "{:?}",
        report.runs[0].diagnostics
    );
}

#[test]
fn demo_table_is_the_golden_one() {
    // Rows 0, 10, 20, 40, 55 of expected/*.csv, ranked by mean F1.
    let d = dir();
    let report = evaluate(&Options {
        gold: vec![d.join("gold")],
        runs: clefeval::inputs::Run::each(&[d.join("run-shifted"), d.join("run-osra")]),
        tolerances: Tolerances::parse_pixels("0..=55").unwrap(),
        pages: None,
        overlays: None,
        progress: false,
        shard: None,
        min_score: None,
    })
    .unwrap();
    let golden = std::fs::read_to_string(d.join("expected/ranking.txt")).unwrap();
    assert_eq!(report.table(false), golden);
}

#[test]
fn millimetre_tolerances_use_the_pages_resolution() {
    // 300 dpi pages: 1 mm = 11.8 px (11 whole pixels), 4 mm = 47.2 px.
    // run-shifted's side differences are 0, 0, 0, 3, 12, 30, 44 px: at 1 mm
    // TP = 4 (as at t = 11), at 4 mm TP = 7 (as at t = 47).
    let d = dir();
    let report = evaluate(&Options {
        gold: vec![d.join("gold")],
        runs: clefeval::inputs::Run::each(&[d.join("run-shifted")]),
        tolerances: Tolerances::parse_millimetres("1,4").unwrap(),
        pages: Some(d.join("pages")),
        overlays: None,
        progress: false,
        shard: None,
        min_score: None,
    })
    .unwrap();
    let tp: Vec<u64> = report.runs[0].tolerances.iter().map(|f| f.tp).collect();
    assert_eq!(tp, vec![4, 7]);
    assert_eq!(report.runs[0].tolerances[0].t, Tolerance::Millimetres(1.0));
}

fn args(
    gold: PathBuf,
    output: PathBuf,
    extra: &[&str],
) -> clefeval::cli::segmentation::SegmentationArgs {
    use clap::Parser;
    let d = dir();
    let mut argv: Vec<String> = vec!["clefeval".into(), "segmentation".into(), "--gold".into()];
    argv.push(gold.display().to_string());
    argv.extend(["--run".into(), d.join("run-osra").display().to_string()]);
    argv.extend([
        "--format".into(),
        "json".into(),
        "--quiet".into(),
        "--output".into(),
    ]);
    argv.push(output.display().to_string());
    argv.extend(extra.iter().map(|s| s.to_string()));
    match clefeval::cli::Cli::parse_from(argv).command {
        clefeval::cli::Command::Segmentation(a) => a,
        other => panic!("{other:?}"),
    }
}

#[test]
fn command_writes_the_json_of_spec_section_5() {
    let tmp = scratch("seg");
    let out = tmp.path().join("seg.json");
    let a = args(
        dir().join("gold/gold.csv"),
        out.clone(),
        &["--tolerances", "0,55"],
    );
    assert_eq!(clefeval::cli::segmentation::run(&a).unwrap(), 0);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(json["task"], "segmentation");
    assert_eq!(json["settings"]["tolerances"], serde_json::json!([0, 55]));
    let run = &json["runs"][0];
    assert_eq!(run["run"], "run-osra");
    assert_eq!(
        run["tolerances"][0],
        serde_json::json!({"t": 0, "tp": 4, "fp": 5, "fn": 5,
            "precision": 4.0 / 9.0, "recall": 4.0 / 9.0, "f1": 4.0 / 9.0})
    );
    assert_eq!(run["max_unambiguous_tolerance"], 55);
    assert_eq!(run["documents"][0]["doc"], "EP-1000001-A1");
    assert_eq!(run["documents"][0]["tolerances"][1]["tp"], 3);
    assert_eq!(run["documents"][1]["tolerances"][1]["tp"], 6);
    assert!(run["diagnostics"].as_array().unwrap().is_empty());
}

#[test]
fn unreadable_gold_stops_the_command() {
    let tmp = scratch("seg-none");
    let out = tmp.path().join("none.json");
    let a = args(dir().join("no-such-gold"), out, &[]);
    let e = clefeval::cli::segmentation::run(&a).unwrap_err();
    let named = format!(
        "--gold {}: no such file or folder",
        dir().join("no-such-gold").display()
    );
    assert_eq!(e.0, named);
}

#[test]
fn junk_gold_with_no_box_exits_2_naming_the_file() {
    let tmp = scratch("seg-junk-gold");
    let gold = tmp.path();
    std::fs::write(gold.join("gold.csv"), b"\x01\x02junk\nmore,junk\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .arg("segmentation")
        .arg("--gold")
        .arg(gold)
        .arg("--run")
        .arg(dir().join("run-shifted"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("no gold box could be read"), "{stderr}");
    assert!(stderr.contains("gold.csv:2: error"), "{stderr}");
}

#[test]
fn overlays_colour_boxes_by_outcome() {
    let d = dir();
    let tmp = scratch("overlays");
    let out = tmp.path().join("overlays");
    let report = evaluate(&Options {
        gold: vec![d.join("gold")],
        runs: clefeval::inputs::Run::each(&[d.join("run-shifted")]),
        tolerances: Tolerances::parse_pixels("0..=55").unwrap(),
        pages: Some(d.join("pages")),
        overlays: Some((out.clone(), 10)),
        progress: false,
        shard: None,
        min_score: None,
    })
    .unwrap();
    assert!(
        report
            .head
            .diagnostics
            .iter()
            .all(|d| !d.to_string().contains("overlay")),
        "{:?}",
        report.head.diagnostics
    );
    let mut written: Vec<String> = std::fs::read_dir(out.join("run-shifted"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    // Every page with a box; EP-1000001-A1 page 3 only has the extra box.
    assert_eq!(
        written,
        [
            "EP-1000001-A1_p0001.png",
            "EP-1000001-A1_p0002.png",
            "EP-1000001-A1_p0003.png",
            "EP-1000002-A1_p0001.png",
            "EP-1000002-A1_p0002.png"
        ]
    );
    let page = image::open(out.join("run-shifted/EP-1000002-A1_p0002.png"))
        .unwrap()
        .to_rgb8();
    // The page, and a 400-pixel margin for the legend to its right.
    assert_eq!(page.dimensions(), (2480 + 400, 3508));
    // At t = 10: gold 929,1365 is matched exactly (green inside, blue just
    // outside); gold 342,2693 is missed (red) and its submission 300,2650
    // is unmatched (orange, frame just outside its box).
    assert_eq!(page.get_pixel(929, 1365 + 50).0, [0, 160, 0]);
    assert_eq!(page.get_pixel(929 - 2, 1365 + 50).0, [0, 70, 230]);
    assert_eq!(page.get_pixel(342, 2693 + 50).0, [220, 0, 0]);
    assert_eq!(page.get_pixel(300 - 2, 2650 + 50).0, [255, 140, 0]);
}
