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
    /// Warnings: (line, message).
    pub warnings: Vec<(usize, String)>,
    /// The chosen columns this table was read by (a chosen column it does
    /// not have is `None`: the usual headers were used).
    pub chosen: Columns,
}

/// The columns a CSV/TSV table is read by: a chosen header where the table
/// has that column, else the first of the usual headers it has.
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

/// The SMILES cell of an entry, trimmed: `None` when empty.
fn smiles_cell(cell: &str) -> Option<String> {
    let cell = cell.trim();
    (!cell.is_empty()).then(|| cell.to_string())
}

/// The physical line of a byte offset, counted from the text's start (the
/// CSV reader's own count skips blank lines); the offsets asked for grow,
/// so each newline is counted once.
struct Lines<'a> {
    text: &'a [u8],
    /// The offset counted up to, and the newlines before it.
    counted: usize,
    newlines: usize,
}

impl Lines<'_> {
    fn at(&mut self, byte: u64) -> usize {
        let mut end = (byte as usize).min(self.text.len());
        // A record's offset may stand on the blank lines before it.
        while matches!(self.text.get(end), Some(b'\n' | b'\r')) {
            end += 1;
        }
        if end < self.counted {
            (self.counted, self.newlines) = (0, 0);
        }
        let more = self.text.get(self.counted..end).unwrap_or_default();
        self.newlines += memchr::memchr_iter(b'\n', more).count();
        self.counted = end;
        1 + self.newlines
    }
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
                .push((number, format!("no name; named line-{number}")));
            format!("line-{number}")
        } else {
            bare_name(name)
        };
        table.entries.push(Entry {
            name,
            line: number,
            smiles: smiles_cell(smiles),
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
    // A chosen header where the table has it, the usual ones where not.
    let find = |chosen: &Option<String>, known: &[&str], what: &str| {
        let at = |name: &str| {
            headers
                .iter()
                .position(|h| h.eq_ignore_ascii_case(name.trim()))
        };
        if let Some(found) = chosen.as_deref().and_then(at) {
            return Ok((found, true));
        }
        let usual = known.iter().find_map(|k| at(k)).map(|found| (found, false));
        usual.ok_or_else(|| {
            let chosen = chosen
                .as_ref()
                .map_or(String::new(), |c| format!("no `{c}` and "));
            format!(
                "line 1: no {what} column: {chosen}none of {} (the header has: {})",
                known.join(", "),
                headers.join(", ")
            )
        })
    };
    let (name_at, chosen_name) = find(&columns.name, NAME_HEADERS, "name")?;
    let (smiles_at, chosen_smiles) = find(&columns.smiles, SMILES_HEADERS, "SMILES")?;
    let mut table = Table {
        chosen: Columns {
            name: columns.name.clone().filter(|_| chosen_name),
            smiles: columns.smiles.clone().filter(|_| chosen_smiles),
        },
        ..Table::default()
    };
    let mut lines = Lines {
        text: text.as_bytes(),
        counted: 0,
        newlines: 0,
    };
    for record in reader.records() {
        let record = record.map_err(|e| match e.position() {
            Some(p) => format!("line {}: {e}", lines.at(p.byte())),
            None => e.to_string(),
        })?;
        let line = record.position().map_or(0, |p| lines.at(p.byte()));
        if record.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        // A quote left open swallows the lines after it into one cell.
        if let Some(at) = record.iter().position(|c| c.contains(['\n', '\r'])) {
            return Err(format!(
                "line {line}: column {} holds a line break (a quote left open?)",
                at + 1
            ));
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
            smiles: smiles_cell(record.get(smiles_at).unwrap_or("")),
        });
    }
    Ok(table)
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
        assert_eq!(t.warnings, [(4, "no name; named line-4".to_string())]);
    }

    #[test]
    fn a_table_of_more_than_a_million_structures_is_refused() {
        let most = b"C x\n".repeat(MAX_ENTRIES);
        assert_eq!(read_smi(&most).map(|t| t.entries.len()), Ok(MAX_ENTRIES));
        let over = [&most[..], b"C y\n"].concat();
        let refused = "more than 1000000 structures".to_owned();
        assert_eq!(
            read_smi(&over).map(|t| t.entries.len()),
            Err(refused.clone())
        );
        let rows: String = (0..MAX_ENTRIES).map(|i| format!("s{i},C\n")).collect();
        let csv = format!("name,smiles\n{rows}");
        let read = read_csv(csv.as_bytes(), b',', &Columns::default());
        assert_eq!(read.map(|t| t.entries.len()), Ok(MAX_ENTRIES));
        let csv = format!("{csv}s,C\n");
        let read = read_csv(csv.as_bytes(), b',', &Columns::default());
        assert_eq!(read.map(|t| t.entries.len()), Err(refused));
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
            name: Some("key".into()),
            smiles: Some("GOLD".into()),
        };
        let t = read_csv(tsv, b'\t', &chosen).unwrap();
        assert_eq!(t.entries, [entry("a", 2, Some("CC"))]);
        // `key` is not there: the usual `file` is used, and said.
        let used = Columns {
            name: None,
            smiles: Some("GOLD".into()),
        };
        assert_eq!(t.chosen, used);
        let err = read_csv(b"x,y\n1,C\n", b',', &Columns::default()).unwrap_err();
        assert_eq!(
            err,
            "line 1: no name column: none of image_id, id, name, file_name, file, image \
             (the header has: x, y)"
        );
        let err = read_csv(b"id,y\n1,C\n", b',', &chosen).unwrap_err();
        assert_eq!(
            err,
            "line 1: no SMILES column: no `GOLD` and none of smiles, pred, prediction, smiles_pred \
             (the header has: id, y)"
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
        assert_eq!(
            read_csv(
                b"id,smiles,note\na,C,\"x\nb,CC,y\n",
                b',',
                &Columns::default()
            )
            .unwrap_err(),
            "line 2: column 3 holds a line break (a quote left open?)"
        );
        assert!(
            read_csv(&[0xff, b'a'], b',', &Columns::default())
                .unwrap_err()
                .starts_with("not UTF-8")
        );
    }
}
