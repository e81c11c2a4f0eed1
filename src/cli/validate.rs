//! `clefeval validate <PATH>...`: parses the arguments, runs
//! [`crate::flowchart::validate`] and prints its report. Exit status: 1 when
//! any file is rejected, 0 otherwise, 2 when a path does not exist or names
//! no flowchart file.

use super::{Fatal, Status, emit};
use crate::flowchart::ParseOptions;
use crate::flowchart::validate::{files_to_check, render, summary_line, validate};
use crate::report::OutputFormat;
use clap::Args;
use std::path::{Path, PathBuf};

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
    let files = files_to_check(&args.paths).map_err(|e| Fatal(e.0))?;
    let options = ParseOptions {
        strict: args.strict,
    };
    let report = validate(&files, &options);
    emit(&render(&report, args.format), args.output.as_deref())?;
    Ok(u8::from(report.summary.rejected > 0))
}

/// The `validate` part of `clefeval demo`: the bundled gold flowcharts
/// (`<data>/flowchart/gold`), then the broken examples (`<data>/flowchart/broken`).
pub fn demo(data: &Path) -> Result<(), Fatal> {
    let folder = |name: &str| {
        let folder = data.join("flowchart").join(name);
        // Paths below the working folder are shown relative to it.
        std::env::current_dir()
            .ok()
            .and_then(|cwd| folder.strip_prefix(cwd).ok().map(Path::to_path_buf))
            .unwrap_or(folder)
    };
    let files = |paths: &[PathBuf]| files_to_check(paths).map_err(|e| Fatal(e.0));
    let options = ParseOptions::default();
    let gold = validate(&files(&[folder("gold")])?, &options);
    let broken_folder = folder("broken");
    let broken = validate(&files(std::slice::from_ref(&broken_folder))?, &options);
    let text = format!(
        "== clefeval validate: bundled gold flowcharts ==\n{}\n\
         == clefeval validate: broken examples, one per diagnostic ==\n{}\
         (every diagnostic: clefeval validate {})\n\n",
        render(&gold, OutputFormat::Table),
        summary_line(&broken),
        broken_folder.display()
    );
    emit(&text, None)?;
    Ok(())
}
