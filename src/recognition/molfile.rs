//! Reading structure files before the InChI library sees them: bounded
//! reading, the first record of an SDF, and a check of the connection table
//! (V2000 or V3000) that also yields atoms and bonds for drawing.
//!
//! Every problem becomes a reason string (`line 4: ...`), never a panic: the
//! caller scores the structure as unreadable (or manual, on the gold side).

mod v2000;
mod v3000;

#[cfg(test)]
mod tests;

use std::io::Read;
use std::path::Path;

/// At most this many bytes of a structure file are read (16 MiB). A larger
/// file is used only when its first SDF record ends (`$$$$`) within them.
pub const MAX_FILE_BYTES: usize = 16 * 1024 * 1024;

/// One structure file read and checked: the text handed to the InChI library
/// and the molecule drawn on the review page.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The first record, with `\n` line ends.
    pub text: String,
    pub molecule: Molecule,
    /// Notes about the reading that did not stop it (e.g. Latin-1 bytes).
    pub notes: Vec<String>,
}

/// Atoms and bonds of a connection table, as drawn (2D coordinates).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Molecule {
    pub atoms: Vec<Atom>,
    pub bonds: Vec<Bond>,
}

/// One atom: symbol as written (`C`, `Cl`, `R#`, `*`, ...), coordinates,
/// formal charge, absolute isotope mass and alias text when the file gives
/// them.
#[derive(Clone, Debug, PartialEq)]
pub struct Atom {
    pub symbol: String,
    pub x: f64,
    pub y: f64,
    pub charge: i32,
    pub isotope: Option<u32>,
    /// V2000 atom alias (`A  ` lines): text drawn instead of the symbol.
    pub alias: Option<String>,
}

/// One bond between two atoms (0-based indices into [`Molecule::atoms`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bond {
    pub from: usize,
    pub to: usize,
    pub order: BondOrder,
    pub stereo: BondStereo,
}

/// Bond types of the CTfile format (query types are drawn as `Other`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BondOrder {
    Single,
    Double,
    Triple,
    Aromatic,
    Other,
}

/// Stereo marks of a bond, seen from its first atom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BondStereo {
    None,
    /// Solid wedge: the far end points toward the viewer.
    Wedge,
    /// Hashed wedge: the far end points away.
    Hash,
    /// Wavy bond or "cis or trans either" double bond.
    Either,
}

/// Reads the first record of the structure file at `path` and checks it.
/// `Err` holds the reason the file cannot be scored.
pub fn read(path: &Path) -> Result<Record, String> {
    from_bytes(&read_bytes(path)?)
}

/// The bytes of a structure file, at most [`MAX_FILE_BYTES`] + 1 of them.
/// `Err` when the file system cannot give them: the path is a folder, not a
/// regular file, or cannot be opened or read.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, String> {
    let named = |why: String| format!("{}: {why}", path.display());
    let file = crate::inputs::open_regular(path).map_err(named)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| named(crate::inputs::missing_reason(&e)))?;
    Ok(bytes)
}

/// Checks the bytes of a structure file (at most [`MAX_FILE_BYTES`] + 1 of
/// them, as [`read`] gives) and keeps the first record.
pub fn from_bytes(bytes: &[u8]) -> Result<Record, String> {
    let truncated = bytes.len() > MAX_FILE_BYTES;
    let record = match first_record_end(bytes).and_then(|end| bytes.get(..end)) {
        Some(record) => record,
        None if truncated => {
            return Err(format!(
                "larger than the {} MiB read limit and no SDF record end ($$$$) within it",
                MAX_FILE_BYTES >> 20
            ));
        }
        None => bytes,
    };
    if record.contains(&0) {
        return Err(crate::diagnostics::binary_message("a MOL file"));
    }
    let mut notes = Vec::new();
    let decoded = match std::str::from_utf8(record) {
        Ok(s) => s.to_owned(),
        Err(_) => {
            notes.push("not UTF-8; read as Latin-1".to_owned());
            record.iter().map(|&b| char::from(b)).collect()
        }
    };
    let text: String = decoded.lines().flat_map(|l| [l, "\n"]).collect();
    if text.trim().is_empty() {
        return Err("empty file".into());
    }
    let molecule = parse(&text)?;
    Ok(Record {
        text,
        molecule,
        notes,
    })
}

/// Byte offset where the first SDF record ends: the start of the first line
/// that begins with `$$$$`.
fn first_record_end(bytes: &[u8]) -> Option<usize> {
    let mut start = 0;
    while let Some(rest) = bytes.get(start..).filter(|rest| !rest.is_empty()) {
        if rest.starts_with(b"$$$$") {
            return Some(start);
        }
        start += rest.iter().position(|&b| b == b'\n')? + 1;
    }
    None
}

/// Checks a MOL record (header, counts line, connection table) and returns
/// its molecule. Lines are numbered from 1 in the reasons.
pub fn parse(text: &str) -> Result<Molecule, String> {
    let lines: Vec<&str> = text.lines().collect();
    let Some(counts) = lines.get(3) else {
        return Err(format!(
            "only {} lines; a MOL file has a 3-line header and a counts line",
            lines.len()
        ));
    };
    let molecule = if counts.contains("V3000") {
        v3000::parse(&lines)?
    } else {
        v2000::parse(&lines)?
    };
    if molecule.atoms.is_empty() {
        return Err("the structure has no atoms".into());
    }
    Ok(molecule)
}

/// Why a readable molecule has no Standard InChI before the library is
/// asked. A `*` atom: the InChI library refuses a terminal `*` but reads
/// some bonded ones as hydrogen (with an "unusual valence" warning) and
/// returns an InChI, while the scoring rules (docs/recognition.md) count `*` atoms among structures without
/// InChI. An atom alias (`A  ` line, e.g. `R1` or `CO2H` on one carbon):
/// the drawn structure is the alias, which the library ignores, so its InChI
/// would be that of another structure (Markush abuse of MOL files).
pub fn refusal(molecule: &Molecule) -> Option<String> {
    molecule.atoms.iter().enumerate().find_map(|(i, a)| {
        if a.symbol == "*" {
            Some(format!(
                "atom {} is a `*` pseudo atom: no Standard InChI",
                i + 1
            ))
        } else {
            a.alias.as_ref().map(|alias| {
                format!(
                    "atom {} is drawn as the alias {alias:?}, which the InChI library ignores",
                    i + 1
                )
            })
        }
    })
}

/// The characters `from..to` of a fixed-column line (shorter when the line
/// is), trimmed; empty when the range does not fall on character bounds.
fn column(line: &str, from: usize, to: usize) -> &str {
    let to = to.min(line.len());
    if from >= to {
        return "";
    }
    line.get(from..to).unwrap_or("").trim()
}
