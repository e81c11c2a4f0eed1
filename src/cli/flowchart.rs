//! `clefeval flowchart`: graph distance of submitted flowcharts (SPEC §2).

use super::{CommonArgs, Fatal, Status};
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LevelChoice {
    Basic,
    Intermediate,
    Complete,
    All,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Denominator {
    /// d = 1 − |mcs| / (|Ft| + |Fs| − |mcs|)
    Union,
    /// d = 1 − |mcs| / max(|Ft|, |Fs|)
    Max,
}

#[derive(Debug, Clone, Args)]
pub struct FlowchartArgs {
    /// Folder (or files) of gold flowcharts.
    #[arg(long, required = true)]
    pub gold: Vec<PathBuf>,
    /// Folder of one run's submitted flowcharts; repeat for several runs.
    #[arg(long, required = true)]
    pub run: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = LevelChoice::All)]
    pub level: LevelChoice,
    #[arg(long, value_enum, default_value_t = Denominator::Union)]
    pub denominator: Denominator,
    /// Only induced common subgraphs (Boost's McGregor notion).
    #[arg(long)]
    pub induced: bool,
    /// Read every edge as undirected.
    #[arg(long)]
    pub ignore_direction: bool,
    /// An edge is preserved only by an edge of the same type.
    #[arg(long)]
    pub edge_types: bool,
    /// Compare labels without normalization.
    #[arg(long)]
    pub exact_labels: bool,
    /// Stop enumerating maximum common subgraphs after this many.
    #[arg(long, default_value_t = 100_000)]
    pub max_mappings: u64,
    /// Per-pair time limit in seconds (off: every result is exact).
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Treat unknown record kinds as errors.
    #[arg(long)]
    pub strict: bool,
    #[command(flatten)]
    pub common: CommonArgs,
}

pub fn run(_args: &FlowchartArgs) -> Result<Status, Fatal> {
    Err(Fatal("flowchart: not implemented yet".into()))
}

/// The flowchart part of `clefeval demo`, on `data/flowchart`.
pub fn demo(_data: &Path) -> Result<(), Fatal> {
    Ok(())
}
