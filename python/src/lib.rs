//! `clefeval._native`: the clefeval library seen from Python. Every
//! function scores with the library's own code (no second implementation)
//! and returns the result as the JSON text the command line writes, or the
//! part of it that one pair gives; `clefeval/__init__.py` turns that text
//! into plain Python objects and holds the user-facing signatures and
//! docstrings.
//!
//! Each function takes its Python arguments while holding the GIL, then
//! releases it ([`Python::detach`]) for the reading and scoring, so other
//! Python threads run meanwhile. Failures become the exceptions of this
//! module ([`Failure`]): `InputError` (with the file and line), `WorkerError`,
//! and `ValueError` for an argument out of its range.

mod detection;
mod flowchart;
mod merge;
mod recognition;
mod retrieval;
mod segmentation;

use clefeval::diagnostics::Diagnostic;
use clefeval::task::{InputFailure, Request, RunGiven, TaskError};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use std::path::{Path, PathBuf};

create_exception!(
    clefeval,
    ClefevalError,
    PyException,
    "Base of every error clefeval raises."
);
create_exception!(
    clefeval,
    InputError,
    ClefevalError,
    "An input that cannot be scored: a path that does not exist, a malformed line, unreadable gold data. `file` and `line` say where (None when unknown), `diagnostics` lists every finding as a dict."
);
create_exception!(
    clefeval,
    WorkerError,
    ClefevalError,
    "No InChI worker process could be started."
);

/// Why a call failed; built without the GIL, raised with it.
#[derive(Debug)]
pub enum Failure {
    /// An input that cannot be scored: the library's, with its file, line
    /// and findings.
    Input(InputFailure),
    /// An argument out of its range (`ValueError`).
    Value(String),
    /// No InChI worker could be started.
    Worker(String),
}

impl Failure {
    /// An input error known only by its message (it names the file).
    pub fn input(message: impl Into<String>) -> Self {
        TaskError::input(message).into()
    }

    /// An input error whose message names `file` already.
    pub fn in_file(message: String, file: &str) -> Self {
        TaskError::in_file(message, file).into()
    }

    /// `path` cannot be read: `PATH: why`, as the command line says it.
    pub fn path(path: &Path, why: &str) -> Self {
        TaskError::path(path, why).into()
    }

    /// The first error among `diagnostics`, all of them attached; `None`
    /// when none is an error.
    pub fn first_error(diagnostics: &[Diagnostic]) -> Option<Self> {
        let first = diagnostics.iter().find(|d| d.is_error())?;
        Some(TaskError::located(first.to_string(), diagnostics).into())
    }

    fn into_err(self, py: Python<'_>) -> PyResult<PyErr> {
        Ok(match self {
            Failure::Value(message) => PyValueError::new_err(message),
            Failure::Worker(message) => WorkerError::new_err(message),
            Failure::Input(InputFailure {
                message,
                file,
                line,
                diagnostics,
            }) => {
                let err = InputError::new_err(message);
                let value = err.value(py);
                value.setattr("file", file)?;
                value.setattr("line", line)?;
                let list = PyList::empty(py);
                for d in diagnostics {
                    let entry = PyDict::new(py);
                    entry.set_item("file", d.file)?;
                    entry.set_item("line", d.line)?;
                    entry.set_item("severity", d.severity.to_string())?;
                    entry.set_item("message", d.message)?;
                    list.append(entry)?;
                }
                value.setattr("diagnostics", list)?;
                err
            }
        })
    }
}

impl From<Failure> for PyErr {
    fn from(failure: Failure) -> PyErr {
        Python::attach(|py| failure.into_err(py).unwrap_or_else(|e| e))
    }
}

/// A setting that breaks its rule: a `ValueError` naming the option as
/// Python spells it (`time_limit must be …`).
impl From<clefeval::task::OptionError> for Failure {
    fn from(error: clefeval::task::OptionError) -> Self {
        Failure::Value(error.to_string())
    }
}

/// The library's failures as Python's: a setting out of its rule a
/// `ValueError`, an input an `InputError` with its file and line, a
/// worker a `WorkerError`.
impl From<TaskError> for Failure {
    fn from(error: TaskError) -> Self {
        match error {
            TaskError::Option(e) => e.into(),
            TaskError::Input(failure) => Failure::Input(failure),
            TaskError::Worker(message) => Failure::Worker(message),
        }
    }
}

/// The evaluation `request` asks of `task`, through the library's table
/// of tasks (as the command line's and C's), the GIL released: the JSON
/// the command writes.
pub fn evaluate(py: Python<'_>, task: &str, request: Request) -> PyResult<String> {
    let done = py.detach(|| clefeval::tasks::evaluate_request(task, &request));
    Ok(done.map_err(Failure::from)?)
}

/// The inputs every folder function takes, as a [`Request`]: the runs as
/// Python gives them, each `(name, path)` with `None` for a run named by
/// its path (a mapping on the Python side gives names), the settings as
/// the JSON text of a dict, the part and the threads.
pub fn request(
    runs: Vec<(Option<String>, PathBuf)>,
    settings: &str,
    shard: Option<&str>,
    threads: Option<usize>,
) -> Result<Request, Failure> {
    let settings =
        serde_json::from_str(settings).map_err(|e| Failure::Value(format!("settings: {e}")))?;
    Ok(Request {
        runs: (runs.into_iter())
            .map(|(name, path)| match name {
                Some(name) => RunGiven::Named { name, path },
                None => RunGiven::Path(path),
            })
            .collect(),
        settings,
        shard: shard.map(str::to_string),
        threads,
        ..Request::default()
    })
}

/// Every path exists, or an [`InputError`] naming the first that does not.
pub fn check_paths(paths: &[PathBuf]) -> Result<(), Failure> {
    for path in paths {
        if let Err(e) = std::fs::metadata(path) {
            return Err(Failure::path(path, &clefeval::inputs::missing_reason(&e)));
        }
    }
    Ok(())
}

/// One side of a pair: a text (`bytes`; the Python side encodes a text
/// given as `<side>_text`) or a path (`str` or `os.PathLike`: a plain
/// `str` is a path, never a text).
pub enum Source {
    Text(Vec<u8>),
    Path(PathBuf),
}

impl Source {
    /// `bytes` is a text; anything `os.fspath` takes is a path.
    pub fn extract(object: &Bound<'_, PyAny>) -> PyResult<Self> {
        if let Ok(bytes) = object.cast::<PyBytes>() {
            return Ok(Source::Text(bytes.as_bytes().to_vec()));
        }
        object.extract::<PathBuf>().map(Source::Path).map_err(|_| {
            PyTypeError::new_err(format!(
                "expected a text (bytes) or a path (str or os.PathLike), not {}",
                object
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".into(), |n| n.to_string())
            ))
        })
    }
}

/// Settings given as the JSON text of a dict (the Python side writes it),
/// read as the library's settings type; an unknown name or a value of the
/// wrong type is a `ValueError` naming the setting
/// ([`clefeval::task::settings_from_json`]).
pub fn settings<T>(json: &str) -> Result<T, Failure>
where
    T: serde::de::DeserializeOwned + serde::Serialize + Default,
{
    let given: serde_json::Value =
        serde_json::from_str(json).map_err(|e| Failure::Value(format!("settings: {e}")))?;
    Ok(clefeval::task::settings_from_json(&given)?)
}

/// The JSON text of a result value.
pub fn json<T: serde::Serialize>(value: &T) -> Result<String, Failure> {
    serde_json::to_string(value).map_err(|e| Failure::Value(format!("cannot serialize: {e}")))
}

/// The native module.
#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ClefevalError", py.get_type::<ClefevalError>())?;
    m.add("InputError", py.get_type::<InputError>())?;
    m.add("WorkerError", py.get_type::<WorkerError>())?;
    m.add("VERSION", clefeval::report::VERSION)?;
    m.add("DEFAULT_BUDGET", clefeval::flowchart::mcs::DEFAULT_BUDGET)?;
    m.add(
        "DEFAULT_TIMEOUT_SECONDS",
        clefeval::recognition::evaluate::DEFAULT_TIMEOUT_SECONDS,
    )?;
    m.add_function(wrap_pyfunction!(flowchart::flowchart_pair, m)?)?;
    m.add_function(wrap_pyfunction!(flowchart::flowchart, m)?)?;
    m.add_function(wrap_pyfunction!(flowchart::rust_flowchart_pair_seconds, m)?)?;
    m.add_function(wrap_pyfunction!(segmentation::segmentation, m)?)?;
    m.add_function(wrap_pyfunction!(segmentation::segmentation_boxes, m)?)?;
    m.add_function(wrap_pyfunction!(recognition::recognition, m)?)?;
    m.add_function(wrap_pyfunction!(recognition::recognize_texts, m)?)?;
    m.add_function(wrap_pyfunction!(recognition::serve_inchi_worker, m)?)?;
    m.add_function(wrap_pyfunction!(retrieval::retrieval, m)?)?;
    m.add_function(wrap_pyfunction!(detection::detection, m)?)?;
    m.add_function(wrap_pyfunction!(merge::merge, m)?)?;
    Ok(())
}
