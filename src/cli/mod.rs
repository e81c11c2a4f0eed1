//! The `clefeval` command line: argument definitions (clap) and dispatch.
//! One file per subcommand; each turns its arguments into calls of the task
//! module and renders the results through [`crate::report`].
//!
//! Exit status: 0 evaluation done; 1 `compare` found a regression
//! (and `validate` found an error); 2 the command could not run.

pub mod common;
pub mod compare;
pub mod convert;
pub mod demo;
pub mod detection;
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
    about = "Scores the evaluation tasks of CLEF-IP: flowcharts, chemical diagrams and structures, prior-art and passage retrieval; and detectors by COCO average precision",
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
    /// Write flowchart files in another format (CLEF-IP text, Mermaid, DOT, GraphML, draw.io), or box files as COCO and back.
    #[command(long_about = CONVERT)]
    Convert(convert::ConvertArgs),
    /// Score chemical-diagram bounding boxes over pixel tolerances.
    #[command(long_about = SEGMENTATION)]
    Segmentation(segmentation::SegmentationArgs),
    /// Score submitted MOL files against gold MOL files via Standard InChI.
    #[command(long_about = RECOGNITION)]
    Recognition(recognition::RecognitionArgs),
    /// Score detected boxes with scores by COCO average precision (as pycocotools).
    #[command(long_about = DETECTION)]
    Detection(detection::DetectionArgs),
    /// Score prior-art document runs against qrels (P@k, R@k, MAP, PRES, nDCG).
    #[command(name = "prior-art", mut_arg("keep_headings", |a| a.hide(true)))]
    PriorArt(retrieval::RetrievalArgs),
    /// Score claims-to-passage runs against passage qrels (document measures, MAP(D), Precision(D)).
    Passage(retrieval::RetrievalArgs),
    /// Compare two JSON result files; exit 1 on a regression.
    #[command(long_about = COMPARE)]
    Compare(compare::CompareArgs),
    /// Join the parts of one evaluation (--shard K/N) into the result of the whole.
    #[command(long_about = MERGE)]
    Merge(merge::MergeArgs),
    /// Render a saved or merged result again (table, CSV, HTML page) without scoring.
    #[command(long_about = REPORT)]
    Report(rerender::ReportArgs),
    /// Run all tasks on the bundled demo data.
    #[command(long_about = DEMO)]
    Demo(demo::DemoArgs),
    /// Internal: an InChI worker process fed over stdin/stdout.
    #[command(hide = true, name = "inchi-worker")]
    InchiWorker,
}

/// What `--help` says of a command before its options (`-h` gives the
/// first line only).
const SEGMENTATION: &str = "Score chemical-diagram bounding boxes over pixel tolerances.

Gold and runs are box CSV files (doc,page,x,y,width,height) or OSRA SDF files, or folders of them; each --run is one run. A submitted box matches a gold box of its page when each edge is within the tolerance, one to one; precision, recall and F1 are given at every tolerance from 0 to 55 px, or in millimetres through each page's resolution. With --pages, every box is checked against its page image. Definitions: docs/metrics.md; options and errors: docs/cli.md.";
const DETECTION: &str = "Score detected boxes with scores by COCO average precision (as pycocotools).

The gold is one COCO ground-truth file (images, annotations, categories); each --run a COCO detections file (a list of image_id, category_id, bbox, score). The twelve numbers of pycocotools' COCOeval summary for bbox, each equal to pycocotools' to the last bit, AP per category and per image the true and false positives and missed gold boxes at IoU 0.50. --iou-thresholds, --max-dets, --categories, --images and --use-cats are pycocotools' Params. Definitions and every rule copied from pycocotools: docs/detection.md.";
const RECOGNITION: &str = "Score submitted MOL files against gold MOL files via Standard InChI.

The gold and each run are folders of MOL (V2000, V3000) or SDF files, paired by file stem. Each gold structure's outcome: match, stereo, formula, wrong, unreadable, missing, or manual when the gold has no Standard InChI (left to visual review); recall is match over the automatic structures. --html FILE writes the review page (with --clips, the clip images beside). Definitions: docs/metrics.md; options and errors: docs/cli.md.";
const CONVERT: &str = "Write flowchart files in another format (CLEF-IP text, Mermaid, DOT, GraphML, draw.io), or box files as COCO and back.

Every file given (or every flowchart file of a folder given) is read in its own format and written in the format of --to: one file to -o FILE, any number into --out-dir DIR as STEM.EXTENSION. Nothing is written when a file cannot be read. DOT, GraphML and draw.io keep every node and edge type (as clef_type); Mermaid has no wiggly or unknown line and writes them plain, with a warning. Details: docs/formats.md. Box files (CSV, OSRA SDF, COCO JSON): --to coco with --pages DIR writes a COCO ground truth (every page an image), with --gold GT.json a detections list on the gold's images; --to csv writes the box CSV (--gold GT.json names the pages of a detections list, --min-score X drops lower scores). Details: docs/cli.md.";
const COMPARE: &str = "Compare two JSON result files; exit 1 on a regression.

Both are results of one scoring task (--format json, whole or merged), scored with the same settings. Every figure of the baseline is compared with the current file's: one worse by more than --tolerance, or a run, topic or structure the current file lacks or rejects, is a regression (exit 1); what each task compares is in docs/cli.md.";
const MERGE: &str = "Join the parts of one evaluation (--shard K/N) into the result of the whole.

Give every part's JSON result once, in any order: parts of one task, one version, the same settings, the same input files (by digest) and runs. The result is byte for byte what one whole evaluation writes: docs/distributed.md.";
const REPORT: &str = "Render a saved or merged result again (table, CSV, HTML page) without scoring.

The table, CSV or page is written from the result file alone; a flowchart or recognition page also draws the graphs or structures when --gold and --run name the input files again (runs in the order scored).";
const DEMO: &str = "Run all tasks on the bundled demo data.

Scores the data of goldens/ (flowcharts, segmentation, recognition, prior-art and passage runs) with the functions of each command, prints every table and writes one page with every chart, graph and review card (demo-report.html, or --html FILE). --data DIR reads another copy of that folder.";

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
        Command::Convert(a) => convert::run(a),
        Command::Segmentation(a) => segmentation::run(a),
        Command::Recognition(a) => recognition::run(a),
        Command::Detection(a) => detection::run(a),
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
        Command::Detection(a) => a.common.pick_format(explicit),
        Command::PriorArt(a) | Command::Passage(a) => a.common.pick_format(explicit),
        Command::Merge(_) | Command::Demo(_) | Command::Convert(_) | Command::InchiWorker => Ok(()),
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
