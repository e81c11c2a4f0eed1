//! Text retrieval: runs scored as `clefeval prior-art` and `clefeval
//! passage` score them, with the comparisons and correlations between runs
//! their `--compare` and `--correlate` add.

use crate::{Failure, check_paths, with_threads};
use clefeval::cli::retrieval::{between, input_digests, score_shard};
use clefeval::diagnostics::every_run_rejected;
use clefeval::retrieval::between::WithBetween;
use clefeval::retrieval::groups::read_groups;
use clefeval::retrieval::report::Asked;
use clefeval::retrieval::{Order, Settings, Task, measure_list, read_qrels};
use pyo3::prelude::*;
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

    /// What `compare` and `correlate` ask for.
    fn asked(&self) -> Asked {
        Asked {
            compare: self.compare.clone(),
            permutations: self.permutations,
            seed: self.seed,
            correlate: self.correlate.clone(),
        }
    }
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
/// `clefeval passage` (`"passage"`) does; the JSON it writes. With a
/// `shard`, only the topics of that part, as `--shard K/N`: the part
/// records the comparisons and correlations asked for, and the merge makes
/// them from every topic.
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
    let shard = crate::shard(args.shard.as_deref())?;
    let settings = args.settings(task)?;
    let done = py.detach(|| {
        check_paths(std::slice::from_ref(&qrels))?;
        check_paths(groups.as_slice())?;
        check_paths(&runs)?;
        with_threads(threads, || {
            let mut evaluation = score_shard(&settings, &qrels, groups.as_deref(), &runs, shard)
                .map_err(|e| gold_failure(e.0, &settings, &qrels, groups.as_deref()))?;
            let scored = evaluation.runs.iter().filter(|r| r.scores.is_some());
            every_run_rejected(scored.count(), &evaluation.rejected_runs())
                .map_err(Failure::input)?;
            evaluation.inputs = input_digests(&qrels, groups.as_deref(), &runs);
            // The library names the command's options: `--compare`, `--correlate`.
            let between = between(&mut evaluation, args.asked())
                .map_err(|e| Failure::Value(e.trim_start_matches("--").to_string()))?;
            Ok(clefeval::report::to_json(&WithBetween {
                evaluation: &evaluation,
                between: &between,
            }))
        })
    })?;
    Ok(done)
}
