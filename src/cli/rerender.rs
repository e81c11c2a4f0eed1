//! `clefeval report RESULT.json`: a saved (or merged) result rendered
//! again, without scoring: its table or CSV and its HTML page, by the same
//! code as the command that scored it. What the page draws from the input
//! files (the flowchart graphs, the molecules) is drawn when the input
//! paths are given again (`--gold`, `--run`, `--clips`) and otherwise left
//! out, which a note on stderr names; so are the comparisons and
//! correlations of text-retrieval runs, which are not read back.

use super::{
    Fatal, Status, Written, check_inputs, check_output_file, emit, given_runs, write_file,
};
use crate::inputs::distinct_names;
use crate::report::OutputFormat;
use crate::report::merge::Part;
use crate::report::rerender::Rerender;
use crate::report::saved::{read_result_as, read_result_text};
use crate::tasks;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// `--format` of `clefeval report`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Shown {
    Table,
    Csv,
}

#[derive(Debug, Clone, Args)]
pub struct ReportArgs {
    /// A result file (`--format json`), whole or merged.
    #[arg(value_name = "RESULT.json")]
    pub result: PathBuf,
    /// Output format.
    #[arg(short, long, value_enum, default_value = "table")]
    pub format: Shown,
    /// Write the output to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Also write the HTML page.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// The gold files scored (flowchart, recognition): the page draws them.
    #[arg(long, value_name = "PATH")]
    pub gold: Vec<PathBuf>,
    /// The runs scored, in the order scored: the page draws their files.
    #[arg(long, value_name = "PATH")]
    pub run: Vec<PathBuf>,
    /// Folder of clip images for the recognition page.
    #[arg(long, value_name = "DIR")]
    pub clips: Option<PathBuf>,
    /// No notes on stderr.
    #[arg(short, long)]
    pub quiet: bool,
}

/// The top-level entry point for `clefeval report`.
pub fn run(args: &ReportArgs) -> Result<Status, Fatal> {
    check_inputs("", std::slice::from_ref(&args.result))?;
    check_inputs("--gold", &args.gold)?;
    let runs = given_runs(&args.run)?;
    distinct_names(&runs).map_err(Fatal)?;
    check_inputs("--clips", args.clips.as_slice())?;
    check_output_file(args.output.as_deref())?;
    check_output_file(args.html.as_deref())?;
    let text = read_result_text(&args.result).map_err(Fatal)?;
    let doc: serde_json::Value = read_result_as(&args.result, &text).map_err(Fatal)?;
    let file = args.result.display().to_string();
    let part = Part {
        file: &file,
        doc: &doc,
    };
    let asked = Rerender {
        format: match args.format {
            Shown::Table => OutputFormat::Table,
            Shown::Csv => OutputFormat::Csv,
        },
        page: args.html.is_some(),
        gold: &args.gold,
        runs: &runs,
        clips: args.clips.as_deref(),
    };
    let rendered = tasks::rerender(&part, &text, &asked).map_err(Fatal)?;
    if !args.quiet {
        for note in &rendered.notes {
            eprintln!("{note}");
        }
    }
    let mut written = Written::default();
    if let (Some(path), Some(page)) = (&args.html, &rendered.page) {
        write_file(path, page)?;
        written.file("the HTML page", path);
    }
    emit(&rendered.text, args.output.as_deref())?;
    written.output(&args.format, args.output.as_deref());
    written.close(args.quiet);
    Ok(0)
}
