//! `clefeval prior-art` and `clefeval passage`: text-retrieval runs scored
//! against qrels (docs/retrieval.md). Both commands take the same
//! arguments; the subcommand chooses the task. Parses the arguments, runs
//! [`crate::retrieval::evaluate`] and prints its result as a table per run
//! (and a ranking of the runs), CSV, JSON or trec_eval's line layout; with
//! `--compare` and `--correlate`, also the comparisons of the runs and the
//! correlations of their means ([`Between`]). With `--shard K/N`, only the
//! topics of that part, and the comparisons are left to `clefeval merge`.

use super::{
    CommonArgs, Fatal, Status, Written, check_inputs, emit, given_runs, with_threads, write_file,
};
use crate::inputs::Run;
use crate::report::{progress_bar, show_progress, to_json};
use crate::retrieval::between::{Between, WithBetween};
use crate::retrieval::report::Asked;
use crate::retrieval::runs::{input_digests, score_with_progress, some_run_scored};
use crate::retrieval::settings::{PERMUTATIONS, Requested};
use crate::retrieval::{Evaluation, Settings, Task, html, write_trec};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

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
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub cutoff: usize,
    /// P@k and R@k at these ranks too, after 5, 10, 20 and 100.
    #[arg(long, value_name = "N,...", value_delimiter = ',')]
    pub ranks: Vec<usize>,
    /// The order of a topic's lines.
    #[arg(long, value_enum, default_value_t = OrderChoice::File)]
    pub order: OrderChoice,
    /// Only qrels entries of this grade or higher are relevant.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_relevance: i64,
    /// The base of the nDCG discount: 10 (the 2009 overview's) or 2.
    #[arg(long, value_name = "2|10", default_value_t = 10)]
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
    #[arg(long, value_name = "N", default_value_t = PERMUTATIONS)]
    pub permutations: usize,
    /// Seed of the randomization test's generator.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
    /// Kendall's tau-b and Spearman's rho of the runs' means under two
    /// views, each a topic group (`all`: MAP@N over it) or a measure;
    /// repeatable.
    #[arg(long, value_name = "NAME,NAME", value_parser = parse_views)]
    pub correlate: Vec<(String, String)>,
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub common: CommonArgs<Format>,
}

/// `A,B`: two views split at the one comma (what each may be is the
/// settings' rule).
fn parse_views(text: &str) -> Result<(String, String), String> {
    match text.split_once(',') {
        Some((a, b)) if !b.contains(',') => Ok((a.trim().to_string(), b.trim().to_string())),
        _ => Err(format!(
            "two views A,B, each a topic group (or `all`) or a measure; not {text:?}"
        )),
    }
}

impl RetrievalArgs {
    /// The settings these arguments give for `task`, checked
    /// ([`Requested::check`]).
    pub fn settings(&self, task: Task) -> Result<(Settings, Asked), Fatal> {
        let given = Requested {
            order: match self.order {
                OrderChoice::File => "file",
                OrderChoice::Score => "score",
            }
            .to_string(),
            cutoff: self.cutoff,
            ranks: self.ranks.clone(),
            min_relevance: self.min_relevance,
            ndcg_base: self.ndcg_base,
            keep_headings: self.keep_headings,
            compare: self.compare.clone(),
            permutations: self.permutations,
            seed: self.seed,
            correlate: self.correlate.clone(),
        };
        given.check(task).map_err(|e| Fatal(e.flag()))
    }
}

/// The top-level entry point for `clefeval prior-art` and `clefeval
/// passage`; `task` says which.
pub fn run(args: &RetrievalArgs, task: Task) -> Result<Status, Fatal> {
    check_inputs("--qrels", std::slice::from_ref(&args.qrels))?;
    check_inputs("--groups", args.groups.as_slice())?;
    let runs = given_runs(&args.run)?;
    args.common.check_outputs()?;
    let (settings, asked) = args.settings(task)?;
    let progress = progress_bar(show_progress(args.common.quiet), "runs");
    let (evaluation, between) = with_threads(args.threads, || {
        let mut evaluation = score_with_progress(
            &settings,
            &args.qrels,
            args.groups.as_deref(),
            &runs,
            args.common.shard,
            &progress,
        )
        .map_err(|e| Fatal(e.to_string()))?;
        some_run_scored(&evaluation).map_err(Fatal)?;
        evaluation.inputs = input_digests(&args.qrels, args.groups.as_deref(), &Run::paths(&runs));
        let between = Between::asked_of(&mut evaluation, asked).map_err(|e| Fatal(e.flag()))?;
        Ok::<_, Fatal>((evaluation, between))
    })??;
    let format = args.common.format;
    if format != Format::Table && !args.common.quiet {
        for d in evaluation.runs.iter().flat_map(|r| &r.diagnostics) {
            eprintln!("{d}");
        }
        for file in &evaluation.skipped {
            eprintln!("{file}");
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
