//! The segmentation rule of `clefeval compare`: precision, recall and F1 at
//! each tolerance, overall and per document (higher is better).

use crate::report::compare::{Better, Comparer, named};
use serde_json::Value;

/// Compares one run of two segmentation result files.
pub fn compare_run(cmp: &mut Comparer, run: &str, base: &Value, cur: &Value) {
    tolerance_rows(cmp, run, "summary", base, cur);
    let bd = named(base, "documents", "doc");
    let cd = named(cur, "documents", "doc");
    cmp.items(run, &bd, &cd, |s, doc, b, c| {
        tolerance_rows(s, run, doc, b, c)
    });
}

/// The figures of the rows of `tolerances` whose `t` is on both sides.
fn tolerance_rows(cmp: &mut Comparer, run: &str, item: &str, base: &Value, cur: &Value) {
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
            cmp.numbers(run, item, (b, c), &keys, &suffix, Better::Higher);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::compare::{Verdict, compare};
    use serde_json::json;

    #[test]
    fn segmentation_higher_is_better_per_tolerance_and_document() {
        let rules = [("segmentation", compare_run as _)];
        let run = |f1: f64, doc_f1: f64| {
            json!({"task": "segmentation", "runs": [{"run": "r",
                "tolerances": [{"t": 10, "precision": 0.5, "recall": 0.5, "f1": f1}],
                "documents": [{"doc": "EP1", "tolerances": [{"t": 10, "f1": doc_f1}]}]}]})
        };
        let c = compare(&run(0.5, 0.4), &run(0.6, 0.3), 0.0, &rules).unwrap();
        assert_eq!(c.improvements, 1);
        assert_eq!(c.regressions, 1);
        let r = c
            .changes
            .iter()
            .find(|x| x.verdict == Verdict::Regression)
            .unwrap();
        assert_eq!((r.item.as_str(), r.metric.as_str()), ("EP1", "f1@t=10"));
    }
}
