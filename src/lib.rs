//! clefeval: scores the evaluation tasks of CLEF-IP, the patent-retrieval
//! lab: image recognition (2012 onwards) and text retrieval (2009–2013).
//!
//! One module per task plus shared layers:
//! - [`flowchart`]: flowchart files, graphs and the maximum-common-subgraph distance;
//! - [`segmentation`]: chemical-diagram bounding boxes, tolerance sweeps;
//! - [`recognition`]: MOL files scored through Standard InChI;
//! - [`retrieval`]: prior-art and passage runs scored with P@k, MAP, PRES, nDCG, MAP(D);
//! - [`detection`]: boxes with scores by COCO average precision, as pycocotools;
//! - [`coco`]: the COCO ground-truth and detections files (detection and
//!   segmentation read them);
//! - [`diagnostics`], [`inputs`], [`outputs`], [`report`], [`rng`], [`task`]: shared by the tasks;
//! - [`tasks`]: the one table of the tasks (name and `compare` rule);
//! - [`cli`]: the `clefeval` command line (the binary is a thin wrapper).
//!
//! `docs/metrics.md` defines every number printed, `docs/formats.md` every
//! file read; `ARCHITECTURE.md` maps the code.

// Input must never make the library panic, whatever a participant submits:
// no unwrap/expect/panic and no unchecked indexing or slicing outside tests.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

pub mod cli;
pub mod coco;
pub mod detection;
pub mod diagnostics;
pub mod flowchart;
pub mod inputs;
pub mod outputs;
pub mod recognition;
pub mod report;
pub mod retrieval;
pub mod rng;
pub mod segmentation;
pub mod task;
pub mod tasks;
