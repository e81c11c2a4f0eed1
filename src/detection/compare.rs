//! The detection rule of `clefeval compare`: the twelve numbers of each
//! run by name and AP per category by id (higher is better); a number or
//! a category of the baseline that the current file lacks is a
//! regression. Per-image counts are not compared.

use super::params::Params;
use super::report::Settings;
use crate::report::compare::{At, Better, Comparer, Invalid};
use serde_json::Value;

/// The `settings` of a result file scored with the defaults.
pub fn default_settings() -> Value {
    serde_json::to_value(Settings::new(String::new(), &Params::default())).unwrap_or(Value::Null)
}

/// Compares one run of two detection result files.
pub fn compare_run<'v>(
    cmp: &mut Comparer,
    run: &str,
    base: &At<'v>,
    cur: &At<'v>,
) -> Result<(), Invalid> {
    let (bs, cs) = (
        keyed(base, "summary", "name")?,
        keyed(cur, "summary", "name")?,
    );
    cmp.rows(
        (run, "summary"),
        &bs,
        &cs,
        str::to_string,
        |s, name, b, c| {
            let (b, c) = (b.field("value")?.number()?, c.field("value")?.number()?);
            s.number(run, "summary", name, b, c, Better::Higher);
            Ok(())
        },
    )?;
    let category = |v: &At<'v>| -> Result<Vec<(String, At<'v>)>, Invalid> {
        let keyed = keyed(v, "categories", "id")?;
        Ok(keyed
            .into_iter()
            .map(|(id, c)| (format!("category {id}"), c))
            .collect())
    };
    let (bc, cc) = (category(base)?, category(cur)?);
    cmp.items(run, &bc, &cc, |s, item, b, c| {
        s.numbers(run, item, (b, c), &["ap"], "", Better::Higher)
    })
}

/// The array `key` as (name, element) pairs, each named by its field
/// `name_key` (a string or a number).
fn keyed<'v>(v: &At<'v>, key: &str, name_key: &str) -> Result<Vec<(String, At<'v>)>, Invalid> {
    v.array(key)?
        .into_iter()
        .map(|item| {
            let name = item.field(name_key)?;
            let text = match name.value {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                _ => return Err(name.invalid("expected a string or a number")),
            };
            Ok((text, item))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::compare::Verdict;
    use crate::tasks::compare_values;
    use serde_json::json;

    fn det(ap: f64, cat_ap: f64) -> Value {
        json!({"task": "detection", "runs": [{"run": "r",
            "summary": [{"name": "AP", "value": ap}, {"name": "AP50", "value": 0.5}],
            "categories": [{"id": 1, "ap": cat_ap}]}]})
    }

    #[test]
    fn numbers_by_name_and_categories_by_id() {
        let c = compare_values(&det(0.5, 0.4), &det(0.6, 0.3), 0.0).unwrap();
        assert_eq!((c.improvements, c.regressions), (1, 1));
        let r = c
            .changes
            .iter()
            .find(|x| x.verdict == Verdict::Regression)
            .unwrap();
        assert_eq!((r.item.as_str(), r.metric.as_str()), ("category 1", "ap"));
        let i = c
            .changes
            .iter()
            .find(|x| x.verdict == Verdict::Improvement)
            .unwrap();
        assert_eq!((i.item.as_str(), i.metric.as_str()), ("summary", "AP"));
        let mut lost = det(0.5, 0.4);
        lost["runs"][0]["categories"] = json!([]);
        let c = compare_values(&det(0.5, 0.4), &lost, 0.0).unwrap();
        assert_eq!(c.regressions, 1);
        assert_eq!(c.changes[0].item, "category 1", "{:?}", c.changes);
    }

    #[test]
    fn default_settings_are_pycocotools() {
        let d = default_settings();
        assert_eq!(d["max_dets"], json!([1, 10, 100]));
        assert_eq!(d["iou_thresholds"][8], json!(0.8999999999999999));
        assert_eq!(d["use_cats"], json!(true));
    }
}
