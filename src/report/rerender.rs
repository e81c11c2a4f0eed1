//! What `clefeval report` asks of a task: a saved (or merged) result
//! rendered again without scoring, its table or CSV and its page, by the
//! task's own code ([`Render`], registered in `crate::tasks`). What a page
//! draws from the input files (graphs, molecules) is drawn when their
//! paths are given again, and otherwise left out with a note.

use super::OutputFormat;
use super::merge::Part;
use crate::inputs::Run;
use std::path::{Path, PathBuf};

/// What is asked: the output format (table or CSV), whether the page is
/// wanted, and the input paths the page may draw from.
#[derive(Clone, Copy, Debug)]
pub struct Rerender<'a> {
    pub format: OutputFormat,
    pub page: bool,
    /// The gold files scored.
    pub gold: &'a [PathBuf],
    /// The runs scored, by name.
    pub runs: &'a [Run],
    /// Clip images (recognition).
    pub clips: Option<&'a Path>,
}

/// What a task renders: the text, the page when asked for, and notes for
/// the user (what the page leaves out).
#[derive(Clone, Debug, Default)]
pub struct Rendered {
    pub text: String,
    pub page: Option<String>,
    pub notes: Vec<String>,
}

/// A task's rendering of the saved result `part` (`text` is the file's
/// text, for readers that keep the order of its objects' entries).
pub type Render = fn(part: &Part, text: &str, asked: &Rerender) -> Result<Rendered, String>;

/// The note for a page that leaves out what `flags` would draw.
pub fn left_out(what: &str, flags: &str) -> String {
    format!("clefeval: the page leaves out the {what}: give {flags} again to draw them")
}
