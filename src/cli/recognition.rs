//! `clefeval recognition`: MOL files through Standard InChI (SPEC §4).

use super::{CommonArgs, Fatal, Status};
use crate::recognition::molfile::MAX_FILE_BYTES;
use crate::recognition::{Outcome, Pool, RunResult, WorkerCommand, evaluate, review, worker};
use crate::report::html::Section;
use crate::report::table::{Align, Table};
use crate::report::{OutputFormat, emit, progress_bar, ratio, show_progress, to_json};
use clap::Args;
use indicatif::ProgressBar;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Debug, Clone, Args)]
pub struct RecognitionArgs {
    /// Folder of gold MOL files.
    #[arg(long, required = true)]
    pub gold: Vec<PathBuf>,
    /// Folder of one run's MOL files; repeat for several runs.
    #[arg(long, required = true)]
    pub run: Vec<PathBuf>,
    /// Folder of clip images shown in the review page.
    #[arg(long, value_name = "DIR")]
    pub clips: Option<PathBuf>,
    /// Write the visual review page here.
    #[arg(long, value_name = "FILE.html")]
    pub review: Option<PathBuf>,
    /// Seconds the InChI library may take on one structure.
    #[arg(long, default_value_t = 10.0)]
    pub timeout: f64,
    /// Worker processes (default: the number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub common: CommonArgs,
}

pub fn run(args: &RecognitionArgs) -> Result<Status, Fatal> {
    let timeout = Duration::try_from_secs_f64(args.timeout)
        .ok()
        .filter(|t| !t.is_zero())
        .ok_or_else(|| Fatal("--timeout must be a positive number of seconds".into()))?;
    let jobs = match args.jobs {
        Some(0) => return Err(Fatal("--jobs must be at least 1".into())),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let pool = Pool {
        command: WorkerCommand::current_exe()?,
        jobs,
        timeout,
    };
    let progress = progress_bar(show_progress(args.common.quiet), "InChI");
    let review_pages = args.review.is_some() || args.common.html.is_some();
    let runs = evaluate(&args.gold, &args.run, &pool, &progress, review_pages).map_err(Fatal)?;
    if !args.common.quiet {
        for run in &runs {
            for d in &run.diagnostics {
                eprintln!("{d}");
            }
        }
    }
    for page in [&args.review, &args.common.html].into_iter().flatten() {
        std::fs::write(page, review::page(&runs, args.clips.as_deref()))
            .map_err(|e| Fatal(format!("cannot write {}: {e}", page.display())))?;
    }
    let text = render(&runs, args.common.format, args.timeout);
    emit(&text, args.common.output.as_deref()).map_err(|e| match &args.common.output {
        Some(path) => Fatal(format!("cannot write {}: {e}", path.display())),
        None => Fatal(format!("cannot write the output: {e}")),
    })?;
    Ok(0)
}

/// The hidden `inchi-worker` mode: reads requests on stdin, answers on stdout.
pub fn worker() -> Result<Status, Fatal> {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    worker::serve(stdin, stdout)?;
    Ok(0)
}

/// The recognition part of `clefeval demo`, on `data/recognition`: the gold
/// folder against every run folder under `runs/`. Returns the sections of
/// the demo's HTML page.
pub fn demo(data: &Path) -> Result<Vec<Section>, Fatal> {
    let root = data.join("recognition");
    let mut runs: Vec<PathBuf> = std::fs::read_dir(root.join("runs"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    runs.sort();
    let pool = Pool {
        command: WorkerCommand::current_exe()?,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        timeout: Duration::from_secs(10),
    };
    let results = evaluate(
        &[root.join("gold")],
        &runs,
        &pool,
        &ProgressBar::hidden(),
        true,
    )
    .map_err(Fatal)?;
    let text = format!(
        "== clefeval recognition: bundled runs ==\n{}",
        render(&results, OutputFormat::Table, 10.0)
    );
    emit(&text, None)?;
    Ok(review::sections(&results, None))
}

/// The settings echoed in the JSON output.
#[derive(Serialize)]
struct Settings {
    timeout_seconds: f64,
    max_file_bytes: usize,
    inchi: &'static str,
}

#[derive(Serialize)]
struct Output<'a> {
    task: &'static str,
    settings: Settings,
    runs: &'a [RunResult],
}

/// Renders the results: JSON of SPEC §5; CSV of the ranking table; as a
/// table, the ranking followed by every structure that did not match.
pub fn render(runs: &[RunResult], format: OutputFormat, timeout: f64) -> String {
    match format {
        OutputFormat::Json => {
            let output = Output {
                task: "recognition",
                settings: Settings {
                    timeout_seconds: timeout,
                    max_file_bytes: MAX_FILE_BYTES,
                    inchi: "Standard InChI, IUPAC InChI library 1.07.3",
                },
                runs,
            };
            let mut text = to_json(&output);
            text.push('\n');
            text
        }
        OutputFormat::Csv => ranking(runs).to_csv(),
        OutputFormat::Table => {
            let mut text = ranking(runs).render();
            let details = not_matched(runs);
            if !details.is_empty() {
                text.push('\n');
                text.push_str(&details.render());
            }
            text
        }
    }
}

/// Runs ranked by recall of the automatic set (then matches, then name):
/// the overview's columns (structures, recalled, %) and every outcome count.
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
        ];
        row.extend(Outcome::ALL.iter().skip(1).map(|&o| s.count(o).to_string()));
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
