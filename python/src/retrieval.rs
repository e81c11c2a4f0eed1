//! Text retrieval: runs scored as `clefeval prior-art` and `clefeval
//! passage` score them, with the comparisons and correlations between runs
//! their `--compare` and `--correlate` add.

use crate::{Failure, check_paths, with_threads};
use clefeval::cli::digests;
use clefeval::diagnostics::every_run_rejected;
use clefeval::retrieval::correlate::{Correlation, correlate};
use clefeval::retrieval::groups::read_groups;
use clefeval::retrieval::significance::{Comparison, compare_runs};
use clefeval::retrieval::{Evaluation, Order, Settings, Task, measure_list, read_qrels};
use pyo3::prelude::*;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The options of the two commands, a dict from Python with their names.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct RetrievalArgs {
    cutoff: usize,
    ranks: Vec<usize>,
    order: String,
    min_relevance: i64,
    ndcg_base: u32,
    keep_headings: bool,
    compare: Vec<String>,
    permutations: usize,
    seed: u64,
    correlate: Vec<(String, String)>,
    shard: Option<String>,
}

impl RetrievalArgs {
    /// The scoring settings for `task`, checked as the command line checks
    /// its options.
    fn settings(&self, task: Task) -> Result<Settings, Failure> {
        let order = match self.order.as_str() {
            "file" => Order::File,
            "score" => Order::Score,
            other => {
                return Err(Failure::Value(format!(
                    "order is \"file\" or \"score\", not {other:?}"
                )));
            }
        };
        let checks = [
            (self.cutoff == 0, "cutoff must be at least 1"),
            (self.ranks.contains(&0), "ranks must be at least 1"),
            (self.min_relevance < 1, "min_relevance must be at least 1"),
            (
                !matches!(self.ndcg_base, 2 | 10),
                "ndcg_base is 10 (the 2009 overview's) or 2",
            ),
            (self.permutations == 0, "permutations must be at least 1"),
            (
                self.keep_headings && task == Task::PriorArt,
                "keep_headings applies to passage runs only",
            ),
        ];
        if let Some((_, message)) = checks.iter().find(|(bad, _)| *bad) {
            return Err(Failure::Value((*message).to_string()));
        }
        let settings = Settings {
            order,
            cutoff: self.cutoff,
            ndcg_base: self.ndcg_base,
            min_relevance: self.min_relevance,
            keep_headings: self.keep_headings,
            ranks: self.ranks.clone(),
            ..Settings::new(task)
        };
        let known: Vec<String> = (measure_list(&settings).iter())
            .map(|m| m.name(&settings))
            .collect();
        if let Some(m) = self.compare.iter().find(|m| !known.contains(m)) {
            return Err(Failure::Value(format!(
                "compare: unknown measure `{m}` (known: {})",
                known.join(", ")
            )));
        }
        Ok(settings)
    }
}

/// The JSON `--format json` writes: the evaluation, then the comparisons
/// and correlations asked for (each absent when none was).
#[derive(Serialize)]
struct WithBetween<'a> {
    #[serde(flatten)]
    evaluation: &'a Evaluation,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    comparisons: Vec<Comparison>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    correlations: Vec<Correlation>,
}

/// An evaluation's error `message`, located at the error of the qrels or
/// the groups file (read again, only on this path), if one has an error.
fn gold_failure(
    message: String,
    settings: &Settings,
    qrels: &Path,
    groups: Option<&Path>,
) -> Failure {
    let error = read_qrels(settings, qrels)
        .err()
        .map(|e| e.0)
        .or_else(|| groups.and_then(|g| read_groups(g).err()));
    Failure::located(message, error.as_slice())
}

/// Scores runs as `clefeval prior-art` (`task` `"prior-art"`) or
/// `clefeval passage` (`"passage"`) does; the JSON it writes. A `shard`
/// is refused as the commands refuse `--shard`: these runs are scored
/// whole.
#[pyfunction]
#[pyo3(signature = (task, qrels, runs, groups, args, threads))]
pub fn retrieval(
    py: Python<'_>,
    task: &str,
    qrels: PathBuf,
    runs: Vec<PathBuf>,
    groups: Option<PathBuf>,
    args: RetrievalArgs,
    threads: Option<usize>,
) -> PyResult<String> {
    let task = match task {
        "prior-art" => Task::PriorArt,
        "passage" => Task::Passage,
        other => return Err(Failure::Value(format!("unknown task {other:?}")).into()),
    };
    if crate::shard(args.shard.as_deref())?.is_some() {
        return Err(Failure::Value(format!(
            "shard: {} runs are not scored in parts; score them whole (they are read once, topic by topic)",
            task.name()
        ))
        .into());
    }
    let settings = args.settings(task)?;
    let done = py.detach(|| {
        check_paths(std::slice::from_ref(&qrels))?;
        check_paths(groups.as_slice())?;
        check_paths(&runs)?;
        with_threads(threads, || {
            let mut evaluation =
                clefeval::cli::retrieval::score(&settings, &qrels, groups.as_deref(), &runs)
                    .map_err(|e| gold_failure(e.0, &settings, &qrels, groups.as_deref()))?;
            let scored = evaluation.runs.iter().filter(|r| r.scores.is_some());
            every_run_rejected(scored.count(), &evaluation.rejected_runs())
                .map_err(Failure::input)?;
            // The input files `clefeval prior-art` and `passage` digest.
            evaluation.inputs = digests(&[
                ("qrels", std::slice::from_ref(&qrels), &[], None),
                ("groups", groups.as_slice(), &[], None),
                ("run", &runs, &[], None),
            ]);
            let comparisons = (args.compare.iter())
                .map(|m| {
                    compare_runs(&evaluation, m, args.permutations, args.seed)
                        .map_err(|e| Failure::Value(format!("compare {m}: {e}")))
                })
                .collect::<Result<_, _>>()?;
            let correlations = (args.correlate.iter())
                .map(|(a, b)| {
                    correlate(&evaluation, a, b)
                        .map_err(|e| Failure::Value(format!("correlate {a},{b}: {e}")))
                })
                .collect::<Result<_, _>>()?;
            Ok(clefeval::report::to_json(&WithBetween {
                evaluation: &evaluation,
                comparisons,
                correlations,
            }))
        })
    })?;
    Ok(done)
}
