//! The structure file formats, registered in one table ([`FORMATS`]):
//! each a name, the extensions its files carry and a reader that gives a
//! file's structure record, or why it cannot be scored. Every entry point
//! reads structure files through this table — folders are listed for
//! every format's extensions ([`extensions`]), the messages name the
//! files a side must hold from it ([`structure_files`]) and a file is read
//! by the format of its extension ([`read_file`]) — so a new format is one
//! reader module and one entry here.

use super::molfile::{self, Record};
use std::path::Path;

/// A structure file format.
pub struct Format {
    /// The name the docs and messages use.
    pub name: &'static str,
    /// The extensions of its files, lowercase, without the dot; the first
    /// is the one messages show.
    pub extensions: &'static [&'static str],
    /// The record of a file's bytes (at most
    /// [`molfile::MAX_FILE_BYTES`] + 1 of them), or why it cannot be
    /// scored.
    pub read: fn(bytes: &[u8]) -> Result<Record, String>,
}

/// Every structure format, the MOL file first.
pub const FORMATS: &[Format] = &[
    MOL,
    Format {
        name: "SD file (its first record)",
        extensions: &["sdf", "sd"],
        read: molfile::from_bytes,
    },
];

/// The MOL file (V2000 or V3000), the format a file of no known extension
/// is read as.
const MOL: Format = Format {
    name: "MOL file",
    extensions: &["mol"],
    read: molfile::from_bytes,
};

/// Every extension a structure file may carry, in the table's order.
pub fn extensions() -> Vec<&'static str> {
    (FORMATS.iter())
        .flat_map(|f| f.extensions.iter().copied())
        .collect()
}

/// What a gold folder or a run must hold, as messages say it:
/// `structure files (*.mol, *.sdf)`.
pub fn structure_files() -> String {
    let shown: Vec<String> = (FORMATS.iter())
        .filter_map(|f| f.extensions.first())
        .map(|e| format!("*.{e}"))
        .collect();
    format!("structure files ({})", shown.join(", "))
}

/// The format of the file at `path`, by its extension (any case); the MOL
/// file for a file named directly with another one.
pub fn format_of(path: &Path) -> &'static Format {
    let ext = crate::inputs::extension(path);
    (FORMATS.iter())
        .find(|f| f.extensions.contains(&ext.as_str()))
        .unwrap_or(&MOL)
}

/// The record of the structure file at `path`, read in its format; `Err`
/// holds the reason it cannot be scored (naming the path when the file
/// system cannot give its bytes).
pub fn read_file(path: &Path) -> Result<Record, String> {
    read_bytes(path, &molfile::read_bytes(path)?)
}

/// The record of `bytes`, the file at `path`, read in its format.
pub fn read_bytes(path: &Path, bytes: &[u8]) -> Result<Record, String> {
    (format_of(path).read)(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_gives_the_extensions_the_message_and_the_format() {
        assert_eq!(extensions(), ["mol", "sdf", "sd"]);
        assert_eq!(structure_files(), "structure files (*.mol, *.sdf)");
        assert_eq!(format_of(Path::new("a/B.SD")).extensions, ["sdf", "sd"]);
        assert_eq!(format_of(Path::new("a/b.mol")).name, "MOL file");
        assert_eq!(format_of(Path::new("a/b")).name, "MOL file");
    }
}
