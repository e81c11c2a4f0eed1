//! A flowchart result file checked on reading (`crate::report::check`):
//! every topic once per run; each level's |mcs| within both sizes, its
//! node and edge matches adding up to it, its distance made again from
//! |mcs|, the sizes and the best label cost, a cut level's interval
//! holding its value; every precision, recall and F1 in [0, 1], the F1
//! made again from the two, the triplet scores made again from their
//! counts; a missing or rejected topic exactly the zeros it is scored as;
//! and each run's summary made again from its topics.

use super::mcs::{self, Level};
use super::measures::Prf;
use super::report::Report;
use super::score::{LevelScore, TopicScore, TopicStatus, missing_levels, summarize};
use crate::report::check::Checker;
use crate::report::merge::Part;

/// The check of a flowchart result file or part.
pub fn check(part: &Part) -> Result<(), String> {
    let report: Report = part.read()?;
    let c = Checker::new(part.file);
    let levels = &report.settings.levels;
    let denominator = report.settings.settings.denominator;
    for (r, run) in report.runs.iter().enumerate() {
        let at = format!("$.runs[{r}]");
        let topics = format!("{at}.topics");
        c.once(
            &topics,
            ".topic",
            run.topics.iter().map(|t| t.topic.as_str()),
        )?;
        for (i, topic) in run.topics.iter().enumerate() {
            check_topic(&c, &format!("{topics}[{i}]"), topic, levels, denominator)?;
        }
        let made = summarize(&run.topics, levels);
        c.made_again(&format!("{at}.summary"), &run.summary, &made, "its topics")?;
    }
    Ok(())
}

fn check_topic(
    c: &Checker,
    at: &str,
    topic: &TopicScore,
    levels: &[Level],
    denominator: mcs::Denominator,
) -> Result<(), String> {
    let t = &topic.triplets;
    let path = format!("{at}.triplets");
    c.at_most(
        &format!("{path}.matched"),
        t.scores.matched,
        t.gold.min(t.run),
        "the gold's or the run's triplets",
    )?;
    let made = Prf::of(t.scores.matched, t.run, t.gold);
    c.made_again(&path, &t.scores, &made, "its counts")?;
    match topic.status {
        TopicStatus::Missing | TopicStatus::Rejected => {
            c.require(
                topic.run_size.is_none(),
                &format!("{at}.run_size"),
                "a missing or rejected submission has no size",
            )?;
            c.require(
                t.run == 0,
                &format!("{path}.run"),
                "a missing or rejected submission has no triplets",
            )?;
            let zeros = missing_levels(levels);
            c.made_again(
                &format!("{at}.levels"),
                &topic.levels,
                &zeros,
                "a missing or rejected submission's scores",
            )
        }
        TopicStatus::Interrupted => c.made_again(
            &format!("{at}.levels"),
            &topic.levels,
            &Default::default(),
            "an interrupted topic's (no level scored)",
        ),
        TopicStatus::Ok => {
            let Some(run_size) = topic.run_size else {
                return Err(c.fail(&format!("{at}.run_size"), "a scored topic has a size"));
            };
            for level in Level::ALL {
                let path = format!("{at}.levels.{}", level.name());
                match topic.levels.get(level) {
                    Some(score) if levels.contains(&level) => {
                        let sizes = (topic.gold_size, run_size);
                        check_level(c, &path, score, sizes, denominator)?;
                    }
                    Some(_) => return Err(c.fail(&path, "a level the settings do not score")),
                    None if levels.contains(&level) => {
                        return Err(c.fail(&path, "a level the settings score is missing"));
                    }
                    None => {}
                }
            }
            Ok(())
        }
    }
}

fn check_level(
    c: &Checker,
    at: &str,
    score: &LevelScore,
    (gold, run): (usize, usize),
    denominator: mcs::Denominator,
) -> Result<(), String> {
    let mcs_at = format!("{at}.mcs");
    c.at_most(&mcs_at, score.mcs, gold, "the gold's size")?;
    c.at_most(&mcs_at, score.mcs, run, "the run's size")?;
    c.require(
        score.nodes.matched + score.edges.matched == score.mcs,
        &mcs_at,
        format!(
            "{} is not the matched nodes and edges ({} + {})",
            score.mcs, score.nodes.matched, score.edges.matched
        ),
    )?;
    check_prf(c, &format!("{at}.nodes"), &score.nodes)?;
    check_prf(c, &format!("{at}.edges"), &score.edges)?;
    let best = match &score.complete {
        Some(labels) => {
            let path = |key: &str| format!("{at}.{key}");
            let mapped = labels.mapping.len();
            c.require(
                mapped == score.nodes.matched,
                &path("mapping"),
                format!(
                    "{mapped} pairs where {} nodes are matched",
                    score.nodes.matched
                ),
            )?;
            let mut gold_ids: Vec<i64> = labels.mapping.iter().map(|p| p.0).collect();
            let mut run_ids: Vec<i64> = labels.mapping.iter().map(|p| p.1).collect();
            for (ids, whose) in [(&mut gold_ids, "gold"), (&mut run_ids, "run")] {
                ids.sort_unstable();
                if let Some(w) = ids.windows(2).find(|w| w.first() == w.get(1)) {
                    let id = w.first().copied().unwrap_or_default();
                    return Err(c.fail(
                        &path("mapping"),
                        format!("the {whose} node {id} is mapped twice"),
                    ));
                }
            }
            let most = mapped as f64;
            c.within(
                &path("label_cost_best"),
                labels.label_cost_best,
                (0.0, most),
            )?;
            let most = score.mcs as f64;
            c.within(
                &path("label_cost_mean"),
                labels.label_cost_mean,
                (0.0, most),
            )?;
            let listed: u64 = labels.histogram.iter().sum();
            c.require(
                listed == labels.mappings,
                &path("histogram"),
                format!(
                    "it counts {listed} mappings where {} were listed",
                    labels.mappings
                ),
            )?;
            c.require(
                labels.best_mappings <= labels.mappings,
                &path("best_mappings"),
                format!(
                    "{} is more than the mappings listed ({})",
                    labels.best_mappings, labels.mappings
                ),
            )?;
            labels.label_cost_best
        }
        None => 0.0,
    };
    let dist = |m: usize| mcs::distance(m as f64 - best, gold, run, denominator);
    c.made_again(
        &format!("{at}.distance"),
        &score.distance,
        &dist(score.mcs),
        "|mcs|, the sizes and the best label cost",
    )?;
    if score.exact {
        for (given, key) in [
            (score.mcs_upper.is_some(), "mcs_upper"),
            (score.distance_lower.is_some(), "distance_lower"),
            (score.cut_by.is_some(), "cut_by"),
        ] {
            c.require(
                !given,
                &format!("{at}.{key}"),
                "an exact level has no interval",
            )?;
        }
        return Ok(());
    }
    let upper_at = format!("{at}.mcs_upper");
    let Some(upper) = score.mcs_upper else {
        return Err(c.fail(&upper_at, "a level cut by a limit has no upper bound"));
    };
    c.require(
        upper >= score.mcs,
        &upper_at,
        format!(
            "the interval [{}, {upper}] misses its value {}",
            score.mcs, score.mcs
        ),
    )?;
    c.at_most(&upper_at, upper, gold.min(run), "the smaller size")?;
    // The bound's best label cost is unknown: 0 is its lowest value.
    let lower = mcs::distance(upper as f64, gold, run, denominator);
    c.made_again(
        &format!("{at}.distance_lower"),
        &score.distance_lower,
        &Some(lower),
        "the upper bound and the sizes",
    )
}

/// Precision, recall and F1 in [0, 1], the F1 made again from the two.
fn check_prf(c: &Checker, at: &str, prf: &Prf) -> Result<(), String> {
    c.ratio(&format!("{at}.precision"), prf.precision)?;
    c.ratio(&format!("{at}.recall"), prf.recall)?;
    let (p, r) = (prf.precision, prf.recall);
    let f1 = if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    };
    c.made_again(
        &format!("{at}.f1"),
        &prf.f1,
        &f1,
        "its precision and recall",
    )
}

#[cfg(test)]
mod tests {
    use super::check;
    use crate::report::check::refuses_each;
    use serde_json::Value;

    fn genuine() -> Value {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/goldens/flowchart/expected/two-runs.json"
        ))
        .unwrap();
        serde_json::from_str(&text).unwrap()
    }

    fn checked(doc: &Value) -> Result<(), String> {
        check(&crate::report::merge::Part {
            file: "r.json",
            doc,
        })
    }

    #[test]
    fn each_tampered_value_is_refused_at_its_path() {
        let cases: &[(&str, Value, &str)] = &[
            (
                "/runs/0/topics/0/levels/basic/distance",
                Value::from(-5.0),
                "$.runs[0].topics[0].levels.basic.distance: the file says -5.0, |mcs|, the sizes and the best label cost make",
            ),
            (
                "/runs/0/topics/0/levels/basic/mcs",
                Value::from(100_000),
                "$.runs[0].topics[0].levels.basic.mcs: 100000 is more than the gold's size",
            ),
            (
                "/runs/0/topics/0/levels/intermediate/nodes/recall",
                Value::from(1.5),
                "$.runs[0].topics[0].levels.intermediate.nodes.recall: 1.5 is out of its range [0, 1]",
            ),
            (
                "/runs/0/topics/0/triplets/f1",
                Value::from(0.5),
                "$.runs[0].topics[0].triplets.f1: the file says 0.5, its counts make",
            ),
            (
                "/runs/1/summary/mean_distance/basic",
                Value::from(0.01),
                "$.runs[1].summary.mean_distance.basic: the file says 0.01, its topics make",
            ),
            (
                "/runs/0/summary/topics",
                Value::from(99),
                "$.runs[0].summary.topics: the file says 99, its topics make",
            ),
        ];
        refuses_each(check, &genuine(), cases);
    }

    #[test]
    fn a_cut_interval_that_misses_its_value_and_a_doubled_topic_are_refused() {
        let mut doc = genuine();
        let level = doc.pointer_mut("/runs/0/topics/0/levels/basic").unwrap();
        let mcs = level["mcs"].as_u64().unwrap();
        level["exact"] = Value::from(false);
        level["mcs_upper"] = Value::from(mcs - 1);
        level["distance_lower"] = Value::from(0.0);
        let err = checked(&doc).unwrap_err();
        assert!(
            err.contains(&format!(
                "$.runs[0].topics[0].levels.basic.mcs_upper: the interval [{mcs}, {}] misses its value {mcs}",
                mcs - 1
            )),
            "{err}"
        );
        let mut doc = genuine();
        let topics = doc
            .pointer_mut("/runs/0/topics")
            .and_then(Value::as_array_mut)
            .unwrap();
        let first = topics[0].clone();
        topics.push(first);
        let err = checked(&doc).unwrap_err();
        assert!(
            err.contains("is given twice (first at $.runs[0].topics[0])"),
            "{err}"
        );
    }
}
