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
    CommonArgs, Fatal, Status, Written, check_inputs, check_output_file, emit, given_runs,
    note_rejected, with_threads, write_file,
};
use crate::flowchart::evaluate::{Options, Partial, evaluate_into, input_digests};
use crate::flowchart::html;
use crate::flowchart::mcs::{self, DEFAULT_BUDGET};
use crate::flowchart::settings::{ReportSettings, Requested};
use crate::inputs::Run;
use crate::report::show_progress;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

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
    #[arg(long, required = true, value_name = "PATH")]
    pub gold: Vec<PathBuf>,
    /// Folder of one run's submitted flowcharts; repeat for several runs.
    #[arg(long, required = true, value_name = "PATH")]
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
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    pub max_mappings: u64,
    /// Per-pair time limit in seconds (off by default; where it cuts
    /// depends on the machine).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
    /// Units of search work per pair and level, or `none` [default:
    /// 80000000, about a minute]. A pair cut by it reports the best size
    /// found and the proven bound, the same on every machine.
    #[arg(long, value_name = "N|none", value_parser = parse_budget)]
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
    (text.parse::<u64>())
        .map(|units| Budget(Some(units)))
        .map_err(|_| format!("a whole number of work units, or none; not {text:?}"))
}

impl FlowchartArgs {
    /// The settings these arguments give, checked
    /// ([`ReportSettings::new`]).
    pub fn settings(&self) -> Result<ReportSettings, Fatal> {
        let given = Requested {
            levels: vec![value_name(&self.level)],
            denominator: value_name(&self.denominator),
            induced: self.induced,
            ignore_direction: self.ignore_direction,
            edge_types: self.edge_types,
            exact_labels: self.exact_labels,
            max_mappings: self.max_mappings,
            time_limit: self.time_limit,
            budget: match self.budget {
                None => Some(DEFAULT_BUDGET),
                Some(Budget(units)) => units,
            },
            strict: self.strict,
        };
        ReportSettings::new(&given).map_err(|e| Fatal(e.flag()))
    }
}

/// The name a value of an option has on the command line.
fn value_name<T: ValueEnum>(value: &T) -> String {
    (value.to_possible_value())
        .map(|v| v.get_name().to_string())
        .unwrap_or_default()
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
    let runs = given_runs(&args.run)?;
    args.common.check_outputs()?;
    check_output_file(args.partial.as_deref())?;
    let partial = match &args.partial {
        Some(path) => Some(Partial::create(path).map_err(|e| Fatal(e.0))?),
        None => None,
    };
    stop_on_signals(args.common.quiet)?;
    let settings = args.settings()?;
    let options = Options {
        gold: args.gold.clone(),
        runs: runs.clone(),
        parse: settings.parse(),
        levels: settings.levels,
        settings: settings.settings,
        keep: args.common.html.is_some(),
        progress: show_progress(args.common.quiet),
        shard: args.common.shard,
    };
    let mut done = with_threads(args.threads, || evaluate_into(&options, partial.as_ref()))?
        .map_err(|e| Fatal(e.0))?;
    done.report.inputs = with_threads(args.threads, || {
        input_digests(&args.gold, &Run::paths(&runs))
    })?;
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
    note_rejected(
        &done.report.rejected_runs,
        &done.report.skipped_files,
        &args.common,
    );
    let text = done.report.render(args.common.format);
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
