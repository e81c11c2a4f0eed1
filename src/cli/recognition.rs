//! `clefeval recognition`: MOL/SD files and SMILES through Standard InChI
//! (docs/recognition.md). Parses the arguments, runs
//! [`mod@crate::recognition::evaluate`] in a pool of worker processes and prints
//! its report.

use super::{
    CommonArgs, Fatal, Status, Written, check_input_folder, check_inputs, check_output_file, emit,
    given_runs, note_rejected, write_file,
};
use crate::inputs::Run;
use crate::recognition::evaluate::input_digests;
use crate::recognition::report::Report;
use crate::recognition::settings::{DEFAULT_TIMEOUT_SECONDS, Requested};
use crate::recognition::{Pool, WorkerCommand, evaluate, html, worker};
use crate::report::{progress_bar, show_progress};
use crate::task::threads;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, Clone, Args)]
pub struct RecognitionArgs {
    /// Gold structures: a folder or files of MOL/SD files, SMILES files
    /// (.smi) or SMILES tables (.csv, .tsv), in any mix.
    #[arg(long, required = true, value_name = "PATH")]
    pub gold: Vec<PathBuf>,
    /// One run's structures (files of the kinds --gold takes); repeat for
    /// several runs.
    #[arg(long, required = true, value_name = "PATH")]
    pub run: Vec<PathBuf>,
    /// Folder of clip images shown in the review page.
    #[arg(long, value_name = "DIR")]
    pub clips: Option<PathBuf>,
    /// The old name of `--html`, which writes the same page.
    #[arg(long, value_name = "FILE.html", hide = true)]
    pub review: Option<PathBuf>,
    /// The header of the name column of SMILES tables (default: the first
    /// of image_id, id, name, file_name, file, image).
    #[arg(long, value_name = "NAME")]
    pub name_column: Option<String>,
    /// The header of the SMILES column of SMILES tables (default: the
    /// first of smiles, pred, prediction, smiles_pred).
    #[arg(long, value_name = "NAME")]
    pub smiles_column: Option<String>,
    /// Seconds the InChI library may take on one structure.
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_TIMEOUT_SECONDS, allow_negative_numbers = true)]
    pub timeout: f64,
    /// Worker processes (default: the number of cores).
    #[arg(short = 'j', long = "threads", alias = "jobs", value_name = "N")]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub common: CommonArgs,
}

pub fn run(args: &RecognitionArgs) -> Result<Status, Fatal> {
    check_inputs("--gold", &args.gold)?;
    let runs = given_runs(&args.run)?;
    check_input_folder("--clips", args.clips.as_deref())?;
    args.common.check_outputs()?;
    check_output_file(args.review.as_deref())?;
    let given = Requested {
        timeout: args.timeout,
        name_column: args.name_column.clone(),
        smiles_column: args.smiles_column.clone(),
    };
    let timeout = given.check().map_err(|e| Fatal(e.flag()))?;
    let pool = pool(args.jobs, timeout)?;
    let progress = progress_bar(show_progress(args.common.quiet), "structures");
    let review_pages = args.review.is_some() || args.common.html.is_some();
    let shard = args.common.shard;
    let columns = given.columns();
    let scored = evaluate(
        &args.gold,
        &runs,
        &pool,
        &progress,
        review_pages,
        shard,
        &columns,
    )
    .map_err(|e| Fatal(e.0))?;
    let mut report = Report::new(scored, &given);
    report.shard = shard;
    report.inputs = input_digests(&args.gold, &Run::paths(&runs));
    if !args.common.quiet {
        for run in &report.runs {
            for d in &run.diagnostics {
                eprintln!("{d}");
            }
        }
    }
    note_rejected(&report.rejected_runs, &report.skipped_files, &args.common);
    let mut written = Written::default();
    for path in [&args.review, &args.common.html].into_iter().flatten() {
        let page = html::html(&report.runs, &report.rejected_runs, args.clips.as_deref());
        write_file(path, page)?;
        written.file("the HTML page", path);
    }
    let text = report.render(args.common.format);
    emit(&text, args.common.output.as_deref())?;
    written.output(&args.common.format, args.common.output.as_deref());
    written.close(args.common.quiet);
    Ok(0)
}

/// A pool of `jobs` workers (default: the number of cores) running this
/// executable.
pub(super) fn pool(jobs: Option<usize>, timeout: Duration) -> Result<Pool, Fatal> {
    Ok(Pool {
        command: WorkerCommand::current_exe().map_err(|e| Fatal(e.to_string()))?,
        jobs: threads(jobs).map_err(|e| Fatal(e.flag()))?,
        timeout,
    })
}

/// The hidden `inchi-worker` mode: reads requests on stdin, answers on stdout.
pub fn worker() -> Result<Status, Fatal> {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    worker::serve(stdin, stdout).map_err(|e| Fatal(e.to_string()))?;
    Ok(0)
}
