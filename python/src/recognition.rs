//! Recognition: folders as `clefeval recognition` scores them, and pairs of
//! structures given as paths, MOL texts or SMILES. The InChI library is not thread-safe and may crash on
//! malformed input, so it runs in worker processes (`clefeval
//! inchi-worker`, or this module's [`serve_inchi_worker`] in a Python
//! process) unless the caller asks for the in-process mode, where one lock
//! keeps its calls apart and a crash of the library ends the process.

use crate::{Failure, Source, check_paths, json};
use clefeval::recognition::evaluate::{Text, TextPair, score_texts};
use clefeval::recognition::formats::{self, Reader};
use clefeval::recognition::inchi::Conversion;
use clefeval::recognition::settings::Requested;
use clefeval::recognition::worker::Input;
use clefeval::recognition::{Pool, WorkerCommand, molfile, worker};
use clefeval::task::Request;
use clefeval::task::{OptionError, threads};
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

/// Held around every in-process call of the InChI library.
static IN_PROCESS: Mutex<()> = Mutex::new(());

/// The worker pool: `worker` is the command that starts one worker
/// (program and arguments), `jobs` workers (default: the cores) with
/// `timeout` seconds for one structure.
fn pool(worker: Vec<OsString>, jobs: Option<usize>, timeout: f64) -> Result<Pool, Failure> {
    let given = Requested {
        timeout,
        ..Requested::default()
    };
    let timeout = given.check()?;
    let jobs = threads(jobs).map_err(|e| OptionError::new("jobs", e.message))?;
    let mut parts = worker.into_iter();
    let program = parts
        .next()
        .ok_or_else(|| Failure::Value("the worker command is empty".into()))?;
    Ok(Pool {
        command: WorkerCommand {
            program: PathBuf::from(program),
            args: parts.collect(),
        },
        jobs,
        timeout,
    })
}

/// Scores folders as `clefeval recognition` does (`shard` as `--shard`
/// takes it), through the library's table of tasks; the JSON it writes.
#[pyfunction]
#[pyo3(signature = (gold, runs, timeout, jobs, worker, shard, name_column, smiles_column))]
#[allow(clippy::too_many_arguments)] // the Python function's keyword arguments
pub fn recognition(
    py: Python<'_>,
    gold: Vec<PathBuf>,
    runs: Vec<(Option<String>, PathBuf)>,
    timeout: f64,
    jobs: Option<usize>,
    worker: Vec<OsString>,
    shard: Option<&str>,
    name_column: Option<String>,
    smiles_column: Option<String>,
) -> PyResult<String> {
    // Checked here to name the argument as Python spells it.
    let jobs = threads(jobs).map_err(|e| Failure::from(OptionError::new("jobs", e.message)))?;
    let worker = (worker.into_iter())
        .map(|part| {
            part.into_string()
                .map_err(|part| Failure::Value(format!("worker: {part:?} is not UTF-8")))
        })
        .collect::<Result<_, _>>()?;
    let settings = serde_json::json!({
        "timeout": timeout,
        "name_column": name_column,
        "smiles_column": smiles_column,
    })
    .to_string();
    let request = Request {
        gold,
        worker: Some(worker),
        ..crate::request(runs, &settings, shard, Some(jobs))?
    };
    crate::evaluate(py, "recognition", request)
}

/// One side of a structure pair as Python gives it: a path or a MOL/SD
/// text ([`Source`]), or a SMILES as `{"smiles": str}`.
enum Side {
    Given(Source),
    Smiles(String),
}

impl Side {
    fn extract(object: &Bound<'_, PyAny>) -> PyResult<Self> {
        if let Ok(dict) = object.cast::<PyDict>()
            && let Some(smiles) = dict.get_item("smiles")?
        {
            return Ok(Side::Smiles(smiles.extract()?));
        }
        Source::extract(object).map(Side::Given)
    }
}

/// One side read: a MOL/SD text (a file's first bytes as an evaluation
/// reads them) or a SMILES.
enum Read {
    Mol(Vec<u8>),
    Smiles(String),
}

impl Read {
    fn of(side: Side) -> Result<Self, Failure> {
        match side {
            Side::Smiles(smiles) => Ok(Read::Smiles(smiles)),
            Side::Given(Source::Text(bytes)) => Ok(Read::Mol(bytes)),
            Side::Given(Source::Path(path)) => {
                check_paths(std::slice::from_ref(&path))?;
                let shown = path.display().to_string();
                let format = formats::format_of(&path);
                if let Reader::Many(_) = format.reader {
                    // A file of many structures is scored by `recognition`.
                    let message = format!(
                        "a {}, not one structure: score it with recognition(), or give one \
                         SMILES as gold_smiles= / run_smiles=",
                        format.name
                    );
                    return Err(Failure::in_file(message, &shown));
                }
                molfile::read_bytes(&path)
                    .map(Read::Mol)
                    .map_err(|message| Failure::in_file(message, &shown))
            }
        }
    }

    fn text(&self) -> Text<'_> {
        match self {
            Read::Mol(bytes) => Text::Mol(bytes),
            Read::Smiles(smiles) => Text::Smiles(smiles),
        }
    }
}

/// Scores `(name, gold, run)` triples, each side a text or a path, `run`
/// `None` for no submission; the JSON list of the structures' results (as
/// in `clefeval recognition`'s JSON), in input order. The InChI library
/// runs in a pool of `worker` processes, or in this process under a lock
/// when `in_process`.
#[pyfunction]
#[pyo3(signature = (pairs, in_process, timeout, jobs, worker))]
pub fn recognize_texts(
    py: Python<'_>,
    pairs: Vec<(String, Bound<'_, PyAny>, Option<Bound<'_, PyAny>>)>,
    in_process: bool,
    timeout: f64,
    jobs: Option<usize>,
    worker: Vec<OsString>,
) -> PyResult<String> {
    let pool = (!in_process)
        .then(|| pool(worker, jobs, timeout))
        .transpose()?;
    let sources = pairs
        .iter()
        .map(|(name, gold, run)| {
            let run = run.as_ref().map(Side::extract).transpose()?;
            Ok((name.clone(), Side::extract(gold)?, run))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let done = py.detach(|| {
        let texts = sources
            .into_iter()
            .map(|(name, gold, run)| Ok((name, Read::of(gold)?, run.map(Read::of).transpose()?)))
            .collect::<Result<Vec<_>, Failure>>()?;
        let pairs: Vec<TextPair> = (texts.iter())
            .map(|(name, gold, run)| (name.clone(), gold.text(), run.as_ref().map(Read::text)))
            .collect();
        let convert = |inputs: &[Input]| -> Result<Vec<Conversion>, String> {
            match &pool {
                Some(pool) => pool.convert_all(inputs, &|| {}).map_err(|e| e.to_string()),
                None => {
                    let _alone = IN_PROCESS.lock().unwrap_or_else(PoisonError::into_inner);
                    Ok(inputs.iter().map(worker::convert).collect())
                }
            }
        };
        let structures = score_texts(&pairs, &convert).map_err(Failure::Worker)?;
        json(&structures)
    })?;
    Ok(done)
}

/// The worker's loop (`python -m clefeval._worker`): answers InChI
/// requests on standard input until it ends, as `clefeval inchi-worker`
/// does.
#[pyfunction]
pub fn serve_inchi_worker(py: Python<'_>) -> PyResult<()> {
    py.detach(|| worker::serve(std::io::stdin().lock(), std::io::stdout().lock()))
        .map_err(|e| PyOSError::new_err(e.to_string()))
}
