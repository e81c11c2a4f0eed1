//! Detection (docs/detection.md): boxes with confidence scores against
//! gold boxes, scored by COCO average precision as pycocotools computes it.
//!
//! - [`coco`]: the ground-truth and detections files, read exactly;
//! - [`params`]: the evaluation's parameters (thresholds, ranges, `maxDets`);
//! - [`score`]: per-image matching, accumulation, the twelve numbers.

pub mod coco;
pub mod params;
pub mod score;
