//! The result of an evaluation as a value: its JSON layout (settings,
//! measure names, per run the topic rows, the means overall and per group,
//! and the lists of left-out, missing, unknown topics, dropped duplicates
//! and removed headings), and trec_eval's line layout (`--format trec`).

use super::order::Order;
use crate::diagnostics::Diagnostic;
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use std::io::{self, Write};

/// Which task: document runs (2009) or passage runs (2012–2013).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Task {
    #[serde(rename = "prior-art")]
    PriorArt,
    #[serde(rename = "passage")]
    Passage,
}

/// What to compute.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Settings {
    #[serde(skip)]
    pub task: Task,
    pub order: Order,
    /// N: documents of a topic's ranking that count.
    pub cutoff: usize,
    /// Base of the nDCG discount: 10 (the 2009 overview) or 2.
    pub ndcg_base: u32,
    /// Entries of a smaller grade are not relevant.
    pub min_relevance: i64,
    pub keep_headings: bool,
    /// P@k and R@k beyond 5, 10, 20, 100.
    pub ranks: Vec<usize>,
}

impl Settings {
    /// The defaults of `task`: file order, N = 100, base 10, grade ≥ 1,
    /// headings removed.
    pub fn new(task: Task) -> Self {
        Settings {
            task,
            order: Order::File,
            cutoff: 100,
            ndcg_base: 10,
            min_relevance: 1,
            keep_headings: false,
            ranks: Vec::new(),
        }
    }
}

/// A topic's status in a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TopicStatus {
    /// The run has lines for the topic.
    Ok,
    /// The run has no line for the topic: every measure 0.
    Missing,
}

/// One scored topic: serialized as an array in the order of
/// [`Evaluation::columns`].
#[derive(Clone, Debug, PartialEq)]
pub struct TopicRow {
    pub topic: String,
    pub status: TopicStatus,
    pub num_ret: usize,
    pub num_rel: usize,
    pub num_rel_ret: usize,
    /// One value per measure, in [`Evaluation::measures`] order.
    pub values: Vec<f64>,
}

impl Serialize for TopicRow {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(5 + self.values.len()))?;
        seq.serialize_element(&self.topic)?;
        seq.serialize_element(&self.status)?;
        seq.serialize_element(&self.num_ret)?;
        seq.serialize_element(&self.num_rel)?;
        seq.serialize_element(&self.num_rel_ret)?;
        for v in &self.values {
            seq.serialize_element(v)?;
        }
        seq.end()
    }
}

/// Means over a set of scored topics and the sums of their counts.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub num_q: usize,
    pub num_ret: usize,
    pub num_rel: usize,
    pub num_rel_ret: usize,
    /// One mean per measure; `None` when no topic is scored.
    pub means: Vec<Option<f64>>,
}

/// A summary with its measure names, serialized as one JSON object.
pub struct NamedSummary<'a> {
    pub names: &'a [String],
    pub summary: &'a Summary,
}

impl Serialize for NamedSummary<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let sm = self.summary;
        let mut map = s.serialize_map(Some(4 + sm.means.len()))?;
        map.serialize_entry("num_q", &sm.num_q)?;
        map.serialize_entry("num_ret", &sm.num_ret)?;
        map.serialize_entry("num_rel", &sm.num_rel)?;
        map.serialize_entry("num_rel_ret", &sm.num_rel_ret)?;
        for (name, mean) in self.names.iter().zip(&sm.means) {
            map.serialize_entry(name, mean)?;
        }
        map.end()
    }
}

/// A run line dropped as a duplicate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Duplicate {
    pub topic: String,
    pub doc: String,
    /// Normalized XPath (passage runs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xpath: Option<String>,
    pub line: usize,
}

/// The scores of a run that could be read.
#[derive(Clone, Debug, PartialEq)]
pub struct RunScores {
    /// Scored topics, in the qrels' order.
    pub topics: Vec<TopicRow>,
    pub all: Summary,
    /// Groups in the groups file's order.
    pub groups: Vec<(String, Summary)>,
    /// Qrels topics with no relevant document.
    pub left_out: Vec<String>,
    /// Scored topics with no line in the run.
    pub missing: Vec<String>,
    /// Run topics not in the qrels, in the run's order.
    pub unknown: Vec<String>,
    /// By line number.
    pub duplicates: Vec<Duplicate>,
    /// Line numbers of removed heading lines (passage runs).
    pub headings_removed: Option<Vec<usize>>,
}

/// One run: scored, or rejected with its diagnostics.
#[derive(Clone, Debug, PartialEq)]
pub struct RunResult {
    pub run: String,
    pub file: String,
    /// Errors (the run is rejected, `scores` is `None`) or warnings.
    pub diagnostics: Vec<Diagnostic>,
    pub scores: Option<RunScores>,
}

/// A whole evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    pub settings: Settings,
    /// Measure names in print order.
    pub measures: Vec<String>,
    pub runs: Vec<RunResult>,
}

impl Evaluation {
    /// Topic row columns: `topic`, `status`, the counts, the measures.
    pub fn columns(&self) -> Vec<String> {
        ["topic", "status", "num_ret", "num_rel", "num_rel_ret"]
            .iter()
            .map(|s| s.to_string())
            .chain(self.measures.iter().cloned())
            .collect()
    }
}

struct RunJson<'a> {
    run: &'a RunResult,
    names: &'a [String],
}

struct Groups<'a> {
    groups: &'a [(String, Summary)],
    names: &'a [String],
}

impl Serialize for Groups<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.groups.len()))?;
        for (name, summary) in self.groups {
            let named = NamedSummary {
                names: self.names,
                summary,
            };
            map.serialize_entry(name, &named)?;
        }
        map.end()
    }
}

impl Serialize for RunJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.run;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("run", &r.run)?;
        map.serialize_entry("file", &r.file)?;
        let status = if r.scores.is_some() { "ok" } else { "rejected" };
        map.serialize_entry("status", status)?;
        let diagnostics: Vec<String> = r.diagnostics.iter().map(|d| d.to_string()).collect();
        map.serialize_entry("diagnostics", &diagnostics)?;
        if let Some(sc) = &r.scores {
            map.serialize_entry("topics", &sc.topics)?;
            let all = NamedSummary {
                names: self.names,
                summary: &sc.all,
            };
            map.serialize_entry("all", &all)?;
            let groups = Groups {
                groups: &sc.groups,
                names: self.names,
            };
            map.serialize_entry("groups", &groups)?;
            map.serialize_entry("left_out", &sc.left_out)?;
            map.serialize_entry("missing", &sc.missing)?;
            map.serialize_entry("unknown", &sc.unknown)?;
            map.serialize_entry("duplicates", &sc.duplicates)?;
            if let Some(h) = &sc.headings_removed {
                map.serialize_entry("headings_removed", h)?;
            }
        }
        map.end()
    }
}

impl Serialize for Evaluation {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(5))?;
        map.serialize_entry("task", &self.settings.task)?;
        map.serialize_entry("settings", &self.settings)?;
        map.serialize_entry("measures", &self.measures)?;
        map.serialize_entry("columns", &self.columns())?;
        let runs: Vec<RunJson> = self
            .runs
            .iter()
            .map(|run| RunJson {
                run,
                names: &self.measures,
            })
            .collect();
        map.serialize_entry("runs", &runs)?;
        map.end()
    }
}

/// Writes trec_eval's line layout: per run `runid<TAB>all<TAB>NAME`, each
/// scored topic the run has (qrels order) with its measures and counts,
/// the means and `num_q`, `num_ret`, `num_rel`, `num_rel_ret` under `all`,
/// then each group's means under `all:GROUP`. Values print as the shortest
/// decimal that reads back to the same double.
pub fn write_trec(evaluation: &Evaluation, out: &mut dyn Write) -> io::Result<()> {
    let names = &evaluation.measures;
    for run in &evaluation.runs {
        writeln!(out, "runid\tall\t{}", run.run)?;
        let Some(sc) = &run.scores else { continue };
        for row in sc.topics.iter().filter(|r| r.status == TopicStatus::Ok) {
            for (name, v) in names.iter().zip(&row.values) {
                writeln!(out, "{name}\t{}\t{v}", row.topic)?;
            }
            writeln!(out, "num_ret\t{}\t{}", row.topic, row.num_ret)?;
            writeln!(out, "num_rel\t{}\t{}", row.topic, row.num_rel)?;
            writeln!(out, "num_rel_ret\t{}\t{}", row.topic, row.num_rel_ret)?;
        }
        write_summary(out, "all", names, &sc.all)?;
        for (group, summary) in &sc.groups {
            write_summary(out, &format!("all:{group}"), names, summary)?;
        }
    }
    Ok(())
}

fn write_summary(
    out: &mut dyn Write,
    topic: &str,
    names: &[String],
    s: &Summary,
) -> io::Result<()> {
    for (name, mean) in names.iter().zip(&s.means) {
        if let Some(v) = mean {
            writeln!(out, "{name}\t{topic}\t{v}")?;
        }
    }
    writeln!(out, "num_q\t{topic}\t{}", s.num_q)?;
    writeln!(out, "num_ret\t{topic}\t{}", s.num_ret)?;
    writeln!(out, "num_rel\t{topic}\t{}", s.num_rel)?;
    writeln!(out, "num_rel_ret\t{topic}\t{}", s.num_rel_ret)
}
