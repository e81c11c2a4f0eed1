//! `clefeval demo`: every implemented task on the data bundled in `goldens/`,
//! the tables on standard output and every task's report on one HTML page.
//! Each task's part calls the same library functions as its command.

use super::{Fatal, Status, emit, write_file};
use crate::flowchart::mcs::{Level, Settings};
use crate::flowchart::{self, ParseOptions, validate};
use crate::inputs::Run;
use crate::recognition::{self, report::Report};
use crate::report::OutputFormat;
use crate::report::html::{HtmlPage, Section};
use crate::retrieval::significance::{Comparison, compare_runs};
use crate::retrieval::{self, Evaluation, Measure, Task};
use crate::segmentation::{
    self,
    tolerances::{DEFAULT_PIXELS, Tolerances},
};
use clap::Args;
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Where the demo page goes unless `--html` says otherwise.
pub const DEFAULT_PAGE: &str = "demo-report.html";

#[derive(Debug, Clone, Args)]
pub struct DemoArgs {
    /// Folder of the demo data (default: the repository's `goldens/`).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Write the HTML report of all four tasks here.
    #[arg(long, value_name = "FILE", default_value = DEFAULT_PAGE)]
    pub html: PathBuf,
    /// No notes on stderr (the demo's tables still go to standard output).
    #[arg(short, long)]
    pub quiet: bool,
}

pub fn run(args: &DemoArgs) -> Result<Status, Fatal> {
    let data = args.data.clone().unwrap_or_else(default_data);
    if !data.is_dir() {
        return Err(Fatal(format!(
            "demo data folder {} not found",
            data.display()
        )));
    }
    super::check_output_file(Some(&args.html))?;
    validate_part(&data)?;
    let flowcharts = flowchart_part(&data)?;
    emit("\n", None)?;
    let segmentation = segmentation_part(&data)?;
    emit("\n", None)?;
    let recognition = recognition_part(&data)?;
    emit("\n", None)?;
    let (passage, comparison) = passage_part(&data)?;
    let passage_sections = retrieval::html::sections(&passage).into_iter().chain(
        retrieval::html::comparisons_section(&passage, comparison.as_slice()),
    );
    let page = HtmlPage::new("clefeval demo")
        .section(part(
            "task-flowchart",
            "Task 1: flowcharts",
            "goldens/flowchart/gold against the runs in goldens/flowchart/runs, at every level.",
        ).subsections(flowcharts))
        .section(part(
            "task-segmentation",
            "Task 2: chemical-diagram segmentation",
            "The gold boxes of goldens/segmentation against an OSRA run and a hand-shifted run, over the tolerances 0 to 55 px.",
        ).subsections(segmentation))
        .section(part(
            "task-recognition",
            "Task 3: chemical structure recognition",
            "goldens/recognition/gold against the hand-made run: every outcome, compared through Standard InChI.",
        ).subsections(recognition))
        .section(part(
            "task-passage",
            "Task 4: claims to passage",
            "The passage qrels of goldens/passage/demo against its three runs (a plain, a gzip and a zip file), with its language groups; the runs compared by MAP@100.",
        ).subsections(passage_sections));
    write_file(&args.html, page.render())?;
    let written = format!(
        "\nThe four tasks' report (charts, graphs, review): {} (open it in a browser)\n",
        args.html.display()
    );
    emit(&written, None)?;
    Ok(0)
}

/// The section of one task's part of the demo page: its heading and a
/// paragraph, then (added by the caller) the task's own sections.
fn part(id: &str, heading: &str, text: &str) -> Section {
    Section::new(id, heading).paragraph(text)
}

/// The repository's `goldens/`, relative to the working folder when it lies
/// below it: every path the demo prints is then as short as a path the
/// user would type (`goldens/flowchart/gold/…`).
fn default_data() -> PathBuf {
    let goldens = Path::new(env!("CARGO_MANIFEST_DIR")).join("goldens");
    std::env::current_dir()
        .ok()
        .and_then(|cwd| goldens.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .map(|p| match p.as_os_str().is_empty() {
            true => PathBuf::from("."),
            false => p,
        })
        .unwrap_or(goldens)
}

/// The folders in `dir`, sorted: one run each.
fn run_folders(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut runs: Vec<PathBuf> = std::fs::read_dir(dir)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    runs.sort();
    Ok(runs)
}

/// `validate` on the bundled gold flowcharts (`<data>/flowchart/gold`),
/// then the summary of the broken examples (`<data>/flowchart/broken`).
fn validate_part(data: &Path) -> Result<(), Fatal> {
    let folder = |name: &str| data.join("flowchart").join(name);
    let files = |paths: &[PathBuf]| validate::files_to_check(paths).map_err(|e| Fatal(e.0));
    let options = ParseOptions::default();
    let gold = validate::validate(&files(&[folder("gold")])?, &options);
    let broken_folder = folder("broken");
    let broken = validate::validate(&files(std::slice::from_ref(&broken_folder))?, &options);
    let text = format!(
        "== clefeval validate: bundled gold flowcharts ==\n{}\n\
         == clefeval validate: broken examples, one per diagnostic ==\n{}\
         (every diagnostic: clefeval validate {})\n\n",
        gold.table(),
        validate::summary_line(&broken),
        broken_folder.display()
    );
    emit(&text, None)
}

/// `flowchart/gold` against every run under `flowchart/runs/`, all levels.
/// Returns the sections of the demo's HTML page (none without runs).
fn flowchart_part(data: &Path) -> Result<Vec<Section>, Fatal> {
    let root = data.join("flowchart");
    let runs = run_folders(&root.join("runs")).unwrap_or_default();
    if runs.is_empty() {
        return Ok(Vec::new());
    }
    let options = flowchart::evaluate::Options {
        gold: vec![root.join("gold")],
        runs: Run::each(&runs),
        levels: Level::ALL.to_vec(),
        settings: Settings::default(),
        parse: ParseOptions::default(),
        keep: true,
        progress: false,
        shard: None,
    };
    let done = flowchart::evaluate::evaluate(&options).map_err(|e| Fatal(e.0))?;
    let text = format!(
        "== clefeval flowchart: bundled runs ==\n{}",
        done.report.table()
    );
    emit(&text, None)?;
    Ok(flowchart::html::sections(&done.html_input()))
}

/// The gold boxes of `segmentation/` against the OSRA run and a hand-made
/// run, with the page checks. Returns the sections of the demo's HTML page.
fn segmentation_part(data: &Path) -> Result<Vec<Section>, Fatal> {
    let dir = data.join("segmentation");
    let options = segmentation::evaluate::Options {
        gold: vec![dir.join("gold")],
        runs: Run::each(&[dir.join("run-osra"), dir.join("run-shifted")]),
        tolerances: Tolerances::parse_pixels(DEFAULT_PIXELS).map_err(Fatal)?,
        pages: Some(dir.join("pages")),
        overlays: None,
        progress: false,
        shard: None,
    };
    let report = segmentation::evaluate::evaluate(&options).map_err(|e| Fatal(e.0))?;
    let text = format!(
        "== clefeval segmentation: bundled runs ==\n{}",
        report.render(OutputFormat::Table, false)
    );
    emit(&text, None)?;
    Ok(segmentation::html::sections(&report))
}

/// The gold folder of `recognition/` against every run folder under
/// `runs/`. Returns the sections of the demo's HTML page.
fn recognition_part(data: &Path) -> Result<Vec<Section>, Fatal> {
    let root = data.join("recognition");
    let folder = root.join("runs");
    let runs = run_folders(&folder)
        .map_err(|e| Fatal(format!("cannot read {}: {e}", folder.display())))?;
    let pool = super::recognition::pool(None, Duration::from_secs(10))?;
    let gold = [root.join("gold")];
    let runs = Run::each(&runs);
    let runs = recognition::evaluate(&gold, &runs, &pool, &ProgressBar::hidden(), true, None)
        .map_err(|e| Fatal(e.0))?;
    let report = Report::new(runs, 10.0);
    let text = format!(
        "== clefeval recognition: bundled runs ==\n{}",
        report.table()
    );
    emit(&text, None)?;
    Ok(recognition::html::sections(&report.runs, None))
}

/// The passage runs of `passage/demo` (a plain, a gzip and a zip run)
/// against its qrels and language groups, default settings, and with two
/// scored runs or more their comparison by MAP@N (`--compare MAP@100`,
/// default permutations and seed). Returns the evaluation and the
/// comparison, from which the page's passage part is drawn.
fn passage_part(data: &Path) -> Result<(Evaluation, Option<Comparison>), Fatal> {
    let dir = data.join("passage").join("demo");
    let settings = retrieval::Settings::new(Task::Passage);
    let groups = dir.join("groups.txt");
    let runs = [Run::at(dir.join("runs"))];
    let evaluation = crate::retrieval::runs::score_shard(
        &settings,
        &dir.join("qrels.txt"),
        Some(&groups),
        &runs,
        None,
    )
    .map_err(|e| Fatal(e.to_string()))?;
    let scored = evaluation.runs.iter().filter(|r| r.scores.is_some());
    let comparison = if scored.count() >= 2 {
        let measure = Measure::Map.name(&settings);
        let c = compare_runs(
            &evaluation,
            &measure,
            crate::retrieval::settings::PERMUTATIONS,
            0,
        )
        .map_err(|e| Fatal(format!("{}: {e}", dir.display())))?;
        Some(c)
    } else {
        None
    };
    let between = crate::retrieval::between::Between {
        comparisons: comparison.clone().into_iter().collect(),
        correlations: Vec::new(),
    };
    let text = format!(
        "== clefeval passage: bundled runs ==\n{}{}",
        evaluation.table(),
        between.tables()
    );
    emit(&text, None)?;
    Ok((evaluation, comparison))
}
