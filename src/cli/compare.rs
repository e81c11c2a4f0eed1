//! `clefeval compare BASELINE.json CURRENT.json`: the regression gate.

use super::{Fatal, Status};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    pub baseline: PathBuf,
    pub current: PathBuf,
    /// Differences up to this much are not regressions.
    #[arg(long, default_value_t = 0.0)]
    pub tolerance: f64,
}

pub fn run(_args: &CompareArgs) -> Result<Status, Fatal> {
    Err(Fatal("compare: not implemented yet".into()))
}
