//! One evaluation: gold and submitted files paired by stem, read and checked
//! ([`super::molfile`]), converted by the worker pool in chunks of
//! [`CHUNK`] pairs, and classified per gold structure. Texts are dropped
//! once converted and molecules kept only for the review page, so memory
//! does not grow with the size of a run folder.

use super::formats::{self, structure_files};
use super::inchi::Conversion;
use super::molfile::{self, Molecule, Record};
use super::outcome::{Outcome, Summary, classify};
use super::worker::Pool;
use crate::diagnostics::{Diagnostic, RejectedRun, every_run_rejected};
use crate::inputs::{
    InputFiles, Pair, Run, Shard, Skipped, collect_files, digests, distinct_names, none_in,
    pair_by_stem, run_rejection, skipped_in, stem,
};
use indicatif::ProgressBar;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// The digests of the input files an evaluation names (`inputs` of its
/// JSON): the gold files, then every run's.
pub fn input_digests(gold: &[PathBuf], runs: &[PathBuf]) -> Vec<InputFiles> {
    let limit = Some(molfile::MAX_FILE_BYTES as u64);
    digests(&[
        ("gold", gold, &formats::extensions(), limit),
        ("run", runs, &formats::extensions(), limit),
    ])
}

/// Pairs read and converted together: enough to keep every worker busy,
/// few enough that their texts are not a folder.
pub const CHUNK: usize = 256;

/// A chunk is also converted once its texts reach this many bytes.
pub const CHUNK_BYTES: usize = 64 << 20;

/// The result of one gold structure in one run (a row of the JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Structure {
    /// The file stem (clip name).
    pub name: String,
    pub outcome: Outcome,
    pub gold_inchi: Option<String>,
    pub run_inchi: Option<String>,
    /// Why there is no InChI: the submission's for `unreadable`, the gold's
    /// for `manual`; `missing` says so; otherwise `null`.
    pub reason: Option<String>,
    /// Warnings of the reading and of the InChI library, gold side.
    pub gold_warning: Option<String>,
    /// Warnings of the reading and of the InChI library, submitted side.
    pub run_warning: Option<String>,
    /// The gold molecule as drawn (when the file could be read).
    #[serde(skip)]
    pub gold_molecule: Option<Molecule>,
    /// The submitted molecule as drawn.
    #[serde(skip)]
    pub run_molecule: Option<Molecule>,
}

/// All results of one run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    pub run: String,
    /// Sorted by name.
    pub structures: Vec<Structure>,
    pub summary: Summary,
    /// Files that were not scored (no gold counterpart, duplicate stems):
    /// `"diagnostics"` and `"diagnostic_list"` in the JSON.
    #[serde(
        flatten,
        serialize_with = "crate::diagnostics::both_lists",
        deserialize_with = "crate::report::saved::diagnostics"
    )]
    pub diagnostics: Vec<Diagnostic>,
}

/// Gold data or a run path that cannot be read, or no worker process:
/// the command cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError(pub String);

impl From<String> for InputError {
    fn from(message: String) -> Self {
        InputError(message)
    }
}

pub use super::settings::DEFAULT_TIMEOUT_SECONDS;

/// What [`evaluate`] gives: the results of the runs scored, in input
/// order, and the runs not scored at all.
#[derive(Clone, Debug, PartialEq)]
pub struct Runs {
    pub scored: Vec<RunResult>,
    pub rejected: Vec<RejectedRun>,
    /// Files of the gold and of the runs scored that were not read.
    pub skipped: Vec<Skipped>,
}

/// Scores every run against the gold files; `keep_molecules` keeps the
/// molecules as drawn in the results (for the review page); with a
/// `shard`, only the structures of that part ([`Shard::topics`], by the
/// size of each gold file) are scored. A run that
/// holds no structure file, or none with a gold file's stem, is rejected
/// (the others are scored). `Err` when the gold data cannot be read, every
/// run is rejected, or no worker process can be started. `progress` is
/// given the number of files to read before the first is read
/// ([`files_to_read`]) and advances by one as each is done.
pub fn evaluate(
    gold: &[PathBuf],
    runs: &[Run],
    pool: &Pool,
    progress: &ProgressBar,
    keep_molecules: bool,
    shard: Option<Shard>,
) -> Result<Runs, InputError> {
    distinct_names(runs)?;
    let gold_files = list(gold, "gold")?;
    if gold_files.is_empty() {
        return Err(InputError(none_in("--gold", gold, &structure_files())));
    }
    let part = shard.map(|shard| {
        let costs: Vec<(String, u64)> = (gold_files.iter())
            .map(|f| (stem(f), std::fs::metadata(f).map_or(0, |m| m.len())))
            .collect();
        shard.topics(costs.iter().map(|(s, c)| (s.as_str(), *c)))
    });
    // Every run is listed and paired first (names only, no file read), so
    // the progress bar starts with the number of files to read.
    let mut listed = Vec::with_capacity(runs.len());
    let mut rejected = Vec::new();
    let mut skipped = skipped_in(gold, &formats::extensions(), &structure_files());
    for Run { name, path: run } in runs {
        let name = name.clone();
        let (files, problems) = collect_files(std::slice::from_ref(run), &formats::extensions());
        let (pairs, diagnostics, strays) = pair_by_stem(&gold_files, &files);
        let matched = pairs.iter().filter(|p| p.run.is_some()).count();
        let kind = structure_files();
        if let Some(reason) = run_rejection(run, files.len(), matched, &kind, "structure") {
            rejected.push(RejectedRun::new(name, reason, &problems));
            continue;
        }
        let run = std::slice::from_ref(run);
        let mut these = [skipped_in(run, &formats::extensions(), &kind), strays].concat();
        these.sort_by(|a, b| a.file.cmp(&b.file));
        skipped.extend(these);
        // Runs are rejected or not by the whole gold, so every part scores
        // the same runs.
        let pairs: Vec<Pair> = (pairs.into_iter())
            .filter(|p| part.as_ref().is_none_or(|part| part.contains(&p.stem)))
            .collect();
        listed.push((name, pairs, diagnostics));
    }
    progress.set_length(files_to_read(
        listed.iter().map(|(_, pairs, _)| pairs.as_slice()),
    ));
    progress.reset_eta();
    let mut gold_sides: BTreeMap<PathBuf, Side> = BTreeMap::new();
    let mut results = Vec::with_capacity(listed.len());
    for (name, pairs, diagnostics) in listed {
        let mut structures = Vec::with_capacity(pairs.len());
        let mut chunk = Chunk::default();
        for pair in pairs {
            if !gold_sides.contains_key(&pair.gold) {
                // A gold file the file system cannot give is unreadable gold
                // data (exit 2); gold bytes that are no valid MOL are `manual`.
                let bytes = molfile::read_bytes(&pair.gold).map_err(|e| {
                    // A refusal of a special file names the path already.
                    let path = pair.gold.display().to_string();
                    if e.starts_with(&path) {
                        format!("gold {e}")
                    } else {
                        format!("gold {path}: {e}")
                    }
                })?;
                let side = chunk
                    .batch
                    .load(formats::read_bytes(&pair.gold, &bytes), progress);
                gold_sides.insert(pair.gold.clone(), side);
            }
            let run_side = pair
                .run
                .as_deref()
                .map(|p| chunk.batch.load(formats::read_file(p), progress));
            chunk.rows.push((pair.stem, pair.gold, run_side));
            if chunk.rows.len() >= CHUNK || chunk.batch.bytes >= CHUNK_BYTES {
                let done = std::mem::take(&mut chunk);
                structures.extend(done.convert(&mut gold_sides, pool, progress, keep_molecules)?);
            }
        }
        structures.extend(chunk.convert(&mut gold_sides, pool, progress, keep_molecules)?);
        let summary = Summary::of(structures.iter().map(|s| s.outcome));
        results.push(RunResult {
            run: name,
            structures,
            summary,
            diagnostics,
        });
    }
    progress.finish_and_clear();
    every_run_rejected(results.len(), &rejected)?;
    Ok(Runs {
        scored: results,
        rejected,
        skipped,
    })
}

/// One named pair of structure texts: the gold bytes and the submitted
/// ones (`None`: no submitted structure).
pub type TextPair<'a> = (String, &'a [u8], Option<&'a [u8]>);

/// Converts a batch of MOL texts to InChIs, in order; `Err` when it cannot
/// (no worker process starts).
pub type Converter<'a> = &'a dyn Fn(&[String]) -> Result<Vec<Conversion>, String>;

/// Scores pairs given as texts, as [`evaluate`] scores pairs of files:
/// each text read and checked ([`molfile::from_bytes`]), the texts to
/// convert passed to `convert` in one batch (a [`Pool`]'s `convert_all`,
/// or the library in-process where the caller takes that risk), each
/// pair classified. Results in input order; `Err` when `convert` fails.
pub fn score_texts(pairs: &[TextPair], convert: Converter) -> Result<Vec<Structure>, String> {
    let mut batch = Batch::default();
    let mut sides: Vec<(Side, Option<Side>)> = (pairs.iter())
        .map(|(_, gold, run)| {
            let gold = batch.side(molfile::from_bytes(gold));
            (gold, run.map(|r| batch.side(molfile::from_bytes(r))))
        })
        .collect();
    let conversions = convert(&batch.texts)?;
    Ok(pairs
        .iter()
        .zip(&mut sides)
        .map(|((name, _, _), (gold, run))| {
            gold.settle(&conversions);
            if let Some(run) = run.as_mut() {
                run.settle(&conversions);
            }
            structure(name.clone(), Some(gold), run.as_ref(), false)
        })
        .collect())
}

/// The files the scoring of these pairs reads, as the progress bar counts
/// them: every gold file once, however many runs pair it, and every
/// submitted file.
fn files_to_read<'a>(runs: impl Iterator<Item = &'a [Pair]>) -> u64 {
    let mut gold = BTreeSet::new();
    let mut submitted = 0;
    for pair in runs.flatten() {
        gold.insert(&pair.gold);
        submitted += usize::from(pair.run.is_some());
    }
    (gold.len() + submitted) as u64
}

fn list(paths: &[PathBuf], side: &str) -> Result<Vec<PathBuf>, String> {
    let (files, diagnostics) = collect_files(paths, &formats::extensions());
    if diagnostics.is_empty() {
        Ok(files)
    } else {
        let messages: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
        Err(format!(
            "cannot read the {side} data: {}",
            messages.join("; ")
        ))
    }
}

/// The texts to convert, collected while files are read.
#[derive(Default)]
struct Batch {
    texts: Vec<String>,
    /// Their total length.
    bytes: usize,
}

/// Pairs read and waiting for their texts' conversion.
#[derive(Default)]
struct Chunk {
    batch: Batch,
    /// (stem, gold path, submitted side).
    rows: Vec<(String, PathBuf, Option<Side>)>,
}

impl Chunk {
    /// Converts the texts (the gold ones first seen in this chunk too) and
    /// classifies the rows; the texts are dropped.
    fn convert(
        self,
        gold_sides: &mut BTreeMap<PathBuf, Side>,
        pool: &Pool,
        progress: &ProgressBar,
        keep_molecules: bool,
    ) -> Result<Vec<Structure>, String> {
        let Chunk { batch, rows } = self;
        let conversions = pool
            .convert_all(&batch.texts, &|| progress.inc(1))
            .map_err(|e| e.to_string())?;
        drop(batch);
        for side in gold_sides.values_mut() {
            side.settle(&conversions);
        }
        Ok(rows
            .into_iter()
            .map(|(name, gold_path, mut run_side)| {
                if let Some(side) = &mut run_side {
                    side.settle(&conversions);
                }
                structure(
                    name,
                    gold_sides.get(&gold_path),
                    run_side.as_ref(),
                    keep_molecules,
                )
            })
            .collect())
    }
}

/// One read file: its molecule (kept for drawing even when it has no
/// InChI), the reading notes, and its conversion, known already or waiting
/// in the batch (which holds the text).
struct Side {
    molecule: Option<Molecule>,
    notes: Vec<String>,
    conversion: Slot,
}

enum Slot {
    /// No InChI, for this reason, without asking the library.
    Refused(String),
    /// The index of the text in the current chunk's batch.
    Batch(usize),
    /// Converted.
    Done(Conversion),
}

impl Batch {
    /// The side of a file read: its text joins the batch to convert, or a
    /// refused file counts as done on `progress` at once (a converted one
    /// counts when its conversion comes back).
    fn load(&mut self, read: Result<Record, String>, progress: &ProgressBar) -> Side {
        let side = self.side(read);
        if let Slot::Refused(_) = side.conversion {
            progress.inc(1);
        }
        side
    }

    fn side(&mut self, read: Result<Record, String>) -> Side {
        match read {
            Err(reason) => Side {
                molecule: None,
                notes: Vec::new(),
                conversion: Slot::Refused(reason),
            },
            Ok(Record {
                text,
                molecule,
                notes,
            }) => {
                let conversion = match molfile::refusal(&molecule) {
                    Some(reason) => Slot::Refused(reason),
                    None => {
                        self.bytes += text.len();
                        self.texts.push(text);
                        Slot::Batch(self.texts.len() - 1)
                    }
                };
                Side {
                    molecule: Some(molecule),
                    notes,
                    conversion,
                }
            }
        }
    }
}

impl Side {
    /// Takes the conversion of a text waiting in the chunk just converted.
    fn settle(&mut self, conversions: &[Conversion]) {
        if let Slot::Batch(index) = self.conversion {
            self.conversion = Slot::Done(
                conversions
                    .get(index)
                    .cloned()
                    .unwrap_or_else(|| Err("not converted".into())),
            );
        }
    }

    fn conversion(&self) -> Conversion {
        match &self.conversion {
            Slot::Refused(reason) => Err(reason.clone()),
            Slot::Batch(_) => Err("not converted".into()),
            Slot::Done(conversion) => conversion.clone(),
        }
    }

    /// Reading notes and the library's warning, joined.
    fn warning(&self, conversion: &Conversion) -> Option<String> {
        let mut parts: Vec<&str> = self.notes.iter().map(String::as_str).collect();
        if let Ok(inchi) = conversion {
            parts.extend(inchi.warning.as_deref());
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }

    fn molecule(&self) -> Option<Molecule> {
        self.molecule.clone()
    }
}

/// The result of one pair; the molecules as drawn are copied in only when
/// `keep_molecules` (the review page).
fn structure(
    name: String,
    gold: Option<&Side>,
    run: Option<&Side>,
    keep_molecules: bool,
) -> Structure {
    let gold_conversion = gold.map_or_else(|| Err("not read".into()), Side::conversion);
    let run_conversion = run.map(Side::conversion);
    let outcome = classify(&gold_conversion, run_conversion.as_ref());
    let reason = match outcome {
        Outcome::Manual => gold_conversion.as_ref().err().cloned(),
        Outcome::Unreadable => run_conversion
            .as_ref()
            .and_then(|c| c.as_ref().err().cloned()),
        Outcome::Missing => Some("no submitted file".into()),
        _ => None,
    };
    let inchi = |c: &Conversion| c.as_ref().ok().map(|i| i.inchi.clone());
    Structure {
        name,
        outcome,
        gold_inchi: inchi(&gold_conversion),
        run_inchi: run_conversion.as_ref().and_then(inchi),
        reason,
        gold_warning: gold.and_then(|g| g.warning(&gold_conversion)),
        run_warning: run
            .zip(run_conversion.as_ref())
            .and_then(|(r, c)| r.warning(c)),
        gold_molecule: gold.filter(|_| keep_molecules).and_then(Side::molecule),
        run_molecule: run.filter(|_| keep_molecules).and_then(Side::molecule),
    }
}
