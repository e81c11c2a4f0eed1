//! The parts of one evaluation (each scored with `shard`) joined into the
//! result one whole evaluation gives, by the library's merge, as `clefeval
//! merge` joins them.

use crate::{Failure, check_paths};
use clefeval::report::merge::Part;
use clefeval::report::saved::{read_result_as, read_result_text};
use clefeval::tasks;
use pyo3::prelude::*;
use std::path::Path;

/// Joins `parts`, each `(name, text)`: the JSON text of a result named
/// `name` in messages, or, when `text` is `None`, the result file at the
/// path `name`, read as the command reads it. Returns the text `clefeval
/// merge` writes; a part that cannot be read, or parts that are not the
/// parts of one evaluation each once, are an `InputError` saying why.
#[pyfunction]
pub fn merge(py: Python<'_>, parts: Vec<(String, Option<String>)>) -> PyResult<String> {
    let done = py.detach(|| {
        let docs = (parts.iter())
            .map(|(name, text)| {
                let path = Path::new(name);
                let text = match text {
                    Some(text) => text.clone(),
                    None => {
                        check_paths(&[path.to_path_buf()])?;
                        read_result_text(path).map_err(|e| Failure::in_file(e, name))?
                    }
                };
                read_result_as(path, &text).map_err(|e| Failure::in_file(e, name))
            })
            .collect::<Result<Vec<serde_json::Value>, Failure>>()?;
        let given: Vec<Part> = (parts.iter().zip(&docs))
            .map(|((file, _), doc)| Part { file, doc })
            .collect();
        tasks::merge(&given).map_err(Failure::input)
    })?;
    Ok(done)
}
