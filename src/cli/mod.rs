//! The `clefeval` command line: argument definitions (clap) and dispatch.
//! One file per subcommand; each turns its arguments into calls of the task
//! module and renders the results through [`crate::report`].
//!
//! Exit status: 0 evaluation done; 1 `compare` found a regression
//! (and `validate` found an error); 2 the command could not run.

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

use crate::diagnostics::RejectedRun;
use crate::inputs::{self, Run, Shard};
use crate::report::saved;
use crate::report::validation::plural;
use crate::report::{self, OutputFormat};
use crate::retrieval::Task;
use crate::{outputs, task};
use clap::parser::ValueSource;
use clap::{Args, FromArgMatches, Parser, Subcommand, ValueEnum};
use std::path::{Path, PathBuf};
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

/// Options every evaluating command takes. `F` is the command's output
/// formats: [`OutputFormat`] (table, csv, json) unless a command has more.
#[derive(Debug, Clone, Args)]
pub struct CommonArgs<F: ValueEnum + Clone + Send + Sync + 'static = OutputFormat> {
    /// Output format.
    #[arg(short, long, value_enum, default_value = "table")]
    pub format: F,
    /// Write the output to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Also write a self-contained HTML report with plots.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// No progress bar, no notes on stderr.
    #[arg(short, long)]
    pub quiet: bool,
    /// Score only part K of N of the topics (1 ≤ K ≤ N), for `clefeval
    /// merge` to join with the other parts (docs/distributed.md).
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
}

/// A command that could not run (bad arguments, unreadable gold data, an
/// output that cannot be written): exit 2. The message names the file
/// involved, if any; there is deliberately no blanket conversion from other
/// errors, so none reaches the user without it.
#[derive(Debug)]
pub struct Fatal(pub String);

impl<F: ValueEnum + Clone + Send + Sync + 'static> CommonArgs<F> {
    /// `--format` from `--output`'s extension ([`format_from_output`]).
    fn pick_format(&mut self, explicit: bool) -> Result<(), Fatal> {
        pick_format(
            &mut self.format,
            self.output.as_deref(),
            explicit,
            self.quiet,
        )
    }

    /// Checks `--output` and `--html` before any work ([`check_output_file`]).
    pub fn check_outputs(&self) -> Result<(), Fatal> {
        check_output_file(self.output.as_deref())?;
        check_output_file(self.html.as_deref())
    }
}

/// `--flag PATH`, or `PATH` for a positional argument (empty `flag`), as an
/// error message starts.
fn named(flag: &str, path: &Path) -> String {
    if flag.is_empty() {
        path.display().to_string()
    } else {
        format!("{flag} {}", path.display())
    }
}

/// Exit 2 before any work unless every input path the user named exists: a
/// typo is no run (docs/cli.md, "Input errors").
pub fn check_inputs(flag: &str, paths: &[PathBuf]) -> Result<(), Fatal> {
    for path in paths {
        if let Err(e) = std::fs::metadata(path) {
            return Err(Fatal(format!(
                "{}: {}",
                named(flag, path),
                inputs::missing_reason(&e)
            )));
        }
    }
    Ok(())
}

/// The runs `--run` names ([`Run::given`]: `PATH` or `NAME=PATH`): exit 2
/// before any work when a path does not exist. (Two runs of one name are
/// refused by the evaluation, before it reads any file.)
pub fn given_runs(args: &[PathBuf]) -> Result<Vec<Run>, Fatal> {
    let runs = (args.iter())
        .map(|arg| Run::given(arg).map_err(|e| Fatal(format!("--run {e}"))))
        .collect::<Result<Vec<_>, _>>()?;
    check_inputs("--run", &Run::paths(&runs))?;
    Ok(runs)
}

/// Exit 2 before any work unless the input folder `path` (if given) exists
/// and is a folder.
pub fn check_input_folder(flag: &str, path: Option<&Path>) -> Result<(), Fatal> {
    let Some(path) = path else { return Ok(()) };
    check_inputs(flag, &[path.to_path_buf()])?;
    if !path.is_dir() {
        return Err(Fatal(format!("{}: is not a folder", named(flag, path))));
    }
    Ok(())
}

/// Exit 2 before any work when the output file `path` (if given) cannot be
/// written ([`outputs::check_output_file`]).
pub fn check_output_file(path: Option<&Path>) -> Result<(), Fatal> {
    outputs::check_output_file(path).map_err(Fatal)
}

/// Exit 2 before any work when the output folder `path` (if given) cannot be
/// made or written into ([`outputs::check_output_folder`]).
pub fn check_output_folder(path: Option<&Path>) -> Result<(), Fatal> {
    outputs::check_output_folder(path).map_err(Fatal)
}

/// The rejected runs on stderr when the output is CSV (which has no place
/// for them) or JSON (which lists them too), unless `--quiet`; the table
/// ends with them.
pub fn note_rejected(runs: &[RejectedRun], common: &CommonArgs) {
    if common.format != OutputFormat::Table && !common.quiet {
        for run in runs {
            eprintln!("{run}");
        }
    }
}

/// Writes `text` to `output` (a file) or to standard output. A reader of
/// standard output that stops early (`clefeval … | head`) ends the output,
/// not the command: a broken pipe is no error.
pub fn emit(text: &str, output: Option<&Path>) -> Result<(), Fatal> {
    report::emit(text, output).or_else(|e| match output {
        Some(path) => Err(cannot_write(path, e)),
        None if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        None => Err(Fatal(format!("cannot write the output: {e}"))),
    })
}

/// What a command wrote into files and folders, in the order written, for
/// the line that closes its work on stderr (unless `--quiet`):
/// `clefeval: wrote the JSON to out.json and the HTML page to page.html`.
/// Paths are printed as the user gave them; standard output is not named.
#[derive(Debug, Default)]
pub struct Written(Vec<String>);

impl Written {
    /// `what` written to the file `path`.
    pub fn file(&mut self, what: &str, path: &Path) {
        self.0.push(format!("{what} to {}", path.display()));
    }

    /// The output in `format` written to `path`, if the output went to a
    /// file: `the table`, `the CSV`, `the JSON` or `the trec_eval lines`.
    pub fn output<F: ValueEnum>(&mut self, format: &F, path: Option<&Path>) {
        let Some(path) = path else { return };
        let name = format.to_possible_value();
        let what = match name.as_ref().map(|v| v.get_name()) {
            Some("csv") => "the CSV",
            Some("json") => "the JSON",
            Some("trec") => "the trec_eval lines",
            _ => "the table",
        };
        self.file(what, path);
    }

    /// `count` files of `noun` written into the folder `path` (and its
    /// subfolders, `within`).
    pub fn folder(&mut self, count: usize, noun: &str, path: &Path, within: &str) {
        self.0.push(format!(
            "{} into {}{within}",
            plural(count, noun),
            path.display()
        ));
    }

    /// The closing line, `clefeval: wrote A, B and C`; none when `quiet`
    /// or nothing went to a file.
    pub fn close(&self, quiet: bool) {
        if let Some(line) = self.line().filter(|_| !quiet) {
            eprintln!("{line}");
        }
    }

    /// The closing line's text, if anything was written.
    fn line(&self) -> Option<String> {
        let (last, rest) = self.0.split_last()?;
        Some(match rest {
            [] => format!("clefeval: wrote {last}"),
            _ => format!("clefeval: wrote {} and {last}", rest.join(", ")),
        })
    }
}

/// Writes a whole file, such as an HTML page.
pub fn write_file(path: &Path, contents: impl AsRef<[u8]>) -> Result<(), Fatal> {
    std::fs::write(path, contents).map_err(|e| cannot_write(path, e))
}

fn cannot_write(path: &Path, e: std::io::Error) -> Fatal {
    Fatal(format!("cannot write {}: {e}", path.display()))
}

/// The JSON document of the result file at `path`
/// ([`saved::read_result`]).
pub fn read_result(path: &Path) -> Result<serde_json::Value, Fatal> {
    saved::read_result(path).map_err(Fatal)
}

/// Exit status of a command that ran.
pub type Status = u8;

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

/// The format an output file's extension names: `.json`, `.csv`, or `.txt`
/// for the table.
fn format_of_extension(path: &Path) -> Option<&'static str> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "json" => Some("json"),
        "csv" => Some("csv"),
        "txt" => Some("table"),
        _ => None,
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

/// [`format_from_output`] for one command's `format` and `output`.
fn pick_format<F: ValueEnum>(
    format: &mut F,
    output: Option<&Path>,
    explicit: bool,
    quiet: bool,
) -> Result<(), Fatal> {
    let Some((path, wanted)) = output.and_then(|p| Some((p, format_of_extension(p)?))) else {
        return Ok(());
    };
    let name = |f: &F| f.to_possible_value().map(|v| v.get_name().to_string());
    if explicit {
        if wanted != "table" && name(format).as_deref() != Some(wanted) && !quiet {
            eprintln!(
                "clefeval: warning: --output {} is written in --format {}, not {wanted}",
                path.display(),
                name(format).unwrap_or_default()
            );
        }
        return Ok(());
    }
    *format = F::from_str(wanted, true).map_err(|_| {
        Fatal(format!(
            "--output {}: this command does not write {wanted}; give --format",
            path.display()
        ))
    })?;
    Ok(())
}

/// Runs `f` on a pool of `threads` threads ([`task::with_threads`]).
pub fn with_threads<T: Send>(
    threads: Option<usize>,
    f: impl FnOnce() -> T + Send,
) -> Result<T, Fatal> {
    task::with_threads(threads, f).map_err(|e| Fatal(e.flag()))
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

    #[test]
    fn the_closing_line_joins_what_was_written_in_order() {
        let mut written = Written::default();
        assert_eq!(written.line(), None);
        written.output(&OutputFormat::Table, None);
        assert_eq!(written.line(), None);
        written.output(&OutputFormat::Csv, Some(Path::new("a b/x.csv")));
        assert_eq!(
            written.line().unwrap(),
            "clefeval: wrote the CSV to a b/x.csv"
        );
        written.folder(1, "overlay image", Path::new("../ovl"), "");
        written.file("the HTML page", Path::new("p.html"));
        assert_eq!(
            written.line().unwrap(),
            "clefeval: wrote the CSV to a b/x.csv, 1 overlay image into ../ovl and the HTML page to p.html"
        );
    }
}
