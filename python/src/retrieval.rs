//! Text retrieval: runs scored as `clefeval prior-art` and `clefeval
//! passage` score them, with the comparisons and correlations between runs
//! their `--compare` and `--correlate` add, through the library's table of
//! tasks.

use clefeval::task::Request;
use pyo3::prelude::*;
use std::path::PathBuf;

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
    let request = Request {
        qrels: Some(qrels),
        groups,
        ..crate::request(runs, settings, shard, threads)?
    };
    crate::evaluate(py, task, request)
}
