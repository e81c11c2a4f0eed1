//! `clefeval validate [--task flowchart|prior-art|passage] <PATH>...`:
//! parses the arguments, runs [`crate::flowchart::validate`] (flowchart
//! files, the default) or [`crate::retrieval::validate`] (run files of a
//! text-retrieval task) and prints its report. Exit status: 1 when any file
//! is rejected, 0 otherwise, 2 when a path does not exist, names no file to
//! check, or the qrels cannot be read.

use super::{Fatal, Status, Written, check_inputs, check_output_file, emit};
use crate::flowchart::ParseOptions;
use crate::flowchart::validate::{ValidateReport, files_to_check, validate};
use crate::report::{OutputFormat, to_json};
use crate::retrieval::{self, Task};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// What the files hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ValidateTask {
    /// Flowchart files.
    Flowchart,
    /// Document runs of the prior-art task (2009).
    PriorArt,
    /// Passage runs of the claims-to-passage task (2012–2013).
    Passage,
}

#[derive(Debug, Clone, Args)]
pub struct ValidateArgs {
    /// Files or folders of them: flowcharts, or runs with --task.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// What the files hold.
    #[arg(long, value_enum, default_value_t = ValidateTask::Flowchart)]
    pub task: ValidateTask,
    /// Qrels of the retrieval task: topics they lack are reported.
    #[arg(long, value_name = "FILE")]
    pub qrels: Option<PathBuf>,
    /// Treat unknown record kinds as errors (flowcharts).
    #[arg(long)]
    pub strict: bool,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = OutputFormat::Table)]
    pub format: OutputFormat,
    /// Write the output to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// No notes on stderr (this command writes none but errors).
    #[arg(short, long)]
    pub quiet: bool,
}

/// The top-level entry point for `clefeval validate`.
pub fn run(args: &ValidateArgs) -> Result<Status, Fatal> {
    let task = match args.task {
        ValidateTask::Flowchart => return run_flowchart(args),
        ValidateTask::PriorArt => Task::PriorArt,
        ValidateTask::Passage => Task::Passage,
    };
    if args.strict {
        return Err(Fatal("--strict applies to flowchart files only".into()));
    }
    check_inputs("", &args.paths)?;
    if let Some(qrels) = &args.qrels {
        check_inputs("--qrels", std::slice::from_ref(qrels))?;
    }
    check_output_file(args.output.as_deref())?;
    let report = retrieval::validate::validate(task, args.qrels.as_deref(), &args.paths)
        .map_err(|e| Fatal(without_severity(&e.0)))?;
    let text = match args.format {
        OutputFormat::Table => report.table(),
        OutputFormat::Csv => report.csv(),
        OutputFormat::Json => to_json(&report) + "\n",
    };
    emit(&text, args.output.as_deref())?;
    say_written(args);
    Ok(u8::from(report.summary.rejected > 0))
}

/// `file:line: message`, as a fatal error names its cause.
fn without_severity(d: &crate::diagnostics::Diagnostic) -> String {
    match d.line {
        Some(line) => format!("{}:{line}: {}", d.file, d.message),
        None => format!("{}: {}", d.file, d.message),
    }
}

fn run_flowchart(args: &ValidateArgs) -> Result<Status, Fatal> {
    if args.qrels.is_some() {
        return Err(Fatal(
            "--qrels applies to --task prior-art and --task passage only".into(),
        ));
    }
    check_inputs("", &args.paths)?;
    check_output_file(args.output.as_deref())?;
    let files = files_to_check(&args.paths).map_err(|e| Fatal(e.0))?;
    let options = ParseOptions {
        strict: args.strict,
    };
    let report = validate(&files, &options);
    emit(&render(&report, args.format), args.output.as_deref())?;
    say_written(args);
    Ok(u8::from(report.summary.rejected > 0))
}

/// The closing line naming the `--output` file, if one was written.
fn say_written(args: &ValidateArgs) {
    let mut written = Written::default();
    written.output(&args.format, args.output.as_deref());
    written.close(args.quiet);
}

fn render(report: &ValidateReport, format: OutputFormat) -> String {
    match format {
        OutputFormat::Table => report.table(),
        OutputFormat::Csv => report.csv(),
        OutputFormat::Json => to_json(report) + "\n",
    }
}
