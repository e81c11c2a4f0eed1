//! `clefeval flowchart`: graph distance of submitted flowcharts (SPEC §2).
//!
//! Pairs gold and submitted files by stem, scores every (run, topic) pair
//! in parallel at the chosen levels, and prints a table per run (and a
//! ranking of the runs), CSV, or the JSON of SPEC §5. Results are collected
//! in (run, topic) order, so the output does not depend on the thread count.

use super::{CommonArgs, Fatal, Status, with_threads};
use crate::diagnostics::Diagnostic;
use crate::flowchart::mcs::{self, Level, Settings};
use crate::flowchart::score::{self, RunScore, TopicScore, TopicStatus};
use crate::flowchart::{Flowchart, ParseOptions, read_file};
use crate::inputs::{collect_files, pair_by_stem, run_names, stem};
use crate::report::table::{Align, Table};
use crate::report::{OutputFormat, emit, ratio, show_progress, to_json};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LevelChoice {
    Basic,
    Intermediate,
    Complete,
    All,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Denominator {
    /// d = 1 − |mcs| / (|Ft| + |Fs| − |mcs|)
    Union,
    /// d = 1 − |mcs| / max(|Ft|, |Fs|)
    Max,
}

#[derive(Debug, Clone, Args)]
pub struct FlowchartArgs {
    /// Folder (or files) of gold flowcharts.
    #[arg(long, required = true)]
    pub gold: Vec<PathBuf>,
    /// Folder of one run's submitted flowcharts; repeat for several runs.
    #[arg(long, required = true)]
    pub run: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = LevelChoice::All)]
    pub level: LevelChoice,
    #[arg(long, value_enum, default_value_t = Denominator::Union)]
    pub denominator: Denominator,
    /// Only induced common subgraphs (Boost's McGregor notion).
    #[arg(long)]
    pub induced: bool,
    /// Read every edge as undirected.
    #[arg(long)]
    pub ignore_direction: bool,
    /// An edge is preserved only by an edge of the same type.
    #[arg(long)]
    pub edge_types: bool,
    /// Compare labels without normalization.
    #[arg(long)]
    pub exact_labels: bool,
    /// Stop enumerating maximum common subgraphs after this many.
    #[arg(long, default_value_t = 100_000)]
    pub max_mappings: u64,
    /// Per-pair time limit in seconds (off: every result is exact).
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Treat unknown record kinds as errors.
    #[arg(long)]
    pub strict: bool,
    #[command(flatten)]
    pub common: CommonArgs,
}

/// Flowchart files are `.txt`.
const EXTENSIONS: [&str; 1] = ["txt"];

impl LevelChoice {
    /// The levels to score.
    pub fn levels(self) -> Vec<Level> {
        match self {
            LevelChoice::Basic => vec![Level::Basic],
            LevelChoice::Intermediate => vec![Level::Intermediate],
            LevelChoice::Complete => vec![Level::Complete],
            LevelChoice::All => Level::ALL.to_vec(),
        }
    }
}

impl FlowchartArgs {
    /// The scoring switches of these arguments.
    pub fn settings(&self) -> Result<Settings, Fatal> {
        let time_limit = match self.time_limit {
            None => None,
            Some(t) => Some(Duration::try_from_secs_f64(t).map_err(|_| {
                Fatal(format!("--time-limit must be a number of seconds, not {t}"))
            })?),
        };
        Ok(Settings {
            denominator: match self.denominator {
                Denominator::Union => mcs::Denominator::Union,
                Denominator::Max => mcs::Denominator::Max,
            },
            induced: self.induced,
            ignore_direction: self.ignore_direction,
            edge_types: self.edge_types,
            exact_labels: self.exact_labels,
            max_mappings: self.max_mappings,
            time_limit,
        })
    }
}

/// The `settings` object of the JSON output.
#[derive(Debug, Serialize)]
struct SettingsJson {
    levels: Vec<Level>,
    #[serde(flatten)]
    settings: Settings,
    strict: bool,
}

/// The JSON output (SPEC §5).
#[derive(Debug, Serialize)]
struct Report {
    task: &'static str,
    settings: SettingsJson,
    runs: Vec<RunScore>,
}

/// Everything one evaluation needs.
struct Job<'a> {
    gold: &'a [PathBuf],
    runs: &'a [PathBuf],
    levels: &'a [Level],
    settings: &'a Settings,
    options: ParseOptions,
}

pub fn run(args: &FlowchartArgs) -> Result<Status, Fatal> {
    let settings = args.settings()?;
    let levels = args.level.levels();
    let job = Job {
        gold: &args.gold,
        runs: &args.run,
        levels: &levels,
        settings: &settings,
        options: ParseOptions {
            strict: args.strict,
        },
    };
    let progress = if show_progress(args.common.quiet) {
        let bar = ProgressBar::new(0);
        if let Ok(style) = ProgressStyle::with_template("flowcharts {bar:40} {pos}/{len} {eta}") {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let (runs, notes) = with_threads(args.threads, || evaluate(&job, &progress))??;
    progress.finish_and_clear();
    if !args.common.quiet {
        for note in &notes {
            eprintln!("{note}");
        }
        if args.common.html.is_some() {
            eprintln!("clefeval: note: --html is not produced by the flowchart command yet");
        }
    }
    let report = Report {
        task: "flowchart",
        settings: SettingsJson {
            levels: levels.clone(),
            settings,
            strict: args.strict,
        },
        runs,
    };
    let text = render(&report, args.common.format);
    emit(&text, args.common.output.as_deref())?;
    Ok(0)
}

/// Reads the gold files (any error in them is fatal: exit 2), then scores
/// every run. Returns the runs and the notes for stderr (gold warnings,
/// files that pair with nothing).
fn evaluate(job: &Job, progress: &ProgressBar) -> Result<(Vec<RunScore>, Vec<Diagnostic>), Fatal> {
    let (gold_files, mut notes) = collect_files(job.gold, &EXTENSIONS);
    if let Some(bad) = notes.iter().find(|d| d.is_error()) {
        return Err(Fatal(format!("gold data: {bad}")));
    }
    if gold_files.is_empty() {
        return Err(Fatal("no gold flowchart files (*.txt) found".into()));
    }
    let gold: BTreeMap<String, Flowchart> = gold_files
        .par_iter()
        .map(|path| (stem(path), read_file(path, &job.options)))
        .collect::<Vec<_>>()
        .into_iter()
        .map(|(stem, parsed)| {
            if parsed.is_rejected() {
                let errors: Vec<String> = parsed
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .map(ToString::to_string)
                    .collect();
                return Err(Fatal(format!(
                    "unreadable gold file:\n{}",
                    errors.join("\n")
                )));
            }
            notes.extend(parsed.diagnostics);
            Ok((stem, parsed.flowchart))
        })
        .collect::<Result<_, Fatal>>()?;
    let mut pairs = Vec::new();
    for run in job.runs {
        if !run.exists() {
            return Err(Fatal(format!(
                "run {}: no such file or folder",
                run.display()
            )));
        }
        let (files, problems) = collect_files(std::slice::from_ref(run), &EXTENSIONS);
        notes.extend(problems);
        let (paired, strays) = pair_by_stem(&gold_files, &files);
        notes.extend(strays);
        pairs.push(paired);
    }
    progress.set_length(pairs.iter().map(Vec::len).sum::<usize>() as u64);
    let tasks: Vec<_> = pairs.iter().flatten().collect();
    let scored: Vec<TopicScore> = tasks
        .par_iter()
        .map(|pair| {
            let empty = Flowchart::default();
            // Every paired stem is a gold stem.
            let gold = gold.get(&pair.stem).unwrap_or(&empty);
            let topic = score_topic(&pair.stem, gold, pair.run.as_deref(), job);
            progress.inc(1);
            topic
        })
        .collect();
    let mut scored = scored.into_iter();
    let runs = run_names(job.runs)
        .into_iter()
        .zip(&pairs)
        .map(|(run, p)| {
            let topics: Vec<TopicScore> = scored.by_ref().take(p.len()).collect();
            RunScore {
                run,
                summary: score::summarize(&topics, job.levels),
                topics,
            }
        })
        .collect();
    Ok((runs, notes))
}

/// Scores one topic; a missing or rejected submission is distance 1.
fn score_topic(topic: &str, gold: &Flowchart, run: Option<&Path>, job: &Job) -> TopicScore {
    let Some(path) = run else {
        return TopicScore {
            topic: topic.to_string(),
            status: TopicStatus::Missing,
            diagnostics: Vec::new(),
            gold_size: gold.size(),
            run_size: None,
            levels: score::missing_levels(job.levels),
        };
    };
    let parsed = read_file(path, &job.options);
    let diagnostics = parsed.diagnostics.iter().map(ToString::to_string).collect();
    if parsed.is_rejected() {
        return TopicScore {
            topic: topic.to_string(),
            status: TopicStatus::Rejected,
            diagnostics,
            gold_size: gold.size(),
            run_size: None,
            levels: score::missing_levels(job.levels),
        };
    }
    TopicScore {
        topic: topic.to_string(),
        status: TopicStatus::Ok,
        diagnostics,
        gold_size: gold.size(),
        run_size: Some(parsed.flowchart.size()),
        levels: score::score_pair(gold, &parsed.flowchart, job.levels, job.settings),
    }
}

fn render(report: &Report, format: OutputFormat) -> String {
    match format {
        OutputFormat::Json => to_json(report) + "\n",
        OutputFormat::Csv => csv_table(report).to_csv(),
        OutputFormat::Table => text_tables(report),
    }
}

/// The level whose mean ranks the runs: the finest level scored.
fn ranking_level(levels: &[Level]) -> Level {
    levels.iter().copied().max().unwrap_or(Level::Intermediate)
}

fn level_headers(levels: &[Level]) -> Vec<String> {
    levels
        .iter()
        .flat_map(|l| [format!("{} mcs", l.name()), format!("{} d", l.name())])
        .collect()
}

fn text_tables(report: &Report) -> String {
    let levels = &report.settings.levels;
    let mut out = String::new();
    for run in &report.runs {
        let mut table = Table::new(
            ["topic", "status", "|Ft|", "|Fs|"]
                .into_iter()
                .map(String::from)
                .chain(level_headers(levels)),
        );
        for t in &run.topics {
            let mut row = vec![
                t.topic.clone(),
                format!("{:?}", t.status).to_lowercase(),
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
        table.row(mean);
        out.push_str(&format!(
            "== run {} ({} topics) ==\n",
            run.run, run.summary.topics
        ));
        out.push_str(&table.render());
        for (status, label) in [
            (TopicStatus::Missing, "missing"),
            (TopicStatus::Rejected, "rejected"),
        ] {
            let listed: Vec<&TopicScore> =
                run.topics.iter().filter(|t| t.status == status).collect();
            if !listed.is_empty() {
                out.push_str(&format!("{label} (distance 1): "));
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
            out.push_str(&format!(
                "* {} topic(s) cut by the time limit: best found shown (JSON has the bound)\n",
                run.summary.inexact
            ));
        }
        out.push('\n');
    }
    if report.runs.len() > 1 {
        let by = ranking_level(levels);
        let mut ranked: Vec<&RunScore> = report.runs.iter().collect();
        ranked.sort_by(|a, b| {
            let d = |r: &RunScore| r.summary.mean_distance.get(by).unwrap_or(1.0);
            d(a).total_cmp(&d(b)).then(a.run.cmp(&b.run))
        });
        let mut table = Table::new(
            ["rank", "run"]
                .into_iter()
                .map(String::from)
                .chain(levels.iter().map(|l| format!("{} d", l.name())))
                .chain(["missing", "rejected"].map(String::from)),
        )
        .align(0, Align::Right)
        .align(1, Align::Left);
        for (i, run) in ranked.iter().enumerate() {
            let mut row = vec![(i + 1).to_string(), run.run.clone()];
            row.extend(levels.iter().map(|&l| {
                run.summary
                    .mean_distance
                    .get(l)
                    .map_or(String::new(), ratio)
            }));
            row.push(run.summary.missing.to_string());
            row.push(run.summary.rejected.to_string());
            table.row(row);
        }
        out.push_str(&format!("== ranking (by mean {} distance) ==\n", by.name()));
        out.push_str(&table.render());
    }
    out
}

/// One CSV row per (run, topic).
fn csv_table(report: &Report) -> Table {
    let levels = &report.settings.levels;
    let mut headers: Vec<String> = ["run", "topic", "status", "gold_size", "run_size"]
        .map(String::from)
        .to_vec();
    for l in levels {
        for field in ["mcs", "distance", "exact"] {
            headers.push(format!("{}_{field}", l.name()));
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
    let mut table = Table::new(headers);
    for run in &report.runs {
        for t in &run.topics {
            let mut row = vec![
                run.run.clone(),
                t.topic.clone(),
                format!("{:?}", t.status).to_lowercase(),
                t.gold_size.to_string(),
                t.run_size.map_or(String::new(), |s| s.to_string()),
            ];
            for &level in levels {
                if let Some(l) = t.levels.get(level) {
                    row.extend([
                        l.mcs.to_string(),
                        l.distance.to_string(),
                        l.exact.to_string(),
                    ]);
                }
            }
            if let Some(c) = t.levels.complete.as_ref().and_then(|l| l.complete.as_ref()) {
                row.extend([
                    c.label_cost_best.to_string(),
                    c.label_cost_mean.to_string(),
                    c.mappings.to_string(),
                    c.truncated.to_string(),
                ]);
            }
            table.row(row);
        }
    }
    table
}

/// The flowchart part of `clefeval demo`: `flowchart/gold` against every
/// run under `flowchart/runs/`, all levels, tables on standard output.
pub fn demo(data: &Path) -> Result<(), Fatal> {
    let root = data.join("flowchart");
    let mut runs: Vec<PathBuf> = match std::fs::read_dir(root.join("runs")) {
        Ok(entries) => entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect(),
        Err(_) => return Ok(()),
    };
    runs.sort();
    if runs.is_empty() {
        return Ok(());
    }
    let gold = [root.join("gold")];
    let levels = Level::ALL.to_vec();
    let settings = Settings::default();
    let job = Job {
        gold: &gold,
        runs: &runs,
        levels: &levels,
        settings: &settings,
        options: ParseOptions::default(),
    };
    let (scored, _) = evaluate(&job, &ProgressBar::hidden())?;
    let report = Report {
        task: "flowchart",
        settings: SettingsJson {
            levels,
            settings,
            strict: false,
        },
        runs: scored,
    };
    emit(
        &format!(
            "== clefeval flowchart: bundled runs ==\n{}",
            text_tables(&report)
        ),
        None,
    )?;
    Ok(())
}
