//! One evaluation from files: read the gold flowcharts, pair every run's
//! files with them by stem, score every (run, topic) pair in parallel at
//! the chosen levels, and gather the scores into a [`Report`]. Results are
//! collected in (run, topic) order, so they do not depend on the thread
//! count.

use super::html;
use super::mcs::{Level, Settings};
use super::report::{Report, ReportSettings};
use super::score::{self, RunScore, TopicScore, TopicStatus};
use super::{Flowchart, ParseOptions, read_file};
use crate::diagnostics::{Diagnostic, RejectedRun, every_run_rejected};
use crate::inputs::{Pair, collect_files, none_in, pair_by_stem, run_names, run_rejection, stem};
use crate::report::progress_bar;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Flowchart files are `.txt`.
pub const EXTENSIONS: [&str; 1] = ["txt"];

/// What to evaluate.
#[derive(Clone, Debug)]
pub struct Options {
    pub gold: Vec<PathBuf>,
    pub runs: Vec<PathBuf>,
    /// The levels to score.
    pub levels: Vec<Level>,
    pub settings: Settings,
    pub parse: ParseOptions,
    /// Keep the submitted flowcharts (for the HTML page's drawings); else
    /// each is dropped once scored, so memory does not grow with the pairs.
    pub keep: bool,
    /// Draw a progress bar on stderr while the pairs are scored.
    pub progress: bool,
}

/// Gold data or a run path that cannot be scored: the command cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError(pub String);

/// What [`evaluate`] found: the report, the notes for stderr (gold
/// warnings, files that pair with nothing) and the flowcharts read (for
/// the drawings of the HTML page).
#[derive(Debug)]
pub struct Evaluation {
    pub report: Report,
    pub notes: Vec<Diagnostic>,
    pub gold: BTreeMap<String, Flowchart>,
    /// Per run: its accepted flowcharts by topic (empty unless `keep`).
    pub submitted: Vec<BTreeMap<String, Flowchart>>,
}

impl Evaluation {
    /// What the HTML page is drawn from.
    pub fn html_input(&self) -> html::Input<'_> {
        html::Input {
            runs: &self.report.runs,
            rejected: &self.report.rejected_runs,
            levels: &self.report.settings.levels,
            settings: &self.report.settings.settings,
            gold: &self.gold,
            submitted: &self.submitted,
        }
    }
}

/// Reads the gold files (any error in them is an [`InputError`]), then
/// scores every run: read the gold, pair each run's files with it (a run
/// with nothing to score is rejected), score the pairs, gather them by run.
pub fn evaluate(options: &Options) -> Result<Evaluation, InputError> {
    let Gold {
        files: gold_files,
        flowcharts: gold,
        mut notes,
    } = read_gold(options)?;
    let paired = pair_runs(options, &gold_files, &mut notes);
    every_run_rejected(paired.pairs.len(), &paired.rejected).map_err(InputError)?;
    let scored = score_pairs(options, &gold, &paired.pairs);
    let (runs, submitted) = gather_runs(options, paired.names, &paired.pairs, scored);
    let report = Report {
        task: "flowchart",
        version: crate::report::VERSION,
        settings: ReportSettings {
            levels: options.levels.clone(),
            settings: options.settings.clone(),
            strict: options.parse.strict,
        },
        runs,
        rejected_runs: paired.rejected,
    };
    Ok(Evaluation {
        report,
        notes,
        gold,
        submitted,
    })
}

/// The gold data read: the files, their flowcharts by topic, and the notes
/// for stderr (warnings of the gold files).
struct Gold {
    files: Vec<PathBuf>,
    flowcharts: BTreeMap<String, Flowchart>,
    notes: Vec<Diagnostic>,
}

/// Reads the gold files; a gold file with an error, or none at all, is an
/// [`InputError`].
fn read_gold(options: &Options) -> Result<Gold, InputError> {
    let (gold_files, mut notes) = collect_files(&options.gold, &EXTENSIONS);
    if let Some(bad) = notes.iter().find(|d| d.is_error()) {
        return Err(InputError(format!("gold data: {bad}")));
    }
    if gold_files.is_empty() {
        return Err(InputError(none_in(
            "--gold",
            &options.gold,
            "flowchart files (*.txt)",
        )));
    }
    let gold: BTreeMap<String, Flowchart> = gold_files
        .par_iter()
        .map(|path| (stem(path), read_file(path, &options.parse)))
        .collect::<Vec<_>>()
        .into_iter()
        .map(|(stem, parsed)| {
            if parsed.is_rejected() {
                let errors: Vec<String> = parsed
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .map(ToString::to_string)
                    .collect();
                return Err(InputError(format!(
                    "unreadable gold file:\n{}",
                    errors.join("\n")
                )));
            }
            notes.extend(parsed.diagnostics);
            Ok((stem, parsed.flowchart))
        })
        .collect::<Result<_, InputError>>()?;
    Ok(Gold {
        files: gold_files,
        flowcharts: gold,
        notes,
    })
}

/// The runs paired with the gold topics: for each run scored, its name and
/// its (topic, file) pairs; the runs rejected with their reasons.
struct PairedRuns {
    names: Vec<String>,
    pairs: Vec<Vec<Pair>>,
    rejected: Vec<RejectedRun>,
}

/// Pairs each run's files with the gold files by stem; the run's problems
/// and files that pair with nothing go to `notes`.
fn pair_runs(options: &Options, gold_files: &[PathBuf], notes: &mut Vec<Diagnostic>) -> PairedRuns {
    let mut paired = PairedRuns {
        names: Vec::new(),
        pairs: Vec::new(),
        rejected: Vec::new(),
    };
    for (run, name) in options.runs.iter().zip(run_names(&options.runs)) {
        let (files, problems) = collect_files(std::slice::from_ref(run), &EXTENSIONS);
        let (pairs, strays) = pair_by_stem(gold_files, &files);
        let matched = pairs.iter().filter(|p| p.run.is_some()).count();
        let kind = "flowchart files (*.txt)";
        if let Some(reason) = run_rejection(run, files.len(), matched, kind, "topic") {
            paired
                .rejected
                .push(RejectedRun::new(name, reason, &problems));
            continue;
        }
        notes.extend(problems);
        notes.extend(strays);
        paired.pairs.push(pairs);
        paired.names.push(name);
    }
    paired
}

/// Scores every (run, topic) pair in parallel, in input order (runs, then
/// topics): each score with the submitted flowchart when it is kept for
/// the page.
fn score_pairs(
    options: &Options,
    gold: &BTreeMap<String, Flowchart>,
    pairs: &[Vec<Pair>],
) -> Vec<(TopicScore, Option<Flowchart>)> {
    let progress = progress_bar(options.progress, "flowcharts");
    progress.set_length(pairs.iter().map(Vec::len).sum::<usize>() as u64);
    let empty = Flowchart::default();
    // Every paired stem is a gold stem.
    let tasks: Vec<_> = pairs
        .iter()
        .flatten()
        .map(|pair| (pair, gold.get(&pair.stem).unwrap_or(&empty)))
        .collect();
    // Largest gold first, one task at a time: the long pairs start early
    // and the threads finish together. Results go back to input order.
    let mut order: Vec<(usize, &(_, _))> = tasks.iter().enumerate().collect();
    order.sort_by_key(|&(i, (_, gold))| (std::cmp::Reverse(gold.size()), i));
    let mut scored: Vec<(usize, (TopicScore, Option<Flowchart>))> = order
        .par_iter()
        .with_max_len(1)
        .map(|&(i, &(pair, gold))| {
            let (topic, read) = score_topic(&pair.stem, gold, pair.run.as_deref(), options);
            progress.inc(1);
            (i, (topic, read.filter(|_| options.keep)))
        })
        .collect();
    progress.finish_and_clear();
    scored.sort_by_key(|&(i, _)| i);
    scored.into_iter().map(|(_, s)| s).collect()
}

/// The scores gathered by run (with each run's summary), and per run its
/// kept flowcharts by topic.
fn gather_runs(
    options: &Options,
    names: Vec<String>,
    pairs: &[Vec<Pair>],
    scored: Vec<(TopicScore, Option<Flowchart>)>,
) -> (Vec<RunScore>, Vec<BTreeMap<String, Flowchart>>) {
    let mut scored = scored.into_iter();
    let mut submitted = Vec::with_capacity(pairs.len());
    let runs = names
        .into_iter()
        .zip(pairs)
        .map(|(run, p)| {
            let (topics, read): (Vec<TopicScore>, Vec<Option<Flowchart>>) =
                scored.by_ref().take(p.len()).unzip();
            submitted.push(
                topics
                    .iter()
                    .zip(read)
                    .filter_map(|(t, fc)| Some((t.topic.clone(), fc?)))
                    .collect(),
            );
            RunScore {
                run,
                summary: score::summarize(&topics, &options.levels),
                topics,
            }
        })
        .collect();
    (runs, submitted)
}

/// Scores one topic; a missing or rejected submission is distance 1.
/// Returns the submitted flowchart too when it was accepted.
fn score_topic(
    topic: &str,
    gold: &Flowchart,
    run: Option<&Path>,
    options: &Options,
) -> (TopicScore, Option<Flowchart>) {
    let levels = &options.levels;
    let Some(path) = run else {
        let missing = TopicScore {
            topic: topic.to_string(),
            status: TopicStatus::Missing,
            diagnostics: Vec::new(),
            gold_size: gold.size(),
            run_size: None,
            levels: score::missing_levels(levels),
        };
        return (missing, None);
    };
    let parsed = read_file(path, &options.parse);
    let diagnostics = parsed.diagnostics.clone();
    if parsed.is_rejected() {
        let rejected = TopicScore {
            topic: topic.to_string(),
            status: TopicStatus::Rejected,
            diagnostics,
            gold_size: gold.size(),
            run_size: None,
            levels: score::missing_levels(levels),
        };
        return (rejected, None);
    }
    let scored = TopicScore {
        topic: topic.to_string(),
        status: TopicStatus::Ok,
        diagnostics,
        gold_size: gold.size(),
        run_size: Some(parsed.flowchart.size()),
        levels: score::score_pair(gold, &parsed.flowchart, levels, &options.settings),
    };
    (scored, Some(parsed.flowchart))
}
