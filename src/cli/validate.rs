//! `clefeval validate <PATH>...`: parses the arguments, runs
//! [`crate::flowchart::validate`] and prints its report. Exit status: 1 when
//! any file is rejected, 0 otherwise, 2 when a path does not exist or names
//! no flowchart file.

use super::{Fatal, Status, check_inputs, check_output_file, emit};
use crate::flowchart::ParseOptions;
use crate::flowchart::validate::{ValidateReport, files_to_check, validate};
use crate::report::{OutputFormat, to_json};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Clone, Args)]
pub struct ValidateArgs {
    /// Flowchart files or folders of them.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Treat unknown record kinds as errors.
    #[arg(long)]
    pub strict: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Table)]
    pub format: OutputFormat,
    /// Write the output to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

pub fn run(args: &ValidateArgs) -> Result<Status, Fatal> {
    check_inputs("", &args.paths)?;
    check_output_file(args.output.as_deref())?;
    let files = files_to_check(&args.paths).map_err(|e| Fatal(e.0))?;
    let options = ParseOptions {
        strict: args.strict,
    };
    let report = validate(&files, &options);
    emit(&render(&report, args.format), args.output.as_deref())?;
    Ok(u8::from(report.summary.rejected > 0))
}

fn render(report: &ValidateReport, format: OutputFormat) -> String {
    match format {
        OutputFormat::Table => report.table(),
        OutputFormat::Csv => report.csv(),
        OutputFormat::Json => to_json(report) + "\n",
    }
}
