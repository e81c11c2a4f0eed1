//! The runs of the run paths an evaluation is given, scored: a file is
//! one run, a folder gives each of its files as a run, and a folder that
//! holds no file is a rejected run in its place among the others.

use super::evaluate::{EvaluateError, evaluate_shard};
use super::input::run_name;
use super::report::{Evaluation, RunResult, Settings};
use crate::diagnostics::{Diagnostic, every_run_rejected};
use crate::inputs::{InputFiles, Shard, collect_files, digests};
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};

/// Scores the runs of the `--run` paths (run files, or folders of them)
/// against the qrels and groups, in the order given.
pub fn score(
    settings: &Settings,
    qrels: &Path,
    groups: Option<&Path>,
    paths: &[PathBuf],
) -> Result<Evaluation, EvaluateError> {
    score_shard(settings, qrels, groups, paths, None)
}

/// [`score`], with `shard` only the topics of that part.
pub fn score_shard(
    settings: &Settings,
    qrels: &Path,
    groups: Option<&Path>,
    paths: &[PathBuf],
    shard: Option<Shard>,
) -> Result<Evaluation, EvaluateError> {
    let hidden = ProgressBar::hidden();
    score_with_progress(settings, qrels, groups, paths, shard, &hidden)
}

/// [`score_shard`], the run files counted on `progress`
/// ([`evaluate_shard`]).
pub fn score_with_progress(
    settings: &Settings,
    qrels: &Path,
    groups: Option<&Path>,
    paths: &[PathBuf],
    shard: Option<Shard>,
    progress: &ProgressBar,
) -> Result<Evaluation, EvaluateError> {
    let places = run_places(paths);
    let files: Vec<PathBuf> = places
        .iter()
        .flat_map(|p| match p {
            Place::Files(files) => files.as_slice(),
            Place::Rejected(_) => &[],
        })
        .cloned()
        .collect();
    let scored = evaluate_shard(settings, qrels, groups, &files, shard, progress)?;
    Ok(in_place(scored, places))
}

/// The digests of the input files of an evaluation: the qrels, the
/// groups file and every run file of the `--run` paths.
pub fn input_digests(qrels: &Path, groups: Option<&Path>, runs: &[PathBuf]) -> Vec<InputFiles> {
    let qrels = [qrels.to_path_buf()];
    let groups: Vec<PathBuf> = groups.map(Path::to_path_buf).into_iter().collect();
    digests(&[
        ("qrels", &qrels, &[], None),
        ("groups", &groups, &[], None),
        ("run", runs, &[], None),
    ])
}

/// What one `--run` path gives: its run files, or a rejected run.
enum Place {
    Files(Vec<PathBuf>),
    Rejected(Box<RunResult>),
}

/// The runs of the `--run` paths, in order: a file is one run; a folder
/// gives each of its files in name order (hidden files and subfolders
/// skipped). A folder with no file, or one that cannot be listed, is a
/// rejected run in its place.
fn run_places(paths: &[PathBuf]) -> Vec<Place> {
    paths
        .iter()
        .map(|path| {
            let (files, problems) = collect_files(std::slice::from_ref(path), &[]);
            if !files.is_empty() {
                return Place::Files(files);
            }
            let mut diagnostics = problems;
            if diagnostics.is_empty() {
                diagnostics.push(Diagnostic::error(
                    path.display().to_string(),
                    None,
                    "holds no run file",
                ));
            }
            Place::Rejected(Box::new(rejected_run(path, diagnostics)))
        })
        .collect()
}

fn rejected_run(path: &Path, diagnostics: Vec<Diagnostic>) -> RunResult {
    RunResult {
        run: run_name(path),
        file: path.display().to_string(),
        diagnostics,
        scores: None,
    }
}

/// The evaluation of the run files with the rejected folders put back in
/// their places among the runs.
fn in_place(scored: Evaluation, places: Vec<Place>) -> Evaluation {
    let mut results = scored.runs.into_iter();
    let mut runs = Vec::new();
    for place in places {
        match place {
            Place::Files(files) => runs.extend(results.by_ref().take(files.len())),
            Place::Rejected(run) => runs.push(*run),
        }
    }
    Evaluation { runs, ..scored }
}

/// `Err`, naming every run, when no run could be scored.
pub fn some_run_scored(evaluation: &Evaluation) -> Result<(), String> {
    let scored = evaluation.runs.iter().filter(|r| r.scores.is_some());
    let rejected = evaluation.rejected_runs();
    every_run_rejected(scored.count(), &rejected)
}
