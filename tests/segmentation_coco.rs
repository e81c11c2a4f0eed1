//! Segmentation and COCO files: the bundled gold boxes written as COCO by
//! `clefeval convert` equal the ground truth an independent script wrote
//! (goldens/detection/demo/make_demo.py, page sizes from tiffinfo); the
//! sweep over COCO files equals the sweep over the box CSV and OSRA's SDF
//! they hold; `--min-score` leaves out what it says; a COCO detections
//! list converts back to the CSV of the same boxes; mistakes are named.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn clefeval(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .current_dir(root())
        .args(args)
        .output()
        .unwrap()
}

fn ok(args: &[&str]) -> String {
    let out = clefeval(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn temp(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("segmentation-coco");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

const GOLD_CSV: &str = "goldens/segmentation/gold/gold.csv";
const PAGES: &str = "goldens/segmentation/pages";
const OSRA_SDF: &str = "goldens/segmentation/run-osra";
const GOLD_COCO: &str = "goldens/detection/demo/gold.json";
const OSRA_COCO: &str = "goldens/detection/demo/osra.json";

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn the_gold_written_as_coco_is_the_independent_scripts() {
    let written = ok(&[
        "convert", GOLD_CSV, "--to", "coco", "--pages", PAGES, "-o", "-",
    ]);
    let script = std::fs::read_to_string(root().join(GOLD_COCO)).unwrap();
    assert_eq!(json(&written), json(&script));
}

fn tolerances(args: &[&str]) -> Value {
    let mut all = vec!["segmentation", "--format", "json", "-q"];
    all.extend(args);
    let doc = json(&ok(&all));
    doc["runs"][0]["tolerances"].clone()
}

#[test]
fn the_sweep_over_coco_files_is_the_sweep_over_csv_and_sdf() {
    let from_csv = tolerances(&["--gold", GOLD_CSV, "--run", OSRA_SDF]);
    let from_coco = tolerances(&["--gold", GOLD_COCO, "--run", OSRA_COCO]);
    assert_eq!(from_coco, from_csv);
    // The mixed pairs too.
    assert_eq!(
        tolerances(&["--gold", GOLD_COCO, "--run", OSRA_SDF]),
        from_csv
    );
    // At t = 55, OSRA's 9 boxes (the gold has 9 too).
    let last = &from_csv.as_array().unwrap()[55];
    assert_eq!(
        last["tp"].as_u64().unwrap() + last["fp"].as_u64().unwrap(),
        9
    );
}

#[test]
fn min_score_leaves_out_the_boxes_scored_below_it() {
    let run: Value = json(&std::fs::read_to_string(root().join(OSRA_COCO)).unwrap());
    let kept = (run.as_array().unwrap().iter())
        .filter(|d| d["score"].as_f64().unwrap() >= 2.0)
        .count();
    assert!(kept > 0 && kept < 9, "{kept}");
    let swept = tolerances(&["--gold", GOLD_COCO, "--run", OSRA_COCO, "--min-score", "2"]);
    for row in swept.as_array().unwrap() {
        let submitted = row["tp"].as_u64().unwrap() + row["fp"].as_u64().unwrap();
        assert_eq!(submitted as usize, kept);
    }
}

#[test]
fn a_detections_list_converts_back_to_the_csv_of_its_boxes() {
    let from_sdf = ok(&["convert", OSRA_SDF, "--to", "csv", "-o", "-"]);
    let from_coco = ok(&[
        "convert", OSRA_COCO, "--to", "csv", "--gold", GOLD_COCO, "-o", "-",
    ]);
    assert_eq!(from_coco, from_sdf);
    assert!(from_sdf.starts_with("doc,page,x,y,width,height\nEP-1000001-A1,1,331,534,439,232\n"));
    // CSV to COCO on the gold's images and back again.
    let run = temp("osra-run.json");
    ok(&[
        "convert",
        OSRA_SDF,
        "--to",
        "coco",
        "--gold",
        GOLD_COCO,
        "-o",
        run.to_str().unwrap(),
        "-q",
    ]);
    let back = ok(&[
        "convert",
        run.to_str().unwrap(),
        "--to",
        "csv",
        "--gold",
        GOLD_COCO,
        "-o",
        "-",
    ]);
    assert_eq!(back, from_sdf);
    let written: Value = json(&std::fs::read_to_string(&run).unwrap());
    assert_eq!(written[0]["score"], 1.0);
    assert_eq!(written[0]["image_id"], 1);
}

#[test]
fn mistakes_are_named() {
    let fails = |args: &[&str]| {
        let out = clefeval(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    // A detections list with numeric ids and no COCO gold: its pages are unknown.
    let err = fails(&["segmentation", "--gold", GOLD_CSV, "--run", OSRA_COCO]);
    assert!(err.contains("no run can be scored"), "{err}");
    let doc = json(&ok(&[
        "segmentation",
        "--gold",
        GOLD_CSV,
        "--run",
        OSRA_COCO,
        "--run",
        OSRA_SDF,
        "-f",
        "json",
        "-q",
    ]));
    let reason = doc["rejected_runs"][0]["diagnostic_list"][1]["message"]
        .as_str()
        .unwrap();
    assert!(
        reason.starts_with("$[0].image_id: image 1 is in no COCO ground truth given as gold"),
        "{reason}"
    );
    let err = fails(&["convert", GOLD_CSV, "--to", "coco", "-o", "-"]);
    assert!(err.contains("--to coco needs --pages DIR"), "{err}");
    let err = fails(&["convert", OSRA_COCO, "--to", "csv", "-o", "-"]);
    assert!(
        err.contains("nothing converted:\ngoldens/detection/demo/osra.json: error: $[0].image_id"),
        "{err}"
    );
    // Page images of one document only: the other's boxes are on no image.
    let one = temp("one-document");
    std::fs::create_dir_all(&one).unwrap();
    std::fs::copy(
        root().join(PAGES).join("EP-1000001-A1.tif"),
        one.join("EP-1000001-A1.tif"),
    )
    .unwrap();
    let err = fails(&[
        "convert",
        GOLD_CSV,
        "--to",
        "coco",
        "--pages",
        one.to_str().unwrap(),
        "-o",
        "-",
    ]);
    assert!(
        err.contains("gold.csv:5: error: box on page 1 of EP-1000002-A1, which is no image of the page images in"),
        "{err}"
    );
}
