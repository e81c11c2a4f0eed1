//! The regression gate behind `clefeval compare`: two result files of the
//! same task (the JSON of docs/formats.md), compared item by item.
//!
//! Works on the JSON itself, so it compares result files written by any
//! version of clefeval that keeps the field names. Which figures are
//! compared is the task's rule ([`CompareRun`]), found by the file's
//! `task` field in the table the caller passes (`crate::tasks::TASKS`);
//! this module knows no task. Runs pair by name; two files of one run each
//! pair whatever their names.
//!
//! A numeric change larger than the tolerance is an improvement or a
//! regression; an item present on one side only is a regression when the
//! baseline had it (it was lost) and a note otherwise.

use serde::Serialize;
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// Which way a change went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Regression,
    Improvement,
    /// Changed within the tolerance, or changed without an order (a new item).
    Note,
}

/// One compared figure that changed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Change {
    pub run: String,
    /// Topic, document or structure; `summary` for run-wide figures.
    pub item: String,
    /// The figure: `basic`, `f1@t=10`, `outcome`, ...
    pub metric: String,
    pub baseline: String,
    pub current: String,
    /// current − baseline for numbers.
    pub delta: Option<f64>,
    pub verdict: Verdict,
}

/// The whole comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    pub task: String,
    pub tolerance: f64,
    pub compared: usize,
    pub regressions: usize,
    pub improvements: usize,
    pub changes: Vec<Change>,
}

/// A task's comparison rule: compares one run of the baseline with the same
/// run of the current file (`run` is the name shown), through the
/// [`Comparer`]'s methods.
pub type CompareRun = fn(&mut Comparer, &str, &Value, &Value);

/// Compares two result documents by the rule `tasks` registers for their
/// `task` field. Errors when they are not result files of one known task.
pub fn compare(
    baseline: &Value,
    current: &Value,
    tolerance: f64,
    tasks: &[(&str, CompareRun)],
) -> Result<Comparison, String> {
    let task = task_of(baseline, "baseline")?;
    let current_task = task_of(current, "current")?;
    if task != current_task {
        return Err(format!(
            "the baseline is a {task} result and the current file a {current_task} result"
        ));
    }
    let mut cmp = Comparer {
        tolerance,
        compared: 0,
        changes: Vec::new(),
    };
    let pairs = pair_runs(baseline, current)?;
    let Some(&(_, compare_run)) = tasks.iter().find(|(name, _)| *name == task) else {
        return Err(format!("unknown task {task:?}"));
    };
    for (name, base_run, cur_run) in pairs {
        compare_run(&mut cmp, &name, base_run, cur_run);
    }
    let count = |v| cmp.changes.iter().filter(|c| c.verdict == v).count();
    Ok(Comparison {
        regressions: count(Verdict::Regression),
        improvements: count(Verdict::Improvement),
        task,
        tolerance,
        compared: cmp.compared,
        changes: cmp.changes,
    })
}

fn task_of(doc: &Value, side: &str) -> Result<String, String> {
    doc.get("task")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| format!("the {side} file is not a clefeval result (no \"task\" field)"))
}

type RunPair<'a> = (String, &'a Value, &'a Value);

fn runs(doc: &Value) -> Vec<(String, &Value)> {
    doc.get("runs")
        .and_then(Value::as_array)
        .map(|runs| {
            runs.iter()
                .map(|r| (str_field(r, "run").unwrap_or_default(), r))
                .collect()
        })
        .unwrap_or_default()
}

fn pair_runs<'a>(baseline: &'a Value, current: &'a Value) -> Result<Vec<RunPair<'a>>, String> {
    let base = runs(baseline);
    let cur = runs(current);
    if let ([(b_name, b)], [(c_name, c)]) = (base.as_slice(), cur.as_slice()) {
        let name = if b_name == c_name {
            b_name.clone()
        } else {
            format!("{b_name} -> {c_name}")
        };
        return Ok(vec![(name, *b, *c)]);
    }
    let pairs: Vec<RunPair<'a>> = base
        .iter()
        .filter_map(|(name, b)| {
            cur.iter()
                .find(|(n, _)| n == name)
                .map(|(_, c)| (name.clone(), *b, *c))
        })
        .collect();
    if pairs.is_empty() {
        return Err("the two files have no run name in common".into());
    }
    Ok(pairs)
}

/// The string field `key` of `v`.
pub fn str_field(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// The number field `key` of `v`.
pub fn num_field(v: &Value, key: &str) -> Option<f64> {
    v.get(key).and_then(Value::as_f64)
}

/// The array `key` of `v` as (name, element) pairs, named by `name_key`.
pub fn named<'a>(v: &'a Value, key: &str, name_key: &str) -> Vec<(String, &'a Value)> {
    v.get(key)
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .map(|i| (str_field(i, name_key).unwrap_or_default(), i))
                .collect()
        })
        .unwrap_or_default()
}

fn fmt_num(x: f64) -> String {
    format!("{x:.4}")
}

/// The figures compared so far and the changes found; a task's
/// [`CompareRun`] feeds it.
pub struct Comparer {
    tolerance: f64,
    compared: usize,
    changes: Vec<Change>,
}

/// Whether a larger number is better for a figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Better {
    Higher,
    Lower,
}

impl Comparer {
    /// Compares one number: a change beyond the tolerance the `better` way
    /// is an improvement, the other way a regression.
    pub fn number(
        &mut self,
        run: &str,
        item: &str,
        metric: &str,
        base: f64,
        cur: f64,
        better: Better,
    ) {
        self.compared += 1;
        let delta = cur - base;
        if delta == 0.0 || (delta.is_nan() && base.is_nan() && cur.is_nan()) {
            return;
        }
        let gain = match better {
            Better::Higher => delta,
            Better::Lower => -delta,
        };
        let verdict = if gain.is_nan() || gain < -self.tolerance {
            Verdict::Regression
        } else if gain > self.tolerance {
            Verdict::Improvement
        } else {
            Verdict::Note
        };
        self.changes.push(Change {
            run: run.to_owned(),
            item: item.to_owned(),
            metric: metric.to_owned(),
            baseline: fmt_num(base),
            current: fmt_num(cur),
            delta: Some(delta),
            verdict,
        });
    }

    /// An item the baseline has and the current file lacks (a regression),
    /// or the other way round (a note).
    pub fn presence(&mut self, run: &str, item: &str, in_baseline: bool) {
        self.compared += 1;
        let (baseline, current, verdict) = if in_baseline {
            ("present", "absent", Verdict::Regression)
        } else {
            ("absent", "present", Verdict::Note)
        };
        self.changes.push(Change {
            run: run.to_owned(),
            item: item.to_owned(),
            metric: "item".to_owned(),
            baseline: baseline.to_owned(),
            current: current.to_owned(),
            delta: None,
            verdict,
        });
    }

    /// Walks the items of both sides by name: `each` on items in both,
    /// a presence change on items in one.
    pub fn items<'a>(
        &mut self,
        run: &str,
        base: &[(String, &'a Value)],
        cur: &[(String, &'a Value)],
        mut each: impl FnMut(&mut Self, &str, &'a Value, &'a Value),
    ) {
        // Maps, not linear searches: a result file may hold 100 000 structures.
        let mut cur_by_name: HashMap<&str, &'a Value> = HashMap::with_capacity(cur.len());
        for (name, value) in cur {
            cur_by_name.entry(name.as_str()).or_insert(*value); // the first of a name
        }
        let base_names: HashSet<&str> = base.iter().map(|(n, _)| n.as_str()).collect();
        for (name, b) in base {
            match cur_by_name.get(name.as_str()) {
                Some(c) => each(self, name, b, c),
                None => self.presence(run, name, true),
            }
        }
        for (name, _) in cur {
            if !base_names.contains(name.as_str()) {
                self.presence(run, name, false);
            }
        }
    }

    /// Numbers under `key` of two objects, for every key of `keys` found on both sides.
    pub fn numbers(
        &mut self,
        run: &str,
        item: &str,
        (base, cur): (&Value, &Value),
        keys: &[&str],
        suffix: &str,
        better: Better,
    ) {
        for key in keys {
            if let (Some(b), Some(c)) = (num_field(base, key), num_field(cur, key)) {
                self.number(run, item, &format!("{key}{suffix}"), b, c, better);
            }
        }
    }

    /// Compares a label whose values are ranked (`rank`, 0 best; a value
    /// without a rank changes as a note): a worse rank is a regression.
    pub fn ranked(
        &mut self,
        run: &str,
        item: &str,
        metric: &str,
        (base, cur): (String, String),
        rank: fn(&str) -> Option<usize>,
    ) {
        self.compared += 1;
        if base == cur {
            return;
        }
        let verdict = match (rank(&base), rank(&cur)) {
            (Some(br), Some(cr)) if cr > br => Verdict::Regression,
            (Some(br), Some(cr)) if cr < br => Verdict::Improvement,
            _ => Verdict::Note,
        };
        self.changes.push(Change {
            run: run.to_owned(),
            item: item.to_owned(),
            metric: metric.to_owned(),
            baseline: base,
            current: cur,
            delta: None,
            verdict,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A rule that compares nothing, for the checks every task shares.
    fn nothing(_: &mut Comparer, _: &str, _: &Value, _: &Value) {}

    const TASKS: [(&str, CompareRun); 2] = [("flowchart", nothing), ("segmentation", nothing)];

    #[test]
    fn different_tasks_no_common_run_or_unknown_tasks_are_errors() {
        let f = json!({"task": "flowchart", "runs": [{"run": "r", "topics": []}]});
        let s = json!({"task": "segmentation", "runs": []});
        assert!(compare(&f, &s, 0.0, &TASKS).is_err());
        assert!(compare(&json!({}), &f, 0.0, &TASKS).is_err());
        assert!(compare(&f, &f, 0.0, &TASKS).is_ok());
        assert!(compare(&f, &f, 0.0, &TASKS[1..]).is_err());
        let two = |a: &str, b: &str| json!({"task": "flowchart", "runs": [{"run": a, "topics": []}, {"run": b, "topics": []}]});
        assert!(compare(&two("x", "y"), &two("p", "q"), 0.0, &TASKS).is_err());
        assert!(compare(&two("x", "y"), &two("y", "q"), 0.0, &TASKS).is_ok());
    }
}
