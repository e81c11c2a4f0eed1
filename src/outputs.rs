//! Checks of the files and folders a command or a library call will write,
//! made before any scoring so that a typo in an output path costs nothing:
//! `cannot write PATH: why`, in the one wording of docs/cli.md.

use std::path::Path;

/// `Err` with the reason when the output file `path` (if given) cannot be
/// written: its folder does not exist or is no folder, or it is a folder.
pub fn check_output_file(path: Option<&Path>) -> Result<(), String> {
    let Some(path) = path else { return Ok(()) };
    let why =
        unwritable_parent(path).or_else(|| path.is_dir().then(|| "it is a folder".to_string()));
    why.map_or(Ok(()), |why| Err(cannot_write_to(path, &why)))
}

/// `Err` with the reason when the output folder `path` (if given) cannot be
/// made or written into: its parent does not exist or is no folder, or it
/// is an existing file.
pub fn check_output_folder(path: Option<&Path>) -> Result<(), String> {
    let Some(path) = path else { return Ok(()) };
    let why = unwritable_parent(path).or_else(|| {
        (path.exists() && !path.is_dir()).then(|| "it is a file, not a folder".to_string())
    });
    why.map_or(Ok(()), |why| Err(cannot_write_to(path, &why)))
}

/// `cannot write PATH: why`, as a failed write says.
pub fn cannot_write_to(path: &Path, why: &str) -> String {
    format!("cannot write {}: {why}", path.display())
}

/// Why the folder an output path is written into cannot take it: it does
/// not exist or is no folder.
fn unwritable_parent(path: &Path) -> Option<String> {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    match std::fs::metadata(parent) {
        Ok(meta) if meta.is_dir() => None,
        Ok(_) => Some(format!("{} is not a folder", parent.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Some(format!("folder {} does not exist", parent.display()))
        }
        Err(e) => Some(format!("folder {} cannot be read: {e}", parent.display())),
    }
}
