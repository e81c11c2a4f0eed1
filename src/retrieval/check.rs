//! A text-retrieval result file checked on reading
//! (`crate::report::check`): the measures those its settings name; in each
//! scored run every topic once, each row's counts in order (relevant
//! retrieved within both the retrieved and the relevant), every measure in
//! [0, 1], a missing topic all zeros and listed as missing; the means over
//! all topics made again from the rows, and each group's made again from
//! its members where the file lists them (a part) or held within the
//! whole's counts where it does not.

use super::evaluate::summaries;
use super::groups::Group;
use super::report::{Evaluation, Groups, NamedSummary, RunScores, Summary, TopicRow, TopicStatus};
use super::settings::measure_list;
use crate::report::check::Checker;
use crate::report::merge::Part;

/// The check of a text-retrieval result file or part.
pub fn check(part: &Part) -> Result<(), String> {
    let evaluation: Evaluation = part.read()?;
    let c = Checker::new(part.file);
    let settings = &evaluation.settings;
    let named: Vec<String> = (measure_list(settings).iter())
        .map(|m| m.name(settings))
        .collect();
    c.made_again("$.measures", &evaluation.measures, &named, "the settings")?;
    // A part lists each group's members among its topics, in the groups
    // file's order: its group means can be made again.
    let members: Option<Vec<Group>> = evaluation.shard.as_ref().map(|shard| {
        (shard.groups.iter())
            .map(|(name, topics)| {
                let mut topics = topics.clone();
                topics.sort_by_key(|(_, i)| *i);
                Group {
                    name: name.clone(),
                    topics: topics.into_iter().map(|(t, _)| t).collect(),
                }
            })
            .collect()
    });
    let names = &evaluation.measures;
    for (r, run) in evaluation.runs.iter().enumerate() {
        if let Some(scores) = &run.scores {
            let at = format!("$.runs[{r}]");
            check_scores(&c, &at, scores, names, members.as_deref())?;
        }
    }
    Ok(())
}

fn check_scores(
    c: &Checker,
    at: &str,
    scores: &RunScores,
    names: &[String],
    members: Option<&[Group]>,
) -> Result<(), String> {
    let list = format!("{at}.topics");
    c.once(&list, "[0]", scores.topics.iter().map(|t| t.topic.as_str()))?;
    for (i, row) in scores.topics.iter().enumerate() {
        check_row(c, &format!("{list}[{i}]"), row, names)?;
    }
    let missing: Vec<String> = (scores.topics.iter())
        .filter(|row| row.status == TopicStatus::Missing)
        .map(|row| row.topic.clone())
        .collect();
    c.made_again(
        &format!("{at}.missing"),
        &scores.missing,
        &missing,
        "its topic rows",
    )?;
    let named = |summary| NamedSummary { names, summary };
    let (all, groups) = summaries(&scores.topics, members.unwrap_or_default(), names.len());
    c.made_again(
        &format!("{at}.all"),
        &named(&scores.all),
        &named(&all),
        "its topic rows",
    )?;
    match members {
        Some(_) => {
            let stored = Groups {
                groups: &scores.groups,
                names,
            };
            let made = Groups {
                groups: &groups,
                names,
            };
            c.made_again(
                &format!("{at}.groups"),
                &stored,
                &made,
                "its topic rows and $.shard.groups",
            )
        }
        None => {
            for (name, group) in &scores.groups {
                check_group(c, &format!("{at}.groups.{name}"), group, &scores.all)?;
            }
            Ok(())
        }
    }
}

/// A topic row: its counts in order, its measures in [0, 1], all zeros
/// when the run has no line for it.
fn check_row(c: &Checker, at: &str, row: &TopicRow, names: &[String]) -> Result<(), String> {
    let rel_ret = format!("{at}[4]");
    c.at_most(&rel_ret, row.num_rel_ret, row.num_ret, "num_ret")?;
    c.at_most(&rel_ret, row.num_rel_ret, row.num_rel, "num_rel")?;
    for (k, (v, name)) in row.values.iter().zip(names).enumerate() {
        let path = format!("{at}[{}]", k + 5);
        c.ratio(&path, *v).map_err(|e| format!("{e} ({name})"))?;
        if row.status == TopicStatus::Missing {
            c.require(
                *v == 0.0,
                &path,
                format!("{name} {v} for a topic the run has no line for"),
            )?;
        }
    }
    if row.status == TopicStatus::Missing {
        c.require(
            row.num_ret == 0,
            &format!("{at}[2]"),
            "a topic the run has no line for retrieved nothing",
        )?;
    }
    Ok(())
}

/// A group's means where its members are not listed: within the whole's
/// counts, each mean in [0, 1], none when it has no topic.
fn check_group(c: &Checker, at: &str, group: &Summary, all: &Summary) -> Result<(), String> {
    for (n, most, key) in [
        (group.num_q, all.num_q, "num_q"),
        (group.num_ret, all.num_ret, "num_ret"),
        (group.num_rel, all.num_rel, "num_rel"),
        (group.num_rel_ret, all.num_rel_ret, "num_rel_ret"),
    ] {
        c.at_most(&format!("{at}.{key}"), n, most, "the run's over all topics")?;
    }
    for mean in &group.means {
        match mean {
            Some(m) => c.ratio(at, *m)?,
            None => c.require(group.num_q == 0, at, "a group with topics has no mean")?,
        }
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
            "prior-art",
            json!({"qrels": "goldens/passage/doc/qrels.txt",
                   "groups": "goldens/passage/doc/groups.txt",
                   "runs": ["goldens/passage/doc/runs"]}),
        )
    }

    #[test]
    fn a_genuine_result_passes_and_each_tampered_value_is_refused() {
        let first = genuine()["runs"][0]["topics"][0][0].clone();
        let cases: &[(&str, Value, &str)] = &[
            (
                "/runs/0/topics/0/5",
                json!(-5.0),
                "$.runs[0].topics[0][5]: -5 is out of its range [0, 1] (P@5)",
            ),
            (
                "/runs/0/topics/0/4",
                json!(100),
                "$.runs[0].topics[0][4]: 100 is more than num_ret",
            ),
            (
                "/runs/0/all/MAP@100",
                json!(0.5),
                "$.runs[0].all.MAP@100: the file says 0.5, its topic rows make",
            ),
            (
                "/runs/0/topics/1/0",
                first,
                "is given twice (first at $.runs[0].topics[0])",
            ),
            (
                "/runs/0/groups/FR/num_q",
                json!(1000),
                "$.runs[0].groups.FR.num_q: 1000 is more than the run's over all topics",
            ),
            (
                "/measures/0",
                json!("P@6"),
                "$.measures[0]: the file says \"P@6\", the settings make \"P@5\"",
            ),
        ];
        refuses_each(check, &genuine(), cases);
    }
}
