//! `clefeval prior-art` and `clefeval passage`: text-retrieval runs scored
//! against qrels (docs/retrieval.md). Both commands take the same
//! arguments; the subcommand chooses the task. Parses the arguments, runs
//! [`crate::retrieval::evaluate`] and prints its result as a table per run
//! (and a ranking of the runs), CSV, JSON or trec_eval's line layout.

use super::{CommonArgs, Fatal, Status, check_inputs, emit, with_threads, write_file};
use crate::diagnostics::{Diagnostic, every_run_rejected};
use crate::inputs::collect_files;
use crate::report::to_json;
use crate::retrieval::input::run_name;
use crate::retrieval::{Evaluation, Order, RunResult, Settings, Task, evaluate, html, write_trec};
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};

/// `--format` of these commands: the common formats and trec_eval's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Table,
    Csv,
    Json,
    /// trec_eval's line layout, `measure<TAB>topic<TAB>value`.
    Trec,
}

/// `--order`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OrderChoice {
    /// The rank column, equal ranks in file order: the submitted ranking.
    File,
    /// trec_eval's: score descending, equal scores by document id descending.
    Score,
}

#[derive(Debug, Clone, Args)]
pub struct RetrievalArgs {
    /// Relevance judgements (qrels) file.
    #[arg(long, value_name = "FILE")]
    pub qrels: PathBuf,
    /// Topic groups file, `topic group` a line: every mean also per group.
    #[arg(long, value_name = "FILE")]
    pub groups: Option<PathBuf>,
    /// A run file, or a folder whose files are one run each; repeat for
    /// several runs.
    #[arg(long, required = true, value_name = "PATH")]
    pub run: Vec<PathBuf>,
    /// N: the documents of a topic's ranking that count.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = parse_positive)]
    pub cutoff: usize,
    /// P@k and R@k at these ranks too, after 5, 10, 20 and 100.
    #[arg(long, value_name = "K,...", value_delimiter = ',', value_parser = parse_positive)]
    pub ranks: Vec<usize>,
    /// The order of a topic's lines.
    #[arg(long, value_enum, default_value_t = OrderChoice::File)]
    pub order: OrderChoice,
    /// Only qrels entries of this grade or higher are relevant.
    #[arg(long, value_name = "G", default_value_t = 1, value_parser = parse_grade)]
    pub min_relevance: i64,
    /// The base of the nDCG discount: 10 (the 2009 overview's) or 2.
    #[arg(long, value_name = "2|10", default_value_t = 10, value_parser = parse_base)]
    pub ndcg_base: u32,
    /// Keep the heading passages, which are removed before scoring otherwise.
    #[arg(long)]
    pub keep_headings: bool,
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub common: CommonArgs<Format>,
}

fn parse_positive(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "a whole number of documents, at least 1; not {text:?}"
        )),
    }
}

fn parse_grade(text: &str) -> Result<i64, String> {
    match text.trim().parse::<i64>() {
        Ok(g) if g >= 1 => Ok(g),
        _ => Err(format!(
            "a relevance grade, a whole number of at least 1; not {text:?}"
        )),
    }
}

fn parse_base(text: &str) -> Result<u32, String> {
    match text.trim() {
        "10" => Ok(10),
        "2" => Ok(2),
        _ => Err(format!(
            "the nDCG discount's base is 10 (the 2009 overview's) or 2; not {text:?}"
        )),
    }
}

impl RetrievalArgs {
    /// The scoring settings of these arguments for `task`.
    pub fn settings(&self, task: Task) -> Settings {
        Settings {
            order: match self.order {
                OrderChoice::File => Order::File,
                OrderChoice::Score => Order::Score,
            },
            cutoff: self.cutoff,
            ndcg_base: self.ndcg_base,
            min_relevance: self.min_relevance,
            keep_headings: self.keep_headings,
            ranks: self.ranks.clone(),
            ..Settings::new(task)
        }
    }
}

/// The top-level entry point for `clefeval prior-art` and `clefeval
/// passage`; `task` says which.
pub fn run(args: &RetrievalArgs, task: Task) -> Result<Status, Fatal> {
    check_inputs("--qrels", std::slice::from_ref(&args.qrels))?;
    check_inputs("--groups", args.groups.as_slice())?;
    check_inputs("--run", &args.run)?;
    args.common.check_outputs()?;
    if args.keep_headings && task == Task::PriorArt {
        return Err(Fatal(
            "--keep-headings applies to passage runs only (clefeval passage)".into(),
        ));
    }
    let settings = args.settings(task);
    let evaluation = with_threads(args.threads, || {
        score(&settings, &args.qrels, args.groups.as_deref(), &args.run)
    })??;
    some_run_scored(&evaluation)?;
    if args.common.format != Format::Table && !args.common.quiet {
        for d in evaluation.runs.iter().flat_map(|r| &r.diagnostics) {
            eprintln!("{d}");
        }
    }
    if let Some(path) = &args.common.html {
        write_file(path, html::page(&evaluation))?;
    }
    emit(
        &render(&evaluation, args.common.format)?,
        args.common.output.as_deref(),
    )?;
    Ok(0)
}

/// Scores the runs of the `--run` paths (run files, or folders of them)
/// against the qrels and groups, in the order given.
pub(super) fn score(
    settings: &Settings,
    qrels: &Path,
    groups: Option<&Path>,
    paths: &[PathBuf],
) -> Result<Evaluation, Fatal> {
    let places = run_places(paths);
    let files: Vec<PathBuf> = places
        .iter()
        .flat_map(|p| match p {
            Place::Files(files) => files.as_slice(),
            Place::Rejected(_) => &[],
        })
        .cloned()
        .collect();
    let scored = evaluate(settings, qrels, groups, &files).map_err(|e| Fatal(e.to_string()))?;
    Ok(in_place(scored, places))
}

/// What one `--run` path gives: its run files, or a rejected run.
enum Place {
    Files(Vec<PathBuf>),
    Rejected(Box<RunResult>),
}

/// The runs of the `--run` paths, in order: a file is one run; a folder
/// gives each of its files in name order (hidden files and subfolders
/// skipped). A folder with no file, or one that cannot be listed, is a
/// rejected run in its place.
fn run_places(paths: &[PathBuf]) -> Vec<Place> {
    paths
        .iter()
        .map(|path| {
            let (files, problems) = collect_files(std::slice::from_ref(path), &[]);
            if !files.is_empty() {
                return Place::Files(files);
            }
            let mut diagnostics = problems;
            if diagnostics.is_empty() {
                diagnostics.push(Diagnostic::error(
                    path.display().to_string(),
                    None,
                    "holds no run file",
                ));
            }
            Place::Rejected(Box::new(rejected_run(path, diagnostics)))
        })
        .collect()
}

fn rejected_run(path: &Path, diagnostics: Vec<Diagnostic>) -> RunResult {
    RunResult {
        run: run_name(path),
        file: path.display().to_string(),
        diagnostics,
        scores: None,
    }
}

/// The evaluation of the run files with the rejected folders put back in
/// their places among the runs.
fn in_place(scored: Evaluation, places: Vec<Place>) -> Evaluation {
    let mut results = scored.runs.into_iter();
    let mut runs = Vec::new();
    for place in places {
        match place {
            Place::Files(files) => runs.extend(results.by_ref().take(files.len())),
            Place::Rejected(run) => runs.push(*run),
        }
    }
    Evaluation { runs, ..scored }
}

/// Exit 2, naming every run, when no run could be scored.
fn some_run_scored(evaluation: &Evaluation) -> Result<(), Fatal> {
    let scored = evaluation.runs.iter().filter(|r| r.scores.is_some());
    let rejected = evaluation.rejected_runs();
    every_run_rejected(scored.count(), &rejected).map_err(Fatal)
}

/// The output text in `format`.
fn render(evaluation: &Evaluation, format: Format) -> Result<String, Fatal> {
    Ok(match format {
        Format::Json => to_json(evaluation) + "\n",
        Format::Csv => evaluation.csv(),
        Format::Table => evaluation.table(),
        Format::Trec => {
            let mut out = Vec::new();
            write_trec(evaluation, &mut out)
                .map_err(|e| Fatal(format!("cannot write the output: {e}")))?;
            String::from_utf8_lossy(&out).into_owned()
        }
    })
}
