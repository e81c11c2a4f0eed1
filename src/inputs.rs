//! Finding input files and pairing gold with submitted files by file stem
//! (gold and submitted files pair by file stem, docs/formats.md). Shared by all
//! tasks so that every command lists, sorts and pairs files the same way.

use crate::diagnostics::Diagnostic;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The reason given for a file over a reader's size limit of `limit` bytes.
pub fn over_limit(limit: u64) -> String {
    format!(
        "larger than the {} MiB limit for one file; not read",
        limit >> 20
    )
}

/// Why the file system entry at `path` is no file to read, or `None` for a
/// regular file (or a symlink to one) and for a path the file system cannot
/// give (opening it says why). The check every reader makes before it
/// opens a file: opening a FIFO waits for a writer forever, a socket or a
/// device holds no data of a run, and a folder named like a file is no file.
/// One wording for every command: `is a folder, not a regular file`, `is a
/// FIFO (named pipe), not a regular file`, ...
pub fn not_regular(path: &Path) -> Option<String> {
    let kind = std::fs::metadata(path).ok()?.file_type();
    if kind.is_file() {
        return None;
    }
    let what = if kind.is_dir() {
        "a folder"
    } else {
        special_kind(kind)
    };
    Some(format!("is {what}, not a regular file"))
}

#[cfg(unix)]
fn special_kind(kind: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        "a FIFO (named pipe)"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special_kind(_: std::fs::FileType) -> &'static str {
    "a special file"
}

/// Opens the file at `path` for reading, after [`not_regular`] found nothing
/// against it. `Err` gives the reason, as [`read_limited`] does.
pub fn open_regular(path: &Path) -> Result<std::fs::File, String> {
    if let Some(why) = not_regular(path) {
        return Err(why);
    }
    std::fs::File::open(path).map_err(|e| missing_reason(&e))
}

/// Reads the whole file at `path` when it holds at most `limit` bytes.
/// `Err` gives the reason, a whole message after the path: the I/O error
/// ([`missing_reason`]), a folder or a special file ([`not_regular`], never
/// opened) or the size over the limit. A file whose size is known to be over the limit is not
/// read at all; otherwise at most `limit` + 1 bytes are read, so a growing
/// file cannot make memory grow past the limit.
pub fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let too_large = || over_limit(limit);
    let file = open_regular(path)?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    if size > limit {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| missing_reason(&e))?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// The files named by `paths`: a file is taken as it is, a folder gives its
/// entries (not recursive, hidden ones skipped) whose extension is one of
/// `extensions` (case-insensitive; an empty list takes every file but no
/// folder). With extensions, an entry that is not a regular file (e.g. a
/// folder named `x.mol`) is kept, so that its reader reports it instead of
/// it silently counting as missing.
/// The result is sorted by path, so every run sees the same order.
/// Paths that cannot be read become error diagnostics.
pub fn collect_files(paths: &[PathBuf], extensions: &[&str]) -> (Vec<PathBuf>, Vec<Diagnostic>) {
    let mut files = Vec::new();
    let mut diagnostics = Vec::new();
    for path in paths {
        let meta = match std::fs::metadata(path) {
            Ok(meta) => meta,
            Err(e) => {
                diagnostics.push(Diagnostic::error(
                    path.display().to_string(),
                    None,
                    missing_reason(&e),
                ));
                continue;
            }
        };
        if meta.is_dir() {
            match std::fs::read_dir(path) {
                Ok(entries) => {
                    for entry in entries.flatten() {
                        let p = entry.path();
                        let hidden = p
                            .file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| n.starts_with('.'));
                        let named_like_a_file = !extensions.is_empty() || !p.is_dir();
                        if !hidden && has_extension(&p, extensions) && named_like_a_file {
                            files.push(p);
                        }
                    }
                }
                Err(e) => diagnostics.push(Diagnostic::error(
                    path.display().to_string(),
                    None,
                    missing_reason(&e),
                )),
            }
        } else {
            files.push(path.clone());
        }
    }
    files.sort();
    files.dedup();
    (files, diagnostics)
}

/// Why the run at `path` is not scored at all, as an error about its path,
/// or `None`: it holds no file of the task's kind (`kind`, such as
/// `flowchart files (*.txt)`) among its `files`, or none of them pairs with
/// gold data (`paired` of them do; the gold data is a `gold_unit` each,
/// such as `topic`).
pub fn run_rejection(
    path: &Path,
    files: usize,
    paired: usize,
    kind: &str,
    gold_unit: &str,
) -> Option<Diagnostic> {
    let why = if files == 0 {
        holds_no(kind)
    } else if paired == 0 {
        format!(
            "nothing in its {} matches a gold {gold_unit}",
            if files == 1 {
                "file".to_string()
            } else {
                format!("{files} files")
            }
        )
    } else {
        return None;
    };
    Some(Diagnostic::error(path.display().to_string(), None, why))
}

/// Why a folder (or the paths given) yield nothing to read: `holds no
/// KIND`, the one wording of every command (docs/cli.md, "Input errors").
pub fn holds_no(kind: &str) -> String {
    format!("holds no {kind}")
}

/// Why a path cannot be read, as every command words it after the path:
/// `no such file or folder`, or `cannot read: ` and the file system's reason
/// (a symlink loop, no permission).
pub fn missing_reason(error: &std::io::Error) -> String {
    if error.kind() == std::io::ErrorKind::NotFound {
        "no such file or folder".to_string()
    } else {
        format!("cannot read: {error}")
    }
}

/// `PATHS: holds no KIND` (`--flag PATHS` when `flag` is not empty): why
/// the paths the user named give no file to read, before any scoring.
pub fn none_in(flag: &str, paths: &[PathBuf], kind: &str) -> String {
    let paths = display_paths(paths);
    let named = if flag.is_empty() {
        paths
    } else {
        format!("{flag} {paths}")
    };
    format!("{named}: {}", holds_no(kind))
}

fn has_extension(path: &Path, extensions: &[&str]) -> bool {
    if extensions.is_empty() {
        return true;
    }
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| extensions.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// Paths as an error message names them: `a, b`.
pub fn display_paths(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    names.join(", ")
}

/// The pairing key of a file: its name without the last extension.
pub fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The compression extensions a run file may carry; a run's name leaves
/// them out.
pub const COMPRESSED: [&str; 4] = [".tar.gz", ".tgz", ".gz", ".zip"];

/// A run as given: the name its results are reported under and its path
/// (a folder or a file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub name: String,
    pub path: PathBuf,
}

impl Run {
    /// The run at `path`, named by it ([`run_name`]).
    pub fn at(path: impl Into<PathBuf>) -> Run {
        let path = path.into();
        Run {
            name: run_name(&path),
            path,
        }
    }

    /// Each path a run named by it.
    pub fn each(paths: &[PathBuf]) -> Vec<Run> {
        paths.iter().map(Run::at).collect()
    }

    /// A run as the command line gives it: a path that exists is a path,
    /// whatever it holds; otherwise `NAME=PATH` names the run at `PATH`
    /// (split at the first `=`); otherwise it is a path (that the command
    /// then finds missing).
    pub fn given(arg: &Path) -> Result<Run, String> {
        if std::fs::symlink_metadata(arg).is_ok() {
            return Ok(Run::at(arg));
        }
        let text = arg.to_string_lossy();
        match text.split_once('=') {
            Some(("", _)) => Err(format!(
                "{}: a run's name (before the `=`) must not be empty",
                arg.display()
            )),
            Some((name, path)) => Ok(Run {
                name: name.to_string(),
                path: PathBuf::from(path),
            }),
            None => Ok(Run::at(arg)),
        }
    }

    /// The paths of `runs`, in order.
    pub fn paths(runs: &[Run]) -> Vec<PathBuf> {
        runs.iter().map(|r| r.path.clone()).collect()
    }
}

/// A run's name from its path: the last component, minus a compression
/// extension (`lab2-lm-PSG.gz` → `lab2-lm-PSG`); the whole path when it has
/// no last component (`/`). It never depends on the other runs given.
pub fn run_name(path: &Path) -> String {
    let Some(name) = path.file_name() else {
        return path.display().to_string();
    };
    let name = name.to_string_lossy();
    (COMPRESSED.iter())
        .find_map(|ext| name.strip_suffix(ext).filter(|s| !s.is_empty()))
        .unwrap_or(&name)
        .to_string()
}

/// `Err` naming both paths when two runs have one name: results are
/// reported, compared and merged by run name, so each must be one run's.
pub fn distinct_names(runs: &[Run]) -> Result<(), String> {
    let mut seen: std::collections::HashMap<&str, &Path> = std::collections::HashMap::new();
    for run in runs {
        if let Some(first) = seen.insert(&run.name, &run.path) {
            return Err(format!(
                "two runs are named `{}`: {} and {}; name them apart with --run NAME=PATH",
                run.name,
                first.display(),
                run.path.display()
            ));
        }
    }
    Ok(())
}

/// One gold file and the submitted file of the same stem, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    pub stem: String,
    pub gold: PathBuf,
    pub run: Option<PathBuf>,
    /// The run's other files of this stem (`FC-1.txt` beside `FC-1.mmd`),
    /// each also warned of: a task that reads several formats rejects the
    /// topic, naming them all.
    pub also: Vec<PathBuf>,
}

/// Pairs gold and submitted files by stem, in stem order. A second file
/// with a stem already seen on the same side is left out with a warning;
/// a submitted file with no gold counterpart is skipped, with the gold
/// stem it likely meant.
pub fn pair_by_stem(
    gold: &[PathBuf],
    run: &[PathBuf],
) -> (Vec<Pair>, Vec<Diagnostic>, Vec<Skipped>) {
    let mut diagnostics = Vec::new();
    let gold_by_stem = index_by_stem(gold, "gold", &mut diagnostics);
    let mut run_by_stem = index_by_stem(run, "submitted", &mut diagnostics);
    let mut run_all: BTreeMap<String, Vec<&PathBuf>> = BTreeMap::new();
    for path in run {
        run_all.entry(stem(path)).or_default().push(path);
    }
    let pairs: Vec<Pair> = gold_by_stem
        .into_iter()
        .map(|(stem_of, gold)| {
            let run = run_by_stem.remove(&stem_of);
            let also = (run_all.get(&stem_of).into_iter().flatten())
                .filter(|p| Some(**p) != run.as_ref())
                .map(|p| (*p).clone())
                .collect();
            Pair {
                stem: stem_of,
                gold,
                run,
                also,
            }
        })
        .collect();
    let mut skipped = Vec::new();
    for (stem, path) in run_by_stem {
        let unpaired = (pairs.iter())
            .filter(|p| p.run.is_none())
            .map(|p| p.stem.as_str());
        let reason = match nearest(&stem, unpaired) {
            Some(near) => format!("no gold file has this stem (nearest: {near})"),
            None => "no gold file has this stem".to_string(),
        };
        skipped.push(Skipped::new(&path, reason));
    }
    (pairs, diagnostics, skipped)
}

/// A file in a folder given to a command that the command did not read,
/// and why: it is none of the files the task takes, or it pairs with no
/// gold file. Listed once in the table and under `skipped_files` in JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    pub file: String,
    pub reason: String,
}

impl Skipped {
    pub fn new(path: &Path, reason: impl Into<String>) -> Skipped {
        Skipped {
            file: path.display().to_string(),
            reason: reason.into(),
        }
    }
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "skipped {}: {}", self.file, self.reason)
    }
}

/// The regular files in the folders among `paths` that [`collect_files`]
/// leaves out for their extension (hidden ones aside), each skipped as
/// not one of `kind` (such as `flowchart files (*.txt)`), in path order.
pub fn skipped_in(paths: &[PathBuf], extensions: &[&str], kind: &str) -> Vec<Skipped> {
    let mut skipped: Vec<Skipped> = (paths.iter())
        .filter(|p| p.is_dir())
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flat_map(|entries| entries.flatten().map(|e| e.path()))
        .filter(|p| {
            let hidden =
                (p.file_name().and_then(|n| n.to_str())).is_some_and(|n| n.starts_with('.'));
            !hidden && p.is_file() && !has_extension(p, extensions)
        })
        .map(|p| Skipped::new(&p, format!("not one of the {kind}")))
        .collect();
    skipped.sort_by(|a, b| a.file.cmp(&b.file));
    skipped
}

/// The skipped files at the end of a table, one line each.
pub fn push_skipped(text: &mut String, skipped: &[Skipped]) {
    crate::diagnostics::push_lines(text, skipped);
}

/// The stem among `stems` (gold stems no file of the run pairs with) a
/// misnamed `stem` most likely meant: the first of the fewest edits, if
/// at most two and fewer than half its length (`FC-004` for `FC-0004`).
pub fn nearest<'a>(stem: &str, stems: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = 2.min(stem.chars().count().saturating_sub(1) / 2);
    (stems.map(|s| (strsim::levenshtein(stem, s), s)))
        .filter(|&(edits, _)| edits <= limit)
        .min_by_key(|&(edits, _)| edits)
        .map(|(_, s)| s)
}

fn index_by_stem(
    files: &[PathBuf],
    side: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> BTreeMap<String, PathBuf> {
    let mut by_stem: BTreeMap<String, PathBuf> = BTreeMap::new();
    for path in files {
        let key = stem(path);
        if let Some(first) = by_stem.get(&key) {
            diagnostics.push(Diagnostic::warning(
                path.display().to_string(),
                None,
                format!(
                    "another {side} file has the stem {key:?} ({}); this one is ignored",
                    first.display()
                ),
            ));
        } else {
            by_stem.insert(key, path.clone());
        }
    }
    by_stem
}

/// The files one input path named on the command line gave the command,
/// each with its SHA-256 digest: what proves that two result files (two
/// shards of one evaluation, say) scored the same data, whatever the paths
/// were called on the machines that wrote them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputFiles {
    /// Which input: `gold`, `run`, `pages`, `qrels`, `groups`.
    pub role: String,
    /// The path as it was given (not compared when results are merged).
    pub path: String,
    /// The files read from it, in the order they are listed.
    pub files: Vec<FileDigest>,
}

/// One input file and its digest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileDigest {
    /// The file's name within the folder given (its own name for a file).
    pub name: String,
    /// Its size; `null` when the file system cannot give it.
    pub bytes: Option<u64>,
    /// Lowercase hex SHA-256 of its bytes; `null` when not digested.
    pub sha256: Option<String>,
    /// Why it was not digested: it cannot be read, or it is larger than
    /// the limit of the reader it is meant for (which does not read it
    /// either). Absent when digested.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_digested: Option<String>,
}

/// The [`InputFiles`] of every path in `paths`, all of role `role`: a file
/// is itself, a folder gives the files [`collect_files`] lists in it for
/// `extensions`. A file larger than `limit` bytes (when given) is listed
/// with its size and not digested, as the reader does not read it. Files
/// are digested in parallel; the order is the listing's.
pub fn digest_inputs(
    role: &str,
    paths: &[PathBuf],
    extensions: &[&str],
    limit: Option<u64>,
) -> Vec<InputFiles> {
    paths
        .iter()
        .map(|path| {
            let files = if path.is_dir() {
                collect_files(std::slice::from_ref(path), extensions).0
            } else {
                vec![path.clone()]
            };
            InputFiles {
                role: role.to_string(),
                path: path.display().to_string(),
                files: files.par_iter().map(|f| digest_file(f, limit)).collect(),
            }
        })
        .collect()
}

/// Input paths of one role as an evaluation names them for their
/// digests: (role, paths, the extensions a folder is listed for, the
/// reader's size limit).
pub type Named<'a> = (&'a str, &'a [PathBuf], &'a [&'a str], Option<u64>);

/// The digests of the files of every input path named, in order
/// ([`digest_inputs`]).
pub fn digests(named: &[Named]) -> Vec<InputFiles> {
    named
        .iter()
        .flat_map(|&(role, paths, extensions, limit)| digest_inputs(role, paths, extensions, limit))
        .collect()
}

/// The digest of one file, streamed through SHA-256 in blocks.
fn digest_file(path: &Path, limit: Option<u64>) -> FileDigest {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let bytes = std::fs::metadata(path).ok().map(|m| m.len());
    let digest = match (bytes, limit) {
        (Some(size), Some(limit)) if size > limit => Err(over_limit(limit)),
        _ => sha256_of(path),
    };
    let (sha256, not_digested) = match digest {
        Ok(hex) => (Some(hex), None),
        Err(why) => (None, Some(why)),
    };
    FileDigest {
        name,
        bytes,
        sha256,
        not_digested,
    }
}

/// The lowercase hex SHA-256 of the file at `path`; `Err` with the reason
/// when it cannot be read ([`open_regular`]: no FIFO is opened).
fn sha256_of(path: &Path) -> Result<String, String> {
    let mut file = open_regular(path)?;
    let mut hasher = Sha256::new();
    let mut block = vec![0u8; 1 << 16];
    loop {
        match file.read(&mut block) {
            Ok(0) => break,
            Ok(n) => hasher.update(block.get(..n).unwrap_or_default()),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(missing_reason(&e)),
        }
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// `--shard K/N`: the K-th of N parts of an evaluation's topics
/// (documents, structures), 1 ≤ K ≤ N.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// K, from 1.
    pub index: usize,
    /// N.
    pub count: usize,
}

impl Shard {
    /// Reads `K/N`; the error is a whole sentence naming what is wrong.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let parsed = text.split_once('/').and_then(|(k, n)| {
            Some((
                k.trim().parse::<usize>().ok()?,
                n.trim().parse::<usize>().ok()?,
            ))
        });
        match parsed {
            Some((index, count)) if 1 <= index && index <= count => Ok(Shard { index, count }),
            Some((index, count)) => Err(format!(
                "a shard is K/N with 1 ≤ K ≤ N; {index}/{count} is not one"
            )),
            None => Err(format!(
                "a shard is K/N, two whole numbers with 1 ≤ K ≤ N (such as 2/8); not {text:?}"
            )),
        }
    }

    /// The topics of this part, from every topic's expected cost: the
    /// topics are taken from the most costly down (equal costs by name)
    /// and each goes to the part whose total cost is then the least (the
    /// first such part on a tie), the greedy longest-processing-time rule.
    /// It depends only on the names and costs, never on a run, so every
    /// run's topics are split alike; a part may be empty.
    pub fn topics<'a>(&self, costs: impl IntoIterator<Item = (&'a str, u64)>) -> BTreeSet<String> {
        let mut sorted: Vec<(&str, u64)> = costs.into_iter().collect();
        sorted.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        sorted.dedup_by(|a, b| a.0 == b.0);
        let mut loads = vec![0u64; self.count.max(1)];
        let mut mine = BTreeSet::new();
        for (topic, cost) in sorted {
            let Some((part, load)) = loads.iter_mut().enumerate().min_by_key(|(i, l)| (**l, *i))
            else {
                break;
            };
            *load = load.saturating_add(cost.max(1));
            if part + 1 == self.index {
                mine.insert(topic.to_string());
            }
        }
        mine
    }
}

/// The extension of `path` in lowercase, without the dot; empty when it
/// has none. What the format tables of the tasks choose a reader by.
pub fn extension(path: &Path) -> String {
    (path.extension())
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

/// The folders in `dir`, sorted by path: one run each, where a data
/// folder keeps its runs side by side.
pub fn folders_in(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut folders: Vec<PathBuf> = (std::fs::read_dir(dir)?.flatten())
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    Ok(folders)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_misnamed_run_file_names_the_gold_stem_it_likely_meant() {
        let gold: Vec<PathBuf> = ["g/FC-0004.txt", "g/FC-0005.txt", "g/FC-0006.txt"]
            .iter()
            .map(PathBuf::from)
            .collect();
        let run: Vec<PathBuf> = ["r/FC-004.txt", "r/FC-0005.txt", "r/notes.txt"]
            .iter()
            .map(PathBuf::from)
            .collect();
        let (pairs, diagnostics, skipped) = pair_by_stem(&gold, &run);
        assert_eq!(pairs.iter().filter(|p| p.run.is_some()).count(), 1);
        assert!(diagnostics.is_empty());
        let lines: Vec<String> = skipped.iter().map(ToString::to_string).collect();
        assert_eq!(
            lines,
            [
                "skipped r/FC-004.txt: no gold file has this stem (nearest: FC-0004)",
                "skipped r/notes.txt: no gold file has this stem",
            ]
        );
        // Only unpaired gold stems, within two edits and half the length.
        assert_eq!(nearest("FC-0005xy", ["FC-0004"].into_iter()), None);
        assert_eq!(
            nearest("FC-0005x", ["FC-0005"].into_iter()),
            Some("FC-0005")
        );
        assert_eq!(nearest("ab", ["a"].into_iter()), None);
    }

    fn p(s: &str) -> PathBuf {
        PathBuf::from(s)
    }

    #[test]
    fn pairs_by_stem_and_reports_strays() {
        let gold = [p("g/FC-2.txt"), p("g/FC-1.txt")];
        let run = [p("r/FC-1.txt"), p("r/FC-9.txt")];
        let (pairs, diags, skipped) = pair_by_stem(&gold, &run);
        assert_eq!(
            pairs,
            vec![
                Pair {
                    stem: "FC-1".into(),
                    gold: p("g/FC-1.txt"),
                    run: Some(p("r/FC-1.txt")),
                    also: Vec::new(),
                },
                Pair {
                    stem: "FC-2".into(),
                    gold: p("g/FC-2.txt"),
                    run: None,
                    also: Vec::new(),
                },
            ]
        );
        assert!(diags.is_empty());
        assert_eq!(skipped.len(), 1);
        assert_eq!(skipped[0].file, "r/FC-9.txt");
    }

    #[test]
    fn a_runs_name_is_its_last_component_without_compression() {
        let names: Vec<String> = [
            "x/osra",
            "y/molrec.csv",
            "z/lab2.tar.gz",
            "lab3.zip",
            "/",
            ".gz",
        ]
        .iter()
        .map(|s| run_name(&p(s)))
        .collect();
        assert_eq!(names, ["osra", "molrec.csv", "lab2", "lab3", "/", ".gz"]);
    }

    #[test]
    fn two_runs_of_one_name_are_refused_naming_both() {
        let runs = Run::each(&[p("a/run"), p("b/run.gz")]);
        assert_eq!(
            distinct_names(&runs).unwrap_err(),
            "two runs are named `run`: a/run and b/run.gz; name them apart with --run NAME=PATH"
        );
        let named = [Run::given(&p("first=a/run")).unwrap(), Run::at("b/run")];
        assert_eq!(named[0].name, "first");
        assert_eq!(named[0].path, p("a/run"));
        assert_eq!(distinct_names(&named), Ok(()));
    }

    #[test]
    fn an_argument_that_exists_is_a_path_even_with_an_equals_sign() {
        let tmp = scratch("clefeval-run-name-");
        let odd = tmp.path().join("a=b");
        std::fs::create_dir(&odd).unwrap();
        let run = Run::given(&odd).unwrap();
        assert_eq!((run.name.as_str(), &run.path), ("a=b", &odd));
        let named = Run::given(&p("x=y=z")).unwrap();
        assert_eq!((named.name.as_str(), named.path), ("x", p("y=z")));
        assert_eq!(
            Run::given(&p("=gone")).unwrap_err(),
            "=gone: a run's name (before the `=`) must not be empty"
        );
        assert_eq!(Run::given(&p("gone")).unwrap(), Run::at("gone"));
    }

    #[test]
    fn duplicate_stems_keep_the_first() {
        let gold = [p("g/a.txt"), p("g/a.TXT")];
        let (pairs, diags, _) = pair_by_stem(&gold, &[]);
        assert_eq!(pairs.len(), 1);
        assert_eq!(pairs[0].gold, p("g/a.txt"));
        assert_eq!(diags.len(), 1);
    }

    /// A fresh folder named from `prefix`, removed when dropped.
    fn scratch(prefix: &str) -> tempfile::TempDir {
        tempfile::Builder::new().prefix(prefix).tempdir().unwrap()
    }

    #[test]
    fn read_limited_reads_up_to_the_limit_and_names_it_past() {
        let tmp = scratch("clefeval-limit-");
        let dir = tmp.path().to_path_buf();
        let file = dir.join("f.txt");
        std::fs::write(&file, vec![b'x'; 2 << 20]).unwrap();
        assert_eq!(read_limited(&file, 2 << 20).unwrap().len(), 2 << 20);
        assert_eq!(
            read_limited(&file, (2 << 20) - 1).unwrap_err(),
            "larger than the 1 MiB limit for one file; not read"
        );
        // A sparse file of 10 GiB is refused from its size, without reading.
        let sparse = std::fs::File::create(dir.join("huge.txt")).unwrap();
        sparse.set_len(10 << 30).unwrap();
        assert_eq!(
            read_limited(&dir.join("huge.txt"), 16 << 20).unwrap_err(),
            "larger than the 16 MiB limit for one file; not read"
        );
        assert_eq!(
            read_limited(&dir, 1 << 20).unwrap_err(),
            "is a folder, not a regular file"
        );
        assert_eq!(
            read_limited(&dir.join("missing.txt"), 1 << 20).unwrap_err(),
            "no such file or folder"
        );
    }

    #[test]
    fn special_files_are_refused_unopened_and_named_by_kind() {
        let tmp = scratch("clefeval-special-");
        let dir = tmp.path().to_path_buf();
        let socket = dir.join("s.txt");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        assert_eq!(
            read_limited(&socket, 1 << 20).unwrap_err(),
            "is a socket, not a regular file"
        );
        assert_eq!(
            read_limited(Path::new("/dev/null"), 1 << 20).unwrap_err(),
            "is a device, not a regular file"
        );
        std::fs::write(dir.join("f.txt"), "x").unwrap();
        assert_eq!(not_regular(&dir.join("f.txt")), None);
        assert_eq!(
            not_regular(&dir).unwrap(),
            "is a folder, not a regular file"
        );
        assert_eq!(not_regular(&dir.join("missing.txt")), None);
    }

    #[test]
    fn a_run_with_nothing_to_score_is_rejected_with_the_reason() {
        let run = Path::new("runs/empty");
        let kind = "flowchart files (*.txt)";
        assert_eq!(
            run_rejection(run, 0, 0, kind, "topic").unwrap().to_string(),
            "runs/empty: error: holds no flowchart files (*.txt)"
        );
        assert_eq!(
            run_rejection(run, 3, 0, kind, "topic").unwrap().to_string(),
            "runs/empty: error: nothing in its 3 files matches a gold topic"
        );
        assert_eq!(run_rejection(run, 3, 1, kind, "topic"), None);
    }

    #[test]
    fn collect_filters_folders_by_extension_and_sorts() {
        let tmp = scratch("clefeval-inputs-");
        let dir = tmp.path().to_path_buf();
        for name in ["b.txt", "a.TXT", "c.csv", ".hidden.txt"] {
            std::fs::write(dir.join(name), "x").unwrap();
        }
        let (files, diags) = collect_files(&[dir.clone(), dir.join("missing")], &["txt"]);
        assert_eq!(files, vec![dir.join("a.TXT"), dir.join("b.txt")]);
        assert_eq!(diags.len(), 1);
    }

    #[test]
    fn shards_are_read_as_k_of_n_and_refused_otherwise() {
        assert_eq!(Shard::parse("2/8"), Ok(Shard { index: 2, count: 8 }));
        assert_eq!(Shard::parse(" 1 / 1 "), Ok(Shard { index: 1, count: 1 }));
        assert_eq!(
            Shard::parse("0/3").unwrap_err(),
            "a shard is K/N with 1 ≤ K ≤ N; 0/3 is not one"
        );
        assert_eq!(
            Shard::parse("4/3").unwrap_err(),
            "a shard is K/N with 1 ≤ K ≤ N; 4/3 is not one"
        );
        assert!(Shard::parse("3").unwrap_err().contains("not \"3\""));
    }

    /// Costs 9, 7, 6, 5, 4, 4 into 3 parts by longest processing time:
    /// 9 → part 1, 7 → 2, 6 → 3, 5 → 3 (6 is least), 4 (a) → 2 (7), 4
    /// (e) → 1 (9 vs 11 vs 11): loads 13, 11, 11.
    #[test]
    fn topics_go_to_the_least_loaded_part_from_the_most_costly_down() {
        let costs = [("e", 4), ("a", 4), ("x", 9), ("y", 7), ("z", 6), ("w", 5)];
        let part = |k| {
            let shard = Shard { index: k, count: 3 };
            shard
                .topics(costs.iter().map(|&(t, c)| (t, c)))
                .into_iter()
                .collect::<Vec<_>>()
        };
        assert_eq!(part(1), ["e", "x"]);
        assert_eq!(part(2), ["a", "y"]);
        assert_eq!(part(3), ["w", "z"]);
        // More parts than topics: the last ones are empty.
        let empty = Shard { index: 7, count: 7 }.topics(costs.iter().map(|&(t, c)| (t, c)));
        assert!(empty.is_empty());
    }

    #[test]
    fn digests_are_the_sha256_of_each_file_listed() {
        let tmp = scratch("clefeval-digest-");
        let dir = tmp.path().to_path_buf();
        std::fs::write(dir.join("a.txt"), "abc").unwrap();
        std::fs::write(dir.join("b.txt"), "").unwrap();
        std::fs::write(dir.join("c.csv"), "not listed").unwrap();
        std::fs::write(dir.join("d.txt"), "longer than four").unwrap();
        let inputs = digest_inputs("gold", std::slice::from_ref(&dir), &["txt"], Some(4));
        let files = &inputs[0].files;
        assert_eq!(inputs[0].role, "gold");
        let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["a.txt", "b.txt", "d.txt"]);
        // FIPS 180-2's example "abc", and the empty message.
        assert_eq!(
            files[0].sha256.as_deref(),
            Some("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        );
        assert_eq!(
            files[1].sha256.as_deref(),
            Some("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        );
        assert_eq!(
            (files[2].bytes, files[2].sha256.as_deref()),
            (Some(16), None)
        );
        assert_eq!(
            files[2].not_digested.as_deref(),
            Some("larger than the 0 MiB limit for one file; not read")
        );
    }
}
