//! One evaluation: gold and submitted files paired by stem, read and checked
//! ([`super::molfile`]), converted in one batch by the worker pool, and
//! classified per gold structure.

use super::inchi::Conversion;
use super::molfile::{self, Molecule, Record};
use super::outcome::{Outcome, Summary, classify};
use super::worker::Pool;
use crate::inputs::{collect_files, pair_by_stem, run_names};
use indicatif::ProgressBar;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// File extensions read from folders: MOL files and SD files (first record).
pub const EXTENSIONS: [&str; 3] = ["mol", "sdf", "sd"];

/// The result of one gold structure in one run (a row of the JSON).
#[derive(Clone, Debug, PartialEq, Serialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunResult {
    pub run: String,
    /// Sorted by name.
    pub structures: Vec<Structure>,
    pub summary: Summary,
    /// Files that were not scored (no gold counterpart, duplicate stems).
    pub diagnostics: Vec<String>,
}

/// Scores every run against the gold files. `Err` when the gold data or a
/// run path cannot be read, or no worker process can be started.
pub fn evaluate(
    gold: &[PathBuf],
    runs: &[PathBuf],
    pool: &Pool,
    progress: &ProgressBar,
) -> Result<Vec<RunResult>, String> {
    let gold_files = list(gold, "gold")?;
    if gold_files.is_empty() {
        return Err(format!(
            "no gold structure files (.mol, .sdf) in {}",
            display_all(gold)
        ));
    }
    let mut batch = Batch::default();
    let mut gold_sides: BTreeMap<PathBuf, Side> = BTreeMap::new();
    let mut plans = Vec::new();
    for (run, name) in runs.iter().zip(run_names(runs)) {
        let files = list(std::slice::from_ref(run), "run")?;
        let (pairs, diagnostics) = pair_by_stem(&gold_files, &files);
        let mut rows: Vec<(String, PathBuf, Option<Side>)> = Vec::with_capacity(pairs.len());
        for pair in pairs {
            if !gold_sides.contains_key(&pair.gold) {
                // A gold file the file system cannot give is unreadable gold
                // data (exit 2); gold bytes that are no valid MOL are `manual`.
                let bytes = molfile::read_bytes(&pair.gold)
                    .map_err(|e| format!("gold {}: {e}", pair.gold.display()))?;
                let side = batch.load(molfile::from_bytes(&bytes));
                gold_sides.insert(pair.gold.clone(), side);
            }
            let run_side = pair.run.as_deref().map(|p| batch.load(molfile::read(p)));
            rows.push((pair.stem, pair.gold, run_side));
        }
        let diagnostics = diagnostics.iter().map(ToString::to_string).collect();
        plans.push((name, rows, diagnostics));
    }
    progress.set_length(batch.texts.len() as u64);
    let conversions = pool
        .convert_all(&batch.texts, &|| progress.inc(1))
        .map_err(|e| e.to_string())?;
    progress.finish_and_clear();
    Ok(plans
        .into_iter()
        .map(|(run, rows, diagnostics)| {
            let structures: Vec<Structure> = rows
                .into_iter()
                .map(|(name, gold_path, run_side)| {
                    let gold = gold_sides.get(&gold_path);
                    structure(name, gold, run_side.as_ref(), &conversions)
                })
                .collect();
            let summary = Summary::of(structures.iter().map(|s| s.outcome));
            RunResult {
                run,
                structures,
                summary,
                diagnostics,
            }
        })
        .collect())
}

fn list(paths: &[PathBuf], side: &str) -> Result<Vec<PathBuf>, String> {
    let (files, diagnostics) = collect_files(paths, &EXTENSIONS);
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

fn display_all(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    names.join(", ")
}

/// The texts to convert, collected while files are read.
#[derive(Default)]
struct Batch {
    texts: Vec<String>,
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
    /// The index of the text in the batch.
    Batch(usize),
}

impl Batch {
    fn load(&mut self, read: Result<Record, String>) -> Side {
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
    fn conversion(&self, conversions: &[Conversion]) -> Conversion {
        match &self.conversion {
            Slot::Refused(reason) => Err(reason.clone()),
            Slot::Batch(index) => conversions
                .get(*index)
                .cloned()
                .unwrap_or_else(|| Err("not converted".into())),
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

fn structure(
    name: String,
    gold: Option<&Side>,
    run: Option<&Side>,
    conversions: &[Conversion],
) -> Structure {
    let gold_conversion =
        gold.map_or_else(|| Err("not read".into()), |g| g.conversion(conversions));
    let run_conversion = run.map(|r| r.conversion(conversions));
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
        gold_molecule: gold.and_then(Side::molecule),
        run_molecule: run.and_then(Side::molecule),
    }
}
