//! Detection: COCO files, or the same data as Python lists and dicts
//! (written as JSON by the Python side), scored as `clefeval detection`
//! scores them.

use crate::{Failure, Source, check_paths};
use clefeval::detection::evaluate::{Given, Input, RunInput, evaluate_given};
use clefeval::inputs::{Shard, run_name};
use clefeval::task::{OptionError, TaskError};
use pyo3::prelude::*;

/// One input: a path, or JSON bytes named `name` in messages.
fn input(source: Source, name: &str) -> Result<Input, Failure> {
    match source {
        Source::Path(path) => {
            check_paths(std::slice::from_ref(&path))?;
            Ok(Input::File(path))
        }
        Source::Text(bytes) => Ok(Input::Bytes {
            name: name.to_string(),
            bytes,
        }),
    }
}

/// Scores runs as `clefeval detection` does: `gold` a path or the JSON
/// bytes of a ground truth, each run `(name, path or bytes)` (a run named
/// `None` is named by its path), `settings` the JSON of the options.
#[pyfunction]
#[pyo3(signature = (gold, runs, settings, threads, shard))]
pub fn detection(
    py: Python<'_>,
    gold: &Bound<'_, PyAny>,
    runs: Vec<(Option<String>, Bound<'_, PyAny>)>,
    settings: &str,
    threads: Option<usize>,
    shard: Option<&str>,
) -> PyResult<String> {
    let gold = input(Source::extract(gold)?, "<gold>")?;
    let mut given_runs = Vec::with_capacity(runs.len());
    for (n, (name, run)) in runs.iter().enumerate() {
        let source = Source::extract(run)?;
        let name = match (name, &source) {
            (Some(name), _) => name.clone(),
            (None, Source::Path(path)) => run_name(path),
            (None, Source::Text(_)) => format!("run {}", n + 1),
        };
        let label = format!("<{name}>");
        given_runs.push(RunInput {
            name,
            input: input(source, &label)?,
        });
    }
    let settings: serde_json::Value =
        serde_json::from_str(settings).map_err(|e| Failure::Value(format!("settings: {e}")))?;
    let shard = (shard.map(Shard::parse).transpose())
        .map_err(|e| Failure::from(OptionError::new("shard", e)))?;
    let given = Given {
        gold,
        runs: given_runs,
        settings: &settings,
        shard,
        threads,
    };
    let done: Result<String, TaskError> = py.detach(|| evaluate_given(given));
    Ok(done.map_err(Failure::from)?)
}
