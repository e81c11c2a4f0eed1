//! The box file formats, registered in one table ([`FORMATS`]): each a
//! name, the extensions its files carry and a reader that adds a file's
//! boxes to a [`BoxSet`] with the file's diagnostics. Every entry point
//! reads box files through this table — folders are listed for every
//! format's extensions ([`extensions`]) and a file is read by the format
//! of its extension ([`read_file`]) — so a new format is one reader module
//! and one line here.

use super::boxes::BoxSet;
pub use super::coco::Context;
use super::{coco, csv, sdf};
use crate::diagnostics::Diagnostic;
use std::path::Path;

/// A box file format.
pub struct Format {
    /// The name the docs and messages use.
    pub name: &'static str,
    /// The extensions of its files, lowercase, without the dot.
    pub extensions: &'static [&'static str],
    /// Adds the boxes of the file at `path` to the set; its diagnostics.
    /// The context carries what a file read earlier tells a later one
    /// (the pages of COCO images).
    pub read: fn(path: &Path, set: &mut BoxSet, context: &mut Context) -> Vec<Diagnostic>,
}

/// Every box format, the CLEF-IP box CSV first.
pub const FORMATS: &[Format] = &[
    CSV,
    Format {
        name: "OSRA SDF",
        extensions: &["sdf", "sd"],
        read: |path, set, _| sdf::read_file(path, set),
    },
    Format {
        name: "COCO JSON",
        extensions: &["json"],
        read: coco::read_file,
    },
];

/// Every extension a box file may carry, in the table's order.
pub fn extensions() -> Vec<&'static str> {
    FORMATS
        .iter()
        .flat_map(|f| f.extensions.iter().copied())
        .collect()
}

/// The format of the file at `path`, by its extension (any case); the
/// first format (the CSV) for a file named directly with another one.
pub fn format_of(path: &Path) -> &'static Format {
    let ext = crate::inputs::extension(path);
    (FORMATS.iter())
        .find(|f| f.extensions.contains(&ext.as_str()))
        .unwrap_or(&CSV)
}

/// The box CSV, the format a file of no known extension is read as.
const CSV: Format = Format {
    name: "box CSV",
    extensions: &["csv"],
    read: |path, set, _| csv::read_file(path, set),
};

/// Adds the boxes of the file at `path`, read in its format, to `set`.
pub fn read_file(path: &Path, set: &mut BoxSet, context: &mut Context) -> Vec<Diagnostic> {
    (format_of(path).read)(path, set, context)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_read_by_the_format_of_its_extension() {
        assert_eq!(extensions(), ["csv", "sdf", "sd", "json"]);
        assert_eq!(format_of(Path::new("a/gt.JSON")).name, "COCO JSON");
        assert_eq!(format_of(Path::new("a/run.SDF")).name, "OSRA SDF");
        assert_eq!(format_of(Path::new("a/run.sd")).name, "OSRA SDF");
        assert_eq!(format_of(Path::new("a/run.csv")).name, "box CSV");
        assert_eq!(format_of(Path::new("a/run.tsv")).name, "box CSV");
    }
}
