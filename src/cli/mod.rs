//! The `clefeval` command line: argument definitions (clap) and dispatch.
//! One file per subcommand; each turns its arguments into calls of the task
//! module and renders the results through [`crate::report`].
//!
//! Exit status: 0 evaluation done; 1 `compare` found a regression
//! (and `validate` found an error); 2 the command could not run.

pub mod common;
pub mod compare;
pub mod demo;
pub mod flowchart;
pub mod help;
pub mod merge;
pub mod recognition;
pub mod rerender;
pub mod retrieval;
pub mod segmentation;
pub mod validate;
pub mod written;

pub use common::{
    CommonArgs, Fatal, Status, check_input_folder, check_inputs, check_output_file,
    check_output_folder, emit, given_runs, note_rejected, read_result, with_threads, write_file,
};
pub use written::Written;

use crate::retrieval::Task;
use clap::parser::ValueSource;
use clap::{FromArgMatches, Parser, Subcommand};
use common::pick_format;
use std::process::ExitCode;

/// The exit statuses, as the top-level help lists them.
const EXIT_CODES: &str = "Exit status:
  0    the command ran (an evaluation, a report, a check that found no error)
  1    compare found a regression; validate rejected a file
  2    the command could not run (bad arguments, unreadable input, unwritable output)
  130  an evaluation interrupted by Ctrl-C (flowchart)";

#[derive(Debug, Parser)]
#[command(
    name = "clefeval",
    version,
    about = "Scores the evaluation tasks of CLEF-IP: flowcharts, chemical diagrams and structures, prior-art and passage retrieval",
    after_help = EXIT_CODES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check flowchart files, or the runs of a retrieval task (--task), and print every diagnostic.
    Validate(validate::ValidateArgs),
    /// Score submitted flowcharts against gold flowcharts (graph distance).
    Flowchart(flowchart::FlowchartArgs),
    /// Score chemical-diagram bounding boxes over pixel tolerances.
    Segmentation(segmentation::SegmentationArgs),
    /// Score submitted MOL files against gold MOL files via Standard InChI.
    Recognition(recognition::RecognitionArgs),
    /// Score prior-art document runs against qrels (P@k, R@k, MAP, PRES, nDCG).
    #[command(name = "prior-art", mut_arg("keep_headings", |a| a.hide(true)))]
    PriorArt(retrieval::RetrievalArgs),
    /// Score claims-to-passage runs against passage qrels (document measures, MAP(D), Precision(D)).
    Passage(retrieval::RetrievalArgs),
    /// Compare two JSON result files; exit 1 on a regression.
    Compare(compare::CompareArgs),
    /// Join the parts of one evaluation (--shard K/N) into the result of the whole.
    Merge(merge::MergeArgs),
    /// Render a saved or merged result again (table, CSV, HTML page) without scoring.
    Report(rerender::ReportArgs),
    /// Run all tasks on the bundled demo data.
    Demo(demo::DemoArgs),
    /// Internal: an InChI worker process fed over stdin/stdout.
    #[command(hide = true, name = "inchi-worker")]
    InchiWorker,
}

pub fn main() -> ExitCode {
    let matches = help::parsed();
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let sub = matches.subcommand().map(|(_, sub)| sub);
    let explicit = sub.is_some_and(|m| {
        m.try_get_raw("format").is_ok_and(|v| v.is_some())
            && m.value_source("format") == Some(ValueSource::CommandLine)
    });
    let result = format_from_output(&mut cli.command, explicit).and_then(|()| run(&cli));
    match result {
        Ok(status) => ExitCode::from(status),
        Err(Fatal(message)) => {
            eprintln!("clefeval: error: {message}");
            ExitCode::from(2)
        }
    }
}

/// Runs the command parsed.
fn run(cli: &Cli) -> Result<Status, Fatal> {
    match &cli.command {
        Command::Validate(a) => validate::run(a),
        Command::Flowchart(a) => flowchart::run(a),
        Command::Segmentation(a) => segmentation::run(a),
        Command::Recognition(a) => recognition::run(a),
        Command::PriorArt(a) => retrieval::run(a, Task::PriorArt),
        Command::Passage(a) => retrieval::run(a, Task::Passage),
        Command::Compare(a) => compare::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Report(a) => rerender::run(a),
        Command::Demo(a) => demo::run(a),
        Command::InchiWorker => recognition::worker(),
    }
}

/// `--output FILE` with a known extension ([`format_of_extension`]) and no
/// `--format`: the format the extension names, or an error when the command
/// cannot write it. With `--format` too, a `.json` or `.csv` file of another
/// format is written as asked, with a warning on stderr (unless `--quiet`).
fn format_from_output(command: &mut Command, explicit: bool) -> Result<(), Fatal> {
    match command {
        Command::Validate(a) => pick_format(&mut a.format, a.output.as_deref(), explicit, a.quiet),
        Command::Compare(a) => pick_format(&mut a.format, a.output.as_deref(), explicit, a.quiet),
        Command::Report(a) => pick_format(&mut a.format, a.output.as_deref(), explicit, a.quiet),
        Command::Flowchart(a) => a.common.pick_format(explicit),
        Command::Segmentation(a) => a.common.pick_format(explicit),
        Command::Recognition(a) => a.common.pick_format(explicit),
        Command::PriorArt(a) | Command::Passage(a) => a.common.pick_format(explicit),
        Command::Merge(_) | Command::Demo(_) | Command::InchiWorker => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
        help::shown().debug_assert();
        help::parser().debug_assert();
    }
}
