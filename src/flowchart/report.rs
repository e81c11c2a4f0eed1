//! The flowchart report: the JSON value (docs/formats.md), its text tables
//! (one per run, then the ranking of the runs) and its CSV (one row per
//! run and topic), and the ranking itself, shared with the HTML page.

use super::mcs::{CutBy, Level};
use super::measures::Prf;
use super::score::{RunScore, TopicScore, TopicStatus, summarize};
pub use super::settings::ReportSettings;
use crate::diagnostics::push_rejected;
use crate::inputs::push_skipped;
use crate::report::envelope::Envelope;
use crate::report::merge::{Part, read_parts};
use crate::report::table::{Align, Table};
use crate::report::validation::plural;
use crate::report::{OutputFormat, ratio, to_json};

/// The JSON output (docs/formats.md): the envelope of every result with
/// the flowchart settings and one [`RunScore`] per run.
pub type Report = Envelope<ReportSettings, RunScore>;

/// `clefeval merge` for flowchart results: the parts' topics joined run by
/// run in topic order (the order of a whole evaluation), each run's
/// summary made again by [`summarize`]; the rest is the first part's
/// (the parts were checked to be of one evaluation). Interrupted when a
/// part was.
pub fn merge(parts: &[Part]) -> Result<String, String> {
    let (mut whole, others) = read_parts::<Report>(parts)?;
    for part in others {
        whole.interrupted |= part.interrupted;
        for (run, other) in whole.runs.iter_mut().zip(part.runs) {
            run.topics.extend(other.topics);
        }
    }
    for run in &mut whole.runs {
        run.topics.sort_by(|a, b| a.topic.cmp(&b.topic));
        run.summary = summarize(&run.topics, &whole.settings.levels);
    }
    whole.shard = None;
    Ok(to_json(&whole) + "\n")
}

/// The level whose mean ranks the runs: the finest level scored.
pub fn ranking_level(levels: &[Level]) -> Level {
    levels.iter().copied().max().unwrap_or(Level::Intermediate)
}

/// The runs ordered by mean distance at [`ranking_level`] (a run without
/// it counts as 1), then by name.
pub fn ranked<'r>(runs: &'r [RunScore], levels: &[Level]) -> Vec<&'r RunScore> {
    let by = ranking_level(levels);
    let mut ranked: Vec<&RunScore> = runs.iter().collect();
    ranked.sort_by(|a, b| {
        let d = |r: &RunScore| r.summary.mean_distance.get(by).unwrap_or(1.0);
        d(a).total_cmp(&d(b)).then(a.run.cmp(&b.run))
    });
    ranked
}

/// A topic's status as the tables and the page write it.
pub fn status_name(status: TopicStatus) -> &'static str {
    match status {
        TopicStatus::Ok => "ok",
        TopicStatus::Missing => "missing",
        TopicStatus::Rejected => "rejected",
        TopicStatus::Interrupted => "interrupted",
    }
}

fn level_headers(levels: &[Level]) -> Vec<String> {
    levels
        .iter()
        .flat_map(|l| [format!("{} mcs", l.name()), format!("{} d", l.name())])
        .collect()
}

/// The headers of the F1 columns the tables show: node and edge F1 at the
/// finest level scored, and triplet F1 (every figure is in JSON and CSV).
pub fn f1_headers(levels: &[Level]) -> [String; 3] {
    let level = ranking_level(levels).name();
    [
        format!("{level} node F1"),
        format!("{level} edge F1"),
        "triplet F1".to_string(),
    ]
}

/// A topic's F1 figures of [`f1_headers`] (zeros when missing, rejected
/// or not scored).
pub fn topic_f1(topic: &TopicScore, levels: &[Level]) -> [f64; 3] {
    let level = topic.levels.get(ranking_level(levels));
    [
        level.map_or(0.0, |l| l.nodes.f1),
        level.map_or(0.0, |l| l.edges.f1),
        topic.triplets.scores.f1,
    ]
}

/// A run's mean F1 figures of [`f1_headers`].
pub fn mean_f1(run: &RunScore, levels: &[Level]) -> [f64; 3] {
    let level = ranking_level(levels);
    let s = &run.summary;
    [
        s.mean_nodes.get(level).map_or(0.0, |m| m.f1),
        s.mean_edges.get(level).map_or(0.0, |m| m.f1),
        s.mean_triplets.f1,
    ]
}

impl Report {
    /// The output text in `format`.
    pub fn render(&self, format: OutputFormat) -> String {
        match format {
            OutputFormat::Json => to_json(self) + "\n",
            OutputFormat::Csv => self.csv(),
            OutputFormat::Table => self.table(),
        }
    }

    /// The text output: per run a table of its topics with the missing and
    /// rejected ones listed below it, then (for several runs) the ranking.
    pub fn table(&self) -> String {
        let levels = &self.settings.levels;
        let mut out = String::new();
        if let Some(note) = self.interruption() {
            out.push_str(&note);
            out.push_str("\n\n");
        }
        for run in &self.runs {
            out.push_str(&run_table(run, levels));
            out.push('\n');
        }
        if self.runs.len() > 1 {
            out.push_str(&ranking_table(&self.runs, levels));
        }
        push_rejected(&mut out, &self.rejected_runs);
        push_skipped(&mut out, &self.skipped_files);
        out
    }

    /// The line that says the evaluation was interrupted, with how many
    /// topics it left unscored or cut; `None` when it ran to its end.
    pub fn interruption(&self) -> Option<String> {
        if !self.interrupted {
            return None;
        }
        let topics = self.runs.iter().flat_map(|r| &r.topics);
        let unscored = topics
            .clone()
            .filter(|t| t.status == TopicStatus::Interrupted)
            .count();
        let cut = topics
            .filter(|t| cut_by_interruption(t, &self.settings.levels))
            .count();
        Some(format!(
            "evaluation interrupted: {} not scored, {cut} cut while being scored; every other result is final",
            plural(unscored, "topic")
        ))
    }

    /// One CSV row per (run, topic).
    pub fn csv(&self) -> String {
        let levels = &self.settings.levels;
        let mut headers: Vec<String> = ["run", "topic", "status", "gold_size", "run_size"]
            .map(String::from)
            .to_vec();
        for l in levels {
            for field in ["mcs", "distance", "exact"] {
                headers.push(format!("{}_{field}", l.name()));
            }
            for kind in ["node", "edge"] {
                for field in PRF_FIELDS {
                    headers.push(format!("{}_{kind}_{field}", l.name()));
                }
            }
        }

        if levels.contains(&Level::Complete) {
            for field in [
                "label_cost_best",
                "label_cost_mean",
                "mappings",
                "truncated",
            ] {
                headers.push(format!("complete_{field}"));
            }
        }
        headers.extend(
            ["gold_triplets", "run_triplets"]
                .map(String::from)
                .into_iter()
                .chain(PRF_FIELDS.map(|f| format!("triplet_{f}"))),
        );
        let mut table = Table::new(headers);
        for run in &self.runs {
            for t in &run.topics {
                let mut row = vec![
                    run.run.clone(),
                    t.topic.clone(),
                    status_name(t.status).to_string(),
                    t.gold_size.to_string(),
                    t.run_size.map_or(String::new(), |s| s.to_string()),
                ];
                for &level in levels {
                    match t.levels.get(level) {
                        Some(l) => {
                            row.extend([
                                l.mcs.to_string(),
                                l.distance.to_string(),
                                l.exact.to_string(),
                            ]);
                            row.extend(prf_cells(&l.nodes));
                            row.extend(prf_cells(&l.edges));
                        }
                        None => row.extend(vec![String::new(); 3 + 2 * PRF_FIELDS.len()]),
                    }
                }
                if let Some(c) = t.levels.complete.as_ref().and_then(|l| l.complete.as_ref()) {
                    row.extend([
                        c.label_cost_best.to_string(),
                        c.label_cost_mean.to_string(),
                        c.mappings.to_string(),
                        c.truncated.to_string(),
                    ]);
                } else if levels.contains(&Level::Complete) {
                    row.extend([String::new(), String::new(), String::new(), String::new()]);
                }
                row.extend([t.triplets.gold.to_string(), t.triplets.run.to_string()]);
                row.extend(prf_cells(&t.triplets.scores));
                table.row(row);
            }
        }
        table.to_csv()
    }
}

/// The CSV fields of a [`Prf`], in the order of [`prf_cells`].
const PRF_FIELDS: [&str; 4] = ["matched", "precision", "recall", "f1"];

fn prf_cells(x: &Prf) -> [String; 4] {
    [
        x.matched.to_string(),
        x.precision.to_string(),
        x.recall.to_string(),
        x.f1.to_string(),
    ]
}

/// One run's topics, its mean row, and what was missing or rejected.
fn run_table(run: &RunScore, levels: &[Level]) -> String {
    let mut table = Table::new(
        ["topic", "status", "|Ft|", "|Fs|"]
            .into_iter()
            .map(String::from)
            .chain(level_headers(levels))
            .chain(f1_headers(levels)),
    );
    for t in &run.topics {
        let mut row = vec![
            t.topic.clone(),
            status_name(t.status).to_string(),
            t.gold_size.to_string(),
            t.run_size.map_or("-".into(), |s| s.to_string()),
        ];
        for &level in levels {
            match t.levels.get(level) {
                Some(l) => {
                    let mark = if l.exact { "" } else { "*" };
                    row.push(format!("{}{mark}", l.mcs));
                    row.push(format!("{}{mark}", ratio(l.distance)));
                }
                None => row.extend([String::new(), String::new()]),
            }
        }
        row.extend(topic_f1(t, levels).map(ratio));
        table.row(row);
    }
    let mut mean = vec![
        "mean".to_string(),
        String::new(),
        String::new(),
        String::new(),
    ];
    for &level in levels {
        mean.push(String::new());
        mean.push(
            run.summary
                .mean_distance
                .get(level)
                .map_or(String::new(), ratio),
        );
    }
    mean.extend(mean_f1(run, levels).map(ratio));
    table.row(mean);
    let mut out = format!(
        "== run {} ({}) ==\n",
        run.run,
        plural(run.summary.topics, "topic")
    );
    out.push_str(&table.render());
    for status in [
        TopicStatus::Missing,
        TopicStatus::Rejected,
        TopicStatus::Interrupted,
    ] {
        let listed: Vec<&TopicScore> = run.topics.iter().filter(|t| t.status == status).collect();
        if !listed.is_empty() {
            let counted = if status == TopicStatus::Interrupted {
                "not scored, distance 1 in the mean"
            } else {
                "distance 1"
            };
            out.push_str(&format!("{} ({counted}): ", status_name(status)));
            out.push_str(
                &listed
                    .iter()
                    .map(|t| t.topic.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            );
            out.push('\n');
        }
    }
    for t in run
        .topics
        .iter()
        .filter(|t| t.status == TopicStatus::Rejected)
    {
        for d in &t.diagnostics {
            out.push_str(&format!("  {d}\n"));
        }
    }
    if run.summary.inexact > 0 {
        let limits = if run.topics.iter().any(|t| cut_by_interruption(t, levels)) {
            "the work budget, the time limit or the interruption"
        } else {
            "the work budget or the time limit"
        };
        out.push_str(&format!(
            "* {} cut by {limits}: best found shown (JSON has the bound)\n",
            plural(run.summary.inexact, "topic")
        ));
        out.push_str(&cut_intervals(run, levels));
    }
    out
}

/// True when the interruption cut one of `topic`'s `levels`.
fn cut_by_interruption(topic: &TopicScore, levels: &[Level]) -> bool {
    levels.iter().any(|&l| {
        topic
            .levels
            .get(l)
            .is_some_and(|s| s.cut_by == Some(CutBy::Interrupted))
    })
}

/// One line per level a limit cut: the topic, the level, the interval for
/// |mcs| (best found, proven bound), the interval for d it gives and the
/// limit that cut it.
fn cut_intervals(run: &RunScore, levels: &[Level]) -> String {
    let mut out = String::new();
    for t in &run.topics {
        for &level in levels {
            let Some(l) = t.levels.get(level).filter(|l| !l.exact) else {
                continue;
            };
            let upper = l.mcs_upper.map_or("?".to_string(), |u| u.to_string());
            let lower = l.distance_lower.map_or("?".to_string(), ratio);
            let by = match l.cut_by {
                Some(CutBy::Budget) => "the work budget",
                Some(CutBy::Time) => "the time limit",
                Some(CutBy::Interrupted) => "the interruption",
                None => "?",
            };
            out.push_str(&format!(
                "  {} {}: |mcs| in [{}, {upper}], d in [{lower}, {}], cut by {by}\n",
                t.topic,
                level.name(),
                l.mcs,
                ratio(l.distance)
            ));
        }
    }
    out
}

/// The runs in [`ranked`] order with their mean distances.
fn ranking_table(runs: &[RunScore], levels: &[Level]) -> String {
    let mut table = Table::new(
        ["rank", "run"]
            .into_iter()
            .map(String::from)
            .chain(levels.iter().map(|l| format!("{} d", l.name())))
            .chain(f1_headers(levels))
            .chain(["missing", "rejected"].map(String::from)),
    )
    .align(0, Align::Right)
    .align(1, Align::Left);
    for (i, run) in ranked(runs, levels).iter().enumerate() {
        let mut row = vec![(i + 1).to_string(), run.run.clone()];
        row.extend(levels.iter().map(|&l| {
            run.summary
                .mean_distance
                .get(l)
                .map_or(String::new(), ratio)
        }));
        row.extend(mean_f1(run, levels).map(ratio));
        row.push(run.summary.missing.to_string());
        row.push(run.summary.rejected.to_string());
        table.row(row);
    }
    format!(
        "== ranking (by mean {} distance) ==\n{}",
        ranking_level(levels).name(),
        table.render()
    )
}
