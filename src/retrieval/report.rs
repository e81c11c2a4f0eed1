//! The result of an evaluation as a value: its JSON layout (settings,
//! measure names, per run the topic rows, the means overall and per group,
//! and the lists of left-out, missing, unknown topics, dropped duplicates
//! and removed headings), trec_eval's line layout (`--format trec`), and
//! the text table (per run, then the ranking of the runs) and CSV.

use super::order::Order;
pub use super::settings::{Asked, Settings, Task};
use crate::diagnostics::{Diagnostic, RejectedRun};
use crate::inputs::{InputFiles, Shard, Skipped, push_skipped};
use crate::report::envelope::Envelope;
use crate::report::ratio;
use crate::report::table::{Align, Table};
use serde::de::{MapAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{self, Write};

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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Duplicate {
    pub topic: String,
    pub doc: String,
    /// Normalized XPath (passage runs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
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
    /// Every input file with its digest (`"inputs"` after `"settings"`).
    pub inputs: Vec<InputFiles>,
    /// The part of the topics scored (`--shard`) and where its topics go
    /// in the whole; absent from a whole evaluation.
    pub shard: Option<ShardTopics>,
    /// Files of the run folders that are not runs (no line of a run's or
    /// a qrels file's columns), listed and not read.
    pub skipped: Vec<Skipped>,
}

/// A part of an evaluation (`--shard K/N`): which part, and what `clefeval
/// merge` needs to put its topics back in the whole: each qrels topic of
/// the part with its place in the qrels, and each group's members among
/// them with their place among the group's members. The whole's topic rows
/// keep the qrels order and each group's means add its members in the
/// groups file's order, neither of which the part's rows say.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardTopics {
    /// K and N.
    #[serde(flatten)]
    pub shard: Shard,
    /// The qrels topics of this part (scored or left out), each with its
    /// index in the qrels' order of topics, in that order.
    pub topics: Vec<(String, usize)>,
    /// Every group of the groups file, in its order, with its members
    /// among [`ShardTopics::topics`], each with its index among the
    /// group's members.
    pub groups: Vec<(String, Vec<(String, usize)>)>,
    /// The comparisons and correlations asked for, which the merge makes
    /// from every topic (a part makes none); absent when none is.
    #[serde(default, skip_serializing_if = "Asked::is_empty")]
    pub asked: Asked,
}

impl Evaluation {
    /// The runs that could not be scored, with their diagnostics, in the
    /// shape every task reports rejected runs in.
    pub fn rejected_runs(&self) -> Vec<RejectedRun> {
        (self.runs.iter())
            .filter(|r| r.scores.is_none())
            .map(|r| RejectedRun {
                run: r.run.clone(),
                status: "rejected",
                diagnostics: r.diagnostics.iter().map(ToString::to_string).collect(),
                diagnostic_list: r.diagnostics.clone(),
            })
            .collect()
    }

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

/// Each group's summary with the measure names, serialized as one JSON
/// object by group name (a run's `"groups"`).
pub struct Groups<'a> {
    pub groups: &'a [(String, Summary)],
    pub names: &'a [String],
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
        map.serialize_entry("diagnostic_list", &r.diagnostics)?;
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
        let runs: Vec<RunJson> = (self.runs.iter())
            .map(|run| RunJson {
                run,
                names: &self.measures,
            })
            .collect();
        let head = Head {
            measures: self.measures.clone(),
            columns: self.columns(),
        };
        let envelope: Envelope<&Settings, RunJson, Head, &ShardTopics> = Envelope {
            shard: self.shard.as_ref(),
            inputs: self.inputs.clone(),
            head,
            skipped_files: self.skipped.clone(),
            ..Envelope::whole(self.settings.task.name(), &self.settings, runs)
        };
        envelope.serialize(s)
    }
}

/// What a text-retrieval result writes between its inputs and its runs:
/// the measure names in print order and the columns of a topic row.
/// (A run not scored stays in `runs` with its diagnostics.)
#[derive(Default, Serialize, Deserialize)]
struct Head {
    measures: Vec<String>,
    #[serde(default, skip_deserializing)]
    columns: Vec<String>,
}

/// A result file read back (`clefeval report`), in the layout
/// [`Evaluation`]'s `Serialize` writes.
type Saved = Envelope<super::settings::Requested, SavedRun, Head, ShardTopics>;

/// A summary as written: the counts and one mean per measure, by name.
type SavedSummary = BTreeMap<String, Option<f64>>;

#[derive(Deserialize)]
struct SavedRun {
    run: String,
    file: String,
    #[serde(default)]
    diagnostic_list: Vec<Diagnostic>,
    topics: Option<Vec<Vec<Value>>>,
    all: Option<SavedSummary>,
    #[serde(default)]
    groups: InOrder<SavedSummary>,
    #[serde(default)]
    left_out: Vec<String>,
    #[serde(default)]
    missing: Vec<String>,
    #[serde(default)]
    unknown: Vec<String>,
    #[serde(default)]
    duplicates: Vec<Duplicate>,
    headings_removed: Option<Vec<usize>>,
}

/// A JSON object's entries in the order written (the groups keep the
/// groups file's order).
struct InOrder<T>(Vec<(String, T)>);

impl<T> Default for InOrder<T> {
    fn default() -> Self {
        InOrder(Vec::new())
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for InOrder<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Entries<T> {
            type Value = InOrder<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(InOrder(entries))
            }
        }
        d.deserialize_map(Entries(std::marker::PhantomData))
    }
}

impl<'de> Deserialize<'de> for Evaluation {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let saved = Saved::deserialize(d)?;
        let task = match saved.task {
            "prior-art" => Task::PriorArt,
            "passage" => Task::Passage,
            other => {
                return Err(D::Error::custom(format!(
                    "not a text-retrieval task: {other:?}"
                )));
            }
        };
        let (settings, _) = saved.settings.check(task).map_err(D::Error::custom)?;
        let measures = saved.head.measures;
        let runs = (saved.runs.into_iter())
            .map(|run| run.result(&measures))
            .collect::<Result<_, String>>()
            .map_err(D::Error::custom)?;
        Ok(Evaluation {
            settings,
            measures,
            runs,
            inputs: saved.inputs,
            shard: saved.shard,
            skipped: saved.skipped_files,
        })
    }
}

impl SavedRun {
    /// The run as the evaluation holds it; `Err` names what is malformed.
    fn result(self, measures: &[String]) -> Result<RunResult, String> {
        let scores = match (self.topics, self.all) {
            (Some(topics), Some(all)) => Some(RunScores {
                topics: (topics.iter())
                    .map(|row| topic_row(row, measures.len()))
                    .collect::<Result<_, _>>()?,
                all: summary_of(&all, measures)?,
                groups: (self.groups.0.iter())
                    .map(|(name, s)| Ok((name.clone(), summary_of(s, measures)?)))
                    .collect::<Result<_, String>>()?,
                left_out: self.left_out,
                missing: self.missing,
                unknown: self.unknown,
                duplicates: self.duplicates,
                headings_removed: self.headings_removed,
            }),
            _ => None,
        };
        Ok(RunResult {
            run: self.run,
            file: self.file,
            diagnostics: self.diagnostic_list,
            scores,
        })
    }
}

/// A topic row from its array: topic, status, the three counts, the
/// measures.
fn topic_row(row: &[Value], measures: usize) -> Result<TopicRow, String> {
    let bad = || {
        format!(
            "a topic row is [topic, status, num_ret, num_rel, num_rel_ret, {measures} measures], not {}",
            Value::from(row.to_vec())
        )
    };
    let count = |i: usize| -> Result<usize, String> {
        (row.get(i).and_then(Value::as_u64))
            .map(|n| n as usize)
            .ok_or_else(bad)
    };
    if row.len() != 5 + measures {
        return Err(bad());
    }
    let status = match row.get(1).and_then(Value::as_str) {
        Some("ok") => TopicStatus::Ok,
        Some("missing") => TopicStatus::Missing,
        _ => return Err(bad()),
    };
    Ok(TopicRow {
        topic: row
            .first()
            .and_then(Value::as_str)
            .ok_or_else(bad)?
            .to_string(),
        status,
        num_ret: count(2)?,
        num_rel: count(3)?,
        num_rel_ret: count(4)?,
        values: (row.get(5..).unwrap_or_default().iter())
            .map(|v| v.as_f64().ok_or_else(bad))
            .collect::<Result<_, _>>()?,
    })
}

/// A summary from its object: the counts, and the means by measure name.
fn summary_of(saved: &SavedSummary, measures: &[String]) -> Result<Summary, String> {
    let count = |name: &str| -> Result<usize, String> {
        match saved.get(name) {
            Some(Some(n)) if *n >= 0.0 => Ok(*n as usize),
            _ => Err(format!("a summary without {name}")),
        }
    };
    Ok(Summary {
        num_q: count("num_q")?,
        num_ret: count("num_ret")?,
        num_rel: count("num_rel")?,
        num_rel_ret: count("num_rel_ret")?,
        means: measures
            .iter()
            .map(|m| saved.get(m).copied().flatten())
            .collect(),
    })
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
        for (label, summary) in sc.summaries() {
            write_summary(out, &label, names, summary)?;
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

impl Task {
    /// The command's name, as the JSON's `task` field has it.
    pub fn name(self) -> &'static str {
        match self {
            Task::PriorArt => "prior-art",
            Task::Passage => "passage",
        }
    }
}

impl TopicStatus {
    fn name(self) -> &'static str {
        match self {
            TopicStatus::Ok => "ok",
            TopicStatus::Missing => "missing",
        }
    }
}

/// The measures the ranking of the runs shows: the first MAP@N (what the
/// runs are ranked by), PRES@100, the nDCG column, MAP(D), Precision(D),
/// those the evaluation has.
fn ranking_columns(measures: &[String]) -> Vec<usize> {
    let map = measures.iter().position(|m| m.starts_with("MAP@"));
    let rest = measures.iter().enumerate().filter(|(_, m)| {
        *m == "PRES@100" || m.starts_with("nDCG@") || *m == "MAP(D)" || *m == "Precision(D)"
    });
    map.into_iter().chain(rest.map(|(i, _)| i)).collect()
}

impl RunScores {
    /// The means as the layouts label them: `all`, then `all:GROUP` for
    /// each group.
    pub fn summaries(&self) -> impl Iterator<Item = (String, &Summary)> {
        let groups = self.groups.iter().map(|(g, s)| (format!("all:{g}"), s));
        std::iter::once(("all".to_string(), &self.all)).chain(groups)
    }
}

impl Evaluation {
    /// The scored runs ordered by their mean MAP@N, higher first (a run
    /// with no scored topic last), equal means by run name.
    pub fn ranked(&self) -> Vec<(&RunResult, &RunScores)> {
        let map = self.measures.iter().position(|m| m.starts_with("MAP@"));
        let mean = |sc: &RunScores| {
            map.and_then(|i| sc.all.means.get(i).copied().flatten())
                .unwrap_or(f64::NEG_INFINITY)
        };
        let mut ranked: Vec<(&RunResult, &RunScores)> = self
            .runs
            .iter()
            .filter_map(|r| r.scores.as_ref().map(|sc| (r, sc)))
            .collect();
        ranked.sort_by(|(ra, a), (rb, b)| mean(b).total_cmp(&mean(a)).then(ra.run.cmp(&rb.run)));
        ranked
    }

    /// The text output: a line of settings, per run a table of its topics
    /// (trec_eval `-q` style) with the means overall and per group and the
    /// lists below it, then (for several runs) the ranking.
    pub fn table(&self) -> String {
        let s = &self.settings;
        let mut out = format!(
            "{}: cut-off {} documents, order {}, nDCG base {}, minimum relevance {}{}\n\n",
            s.task.name(),
            s.cutoff,
            match s.order {
                Order::File => "file",
                Order::Score => "score",
            },
            s.ndcg_base,
            s.min_relevance,
            if s.keep_headings {
                ", headings kept"
            } else {
                ""
            }
        );
        for run in &self.runs {
            out.push_str(&self.run_table(run));
            out.push('\n');
        }
        if self.runs.len() > 1 {
            out.push_str(&self.ranking_table());
        }
        push_skipped(&mut out, &self.skipped);
        out
    }

    fn run_table(&self, run: &RunResult) -> String {
        let Some(sc) = &run.scores else {
            let mut out = format!("== run {}: rejected ({}) ==\n", run.run, run.file);
            for d in &run.diagnostics {
                out.push_str(&format!("  {d}\n"));
            }
            return out;
        };
        let mut table = Table::new(self.columns()).align(1, Align::Left);
        for row in &sc.topics {
            let mut cells = vec![
                row.topic.clone(),
                row.status.name().to_string(),
                row.num_ret.to_string(),
                row.num_rel.to_string(),
                row.num_rel_ret.to_string(),
            ];
            cells.extend(row.values.iter().map(|&v| ratio(v)));
            table.row(cells);
        }
        for (label, summary) in sc.summaries() {
            let mut cells = vec![
                label,
                format!("mean of {}", summary.num_q),
                summary.num_ret.to_string(),
                summary.num_rel.to_string(),
                summary.num_rel_ret.to_string(),
            ];
            cells.extend(summary.means.iter().map(|m| m.map_or("-".into(), ratio)));
            table.row(cells);
        }
        let mut out = format!(
            "== run {} ({} topics scored) ==\n{}",
            run.run,
            sc.all.num_q,
            table.render()
        );
        let lists = [
            ("left out (no relevant document)", &sc.left_out),
            ("missing (scored 0)", &sc.missing),
            ("unknown (not in the qrels, not scored)", &sc.unknown),
        ];
        for (what, topics) in lists {
            if !topics.is_empty() {
                out.push_str(&format!("{what}: {}\n", topics.join(", ")));
            }
        }
        if !sc.duplicates.is_empty() {
            out.push_str(&format!(
                "duplicate lines dropped: {}\n",
                sc.duplicates.len()
            ));
        }
        if let Some(h) = sc.headings_removed.as_ref().filter(|h| !h.is_empty()) {
            out.push_str(&format!("heading lines removed: {}\n", h.len()));
        }
        for d in &run.diagnostics {
            out.push_str(&format!("  {d}\n"));
        }
        out
    }

    /// The scored runs in [`Evaluation::ranked`] order with their headline
    /// means; the rejected runs named below.
    fn ranking_table(&self) -> String {
        let columns = ranking_columns(&self.measures);
        let headers = ["rank", "run", "topics", "missing"]
            .map(String::from)
            .into_iter()
            .chain(
                columns
                    .iter()
                    .filter_map(|&i| self.measures.get(i).cloned()),
            );
        let mut table = Table::new(headers)
            .align(0, Align::Right)
            .align(1, Align::Left);
        for (i, (run, sc)) in self.ranked().into_iter().enumerate() {
            let mut cells = vec![
                (i + 1).to_string(),
                run.run.clone(),
                sc.all.num_q.to_string(),
                sc.missing.len().to_string(),
            ];
            cells.extend(columns.iter().map(|&c| {
                sc.all
                    .means
                    .get(c)
                    .copied()
                    .flatten()
                    .map_or("-".into(), ratio)
            }));
            table.row(cells);
        }
        let by = columns
            .first()
            .and_then(|&i| self.measures.get(i))
            .map_or("MAP", String::as_str);
        let mut out = format!("== ranking (by mean {by}) ==\n{}", table.render());
        for run in self.runs.iter().filter(|r| r.scores.is_none()) {
            out.push_str(&format!("not ranked: {} (rejected)\n", run.run));
        }
        out
    }

    /// One CSV row per (run, scored topic), then the run's mean rows (`all`,
    /// `all:GROUP`, status `mean`, with `num_q`); a rejected run is one row
    /// of status `rejected`. Values at full precision, an absent mean empty.
    pub fn csv(&self) -> String {
        let headers = [
            "run",
            "topic",
            "status",
            "num_q",
            "num_ret",
            "num_rel",
            "num_rel_ret",
        ]
        .map(String::from)
        .into_iter()
        .chain(self.measures.iter().cloned());
        let mut table = Table::new(headers);
        for run in &self.runs {
            let Some(sc) = &run.scores else {
                table.row([run.run.as_str(), "", "rejected"]);
                continue;
            };
            for row in &sc.topics {
                let mut cells = vec![
                    run.run.clone(),
                    row.topic.clone(),
                    row.status.name().to_string(),
                    String::new(),
                    row.num_ret.to_string(),
                    row.num_rel.to_string(),
                    row.num_rel_ret.to_string(),
                ];
                cells.extend(row.values.iter().map(f64::to_string));
                table.row(cells);
            }
            for (label, summary) in sc.summaries() {
                let mut cells = vec![
                    run.run.clone(),
                    label,
                    "mean".to_string(),
                    summary.num_q.to_string(),
                    summary.num_ret.to_string(),
                    summary.num_rel.to_string(),
                    summary.num_rel_ret.to_string(),
                ];
                cells.extend(
                    summary
                        .means
                        .iter()
                        .map(|m| m.map_or(String::new(), |v| v.to_string())),
                );
                table.row(cells);
            }
        }
        table.to_csv()
    }
}

#[cfg(test)]
mod tests {
    use crate::retrieval::test_files::{hand, named};
    use crate::retrieval::{Settings, Task, evaluate};

    /// The hand run (H-1, H-2 scored, H-4 missing) beside a rejected run,
    /// with a group holding only the left-out H-3.
    fn evaluation() -> crate::retrieval::Evaluation {
        let groups = named("groups.txt", b"H-1 EN\nH-4 EN\nH-3 XX\n");
        let bad = named("bad", b"H-1 Q0 EP-1 one 2.0 t\n");
        let runs = crate::inputs::Run::each(&[hand("hand-doc"), bad.path().into()]);
        let settings = Settings::new(Task::PriorArt);
        evaluate(&settings, &hand("qrels.txt"), Some(groups.path()), &runs).unwrap()
    }

    #[test]
    fn table_rows_means_lists_and_ranking() {
        let e = evaluation();
        let text = e.table();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "prior-art: cut-off 100 documents, order file, nDCG base 10, minimum relevance 1"
        );
        let row = |label: &str| -> Vec<&str> {
            let line = lines.iter().find(|l| l.starts_with(&format!("{label} ")));
            line.unwrap().split_whitespace().collect()
        };
        // H-1: P@5 = 1/5, MAP@100 = 11/60, PRES@100 = 0.6475 (hand-computed).
        let h1 = row("H-1");
        assert_eq!(h1[..6], ["H-1", "ok", "30", "4", "3", "0.2000"]);
        let map = 5 + e.measures.iter().position(|m| m == "MAP@100").unwrap();
        assert_eq!(h1[map], "0.1833");
        let pres = 5 + e.measures.iter().position(|m| m == "PRES@100").unwrap();
        assert_eq!(h1[pres], "0.6475");
        assert_eq!(row("H-4")[1], "missing");
        // Mean AP over H-1, H-2, H-4 = 71/180; the mean rows have two more
        // words in their status.
        let all = row("all");
        assert_eq!(all[1..4], ["mean", "of", "3"]);
        assert_eq!(all[map + 2], "0.3944");
        assert_eq!(row("all:EN")[3], "2");
        let xx = row("all:XX");
        assert_eq!(xx[3..8], ["0", "0", "0", "0", "-"]);
        assert!(lines.contains(&"left out (no relevant document): H-3"));
        assert!(lines.contains(&"missing (scored 0): H-4"));
        assert!(lines.contains(&"unknown (not in the qrels, not scored): H-5"));
        assert!(lines.contains(&"duplicate lines dropped: 1"));
        assert!(text.contains("== run bad: rejected ("));
        assert!(text.contains(":1: error: rank `one` is not a number\n"));
        let ranking = text
            .split("== ranking (by mean MAP@100) ==\n")
            .nth(1)
            .unwrap();
        let ranked: Vec<&str> = ranking.lines().collect();
        assert_eq!(
            ranked[0].split_whitespace().collect::<Vec<_>>()[..5],
            ["rank", "run", "topics", "missing", "MAP@100"]
        );
        assert_eq!(
            ranked[2].split_whitespace().collect::<Vec<_>>()[..5],
            ["1", "hand-doc", "3", "1", "0.3944"]
        );
        assert_eq!(ranked[3], "not ranked: bad (rejected)");
    }

    #[test]
    fn csv_rows_and_means_at_full_precision() {
        let e = evaluation();
        let csv = e.csv();
        let lines: Vec<&str> = csv.lines().collect();
        let header = format!(
            "run,topic,status,num_q,num_ret,num_rel,num_rel_ret,{}",
            e.measures.join(",")
        );
        assert_eq!(lines[0], header);
        // 3 topics, all, EN, XX; then the rejected run.
        assert_eq!(lines.len(), 1 + 3 + 3 + 1);
        assert!(lines[1].starts_with("hand-doc,H-1,ok,,30,4,3,0.2,"));
        assert!(lines[4].starts_with("hand-doc,all,mean,3,33,7,4,"));
        let map = 7 + e.measures.iter().position(|m| m == "MAP@100").unwrap();
        let mean: f64 = lines[4].split(',').nth(map).unwrap().parse().unwrap();
        assert!((mean - 71.0 / 180.0).abs() < 1e-15);
        assert!(lines[6].starts_with("hand-doc,all:XX,mean,0,0,0,0,,"));
        assert!(lines[7].starts_with("bad,,rejected,,"));
    }
}
