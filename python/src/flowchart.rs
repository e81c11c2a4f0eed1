//! Flowcharts: one pair from two texts or paths, and folders as
//! `clefeval flowchart` scores them.

use crate::{Failure, Source, check_paths, json};
use clefeval::diagnostics::Diagnostic;
use clefeval::flowchart::formats::{self, Format};
use clefeval::flowchart::mcs::{Level, Settings};
use clefeval::flowchart::measures::{Triplets, triplet_scores};
use clefeval::flowchart::score::{Levels, score_pair};
use clefeval::flowchart::settings::{ReportSettings, Requested};
use clefeval::flowchart::{Flowchart, ParseOptions, parse, read_file, read_text};
use clefeval::task::Request;
use pyo3::prelude::*;
use serde::Serialize;
use std::path::PathBuf;

/// The switches of a flowchart evaluation, the JSON of a dict from Python
/// with the names of `clefeval flowchart`'s options, checked by the
/// library's one constructor.
fn switches(json: &str) -> Result<ReportSettings, Failure> {
    Ok(ReportSettings::new(&crate::settings::<Requested>(json)?)?)
}

/// One pair's result: the fields of a topic in the JSON of `clefeval
/// flowchart`, the diagnostics (warnings) of both sides.
#[derive(Serialize)]
struct PairScore {
    #[serde(flatten, serialize_with = "clefeval::diagnostics::both_lists")]
    diagnostics: Vec<Diagnostic>,
    gold_size: usize,
    run_size: usize,
    triplets: Triplets,
    levels: Levels,
}

/// Reads one side, in `format` when one is given, else in the format its
/// name or bytes claim; a file with an error is an `InputError` at its
/// first error.
fn read_side(
    source: &Source,
    name: &str,
    format: Option<&Format>,
    options: &ParseOptions,
) -> Result<Parsed, Failure> {
    let parsed = match (source, format) {
        (Source::Text(bytes), Some(format)) => formats::read_as(format, bytes, name, options),
        (Source::Text(bytes), None) => read_text(bytes, name, options),
        (Source::Path(path), format) => {
            check_paths(std::slice::from_ref(path))?;
            match format {
                Some(format) => formats::read_file_as(path, format, options),
                None => read_file(path, options),
            }
        }
    };
    if let Some(failure) = Failure::first_error(&parsed.diagnostics) {
        return Err(failure);
    }
    Ok(Parsed {
        flowchart: parsed.flowchart,
        diagnostics: parsed.diagnostics,
    })
}

struct Parsed {
    flowchart: Flowchart,
    diagnostics: Vec<Diagnostic>,
}

/// Scores one pair, both sides in `format` (a short name) when given;
/// JSON of [`PairScore`].
#[pyfunction]
#[pyo3(signature = (gold, run, switches, format=None))]
pub fn flowchart_pair(
    py: Python<'_>,
    gold: &Bound<'_, PyAny>,
    run: &Bound<'_, PyAny>,
    switches: &str,
    format: Option<&str>,
) -> PyResult<String> {
    let switches = self::switches(switches)?;
    let parse = switches.parse();
    let format = format
        .map(formats::by_key)
        .transpose()
        .map_err(pyo3::exceptions::PyValueError::new_err)?;
    let (gold, run) = (Source::extract(gold)?, Source::extract(run)?);
    let done = py.detach(|| {
        let gold = read_side(&gold, "<gold>", format, &parse)?;
        let run = read_side(&run, "<run>", format, &parse)?;
        let levels = score_pair(
            &gold.flowchart,
            &run.flowchart,
            &switches.levels,
            &switches.settings,
        );
        let mut diagnostics = gold.diagnostics;
        diagnostics.extend(run.diagnostics);
        json(&PairScore {
            diagnostics,
            gold_size: gold.flowchart.size(),
            run_size: run.flowchart.size(),
            triplets: triplet_scores(&gold.flowchart, Some(&run.flowchart)),
            levels,
        })
    })?;
    Ok(done)
}

/// Scores folders as `clefeval flowchart` does (`shard` as `--shard`
/// takes it), through the library's table of tasks; the JSON it writes.
#[pyfunction]
#[pyo3(signature = (gold, runs, switches, threads, shard))]
pub fn flowchart(
    py: Python<'_>,
    gold: Vec<PathBuf>,
    runs: Vec<(Option<String>, PathBuf)>,
    switches: &str,
    threads: Option<usize>,
    shard: Option<&str>,
) -> PyResult<String> {
    let request = Request {
        gold,
        ..crate::request(runs, switches, shard, threads)?
    };
    crate::evaluate(py, "flowchart", request)
}

/// For `benches/python_overhead.py`: seconds that `calls` Rust calls take
/// to read `gold` and `run` from their texts and score them at every level
/// with the default settings (the work of one `flowchart_pair` call
/// without its Python side), timed in this process with the GIL released.
#[pyfunction]
pub fn rust_flowchart_pair_seconds(
    py: Python<'_>,
    gold: Vec<u8>,
    run: Vec<u8>,
    calls: usize,
) -> f64 {
    py.detach(|| {
        let (settings, options) = (Settings::default(), ParseOptions::default());
        let start = std::time::Instant::now();
        for _ in 0..calls {
            let g = parse(std::hint::black_box(&gold), "<gold>", &options);
            let r = parse(std::hint::black_box(&run), "<run>", &options);
            std::hint::black_box(score_pair(
                &g.flowchart,
                &r.flowchart,
                &Level::ALL,
                &settings,
            ));
        }
        start.elapsed().as_secs_f64()
    })
}
