//! Detection (docs/detection.md): boxes with confidence scores against
//! gold boxes, scored by COCO average precision as pycocotools computes it.
//!
//! - the files: [`crate::coco`], read exactly;
//! - [`params`]: the evaluation's parameters (thresholds, ranges, `maxDets`);
//! - [`score`]: per-image matching, accumulation, the twelve numbers;
//! - [`settings`]: the options as given, checked into [`params::Params`];
//! - [`evaluate`]: files to a [`report::Report`]; [`report`]: its JSON,
//!   tables and merge; [`matches`]: what a part keeps for the merge;
//! - [`html`], [`compare`], [`demo`]: the page, the rule of `compare`, the
//!   task's part of the demo.

pub mod check;
pub mod compare;
pub mod demo;
pub mod evaluate;
pub mod html;
pub mod matches;
pub mod params;
pub mod report;
pub mod score;
pub mod settings;
