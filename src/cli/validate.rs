//! `clefeval validate <PATH>...`: every diagnostic of flowchart files.

use super::{Fatal, Status};
use crate::report::OutputFormat;
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

pub fn run(_args: &ValidateArgs) -> Result<Status, Fatal> {
    Err(Fatal("validate: not implemented yet".into()))
}
