//! The flowchart rule of `clefeval compare`: each topic's distance at each
//! level, and the mean distance per level (lower is better).

use crate::report::compare::{Better, Comparer, named, num_field};
use serde_json::Value;

const LEVELS: [&str; 3] = ["basic", "intermediate", "complete"];

/// Compares one run of two flowchart result files.
pub fn compare_run(cmp: &mut Comparer, run: &str, base: &Value, cur: &Value) {
    let bt = named(base, "topics", "topic");
    let ct = named(cur, "topics", "topic");
    cmp.items(run, &bt, &ct, |s, topic, b, c| {
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
        cmp.numbers(run, "summary", (b, c), &LEVELS, " mean", Better::Lower);
    }
}

fn mean_distances(run: &Value) -> Option<&Value> {
    run.get("summary").and_then(|s| s.get("mean_distance"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::compare::{Verdict, compare};
    use serde_json::json;

    fn fc(topics: Value) -> Value {
        json!({"task": "flowchart", "runs": [{"run": "r", "topics": topics}]})
    }

    #[test]
    fn flowchart_distances_lower_is_better() {
        let rules = [("flowchart", compare_run as _)];
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
        let c = compare(&base, &cur, 0.0, &rules).unwrap();
        assert_eq!(c.regressions, 2, "{c:#?}"); // B worse, C lost
        assert_eq!(c.improvements, 1); // A better
        let b = c.changes.iter().find(|x| x.item == "B").unwrap();
        assert_eq!(b.delta, Some(0.125));
        let d = c.changes.iter().find(|x| x.item == "D").unwrap();
        assert_eq!(d.verdict, Verdict::Note);
        // Within the tolerance the changes are notes.
        let c = compare(&base, &cur, 0.2, &rules).unwrap();
        assert_eq!((c.regressions, c.improvements), (1, 0)); // only the lost topic
    }
}
