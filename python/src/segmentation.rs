//! Segmentation: folders as `clefeval segmentation` scores them, and one
//! gold side against one run, each given as box lists or CSV/SDF paths.

use crate::{Failure, check_paths, json};
use clefeval::diagnostics::{Diagnostic, FileDiagnostics};
use clefeval::inputs::{none_in, run_name};
use clefeval::segmentation::boxes::{BoxSet, Origin};
use clefeval::segmentation::csv::parse_record;
use clefeval::segmentation::evaluate::{crowded_pages, read_boxes};
use clefeval::segmentation::formats::Context;
use clefeval::segmentation::report::RunReport;
use clefeval::segmentation::score::score;
use clefeval::segmentation::settings::Requested;
use clefeval::task::Request;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyMapping, PyString};
use std::path::PathBuf;

/// What a box side must hold, as messages say.
const BOX_FILES: &str = "readable box files (*.csv, *.sdf, *.json)";

/// Scores folders as `clefeval segmentation` does (`settings` the JSON of
/// its tolerance options, `shard` as `--shard` takes it), through the
/// library's table of tasks; the JSON it writes.
#[pyfunction]
#[pyo3(signature = (gold, runs, settings, pages, overlays, shard))]
pub fn segmentation(
    py: Python<'_>,
    gold: Vec<PathBuf>,
    runs: Vec<(Option<String>, PathBuf)>,
    settings: &str,
    pages: Option<PathBuf>,
    overlays: Option<PathBuf>,
    shard: Option<&str>,
) -> PyResult<String> {
    let request = Request {
        gold,
        pages,
        overlays,
        ..crate::request(runs, settings, shard, None)?
    };
    crate::evaluate(py, "segmentation", request)
}

/// One side of [`segmentation_boxes`]: box files, or boxes from Python
/// (each its six fields as text, or what is wrong with it).
enum Side {
    Paths(Vec<PathBuf>),
    List(Vec<Result<Vec<String>, String>>),
}

/// The fields of a box, in the CSV's order; a mapping may name the
/// document `doc`, `doc_id` or `doc-id`.
const FIELDS: [&[&str]; 6] = [
    &["doc", "doc_id", "doc-id"],
    &["page"],
    &["x"],
    &["y"],
    &["width"],
    &["height"],
];

impl Side {
    /// A path (`str` or `os.PathLike`) or a list of paths is box files;
    /// any other iterable holds boxes, each a 6-item sequence
    /// `(doc, page, x, y, width, height)` or a mapping with those keys.
    fn extract(object: &Bound<'_, PyAny>) -> PyResult<Self> {
        if let Some(path) = as_path(object) {
            return Ok(Side::Paths(vec![path]));
        }
        let items: Vec<Bound<'_, PyAny>> = object
            .try_iter()
            .map_err(|_| {
                PyTypeError::new_err("expected a path, a list of paths or an iterable of boxes")
            })?
            .collect::<PyResult<_>>()?;
        let paths: Option<Vec<PathBuf>> = items.iter().map(as_path).collect();
        match paths {
            Some(paths) if !paths.is_empty() => Ok(Side::Paths(paths)),
            _ => Ok(Side::List(
                items.iter().map(fields).collect::<PyResult<_>>()?,
            )),
        }
    }

    /// The boxes and the diagnostics (errors included) of this side;
    /// `name` stands for the list in diagnostics.
    fn read(self, name: &str) -> Result<(BoxSet, Vec<Diagnostic>), Failure> {
        match self {
            Side::Paths(paths) => {
                check_paths(&paths)?;
                let (set, diagnostics) = read_boxes(&paths, &mut Context::default());
                if set.files.is_empty() && diagnostics.is_empty() {
                    let message = none_in("", &paths, BOX_FILES);
                    return Err(match paths.first() {
                        Some(first) => Failure::in_file(message, &first.display().to_string()),
                        None => Failure::input(message),
                    });
                }
                Ok((set, diagnostics))
            }
            Side::List(boxes) => {
                let mut set = BoxSet::default();
                let file = set.add_file(name.to_string());
                let mut diagnostics = FileDiagnostics::new(name);
                for (index, entry) in boxes.into_iter().enumerate() {
                    let line = index + 1;
                    let read = entry.and_then(|fields| parse_record(&fields.into()));
                    match read {
                        Ok((doc, page, bbox)) => set.push(&doc, page, bbox, Origin::at(file, line)),
                        Err(message) => diagnostics.error(Some(line), message),
                    }
                }
                Ok((set, diagnostics.finish()))
            }
        }
    }
}

/// `object` as a path: a `str` or an `os.PathLike`.
fn as_path(object: &Bound<'_, PyAny>) -> Option<PathBuf> {
    let pathlike = object.is_instance_of::<PyString>() || object.hasattr("__fspath__").ok()?;
    pathlike.then(|| object.extract().ok()).flatten()
}

/// A box's six fields as text (`str()` of each), or what is wrong with it.
fn fields(item: &Bound<'_, PyAny>) -> PyResult<Result<Vec<String>, String>> {
    let values: Vec<Bound<'_, PyAny>> = if let Ok(mapping) = item.cast::<PyMapping>() {
        let mut values = Vec::with_capacity(FIELDS.len());
        for names in FIELDS {
            let found = names.iter().find_map(|name| mapping.get_item(name).ok());
            match found {
                Some(value) => values.push(value),
                None => return Ok(Err(format!("no field {:?}", names[0]))),
            }
        }
        values
    } else if item.is_instance_of::<PyString>() {
        return Ok(Err(
            "a box is (doc, page, x, y, width, height) or a mapping, not a string".into(),
        ));
    } else {
        match item.try_iter() {
            Ok(iter) => iter.collect::<PyResult<_>>()?,
            Err(_) => {
                return Ok(Err(
                    "a box is (doc, page, x, y, width, height) or a mapping".into(),
                ));
            }
        }
    };
    values
        .iter()
        .map(|v| Ok(v.str()?.to_cow()?.trim().to_string()))
        .collect::<PyResult<Vec<String>>>()
        .map(Ok)
}

/// Scores one run's boxes against the gold boxes at every tolerance; the
/// JSON of one run of `clefeval segmentation`, with the warnings of both
/// sides. An error in either side is an `InputError` at its first error.
#[pyfunction]
#[pyo3(signature = (gold, run, tolerances))]
pub fn segmentation_boxes(
    py: Python<'_>,
    gold: &Bound<'_, PyAny>,
    run: &Bound<'_, PyAny>,
    tolerances: Option<String>,
) -> PyResult<String> {
    let given = Requested {
        tolerances,
        ..Requested::default()
    };
    let tolerances = (given.check(false, false))
        .map_err(Failure::from)?
        .tolerances;
    let (gold, run) = (Side::extract(gold)?, Side::extract(run)?);
    let name = match &run {
        Side::Paths(paths) => (paths.iter().map(|p| run_name(p)))
            .collect::<Vec<_>>()
            .join("+"),
        Side::List(_) => "<run>".to_string(),
    };
    let done = py.detach(|| {
        let (gold, mut diagnostics) = gold.read("<gold>")?;
        let (run, run_diagnostics) = run.read("<run>")?;
        diagnostics.extend(run_diagnostics);
        if let Some(failure) = Failure::first_error(&diagnostics) {
            return Err(failure);
        }
        let sweep = score(&gold, &run, &tolerances, &|_, _| None);
        crowded_pages(&gold, &run, &sweep.crowded, &mut diagnostics);
        json(&RunReport::new(name, &sweep, &tolerances, diagnostics))
    })?;
    Ok(done)
}
