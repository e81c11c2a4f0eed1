//! The recognition part of `clefeval demo`, by the same functions as the
//! command; the running executable (the `clefeval` command) serves as
//! the InChI worker.

use super::report::Report;
use super::worker::{Pool, WorkerCommand};
use super::{evaluate, html};
use crate::inputs::Run;
use crate::task::{DemoPart, threads};
use indicatif::ProgressBar;
use std::path::Path;
use std::time::Duration;

/// The seconds one structure may take in the demo.
const TIMEOUT_SECONDS: u64 = 10;

/// `<data>/recognition/gold` against every run folder under `runs/`.
pub fn demo(data: &Path) -> Result<DemoPart, String> {
    let root = data.join("recognition");
    let folder = root.join("runs");
    let runs = crate::inputs::folders_in(&folder)
        .map_err(|e| format!("cannot read {}: {e}", folder.display()))?;
    let pool = Pool {
        command: WorkerCommand::current_exe().map_err(|e| e.to_string())?,
        jobs: threads(None).map_err(|e| e.flag())?,
        timeout: Duration::from_secs(TIMEOUT_SECONDS),
    };
    let gold = [root.join("gold")];
    let runs = evaluate(
        &gold,
        &Run::each(&runs),
        &pool,
        &ProgressBar::hidden(),
        true,
        None,
    )
    .map_err(|e| e.0)?;
    let report = Report::new(runs, TIMEOUT_SECONDS as f64);
    Ok(DemoPart {
        title: "chemical structure recognition",
        about: "goldens/recognition/gold against the hand-made run: every outcome, compared through Standard InChI.",
        text: format!(
            "== clefeval recognition: bundled runs ==\n{}",
            report.table()
        ),
        sections: html::sections(&report.runs, None),
    })
}
