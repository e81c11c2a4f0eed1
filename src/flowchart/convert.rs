//! `clefeval convert`: flowchart files read in their formats
//! ([`super::formats`]) and written in another, one file to one file or
//! many to a folder. Everything is read and checked before anything is
//! written: a file that cannot be read, two inputs that would be written
//! to one file, or an output that would overwrite an input stop the whole
//! conversion. What the target format cannot hold is a warning per file
//! ([`losses`]).

use super::formats::{self, Format};
use super::parse::ParseOptions;
use super::writers::losses;
use crate::diagnostics::Diagnostic;
use crate::inputs::Skipped;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Where the converted files go.
#[derive(Clone, Debug)]
pub enum Target {
    /// One input file written to this file (`-` is standard output).
    File(PathBuf),
    /// Every input written into this folder as `<stem>.<extension>`.
    Folder(PathBuf),
}

/// One converted file: what it was read from, where it goes, its text.
#[derive(Clone, Debug)]
pub struct Converted {
    pub source: PathBuf,
    pub target: PathBuf,
    pub text: String,
}

/// The outcome of a conversion that can be written: the files, the warnings
/// met reading them and what the target format loses, and the files of the
/// folders given that are no flowchart files.
#[derive(Debug, Default)]
pub struct Conversion {
    pub files: Vec<Converted>,
    pub warnings: Vec<Diagnostic>,
    pub skipped: Vec<Skipped>,
}

/// Reads every flowchart file of `inputs` (files, or folders of them) and
/// writes each in `format` (the texts only; the caller writes them to
/// [`Converted::target`]). Errors: an input that names no flowchart file,
/// a file with an error (every error listed), `Target::File` for more than
/// one file, two inputs of one target, a target that is an input.
pub fn convert(
    inputs: &[PathBuf],
    format: &Format,
    target: &Target,
) -> Result<Conversion, Vec<Diagnostic>> {
    let (files, problems, skipped) = formats::listed(inputs);
    if !problems.is_empty() {
        return Err(problems);
    }
    if files.is_empty() {
        let shown: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
        return Err(vec![Diagnostic::error(
            shown.join(", "),
            None,
            format!("no {} to convert", formats::flowchart_files()),
        )]);
    }
    let targets = targets(&files, format, target)?;
    let mut errors = Vec::new();
    let mut conversion = Conversion {
        skipped,
        ..Conversion::default()
    };
    for (source, target) in files.iter().zip(targets) {
        let parsed = formats::read_file(source, &ParseOptions::default());
        if parsed.is_rejected() {
            errors.extend(parsed.diagnostics);
            continue;
        }
        conversion.warnings.extend(parsed.diagnostics);
        let name = source.display().to_string();
        conversion.warnings.extend(
            (losses(&parsed.flowchart, format.key).into_iter()).map(|loss| {
                Diagnostic::warning(&name, None, format!("as {}: {loss}", format.name))
            }),
        );
        conversion.files.push(Converted {
            source: source.clone(),
            target,
            text: (format.write)(&parsed.flowchart),
        });
    }
    if errors.is_empty() {
        Ok(conversion)
    } else {
        Err(errors)
    }
}

/// The file each of `files` is written to, checked: one file for
/// `Target::File`, no two files to one target, no target among the files.
fn targets(
    files: &[PathBuf],
    format: &Format,
    target: &Target,
) -> Result<Vec<PathBuf>, Vec<Diagnostic>> {
    let extension = format.extensions.first().copied().unwrap_or("txt");
    let out: Vec<PathBuf> = match target {
        Target::File(path) => match files {
            [_] => vec![path.clone()],
            _ => {
                return Err(vec![Diagnostic::error(
                    path.display().to_string(),
                    None,
                    format!(
                        "-o writes one file but {} flowchart files were given: write them into a folder with --out-dir",
                        files.len()
                    ),
                )]);
            }
        },
        Target::Folder(dir) => (files.iter())
            .map(|f| {
                let stem = f.file_stem().unwrap_or_default();
                dir.join(stem).with_extension(extension)
            })
            .collect(),
    };
    let mut errors = Vec::new();
    let mut first: HashMap<&Path, &Path> = HashMap::new();
    for (source, target) in files.iter().zip(&out) {
        if let Some(other) = first.insert(target, source) {
            errors.push(Diagnostic::error(
                target.display().to_string(),
                None,
                format!(
                    "both {} and {} would be written here: convert them into different folders",
                    other.display(),
                    source.display()
                ),
            ));
        }
    }
    for target in &out {
        if target.as_os_str() != "-" && files.iter().any(|f| same_file(f, target)) {
            errors.push(Diagnostic::error(
                target.display().to_string(),
                None,
                "is an input of this conversion: it would be overwritten; write into another folder",
            ));
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Whether paths `a` and `b` name one file (compared as given when either
/// cannot be resolved, e.g. a target not yet written).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests;
