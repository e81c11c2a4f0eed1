//! The detection part of `clefeval demo`, by the same functions as the
//! command.

use super::evaluate::{Input, Options, RunInput, evaluate};
use super::html;
use super::params::Params;
use crate::inputs::Run;
use crate::report::OutputFormat;
use crate::task::DemoPart;
use std::path::Path;

/// The gold boxes of the bundled pages as COCO, against OSRA's boxes on
/// those pages with its confidence estimate as the score.
pub fn demo(data: &Path) -> Result<DemoPart, String> {
    let dir = data.join("detection").join("demo");
    let options = Options {
        gold: Input::File(dir.join("gold.json")),
        runs: RunInput::files(&Run::each(&[dir.join("osra.json")])),
        params: Params::default(),
        shard: None,
    };
    let report = evaluate(&options).map_err(|e| e.0)?;
    Ok(DemoPart {
        title: "detection (COCO average precision)",
        about: "The gold boxes of the bundled pages (goldens/segmentation) as a COCO ground truth, against OSRA's boxes on those pages scored by its confidence estimate: pycocotools' twelve numbers, AP per category, counts per page.",
        text: format!(
            "== clefeval detection: bundled run ==\n{}",
            report.render(OutputFormat::Table)
        ),
        sections: html::sections(&report),
    })
}
