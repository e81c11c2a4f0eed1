//! A recognition result file checked on reading (`crate::report::check`):
//! every structure once per run; the outcome of each structure with two
//! InChIs made again from them (with its first differing layer group and
//! whether it matches once stereo is dropped); a structure without one of
//! them holding an outcome that needs none; and each run's summary made
//! again from its structures.

use super::evaluate::Structure;
use super::layers;
use super::outcome::{Outcome, Summary, of_inchis};
use super::report::Report;
use crate::report::check::Checker;
use crate::report::merge::Part;

/// The check of a recognition result file or part.
pub fn check(part: &Part) -> Result<(), String> {
    let report: Report = part.read()?;
    let c = Checker::new(part.file);
    for (r, run) in report.runs.iter().enumerate() {
        let at = format!("$.runs[{r}]");
        let list = format!("{at}.structures");
        let names = run.structures.iter().map(|s| s.name.as_str());
        c.once(&list, ".name", names)?;
        for (i, structure) in run.structures.iter().enumerate() {
            check_structure(&c, &format!("{list}[{i}]"), structure)?;
        }
        let made = Summary::of(&run.structures);
        c.made_again(
            &format!("{at}.summary"),
            &run.summary,
            &made,
            "its structures",
        )?;
    }
    Ok(())
}

fn check_structure(c: &Checker, at: &str, s: &Structure) -> Result<(), String> {
    let outcome_at = format!("{at}.outcome");
    let (gold, run) = (s.gold_inchi.as_deref(), s.run_inchi.as_deref());
    match (gold, run) {
        (Some(gold), Some(run)) => {
            let made = of_inchis(gold, run);
            c.require(
                s.outcome == made,
                &outcome_at,
                format!(
                    "{} where its two InChIs make {}",
                    s.outcome.name(),
                    made.name()
                ),
            )?;
            let ignoring = Some(matches!(made, Outcome::Match | Outcome::Stereo));
            c.made_again(
                &format!("{at}.match_ignoring_stereo"),
                &s.match_ignoring_stereo,
                &ignoring,
                "its two InChIs",
            )?;
            c.made_again(
                &format!("{at}.first_difference"),
                &s.first_difference,
                &layers::first_difference(gold, run),
                "its two InChIs",
            )
        }
        (gold, _) => {
            let possible = match gold {
                None => s.outcome == Outcome::Manual,
                Some(_) => matches!(s.outcome, Outcome::Unreadable | Outcome::Missing),
            };
            c.require(
                possible,
                &outcome_at,
                format!(
                    "{} for a structure without {}",
                    s.outcome.name(),
                    if gold.is_none() {
                        "a gold InChI"
                    } else {
                        "a submitted InChI"
                    }
                ),
            )?;
            c.require(
                s.first_difference.is_none(),
                &format!("{at}.first_difference"),
                "a layer differs where one InChI is missing",
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::check;
    use crate::report::check::refuses_each;
    use serde_json::{Value, json};

    const GOLD: &str = "InChI=1S/CH4O/c1-2/h2H,1H3";
    const OTHER: &str = "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3";

    fn structure(name: &str, outcome: &str, run: Option<&str>) -> Value {
        let ignoring = (outcome == "match").then_some(true).or(run.map(|_| false));
        let difference = match (outcome, run) {
            ("wrong", Some(_)) => json!("formula"),
            _ => Value::Null,
        };
        json!({
            "name": name, "outcome": outcome,
            "match_ignoring_stereo": ignoring, "first_difference": difference,
            "gold_inchi": GOLD, "run_inchi": run, "reason": null,
            "gold_warning": null, "run_warning": null
        })
    }

    /// A run of a match, a wrong structure and a missing one, with the
    /// summary a whole evaluation writes for it (counted by hand).
    fn genuine() -> Value {
        json!({
            "task": "recognition", "version": crate::report::VERSION,
            "settings": {"timeout_seconds": 10.0, "max_file_bytes": 1000, "inchi": "1.07"},
            "runs": [{
                "run": "r",
                "structures": [
                    structure("a", "match", Some(GOLD)),
                    structure("b", "wrong", Some(OTHER)),
                    structure("c", "missing", None),
                ],
                "summary": {
                    "structures": 3, "manual": 0, "automatic": 3, "match": 1,
                    "stereo": 0, "formula": 0, "wrong": 1, "unreadable": 0,
                    "missing": 1, "recall": 1.0 / 3.0, "match_ignoring_stereo": 1,
                    "recall_ignoring_stereo": 1.0 / 3.0, "stereo_structures": 0,
                    "stereo_matched": 0, "stereo_recall": 0.0,
                    "first_difference": {
                        "formula": 1, "connections": 0, "hydrogens": 0, "charge": 0,
                        "protons": 0, "stereo": 0, "isotopes": 0
                    }
                },
                "diagnostics": [], "diagnostic_list": []
            }]
        })
    }

    #[test]
    fn a_genuine_result_passes_and_each_tampered_value_is_refused() {
        let cases: &[(&str, Value, &str)] = &[
            (
                "/runs/0/structures/1/outcome",
                json!("match"),
                "$.runs[0].structures[1].outcome: match where its two InChIs make wrong",
            ),
            (
                "/runs/0/structures/2/outcome",
                json!("match"),
                "$.runs[0].structures[2].outcome: match for a structure without a submitted InChI",
            ),
            (
                "/runs/0/summary/recall",
                json!(0.5),
                "$.runs[0].summary.recall: the file says 0.5, its structures make 0.3333333333333333",
            ),
            (
                "/runs/0/structures/1/name",
                json!("a"),
                "$.runs[0].structures[1].name: \"a\" is given twice",
            ),
        ];
        refuses_each(check, &genuine(), cases);
    }
}
