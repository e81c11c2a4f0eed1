//! A segmentation result file checked on reading
//! (`crate::report::check`): the tolerances of the sweep in increasing
//! order and of the unit the settings name; every document once per run,
//! with a figure per tolerance, the same gold and submitted boxes at
//! every tolerance, each figure's precision, recall and F1 made again from
//! its counts and its largest unambiguous tolerance one of the sweep's;
//! and each run's micro figures made again from its documents.

use super::report::{Report, RunReport};
use super::score::{Counts, DocumentSweep, Figures, RunSweep};
use super::tolerances::{Tolerance, Tolerances};
use crate::report::check::Checker;
use crate::report::merge::Part;

/// The check of a segmentation result file or part.
pub fn check(part: &Part) -> Result<(), String> {
    let report: Report = part.read()?;
    let c = Checker::new(part.file);
    let given = &report.settings.tolerances;
    for (i, t) in given.iter().enumerate() {
        let at = format!("$.settings.tolerances[{i}]");
        let (kind, value) = unit_and_value(t);
        c.require(
            kind == report.settings.unit,
            &at,
            format!(
                "a tolerance in {kind} where the unit is {}",
                report.settings.unit
            ),
        )?;
        c.within(&at, value, (0.0, f64::MAX))?;
        if let Some(before) = i.checked_sub(1).and_then(|b| given.get(b)) {
            c.require(
                unit_and_value(before).1 < value,
                &at,
                format!("{t} does not follow {before}: the tolerances are not in increasing order"),
            )?;
        }
    }
    let tolerances = report.settings.sweep_tolerances();
    for (r, run) in report.runs.iter().enumerate() {
        check_run(&c, &format!("$.runs[{r}]"), run, &tolerances)?;
    }
    Ok(())
}

/// A tolerance's unit and its value in that unit.
fn unit_and_value(t: &Tolerance) -> (&'static str, f64) {
    match *t {
        Tolerance::Pixels(px) => ("px", f64::from(px)),
        Tolerance::Millimetres(mm) => ("mm", mm),
    }
}

fn check_run(
    c: &Checker,
    at: &str,
    run: &RunReport,
    tolerances: &Tolerances,
) -> Result<(), String> {
    check_figures(c, &format!("{at}.tolerances"), &run.tolerances, tolerances)?;
    let list = format!("{at}.documents");
    c.once(&list, ".doc", run.documents.iter().map(|d| d.doc.as_str()))?;
    let mut documents = Vec::with_capacity(run.documents.len());
    for (i, d) in run.documents.iter().enumerate() {
        let at = format!("{list}[{i}]");
        check_figures(c, &format!("{at}.tolerances"), &d.tolerances, tolerances)?;
        let sweep = d.sweep(tolerances);
        c.made_again(
            &format!("{at}.max_unambiguous_tolerance"),
            &d.max_unambiguous_tolerance,
            &sweep.max_unambiguous(tolerances),
            "the sweep's tolerances",
        )?;
        documents.push(DocumentSweep {
            doc: d.doc.clone(),
            sweep,
        });
    }
    let sweep = RunSweep {
        total: Default::default(),
        documents,
        crowded: Vec::new(),
    }
    .totalled(tolerances.len());
    let made = RunReport::new(run.run.clone(), &sweep, tolerances, Vec::new());
    c.made_again(
        &format!("{at}.tolerances"),
        &run.tolerances,
        &made.tolerances,
        "its documents",
    )?;
    c.made_again(
        &format!("{at}.max_unambiguous_tolerance"),
        &run.max_unambiguous_tolerance,
        &made.max_unambiguous_tolerance,
        "its documents",
    )
}

/// A document's figures: one per tolerance of the sweep, in its order,
/// the same boxes at each, each made again from its counts.
fn check_figures(
    c: &Checker,
    at: &str,
    figures: &[Figures],
    tolerances: &Tolerances,
) -> Result<(), String> {
    c.require(
        figures.len() == tolerances.len(),
        at,
        format!(
            "{} figures for the {} tolerances of the sweep",
            figures.len(),
            tolerances.len()
        ),
    )?;
    let mut boxes = None;
    for (i, (f, t)) in figures.iter().zip(tolerances.iter()).enumerate() {
        let at = format!("{at}[{i}]");
        c.made_again(&format!("{at}.t"), &f.t, &t, "the sweep's tolerances")?;
        let (Some(submitted), Some(gold)) = (f.tp.checked_add(f.fp), f.tp.checked_add(f.fn_))
        else {
            return Err(c.fail(&at, "counts past any number of boxes"));
        };
        match boxes {
            Some((s, g)) if (s, g) != (submitted, gold) => {
                return Err(c.fail(
                    &at,
                    format!(
                        "{submitted} submitted and {gold} gold boxes where the first tolerance has {s} and {g}"
                    ),
                ));
            }
            _ => boxes = Some((submitted, gold)),
        }
        let counts = Counts {
            tp: f.tp,
            submitted,
            gold,
        };
        c.made_again(&at, f, &Figures::new(t, &counts), "its counts")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check;
    use crate::report::check::refuses_each;
    use serde_json::{Value, json};

    fn genuine() -> Value {
        crate::report::check::evaluated(
            "segmentation",
            json!({"gold": ["goldens/segmentation/gold"],
                   "runs": ["goldens/segmentation/run-osra"]}),
        )
    }

    #[test]
    fn a_genuine_result_passes_and_each_tampered_value_is_refused() {
        // Document 1 at 3 px: 2 of 3 boxes found; one fewer, its figures
        // made as the writer makes them, leaves the run's total behind.
        let third = 1.0 / 3.0;
        let fewer = json!({"t": 3, "tp": 1, "fp": 2, "fn": 2, "precision": third,
                           "recall": third, "f1": 2.0 * third * third / (third + third)});
        let cases: &[(&str, Value, &str)] = &[
            (
                "/runs/0/tolerances/3/recall",
                json!(-5.0),
                "$.runs[0].tolerances[3].recall: the file says -5.0, its counts make 0.7777777777777778",
            ),
            (
                "/runs/0/tolerances/3/tp",
                json!(3),
                "$.runs[0].tolerances[3]: 5 submitted and 5 gold boxes where the first tolerance has 9 and 9",
            ),
            (
                "/runs/0/documents/0/tolerances/3",
                fewer,
                "$.runs[0].tolerances[3].f1: the file says 0.7777777777777778, its documents make 0.6666666666666666",
            ),
            (
                "/settings/tolerances/1",
                json!(0),
                "$.settings.tolerances[1]: ",
            ),
            (
                "/runs/0/documents/1/doc",
                json!("EP-1000001-A1"),
                "$.runs[0].documents[1].doc: \"EP-1000001-A1\" is given twice",
            ),
            (
                "/runs/0/documents/0/max_unambiguous_tolerance",
                json!(100),
                "$.runs[0].documents[0].max_unambiguous_tolerance: the file says 100, the sweep's tolerances make nothing",
            ),
        ];
        refuses_each(check, &genuine(), cases);
    }
}
