//! `clefeval demo`: every implemented task on the data bundled in `goldens/`,
//! the tables on standard output and every task's report on one HTML page.
//! Each task's part is its demo in the table of tasks (`crate::tasks`),
//! which calls the same library functions as its command.

use super::{Fatal, Status, emit, write_file};
use crate::report::html::{HtmlPage, Section};
use crate::tasks::TASKS;
use clap::Args;
use std::path::{Path, PathBuf};

/// Where the demo page goes unless `--html` says otherwise.
pub const DEFAULT_PAGE: &str = "demo-report.html";

#[derive(Debug, Clone, Args)]
pub struct DemoArgs {
    /// Folder of the demo data (default: the repository's `goldens/`).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Write the HTML report of every task here.
    #[arg(long, value_name = "FILE", default_value = DEFAULT_PAGE)]
    pub html: PathBuf,
    /// No notes on stderr (the demo's tables still go to standard output).
    #[arg(short, long)]
    pub quiet: bool,
}

pub fn run(args: &DemoArgs) -> Result<Status, Fatal> {
    let data = args.data.clone().unwrap_or_else(default_data);
    if !data.is_dir() {
        return Err(Fatal(format!(
            "demo data folder {} not found",
            data.display()
        )));
    }
    super::check_output_file(Some(&args.html))?;
    let mut page = HtmlPage::new("clefeval demo");
    let with_demo: Vec<_> = (TASKS.iter())
        .filter_map(|t| Some((t.name(), t.demo?)))
        .collect();
    for (n, &(task, demo)) in with_demo.iter().enumerate() {
        if n > 0 {
            emit("\n", None)?;
        }
        let part = demo(&data).map_err(Fatal)?;
        emit(&part.text, None)?;
        let heading = format!("Task {}: {}", n + 1, part.title);
        let section = Section::new(&format!("task-{task}"), &heading).paragraph(part.about);
        page = page.section(section.subsections(part.sections));
    }
    write_file(&args.html, page.render())?;
    let words = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight",
    ];
    let count = (words.get(with_demo.len()).map(|w| w.to_string()))
        .unwrap_or_else(|| with_demo.len().to_string());
    let written = format!(
        "\nThe {count} tasks' report (charts, graphs, review): {} (open it in a browser)\n",
        args.html.display()
    );
    emit(&written, None)?;
    Ok(0)
}

/// The repository's `goldens/`, relative to the working folder when it lies
/// below it: every path the demo prints is then as short as a path the
/// user would type (`goldens/flowchart/gold/…`).
fn default_data() -> PathBuf {
    let goldens = Path::new(env!("CARGO_MANIFEST_DIR")).join("goldens");
    std::env::current_dir()
        .ok()
        .and_then(|cwd| goldens.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .map(|p| match p.as_os_str().is_empty() {
            true => PathBuf::from("."),
            false => p,
        })
        .unwrap_or(goldens)
}
