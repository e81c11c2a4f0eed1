//! `clefeval demo`: every implemented task on the data bundled in `goldens/`.

use super::{Fatal, Status};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Clone, Args)]
pub struct DemoArgs {
    /// Folder of the demo data (default: the repository's `goldens/`).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
}

pub fn run(args: &DemoArgs) -> Result<Status, Fatal> {
    let data = args
        .data
        .clone()
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("goldens"));
    if !data.is_dir() {
        return Err(Fatal(format!(
            "demo data folder {} not found",
            data.display()
        )));
    }
    super::validate::demo(&data)?;
    super::flowchart::demo(&data)?;
    println!();
    super::segmentation::demo(&data)?;
    println!();
    super::recognition::demo(&data)?;
    Ok(0)
}
