//! One evaluation from files: read the gold boxes and every run, score each
//! run, and gather the findings into a [`Report`].

use super::boxes::BoxSet;
use super::report::{Report, RunReport, Settings};
use super::score::score;
use super::tolerances::Tolerances;
use super::{csv, sdf};
use crate::diagnostics::Diagnostic;
use crate::inputs::collect_files;
use std::path::{Path, PathBuf};

/// What to evaluate.
#[derive(Clone, Debug)]
pub struct Options {
    pub gold: Vec<PathBuf>,
    pub runs: Vec<PathBuf>,
    pub tolerances: Tolerances,
}

/// Gold data that cannot be scored against: the command cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoldError(pub String);

/// Reads every box file named by `paths` (files, or folders of `.csv` and
/// `.sdf` files) into one box set.
pub fn read_boxes(paths: &[PathBuf]) -> (BoxSet, Vec<Diagnostic>) {
    let (files, mut diagnostics) = collect_files(paths, &["csv", "sdf", "sd"]);
    let mut set = BoxSet::default();
    for file in &files {
        let is_sdf = file
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("sdf") || e.eq_ignore_ascii_case("sd"));
        diagnostics.extend(if is_sdf {
            sdf::read_file(file, &mut set)
        } else {
            csv::read_file(file, &mut set)
        });
    }
    (set, diagnostics)
}

/// The name of a run in the output: the last component of its path.
pub fn run_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// Runs the evaluation. Fails only when the gold data cannot be read at all.
pub fn evaluate(options: &Options) -> Result<Report, GoldError> {
    let (gold, gold_diagnostics) = read_boxes(&options.gold);
    if gold.files.is_empty() {
        let why: Vec<String> = gold_diagnostics.iter().map(ToString::to_string).collect();
        return Err(GoldError(format!(
            "no gold box file could be read: {}",
            why.join("; ")
        )));
    }
    let mut names: Vec<String> = options.runs.iter().map(|p| run_name(p)).collect();
    if names
        .iter()
        .enumerate()
        .any(|(i, n)| names[..i].contains(n))
    {
        names = options
            .runs
            .iter()
            .map(|p| p.display().to_string())
            .collect();
    }
    let no_dpi = |_: &str, _: u32| None;
    let runs = options
        .runs
        .iter()
        .zip(names)
        .map(|(path, name)| {
            let (run, mut diagnostics) = read_boxes(std::slice::from_ref(path));
            for doc in run
                .documents
                .keys()
                .filter(|d| !gold.documents.contains_key(*d))
            {
                diagnostics.push(Diagnostic::warning(
                    path.display().to_string(),
                    None,
                    format!(
                        "document {doc:?} has no gold boxes: its boxes count as false positives"
                    ),
                ));
            }
            let sweep = score(&gold, &run, &options.tolerances, &no_dpi);
            let text = diagnostics.iter().map(ToString::to_string).collect();
            RunReport::new(name, &sweep, &options.tolerances, text)
        })
        .collect();
    Ok(Report {
        task: "segmentation",
        settings: Settings {
            gold: options
                .gold
                .iter()
                .map(|p| p.display().to_string())
                .collect(),
            unit: options.tolerances.unit(),
            tolerances: options.tolerances.iter().collect(),
            pages: None,
            overlays: None,
            overlay_tolerance: None,
        },
        diagnostics: gold_diagnostics.iter().map(ToString::to_string).collect(),
        runs,
    })
}
