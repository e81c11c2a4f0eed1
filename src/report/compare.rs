//! The regression gate behind `clefeval compare`: two result files of the
//! same task (the JSON of SPEC §5), compared item by item.
//!
//! Works on the JSON itself, so it compares result files written by any
//! version of clefeval that keeps the SPEC §5 field names.
//!
//! What is compared, per run (runs pair by name; two files of one run each
//! pair whatever their names):
//! - flowchart: each topic's distance at each level (lower is better), and
//!   the mean distance per level;
//! - segmentation: precision, recall and F1 at each tolerance, overall and
//!   per document (higher is better);
//! - recognition: each structure's outcome, ranked match > stereo > formula >
//!   wrong > unreadable > missing (`manual` is not scored), and the recall.
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

/// Compares two result documents. Errors when they are not result files of
/// one task.
pub fn compare(baseline: &Value, current: &Value, tolerance: f64) -> Result<Comparison, String> {
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
    for (name, base_run, cur_run) in pair_runs(baseline, current)? {
        match task.as_str() {
            "flowchart" => cmp.flowchart(&name, base_run, cur_run),
            "segmentation" => cmp.segmentation(&name, base_run, cur_run),
            "recognition" => cmp.recognition(&name, base_run, cur_run),
            other => return Err(format!("unknown task {other:?}")),
        }
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

fn str_field(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn num_field(v: &Value, key: &str) -> Option<f64> {
    v.get(key).and_then(Value::as_f64)
}

/// The array `key` of `v` as (name, element) pairs, named by `name_key`.
fn named<'a>(v: &'a Value, key: &str, name_key: &str) -> Vec<(String, &'a Value)> {
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

/// Outcome ranks, best first; `manual` and unknown strings have none.
const OUTCOME_ORDER: [&str; 6] = [
    "match",
    "stereo",
    "formula",
    "wrong",
    "unreadable",
    "missing",
];

fn outcome_rank(outcome: &str) -> Option<usize> {
    OUTCOME_ORDER.iter().position(|o| *o == outcome)
}

struct Comparer {
    tolerance: f64,
    compared: usize,
    changes: Vec<Change>,
}

/// Whether a larger number is better for a figure.
#[derive(Clone, Copy)]
enum Better {
    Higher,
    Lower,
}

impl Comparer {
    fn number(&mut self, run: &str, item: &str, metric: &str, base: f64, cur: f64, better: Better) {
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
    fn presence(&mut self, run: &str, item: &str, in_baseline: bool) {
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
    fn items<'a>(
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
    fn numbers(
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

    fn flowchart(&mut self, run: &str, base: &Value, cur: &Value) {
        const LEVELS: [&str; 3] = ["basic", "intermediate", "complete"];
        let bt = named(base, "topics", "topic");
        let ct = named(cur, "topics", "topic");
        self.items(run, &bt, &ct, |s, topic, b, c| {
            for level in LEVELS {
                let distance = |v: &Value| {
                    v.get("levels")
                        .and_then(|l| l.get(level))
                        .and_then(|l| num_field(l, "distance"))
                };
                if let (Some(bd), Some(cd)) = (distance(b), distance(c)) {
                    s.number(run, topic, level, bd, cd, Better::Lower);
                }
            }
        });
        if let (Some(b), Some(c)) = (mean_distances(base), mean_distances(cur)) {
            self.numbers(run, "summary", (b, c), &LEVELS, " mean", Better::Lower);
        }
    }

    fn segmentation(&mut self, run: &str, base: &Value, cur: &Value) {
        self.tolerance_rows(run, "summary", base, cur);
        let bd = named(base, "documents", "doc");
        let cd = named(cur, "documents", "doc");
        self.items(run, &bd, &cd, |s, doc, b, c| {
            s.tolerance_rows(run, doc, b, c)
        });
    }

    fn tolerance_rows(&mut self, run: &str, item: &str, base: &Value, cur: &Value) {
        let rows = |v: &Value| -> Vec<(String, Value)> {
            v.get("tolerances")
                .and_then(Value::as_array)
                .map(|rows| {
                    rows.iter()
                        .map(|r| {
                            let t = r.get("t").map(Value::to_string).unwrap_or_default();
                            (t, r.clone())
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let (br, cr) = (rows(base), rows(cur));
        for (t, b) in &br {
            if let Some((_, c)) = cr.iter().find(|(ct, _)| ct == t) {
                let suffix = format!("@t={t}");
                let keys = ["precision", "recall", "f1"];
                self.numbers(run, item, (b, c), &keys, &suffix, Better::Higher);
            }
        }
    }

    fn recognition(&mut self, run: &str, base: &Value, cur: &Value) {
        let bs = named(base, "structures", "name");
        let cs = named(cur, "structures", "name");
        self.items(run, &bs, &cs, |s, name, b, c| {
            let bo = str_field(b, "outcome").unwrap_or_default();
            let co = str_field(c, "outcome").unwrap_or_default();
            s.compared += 1;
            if bo == co {
                return;
            }
            let verdict = match (outcome_rank(&bo), outcome_rank(&co)) {
                (Some(br), Some(cr)) if cr > br => Verdict::Regression,
                (Some(br), Some(cr)) if cr < br => Verdict::Improvement,
                _ => Verdict::Note,
            };
            s.changes.push(Change {
                run: run.to_owned(),
                item: name.to_owned(),
                metric: "outcome".to_owned(),
                baseline: bo,
                current: co,
                delta: None,
                verdict,
            });
        });
        if let (Some(b), Some(c)) = (base.get("summary"), cur.get("summary")) {
            self.numbers(run, "summary", (b, c), &["recall"], "", Better::Higher);
        }
    }
}

fn mean_distances(run: &Value) -> Option<&Value> {
    run.get("summary").and_then(|s| s.get("mean_distance"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fc(topics: Value) -> Value {
        json!({"task": "flowchart", "runs": [{"run": "r", "topics": topics}]})
    }

    #[test]
    fn flowchart_distances_lower_is_better() {
        let base = fc(json!([
            {"topic": "A", "levels": {"basic": {"distance": 0.25}}},
            {"topic": "B", "levels": {"basic": {"distance": 0.5}}},
            {"topic": "C", "levels": {"basic": {"distance": 0.1}}},
        ]));
        let cur = fc(json!([
            {"topic": "A", "levels": {"basic": {"distance": 0.125}}},
            {"topic": "B", "levels": {"basic": {"distance": 0.625}}},
            {"topic": "D", "levels": {"basic": {"distance": 0.0}}},
        ]));
        let c = compare(&base, &cur, 0.0).unwrap();
        assert_eq!(c.regressions, 2, "{c:#?}"); // B worse, C lost
        assert_eq!(c.improvements, 1); // A better
        let b = c.changes.iter().find(|x| x.item == "B").unwrap();
        assert_eq!(b.delta, Some(0.125));
        let d = c.changes.iter().find(|x| x.item == "D").unwrap();
        assert_eq!(d.verdict, Verdict::Note);
        // Within the tolerance the changes are notes.
        let c = compare(&base, &cur, 0.2).unwrap();
        assert_eq!((c.regressions, c.improvements), (1, 0)); // only the lost topic
    }

    #[test]
    fn segmentation_higher_is_better_per_tolerance_and_document() {
        let run = |f1: f64, doc_f1: f64| {
            json!({"task": "segmentation", "runs": [{"run": "r",
                "tolerances": [{"t": 10, "precision": 0.5, "recall": 0.5, "f1": f1}],
                "documents": [{"doc": "EP1", "tolerances": [{"t": 10, "f1": doc_f1}]}]}]})
        };
        let c = compare(&run(0.5, 0.4), &run(0.6, 0.3), 0.0).unwrap();
        assert_eq!(c.improvements, 1);
        assert_eq!(c.regressions, 1);
        let r = c
            .changes
            .iter()
            .find(|x| x.verdict == Verdict::Regression)
            .unwrap();
        assert_eq!((r.item.as_str(), r.metric.as_str()), ("EP1", "f1@t=10"));
    }

    #[test]
    fn recognition_outcomes_are_ranked() {
        let run = |a: &str, b: &str, m: &str, recall: f64| {
            json!({"task": "recognition", "runs": [{"run": "r", "structures": [
                {"name": "a", "outcome": a}, {"name": "b", "outcome": b}, {"name": "m", "outcome": m}],
                "summary": {"recall": recall}}]})
        };
        let c = compare(
            &run("match", "wrong", "manual", 0.5),
            &run("stereo", "formula", "manual", 0.5),
            0.0,
        )
        .unwrap();
        assert_eq!((c.regressions, c.improvements, c.changes.len()), (1, 1, 2));
        assert_eq!(c.compared, 4); // three outcomes and the recall
    }

    #[test]
    fn different_tasks_or_no_common_run_are_errors() {
        let f = fc(json!([]));
        let s = json!({"task": "segmentation", "runs": []});
        assert!(compare(&f, &s, 0.0).is_err());
        assert!(compare(&json!({}), &f, 0.0).is_err());
        let two = |a: &str, b: &str| json!({"task": "flowchart", "runs": [{"run": a, "topics": []}, {"run": b, "topics": []}]});
        assert!(compare(&two("x", "y"), &two("p", "q"), 0.0).is_err());
        assert!(compare(&two("x", "y"), &two("y", "q"), 0.0).is_ok());
    }
}
