//! `clefeval flowchart`: graph distance of submitted flowcharts
//! (docs/metrics.md). Parses the arguments, runs
//! [`crate::flowchart::evaluate`] and prints its report as a table per run
//! (and a ranking of the runs), CSV, or JSON.
//!
//! SIGINT or SIGTERM stops the scoring early (docs/cli.md, "Interrupting a
//! flowchart evaluation"): the searches running end cut, the pairs not
//! started are left unscored, the outputs are written as usual and the
//! command exits [`INTERRUPTED`]; a second signal ends it at once.

use super::{
    CommonArgs, Fatal, Status, Written, check_inputs, check_output_file, digests, emit,
    note_rejected, with_threads, write_file,
};
use crate::flowchart::ParseOptions;
use crate::flowchart::evaluate::{EXTENSIONS, Options, Partial, evaluate_into};
use crate::flowchart::html;
use crate::flowchart::mcs::{self, DEFAULT_BUDGET, Level, Settings};
use crate::flowchart::parse::MAX_FILE_BYTES;
use crate::flowchart::report::Report;
use crate::inputs::InputFiles;
use crate::report::{OutputFormat, show_progress, to_json};
use clap::{Args, ValueEnum};
use std::path::PathBuf;
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
    /// The graph levels scored (each has its own distance).
    #[arg(long, value_enum, default_value_t = LevelChoice::All)]
    pub level: LevelChoice,
    /// What the common subgraph's size is divided by.
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
    /// Per-pair time limit in seconds (off by default; where it cuts
    /// depends on the machine).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
    /// Units of search work per pair and level, or `none` [default:
    /// 80000000, about a minute]. A pair cut by it reports the best size
    /// found and the proven bound, the same on every machine.
    #[arg(long, value_name = "UNITS|none", value_parser = parse_budget)]
    pub budget: Option<Budget>,
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,
    /// Treat unknown record kinds as errors.
    #[arg(long)]
    pub strict: bool,
    /// Also write each finished (run, topic) to FILE as one JSON line, as
    /// it finishes (the file is emptied first): what a kill leaves behind.
    #[arg(long, value_name = "FILE")]
    pub partial: Option<PathBuf>,
    #[command(flatten)]
    pub common: CommonArgs,
}

/// `--budget`: a number of work units, or `none` (no work limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget(Option<u64>);

fn parse_budget(text: &str) -> Result<Budget, String> {
    if text.eq_ignore_ascii_case("none") {
        return Ok(Budget(None));
    }
    match text.parse::<u64>() {
        Ok(units) if units > 0 => Ok(Budget(Some(units))),
        _ => Err(format!(
            "a whole number of work units above 0, or none; not {text:?}"
        )),
    }
}

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
            budget: match self.budget {
                None => Some(DEFAULT_BUDGET),
                Some(Budget(units)) => units,
            },
        })
    }
}

/// Exit status of an evaluation that was interrupted (128 + SIGINT, as a
/// shell reports a command ended by Ctrl-C).
pub const INTERRUPTED: Status = 130;

/// On SIGINT or SIGTERM (and SIGHUP): the first stops the engine's
/// searches ([`mcs::interrupt`]) and the command finishes with what it
/// has; the next ends the process at once with [`INTERRUPTED`]. A line
/// on stderr says so unless `quiet`.
fn stop_on_signals(quiet: bool) -> Result<(), Fatal> {
    ctrlc::set_handler(move || {
        if mcs::interrupted() {
            std::process::exit(i32::from(INTERRUPTED));
        }
        mcs::interrupt();
        if !quiet {
            eprintln!(
                "clefeval: interrupted: writing the results so far (interrupt again to quit at once)"
            );
        }
    })
    .map_err(|e| Fatal(format!("cannot catch interrupts: {e}")))
}

pub fn run(args: &FlowchartArgs) -> Result<Status, Fatal> {
    check_inputs("--gold", &args.gold)?;
    check_inputs("--run", &args.run)?;
    args.common.check_outputs()?;
    check_output_file(args.partial.as_deref())?;
    let partial = match &args.partial {
        Some(path) => Some(Partial::create(path).map_err(|e| Fatal(e.0))?),
        None => None,
    };
    stop_on_signals(args.common.quiet)?;
    let options = Options {
        gold: args.gold.clone(),
        runs: args.run.clone(),
        levels: args.level.levels(),
        settings: args.settings()?,
        parse: ParseOptions {
            strict: args.strict,
        },
        keep: args.common.html.is_some(),
        progress: show_progress(args.common.quiet),
        shard: args.common.shard,
    };
    let mut done = with_threads(args.threads, || evaluate_into(&options, partial.as_ref()))?
        .map_err(|e| Fatal(e.0))?;
    done.report.inputs = with_threads(args.threads, || input_digests(&args.gold, &args.run))?;
    if !args.common.quiet {
        for note in &done.notes {
            eprintln!("{note}");
        }
    }

    let mut written = Written::default();
    if let Some(path) = &args.partial {
        written.file("the finished pairs", path);
    }
    if let Some(path) = &args.common.html {
        write_file(path, html::html(&done.html_input()))?;
        written.file("the HTML page", path);
    }
    note_rejected(&done.report.rejected_runs, &args.common);
    let text = render(&done.report, args.common.format);
    emit(&text, args.common.output.as_deref())?;
    written.output(&args.common.format, args.common.output.as_deref());
    if let Some(failed) = partial.as_ref().and_then(Partial::failed) {
        return Err(Fatal(failed));
    }
    written.close(args.common.quiet);
    match done.report.interruption() {
        Some(note) => {
            if !args.common.quiet {
                eprintln!("clefeval: {note}");
            }
            Ok(INTERRUPTED)
        }
        None => Ok(0),
    }
}

/// The digests of the input files the command names (`inputs` of its
/// JSON): the gold files, then every run's.
pub fn input_digests(gold: &[PathBuf], runs: &[PathBuf]) -> Vec<InputFiles> {
    let limit = Some(MAX_FILE_BYTES);
    digests(&[
        ("gold", gold, &EXTENSIONS, limit),
        ("run", runs, &EXTENSIONS, limit),
    ])
}

pub(super) fn render(report: &Report, format: OutputFormat) -> String {
    match format {
        OutputFormat::Json => to_json(report) + "\n",
        OutputFormat::Csv => report.csv(),
        OutputFormat::Table => report.table(),
    }
}
