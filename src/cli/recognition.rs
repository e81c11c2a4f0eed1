//! `clefeval recognition`: MOL files through Standard InChI (SPEC §4).

use super::{CommonArgs, Fatal, Status};
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Args)]
pub struct RecognitionArgs {
    /// Folder of gold MOL files.
    #[arg(long, required = true)]
    pub gold: Vec<PathBuf>,
    /// Folder of one run's MOL files; repeat for several runs.
    #[arg(long, required = true)]
    pub run: Vec<PathBuf>,
    /// Folder of clip images shown in the review page.
    #[arg(long, value_name = "DIR")]
    pub clips: Option<PathBuf>,
    /// Write the visual review page here.
    #[arg(long, value_name = "FILE.html")]
    pub review: Option<PathBuf>,
    /// Seconds the InChI library may take on one structure.
    #[arg(long, default_value_t = 10.0)]
    pub timeout: f64,
    /// Worker processes (default: the number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub common: CommonArgs,
}

pub fn run(_args: &RecognitionArgs) -> Result<Status, Fatal> {
    Err(Fatal("recognition: not implemented yet".into()))
}

/// The hidden `inchi-worker` mode: reads requests on stdin, answers on stdout.
pub fn worker() -> Result<Status, Fatal> {
    Err(Fatal("inchi-worker: not implemented yet".into()))
}

/// The recognition part of `clefeval demo`, on `data/recognition`.
pub fn demo(_data: &Path) -> Result<(), Fatal> {
    Ok(())
}
