//! What a task is, and what every task's entry points share whichever
//! shell calls them (the command line, the Python package, the C API):
//! the [`TaskRule`] a task registers in `crate::tasks`, the error of a
//! setting that breaks its rule ([`OptionError`]), written once in the
//! task's settings constructor and worded by each shell in its own
//! spelling of the option, and the pool of threads an evaluation runs on
//! ([`with_threads`]). It knows no task.

use crate::diagnostics::Diagnostic;
use crate::inputs::{Run, Shard, missing_reason};
use crate::report::check::Check;
use crate::report::compare::CompareRule;
use crate::report::html::Section;
use crate::report::merge::Merge;
use crate::report::rerender::Render;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::fmt;
use std::path::{Path, PathBuf};

/// What a task registers: the name its result files carry in `task`, its
/// rule for `clefeval compare`, its join of the parts of a sharded
/// evaluation, and its rendering of a saved result.
pub struct TaskRule {
    pub compare: CompareRule,
    /// Checks a result file before `merge`, `report` or `compare` use it
    /// ([`crate::report::check`]).
    pub check: Check,
    pub merge: Merge,
    pub render: Render,
    /// Scores a [`Request`]: the JSON the command writes with
    /// `--format json`.
    pub evaluate: Evaluate,
    /// The task's part of `clefeval demo`, if it has one.
    pub demo: Option<Demo>,
}

/// A task's part of `clefeval demo`, made from the bundled data in the
/// folder given (the repository's `goldens/`): the error names what is
/// missing from it.
pub type Demo = fn(data: &Path) -> Result<DemoPart, String>;

/// What a task shows in `clefeval demo`: its tables for standard output,
/// and its part of the page, a titled section (`Task N: <title>`) that
/// opens with a paragraph on its data and holds the task's own sections.
pub struct DemoPart {
    pub title: &'static str,
    pub about: &'static str,
    pub text: String,
    pub sections: Vec<Section>,
}

/// A task's evaluation of a [`Request`]: the result's JSON text.
pub type Evaluate = fn(&Request) -> Result<String, TaskError>;

/// An evaluation asked for as data (the C API's generic entry, and any
/// caller that holds JSON): the input paths by role, the task's settings
/// as a JSON object of the names its command line takes in snake case
/// (read by the task's one settings constructor), the part of the topics
/// and the threads. A role the task does not read must be absent.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// Gold files or folders (flowchart, segmentation, recognition).
    #[serde(default)]
    pub gold: Vec<PathBuf>,
    /// The runs, each a path or `{"name": …, "path": …}`.
    #[serde(default)]
    pub runs: Vec<RunGiven>,
    /// The relevance judgements (prior-art, passage).
    #[serde(default)]
    pub qrels: Option<PathBuf>,
    /// The topic groups (prior-art, passage).
    #[serde(default)]
    pub groups: Option<PathBuf>,
    /// The page images (segmentation).
    #[serde(default)]
    pub pages: Option<PathBuf>,
    /// The folder the overlays are drawn into (segmentation, with pages).
    #[serde(default)]
    pub overlays: Option<PathBuf>,
    #[serde(default)]
    pub settings: serde_json::Value,
    /// `"K/N"`: score only that part, for a merge.
    #[serde(default)]
    pub shard: Option<String>,
    /// Threads (or worker processes); all cores when absent.
    #[serde(default)]
    pub threads: Option<usize>,
    /// The command that starts one InChI worker (recognition); `clefeval
    /// inchi-worker` from the `PATH` when absent.
    #[serde(default)]
    pub worker: Option<Vec<String>>,
}

/// A run of a [`Request`]: a path, named by it, or a name and a path.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum RunGiven {
    Path(PathBuf),
    Named { name: String, path: PathBuf },
}

impl Request {
    /// The runs, named.
    pub fn runs(&self) -> Vec<Run> {
        (self.runs.iter())
            .map(|r| match r {
                RunGiven::Path(path) => Run::at(path),
                RunGiven::Named { name, path } => Run {
                    name: name.clone(),
                    path: path.clone(),
                },
            })
            .collect()
    }

    /// The part asked for, read as `--shard` reads it.
    pub fn shard(&self) -> Result<Option<Shard>, TaskError> {
        (self.shard.as_deref())
            .map(|t| Shard::parse(t).map_err(|e| TaskError::Option(OptionError::new("shard", e))))
            .transpose()
    }

    /// `Err` naming the first of `paths` that does not exist, and the
    /// roles this task does not read when they are given.
    pub fn check(&self, unread: &[&str], paths: &[&PathBuf]) -> Result<(), TaskError> {
        let given = |role: &str| match role {
            "gold" => !self.gold.is_empty(),
            "qrels" => self.qrels.is_some(),
            "groups" => self.groups.is_some(),
            "pages" => self.pages.is_some(),
            "overlays" => self.overlays.is_some(),
            "worker" => self.worker.is_some(),
            _ => false,
        };
        if let Some(role) = unread.iter().copied().find(|r| given(r)) {
            return Err(TaskError::input(format!(
                "{role}: this task reads no {role}"
            )));
        }
        for path in paths {
            if let Err(e) = std::fs::metadata(path) {
                return Err(TaskError::path(path, &missing_reason(&e)));
            }
        }
        Ok(())
    }
}

/// Why an evaluation asked for as a [`Request`] did not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TaskError {
    /// A setting that breaks its rule.
    Option(OptionError),
    /// An input that cannot be scored, or a request that is not one.
    Input(InputFailure),
    /// No InChI worker process could be started.
    Worker(String),
}

/// An input that cannot be scored: the message, which names the file or
/// the field, and where, when it is known: the file (a path that does not
/// exist, the gold file with the first error) and the line, with every
/// finding about that file (Python's `InputError` carries them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InputFailure {
    pub message: String,
    pub file: Option<String>,
    pub line: Option<usize>,
    pub diagnostics: Vec<Diagnostic>,
}

impl TaskError {
    /// An input error known by its message only.
    pub fn input(message: impl Into<String>) -> Self {
        TaskError::Input(InputFailure {
            message: message.into(),
            ..InputFailure::default()
        })
    }

    /// `path` cannot be read: `PATH: why`.
    pub fn path(path: &Path, why: &str) -> Self {
        let file = path.display().to_string();
        TaskError::in_file(format!("{file}: {why}"), &file)
    }

    /// An input error whose `message` names `file` already.
    pub fn in_file(message: String, file: &str) -> Self {
        TaskError::Input(InputFailure {
            message,
            file: Some(file.to_string()),
            ..InputFailure::default()
        })
    }

    /// An input error with `message`, at the file and line of the first
    /// error among `diagnostics` (all of them kept), if there is one.
    pub fn located(message: String, diagnostics: &[Diagnostic]) -> Self {
        let first = diagnostics.iter().find(|d| d.is_error());
        TaskError::Input(InputFailure {
            message,
            file: first.map(|d| d.file.clone()),
            line: first.and_then(|d| d.line),
            diagnostics: diagnostics.to_vec(),
        })
    }
}

impl From<OptionError> for TaskError {
    fn from(e: OptionError) -> Self {
        TaskError::Option(e)
    }
}

impl fmt::Display for TaskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TaskError::Option(e) => e.fmt(f),
            TaskError::Input(failure) => f.write_str(&failure.message),
            TaskError::Worker(m) => f.write_str(m),
        }
    }
}

impl TaskRule {
    /// The `task` field of the task's result files.
    pub fn name(&self) -> &'static str {
        self.compare.name
    }
}

/// A setting out of its range, of an unknown value or in conflict with
/// another: the option as the settings name it (`time_limit`) and what is
/// wrong, a phrase that follows the name (`must be at least 1`). Another
/// option the phrase names is written `{name}` (`needs {pages}`), so that
/// each shell spells it as its users type it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    pub option: String,
    pub message: String,
}

impl OptionError {
    pub fn new(option: impl Into<String>, message: impl Into<String>) -> Self {
        OptionError {
            option: option.into(),
            message: message.into(),
        }
    }

    /// As the command line says it: `--time-limit must be …`, `--tolerance-mm
    /// needs --pages`.
    pub fn flag(&self) -> String {
        let flag = |name: &str| format!("--{}", name.replace('_', "-"));
        format!("{} {}", flag(&self.option), spelled(&self.message, flag))
    }
}

/// As Python and C say it: `time_limit must be …`, `tolerance_mm needs
/// pages`.
impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message = spelled(&self.message, str::to_string);
        write!(f, "{} {message}", self.option)
    }
}

/// `message` with each `{name}` (a snake-case option name) spelled by
/// `spell`; other braces are left as they are.
fn spelled(message: &str, spell: impl Fn(&str) -> String) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some((before, after)) = rest.split_once('{') {
        out.push_str(before);
        let named = after.split_once('}').filter(|(name, _)| {
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
        });
        match named {
            Some((name, tail)) => {
                out.push_str(&spell(name));
                rest = tail;
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Settings given as a JSON object (from Python or C) read as the task's
/// settings type `T`, whose fields all have defaults (`null`: every one):
/// a key `T` does not have, or a value of the wrong type, is an error
/// naming that key.
pub fn settings_from_json<T: DeserializeOwned + Serialize + Default>(
    given: &Value,
) -> Result<T, OptionError> {
    if given.is_null() {
        return Ok(T::default());
    }
    let Some(object) = given.as_object() else {
        return Err(OptionError::new(
            "settings",
            format!("must be an object of named settings, not {given}"),
        ));
    };
    let known = serde_json::to_value(T::default()).unwrap_or(Value::Null);
    for (key, value) in object {
        if known.get(key).is_none() {
            let names: Vec<&str> = (known.as_object().into_iter().flatten())
                .map(|(k, _)| k.as_str())
                .collect();
            return Err(OptionError::new(
                key.as_str(),
                format!("is no setting of this task (known: {})", names.join(", ")),
            ));
        }
        let alone = Value::Object(Map::from_iter([(key.clone(), value.clone())]));
        if let Err(e) = serde_json::from_value::<T>(alone) {
            return Err(OptionError::new(key.as_str(), format!("is {value}: {e}")));
        }
    }
    serde_json::from_value(given.clone()).map_err(|e| OptionError::new("settings", e.to_string()))
}

/// The number of threads (or worker processes) asked for, at least 1;
/// all cores when `None`.
pub fn threads(asked: Option<usize>) -> Result<usize, OptionError> {
    match asked {
        Some(0) => Err(OptionError::new("threads", "must be at least 1")),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// Runs `f` on a rayon pool of `threads` threads (all cores when `None`);
/// `threads` must be at least 1.
pub fn with_threads<T: Send>(
    threads: Option<usize>,
    f: impl FnOnce() -> T + Send,
) -> Result<T, OptionError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        builder = builder.num_threads(self::threads(Some(n))?);
    }
    let pool = builder
        .build()
        .map_err(|e| OptionError::new("threads", format!("cannot be started: {e}")))?;
    Ok(pool.install(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_option_error_reads_in_each_shells_spelling() {
        let e = OptionError::new("time_limit", "must be a number of seconds, not -1");
        assert_eq!(e.flag(), "--time-limit must be a number of seconds, not -1");
        assert_eq!(
            e.to_string(),
            "time_limit must be a number of seconds, not -1"
        );
    }

    #[derive(Debug, Default, PartialEq, serde::Deserialize, Serialize)]
    #[serde(default)]
    struct Two {
        cutoff: usize,
        order: String,
    }

    #[test]
    fn settings_from_json_name_the_setting_at_fault() {
        let read = |text: &str| settings_from_json::<Two>(&serde_json::from_str(text).unwrap());
        assert_eq!(
            read(r#"{"cutoff": 5}"#).unwrap(),
            Two {
                cutoff: 5,
                order: String::new()
            }
        );
        assert_eq!(
            read(r#"{"cutof": 5}"#).unwrap_err().to_string(),
            "cutof is no setting of this task (known: cutoff, order)"
        );
        assert_eq!(
            read(r#"{"order": "file", "cutoff": "x"}"#)
                .unwrap_err()
                .to_string(),
            "cutoff is \"x\": invalid type: string \"x\", expected usize"
        );
        assert_eq!(
            read("[1]").unwrap_err().to_string(),
            "settings must be an object of named settings, not [1]"
        );
    }

    #[test]
    fn threads_run_the_work_and_zero_is_refused() {
        assert_eq!(with_threads(Some(2), rayon::current_num_threads), Ok(2));
        assert_eq!(
            with_threads(Some(0), || ()).unwrap_err().flag(),
            "--threads must be at least 1"
        );
    }
}
