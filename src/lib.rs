//! clefeval: scores image-recognition results from patent documents
//! (CLEF-IP 2012 onwards).
//!
//! One module per task plus shared layers:
//! - [`flowchart`]: flowchart files, graphs and the maximum-common-subgraph distance;
//! - [`segmentation`]: chemical-diagram bounding boxes, tolerance sweeps;
//! - [`recognition`]: MOL files scored through Standard InChI;
//! - [`retrieval`]: prior-art and passage runs scored with P@k, MAP, PRES, nDCG, MAP(D);
//! - [`diagnostics`], [`inputs`], [`report`]: shared by the tasks;
//! - [`cli`]: the `clefeval` command line (the binary is a thin wrapper).
//!
//! `../shared/SPEC.md` defines every number printed; `docs/metrics.md` restates them.

// Input must never make the library panic (issue 7): no unwrap/expect/panic
// and no unchecked indexing or slicing outside tests.
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
pub mod diagnostics;
pub mod flowchart;
pub mod inputs;
pub mod recognition;
pub mod report;
pub mod retrieval;
pub mod segmentation;
