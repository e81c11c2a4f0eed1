//! Scores of topics and runs (docs/metrics.md): the distance of
//! each topic at each chosen level, and a run's summary with missing and
//! rejected topics counted as distance 1.

use super::Flowchart;
use super::mcs::{self, CutBy, Level, Settings, Watch};
use super::measures::{MeanPrf, Prf, Triplets};
use crate::diagnostics::Diagnostic;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// How a topic's submission was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TopicStatus {
    Ok,
    /// No submitted file.
    Missing,
    /// The submitted file has an error: scored as missing.
    Rejected,
    /// Not scored: the command was interrupted before the pair started.
    Interrupted,
}

/// Label costs of the complete level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompleteScore {
    pub label_cost_best: f64,
    pub label_cost_mean: f64,
    /// Per-subgraph mean ned, bins [0,0.1), …, [0.8,0.9), [0.9,1.0].
    pub histogram: [u64; 10],
    /// Maximum common subgraphs enumerated (distinct node mappings).
    pub mappings: u64,
    /// How many of them have the best label cost.
    pub best_mappings: u64,
    pub truncated: bool,
    /// The mapping of least label cost: (gold node id, run node id).
    pub mapping: Vec<(i64, i64)>,
}

/// One topic at one level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelScore {
    /// |mcs| (best found when not exact).
    pub mcs: usize,
    /// The distance (at the complete level with |mcs| − best label cost).
    pub distance: f64,
    pub exact: bool,
    /// When not exact: the proven upper bound on |mcs| ...
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mcs_upper: Option<usize>,
    /// ... and the distance it gives, the low end of the interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_lower: Option<f64>,
    /// When not exact: which limit cut the search.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "cut_by"
    )]
    pub cut_by: Option<CutBy>,
    /// Node and edge precision, recall and F1 under the level's mapping.
    pub nodes: Prf,
    pub edges: Prf,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub complete: Option<CompleteScore>,
}

/// The scored levels of one topic (only the chosen ones are present).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Levels {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub basic: Option<LevelScore>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intermediate: Option<LevelScore>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub complete: Option<LevelScore>,
}

impl Levels {
    pub fn get(&self, level: Level) -> Option<&LevelScore> {
        match level {
            Level::Basic => self.basic.as_ref(),
            Level::Intermediate => self.intermediate.as_ref(),
            Level::Complete => self.complete.as_ref(),
        }
    }

    fn set(&mut self, level: Level, score: LevelScore) {
        let slot = match level {
            Level::Basic => &mut self.basic,
            Level::Intermediate => &mut self.intermediate,
            Level::Complete => &mut self.complete,
        };
        *slot = Some(score);
    }
}

/// One topic of one run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TopicScore {
    pub topic: String,
    pub status: TopicStatus,
    /// Diagnostics of the submitted file: `"diagnostics"` (lines) and
    /// `"diagnostic_list"` (objects) in the JSON.
    #[serde(
        flatten,
        serialize_with = "crate::diagnostics::both_lists",
        deserialize_with = "crate::report::saved::diagnostics"
    )]
    pub diagnostics: Vec<Diagnostic>,
    pub gold_size: usize,
    /// |Fs|; `None` when missing or rejected.
    pub run_size: Option<usize>,
    /// The triplet scores (all zero when missing or rejected).
    pub triplets: Triplets,
    pub levels: Levels,
}

/// A figure per chosen level.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PerLevel<T> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub basic: Option<T>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intermediate: Option<T>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub complete: Option<T>,
}

impl<T: Copy> PerLevel<T> {
    pub fn get(&self, level: Level) -> Option<T> {
        match level {
            Level::Basic => self.basic,
            Level::Intermediate => self.intermediate,
            Level::Complete => self.complete,
        }
    }

    fn set(&mut self, level: Level, value: Option<T>) {
        match level {
            Level::Basic => self.basic = value,
            Level::Intermediate => self.intermediate = value,
            Level::Complete => self.complete = value,
        }
    }
}

/// Mean distance per chosen level.
pub type MeanDistance = PerLevel<f64>;

/// A run's totals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub topics: usize,
    pub missing: usize,
    pub rejected: usize,
    /// Topics not scored because the command was interrupted (absent when
    /// none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub interrupted: usize,
    /// Topics whose result is not exact (a limit cut the search).
    pub inexact: usize,
    /// Over all topics, missing and rejected ones at distance 1.
    pub mean_distance: MeanDistance,
    /// Over all topics, missing and rejected ones at 0.
    pub mean_nodes: PerLevel<MeanPrf>,
    pub mean_edges: PerLevel<MeanPrf>,
    pub mean_triplets: MeanPrf,
}

/// One run's scores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunScore {
    pub run: String,
    pub topics: Vec<TopicScore>,
    pub summary: Summary,
}

/// Reads back a `cut_by` written by its name.
fn cut_by<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<CutBy>, D::Error> {
    let all = [CutBy::Budget, CutBy::Time, CutBy::Interrupted];
    Option::<String>::deserialize(d)?
        .map(|name| crate::report::saved::by_name(&all, CutBy::name, &name))
        .transpose()
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Gives each search of a pair the [`Watch`] it shows its progress on, or
/// none: called with the level a search is for (the intermediate level for
/// the maximum the levels share), the watch is dropped when it ends.
pub type Watcher<'a> = &'a (dyn Fn(Level) -> Option<Arc<Watch>> + Sync);

/// Scores `run` against `gold` at each of `levels`: the intermediate
/// level's maximum first (every level starts from it), then the levels in
/// parallel.
pub fn score_pair(
    gold: &Flowchart,
    run: &Flowchart,
    levels: &[Level],
    settings: &Settings,
) -> Levels {
    score_pair_watched(gold, run, levels, settings, &|_| None)
}

/// [`score_pair`], each search showing its progress on the watch `watcher`
/// gives it.
pub fn score_pair_watched(
    gold: &Flowchart,
    run: &Flowchart,
    levels: &[Level],
    settings: &Settings,
    watcher: Watcher,
) -> Levels {
    let typed = {
        let watch = watcher(Level::Intermediate);
        mcs::typed_maximum_for(gold, run, settings, levels, watch.as_deref())
    };
    let scores: Vec<LevelScore> = levels
        .par_iter()
        .map(|&level| {
            // The intermediate level is the shared maximum: nothing to watch.
            let watch = (level != Level::Intermediate)
                .then(|| watcher(level))
                .flatten();
            let r = mcs::maximum_common_subgraph_watched(
                gold,
                run,
                level,
                settings,
                &typed,
                watch.as_deref(),
            );
            level_score(gold, run, settings, r)
        })
        .collect();
    let mut out = Levels::default();
    for (&level, score) in levels.iter().zip(scores) {
        out.set(level, score);
    }
    out
}

/// A level's score from the engine's result `r`.
fn level_score(gold: &Flowchart, run: &Flowchart, settings: &Settings, r: mcs::Mcs) -> LevelScore {
    let (t, s) = (gold.size(), run.size());
    let best_cost = r.labels.as_ref().map_or(0.0, |l| l.best);
    let dist = |m: usize| mcs::distance(m as f64 - best_cost, t, s, settings.denominator);
    // |mcs| = mapped nodes + preserved edges.
    let matched_nodes = r.mapping.len();
    let matched_edges = r.size.saturating_sub(matched_nodes);
    LevelScore {
        mcs: r.size,
        distance: dist(r.size),
        exact: r.exact,
        mcs_upper: (!r.exact).then_some(r.upper),
        // Best cost of the upper bound is unknown: 0 is its lowest value.
        distance_lower: (!r.exact)
            .then(|| mcs::distance(r.upper as f64, t, s, settings.denominator)),
        cut_by: r.cut_by.filter(|_| !r.exact),
        nodes: Prf::of(matched_nodes, run.nodes.len(), gold.nodes.len()),
        edges: Prf::of(matched_edges, run.edges.len(), gold.edges.len()),
        complete: r.labels.map(|l| CompleteScore {
            label_cost_best: l.best,
            label_cost_mean: l.mean,
            histogram: l.histogram,
            mappings: l.mappings,
            best_mappings: l.best_mappings,
            truncated: l.truncated,
            mapping: r.mapping.clone(),
        }),
    }
}

/// The levels of a missing or rejected submission: |mcs| = 0, d = 1 (docs/metrics.md).
pub fn missing_levels(levels: &[Level]) -> Levels {
    let mut out = Levels::default();
    for &level in levels {
        out.set(
            level,
            LevelScore {
                mcs: 0,
                distance: 1.0,
                exact: true,
                mcs_upper: None,
                distance_lower: None,
                cut_by: None,
                nodes: Prf::default(),
                edges: Prf::default(),
                complete: (level == Level::Complete).then(|| CompleteScore {
                    label_cost_best: 0.0,
                    label_cost_mean: 0.0,
                    histogram: [0; 10],
                    mappings: 0,
                    best_mappings: 0,
                    truncated: false,
                    mapping: Vec::new(),
                }),
            },
        );
    }
    out
}

/// The summary of a run's topics at `levels`.
pub fn summarize(topics: &[TopicScore], levels: &[Level]) -> Summary {
    let count = |status| topics.iter().filter(|t| t.status == status).count();
    let mut mean = MeanDistance::default();
    let (mut nodes, mut edges) = (PerLevel::default(), PerLevel::default());
    for &level in levels {
        let sum: f64 = topics
            .iter()
            .map(|t| t.levels.get(level).map_or(1.0, |l| l.distance))
            .sum();
        mean.set(
            level,
            (!topics.is_empty()).then(|| sum / topics.len() as f64),
        );
        let of = |pick: fn(&LevelScore) -> Prf| -> Vec<Prf> {
            (topics.iter())
                .map(|t| t.levels.get(level).map_or(Prf::default(), pick))
                .collect()
        };
        nodes.set(level, Some(MeanPrf::of(of(|l| l.nodes).iter())));
        edges.set(level, Some(MeanPrf::of(of(|l| l.edges).iter())));
    }
    Summary {
        topics: topics.len(),
        missing: count(TopicStatus::Missing),
        rejected: count(TopicStatus::Rejected),
        interrupted: count(TopicStatus::Interrupted),
        inexact: topics
            .iter()
            .filter(|t| {
                levels
                    .iter()
                    .any(|&l| t.levels.get(l).is_some_and(|s| !s.exact))
            })
            .count(),
        mean_distance: mean,
        mean_nodes: nodes,
        mean_edges: edges,
        mean_triplets: MeanPrf::of(topics.iter().map(|t| &t.triplets.scores)),
    }
}
