//! The tasks clefeval scores, registered in one table: the name a result
//! file carries in its `task` field, the task's rule for `clefeval
//! compare`, the settings a result file scored with the defaults carries
//! (a setting an older file lacks is read from them) and the settings that
//! name files, which `compare` does not hold against each other. A new task
//! adds its line here (and its subcommand to `cli::Command`); nothing else
//! lists the tasks.

use crate::report::compare::TaskRule;
use crate::{flowchart, recognition, retrieval, segmentation};

/// Every task that `compare` knows, by the `task` field of its result files.
pub const TASKS: &[TaskRule] = &[
    TaskRule {
        name: "flowchart",
        compare_run: flowchart::compare::compare_run,
        default_settings: flowchart::compare::default_settings,
        locations: &[],
        merge: Some(flowchart::report::merge),
    },
    TaskRule {
        name: "segmentation",
        compare_run: segmentation::compare::compare_run,
        default_settings: segmentation::compare::default_settings,
        locations: segmentation::compare::LOCATIONS,
        merge: Some(segmentation::report::merge),
    },
    TaskRule {
        name: "recognition",
        compare_run: recognition::compare::compare_run,
        default_settings: recognition::compare::default_settings,
        locations: &[],
        merge: Some(recognition::report::merge),
    },
    TaskRule {
        name: "prior-art",
        compare_run: retrieval::compare::compare_run,
        default_settings: retrieval::compare::default_settings,
        locations: &[],
        merge: Some(retrieval::merge::merge),
    },
    TaskRule {
        name: "passage",
        compare_run: retrieval::compare::compare_run,
        default_settings: retrieval::compare::default_settings,
        locations: &[],
        merge: Some(retrieval::merge::merge),
    },
];

/// Compares two result documents, named `baseline.json` and
/// `current.json`, by the table's rules (for the rules' unit tests).
#[cfg(test)]
pub fn compare_values(
    baseline: &serde_json::Value,
    current: &serde_json::Value,
    tolerance: f64,
) -> Result<crate::report::compare::Comparison, String> {
    use crate::report::compare::{At, compare};
    compare(
        &At::root("baseline.json", baseline),
        &At::root("current.json", current),
        tolerance,
        TASKS,
    )
}
