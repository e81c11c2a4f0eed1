//! COCO average precision against pycocotools: the cases of
//! goldens/detection (made by make_coco.py, which records pycocotools'
//! numbers) give the twelve numbers of `summarize()`, the AP per category
//! and the per-image counts at IoU .50 that pycocotools gives, to 1e-12.

use clefeval::coco::{self, ImageId};
use clefeval::detection::params::Params;
use clefeval::detection::score;
use serde_json::Value;
use std::path::Path;

fn case(name: &str) -> (coco::Gold, Vec<coco::Detection>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("goldens/detection")
        .join(name);
    let gold = coco::read_gold(&std::fs::read(dir.join("gold.json")).unwrap()).unwrap();
    let run = coco::read_detections(&std::fs::read(dir.join("run.json")).unwrap()).unwrap();
    (gold, run)
}

fn expected(name: &str, file: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("goldens/detection")
        .join(name)
        .join(file);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn params_of(want: &Value) -> Params {
    let p = &want["params"];
    let thresholds: Vec<f64> = (p["iou_thresholds"].as_array().unwrap().iter())
        .map(|x| x.as_f64().unwrap())
        .collect();
    let m: Vec<usize> = (p["max_dets"].as_array().unwrap().iter())
        .map(|x| x.as_u64().unwrap() as usize)
        .collect();
    Params {
        iou_thresholds: thresholds,
        max_dets: [m[0], m[1], m[2]],
        use_cats: p["use_cats"] == 1,
        ..Params::default()
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12
}

fn agrees(name: &str, file: &str) -> usize {
    let (gold, run) = case(name);
    let want = expected(name, file);
    let params = params_of(&want);
    if file == "expected.json" {
        assert_eq!(params, Params::default());
    }
    let prepared = score::Prepared::new(&gold, &run, &params).unwrap();
    let evaluated = score::evaluate(&prepared, &params);
    let acc = score::accumulate(&evaluated, &params);
    let stats = score::summarize(&acc, &params);
    let mut exact = 0;
    for (k, (got, w)) in stats
        .iter()
        .zip(want["stats"].as_array().unwrap())
        .enumerate()
    {
        let w = w.as_f64().unwrap();
        assert!(close(*got, w), "{name} {file} stat {k}: {got} against {w}");
        exact += usize::from(*got == w);
    }
    let categories: Vec<i64> = (want["categories"].as_array().unwrap().iter())
        .map(|c| c.as_i64().unwrap())
        .collect();
    assert_eq!(evaluated.categories, categories);
    for (k, (got, w)) in score::per_category(&acc)
        .iter()
        .zip(want["per_category"].as_array().unwrap())
        .enumerate()
    {
        let w = w.as_f64().unwrap();
        assert!(
            close(*got, w),
            "{name} {file} category {k}: {got} against {w}"
        );
    }
    let t50 = params
        .iou_thresholds
        .iter()
        .position(|&t| t == 0.5)
        .unwrap();
    let per_image = score::per_image(&evaluated, t50, params.iou_thresholds.len());
    let want_images = want["per_image"].as_object().unwrap();
    assert_eq!(per_image.len(), want_images.len(), "{name} {file}");
    for (image, counts) in per_image {
        let key = match image {
            ImageId::Number(n) => n.to_string(),
            ImageId::Text(t) => t,
        };
        let w: Vec<usize> = (want_images[&key].as_array().unwrap().iter())
            .map(|x| x.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(counts.to_vec(), w, "{name} {file} image {key}");
    }
    exact
}

#[test]
fn the_odd_cases_give_pycocotools_numbers() {
    // Every one of the twelve equal to the last bit, as the arithmetic is
    // pycocotools' own.
    assert_eq!(agrees("odd", "expected.json"), 12);
}

#[test]
fn a_random_set_gives_pycocotools_numbers_with_each_parameter_set() {
    for file in [
        "expected.json",
        "expected_pooled.json",
        "expected_params.json",
    ] {
        assert_eq!(agrees("random", file), 12, "{file}");
    }
}
