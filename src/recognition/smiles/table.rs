//! Files of many structures written as SMILES (docs/recognition.md,
//! "SMILES files and tables"): a SMILES file (`.smi`, `.smiles`: the
//! SMILES, white space, its name) or a CSV/TSV table with a header, whose
//! name and SMILES columns are found by their headers or chosen. Each
//! entry keeps its line so that every message can name it.

use crate::diagnostics::binary_message;

/// One structure of a file: its name, the line it is on (1-based), and its
/// SMILES (`None`: the cell was empty, a submission with no structure).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub line: usize,
    pub smiles: Option<String>,
}

/// The entries of one file, in file order, and what was said about it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    pub entries: Vec<Entry>,
    /// Warnings, each naming its line (`line 4: …`).
    pub warnings: Vec<String>,
}

/// The columns a CSV/TSV table is read by; `None`: found by the header.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Columns {
    pub name: Option<String>,
    pub smiles: Option<String>,
}

/// Headers that name the structure's name, in the order they are looked
/// for (case-folded, trimmed).
pub const NAME_HEADERS: &[&str] = &["image_id", "id", "name", "file_name", "file", "image"];
/// Headers that name the SMILES column.
pub const SMILES_HEADERS: &[&str] = &["smiles", "pred", "prediction", "smiles_pred"];
/// Extensions a name loses (an image or structure file named as the name).
const NAME_EXTENSIONS: &[&str] = &[
    ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".gif", ".bmp", ".mol", ".sdf",
];
/// The most structures one file may hold.
pub const MAX_ENTRIES: usize = 1_000_000;
/// The longest SMILES read (longer ones are refused with their line).
pub const MAX_SMILES_CHARS: usize = 100_000;

/// `name` without an image or structure extension (any case).
pub fn bare_name(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    match NAME_EXTENSIONS.iter().find(|e| lower.ends_with(*e)) {
        Some(e) if name.len() > e.len() => {
            name.get(..name.len() - e.len()).unwrap_or(name).to_string()
        }
        _ => name.to_string(),
    }
}

/// The text of a file, its byte order mark removed; the error when it is
/// binary data or not UTF-8, or is a MOL/SD file named as a table.
fn text<'a>(bytes: &'a [u8], kind: &str) -> Result<&'a str, String> {
    if bytes.contains(&0) {
        return Err(binary_message(kind));
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|e| format!("not UTF-8 text (byte {}), not {kind}", e.valid_up_to() + 1))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.contains("M  END") && (text.contains("V2000") || text.contains("V3000")) {
        return Err(format!("a MOL or SD file, not {kind}"));
    }
    Ok(text)
}

/// The SMILES cell of an entry: `None` when empty; the error when it holds
/// white space or is too long.
fn smiles_cell(cell: &str, line: usize) -> Result<Option<String>, String> {
    let cell = cell.trim();
    if cell.is_empty() {
        return Ok(None);
    }
    if cell.chars().count() > MAX_SMILES_CHARS {
        return Err(format!(
            "line {line}: a SMILES longer than {MAX_SMILES_CHARS} characters"
        ));
    }
    Ok(Some(cell.to_string()))
}

/// A SMILES file: per line the SMILES, then white space and the name (the
/// rest of the line, trimmed); blank lines skipped; a line without a name
/// is named `line-N` with a warning.
pub fn read_smi(bytes: &[u8]) -> Result<Table, String> {
    let text = text(bytes, "a SMILES file")?;
    let mut table = Table::default();
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if table.entries.len() >= MAX_ENTRIES {
            return Err(format!("more than {MAX_ENTRIES} structures"));
        }
        let (smiles, name) = match line.split_once(char::is_whitespace) {
            Some((s, n)) => (s, n.trim()),
            None => (line, ""),
        };
        let name = if name.is_empty() {
            table
                .warnings
                .push(format!("line {number}: no name; named line-{number}"));
            format!("line-{number}")
        } else {
            bare_name(name)
        };
        table.entries.push(Entry {
            name,
            line: number,
            smiles: smiles_cell(smiles, number)?,
        });
    }
    Ok(table)
}

/// A CSV (`delimiter` `,`) or TSV (`\t`) table with a header row.
pub fn read_csv(bytes: &[u8], delimiter: u8, columns: &Columns) -> Result<Table, String> {
    let kind = if delimiter == b'\t' {
        "a TSV table"
    } else {
        "a CSV table"
    };
    let text = text(bytes, kind)?;
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .has_headers(true)
        .from_reader(text.as_bytes());
    let headers: Vec<String> = reader
        .headers()
        .map_err(|e| format!("line 1: {e}"))?
        .iter()
        .map(|h| h.trim().to_string())
        .collect();
    let find = |chosen: &Option<String>, known: &[&str], what: &str| -> Result<usize, String> {
        let shown = headers.join(", ");
        match chosen {
            Some(c) => headers
                .iter()
                .position(|h| h.eq_ignore_ascii_case(c.trim()))
                .ok_or_else(|| format!("line 1: no column `{c}` (the header has: {shown})")),
            None => known
                .iter()
                .find_map(|k| headers.iter().position(|h| h.eq_ignore_ascii_case(k)))
                .ok_or_else(|| {
                    format!(
                        "line 1: no {what} column: none of {} (the header has: {shown})",
                        known.join(", ")
                    )
                }),
        }
    };
    let name_at = find(&columns.name, NAME_HEADERS, "name")?;
    let smiles_at = find(&columns.smiles, SMILES_HEADERS, "SMILES")?;
    let mut table = Table::default();
    for record in reader.records() {
        // The physical line, counted from the byte offset (the reader's own
        // count skips blank lines).
        let line_at = |byte: u64| {
            let mut end = (byte as usize).min(text.len());
            // A record's offset may stand on the blank lines before it.
            while matches!(text.as_bytes().get(end), Some(b'\n' | b'\r')) {
                end += 1;
            }
            1 + memchr::memchr_iter(b'\n', text.as_bytes().get(..end).unwrap_or_default()).count()
        };
        let record = record.map_err(|e| match e.position() {
            Some(p) => format!("line {}: {e}", line_at(p.byte())),
            None => e.to_string(),
        })?;
        let line = record.position().map_or(0, |p| line_at(p.byte()));
        if record.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        if table.entries.len() >= MAX_ENTRIES {
            return Err(format!("more than {MAX_ENTRIES} structures"));
        }
        let name = record.get(name_at).unwrap_or("").trim();
        if name.is_empty() {
            return Err(format!("line {line}: no name in column {}", name_at + 1));
        }
        table.entries.push(Entry {
            name: bare_name(name),
            line,
            smiles: smiles_cell(record.get(smiles_at).unwrap_or(""), line)?,
        });
    }
    Ok(table)
}

/// Names given twice in one file. In a gold file the error naming both
/// lines; in a run the first is kept and each repeat is dropped with a
/// warning naming its line.
pub fn repeats(table: &mut Table, gold: bool) -> Result<(), String> {
    let mut first: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut kept = Vec::with_capacity(table.entries.len());
    for entry in std::mem::take(&mut table.entries) {
        match first.get(&entry.name) {
            Some(&line) if gold => {
                return Err(format!(
                    "the name `{}` is on line {line} and again on line {}",
                    entry.name, entry.line
                ));
            }
            Some(&line) => table.warnings.push(format!(
                "line {}: `{}` again (first on line {line}); only the first is scored",
                entry.line, entry.name
            )),
            None => {
                first.insert(entry.name.clone(), entry.line);
                kept.push(entry);
            }
        }
    }
    table.entries = kept;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, line: usize, smiles: Option<&str>) -> Entry {
        Entry {
            name: name.into(),
            line,
            smiles: smiles.map(Into::into),
        }
    }

    #[test]
    fn a_smiles_file_gives_names_lines_and_warnings() {
        let t =
            read_smi(b"\xef\xbb\xbfCCO ethanol\r\n\r\nc1ccccc1\tbenzene ring.png\nC\n").unwrap();
        assert_eq!(
            t.entries,
            [
                entry("ethanol", 1, Some("CCO")),
                entry("benzene ring", 3, Some("c1ccccc1")),
                entry("line-4", 4, Some("C")),
            ]
        );
        assert_eq!(t.warnings, ["line 4: no name; named line-4"]);
    }

    #[test]
    fn a_table_finds_its_columns_by_header_or_by_choice() {
        let csv = b"Image_ID , SMILES,score\nUS1.png,CCO,0.9\nUS2.TIF,,0.1\n\nUS3,\" C \",1\n";
        let t = read_csv(csv, b',', &Columns::default()).unwrap();
        assert_eq!(
            t.entries,
            [
                entry("US1", 2, Some("CCO")),
                entry("US2", 3, None),
                entry("US3", 5, Some("C")),
            ]
        );
        let tsv = b"file\tpred\tgold\na.mol\tC\tCC\n";
        let chosen = Columns {
            name: None,
            smiles: Some("GOLD".into()),
        };
        assert_eq!(
            read_csv(tsv, b'\t', &chosen).unwrap().entries,
            [entry("a", 2, Some("CC"))]
        );
        let err = read_csv(b"x,y\n1,C\n", b',', &Columns::default()).unwrap_err();
        assert_eq!(
            err,
            "line 1: no name column: none of image_id, id, name, file_name, file, image \
             (the header has: x, y)"
        );
    }

    #[test]
    fn repeated_names_stop_a_gold_file_and_are_warned_of_in_a_run() {
        let mut t = read_smi(b"C a\nCC b\nCCC a\n").unwrap();
        let mut gold = t.clone();
        assert_eq!(
            repeats(&mut gold, true).unwrap_err(),
            "the name `a` is on line 1 and again on line 3"
        );
        repeats(&mut t, false).unwrap();
        assert_eq!(
            t.entries,
            [entry("a", 1, Some("C")), entry("b", 2, Some("CC"))]
        );
        assert_eq!(
            t.warnings,
            ["line 3: `a` again (first on line 1); only the first is scored"]
        );
    }

    #[test]
    fn files_of_another_kind_are_named_as_such() {
        assert_eq!(
            read_smi(b"C\0").unwrap_err(),
            binary_message("a SMILES file")
        );
        let mol = b"x\n  RDKit\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n";
        assert_eq!(
            read_smi(mol).unwrap_err(),
            "a MOL or SD file, not a SMILES file"
        );
        assert!(
            read_csv(&[0xff, b'a'], b',', &Columns::default())
                .unwrap_err()
                .starts_with("not UTF-8")
        );
    }
}
