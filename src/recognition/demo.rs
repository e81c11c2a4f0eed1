//! The recognition part of `clefeval demo`, by the same functions as the
//! command; the running executable (the `clefeval` command) serves as
//! the InChI worker. Two evaluations: the hand-made gold against every
//! run folder under `runs/` (every outcome), and the OSRA clips' gold
//! against what the real OSRA read from them, as MOL files and as the
//! SMILES table of its default output.

use super::html::{self, Naming};
use super::report::Report;
use super::settings::Requested;
use super::smiles::table::Columns;
use super::worker::{Pool, WorkerCommand};
use crate::inputs::Run;
use crate::task::{DemoPart, threads};
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The seconds one structure may take in the demo.
const TIMEOUT_SECONDS: u64 = 10;

/// `<data>/recognition/gold` against every run folder under `runs/`, then
/// `<data>/recognition/osra/gold` against every folder under its `runs/`.
pub fn demo(data: &Path) -> Result<DemoPart, String> {
    let root = data.join("recognition");
    let pool = Pool {
        command: WorkerCommand::current_exe().map_err(|e| e.to_string())?,
        jobs: threads(None).map_err(|e| e.flag())?,
        timeout: Duration::from_secs(TIMEOUT_SECONDS),
    };
    let handmade = score(&pool, &root.join("gold"), &root.join("runs"))?;
    let osra = root.join("osra");
    let clips = osra.join("clips");
    let by_osra = score(&pool, &osra.join("gold"), &osra.join("runs"))?;
    let naming = Naming {
        key: "rec-osra",
        subject: Some("OSRA on drawn clips"),
    };
    let mut sections = html::sections(&handmade.runs, None);
    sections.extend(html::named_sections(&by_osra.runs, Some(&clips), &naming));
    Ok(DemoPart {
        title: "chemical structure recognition",
        about: "goldens/recognition/gold against the hand-made run: every outcome, compared through Standard InChI; then the OSRA clips against what OSRA read from them, as MOL files and as the SMILES table of its default output.",
        text: format!(
            "== clefeval recognition: bundled runs ==\n{}\n== clefeval recognition: OSRA on drawn clips (MOL and SMILES output) ==\n{}",
            handmade.table(),
            by_osra.table()
        ),
        sections,
    })
}

/// The report of `gold` against every run folder in `runs`.
fn score(pool: &Pool, gold: &Path, runs: &Path) -> Result<Report, String> {
    let folders: Vec<PathBuf> = crate::inputs::folders_in(runs)
        .map_err(|e| format!("cannot read {}: {e}", runs.display()))?;
    let scored = super::evaluate(
        &[gold.to_path_buf()],
        &Run::each(&folders),
        pool,
        &ProgressBar::hidden(),
        true,
        None,
        &Columns::default(),
    )
    .map_err(|e| e.0)?;
    let given = Requested {
        timeout: TIMEOUT_SECONDS as f64,
        ..Requested::default()
    };
    Ok(Report::new(scored, &given))
}
