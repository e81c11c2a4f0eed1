//! The recognition rule of `clefeval compare`: each structure's outcome,
//! ranked match > stereo > formula > wrong > unreadable > missing
//! (`manual` is not scored), and the recall (higher is better).

use super::outcome::Outcome;
use crate::report::compare::{Better, Comparer, named, str_field};
use serde_json::Value;

/// An outcome's rank, best first (the order of [`Outcome::ALL`]); `manual`
/// and unknown strings have none.
fn outcome_rank(outcome: &str) -> Option<usize> {
    Outcome::ALL
        .iter()
        .filter(|&&o| o != Outcome::Manual)
        .position(|o| o.name() == outcome)
}

/// Compares one run of two recognition result files.
pub fn compare_run(cmp: &mut Comparer, run: &str, base: &Value, cur: &Value) {
    let bs = named(base, "structures", "name");
    let cs = named(cur, "structures", "name");
    cmp.items(run, &bs, &cs, |s, name, b, c| {
        let outcomes = (
            str_field(b, "outcome").unwrap_or_default(),
            str_field(c, "outcome").unwrap_or_default(),
        );
        s.ranked(run, name, "outcome", outcomes, outcome_rank);
    });
    if let (Some(b), Some(c)) = (base.get("summary"), cur.get("summary")) {
        cmp.numbers(run, "summary", (b, c), &["recall"], "", Better::Higher);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::compare::compare;
    use serde_json::json;

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
            &[("recognition", compare_run as _)],
        )
        .unwrap();
        assert_eq!((c.regressions, c.improvements, c.changes.len()), (1, 1, 2));
        assert_eq!(c.compared, 4); // three outcomes and the recall
    }
}
