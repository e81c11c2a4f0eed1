//! The flowchart rule of `clefeval compare`: each topic's distance at each
//! level and the mean distance per level (lower is better), each topic's
//! triplet F1, the mean node and edge F1 per level and the mean triplet F1
//! (higher is better); a topic, a level or a figure of the baseline that
//! the current file lacks is a regression, one the baseline lacks a note.

use super::mcs::{Level, Settings};
use super::report::ReportSettings;
use crate::report::compare::{At, Better, Comparer, Invalid};
use serde_json::Value;

const LEVELS: [&str; 3] = ["basic", "intermediate", "complete"];

/// The `settings` of a result file scored with every option at its
/// default (all levels, not strict).
pub fn default_settings() -> Value {
    serde_json::to_value(ReportSettings {
        levels: Level::ALL.to_vec(),
        settings: Settings::default(),
        strict: false,
    })
    .unwrap_or(Value::Null)
}

/// Compares one run of two flowchart result files.
pub fn compare_run(cmp: &mut Comparer, run: &str, base: &At, cur: &At) -> Result<(), Invalid> {
    let bt = base.named("topics", "topic")?;
    let ct = cur.named("topics", "topic")?;
    cmp.items(run, &bt, &ct, |s, topic, b, c| {
        let (bl, cl) = (b.field("levels")?, c.field("levels")?);
        for level in LEVELS {
            let distance = |levels: &At| -> Result<Option<f64>, Invalid> {
                levels
                    .get(level)?
                    .map(|l| l.field("distance")?.number())
                    .transpose()
            };
            let pair = (distance(&bl)?, distance(&cl)?);
            if let Some((bd, cd)) = s.both(run, topic, level, pair) {
                s.number(run, topic, level, bd, cd, Better::Lower);
            }
        }
        let f1 = |t: &At| -> Result<Option<f64>, Invalid> {
            t.get("triplets")?
                .map(|x| x.field("f1")?.number())
                .transpose()
        };
        if let Some((bf, cf)) = s.both(run, topic, "triplet F1", (f1(b)?, f1(c)?)) {
            s.number(run, topic, "triplet F1", bf, cf, Better::Higher);
        }
        Ok(())
    })?;
    let (bm, cm) = (mean_distance(base)?, mean_distance(cur)?);
    for level in LEVELS {
        let metric = format!("{level} mean");
        let pair = (bm.opt_number(level)?, cm.opt_number(level)?);
        if let Some((b, c)) = cmp.both(run, "summary", &metric, pair) {
            cmp.number(run, "summary", &metric, b, c, Better::Lower);
        }
        for kind in ["nodes", "edges"] {
            let metric = format!("{level} mean {} F1", kind.trim_end_matches('s'));
            let pair = (
                mean_f1(base, kind, Some(level))?,
                mean_f1(cur, kind, Some(level))?,
            );
            if let Some((b, c)) = cmp.both(run, "summary", &metric, pair) {
                cmp.number(run, "summary", &metric, b, c, Better::Higher);
            }
        }
    }
    let metric = "mean triplet F1";
    let pair = (
        mean_f1(base, "triplets", None)?,
        mean_f1(cur, "triplets", None)?,
    );
    if let Some((b, c)) = cmp.both(run, "summary", metric, pair) {
        cmp.number(run, "summary", metric, b, c, Better::Higher);
    }
    Ok(())
}

/// A run's mean F1 of `summary.mean_<kind>` (at `level` when given), if
/// the file has it.
fn mean_f1(run: &At, kind: &str, level: Option<&str>) -> Result<Option<f64>, Invalid> {
    let Some(mean) = run.field("summary")?.get(&format!("mean_{kind}"))? else {
        return Ok(None);
    };
    let at = match level {
        Some(level) => match mean.get(level)? {
            Some(at) => at,
            None => return Ok(None),
        },
        None => mean,
    };
    at.opt_number("f1")
}

fn mean_distance<'v>(run: &At<'v>) -> Result<At<'v>, Invalid> {
    run.field("summary")?.field("mean_distance")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::compare::Verdict;
    use crate::tasks::compare_values;
    use serde_json::json;

    fn fc(topics: Value) -> Value {
        json!({"task": "flowchart", "runs": [{"run": "r", "topics": topics,
            "summary": {"mean_distance": {"basic": 0.5}}}]})
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
        let c = compare_values(&base, &cur, 0.0).unwrap();
        assert_eq!(c.regressions, 2, "{c:#?}"); // B worse, C lost
        assert_eq!(c.improvements, 1); // A better
        let b = c.changes.iter().find(|x| x.item == "B").unwrap();
        assert_eq!(b.delta, Some(0.125));
        let d = c.changes.iter().find(|x| x.item == "D").unwrap();
        assert_eq!(d.verdict, Verdict::Note);
        // Within the tolerance the changes are notes.
        let c = compare_values(&base, &cur, 0.2).unwrap();
        assert_eq!((c.regressions, c.improvements), (1, 0)); // only the lost topic
    }

    #[test]
    fn a_level_lost_is_a_regression_a_malformed_distance_an_error() {
        let topic = |levels: Value| fc(json!([{"topic": "A", "levels": levels}]));
        let both = topic(json!({"basic": {"distance": 0.5}, "complete": {"distance": 0.5}}));
        let basic = topic(json!({"basic": {"distance": 0.5}}));
        let c = compare_values(&both, &basic, 0.0).unwrap();
        assert_eq!(c.regressions, 1);
        let lost = &c.changes[0];
        assert_eq!(
            (lost.item.as_str(), lost.metric.as_str()),
            ("A", "complete")
        );
        assert_eq!(compare_values(&basic, &both, 0.0).unwrap().regressions, 0);
        // A lost mean.
        let mut no_mean = basic.clone();
        no_mean["runs"][0]["summary"]["mean_distance"] = json!({});
        let c = compare_values(&basic, &no_mean, 0.0).unwrap();
        assert_eq!(
            (c.regressions, c.changes[0].metric.as_str()),
            (1, "basic mean")
        );
        let bad = topic(json!({"basic": {"mcs": 3}}));
        assert_eq!(
            compare_values(&basic, &bad, 0.0).unwrap_err(),
            "current.json: $.runs[0].topics[0].levels.basic.distance: missing (a required field)"
        );
        let bad = topic(json!({"basic": {"distance": "abc"}}));
        assert_eq!(
            compare_values(&bad, &basic, 0.0).unwrap_err(),
            "baseline.json: $.runs[0].topics[0].levels.basic.distance: expected a number, found \"abc\""
        );
    }

    #[test]
    fn f1_figures_higher_is_better_and_absent_ones_are_notes() {
        let run = |f1: f64, mean: f64, triplets: bool| {
            let topic = if triplets {
                json!({"topic": "A", "levels": {}, "triplets": {"f1": f1}})
            } else {
                json!({"topic": "A", "levels": {}})
            };
            json!({"task": "flowchart", "runs": [{"run": "r", "topics": [topic],
                "summary": {"mean_distance": {}, "mean_nodes": {"basic": {"f1": mean}},
                    "mean_triplets": {"f1": f1}}}]})
        };
        let c = compare_values(&run(0.5, 0.5, true), &run(0.75, 0.25, true), 0.0).unwrap();
        // Triplet F1 up twice (topic and mean), basic mean node F1 down.
        assert_eq!((c.improvements, c.regressions), (2, 1), "{c:#?}");
        let node = c
            .changes
            .iter()
            .find(|x| x.metric == "basic mean node F1")
            .unwrap();
        assert_eq!(node.delta, Some(-0.25));
        // A baseline without the triplets of a topic: a note, no verdict.
        let c = compare_values(&run(0.5, 0.5, false), &run(0.5, 0.5, true), 0.0).unwrap();
        assert_eq!((c.improvements, c.regressions), (0, 0), "{c:#?}");
        let c = compare_values(&run(0.5, 0.5, true), &run(0.5, 0.5, false), 0.0).unwrap();
        assert_eq!(c.regressions, 1);
    }

    #[test]
    fn default_settings_are_what_the_report_writes() {
        let d = default_settings();
        assert_eq!(d["levels"], json!(["basic", "intermediate", "complete"]));
        assert_eq!(
            (d["strict"].clone(), d["max_mappings"].clone()),
            (json!(false), json!(100_000))
        );
        assert_eq!(d["denominator"], "union");
        assert_eq!(d["time_limit"], Value::Null);
    }
}
