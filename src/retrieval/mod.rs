//! Text retrieval tasks: prior art (2009, document runs) and claims to
//! passage (2012–2013, passage runs), scored with the measures the
//! organizers used (P@k, R@k, MAP@N, PRES@N, nDCG@N, MAP(D),
//! Precision(D)); `docs/retrieval.md` defines every number.
//!
//! - [`input`]: plain and compressed files (capped), lines and fields;
//! - [`qrels`], [`groups`], [`run`]: the readers (runs streamed by topic);
//! - [`parts`]: one plain run read in parts on several threads;
//! - [`xpath`]: the `[1]` normalization of XPaths and heading passages;
//! - [`settings`]: the settings as given, checked in one place;
//! - [`order`]: a topic's ordering, headings dropped, duplicates, cut-off;
//! - [`measures`], [`passage`]: the measures, pure functions;
//! - [`evaluate`]: files to an [`Evaluation`];
//! - [`runs`]: the run paths given (files, or folders of run files) scored,
//!   an empty folder a rejected run in its place;
//! - [`report`]: the result value, its JSON layout, the trec layout, its
//!   table and CSV;
//! - [`html`]: the `--html` page, from the same value;
//! - [`significance`], [`correlate`]: between runs, the randomization
//!   test and t-test with Holm's correction, Kendall's τ-b and Spearman's ρ;
//! - [`between`]: the comparisons and correlations asked for, beside the
//!   evaluation in its JSON;
//! - [`compare`]: the task's rule for `clefeval compare`;
//! - [`merge`]: the task's rule for `clefeval merge`, the parts joined;
//! - [`validate`]: run files checked before submission, file by file.
//!
//! Invariant: readers never panic on input; every problem is a
//! [`Diagnostic`](crate::diagnostics::Diagnostic) with its file and line.

pub mod between;
pub mod check;
pub mod compare;
pub mod correlate;
pub mod demo;
pub mod evaluate;
pub mod groups;
pub mod html;
pub mod input;
pub mod measures;
pub mod merge;
pub mod order;
pub mod parts;
pub mod passage;
pub mod qrels;
pub mod report;
pub mod run;
pub mod runs;
pub mod settings;
pub mod significance;
pub mod validate;
pub mod xpath;

pub use evaluate::{
    EvaluateError, Measure, evaluate, evaluate_loaded, evaluate_shard, measure_list, read_qrels,
};
pub use order::Order;
pub use report::{Evaluation, RunResult, Settings, Task, write_trec};

#[cfg(test)]
pub(crate) mod test_files {
    //! Temporary files for the readers' unit tests.

    use std::path::{Path, PathBuf};

    /// A file in its own temporary folder; both are removed when dropped.
    pub struct TempFile {
        path: PathBuf,
        _dir: tempfile::TempDir,
    }

    impl TempFile {
        pub fn path(&self) -> &Path {
            &self.path
        }
    }

    /// A temporary file named `name` holding `bytes`.
    pub fn named(name: &str, bytes: &[u8]) -> TempFile {
        let dir = tempfile::Builder::new()
            .prefix("clefeval-retrieval-")
            .tempdir()
            .unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        TempFile { path, _dir: dir }
    }

    /// A file of the hand-computed cases, `goldens/passage/hand/<file>`.
    pub fn hand(file: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("goldens/passage/hand")
            .join(file)
    }

    /// A temporary plain file holding `text`.
    pub fn file(text: &str) -> TempFile {
        named("file.txt", text.as_bytes())
    }
}
