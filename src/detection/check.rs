//! A detection result file checked on reading (`crate::report::check`):
//! the IoU thresholds in [0, 1] and increasing, the per-image counts at
//! one of them; in each run every category and image once, the detections
//! left out within those in the file, each of the twelve numbers named and
//! labelled as the settings make them, every AP, AR and curve point in
//! [0, 1] or −1 (nothing to find), −1 exactly for a category without gold
//! boxes. A part keeps its matches: its every figure is made again from
//! them by the code of a whole evaluation.

use super::matches;
use super::report::{Report, RunReport, Scored, stat_labels};
use crate::report::check::Checker;
use crate::report::merge::Part;

/// The check of a detection result file or part.
pub fn check(part: &Part) -> Result<(), String> {
    let report: Report = part.read()?;
    let c = Checker::new(part.file);
    let settings = &report.settings;
    let thresholds = &settings.iou_thresholds;
    for (i, t) in thresholds.iter().enumerate() {
        let at = format!("$.settings.iou_thresholds[{i}]");
        c.ratio(&at, *t)?;
        if let Some(before) = i.checked_sub(1).and_then(|b| thresholds.get(b)) {
            c.require(
                before < t,
                &at,
                format!("{t} does not follow {before}: the thresholds are not increasing"),
            )?;
        }
    }
    let counted = (thresholds.iter().find(|&&t| t == 0.5))
        .or(thresholds.first())
        .copied()
        .unwrap_or(0.5);
    c.made_again(
        "$.settings.image_counts_iou",
        &settings.image_counts_iou,
        &counted,
        "the thresholds",
    )?;
    let params = settings.params();
    let labels = stat_labels(&params);
    for (r, run) in report.runs.iter().enumerate() {
        let at = format!("$.runs[{r}]");
        check_run(&c, &at, run)?;
        for (i, (stat, (name, iou, area, max_dets))) in run.summary.iter().zip(&labels).enumerate()
        {
            let label = |name: &str, iou: &str, area: &str, max_dets: usize| serde_json::json!({"name": name, "iou": iou, "area": area, "max_dets": max_dets});
            let stored = label(&stat.name, &stat.iou, &stat.area, stat.max_dets);
            let made = label(name, iou, area, *max_dets);
            c.made_again(
                &format!("{at}.summary[{i}]"),
                &stored,
                &made,
                "the settings",
            )?;
        }
        let Some(stored) = &run.matches else {
            continue;
        };
        let names: Vec<(i64, String)> = (run.categories.iter())
            .map(|k| (k.id, k.name.clone()))
            .collect();
        let ids = names.iter().map(|(id, _)| *id).collect();
        let evaluated = matches::evaluated(ids, stored, thresholds.len())
            .map_err(|e| c.fail(&format!("{at}.matches"), e))?;
        let scored = Scored {
            run: run.run.clone(),
            detections: run.detections,
            dropped: run.dropped,
            names: &names,
            diagnostics: Vec::new(),
            part: true,
        };
        let made = RunReport::new(scored, &evaluated, &params);
        let from = "its matches";
        c.made_again(&format!("{at}.summary"), &run.summary, &made.summary, from)?;
        c.made_again(
            &format!("{at}.categories"),
            &run.categories,
            &made.categories,
            from,
        )?;
        c.made_again(&format!("{at}.curves"), &run.curves, &made.curves, from)?;
        c.made_again(&format!("{at}.images"), &run.images, &made.images, from)?;
    }
    Ok(())
}

/// What a run holds whether or not its matches are kept.
fn check_run(c: &Checker, at: &str, run: &RunReport) -> Result<(), String> {
    c.at_most(
        &format!("{at}.dropped"),
        run.dropped,
        run.detections,
        "the detections in the run's file",
    )?;
    c.require(
        run.summary.len() == 12,
        &format!("{at}.summary"),
        format!(
            "{} numbers where pycocotools' summary has 12",
            run.summary.len()
        ),
    )?;
    for (i, stat) in run.summary.iter().enumerate() {
        found_or_none(c, &format!("{at}.summary[{i}].value"), stat.value)?;
    }
    let list = format!("{at}.categories");
    let ids: Vec<String> = run.categories.iter().map(|k| k.id.to_string()).collect();
    c.once(&list, ".id", ids.iter().map(String::as_str))?;
    for (k, category) in run.categories.iter().enumerate() {
        let ap = format!("{list}[{k}].ap");
        found_or_none(c, &ap, category.ap)?;
        c.require(
            (category.ap == -1.0) == (category.gold == 0),
            &ap,
            format!(
                "{} for a category with {} gold boxes (−1 exactly when there is none)",
                category.ap, category.gold
            ),
        )?;
    }
    for (k, curve) in run.curves.iter().enumerate() {
        for (p, v) in curve.precision.iter().enumerate() {
            found_or_none(c, &format!("{at}.curves[{k}].precision[{p}]"), *v)?;
        }
    }
    let list = format!("{at}.images");
    let images: Vec<String> = run.images.iter().map(|i| i.image.to_string()).collect();
    c.once(&list, ".image", images.iter().map(String::as_str))?;
    let kept: usize = run.images.iter().map(|i| i.tp + i.fp).sum();
    c.at_most(
        &list,
        kept,
        run.detections,
        "the detections in the run's file",
    )
}

/// An AP, an AR or a precision: in [0, 1], or −1 where there is nothing
/// to find.
fn found_or_none(c: &Checker, at: &str, v: f64) -> Result<(), String> {
    if v == -1.0 {
        Ok(())
    } else {
        c.ratio(at, v).map_err(|e| format!("{e} (nor −1)"))
    }
}

#[cfg(test)]
mod tests {
    use super::check;
    use crate::report::merge::Part;
    use serde_json::{Value, json};

    fn checked(doc: &Value) -> Result<(), String> {
        check(&Part {
            file: "d.json",
            doc,
        })
    }

    fn result(shard: Option<&str>) -> Value {
        crate::report::check::evaluated(
            "detection",
            json!({"gold": ["goldens/detection/demo/gold.json"],
                   "runs": ["goldens/detection/demo/osra.json"], "shard": shard}),
        )
    }

    #[test]
    fn genuine_results_pass_and_each_tampered_value_is_refused() {
        let (whole, part) = (result(None), result(Some("1/2")));
        checked(&whole).unwrap();
        checked(&part).unwrap();
        let cases: &[(&Value, &str, Value, &str)] = &[
            (
                &whole,
                "/runs/0/summary/0/value",
                json!(-5.0),
                "$.runs[0].summary[0].value: -5 is out of its range [0, 1] (nor −1)",
            ),
            (
                &whole,
                "/runs/0/dropped",
                json!(1_000_000),
                "$.runs[0].dropped: 1000000 is more than the detections",
            ),
            (
                &whole,
                "/settings/image_counts_iou",
                json!(0.75),
                "$.settings.image_counts_iou: the file says 0.75, the thresholds make 0.5",
            ),
            (
                &whole,
                "/runs/0/categories/0/gold",
                json!(0),
                "$.runs[0].categories[0].ap: ",
            ),
            (
                &part,
                "/runs/0/summary/1/value",
                json!(0.125),
                "$.runs[0].summary[1].value: the file says 0.125, its matches make ",
            ),
            (
                &part,
                "/runs/0/images/0/tp",
                json!(1000),
                "$.runs[0].images: ",
            ),
        ];
        for (doc, pointer, value, expected) in cases {
            let mut doc = (*doc).clone();
            *doc.pointer_mut(pointer).unwrap() = value.clone();
            let err = checked(&doc).unwrap_err();
            assert!(err.contains(expected), "{pointer}: {err}");
        }
    }
}
