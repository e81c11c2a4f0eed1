//! The segmentation part of `clefeval demo`, by the same functions as the
//! command.

use super::tolerances::{DEFAULT_PIXELS, Tolerances};
use super::{evaluate, html};
use crate::inputs::Run;
use crate::report::OutputFormat;
use crate::task::DemoPart;
use std::path::Path;

/// The gold boxes of `<data>/segmentation` against the OSRA run and a
/// hand-shifted run, with the page checks, over 0–55 px.
pub fn demo(data: &Path) -> Result<DemoPart, String> {
    let dir = data.join("segmentation");
    let options = evaluate::Options {
        gold: vec![dir.join("gold")],
        runs: Run::each(&[dir.join("run-osra"), dir.join("run-shifted")]),
        tolerances: Tolerances::parse_pixels(DEFAULT_PIXELS)?,
        pages: Some(dir.join("pages")),
        overlays: None,
        progress: false,
        shard: None,
        min_score: None,
    };
    let report = evaluate::evaluate(&options).map_err(|e| e.0)?;
    Ok(DemoPart {
        title: "chemical-diagram segmentation",
        about: "The gold boxes of goldens/segmentation against an OSRA run and a hand-shifted run, over the tolerances 0 to 55 px.",
        text: format!(
            "== clefeval segmentation: bundled runs ==\n{}",
            report.render(OutputFormat::Table, false)
        ),
        sections: html::sections(&report),
    })
}
