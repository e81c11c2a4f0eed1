//! The flowchart part of `clefeval demo`: `validate` on the bundled gold
//! flowcharts and the broken examples, then the gold against every
//! bundled run at every level, by the same functions as the commands.

use super::mcs::{Level, Settings};
use super::{ParseOptions, evaluate, html, validate};
use crate::inputs::Run;
use crate::task::DemoPart;
use std::path::{Path, PathBuf};

/// `<data>/flowchart`: `validate` of `gold` and `broken`, then `gold`
/// against every run folder under `runs/` (no section without runs).
pub fn demo(data: &Path) -> Result<DemoPart, String> {
    let root = data.join("flowchart");
    let mut text = validated(&root)?;
    let runs = crate::inputs::folders_in(&root.join("runs")).unwrap_or_default();
    let mut sections = Vec::new();
    if !runs.is_empty() {
        let options = evaluate::Options {
            gold: vec![root.join("gold")],
            runs: Run::each(&runs),
            levels: Level::ALL.to_vec(),
            settings: Settings::default(),
            parse: ParseOptions::default(),
            keep: true,
            progress: false,
            shard: None,
        };
        let done = evaluate::evaluate(&options).map_err(|e| e.0)?;
        text += "== clefeval flowchart: bundled runs ==\n";
        text += &done.report.table();
        sections = html::sections(&done.html_input());
    }
    Ok(DemoPart {
        title: "flowcharts",
        about: "goldens/flowchart/gold against the runs in goldens/flowchart/runs, at every level.",
        text,
        sections,
    })
}

/// `validate` on the gold flowcharts (`<root>/gold`), then the summary of
/// the broken examples (`<root>/broken`).
fn validated(root: &Path) -> Result<String, String> {
    let files = |paths: &[PathBuf]| validate::files_to_check(paths).map_err(|e| e.0);
    let options = ParseOptions::default();
    let gold = validate::validate(&files(&[root.join("gold")])?, &options);
    let broken_folder = root.join("broken");
    let broken = validate::validate(&files(std::slice::from_ref(&broken_folder))?, &options);
    Ok(format!(
        "== clefeval validate: bundled gold flowcharts ==\n{}\n\
         == clefeval validate: broken examples, one per diagnostic ==\n{}\
         (every diagnostic: clefeval validate {})\n\n",
        gold.table(),
        validate::summary_line(&broken),
        broken_folder.display()
    ))
}
