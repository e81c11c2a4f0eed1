//! Chemical-diagram segmentation (docs/segmentation.md): bounding boxes, matching at pixel
//! tolerances, precision/recall/F1 sweeps, TIFF page checks and overlays.
//!
//! - [`boxes`]: boxes and box sets by document and page;
//! - [`csv`], [`sdf`], [`coco`]: the readers (the box CSV, OSRA's SDF
//!   output, COCO ground truths and detections);
//! - [`formats`]: the box file formats, one table;
//! - [`tolerances`]: pixel or millimetre tolerance lists;
//! - [`settings`]: the settings as given, checked in one place;
//! - [`matching`]: exact maximum matching of one page at every tolerance;
//! - [`score`]: the sweep of a run, micro totals, per-document figures;
//! - [`pages`], [`overlay`]: TIFF page images, checks and overlay PNGs;
//! - [`report`], [`html`]: JSON/table/CSV output and the HTML report;
//! - [`compare`]: the rule of `clefeval compare` for segmentation results;
//! - [`evaluate`]: one evaluation from files to a report;
//! - [`convert`]: box files written as COCO and back.

pub mod boxes;
pub mod check;
pub mod coco;
pub mod compare;
pub mod convert;
pub mod csv;
pub mod demo;
pub mod evaluate;
pub mod formats;
pub mod html;
pub mod matching;
pub mod overlay;
pub mod pages;
pub mod report;
pub mod score;
pub mod sdf;
pub mod settings;
pub mod tolerances;
