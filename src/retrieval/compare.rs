//! The rule of `clefeval compare` for `prior-art` and `passage` results:
//! every measure of every topic row, and every mean of `all` and of each
//! group (all higher is better). A topic, a group, a measure or a mean of
//! the baseline that the current file lacks is a regression, and so is a
//! run scored in the baseline and rejected in the current file. The counts
//! (`num_ret`, …) and the lists (missing, duplicates, …) are not compared:
//! what they change shows in the measures. Nor are the top-level
//! `comparisons` and `correlations` (`--compare`, `--correlate`): they
//! follow from the measures, and a file with them compares with one
//! without.

use super::report::{Settings, Task};
use crate::report::compare::{At, Better, Comparer, Invalid};
use serde_json::Value;

/// The columns of a topic row before its measures: topic, status and the
/// three counts.
const LEADING: usize = 5;

/// The `settings` of a result file scored with every option at its
/// default (the same for both commands).
pub fn default_settings() -> Value {
    serde_json::to_value(Settings::new(Task::PriorArt)).unwrap_or(Value::Null)
}

/// Compares one run of two retrieval result files.
pub fn compare_run(cmp: &mut Comparer, run: &str, base: &At, cur: &At) -> Result<(), Invalid> {
    match (scored(base)?, scored(cur)?) {
        (true, true) => {}
        (false, false) => return Ok(()),
        (in_baseline, _) => {
            cmp.presence(run, "all", "scores", in_baseline);
            return Ok(());
        }
    }
    let names = measures(&base.document())?;
    let current_names = measures(&cur.document())?;
    let (bt, ct) = (topic_rows(base)?, topic_rows(cur)?);
    cmp.items(run, &bt, &ct, |s, topic, b, c| {
        for (i, name) in names.iter().enumerate() {
            let bv = cell(b, LEADING + i, name)?;
            let cv = (current_names.iter().position(|n| n == name))
                .map(|j| cell(c, LEADING + j, name))
                .transpose()?;
            if let Some((bv, cv)) = s.both(run, topic, name, (Some(bv), cv)) {
                s.number(run, topic, name, bv, cv, Better::Higher);
            }
        }
        Ok(())
    })?;
    let (bm, cm) = (summaries(base)?, summaries(cur)?);
    cmp.items(run, &bm, &cm, |s, label, b, c| {
        for name in &names {
            if let Some((bv, cv)) = s.both(run, label, name, (mean(b, name)?, mean(c, name)?)) {
                s.number(run, label, name, bv, cv, Better::Higher);
            }
        }
        Ok(())
    })
}

/// False for a run the file marks `"status": "rejected"`.
fn scored(run: &At) -> Result<bool, Invalid> {
    Ok(match run.get("status")? {
        Some(status) => status.string()? != "rejected",
        None => true,
    })
}

/// The measure names of the document's topic rows, from its `columns`.
fn measures(doc: &At) -> Result<Vec<String>, Invalid> {
    let columns = doc.array("columns")?;
    (columns.iter().skip(LEADING))
        .map(|c| c.string().map(str::to_owned))
        .collect()
}

/// The run's topic rows, each named by its first cell.
fn topic_rows<'v>(run: &At<'v>) -> Result<Vec<(String, At<'v>)>, Invalid> {
    run.array("topics")?
        .into_iter()
        .map(|row| {
            let topic = row.value.as_array().and_then(|r| r.first());
            match topic.and_then(Value::as_str) {
                Some(name) => Ok((name.to_owned(), row)),
                None => Err(row.invalid(
                    "expected a topic row, [topic, status, num_ret, num_rel, num_rel_ret, measures…]",
                )),
            }
        })
        .collect()
}

/// The cell `index` (the measure `name`) of a topic row, a number.
fn cell(row: &At, index: usize, name: &str) -> Result<f64, Invalid> {
    let value = row.value.as_array().and_then(|r| r.get(index));
    match value.and_then(Value::as_f64).filter(|x| x.is_finite()) {
        Some(x) => Ok(x),
        None => Err(row.invalid(format!(
            "cell {index} ({name}): expected a number, found {}",
            value.map_or("nothing".to_owned(), Value::to_string)
        ))),
    }
}

/// The run's means as `all` and `all:GROUP`, as the trec layout names them.
fn summaries<'v>(run: &At<'v>) -> Result<Vec<(String, At<'v>)>, Invalid> {
    let mut out = vec![("all".to_owned(), run.field("all")?)];
    if let Some(groups) = run.get("groups")? {
        let Some(names) = groups.value.as_object() else {
            return Err(groups.invalid("expected an object of groups"));
        };
        for name in names.keys() {
            out.push((format!("all:{name}"), groups.field(name)?));
        }
    }
    Ok(out)
}

/// The mean `name` of a summary; `None` when absent or `null` (a group
/// with no scored topic).
fn mean(summary: &At, name: &str) -> Result<Option<f64>, Invalid> {
    match summary.get(name)? {
        Some(v) if !v.value.is_null() => v.number().map(Some),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::compare::Verdict;
    use crate::tasks::compare_values;
    use serde_json::json;

    fn result(runs: Value) -> Value {
        json!({"task": "passage", "version": "0.1.0", "settings": default_settings(),
            "columns": ["topic", "status", "num_ret", "num_rel", "num_rel_ret", "P@5", "MAP(D)"],
            "runs": runs})
    }

    fn run(name: &str, p5: f64, group_p5: Option<f64>) -> Value {
        json!({"run": name, "status": "ok", "diagnostics": [],
            "topics": [["T-1", "ok", 10, 2, 1, p5, 0.5], ["T-2", "missing", 0, 1, 0, 0.0, 0.0]],
            "all": {"num_q": 2, "P@5": p5 / 2.0, "MAP(D)": 0.25},
            "groups": {"EN": {"num_q": 1, "P@5": group_p5, "MAP(D)": 0.5}}})
    }

    #[test]
    fn topic_values_and_means_higher_is_better() {
        let base = result(json!([run("a", 0.4, Some(0.4))]));
        assert_eq!(compare_values(&base, &base, 0.0).unwrap().regressions, 0);
        let cur = result(json!([run("a", 0.2, Some(0.6))]));
        let c = compare_values(&base, &cur, 0.0).unwrap();
        let of = |v| {
            let mut found: Vec<(String, String)> = (c.changes.iter())
                .filter(|x| x.verdict == v)
                .map(|x| (x.item.clone(), x.metric.clone()))
                .collect();
            found.sort();
            found
        };
        let pair = |a: &str, b: &str| (a.to_owned(), b.to_owned());
        assert_eq!(
            of(Verdict::Regression),
            [pair("T-1", "P@5"), pair("all", "P@5")]
        );
        assert_eq!(of(Verdict::Improvement), [pair("all:EN", "P@5")]);
        // Topics × 2 measures + 2 summaries × 2 measures.
        assert_eq!(c.compared, 8);
        assert_eq!(compare_values(&base, &cur, 0.25).unwrap().regressions, 0);
    }

    #[test]
    fn what_the_baseline_has_must_stay() {
        let base = result(json!([run("a", 0.4, Some(0.4)), run("b", 0.4, Some(0.4))]));
        let mut cur = base.clone();
        cur["runs"][0]["topics"] = json!([["T-1", "ok", 10, 2, 1, 0.4, 0.5]]);
        cur["runs"][1]["groups"] = json!({});
        let c = compare_values(&base, &cur, 0.0).unwrap();
        let lost: Vec<(&str, &str, &str)> = (c.changes.iter())
            .map(|x| (x.run.as_str(), x.item.as_str(), x.metric.as_str()))
            .collect();
        assert_eq!(lost, [("a", "T-2", "item"), ("b", "all:EN", "item")]);
        assert_eq!(c.regressions, 2);
        // A mean that became null, a run that became rejected.
        let mut cur = base.clone();
        cur["runs"][0]["groups"]["EN"]["P@5"] = Value::Null;
        cur["runs"][1] =
            json!({"run": "b", "status": "rejected", "diagnostics": ["b:3: error: …"]});
        let c = compare_values(&base, &cur, 0.0).unwrap();
        let lost: Vec<(&str, &str, &str)> = (c.changes.iter())
            .map(|x| (x.run.as_str(), x.item.as_str(), x.metric.as_str()))
            .collect();
        assert_eq!(lost, [("a", "all:EN", "P@5"), ("b", "all", "scores")]);
        assert_eq!(c.regressions, 2);
        // The other way round: notes only.
        assert_eq!(compare_values(&cur, &base, 0.0).unwrap().regressions, 0);
    }

    #[test]
    fn comparisons_and_correlations_are_not_compared() {
        let base = result(json!([run("a", 0.4, Some(0.4)), run("b", 0.2, Some(0.2))]));
        let mut with = base.clone();
        with["comparisons"] = json!([{"measure": "P@5", "pairs": [{"a": "a", "b": "b",
            "randomization_p": 0.5, "t_p": null}]}]);
        with["correlations"] = json!([{"n": 2, "kendall_tau_b": 1.0}]);
        for (b, c) in [(&base, &with), (&with, &base), (&with, &with)] {
            let c = compare_values(b, c, 0.0).unwrap();
            assert_eq!((c.regressions, c.compared), (0, 16));
        }
    }

    #[test]
    fn malformed_rows_and_other_settings_are_errors() {
        let base = result(json!([run("a", 0.4, None)]));
        let mut bad = base.clone();
        bad["runs"][0]["topics"][1][5] = json!("x");
        assert_eq!(
            compare_values(&base, &bad, 0.0).unwrap_err(),
            "current.json: $.runs[0].topics[1]: cell 5 (P@5): expected a number, found \"x\""
        );
        let mut bad = base.clone();
        bad["runs"][0]["topics"][0] = json!({"topic": "T-1"});
        assert!(
            compare_values(&base, &bad, 0.0)
                .unwrap_err()
                .starts_with("current.json: $.runs[0].topics[0]: expected a topic row")
        );
        let mut other = base.clone();
        other["settings"]["cutoff"] = json!(20);
        let err = compare_values(&base, &other, 0.0).unwrap_err();
        assert!(
            err.contains("$.settings.cutoff: 100 in baseline.json, 20 in current.json"),
            "{err}"
        );
        // A file without settings was scored with the defaults.
        let mut bare = base.clone();
        bare.as_object_mut().unwrap().remove("settings");
        assert!(compare_values(&base, &bare, 0.0).is_ok());
    }
}
