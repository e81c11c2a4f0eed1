//! `clefeval merge SHARD.json...`: the parts of one evaluation, written by
//! `--shard K/N` on one machine or many, joined into the JSON one whole run
//! would have written, byte for byte (docs/distributed.md). The files may
//! come in any order; files that are not the parts of one evaluation, or a
//! part missing or given twice, stop it (exit 2) with the reason.

use super::{Fatal, Status, Written, check_inputs, check_output_file, emit, read_result};
use crate::report::merge::Part;
use crate::tasks;
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Clone, Args)]
pub struct MergeArgs {
    /// The result files of the parts (`--format json --shard K/N`).
    #[arg(required = true, value_name = "SHARD.json")]
    pub parts: Vec<PathBuf>,
    /// Write the merged result to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// No notes on stderr (this command writes none but errors).
    #[arg(short, long)]
    pub quiet: bool,
}

/// The top-level entry point for `clefeval merge`.
pub fn run(args: &MergeArgs) -> Result<Status, Fatal> {
    check_inputs("", &args.parts)?;
    check_output_file(args.output.as_deref())?;
    let docs = (args.parts.iter())
        .map(|path| read_result(path))
        .collect::<Result<Vec<_>, _>>()?;
    let names: Vec<String> = (args.parts.iter())
        .map(|p| p.display().to_string())
        .collect();
    let parts: Vec<Part> = (names.iter().zip(&docs))
        .map(|(file, doc)| Part { file, doc })
        .collect();
    let whole = tasks::merge(&parts).map_err(Fatal)?;
    emit(&whole, args.output.as_deref())?;
    let mut written = Written::default();
    if let Some(path) = &args.output {
        written.file("the merged result", path);
    }
    written.close(args.quiet);
    Ok(0)
}
