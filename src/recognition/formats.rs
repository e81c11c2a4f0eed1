//! The structure file formats, registered in one table ([`FORMATS`]):
//! each a name, the extensions its files carry and a reader — of a file
//! that is one structure (MOL, SD) or of a file of many named structures
//! (SMILES files and tables). Every entry point reads structure files
//! through this table — folders are listed for every format's extensions
//! ([`extensions`]), the messages name the files a side must hold from it
//! ([`structure_files`]) and a file is read by the format of its extension
//! ([`format_of`]) — so a new format is one reader module and one entry
//! here.

use super::molfile::{self, Record};
use super::smiles::table::{self, Columns, Table};
use std::path::Path;

/// A structure file format.
pub struct Format {
    /// The name the docs and messages use.
    pub name: &'static str,
    /// The extensions of its files, lowercase, without the dot; the first
    /// is the one messages show.
    pub extensions: &'static [&'static str],
    pub reader: Reader,
}

/// How a format's file is read; each reader takes at most
/// [`molfile::MAX_FILE_BYTES`] + 1 bytes of the file.
#[derive(Clone, Copy)]
pub enum Reader {
    /// A file that is one structure, named by the file's stem: its record,
    /// or why it cannot be scored.
    One(fn(bytes: &[u8]) -> Result<Record, String>),
    /// A file of named structures written as SMILES, read by the columns
    /// chosen (tables); the error is why the whole file cannot be read.
    Many(fn(bytes: &[u8], columns: &Columns) -> Result<Table, String>),
}

/// Every structure format, the MOL file first.
pub const FORMATS: &[Format] = &[
    MOL,
    Format {
        name: "SD file (its first record)",
        extensions: &["sdf", "sd"],
        reader: Reader::One(molfile::from_bytes),
    },
    Format {
        name: "SMILES file",
        extensions: &["smi", "smiles"],
        reader: Reader::Many(smiles_file),
    },
    Format {
        name: "CSV table of SMILES",
        extensions: &["csv"],
        reader: Reader::Many(csv_table),
    },
    Format {
        name: "TSV table of SMILES",
        extensions: &["tsv"],
        reader: Reader::Many(tsv_table),
    },
];

/// The MOL file (V2000 or V3000), the format a file of no known extension
/// is read as.
const MOL: Format = Format {
    name: "MOL file",
    extensions: &["mol"],
    reader: Reader::One(molfile::from_bytes),
};

fn smiles_file(bytes: &[u8], _: &Columns) -> Result<Table, String> {
    table::read_smi(bytes)
}

fn csv_table(bytes: &[u8], columns: &Columns) -> Result<Table, String> {
    table::read_csv(bytes, b',', columns)
}

fn tsv_table(bytes: &[u8], columns: &Columns) -> Result<Table, String> {
    table::read_csv(bytes, b'\t', columns)
}

/// Every extension a structure file may carry, in the table's order.
pub fn extensions() -> Vec<&'static str> {
    (FORMATS.iter())
        .flat_map(|f| f.extensions.iter().copied())
        .collect()
}

/// What a gold folder or a run must hold, as messages say it:
/// `structure files (*.mol, *.sdf, …)`.
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

/// The record of the file at `path`, a file of one structure, read in its
/// format; `Err` holds the reason it cannot be scored (naming the path
/// when the file system cannot give its bytes).
pub fn read_file(path: &Path) -> Result<Record, String> {
    read_bytes(path, &molfile::read_bytes(path)?)
}

/// The record of `bytes`, the file at `path`, read in its format (a file
/// of many structures is not one record: the error says so).
pub fn read_bytes(path: &Path, bytes: &[u8]) -> Result<Record, String> {
    let format = format_of(path);
    match format.reader {
        Reader::One(read) => read(bytes),
        Reader::Many(_) => Err(format!("a {}, not one structure", format.name)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_gives_the_extensions_the_message_and_the_format() {
        assert_eq!(
            extensions(),
            ["mol", "sdf", "sd", "smi", "smiles", "csv", "tsv"]
        );
        assert_eq!(
            structure_files(),
            "structure files (*.mol, *.sdf, *.smi, *.csv, *.tsv)"
        );
        assert_eq!(format_of(Path::new("a/B.SD")).extensions, ["sdf", "sd"]);
        assert_eq!(format_of(Path::new("a/b.mol")).name, "MOL file");
        assert_eq!(format_of(Path::new("a/b")).name, "MOL file");
        assert_eq!(format_of(Path::new("a/b.SMILES")).name, "SMILES file");
        assert!(matches!(
            format_of(Path::new("p.tsv")).reader,
            Reader::Many(_)
        ));
        assert_eq!(
            read_bytes(Path::new("p.csv"), b"id,smiles\n").unwrap_err(),
            "a CSV table of SMILES, not one structure"
        );
    }
}
