//! `clefeval segmentation`: bounding boxes over pixel tolerances (SPEC §3).

use super::{CommonArgs, Fatal, Status};
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Args)]
pub struct SegmentationArgs {
    /// Gold CSV file or folder.
    #[arg(long, required = true)]
    pub gold: Vec<PathBuf>,
    /// Submitted CSV (or OSRA SDF) file or folder; repeat for several runs.
    #[arg(long, required = true)]
    pub run: Vec<PathBuf>,
    /// Folder of the patents' page images, `<doc-id>.tif`.
    #[arg(long, value_name = "DIR")]
    pub pages: Option<PathBuf>,
    /// Tolerances in pixels: a range `0..=55` or a list `0,10,20`.
    #[arg(long, default_value = "0..=55")]
    pub tolerances: String,
    /// Tolerances in millimetres instead, converted through each page's resolution.
    #[arg(long, value_name = "MM,...")]
    pub tolerance_mm: Option<String>,
    /// Write one overlay PNG per page into this folder.
    #[arg(long, value_name = "DIR", requires = "at")]
    pub overlays: Option<PathBuf>,
    /// The tolerance the overlays show.
    #[arg(long, value_name = "T")]
    pub at: Option<u32>,
    #[command(flatten)]
    pub common: CommonArgs,
}

pub fn run(_args: &SegmentationArgs) -> Result<Status, Fatal> {
    Err(Fatal("segmentation: not implemented yet".into()))
}

/// The segmentation part of `clefeval demo`, on `data/segmentation`.
pub fn demo(_data: &Path) -> Result<(), Fatal> {
    Ok(())
}
