//! The COCO readers (`coco`) and the evaluation behind them on
//! arbitrary bytes: the input split at its first NUL-free `|||` (or in
//! half) into a ground truth and a detections file; no panic, a refusal
//! says why, and where both read, every one of the twelve numbers, every
//! category's AP and every per-image count is defined: −1 or within
//! [0, 1]. The same two parts are read as segmentation's box files too
//! (the ground truth first, telling the pages of its images): no panic,
//! every box at least a pixel wide and high.
#![no_main]

use clefeval::coco::{read_detections, read_gold};
use clefeval::detection::params::Params;
use clefeval::detection::score;
use clefeval::segmentation;
use clefeval::segmentation::boxes::BoxSet;
use clefeval::segmentation::formats::Context;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let cut = data
        .windows(3)
        .position(|w| w == b"|||")
        .unwrap_or(data.len() / 2);
    let (gold, run) = data.split_at(cut);
    let run = run.strip_prefix(b"|||").unwrap_or(run);
    let mut context = Context {
        min_score: Some(0.5),
        ..Context::default()
    };
    let mut boxes = BoxSet::default();
    segmentation::coco::read_bytes("gold", gold, &mut boxes, &mut context);
    segmentation::coco::read_bytes("run", run, &mut boxes, &mut context);
    for document in boxes.documents.values() {
        for entry in document.pages.values().flatten() {
            assert!(entry.bbox.width >= 1 && entry.bbox.height >= 1);
        }
    }
    let gold = read_gold(gold);
    let run = read_detections(run);
    for refusal in [gold.as_ref().err(), run.as_ref().err()].into_iter().flatten() {
        assert!(!refusal.is_empty());
    }
    let (Ok(gold), Ok(run)) = (gold, run) else {
        return;
    };
    let params = Params::default();
    let Ok(prepared) = score::Prepared::new(&gold, &run, &params) else {
        return;
    };
    let evaluated = score::evaluate(&prepared, &params);
    let acc = score::accumulate(&evaluated, &params);
    let defined = |x: f64| x == -1.0 || (0.0..=1.0).contains(&x);
    for x in score::summarize(&acc, &params) {
        assert!(defined(x), "{x}");
    }
    for x in score::per_category(&acc) {
        assert!(defined(x), "{x}");
    }
    for (_, [tp, _, missed]) in score::per_image(&evaluated, 0, params.iou_thresholds.len()) {
        assert!(tp + missed <= gold.annotations.len());
    }
});
