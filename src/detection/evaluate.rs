//! One evaluation from files: read the gold file and every run, score each
//! run by [`super::score`], and gather the findings into a [`Report`]. A
//! run that cannot be read, or that names an image the gold does not
//! have, is rejected with its reason and the others are scored; gold that
//! cannot be read stops the evaluation.

use super::params::Params;
use super::report::{Report, RunReport, Scored, Settings};
use super::score::{Prepared, evaluate as match_images};
use super::settings::Requested;
use crate::coco::{self, Detection, Gold, ImageId};
use crate::diagnostics::{Diagnostic, RejectedRun, every_run_rejected};
use crate::inputs::{InputFiles, Run, Shard, digests, read_limited};
use crate::report::envelope::Findings;
use crate::task::{Request, TaskError, settings_from_json, with_threads};
use rayon::prelude::*;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The largest COCO file read, in bytes.
pub const MAX_FILE_BYTES: u64 = 8 << 30;

/// A COCO input: a file, or its bytes with the name messages give it
/// (Python's in-memory lists).
#[derive(Clone, Debug)]
pub enum Input {
    File(PathBuf),
    Bytes { name: String, bytes: Vec<u8> },
}

impl Input {
    /// What messages and the settings call it: the path as given, or the
    /// name.
    pub fn name(&self) -> String {
        match self {
            Input::File(path) => path.display().to_string(),
            Input::Bytes { name, .. } => name.clone(),
        }
    }

    /// The bytes, or why the file cannot be read.
    fn bytes(&self) -> Result<std::borrow::Cow<'_, [u8]>, String> {
        match self {
            Input::File(path) => read_limited(path, MAX_FILE_BYTES).map(Into::into),
            Input::Bytes { bytes, .. } => Ok(bytes.as_slice().into()),
        }
    }
}

/// A run: its name and its detections file.
#[derive(Clone, Debug)]
pub struct RunInput {
    pub name: String,
    pub input: Input,
}

impl RunInput {
    /// The runs of files as the command line names them.
    pub fn files(runs: &[Run]) -> Vec<RunInput> {
        (runs.iter())
            .map(|r| RunInput {
                name: r.name.clone(),
                input: Input::File(r.path.clone()),
            })
            .collect()
    }
}

/// What to evaluate.
#[derive(Clone, Debug)]
pub struct Options {
    /// The ground truth.
    pub gold: Input,
    /// The runs, each a detections file, named; no two of one name.
    pub runs: Vec<RunInput>,
    pub params: Params,
    /// Score only this part of the images ([`Shard::topics`], each image
    /// by its gold boxes).
    pub shard: Option<Shard>,
}

/// Gold that cannot be scored against, or no run to score: the command
/// cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoldError(pub String);

/// The digests of the run files alone (a gold given as bytes).
fn input_digests_of_runs(runs: &[PathBuf]) -> Vec<InputFiles> {
    digests(&[("run", runs, &["json"], Some(MAX_FILE_BYTES))])
}

/// The digests of the input files an evaluation names.
pub fn input_digests(gold: &Path, runs: &[PathBuf]) -> Vec<InputFiles> {
    let limit = Some(MAX_FILE_BYTES);
    digests(&[
        (
            "gold",
            std::slice::from_ref(&gold.to_path_buf()),
            &["json"],
            limit,
        ),
        ("run", runs, &["json"], limit),
    ])
}

/// Reads the ground-truth file and checks the chosen categories and
/// images against it; the error names the file (and JSON path) or the
/// option.
pub fn read_gold(input: &Input, params: &Params) -> Result<Gold, GoldError> {
    let name = input.name();
    let bytes = input
        .bytes()
        .map_err(|e| GoldError(format!("{name}: {e}")))?;
    let gold = coco::read_gold(&bytes).map_err(|e| GoldError(format!("{name}: {e}")))?;
    if let Some(chosen) = params.categories.as_ref().filter(|_| params.use_cats) {
        let known: HashSet<i64> = gold.categories.iter().map(|c| c.id).collect();
        if let Some(id) = chosen.iter().find(|id| !known.contains(id)) {
            return Err(GoldError(format!(
                "--categories: {name} has no category {id}"
            )));
        }
    }
    if let Some(chosen) = &params.images {
        let known: HashSet<&ImageId> = gold.images.iter().collect();
        if let Some(id) = chosen.iter().find(|id| !known.contains(id)) {
            return Err(GoldError(format!("--images: {name} has no image {id}")));
        }
    }
    Ok(gold)
}

/// Reads one run's detections; the error is the reason it is rejected.
fn read_run(input: &Input) -> Result<Vec<Detection>, Diagnostic> {
    let file = input.name();
    let bytes = input
        .bytes()
        .map_err(|e| Diagnostic::error(&file, None, e))?;
    coco::read_detections(&bytes).map_err(|e| Diagnostic::error(&file, None, e))
}

/// The images of the part `shard`: the gold's images (those chosen) split
/// by their gold boxes.
fn part_images(gold: &Gold, params: &Params, shard: Shard) -> Vec<ImageId> {
    let chosen: Vec<&ImageId> = match &params.images {
        Some(images) => images.iter().collect(),
        None => gold.images.iter().collect(),
    };
    let mut boxes: std::collections::HashMap<&ImageId, u64> = std::collections::HashMap::new();
    for a in &gold.annotations {
        *boxes.entry(&a.image).or_default() += 1;
    }
    // A number is named as written, a string quoted: the kinds never meet.
    let keys: Vec<(String, &ImageId)> = chosen.iter().map(|id| (id.to_string(), *id)).collect();
    let mine = shard.topics(
        keys.iter()
            .map(|(k, id)| (k.as_str(), boxes.get(id).copied().unwrap_or(0) + 1)),
    );
    (keys.into_iter())
        .filter(|(k, _)| mine.contains(k))
        .map(|(_, id)| id.clone())
        .collect()
}

/// Scores one run read from `path` against `gold`.
fn score_run(
    gold: &Gold,
    run: &RunInput,
    options: &Options,
    scored_params: &Params,
) -> Result<RunReport, RejectedRun> {
    let file = run.input.name();
    let reject = |reason: Diagnostic| RejectedRun::new(run.name.clone(), reason, &[]);
    let detections = read_run(&run.input).map_err(reject)?;
    let prepared = Prepared::new(gold, &detections, scored_params)
        .map_err(|e| reject(Diagnostic::error(&file, None, e.0)))?;
    let mut diagnostics = Vec::new();
    if prepared.dropped > 0 {
        diagnostics.push(Diagnostic::warning(
            &file,
            None,
            format!(
                "{} detection{} of categories the gold does not have left out",
                prepared.dropped,
                if prepared.dropped == 1 { "" } else { "s" }
            ),
        ));
    }
    let evaluated = match_images(&prepared, scored_params);
    let names: Vec<(i64, String)> = (gold.categories.iter())
        .map(|c| (c.id, c.name.clone()))
        .collect();
    let scored = Scored {
        run: run.name.clone(),
        detections: detections.len(),
        dropped: prepared.dropped,
        names: &names,
        diagnostics,
        part: options.shard.is_some(),
    };
    Ok(RunReport::new(scored, &evaluated, &options.params))
}

/// Runs the evaluation.
pub fn evaluate(options: &Options) -> Result<Report, GoldError> {
    let mut seen = HashSet::new();
    if let Some(twice) = (options.runs.iter()).find(|r| !seen.insert(r.name.as_str())) {
        return Err(GoldError(format!(
            "two runs are named `{}`: name them apart",
            twice.name
        )));
    }
    let gold = read_gold(&options.gold, &options.params)?;
    let mut scored_params = options.params.clone();
    if let Some(shard) = options.shard {
        scored_params.images = Some(part_images(&gold, &options.params, shard));
    }
    let results: Vec<Result<RunReport, RejectedRun>> = (options.runs.par_iter())
        .map(|run| score_run(&gold, run, options, &scored_params))
        .collect();
    let (mut runs, mut rejected) = (Vec::new(), Vec::new());
    for result in results {
        match result {
            Ok(run) => runs.push(run),
            Err(r) => rejected.push(r),
        }
    }
    every_run_rejected(runs.len(), &rejected).map_err(GoldError)?;
    let gold_file = options.gold.name();
    let diagnostics = (gold.warnings.iter())
        .map(|w| Diagnostic::warning(&gold_file, None, w.clone()))
        .collect();
    Ok(Report {
        shard: options.shard,
        head: Findings { diagnostics },
        rejected_runs: rejected,
        ..Report::whole("detection", Settings::new(gold_file, &options.params), runs)
    })
}

/// The evaluation of a [`Request`] (the C API's generic entry): its
/// settings checked by [`Requested::check`], the JSON the command writes.
pub fn evaluate_request(request: &Request) -> Result<String, TaskError> {
    let runs = request.runs();
    let run_paths = Run::paths(&runs);
    let named: Vec<&PathBuf> = request.gold.iter().chain(&run_paths).collect();
    request.check(&["qrels", "groups", "pages", "overlays", "worker"], &named)?;
    let [gold] = request.gold.as_slice() else {
        return Err(TaskError::input(format!(
            "gold: give one COCO ground-truth file, not {}",
            request.gold.len()
        )));
    };
    let given = Given {
        gold: Input::File(gold.clone()),
        runs: RunInput::files(&runs),
        settings: &request.settings,
        shard: request.shard()?,
        threads: request.threads,
    };
    evaluate_given(given)
}

/// An evaluation asked for by Python or C: the inputs (files or bytes),
/// the settings as JSON, the part and the threads.
pub struct Given<'a> {
    pub gold: Input,
    pub runs: Vec<RunInput>,
    pub settings: &'a serde_json::Value,
    pub shard: Option<Shard>,
    pub threads: Option<usize>,
}

/// The JSON the command writes for `given`, its settings checked by
/// [`Requested::check`]; the digests of the inputs that are files.
pub fn evaluate_given(given: Given) -> Result<String, TaskError> {
    let requested: Requested = settings_from_json(given.settings)?;
    let options = Options {
        gold: given.gold,
        runs: given.runs,
        params: requested.check()?,
        shard: given.shard,
    };
    let mut report = with_threads(given.threads, || evaluate(&options))?
        .map_err(|e| TaskError::in_file(e.0, &options.gold.name()))?;
    let file = |input: &Input| match input {
        Input::File(path) => Some(path.clone()),
        Input::Bytes { .. } => None,
    };
    let run_files: Vec<PathBuf> = options.runs.iter().filter_map(|r| file(&r.input)).collect();
    report.inputs = match file(&options.gold) {
        Some(gold) => input_digests(&gold, &run_files),
        None => input_digests_of_runs(&run_files),
    };
    Ok(crate::report::to_json(&report))
}
