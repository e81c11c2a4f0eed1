//! `clefeval report RESULT.json`: a saved (or merged) result rendered
//! again, without scoring: its table or CSV and its HTML page, by the same
//! code as the command that scored it. What the page draws from the input
//! files (the flowchart graphs, the molecules) is drawn when the input
//! paths are given again (`--gold`, `--run`, `--clips`) and otherwise left
//! out, which a note on stderr names; so are the comparisons and
//! correlations of text-retrieval runs, which are not read back.

use super::{Fatal, Status, Written, check_inputs, check_output_file, emit, write_file};
use crate::diagnostics::RejectedRun;
use crate::flowchart::evaluate::EXTENSIONS as FLOWCHART_FILES;
use crate::flowchart::{self, Flowchart, ParseOptions, read_file};
use crate::inputs::{collect_files, pair_by_stem, run_names, stem};
use crate::recognition::evaluate::EXTENSIONS as STRUCTURE_FILES;
use crate::recognition::{self, molfile};
use crate::report::OutputFormat;
use crate::report::merge::Part;
use crate::report::saved::{read_result_as, read_result_text};
use crate::retrieval::{self, Evaluation};
use crate::segmentation::{self, tolerances::DEFAULT_PIXELS, tolerances::Tolerances};
use clap::{Args, ValueEnum};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// `--format` of `clefeval report`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Shown {
    Table,
    Csv,
}

#[derive(Debug, Clone, Args)]
pub struct ReportArgs {
    /// A result file (`--format json`), whole or merged.
    #[arg(value_name = "RESULT.json")]
    pub result: PathBuf,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "table")]
    pub format: Shown,
    /// Write the output to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Also write the HTML page.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// The gold files scored (flowchart, recognition): the page draws them.
    #[arg(long, value_name = "PATH")]
    pub gold: Vec<PathBuf>,
    /// The runs scored, in the order scored: the page draws their files.
    #[arg(long, value_name = "PATH")]
    pub run: Vec<PathBuf>,
    /// Folder of clip images for the recognition page.
    #[arg(long, value_name = "DIR")]
    pub clips: Option<PathBuf>,
    /// No notes on stderr.
    #[arg(short, long)]
    pub quiet: bool,
}

/// What one task renders: the text, and the page when asked for.
struct Rendered {
    text: String,
    page: Option<String>,
}

/// The top-level entry point for `clefeval report`.
pub fn run(args: &ReportArgs) -> Result<Status, Fatal> {
    check_inputs("", std::slice::from_ref(&args.result))?;
    check_inputs("--gold", &args.gold)?;
    check_inputs("--run", &args.run)?;
    check_inputs("--clips", args.clips.as_slice())?;
    check_output_file(args.output.as_deref())?;
    check_output_file(args.html.as_deref())?;
    let text = read_result_text(&args.result).map_err(Fatal)?;
    let doc: serde_json::Value = read_result_as(&args.result, &text).map_err(Fatal)?;
    let file = args.result.display().to_string();
    let part = Part {
        file: &file,
        doc: &doc,
    };
    let format = match args.format {
        Shown::Table => OutputFormat::Table,
        Shown::Csv => OutputFormat::Csv,
    };
    let rendered = match doc.get("task").and_then(|t| t.as_str()) {
        Some("flowchart") => flowchart_result(args, &part, format)?,
        Some("segmentation") => segmentation_result(args, &part, format)?,
        Some("recognition") => recognition_result(args, &part, format)?,
        Some("prior-art" | "passage") => retrieval_result(args, &part, &text, format)?,
        Some(task) => {
            return Err(Fatal(format!(
                "{file}: clefeval report does not render {task} results yet"
            )));
        }
        None => {
            return Err(Fatal(format!(
                "{file}: no \"task\" field: not a result file"
            )));
        }
    };
    let mut written = Written::default();
    if let (Some(path), Some(page)) = (&args.html, &rendered.page) {
        write_file(path, page)?;
        written.file("the HTML page", path);
    }
    emit(&rendered.text, args.output.as_deref())?;
    written.output(&args.format, args.output.as_deref());
    written.close(args.quiet);
    Ok(0)
}

/// A note on stderr (unless `--quiet`) when the page leaves out what its
/// inputs would draw.
fn note_left_out(args: &ReportArgs, what: &str, flags: &str) {
    if args.html.is_some() && !args.quiet {
        eprintln!("clefeval: the page leaves out the {what}: give {flags} again to draw them");
    }
}

/// Per run name, the `--run` path of that name.
fn run_paths(args: &ReportArgs) -> BTreeMap<String, PathBuf> {
    run_names(&args.run)
        .into_iter()
        .zip(args.run.iter().cloned())
        .collect()
}

fn flowchart_result(
    args: &ReportArgs,
    part: &Part,
    format: OutputFormat,
) -> Result<Rendered, Fatal> {
    let report: flowchart::report::Report = part.read().map_err(Fatal)?;
    let text = super::flowchart::render(&report, format);
    let Some(_) = &args.html else {
        return Ok(Rendered { text, page: None });
    };
    let options = ParseOptions {
        strict: report.settings.strict,
    };
    let read = |paths: &[PathBuf]| -> BTreeMap<String, Flowchart> {
        let (files, _) = collect_files(paths, &FLOWCHART_FILES);
        (files.iter())
            .map(|f| (stem(f), read_file(f, &options)))
            .filter(|(_, parsed)| !parsed.is_rejected())
            .map(|(topic, parsed)| (topic, parsed.flowchart))
            .collect()
    };
    if args.gold.is_empty() || args.run.is_empty() {
        note_left_out(args, "graphs", "--gold and --run");
    }
    let gold = read(&args.gold);
    let paths = run_paths(args);
    let submitted: Vec<BTreeMap<String, Flowchart>> = (report.runs.iter())
        .map(|r| {
            paths
                .get(&r.run)
                .map(|p| read(std::slice::from_ref(p)))
                .unwrap_or_default()
        })
        .collect();
    let input = flowchart::html::Input {
        runs: &report.runs,
        rejected: &report.rejected_runs,
        levels: &report.settings.levels,
        settings: &report.settings.settings,
        gold: &gold,
        submitted: &submitted,
    };
    Ok(Rendered {
        text,
        page: Some(flowchart::html::html(&input)),
    })
}

fn segmentation_result(
    args: &ReportArgs,
    part: &Part,
    format: OutputFormat,
) -> Result<Rendered, Fatal> {
    let report: segmentation::report::Report = part.read().map_err(Fatal)?;
    // The table shows every tolerance when they were chosen, as the command does.
    let standard = Tolerances::parse_pixels(DEFAULT_PIXELS).map_err(Fatal)?;
    let all_rows = report.settings.unit != "px"
        || !(report.settings.tolerances.iter()).eq(standard.iter().collect::<Vec<_>>().iter());
    let text = super::segmentation::render(&report, format, all_rows);
    let page = args
        .html
        .as_ref()
        .map(|_| segmentation::html::html(&report));
    Ok(Rendered { text, page })
}

/// The text's own reading keeps the groups in the order written (a read
/// document would have them by name).
fn retrieval_result(
    args: &ReportArgs,
    part: &Part,
    text: &str,
    format: OutputFormat,
) -> Result<Rendered, Fatal> {
    let evaluation: Evaluation = read_result_as(&args.result, text).map_err(Fatal)?;
    let between = ["comparisons", "correlations"]
        .iter()
        .any(|k| part.doc.get(k).is_some());
    if between && !args.quiet {
        eprintln!(
            "clefeval: the comparisons and correlations of the runs are left out: score the runs again with --compare and --correlate to see them"
        );
    }
    let text = match format {
        OutputFormat::Csv => evaluation.csv(),
        _ => evaluation.table(),
    };
    let page = args
        .html
        .as_ref()
        .map(|_| retrieval::html::page(&evaluation));
    Ok(Rendered { text, page })
}

fn recognition_result(
    args: &ReportArgs,
    part: &Part,
    format: OutputFormat,
) -> Result<Rendered, Fatal> {
    let mut report: recognition::report::Report = part.read().map_err(Fatal)?;
    let text = super::recognition::render(&report, format);
    let Some(_) = &args.html else {
        return Ok(Rendered { text, page: None });
    };
    if args.gold.is_empty() || args.run.is_empty() {
        note_left_out(args, "molecule drawings", "--gold and --run");
    }
    let (gold, _) = collect_files(&args.gold, &STRUCTURE_FILES);
    let paths = run_paths(args);
    for run in &mut report.runs {
        let files = paths.get(&run.run).map_or_else(Vec::new, |p| {
            collect_files(std::slice::from_ref(p), &STRUCTURE_FILES).0
        });
        let (pairs, _) = pair_by_stem(&gold, &files);
        let by_stem: BTreeMap<String, _> = pairs.into_iter().map(|p| (p.stem.clone(), p)).collect();
        for s in &mut run.structures {
            let Some(pair) = by_stem.get(&s.name) else {
                continue;
            };
            s.gold_molecule = molfile::read(&pair.gold).ok().map(|r| r.molecule);
            s.run_molecule = (pair.run.as_deref())
                .and_then(|p| molfile::read(p).ok())
                .map(|r| r.molecule);
        }
    }
    let rejected: &[RejectedRun] = &report.rejected_runs;
    Ok(Rendered {
        text,
        page: Some(recognition::html::html(
            &report.runs,
            rejected,
            args.clips.as_deref(),
        )),
    })
}
