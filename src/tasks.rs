//! The tasks clefeval scores, registered in one table: the name a result
//! file carries in its `task` field and the task's rule for
//! `clefeval compare`. A new task adds its line here (and its subcommand to
//! `cli::Command`); nothing else lists the tasks.

use crate::report::compare::CompareRun;
use crate::{flowchart, recognition, segmentation};

/// Every task that `compare` knows, by the `task` field of its result files.
pub const TASKS: &[(&str, CompareRun)] = &[
    ("flowchart", flowchart::compare::compare_run),
    ("segmentation", segmentation::compare::compare_run),
    ("recognition", recognition::compare::compare_run),
];
