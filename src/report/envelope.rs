//! The envelope of every result file: what each task's JSON says in the
//! same words and order before and after its own runs (docs/json.md). A
//! task's report is this type with its own settings, its own run value
//! and, where it writes more, its own head; the keys are written once,
//! here.

use crate::diagnostics::{RejectedRun, Word};
use crate::inputs::{InputFiles, Shard, Skipped};
use serde::{Deserialize, Serialize};

/// A result: `task`, `version`, `shard` (a part only), `settings`,
/// `inputs`, the task's head (keys of its own, none for most tasks),
/// `runs`, `rejected_runs` (when some are), `skipped_files` (when some
/// are) and `interrupted` (when true).
///
/// `S` is the task's settings as written, `R` one run's result, `H` the
/// head and `K` what a part of the evaluation says of itself (which part;
/// a task whose merge needs more writes more).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Envelope<S, R, H = NoHead, K = Shard> {
    #[serde(deserialize_with = "crate::report::saved::static_str")]
    pub task: Word,
    /// The clefeval that wrote the file ([`crate::report::VERSION`]).
    pub version: String,
    /// The part of the evaluation scored (`--shard`); absent from a whole
    /// evaluation.
    #[serde(default = "none", skip_serializing_if = "Option::is_none")]
    pub shard: Option<K>,
    pub settings: S,
    /// Every input file with its digest.
    #[serde(default)]
    pub inputs: Vec<InputFiles>,
    /// The task's own keys between `inputs` and `runs`.
    #[serde(flatten)]
    pub head: H,
    pub runs: Vec<R>,
    /// Runs not scored at all, with the reason (absent when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rejected_runs: Vec<RejectedRun>,
    /// Files in the folders given that were not read, and why (absent
    /// when none): none of the task's files, or no gold file to pair with.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped_files: Vec<Skipped>,
    /// The command was interrupted: what it had not finished is marked so
    /// in the runs (absent when false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
}

/// The head of a task that writes its findings about the gold and the
/// other shared inputs (`"diagnostics"` and `"diagnostic_list"` in the
/// JSON, before the runs).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Findings {
    #[serde(
        flatten,
        serialize_with = "crate::diagnostics::both_lists",
        deserialize_with = "crate::report::saved::diagnostics"
    )]
    pub diagnostics: Vec<crate::diagnostics::Diagnostic>,
}

/// A run of a task whose head is [`Findings`]: its own findings.
pub trait RunFindings {
    fn findings(&self) -> &[crate::diagnostics::Diagnostic];
}

impl<S, R: RunFindings, K> Envelope<S, R, Findings, K> {
    /// Every diagnostic: the head's (the gold and other shared inputs)
    /// first, then each run's.
    pub fn all_diagnostics(&self) -> impl Iterator<Item = &crate::diagnostics::Diagnostic> {
        (self.head.diagnostics.iter()).chain(self.runs.iter().flat_map(|r| r.findings()))
    }
}

/// The head of a task that writes no keys of its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoHead {}

fn none<K>() -> Option<K> {
    None
}

impl<S, R, H: Default, K> Envelope<S, R, H, K> {
    /// A whole evaluation of `task` by this clefeval: no inputs, no part,
    /// no rejected run, not interrupted (the caller fills what it has).
    pub fn whole(task: &'static str, settings: S, runs: Vec<R>) -> Self {
        Envelope {
            task,
            version: crate::report::VERSION.to_string(),
            shard: None,
            settings,
            inputs: Vec::new(),
            head: H::default(),
            runs,
            rejected_runs: Vec::new(),
            skipped_files: Vec::new(),
            interrupted: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
    struct Head {
        measures: Vec<String>,
    }

    /// The keys in the documented order, the optional ones left out when
    /// empty, and the head's keys between `inputs` and `runs`.
    #[test]
    fn keys_in_order() {
        let mut plain: Envelope<u32, u32> = Envelope::whole("toy", 7, vec![1, 2]);
        let text = serde_json::to_string(&plain).unwrap_or_default();
        assert_eq!(
            text,
            format!(
                r#"{{"task":"toy","version":"{}","settings":7,"inputs":[],"runs":[1,2]}}"#,
                crate::report::VERSION
            )
        );
        plain.shard = Some(Shard { index: 1, count: 2 });
        plain.interrupted = true;
        let text = serde_json::to_string(&plain).unwrap_or_default();
        assert!(
            text.contains(r#""version":"#) && text.ends_with(r#""runs":[1,2],"interrupted":true}"#)
        );
        let headed: Envelope<u32, u32, Head> = Envelope {
            head: Head {
                measures: vec!["map".into()],
            },
            ..Envelope::whole("toy", 7, vec![])
        };
        let text = serde_json::to_string(&headed).unwrap_or_default();
        assert!(
            text.contains(r#""inputs":[],"measures":["map"],"runs":[]"#),
            "{text}"
        );
    }

    /// What is written is read back as it was, head and part included.
    #[test]
    fn read_back() {
        let mut written: Envelope<u32, u32, Head> = Envelope::whole("toy", 7, vec![3]);
        written.head.measures = vec!["p@5".into()];
        written.shard = Some(Shard { index: 2, count: 3 });
        let text = serde_json::to_string(&written).unwrap_or_default();
        let read: Envelope<u32, u32, Head> = serde_json::from_str(&text).expect("read back");
        assert_eq!(serde_json::to_string(&read).unwrap_or_default(), text);
        assert_eq!(read.head, written.head);
        let plain: Envelope<u32, u32> =
            serde_json::from_str(r#"{"task":"toy","version":"0","settings":1,"runs":[]}"#)
                .expect("optional keys absent");
        assert!(plain.shard.is_none() && plain.inputs.is_empty() && !plain.interrupted);
    }
}
