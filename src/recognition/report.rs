//! The recognition report: the JSON value (docs/formats.md), the ranking
//! of the runs by recall of the automatic set with every outcome count
//! (table and CSV), and the list of structures that did not match.

use super::evaluate::{RunResult, Runs, input_digests};
use super::layers::Layer;
use super::molfile::MAX_FILE_BYTES;
use super::outcome::{Outcome, Summary};
use super::settings::Requested;
use super::worker::{Pool, WorkerCommand};
use crate::diagnostics::push_rejected;
use crate::inputs::Run;
use crate::inputs::push_skipped;
use crate::report::envelope::Envelope;
use crate::report::merge::{Part, read_parts};
use crate::report::table::{Align, Table};
use crate::report::{OutputFormat, ratio, to_json};
use crate::task::{Request, TaskError, settings_from_json, threads};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The settings echoed in the JSON output.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ReportSettings {
    pub timeout_seconds: f64,
    pub max_file_bytes: usize,
    #[serde(deserialize_with = "crate::report::saved::static_str")]
    pub inchi: &'static str,
    /// `--name-column`, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_column: Option<String>,
    /// `--smiles-column`, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smiles_column: Option<String>,
}

/// The JSON output (docs/formats.md): the envelope of every result with
/// the recognition settings and one [`RunResult`] per run.
pub type Report = Envelope<ReportSettings, RunResult>;

impl Report {
    /// The output text in `format`.
    pub fn render(&self, format: OutputFormat) -> String {
        match format {
            OutputFormat::Json => to_json(self) + "\n",
            OutputFormat::Csv => self.csv(),
            OutputFormat::Table => self.table(),
        }
    }

    /// The report of `runs`, scored with the settings `given`.
    pub fn new(runs: Runs, given: &Requested) -> Self {
        let settings = ReportSettings {
            timeout_seconds: given.timeout,
            max_file_bytes: MAX_FILE_BYTES,
            inchi: "Standard InChI, IUPAC InChI library 1.07.3",
            name_column: given.name_column.clone(),
            smiles_column: given.smiles_column.clone(),
        };
        Report {
            rejected_runs: runs.rejected,
            skipped_files: runs.skipped,
            ..Report::whole("recognition", settings, runs.scored)
        }
    }

    /// The ranking of the runs, the first differing layers, then every
    /// structure that did not match.
    pub fn table(&self) -> String {
        let mut text = ranking(&self.runs).render();
        text.push('\n');
        text.push_str(&first_differences(&self.runs).render());
        let details = not_matched(&self.runs);
        if !details.is_empty() {
            text.push('\n');
            text.push_str(&details.render());
        }
        push_rejected(&mut text, &self.rejected_runs);
        push_skipped(&mut text, &self.skipped_files);
        text
    }

    /// The ranking table as CSV.
    pub fn csv(&self) -> String {
        ranking(&self.runs).to_csv()
    }
}

/// The evaluation of a [`Request`] (the C API's generic entry): its
/// settings checked by [`Requested::check`], the InChI library run in
/// worker processes (`request.worker`, or `clefeval inchi-worker` from the
/// `PATH`), the JSON the command writes.
pub fn evaluate_request(request: &Request) -> Result<String, TaskError> {
    let given: Requested = settings_from_json(&request.settings)?;
    let timeout = given.check()?;
    let runs = request.runs();
    let run_paths = Run::paths(&runs);
    let named: Vec<&PathBuf> = request.gold.iter().chain(&run_paths).collect();
    request.check(&["qrels", "groups", "pages", "overlays"], &named)?;
    let worker = request
        .worker
        .clone()
        .unwrap_or_else(|| vec!["clefeval".to_string(), "inchi-worker".to_string()]);
    let mut parts = worker.into_iter();
    let program = (parts.next()).ok_or_else(|| TaskError::input("worker: the command is empty"))?;
    let pool = Pool {
        command: WorkerCommand {
            program: PathBuf::from(program),
            args: parts.map(Into::into).collect(),
        },
        jobs: threads(request.threads)?,
        timeout,
    };
    let shard = request.shard()?;
    let progress = indicatif::ProgressBar::hidden();
    let columns = given.columns();
    let scored = super::evaluate(
        &request.gold,
        &runs,
        &pool,
        &progress,
        false,
        shard,
        &columns,
    )
    .map_err(|e| TaskError::input(e.0))?;
    let mut report = Report::new(scored, &given);
    report.shard = shard;
    report.inputs = input_digests(&request.gold, &run_paths);
    Ok(to_json(&report))
}

/// `clefeval merge` for recognition results: the parts' structures joined
/// run by run in name order (the order of a whole evaluation), each run's
/// summary counted again by [`Summary::of`]; the rest is the first part's
/// (the parts were checked to be of one evaluation).
pub fn merge(parts: &[Part]) -> Result<String, String> {
    let (mut whole, others) = read_parts::<Report>(parts)?;
    for part in others {
        for (run, other) in whole.runs.iter_mut().zip(part.runs) {
            run.structures.extend(other.structures);
        }
    }
    for run in &mut whole.runs {
        run.structures.sort_by(|a, b| a.name.cmp(&b.name));
        run.summary = Summary::of(&run.structures);
    }
    whole.shard = None;
    Ok(to_json(&whole) + "\n")
}

/// Runs ranked by recall of the automatic set (then matches, then name):
/// the overview's columns (structures, recalled, %), the recall ignoring
/// stereo, the gold structures with stereo and the recall on them, and
/// every outcome count.
fn ranking(runs: &[RunResult]) -> Table {
    let mut order: Vec<&RunResult> = runs.iter().collect();
    order.sort_by(|a, b| {
        b.summary
            .recall
            .total_cmp(&a.summary.recall)
            .then(b.summary.matched.cmp(&a.summary.matched))
            .then(a.run.cmp(&b.run))
    });
    let mut headers = vec![
        "rank",
        "run",
        "structures",
        "automatic",
        "recalled",
        "%",
        "recall",
        "ignoring stereo",
        "stereo gold",
        "on stereo",
    ];
    headers.extend(Outcome::ALL.iter().skip(1).map(|o| o.name()));
    let mut table = Table::new(headers)
        .align(0, Align::Right)
        .align(1, Align::Left);
    for (rank, run) in order.iter().enumerate() {
        let s = &run.summary;
        let mut row = vec![
            (rank + 1).to_string(),
            run.run.clone(),
            s.structures.to_string(),
            s.automatic.to_string(),
            s.matched.to_string(),
            format!("{:.2}", 100.0 * s.recall),
            ratio(s.recall),
            ratio(s.recall_ignoring_stereo),
            s.stereo_structures.to_string(),
            ratio(s.stereo_recall),
        ];
        row.extend(Outcome::ALL.iter().skip(1).map(|&o| s.count(o).to_string()));
        table.row(row);
    }
    table
}

/// Per run (in input order), the structures whose InChIs differ counted by
/// the first layer group that does.
fn first_differences(runs: &[RunResult]) -> Table {
    let mut headers = vec!["run", "differing"];
    headers.extend(Layer::ALL.iter().map(|l| l.name()));
    let mut table = Table::new(headers).align(0, Align::Left);
    for run in runs {
        let counts = &run.summary.first_difference;
        let total: usize = Layer::ALL.iter().map(|&l| counts.count(l)).sum();
        let mut row = vec![run.run.clone(), total.to_string()];
        row.extend(Layer::ALL.iter().map(|&l| counts.count(l).to_string()));
        table.row(row);
    }
    table
}

/// One row per structure whose outcome is not `match`, run by run.
fn not_matched(runs: &[RunResult]) -> Table {
    let mut table = Table::new(["run", "structure", "outcome", "reason"])
        .align(1, Align::Left)
        .align(2, Align::Left)
        .align(3, Align::Left);
    for run in runs {
        for s in run
            .structures
            .iter()
            .filter(|s| s.outcome != Outcome::Match)
        {
            table.row([
                run.run.clone(),
                s.name.clone(),
                s.outcome.name().to_owned(),
                s.reason.clone().unwrap_or_default(),
            ]);
        }
    }
    table
}
