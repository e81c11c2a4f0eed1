//! `clefeval prior-art` and `clefeval passage`: text-retrieval runs scored
//! against qrels (docs/retrieval.md). Both commands take the same
//! arguments; the subcommand chooses the task. Parses the arguments, runs
//! [`crate::retrieval::evaluate`] and prints its result as a table per run
//! (and a ranking of the runs), CSV, JSON or trec_eval's line layout; with
//! `--compare` and `--correlate`, also the comparisons of the runs and the
//! correlations of their means ([`Between`]). With `--shard K/N`, only the
//! topics of that part, and the comparisons are left to `clefeval merge`.

use super::{
    CommonArgs, Fatal, Status, Written, check_inputs, digests, emit, with_threads, write_file,
};
use crate::diagnostics::{Diagnostic, every_run_rejected};
use crate::inputs::{InputFiles, Shard, collect_files};
use crate::report::{progress_bar, show_progress, to_json};
pub(super) use crate::retrieval::between::Between;
use crate::retrieval::between::WithBetween;
use crate::retrieval::input::run_name;
use crate::retrieval::report::Asked;
use crate::retrieval::{
    Evaluation, Order, RunResult, Settings, Task, evaluate_shard, html, measure_list, write_trec,
};
use clap::{Args, ValueEnum};
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};

/// The randomization test's permutations unless `--permutations` says
/// otherwise.
pub const PERMUTATIONS: usize = 10_000;

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
    /// Test every pair of scored runs for a difference in this measure
    /// (randomization test and paired t-test, Holm-corrected); repeat for
    /// one comparison per measure.
    #[arg(long = "compare", value_name = "MEASURE")]
    pub compare: Vec<String>,
    /// Permutations of the randomization test.
    #[arg(long, value_name = "N", default_value_t = PERMUTATIONS, value_parser = parse_permutations)]
    pub permutations: usize,
    /// Seed of the randomization test's generator.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Kendall's tau-b and Spearman's rho of the runs' means under two
    /// views, each a topic group (`all`: MAP@N over it) or a measure;
    /// repeatable.
    #[arg(long, value_name = "A,B", value_parser = parse_views)]
    pub correlate: Vec<(String, String)>,
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub common: CommonArgs<Format>,
}

fn parse_permutations(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "a whole number of permutations, at least 1; not {text:?}"
        )),
    }
}

/// `A,B`: two views, each a topic group or a measure, neither empty.
fn parse_views(text: &str) -> Result<(String, String), String> {
    match text.split_once(',') {
        Some((a, b)) if !a.trim().is_empty() && !b.trim().is_empty() && !b.contains(',') => {
            Ok((a.trim().to_string(), b.trim().to_string()))
        }
        _ => Err(format!(
            "two views A,B, each a topic group (or `all`) or a measure; not {text:?}"
        )),
    }
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
    /// What `--compare` and `--correlate` ask for.
    pub fn asked(&self) -> Asked {
        Asked {
            compare: self.compare.clone(),
            permutations: self.permutations,
            seed: self.seed,
            correlate: self.correlate.clone(),
        }
    }

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
    known_measures(&args.compare, &settings)?;
    let progress = progress_bar(show_progress(args.common.quiet), "runs");
    let (evaluation, between) = with_threads(args.threads, || {
        let mut evaluation = score_with_progress(
            &settings,
            &args.qrels,
            args.groups.as_deref(),
            &args.run,
            args.common.shard,
            &progress,
        )?;
        some_run_scored(&evaluation)?;
        evaluation.inputs = input_digests(&args.qrels, args.groups.as_deref(), &args.run);
        let between = between(&mut evaluation, args.asked()).map_err(Fatal)?;
        Ok::<_, Fatal>((evaluation, between))
    })??;
    let format = args.common.format;
    if format != Format::Table && !args.common.quiet {
        for d in evaluation.runs.iter().flat_map(|r| &r.diagnostics) {
            eprintln!("{d}");
        }
        // CSV and trec_eval's layout have no place for them.
        if matches!(format, Format::Csv | Format::Trec) {
            eprint!("{}", between.tables());
        }
    }
    let mut written = Written::default();
    if let Some(path) = &args.common.html {
        write_file(path, html::page_with(&evaluation, &between.comparisons))?;
        written.file("the HTML page", path);
    }
    emit(
        &render(&evaluation, &between, format)?,
        args.common.output.as_deref(),
    )?;
    written.output(&format, args.common.output.as_deref());
    written.close(args.common.quiet);
    Ok(0)
}

/// The comparisons and correlations `asked` of a whole evaluation. A part
/// records what was asked and makes none: the tests need every topic, so
/// the merge makes them.
pub fn between(evaluation: &mut Evaluation, asked: Asked) -> Result<Between, String> {
    match &mut evaluation.shard {
        Some(part) => {
            part.asked = asked;
            Ok(Between::default())
        }
        None => Between::of(evaluation, &asked),
    }
}

/// Exit 2 before any scoring when a `--compare` measure is not one the
/// settings give.
fn known_measures(asked: &[String], settings: &Settings) -> Result<(), Fatal> {
    let known: Vec<String> = (measure_list(settings).iter())
        .map(|m| m.name(settings))
        .collect();
    match asked.iter().find(|m| !known.contains(m)) {
        Some(m) => Err(Fatal(format!(
            "--compare: unknown measure `{m}` (known: {})",
            known.join(", ")
        ))),
        None => Ok(()),
    }
}

/// Scores the runs of the `--run` paths (run files, or folders of them)
/// against the qrels and groups, in the order given.
pub fn score(
    settings: &Settings,
    qrels: &Path,
    groups: Option<&Path>,
    paths: &[PathBuf],
) -> Result<Evaluation, Fatal> {
    score_shard(settings, qrels, groups, paths, None)
}

/// [`score`], with `shard` only the topics of that part.
pub fn score_shard(
    settings: &Settings,
    qrels: &Path,
    groups: Option<&Path>,
    paths: &[PathBuf],
    shard: Option<Shard>,
) -> Result<Evaluation, Fatal> {
    let hidden = ProgressBar::hidden();
    score_with_progress(settings, qrels, groups, paths, shard, &hidden)
}

/// [`score_shard`], the run files counted on `progress`
/// ([`evaluate_shard`]).
pub fn score_with_progress(
    settings: &Settings,
    qrels: &Path,
    groups: Option<&Path>,
    paths: &[PathBuf],
    shard: Option<Shard>,
    progress: &ProgressBar,
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
    let scored = evaluate_shard(settings, qrels, groups, &files, shard, progress)
        .map_err(|e| Fatal(e.to_string()))?;
    Ok(in_place(scored, places))
}

/// The digests of the input files of these commands: the qrels, the
/// groups file and every run file of the `--run` paths.
pub fn input_digests(qrels: &Path, groups: Option<&Path>, runs: &[PathBuf]) -> Vec<InputFiles> {
    let qrels = [qrels.to_path_buf()];
    let groups: Vec<PathBuf> = groups.map(Path::to_path_buf).into_iter().collect();
    digests(&[
        ("qrels", &qrels, &[], None),
        ("groups", &groups, &[], None),
        ("run", runs, &[], None),
    ])
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

/// The output text in `format`: the table and JSON carry the comparisons
/// and correlations, CSV and trec_eval's layout do not.
fn render(evaluation: &Evaluation, between: &Between, format: Format) -> Result<String, Fatal> {
    Ok(match format {
        Format::Json => {
            to_json(&WithBetween {
                evaluation,
                between,
            }) + "\n"
        }
        Format::Csv => evaluation.csv(),
        Format::Table => evaluation.table() + &between.tables(),
        Format::Trec => {
            let mut out = Vec::new();
            write_trec(evaluation, &mut out)
                .map_err(|e| Fatal(format!("cannot write the output: {e}")))?;
            String::from_utf8_lossy(&out).into_owned()
        }
    })
}
