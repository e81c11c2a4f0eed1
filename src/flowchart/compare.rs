//! The flowchart rule of `clefeval compare`: each topic's distance at each
//! level, and the mean distance per level (lower is better); a topic or a
//! level of the baseline that the current file lacks is a regression.

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
        Ok(())
    })?;
    let (bm, cm) = (mean_distance(base)?, mean_distance(cur)?);
    for level in LEVELS {
        let metric = format!("{level} mean");
        let pair = (bm.opt_number(level)?, cm.opt_number(level)?);
        if let Some((b, c)) = cmp.both(run, "summary", &metric, pair) {
            cmp.number(run, "summary", &metric, b, c, Better::Lower);
        }
    }
    Ok(())
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
