//! The recognition rule of `clefeval compare`: each structure's outcome,
//! ranked match > stereo > formula > wrong > unreadable > missing
//! (`manual` is not scored), and the recall, the recall ignoring stereo and
//! the recall on stereo gold (higher is better); a structure of the
//! baseline that the current file lacks is a regression.

use super::evaluate::Runs;
use super::outcome::Outcome;
use super::report::Report;
use super::settings::Requested;
use crate::report::compare::{At, Better, Comparer, Invalid};
use serde_json::Value;

/// The `settings` of a result file scored with the default timeout.
pub fn default_settings() -> Value {
    serde_json::to_value(
        Report::new(
            Runs {
                scored: Vec::new(),
                rejected: Vec::new(),
                skipped: Vec::new(),
            },
            &Requested::default(),
        )
        .settings,
    )
    .unwrap_or(Value::Null)
}

/// An outcome's rank, best first (the order of [`Outcome::ALL`]); `manual`
/// and unknown strings have none.
fn outcome_rank(outcome: &str) -> Option<usize> {
    Outcome::ALL
        .iter()
        .filter(|&&o| o != Outcome::Manual)
        .position(|o| o.name() == outcome)
}

/// The `outcome` of a structure, which must be one of [`Outcome::ALL`].
fn outcome<'v>(structure: &At<'v>) -> Result<&'v str, Invalid> {
    let at = structure.field("outcome")?;
    let name = at.string()?;
    if Outcome::ALL.iter().any(|o| o.name() == name) {
        return Ok(name);
    }
    let names: Vec<&str> = Outcome::ALL.iter().map(|o| o.name()).collect();
    Err(at.invalid(format!(
        "expected an outcome ({}), found {}",
        names.join(", "),
        at.value
    )))
}

/// Compares one run of two recognition result files.
pub fn compare_run(cmp: &mut Comparer, run: &str, base: &At, cur: &At) -> Result<(), Invalid> {
    let bs = base.named("structures", "name")?;
    let cs = cur.named("structures", "name")?;
    cmp.items(run, &bs, &cs, |s, name, b, c| {
        let outcomes = (outcome(b)?, outcome(c)?);
        s.ranked(run, name, "outcome", outcomes, outcome_rank);
        Ok(())
    })?;
    let (b, c) = (base.field("summary")?, cur.field("summary")?);
    cmp.numbers(run, "summary", (&b, &c), &["recall"], "", Better::Higher)?;
    // Rates a file written before they were measured lacks: a note then.
    for key in ["recall_ignoring_stereo", "stereo_recall"] {
        let pair = (b.opt_number(key)?, c.opt_number(key)?);
        if let Some((base, cur)) = cmp.both(run, "summary", key, pair) {
            cmp.number(run, "summary", key, base, cur, Better::Higher);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::compare_values;
    use serde_json::json;

    fn rec(outcomes: &[(&str, &str)], recall: f64) -> Value {
        let structures: Vec<Value> = outcomes
            .iter()
            .map(|(name, outcome)| json!({"name": name, "outcome": outcome}))
            .collect();
        json!({"task": "recognition", "runs": [{"run": "r", "structures": structures,
            "summary": {"recall": recall, "recall_ignoring_stereo": recall,
                        "stereo_recall": 0.0}}]})
    }

    #[test]
    fn recognition_outcomes_are_ranked() {
        let c = compare_values(
            &rec(&[("a", "match"), ("b", "wrong"), ("m", "manual")], 0.5),
            &rec(&[("a", "stereo"), ("b", "formula"), ("m", "manual")], 0.5),
            0.0,
        )
        .unwrap();
        assert_eq!((c.regressions, c.improvements, c.changes.len()), (1, 1, 2));
        assert_eq!(c.compared, 6); // three outcomes and three rates
    }

    #[test]
    fn a_rate_the_baseline_lacks_is_a_note() {
        let mut base = rec(&[("a", "match")], 1.0);
        let summary = &mut base["runs"][0]["summary"];
        summary.as_object_mut().unwrap().remove("stereo_recall");
        let c = compare_values(&base, &rec(&[("a", "match")], 1.0), 0.0).unwrap();
        assert_eq!((c.regressions, c.improvements, c.changes.len()), (0, 0, 1));
        assert_eq!(c.changes[0].metric, "stereo_recall");
    }

    #[test]
    fn a_structure_lost_is_a_regression_an_unknown_outcome_an_error() {
        let base = rec(&[("a", "match"), ("b", "wrong")], 0.5);
        let c = compare_values(&base, &rec(&[("a", "match")], 0.5), 0.0).unwrap();
        assert_eq!(c.regressions, 1);
        assert_eq!(
            (c.changes[0].item.as_str(), c.changes[0].metric.as_str()),
            ("b", "item")
        );
        let err = compare_values(&base, &rec(&[("a", "great"), ("b", "wrong")], 0.5), 0.0);
        assert_eq!(
            err.unwrap_err(),
            "current.json: $.runs[0].structures[0].outcome: expected an outcome \
             (match, stereo, formula, wrong, unreadable, missing, manual), found \"great\""
        );
    }

    #[test]
    fn default_settings_carry_the_default_timeout() {
        assert_eq!(default_settings()["timeout_seconds"], json!(10.0));
    }
}
