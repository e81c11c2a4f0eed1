//! One evaluation: gold and submitted structures paired by name
//! ([`super::listing`]), read and checked ([`super::molfile`], SMILES in
//! the worker), converted by the worker pool in chunks of [`CHUNK`] pairs,
//! and classified per gold structure. Texts are dropped once converted and
//! molecules kept only for the review page, so memory does not grow with
//! the size of a run folder.

use super::formats::{self, structure_files};
use super::inchi::Conversion;
use super::layers::{self, Layer};
use super::listing::{self, Pair, Source};
use super::molfile::{self, Molecule, Record};
use super::outcome::{Counted, Outcome, Summary, classify};
use super::smiles::table::Columns;
use super::worker::{Input, Pool};
use crate::diagnostics::{Diagnostic, RejectedRun, every_run_rejected};
use crate::inputs::{
    InputFiles, Run, Shard, Skipped, collect_files, digests, display_paths, distinct_names,
    none_in, run_rejection, skipped_in,
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
    /// The structure's name: a MOL/SD file's stem (the clip name), a
    /// SMILES entry's name.
    pub name: String,
    pub outcome: Outcome,
    /// Equal InChIs once the stereo layers are dropped (`match` or
    /// `stereo`); `None` for a `manual` structure.
    pub match_ignoring_stereo: Option<bool>,
    /// The first layer group in which the InChIs differ; `None` when they
    /// are equal or one is missing.
    pub first_difference: Option<Layer>,
    pub gold_inchi: Option<String>,
    pub run_inchi: Option<String>,
    /// Why there is no InChI: the submission's for `unreadable`, the gold's
    /// for `manual`; `missing` says so; otherwise `null`.
    pub reason: Option<String>,
    /// Warnings of the reading and of the InChI library, gold side.
    pub gold_warning: Option<String>,
    /// Warnings of the reading and of the InChI library, submitted side.
    pub run_warning: Option<String>,
    /// The gold SMILES, when the gold structure was given as one (absent
    /// from the JSON otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gold_smiles: Option<String>,
    /// The submitted SMILES, when the submission was given as one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_smiles: Option<String>,
    /// The gold molecule as drawn (when the file could be read).
    #[serde(skip)]
    pub gold_molecule: Option<Molecule>,
    /// The submitted molecule as drawn.
    #[serde(skip)]
    pub run_molecule: Option<Molecule>,
}

impl From<&Structure> for Counted {
    fn from(s: &Structure) -> Self {
        Counted {
            outcome: s.outcome,
            gold_stereo: s.gold_inchi.as_deref().is_some_and(layers::has_stereo),
            first_difference: s.first_difference,
        }
    }
}

/// All results of one run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    pub run: String,
    /// Sorted by name.
    pub structures: Vec<Structure>,
    pub summary: Summary,
    /// Findings of the listing: structures not scored for a name given
    /// twice, SMILES-file lines without a name (the gold's repeated in
    /// every run): `"diagnostics"` and `"diagnostic_list"` in the JSON.
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

/// Scores every run against the gold structures ([`listing`]: a MOL or SD
/// file is one structure named by its stem, a SMILES file or table one
/// per entry, read by `columns`); `keep_molecules` keeps the molecules as
/// drawn in the results (for the review page); with a `shard`, only the
/// structures of that part ([`Shard::topics`], by the expected cost of
/// each gold structure) are scored. A run that holds no structure file,
/// none with a gold structure's name, or a table that cannot be read is
/// rejected (the others are scored). `Err` when the gold data cannot be
/// read, every run is rejected, or no worker process can be started.
/// `progress` is given the number of structures to read before the first
/// is read ([`structures_to_read`]) and advances by one as each is done.
pub fn evaluate(
    gold: &[PathBuf],
    runs: &[Run],
    pool: &Pool,
    progress: &ProgressBar,
    keep_molecules: bool,
    shard: Option<Shard>,
    columns: &Columns,
) -> Result<Runs, InputError> {
    distinct_names(runs)?;
    let gold_files = list(gold, "gold")?;
    if gold_files.is_empty() {
        return Err(InputError(none_in("--gold", gold, &structure_files())));
    }
    let gold_listing = listing::list(&gold_files, true, columns).map_err(|d| {
        let line = d.line.map(|l| format!(":{l}")).unwrap_or_default();
        format!("gold {}{line}: {}", d.file, d.message)
    })?;
    if gold_listing.structures.is_empty() {
        return Err(InputError(format!(
            "--gold {}: its files hold no structure",
            display_paths(gold)
        )));
    }
    let part = shard.map(|shard| {
        let costs: Vec<(&str, u64)> = (gold_listing.structures.iter())
            .map(|(name, source)| (name.as_str(), source.cost()))
            .collect();
        shard.topics(costs)
    });
    // Every run is listed and paired first (tables are read, structure
    // files are not), so the progress bar starts with the number of
    // structures to read.
    let mut listed = Vec::with_capacity(runs.len());
    let mut rejected = Vec::new();
    let mut chosen_used = gold_listing.chosen_used;
    let mut skipped = skipped_in(gold, &formats::extensions(), &structure_files());
    for Run { name, path: run } in runs {
        let name = name.clone();
        let (files, problems) = collect_files(std::slice::from_ref(run), &formats::extensions());
        let run_listing = match listing::list(&files, false, columns) {
            Ok(listing) => listing,
            Err(error) => {
                rejected.push(RejectedRun::new(name, error, &problems));
                continue;
            }
        };
        chosen_used.0 |= run_listing.chosen_used.0;
        chosen_used.1 |= run_listing.chosen_used.1;
        let mut diagnostics = gold_listing.diagnostics.clone();
        diagnostics.extend(run_listing.diagnostics.iter().cloned());
        let (pairs, strays) = listing::pair(&gold_listing, run_listing);
        let matched = pairs.iter().filter(|p| p.run.is_some()).count();
        let kind = structure_files();
        if let Some(reason) = run_rejection(run, files.len(), matched, &kind, "structure") {
            rejected.push(RejectedRun::new(name, reason, &problems));
            continue;
        }
        // Files of no structure format (sorted), then the structures of no
        // gold name (in file and line order).
        skipped.extend(skipped_in(
            std::slice::from_ref(run),
            &formats::extensions(),
            &kind,
        ));
        skipped.extend(strays);
        // Runs are rejected or not by the whole gold, so every part scores
        // the same runs.
        let pairs: Vec<Pair> = (pairs.into_iter())
            .filter(|p| part.as_ref().is_none_or(|part| part.contains(&p.name)))
            .collect();
        listed.push((name, pairs, diagnostics));
    }
    // A chosen column no table has is a mistake (a misspelt header would
    // otherwise leave every table to the usual headers).
    for (flag, chosen, used) in [
        ("--name-column", &columns.name, chosen_used.0),
        ("--smiles-column", &columns.smiles, chosen_used.1),
    ] {
        if let Some(header) = chosen.as_ref().filter(|_| !used) {
            return Err(InputError(format!(
                "{flag} {header}: no table read has a column of this header"
            )));
        }
    }
    progress.set_length(structures_to_read(
        listed.iter().map(|(_, pairs, _)| pairs.as_slice()),
    ));
    progress.reset_eta();
    let mut gold_sides: BTreeMap<String, Side> = BTreeMap::new();
    let mut results = Vec::with_capacity(listed.len());
    for (name, pairs, diagnostics) in listed {
        let mut structures = Vec::with_capacity(pairs.len());
        let mut chunk = Chunk::default();
        for pair in pairs {
            if !gold_sides.contains_key(&pair.name) {
                let side = chunk.batch.load_gold(&pair.gold, progress)?;
                gold_sides.insert(pair.name.clone(), side);
                chunk.new_gold.push(pair.name.clone());
            }
            let run_side = (pair.run.as_ref()).map(|run| chunk.batch.load(run, progress));
            chunk.rows.push((pair.name, run_side));
            if chunk.rows.len() >= CHUNK || chunk.batch.bytes >= CHUNK_BYTES {
                let done = std::mem::take(&mut chunk);
                structures.extend(done.convert(&mut gold_sides, pool, progress, keep_molecules)?);
            }
        }
        structures.extend(chunk.convert(&mut gold_sides, pool, progress, keep_molecules)?);
        let summary = Summary::of(&structures);
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

/// One side of a structure pair given as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Text<'a> {
    /// The bytes of a MOL or SD file.
    Mol(&'a [u8]),
    /// One SMILES.
    Smiles(&'a str),
}

/// One named pair of structure texts: the gold one and the submitted one
/// (`None`: no submitted structure).
pub type TextPair<'a> = (String, Text<'a>, Option<Text<'a>>);

/// Converts a batch of structures to InChIs, in order; `Err` when it
/// cannot (no worker process starts).
pub type Converter<'a> = &'a dyn Fn(&[Input]) -> Result<Vec<Conversion>, String>;

/// Scores pairs given as texts, as [`evaluate`] scores pairs of files:
/// each MOL text read and checked ([`molfile::from_bytes`]), the
/// structures to convert passed to `convert` in one batch (a [`Pool`]'s
/// `convert_all`, or the library in-process where the caller takes that
/// risk), each pair classified. Results in input order; `Err` when
/// `convert` fails.
pub fn score_texts(pairs: &[TextPair], convert: Converter) -> Result<Vec<Structure>, String> {
    let mut batch = Batch::default();
    let mut sides: Vec<(Side, Option<Side>)> = (pairs.iter())
        .map(|(_, gold, run)| {
            let gold = batch.text(*gold);
            (gold, run.map(|r| batch.text(r)))
        })
        .collect();
    let conversions = convert(&batch.inputs)?;
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

/// The structures the scoring of these pairs reads, as the progress bar
/// counts them: every gold structure once, however many runs pair it,
/// and every submitted one.
fn structures_to_read<'a>(runs: impl Iterator<Item = &'a [Pair]>) -> u64 {
    let mut gold = BTreeSet::new();
    let mut submitted = 0;
    for pair in runs.flatten() {
        gold.insert(&pair.name);
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

/// The structures to convert, collected while files are read.
#[derive(Default)]
struct Batch {
    inputs: Vec<Input>,
    /// The total length of their texts.
    bytes: usize,
}

/// Pairs read and waiting for their structures' conversion.
#[derive(Default)]
struct Chunk {
    batch: Batch,
    /// (name, submitted side).
    rows: Vec<(String, Option<Side>)>,
    /// The gold structures first read in this chunk, whose conversions are
    /// in its batch.
    new_gold: Vec<String>,
}

impl Chunk {
    /// Converts the structures (the gold ones first seen in this chunk
    /// too) and classifies the rows; the texts are dropped.
    fn convert(
        self,
        gold_sides: &mut BTreeMap<String, Side>,
        pool: &Pool,
        progress: &ProgressBar,
        keep_molecules: bool,
    ) -> Result<Vec<Structure>, String> {
        let Chunk {
            batch,
            rows,
            new_gold,
        } = self;
        let conversions = pool
            .convert_all(&batch.inputs, &|| progress.inc(1))
            .map_err(|e| e.to_string())?;
        drop(batch);
        for name in &new_gold {
            if let Some(side) = gold_sides.get_mut(name) {
                side.settle(&conversions);
            }
        }
        Ok(rows
            .into_iter()
            .map(|(name, mut run_side)| {
                if let Some(side) = &mut run_side {
                    side.settle(&conversions);
                }
                let gold = gold_sides.get(&name);
                structure(name, gold, run_side.as_ref(), keep_molecules)
            })
            .collect())
    }
}

/// One structure read: its molecule as drawn (a MOL file's, kept even when
/// it has no InChI) or its SMILES, the reading notes, and its conversion,
/// known already or waiting in the batch (which holds the text).
#[derive(Default)]
struct Side {
    molecule: Option<Molecule>,
    smiles: Option<String>,
    notes: Vec<String>,
    /// The entry's place (`file:line`) a refusal of its SMILES names.
    place: Option<String>,
    conversion: Slot,
}

enum Slot {
    /// No InChI, for this reason, without asking the library.
    Refused(String),
    /// The index of the structure in the current chunk's batch.
    Batch(usize),
    /// Converted.
    Done(Conversion),
}

impl Default for Slot {
    fn default() -> Self {
        Slot::Refused("not read".into())
    }
}

/// The reason a SMILES entry's empty cell gives.
const EMPTY: &str = "empty";

/// The longest SMILES converted, in bytes (a structure of the InChI
/// library's 1024 atoms is written in far fewer); a longer one is refused
/// unread, shown cut.
pub const MAX_SMILES_BYTES: usize = 100_000;

impl Batch {
    /// The side of a gold structure; `Err` (exit 2) when the file system
    /// cannot give a gold file (gold bytes that are no valid MOL are
    /// `manual`, not an error).
    fn load_gold(&mut self, source: &Source, progress: &ProgressBar) -> Result<Side, String> {
        if let Source::File(path) = source {
            let bytes = molfile::read_bytes(path).map_err(|e| {
                // A refusal of a special file names the path already.
                let path = path.display().to_string();
                if e.starts_with(&path) {
                    format!("gold {e}")
                } else {
                    format!("gold {path}: {e}")
                }
            })?;
            let side = self.record(formats::read_bytes(path, &bytes));
            return Ok(counted(side, progress));
        }
        Ok(self.load(source, progress))
    }

    /// The side of a structure: its text joins the batch to convert, or a
    /// refused one counts as done on `progress` at once (a converted one
    /// counts when its conversion comes back).
    fn load(&mut self, source: &Source, progress: &ProgressBar) -> Side {
        let side = match source {
            Source::File(path) => self.record(formats::read_file(path)),
            Source::Entry { smiles, .. } => Side {
                place: Some(source.place()),
                ..self.smiles(smiles.as_deref())
            },
        };
        counted(side, progress)
    }

    /// The side of a text given in memory.
    fn text(&mut self, text: Text) -> Side {
        match text {
            Text::Mol(bytes) => self.record(molfile::from_bytes(bytes)),
            Text::Smiles(smiles) => self.smiles(Some(smiles)),
        }
    }

    fn push(&mut self, input: Input, length: usize) -> Slot {
        self.bytes += length;
        self.inputs.push(input);
        Slot::Batch(self.inputs.len() - 1)
    }

    /// The side of a SMILES (`None` or blank: an empty cell), trimmed.
    fn smiles(&mut self, smiles: Option<&str>) -> Side {
        let Some(smiles) = smiles.map(str::trim).filter(|s| !s.is_empty()) else {
            return Side {
                conversion: Slot::Refused(EMPTY.into()),
                ..Side::default()
            };
        };
        if smiles.len() > MAX_SMILES_BYTES {
            return Side {
                smiles: Some(smiles.chars().take(80).chain("…".chars()).collect()),
                conversion: Slot::Refused(format!(
                    "a SMILES of {} bytes, longer than the {MAX_SMILES_BYTES} read",
                    smiles.len()
                )),
                ..Side::default()
            };
        }
        let input = Input::Smiles {
            smiles: smiles.to_string(),
        };
        Side {
            smiles: Some(smiles.to_string()),
            conversion: self.push(input, smiles.len()),
            ..Side::default()
        }
    }

    /// The side of a MOL or SD file read.
    fn record(&mut self, read: Result<Record, String>) -> Side {
        match read {
            Err(reason) => Side {
                conversion: Slot::Refused(reason),
                ..Side::default()
            },
            Ok(Record {
                text,
                molecule,
                notes,
            }) => {
                let conversion = match molfile::refusal(&molecule) {
                    Some(reason) => Slot::Refused(reason),
                    None => {
                        let length = text.len();
                        self.push(Input::Mol(text), length)
                    }
                };
                Side {
                    molecule: Some(molecule),
                    notes,
                    conversion,
                    ..Side::default()
                }
            }
        }
    }
}

/// `side`, counted as done on `progress` when it is refused without
/// conversion.
fn counted(side: Side, progress: &ProgressBar) -> Side {
    if let Slot::Refused(_) = side.conversion {
        progress.inc(1);
    }
    side
}

impl Side {
    /// Takes the conversion of a structure waiting in the chunk just
    /// converted.
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

    /// The conversion; a refusal of an entry's SMILES names its place.
    fn conversion(&self) -> Conversion {
        let conversion = match &self.conversion {
            Slot::Refused(reason) => Err(reason.clone()),
            Slot::Batch(_) => Err("not converted".into()),
            Slot::Done(conversion) => conversion.clone(),
        };
        match (&self.place, conversion) {
            (Some(place), Err(reason)) if reason != EMPTY => Err(format!("{place}: {reason}")),
            (_, conversion) => conversion,
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
        Outcome::Missing => Some("no submitted structure".into()),
        _ => None,
    };
    let inchi = |c: &Conversion| c.as_ref().ok().map(|i| i.inchi.clone());
    let (gold_inchi, run_inchi) = (
        inchi(&gold_conversion),
        run_conversion.as_ref().and_then(inchi),
    );
    Structure {
        name,
        outcome,
        match_ignoring_stereo: (outcome != Outcome::Manual)
            .then_some(matches!(outcome, Outcome::Match | Outcome::Stereo)),
        first_difference: gold_inchi
            .as_deref()
            .zip(run_inchi.as_deref())
            .and_then(|(g, r)| layers::first_difference(g, r)),
        gold_inchi,
        run_inchi,
        reason,
        gold_warning: gold.and_then(|g| g.warning(&gold_conversion)),
        run_warning: run
            .zip(run_conversion.as_ref())
            .and_then(|(r, c)| r.warning(c)),
        gold_smiles: gold.and_then(|g| g.smiles.clone()),
        run_smiles: run.and_then(|r| r.smiles.clone()),
        gold_molecule: gold.filter(|_| keep_molecules).and_then(Side::molecule),
        run_molecule: run.filter(|_| keep_molecules).and_then(Side::molecule),
    }
}
