//! The runs of the run paths an evaluation is given, scored: a file is
//! one run, a folder gives each of its files as a run, and a folder that
//! holds no file is a rejected run in its place among the others.

use super::between::{Between, WithBetween};
use super::evaluate::{EvaluateError, evaluate_shard, read_qrels};
use super::groups::read_groups;
use super::report::{Evaluation, RunResult, Settings};
use super::run::has_run_shape;
use super::settings::{Requested, Task};
use crate::diagnostics::{Diagnostic, every_run_rejected};
use crate::inputs::run_name;
use crate::inputs::{InputFiles, Run, Shard, Skipped, collect_files, digests};
use crate::task::{Request, TaskError, settings_from_json, with_threads};
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};

/// Scores the runs given (run files, or folders of them) against the
/// qrels and groups, in the order given; with `shard` only the topics of
/// that part.
pub fn score_shard(
    settings: &Settings,
    qrels: &Path,
    groups: Option<&Path>,
    runs: &[Run],
    shard: Option<Shard>,
) -> Result<Evaluation, EvaluateError> {
    let hidden = ProgressBar::hidden();
    score_with_progress(settings, qrels, groups, runs, shard, &hidden)
}

/// [`score_shard`], the run files counted on `progress`
/// ([`evaluate_shard`]).
pub fn score_with_progress(
    settings: &Settings,
    qrels: &Path,
    groups: Option<&Path>,
    runs: &[Run],
    shard: Option<Shard>,
    progress: &ProgressBar,
) -> Result<Evaluation, EvaluateError> {
    let (places, skipped) = run_places(runs);
    let files: Vec<Run> = places
        .iter()
        .flat_map(|p| match p {
            Place::Files(files) => files.as_slice(),
            Place::Rejected(_) => &[],
        })
        .cloned()
        .collect();
    let mut scored = evaluate_shard(settings, qrels, groups, &files, shard, progress)?;
    scored.skipped = skipped;
    Ok(in_place(scored, places))
}

/// `clefeval prior-art` asked for as a [`Request`] ([`evaluate_request`]).
pub fn evaluate_prior_art(request: &Request) -> Result<String, TaskError> {
    evaluate_request(Task::PriorArt, request)
}

/// `clefeval passage` asked for as a [`Request`] ([`evaluate_request`]).
pub fn evaluate_passage(request: &Request) -> Result<String, TaskError> {
    evaluate_request(Task::Passage, request)
}

/// The evaluation of a [`Request`] for `task` (the C API's generic
/// entry): its settings, the comparisons and correlations asked for
/// included, checked by [`Requested::check`]; the JSON the command writes.
pub fn evaluate_request(task: Task, request: &Request) -> Result<String, TaskError> {
    let (settings, asked) = settings_from_json::<Requested>(&request.settings)?.check(task)?;
    let qrels = (request.qrels.as_ref())
        .ok_or_else(|| TaskError::input("qrels: the relevance judgements are required"))?;
    let runs = request.runs();
    let run_paths = Run::paths(&runs);
    let named: Vec<&PathBuf> = (std::iter::once(qrels).chain(&request.groups))
        .chain(&run_paths)
        .collect();
    request.check(&["gold", "pages", "overlays", "worker"], &named)?;
    let shard = request.shard()?;
    let groups = request.groups.as_deref();
    with_threads(request.threads, || {
        let mut evaluation = score_shard(&settings, qrels, groups, &runs, shard)
            .map_err(|e| gold_failure(e.to_string(), &settings, qrels, groups))?;
        some_run_scored(&evaluation).map_err(TaskError::input)?;
        evaluation.inputs = input_digests(qrels, groups, &run_paths);
        let between = Between::asked_of(&mut evaluation, asked)?;
        Ok(crate::report::to_json(&WithBetween {
            evaluation: &evaluation,
            between: &between,
        }))
    })?
}

/// An evaluation's error `message`, located at the error of the qrels or
/// the groups file (read again, only on this path), if one has an error.
fn gold_failure(
    message: String,
    settings: &Settings,
    qrels: &Path,
    groups: Option<&Path>,
) -> TaskError {
    let error = (read_qrels(settings, qrels).err().map(|e| e.0))
        .or_else(|| groups.and_then(|g| read_groups(g).err()));
    TaskError::located(message, error.as_slice())
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
    Files(Vec<Run>),
    Rejected(Box<RunResult>),
}

/// The runs of the run paths given, in order, and the files of their
/// folders that are not runs: a file is one run, named as given; a folder
/// gives each of its files in name order that has a run's shape
/// ([`has_run_shape`]; hidden files and subfolders left out), each named
/// by its file ([`Run::at`]), after `NAME/` when the folder was given a
/// name. A folder with no run file, or one that cannot be listed, is a
/// rejected run in its place.
fn run_places(given: &[Run]) -> (Vec<Place>, Vec<Skipped>) {
    let mut skipped = Vec::new();
    let places = given
        .iter()
        .map(|run| {
            let path = &run.path;
            let (mut files, problems) = collect_files(std::slice::from_ref(path), &[]);
            let folder = path.is_dir();
            if folder {
                let (runs, others): (Vec<PathBuf>, Vec<PathBuf>) =
                    files.into_iter().partition(|f| has_run_shape(f));
                skipped.extend(others.iter().map(|f| Skipped::new(f, NOT_A_RUN)));
                files = runs;
            }
            if !files.is_empty() {
                let named = folder && run.name != run_name(path);
                let runs = (files.into_iter())
                    .map(|file| match (folder, named) {
                        (false, _) => Run {
                            name: run.name.clone(),
                            path: file,
                        },
                        (true, false) => Run::at(file),
                        (true, true) => Run {
                            name: format!("{}/{}", run.name, run_name(&file)),
                            path: file,
                        },
                    })
                    .collect();
                return Place::Files(runs);
            }
            let mut diagnostics = problems;
            if diagnostics.is_empty() {
                diagnostics.push(Diagnostic::error(
                    path.display().to_string(),
                    None,
                    "holds no run file",
                ));
            }
            Place::Rejected(Box::new(rejected_run(run, diagnostics)))
        })
        .collect();
    (places, skipped)
}

/// Why a file of a run folder is not read as a run.
const NOT_A_RUN: &str = "not a run: none of its lines has the columns of a run";

fn rejected_run(run: &Run, diagnostics: Vec<Diagnostic>) -> RunResult {
    RunResult {
        run: run.name.clone(),
        file: run.path.display().to_string(),
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
