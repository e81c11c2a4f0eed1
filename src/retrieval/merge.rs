//! The text tasks' rule of `clefeval merge`: the parts of one evaluation
//! (`--shard K/N`) joined into the result the whole run writes. Each run's
//! topic rows and left-out topics go back to their places in the qrels
//! (the part's `shard.topics` says where), its duplicates and removed
//! headings back in line order, its unknown topics (part 1's) as they
//! are; then the means overall and per group are made again from the
//! joined rows by the code the whole run uses, adding each group's members
//! in the groups file's order (the part's `shard.groups`), so every bit is
//! the same. The comparisons and correlations the parts asked for
//! (`shard.asked`, the same in every part) are made from the whole, as a
//! whole run makes them.

use super::between::{Between, WithBetween};
use super::evaluate::summaries;
use super::groups::Group;
use super::report::{Evaluation, RunResult, RunScores, ShardTopics, TopicRow, TopicStatus};
use crate::report::merge::{Part, read_parts};
use crate::report::to_json;
use std::collections::HashMap;

/// The JSON of the whole evaluation from its parts, part 1 first.
pub fn merge(parts: &[Part]) -> Result<String, String> {
    let (first, others) = read_parts::<Evaluation>(parts)?;
    let evaluations: Vec<&Evaluation> = std::iter::once(&first).chain(&others).collect();
    let mut places: HashMap<&str, usize> = HashMap::new();
    let mut members: Vec<(String, Vec<(usize, &str)>)> = Vec::new();
    let asked = &shard_of(parts.first().ok_or("no result file to merge")?, &first)?.asked;
    for (part, evaluation) in parts.iter().zip(&evaluations) {
        let shard = shard_of(part, evaluation)?;
        if shard.asked != *asked {
            return Err(format!(
                "{}: $.shard.asked: other comparisons or correlations asked for than in part 1",
                part.file
            ));
        }
        places.extend(shard.topics.iter().map(|(t, i)| (t.as_str(), *i)));
        for (g, (name, these)) in shard.groups.iter().enumerate() {
            if members.len() <= g {
                members.push((name.clone(), Vec::new()));
            }
            match members.get_mut(g) {
                Some((known, list)) if known == name => {
                    list.extend(these.iter().map(|(t, i)| (*i, t.as_str())));
                }
                _ => {
                    return Err(format!(
                        "{}: $.shard.groups: group {name:?} is not the first part's group {}",
                        part.file,
                        g + 1
                    ));
                }
            }
        }
    }
    let groups: Vec<Group> = (members.into_iter())
        .map(|(name, mut list)| {
            list.sort_unstable();
            Group {
                name,
                topics: list.into_iter().map(|(_, t)| t.to_string()).collect(),
            }
        })
        .collect();
    let measures = first.measures.len();
    let runs = (first.runs.iter().enumerate())
        .map(|(r, run)| {
            // A rejected run is rejected alike in every part: its file is
            // read whole by each.
            if run.scores.is_none() {
                return Ok(run.clone());
            }
            let scores: Vec<&RunScores> = (evaluations.iter().zip(parts))
                .map(|(e, part)| {
                    e.runs
                        .get(r)
                        .and_then(|run| run.scores.as_ref())
                        .ok_or_else(|| {
                            format!(
                                "{}: run {} is scored in part 1 and not in this part",
                                part.file, run.run
                            )
                        })
                })
                .collect::<Result<_, _>>()?;
            let joined = join(&scores, &places, &groups, measures, run)?;
            Ok(RunResult {
                scores: Some(joined),
                ..run.clone()
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let asked = asked.clone();
    let whole = Evaluation {
        runs,
        shard: None,
        ..first
    };
    let between = Between::of(&whole, &asked).map_err(|e| e.flag())?;
    Ok(to_json(&WithBetween {
        evaluation: &whole,
        between: &between,
    }) + "\n")
}

/// The part's `shard` field; the error names the file.
fn shard_of<'a>(part: &Part, evaluation: &'a Evaluation) -> Result<&'a ShardTopics, String> {
    evaluation
        .shard
        .as_ref()
        .ok_or_else(|| format!("{}: no \"shard\" field: not a part", part.file))
}

/// One run's scores in every part joined into the whole's.
fn join(
    scores: &[&RunScores],
    places: &HashMap<&str, usize>,
    groups: &[Group],
    measures: usize,
    run: &RunResult,
) -> Result<RunScores, String> {
    let place = |topic: &str| {
        places.get(topic).copied().ok_or_else(|| {
            format!(
                "run {}: topic {topic} is in no part's $.shard.topics",
                run.run
            )
        })
    };
    let mut rows: Vec<(usize, TopicRow)> = Vec::new();
    let mut left_out: Vec<(usize, String)> = Vec::new();
    let mut unknown = Vec::new();
    let mut duplicates = Vec::new();
    let mut headings: Option<Vec<usize>> = None;
    for sc in scores {
        for row in &sc.topics {
            rows.push((place(&row.topic)?, row.clone()));
        }
        for topic in &sc.left_out {
            left_out.push((place(topic)?, topic.clone()));
        }
        unknown.extend(sc.unknown.iter().cloned());
        duplicates.extend(sc.duplicates.iter().cloned());
        if let Some(h) = &sc.headings_removed {
            headings.get_or_insert_with(Vec::new).extend(h);
        }
    }
    rows.sort_by_key(|(i, _)| *i);
    left_out.sort_by_key(|(i, _)| *i);
    duplicates.sort_by_key(|d| d.line);
    if let Some(h) = &mut headings {
        h.sort_unstable();
    }
    let topics: Vec<TopicRow> = rows.into_iter().map(|(_, row)| row).collect();
    let missing = (topics.iter())
        .filter(|row| row.status == TopicStatus::Missing)
        .map(|row| row.topic.clone())
        .collect();
    let (all, groups) = summaries(&topics, groups, measures);
    Ok(RunScores {
        topics,
        all,
        groups,
        left_out: left_out.into_iter().map(|(_, t)| t).collect(),
        missing,
        unknown,
        duplicates,
        headings_removed: headings,
    })
}
