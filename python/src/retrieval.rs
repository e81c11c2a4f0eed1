//! Text retrieval: runs scored as `clefeval prior-art` and `clefeval
//! passage` score them, with the comparisons and correlations between runs
//! their `--compare` and `--correlate` add.

use crate::{Failure, check_paths, with_threads};
use clefeval::diagnostics::every_run_rejected;
use clefeval::retrieval::between::{Between, WithBetween};
use clefeval::retrieval::groups::read_groups;
use clefeval::retrieval::runs::{input_digests, score_shard};
use clefeval::retrieval::settings::Requested;
use clefeval::retrieval::{Settings, Task, read_qrels};
use pyo3::prelude::*;
use std::path::{Path, PathBuf};

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
#[pyo3(signature = (task, qrels, runs, groups, settings, threads, shard))]
#[allow(clippy::too_many_arguments)] // one each of the Python function's arguments
pub fn retrieval(
    py: Python<'_>,
    task: &str,
    qrels: PathBuf,
    runs: Vec<(Option<String>, PathBuf)>,
    groups: Option<PathBuf>,
    settings: &str,
    threads: Option<usize>,
    shard: Option<&str>,
) -> PyResult<String> {
    let task = match task {
        "prior-art" => Task::PriorArt,
        "passage" => Task::Passage,
        other => return Err(Failure::Value(format!("unknown task {other:?}")).into()),
    };
    let shard = crate::shard(shard)?;
    let (settings, asked) =
        (crate::settings::<Requested>(settings)?.check(task)).map_err(Failure::from)?;
    let done = py.detach(|| {
        check_paths(std::slice::from_ref(&qrels))?;
        check_paths(groups.as_slice())?;
        let (runs, run_paths) = crate::runs(runs);
        check_paths(&run_paths)?;
        with_threads(threads, || {
            let mut evaluation = score_shard(&settings, &qrels, groups.as_deref(), &runs, shard)
                .map_err(|e| gold_failure(e.to_string(), &settings, &qrels, groups.as_deref()))?;
            let scored = evaluation.runs.iter().filter(|r| r.scores.is_some());
            every_run_rejected(scored.count(), &evaluation.rejected_runs())
                .map_err(Failure::input)?;
            evaluation.inputs = input_digests(&qrels, groups.as_deref(), &run_paths);
            // The library names the command's options: `--compare`, `--correlate`.
            let between = Between::asked_of(&mut evaluation, asked)
                .map_err(|e| Failure::Value(e.trim_start_matches("--").to_string()))?;
            Ok(clefeval::report::to_json(&WithBetween {
                evaluation: &evaluation,
                between: &between,
            }))
        })
    })?;
    Ok(done)
}
