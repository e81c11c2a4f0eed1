//! Recognition: folders as `clefeval recognition` scores them, and pairs of
//! MOL texts. The InChI library is not thread-safe and may crash on
//! malformed input, so it runs in worker processes (`clefeval
//! inchi-worker`, or this module's [`serve_inchi_worker`] in a Python
//! process) unless the caller asks for the in-process mode, where one lock
//! keeps its calls apart and a crash of the library ends the process.

use crate::{Failure, Source, check_paths, json};
use clefeval::recognition::evaluate::{TextPair, score_texts};
use clefeval::recognition::inchi::{self, Conversion};
use clefeval::recognition::settings::Requested;
use clefeval::recognition::{Pool, WorkerCommand, molfile, worker};
use clefeval::task::Request;
use clefeval::task::{OptionError, threads};
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

/// Held around every in-process call of the InChI library.
static IN_PROCESS: Mutex<()> = Mutex::new(());

/// The worker pool: `worker` is the command that starts one worker
/// (program and arguments), `jobs` workers (default: the cores) with
/// `timeout` seconds for one structure.
fn pool(worker: Vec<OsString>, jobs: Option<usize>, timeout: f64) -> Result<Pool, Failure> {
    let timeout = Requested { timeout }.check()?;
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
#[pyo3(signature = (gold, runs, timeout, jobs, worker, shard))]
pub fn recognition(
    py: Python<'_>,
    gold: Vec<PathBuf>,
    runs: Vec<(Option<String>, PathBuf)>,
    timeout: f64,
    jobs: Option<usize>,
    worker: Vec<OsString>,
    shard: Option<&str>,
) -> PyResult<String> {
    // Checked here to name the argument as Python spells it.
    let jobs = threads(jobs).map_err(|e| Failure::from(OptionError::new("jobs", e.message)))?;
    let worker = (worker.into_iter())
        .map(|part| {
            part.into_string()
                .map_err(|part| Failure::Value(format!("worker: {part:?} is not UTF-8")))
        })
        .collect::<Result<_, _>>()?;
    let settings = serde_json::json!({ "timeout": timeout }).to_string();
    let request = Request {
        gold,
        worker: Some(worker),
        ..crate::request(runs, &settings, shard, Some(jobs))?
    };
    crate::evaluate(py, "recognition", request)
}

/// The bytes of one side: the text, or the file's first bytes as an
/// evaluation reads them.
fn bytes_of(source: Source) -> Result<Vec<u8>, Failure> {
    match source {
        Source::Text(bytes) => Ok(bytes),
        Source::Path(path) => {
            check_paths(std::slice::from_ref(&path))?;
            molfile::read_bytes(&path)
                .map_err(|message| Failure::in_file(message, &path.display().to_string()))
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
            let run = run.as_ref().map(Source::extract).transpose()?;
            Ok((name.clone(), Source::extract(gold)?, run))
        })
        .collect::<PyResult<Vec<_>>>()?;
    let done = py.detach(|| {
        let texts = sources
            .into_iter()
            .map(|(name, gold, run)| Ok((name, bytes_of(gold)?, run.map(bytes_of).transpose()?)))
            .collect::<Result<Vec<_>, Failure>>()?;
        let pairs: Vec<TextPair> = (texts.iter())
            .map(|(name, gold, run)| (name.clone(), gold.as_slice(), run.as_deref()))
            .collect();
        let convert = |texts: &[String]| -> Result<Vec<Conversion>, String> {
            match &pool {
                Some(pool) => pool.convert_all(texts, &|| {}).map_err(|e| e.to_string()),
                None => {
                    let _alone = IN_PROCESS.lock().unwrap_or_else(PoisonError::into_inner);
                    Ok(texts.iter().map(|t| inchi::convert(t)).collect())
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
