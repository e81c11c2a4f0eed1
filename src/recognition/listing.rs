//! The structures one side of an evaluation holds, by name, and their
//! pairing (docs/recognition.md, "Files"). A MOL or SD file is one
//! structure named by its file's stem; a SMILES file or table holds one
//! structure per entry, named in the file. Names are unique across a side,
//! whatever files they come from: a gold name given twice stops the
//! evaluation naming both places; in a run the first (files in path order,
//! entries in file order) is scored and each repeat is a warning.

use super::formats::{self, Reader};
use super::molfile::{self, MAX_FILE_BYTES};
use super::smiles::table::Columns;
use crate::diagnostics::{Diagnostic, Severity};
use crate::inputs::{Skipped, nearest, over_limit, stem};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where a named structure is read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A file that is one structure (MOL, SD), read when it is scored.
    File(PathBuf),
    /// One entry of a SMILES file or table: its file, its line (1-based)
    /// and its SMILES (`None`: the cell was empty).
    Entry {
        file: PathBuf,
        line: usize,
        smiles: Option<String>,
    },
}

impl Source {
    /// The place a message names: the path, or `path:line`.
    pub fn place(&self) -> String {
        match self {
            Source::File(path) => path.display().to_string(),
            Source::Entry { file, line, .. } => format!("{}:{line}", file.display()),
        }
    }

    /// The expected cost of scoring it, for splitting an evaluation into
    /// parts: the size of its file, or the length of its SMILES.
    pub fn cost(&self) -> u64 {
        match self {
            Source::File(path) => std::fs::metadata(path).map_or(0, |m| m.len()),
            Source::Entry { smiles, .. } => smiles.as_ref().map_or(0, |s| s.len() as u64),
        }
    }

    /// Its file and line (0 for a whole file): the order places are
    /// listed in.
    fn order_key(&self) -> (&Path, usize) {
        match self {
            Source::File(path) => (path, 0),
            Source::Entry { file, line, .. } => (file, *line),
        }
    }

    /// A finding about it, of `severity`.
    fn diagnostic(&self, severity: Severity, message: String) -> Diagnostic {
        let (file, line) = match self {
            Source::File(path) => (path, None),
            Source::Entry { file, line, .. } => (file, Some(*line)),
        };
        let file = file.display().to_string();
        match severity {
            Severity::Error => Diagnostic::error(file, line, message),
            Severity::Warning => Diagnostic::warning(file, line, message),
        }
    }
}

/// The structures of one side by name, and the warnings of their listing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    pub structures: BTreeMap<String, Source>,
    /// Names given twice in a run, table lines named by their number.
    pub diagnostics: Vec<Diagnostic>,
    /// Whether some table was read by the chosen name column, and by the
    /// chosen SMILES column.
    pub chosen_used: (bool, bool),
}

/// The structures in `files` (as [`crate::inputs::collect_files`] lists
/// them, in path order), files of many structures read by `columns`.
/// `Err` is an error about the file (and line) when a file of many
/// structures cannot be read, or, on the `gold` side, a name given twice.
pub fn list(files: &[PathBuf], gold: bool, columns: &Columns) -> Result<Listing, Diagnostic> {
    let mut listing = Listing::default();
    for path in files {
        let Reader::Many(read) = formats::format_of(path).reader else {
            listing.add(stem(path), Source::File(path.clone()), gold)?;
            continue;
        };
        let file = path.display().to_string();
        let error = |why: String| Diagnostic::error(file.clone(), None, why);
        let bytes = molfile::read_bytes(path).map_err(|e| {
            // The message names the path already.
            let prefix = format!("{file}: ");
            error(e.strip_prefix(&prefix).map_or(e.clone(), str::to_string))
        })?;
        if bytes.len() > MAX_FILE_BYTES {
            return Err(error(over_limit(MAX_FILE_BYTES as u64)));
        }
        let table = read(&bytes, columns).map_err(error)?;
        listing.chosen_used.0 |= table.chosen.name.is_some();
        listing.chosen_used.1 |= table.chosen.smiles.is_some();
        for (line, message) in table.warnings {
            (listing.diagnostics).push(Diagnostic::warning(file.clone(), Some(line), message));
        }
        for entry in table.entries {
            let source = Source::Entry {
                file: path.clone(),
                line: entry.line,
                smiles: entry.smiles,
            };
            listing.add(entry.name, source, gold)?;
        }
    }
    Ok(listing)
}

impl Listing {
    fn add(&mut self, name: String, source: Source, gold: bool) -> Result<(), Diagnostic> {
        match self.structures.get(&name) {
            None => {
                self.structures.insert(name, source);
                Ok(())
            }
            Some(first) if gold => Err(source.diagnostic(
                Severity::Error,
                format!(
                    "a second gold structure named `{name}` (first: {})",
                    first.place()
                ),
            )),
            Some(first) => {
                let message = format!(
                    "another submitted structure is named `{name}` ({}); this one is ignored",
                    first.place()
                );
                (self.diagnostics).push(source.diagnostic(Severity::Warning, message));
                Ok(())
            }
        }
    }
}

/// One gold structure and the run's structure of its name, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    pub name: String,
    pub gold: Source,
    pub run: Option<Source>,
}

/// Pairs every gold structure with the run's of its name, in name order;
/// a run's structure of no gold name is skipped (in file and line order),
/// with the gold name it likely meant.
pub fn pair(gold: &Listing, run: Listing) -> (Vec<Pair>, Vec<Skipped>) {
    let mut run = run.structures;
    let pairs: Vec<Pair> = (gold.structures.iter())
        .map(|(name, source)| Pair {
            name: name.clone(),
            gold: source.clone(),
            run: run.remove(name),
        })
        .collect();
    let unpaired = || {
        (pairs.iter())
            .filter(|p| p.run.is_none())
            .map(|p| p.name.as_str())
    };
    let mut strays: Vec<(String, Source)> = run.into_iter().collect();
    // In file and line order (the place as text would put line 10 before 9).
    strays.sort_by(|a, b| a.1.order_key().cmp(&b.1.order_key()));
    let skipped: Vec<Skipped> = (strays.into_iter())
        .map(|(name, source)| {
            let why = match &source {
                Source::File(_) => "no gold file has this stem",
                Source::Entry { .. } => "no gold structure has this name",
            };
            let reason = match nearest(&name, unpaired()) {
                Some(near) => format!("{why} (nearest: {near})"),
                None => why.to_string(),
            };
            Skipped {
                file: source.place(),
                reason,
            }
        })
        .collect();
    (pairs, skipped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn folder(files: &[(&str, &str)]) -> (tempfile::TempDir, Vec<PathBuf>) {
        let dir = tempfile::tempdir().unwrap();
        let mut paths = Vec::new();
        for (name, text) in files {
            let path = dir.path().join(name);
            fs::write(&path, text).unwrap();
            paths.push(path);
        }
        paths.sort();
        (dir, paths)
    }

    fn entry(file: &std::path::Path, line: usize, smiles: Option<&str>) -> Source {
        Source::Entry {
            file: file.to_path_buf(),
            line,
            smiles: smiles.map(Into::into),
        }
    }

    #[test]
    fn files_and_entries_are_named_and_paired() {
        let (_gold_dir, gold) =
            folder(&[("a.mol", "x"), ("gold.csv", "id,smiles\nb.png,CCO\nc12,\n")]);
        let (_run_dir, run) = folder(&[("b.MOL", "x"), ("run.smi", "C a\nCC c13\nO\n")]);
        let gold_listing = list(&gold, true, &Columns::default()).unwrap();
        assert_eq!(
            gold_listing.structures.keys().collect::<Vec<_>>(),
            ["a", "b", "c12"]
        );
        let run_listing = list(&run, false, &Columns::default()).unwrap();
        let file = gold[1].display().to_string();
        assert!(gold_listing.diagnostics.is_empty(), "{file}");
        assert_eq!(
            run_listing.diagnostics,
            [Diagnostic::warning(
                run[1].display().to_string(),
                Some(3),
                "no name; named line-3"
            )]
        );
        let (pairs, skipped) = pair(&gold_listing, run_listing);
        assert_eq!(
            pairs,
            [
                Pair {
                    name: "a".into(),
                    gold: Source::File(gold[0].clone()),
                    run: Some(entry(&run[1], 1, Some("C"))),
                },
                Pair {
                    name: "b".into(),
                    gold: entry(&gold[1], 2, Some("CCO")),
                    run: Some(Source::File(run[0].clone())),
                },
                Pair {
                    name: "c12".into(),
                    gold: entry(&gold[1], 3, None),
                    run: None,
                },
            ]
        );
        let place = |line| format!("{}:{line}", run[1].display());
        assert_eq!(
            skipped,
            [
                Skipped {
                    file: place(2),
                    reason: "no gold structure has this name (nearest: c12)".into()
                },
                Skipped {
                    file: place(3),
                    reason: "no gold structure has this name".into()
                },
            ]
        );
    }

    #[test]
    fn a_name_twice_stops_the_gold_and_is_warned_of_in_a_run() {
        let (_dir, files) = folder(&[("a.mol", "x"), ("t.smi", "C b\nCC a\nCCC b\n")]);
        let err = list(&files, true, &Columns::default()).unwrap_err();
        assert_eq!(
            err,
            Diagnostic::error(
                files[1].display().to_string(),
                Some(2),
                format!(
                    "a second gold structure named `a` (first: {})",
                    files[0].display()
                )
            )
        );
        let run = list(&files, false, &Columns::default()).unwrap();
        assert_eq!(
            run.structures.get("a"),
            Some(&Source::File(files[0].clone()))
        );
        assert_eq!(
            run.structures.get("b"),
            Some(&entry(&files[1], 1, Some("C")))
        );
        let t = files[1].display().to_string();
        assert_eq!(
            run.diagnostics,
            [
                Diagnostic::warning(
                    t.clone(),
                    Some(2),
                    format!(
                        "another submitted structure is named `a` ({}); this one is ignored",
                        files[0].display()
                    )
                ),
                Diagnostic::warning(
                    t.clone(),
                    Some(3),
                    format!(
                        "another submitted structure is named `b` ({t}:1); this one is ignored"
                    )
                ),
            ]
        );
    }

    #[test]
    fn a_table_that_cannot_be_read_is_named_with_its_line() {
        let (_dir, files) = folder(&[("t.csv", "id,smiles\n\"a,C\nb,CC\n")]);
        let err = list(&files, false, &Columns::default()).unwrap_err();
        assert_eq!(
            err,
            Diagnostic::error(
                files[0].display().to_string(),
                None,
                "line 2: column 1 holds a line break (a quote left open?)"
            )
        );
        // A chosen header the table lacks falls back to the usual ones;
        // with neither, the file is named with the header it has.
        let chosen = Columns {
            name: Some("nom".into()),
            smiles: None,
        };
        let (_dir, files) = folder(&[("t.tsv", "key\tsmiles\na\tC\n")]);
        assert_eq!(
            list(&files, true, &chosen).unwrap_err(),
            Diagnostic::error(
                files[0].display().to_string(),
                None,
                "line 1: no name column: no `nom` and none of image_id, id, name, file_name, \
                 file, image (the header has: key, smiles)"
            )
        );
        let (_dir, files) = folder(&[("t.tsv", "id\tsmiles\na\tC\n")]);
        let listed = list(&files, true, &chosen).unwrap();
        assert_eq!(listed.structures.keys().collect::<Vec<_>>(), ["a"]);
        assert_eq!(listed.chosen_used, (false, false));
    }
}
