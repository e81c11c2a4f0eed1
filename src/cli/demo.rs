//! `clefeval demo`: every implemented task on the data bundled in `goldens/`,
//! the tables on standard output and all tasks' reports on one HTML page.

use super::{Fatal, Status, write_file};
use crate::report::html::{HtmlPage, Section};
use clap::Args;
use std::path::PathBuf;

/// Where the demo page goes unless `--html` says otherwise.
pub const DEFAULT_PAGE: &str = "demo-report.html";

#[derive(Debug, Clone, Args)]
pub struct DemoArgs {
    /// Folder of the demo data (default: the repository's `goldens/`).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Write the HTML report of all three tasks here.
    #[arg(long, value_name = "FILE", default_value = DEFAULT_PAGE)]
    pub html: PathBuf,
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
    let flowcharts = super::flowchart::demo(&data)?;
    println!();
    let segmentation = super::segmentation::demo(&data)?;
    println!();
    let recognition = super::recognition::demo(&data)?;
    let page = HtmlPage::new("clefeval demo")
        .section(part(
            "task-flowchart",
            "Task 1: flowcharts",
            "goldens/flowchart/gold against the runs in goldens/flowchart/runs, at every level.",
        ))
        .sections(flowcharts)
        .section(part(
            "task-segmentation",
            "Task 2: chemical-diagram segmentation",
            "The gold boxes of goldens/segmentation against an OSRA run and a hand-shifted run, over the tolerances 0 to 55 px.",
        ))
        .sections(segmentation)
        .section(part(
            "task-recognition",
            "Task 3: chemical structure recognition",
            "goldens/recognition/gold against the hand-made run: every outcome, compared through Standard InChI.",
        ))
        .sections(recognition);
    write_file(&args.html, page.render())?;
    println!(
        "\nThe three tasks' report (charts, graphs, review): {} (open it in a browser)",
        args.html.display()
    );
    Ok(0)
}

/// A section that opens one task's part of the demo page.
fn part(id: &str, heading: &str, text: &str) -> Section {
    Section::new(id, heading).paragraph(text)
}
