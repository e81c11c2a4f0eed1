//! Reading result files back (`clefeval merge`, `clefeval report`): the
//! pieces of the report values that are written in a shape serde cannot
//! read back on its own: the fixed words a report holds as `&'static str`,
//! the diagnostics written twice (as lines and as objects), and values
//! written by their name.

use crate::diagnostics::{Diagnostic, binary_data};
use serde::de::Error;
use serde::{Deserialize, Deserializer};
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::{Mutex, PoisonError};

/// The words read back so far, each kept once for the life of the process:
/// a report holds a few fixed words (`"flowchart"`, `"px"`, `"rejected"`),
/// so this holds a few short strings, however many files are read.
static WORDS: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());

/// `text` as a `&'static str`, the same one for every equal text.
fn word(text: &str) -> &'static str {
    let mut words = WORDS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(known) = words.get(text) {
        return known;
    }
    let leaked: &'static str = Box::leak(text.to_owned().into_boxed_str());
    words.insert(leaked);
    leaked
}

/// Reads a fixed word of a report (`#[serde(deserialize_with = ...)]` on a
/// `&'static str` field).
pub fn static_str<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    Ok(word(&String::deserialize(d)?))
}

/// Reads a list of fixed words.
pub fn static_strs<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<&'static str>, D::Error> {
    Ok(Vec::<String>::deserialize(d)?
        .iter()
        .map(|w| word(w))
        .collect())
}

/// Reads back a field written by `crate::diagnostics::both_lists`: the
/// objects of `"diagnostic_list"` (the lines of `"diagnostics"` are the
/// same entries, written from them).
pub fn diagnostics<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Diagnostic>, D::Error> {
    #[derive(Deserialize)]
    struct Lists {
        #[serde(default)]
        diagnostic_list: Vec<Diagnostic>,
    }
    Ok(Lists::deserialize(d)?.diagnostic_list)
}

/// The value among `all` whose `name` is `text`, or an error listing the
/// names.
pub fn by_name<T: Copy, E: Error>(
    all: &[T],
    name: fn(T) -> &'static str,
    text: &str,
) -> Result<T, E> {
    all.iter()
        .copied()
        .find(|&v| name(v) == text)
        .ok_or_else(|| {
            let names: Vec<&str> = all.iter().map(|&v| name(v)).collect();
            E::custom(format!(
                "unknown value {text:?}, expected one of {}",
                names.join(", ")
            ))
        })
}
/// Largest result file read (256 MiB).
const MAX_FILE_BYTES: u64 = 256 << 20;

/// The JSON document of the result file at `path`; errors word a missing,
/// special, binary or oversized file as every command does, naming it.
pub fn read_result(path: &Path) -> Result<serde_json::Value, String> {
    read_result_as(path, &read_result_text(path)?)
}

/// The text of the result file at `path`, read as [`read_result`] reads it.
pub fn read_result_text(path: &Path) -> Result<String, String> {
    let kind = "a JSON result file";
    crate::inputs::read_limited(path, MAX_FILE_BYTES)
        .and_then(|bytes| match binary_data("", &bytes, kind) {
            Some(binary) => Err(binary.message),
            None => String::from_utf8(bytes).map_err(|_| format!("not UTF-8 text, not {kind}")),
        })
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// `text`, the result file at `path`, read as `T`; the error names the
/// file and line.
pub fn read_result_as<T: serde::de::DeserializeOwned>(
    path: &Path,
    text: &str,
) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| {
        format!(
            "{}:{}: not a JSON result file: {e}",
            path.display(),
            e.line()
        )
    })
}
