//! The segmentation rule of `clefeval compare`: precision, recall and F1 at
//! each tolerance, overall and per document (higher is better); a document
//! or a tolerance of the baseline that the current file lacks is a
//! regression.

use super::report::Settings;
use super::tolerances::{DEFAULT_PIXELS, Tolerances};
use crate::report::compare::{At, Better, Comparer, Invalid};
use serde_json::Value;

/// The settings that name files (the gold, the page images, the overlay
/// folder) or only shape an output (the overlays' tolerance): not compared.
pub const LOCATIONS: &[&str] = &["gold", "pages", "overlays", "overlay_tolerance"];

/// The `settings` of a result file scored with the default tolerances.
pub fn default_settings() -> Value {
    let tolerances = Tolerances::parse_pixels(DEFAULT_PIXELS).unwrap_or(Tolerances::Pixels(vec![]));
    serde_json::to_value(Settings {
        unit: tolerances.unit(),
        tolerances: tolerances.iter().collect(),
        ..Settings::default()
    })
    .unwrap_or(Value::Null)
}

/// Compares one run of two segmentation result files.
pub fn compare_run(cmp: &mut Comparer, run: &str, base: &At, cur: &At) -> Result<(), Invalid> {
    tolerance_rows(cmp, run, "summary", base, cur)?;
    let bd = base.named("documents", "doc")?;
    let cd = cur.named("documents", "doc")?;
    cmp.items(run, &bd, &cd, |s, doc, b, c| {
        tolerance_rows(s, run, doc, b, c)
    })
}

/// The figures of the rows of `tolerances`, paired by `t`.
fn tolerance_rows(
    cmp: &mut Comparer,
    run: &str,
    item: &str,
    base: &At,
    cur: &At,
) -> Result<(), Invalid> {
    let (br, cr) = (rows(base)?, rows(cur)?);
    let label = |t: &str| format!("t={t}");
    cmp.rows((run, item), &br, &cr, label, |s, t, b, c| {
        let suffix = format!("@t={t}");
        let keys = ["precision", "recall", "f1"];
        s.numbers(run, item, (b, c), &keys, &suffix, Better::Higher)
    })
}

/// The rows of `tolerances`, keyed by their `t`.
fn rows<'v>(v: &At<'v>) -> Result<Vec<(String, At<'v>)>, Invalid> {
    v.array("tolerances")?
        .into_iter()
        .map(|row| {
            let t = row.field("t")?;
            t.number()?;
            Ok((t.value.to_string(), row))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::compare::Verdict;
    use crate::tasks::compare_values;
    use serde_json::json;

    fn row(t: u32, f1: f64) -> Value {
        json!({"t": t, "precision": 0.5, "recall": 0.5, "f1": f1})
    }

    fn seg(rows: Vec<Value>, doc_rows: Vec<Value>) -> Value {
        json!({"task": "segmentation", "runs": [{"run": "r", "tolerances": rows,
            "documents": [{"doc": "EP1", "tolerances": doc_rows}]}]})
    }

    #[test]
    fn segmentation_higher_is_better_per_tolerance_and_document() {
        let run = |f1, doc_f1| seg(vec![row(10, f1)], vec![row(10, doc_f1)]);
        let c = compare_values(&run(0.5, 0.4), &run(0.6, 0.3), 0.0).unwrap();
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
    fn a_tolerance_or_document_lost_is_a_regression() {
        let base = seg(
            vec![row(0, 0.5), row(10, 0.5)],
            vec![row(0, 0.5), row(10, 0.5)],
        );
        let cur = seg(vec![row(0, 0.5), row(10, 0.5)], vec![row(0, 0.5)]);
        let c = compare_values(&base, &cur, 0.0).unwrap();
        assert_eq!(c.regressions, 1);
        let lost = &c.changes[0];
        assert_eq!((lost.item.as_str(), lost.metric.as_str()), ("EP1", "t=10"));
        let mut no_doc = cur.clone();
        no_doc["runs"][0]["documents"] = json!([]);
        let c = compare_values(&base, &no_doc, 0.0).unwrap();
        assert_eq!(
            (c.changes[0].item.as_str(), c.changes[0].metric.as_str()),
            ("EP1", "item")
        );
        let mut bad = base.clone();
        bad["runs"][0]["tolerances"][1]["recall"] = json!("0.5");
        assert_eq!(
            compare_values(&base, &bad, 0.0).unwrap_err(),
            "current.json: $.runs[0].tolerances[1].recall: expected a number, found \"0.5\""
        );
    }

    #[test]
    fn default_settings_are_the_default_sweep_in_pixels() {
        let d = default_settings();
        assert_eq!(d["unit"], "px");
        assert_eq!(d["tolerances"], json!((0..=55).collect::<Vec<u32>>()));
    }
}
