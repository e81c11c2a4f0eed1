//! The tasks clefeval scores, registered in one table ([`TASKS`]): each
//! task's [`TaskRule`] — the name a result file carries in its `task`
//! field, its rule for `clefeval compare` (the settings a result file
//! scored with the defaults carries, so that a setting a file lacks is
//! read from them, and the settings that name files, which are not held
//! against each other), its check of a result file read back, its join
//! of the parts of a sharded evaluation and its rendering of a saved
//! result, its evaluation of a request (the C
//! API's generic entry, Python's folder functions) and its part of the
//! demo. `compare`, `merge`, `report`, `demo`, Python and C reach the
//! tasks only through this table.
//! A new task adds its line here (and its subcommand to `cli::Command`).

use crate::report::compare::{At, CompareRule, Comparison};
use crate::report::merge::{Part, one_evaluation, written_back};
use crate::report::rerender::{Rendered, Rerender};
use crate::task::{Request, TaskError, TaskRule};
use crate::{detection, flowchart, recognition, retrieval, segmentation};

/// Every task, by the `task` field of its result files.
pub const TASKS: &[TaskRule] = &[
    TaskRule {
        compare: CompareRule {
            name: "flowchart",
            compare_run: flowchart::compare::compare_run,
            default_settings: flowchart::compare::default_settings,
            locations: &[],
        },
        check: flowchart::check::check,
        merge: flowchart::report::merge,
        render: flowchart::html::rerender,
        evaluate: flowchart::evaluate::evaluate_request,
        demo: Some(flowchart::demo::demo),
    },
    TaskRule {
        compare: CompareRule {
            name: "segmentation",
            compare_run: segmentation::compare::compare_run,
            default_settings: segmentation::compare::default_settings,
            locations: segmentation::compare::LOCATIONS,
        },
        check: segmentation::check::check,
        merge: segmentation::report::merge,
        render: segmentation::html::rerender,
        evaluate: segmentation::evaluate::evaluate_request,
        demo: Some(segmentation::demo::demo),
    },
    TaskRule {
        compare: CompareRule {
            name: "recognition",
            compare_run: recognition::compare::compare_run,
            default_settings: recognition::compare::default_settings,
            locations: &[],
        },
        check: recognition::check::check,
        merge: recognition::report::merge,
        render: recognition::html::rerender,
        evaluate: recognition::report::evaluate_request,
        demo: Some(recognition::demo::demo),
    },
    TaskRule {
        compare: CompareRule {
            name: "prior-art",
            compare_run: retrieval::compare::compare_run,
            default_settings: retrieval::compare::default_settings,
            locations: &[],
        },
        check: retrieval::check::check,
        merge: retrieval::merge::merge,
        render: retrieval::html::rerender,
        evaluate: retrieval::runs::evaluate_prior_art,
        demo: Some(retrieval::demo::prior_art),
    },
    TaskRule {
        compare: CompareRule {
            name: "passage",
            compare_run: retrieval::compare::compare_run,
            default_settings: retrieval::compare::default_settings,
            locations: &[],
        },
        check: retrieval::check::check,
        merge: retrieval::merge::merge,
        render: retrieval::html::rerender,
        evaluate: retrieval::runs::evaluate_passage,
        demo: Some(retrieval::demo::demo),
    },
    TaskRule {
        compare: CompareRule {
            name: "detection",
            compare_run: detection::compare::compare_run,
            default_settings: detection::compare::default_settings,
            locations: &["gold"],
        },
        check: detection::check::check,
        merge: detection::report::merge,
        render: detection::html::rerender,
        evaluate: detection::evaluate::evaluate_request,
        demo: Some(detection::demo::demo),
    },
];

/// The task named `name`.
pub fn task(name: &str) -> Option<&'static TaskRule> {
    TASKS.iter().find(|t| t.name() == name)
}

/// Every task's compare rule, in the table's order.
fn compare_rules() -> Vec<&'static CompareRule> {
    TASKS.iter().map(|t| &t.compare).collect()
}

/// Compares two result documents by their task's rule
/// ([`crate::report::compare::compare`]), once each file's version and
/// its task's check ([`crate::report::check`]) accept it.
pub fn compare(baseline: &At, current: &At, tolerance: f64) -> Result<Comparison, String> {
    let rules = compare_rules();
    for at in [baseline, current] {
        let rule = crate::report::compare::task_of(at, &rules)?;
        let part = Part {
            file: at.file(),
            doc: at.document().value,
        };
        crate::report::check::version(&part)?;
        let task = task(rule.name).ok_or_else(|| format!("no task {}", rule.name))?;
        (task.check)(&part)?;
    }
    crate::report::compare::compare(baseline, current, tolerance, &rules)
}

/// The result one whole evaluation would have written, from its `parts` in
/// any order; the error says which file is of another version or does not
/// belong, which part is missing or given twice ([`crate::report::merge`]),
/// or which part contradicts itself (its task's check,
/// [`crate::report::check`]).
pub fn merge(parts: &[Part]) -> Result<String, String> {
    for part in parts {
        crate::report::check::version(part)?;
    }
    let (rule, in_order) = one_evaluation(parts, &compare_rules())?;
    let task = task(rule.name).ok_or_else(|| format!("no task {}", rule.name))?;
    for part in &in_order {
        (task.check)(part)?;
    }
    written_back(&in_order, (task.merge)(&in_order)?)
}

/// The saved result `part` (`text` its file's text) rendered again by its
/// task ([`crate::report::rerender`]), once its version and its task's
/// check ([`crate::report::check`]) accept it.
pub fn rerender(part: &Part, text: &str, asked: &Rerender) -> Result<Rendered, String> {
    let Some(name) = part.doc.get("task") else {
        return Err(format!(
            "{}: no \"task\" field: not a result file",
            part.file
        ));
    };
    let name = name
        .as_str()
        .map_or_else(|| name.to_string(), str::to_string);
    let task = task(&name).ok_or_else(|| {
        format!(
            "{}: clefeval report does not render {name} results yet",
            part.file
        )
    })?;
    crate::report::check::version(part)?;
    (task.check)(part)?;
    (task.render)(part, text, asked)
}

/// The evaluation `request` asks of the task named `task` (its JSON), as
/// the command writes it with `--format json`: the generic entry every
/// task and format reaches the C API through.
pub fn evaluate(task: &str, request: &str) -> Result<String, TaskError> {
    let request: Request =
        serde_json::from_str(request).map_err(|e| TaskError::input(format!("the request: {e}")))?;
    evaluate_request(task, &request)
}

/// [`evaluate`] of a request given as the value (Python's folder
/// functions).
pub fn evaluate_request(task: &str, request: &Request) -> Result<String, TaskError> {
    let rule = self::task(task).ok_or_else(|| {
        let names: Vec<&str> = TASKS.iter().map(TaskRule::name).collect();
        TaskError::input(format!(
            "unknown task {task:?} (known: {})",
            names.join(", ")
        ))
    })?;
    (rule.evaluate)(request)
}

/// Compares two result documents, named `baseline.json` and
/// `current.json`, by the table's rules without checking them (for the
/// rules' unit tests, which compare documents of a few fields).
#[cfg(test)]
pub fn compare_values(
    baseline: &serde_json::Value,
    current: &serde_json::Value,
    tolerance: f64,
) -> Result<Comparison, String> {
    crate::report::compare::compare(
        &At::root("baseline.json", baseline),
        &At::root("current.json", current),
        tolerance,
        &compare_rules(),
    )
}
