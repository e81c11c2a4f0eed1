//! The box CSV (docs/formats.md): `doc-id,page,x,y,width,height`, one box a line,
//! an optional header line, UTF-8 with or without BOM, LF or CRLF. Every bad
//! line is reported with its file and line and skipped; the rest is read.

use super::boxes::{BBox, BoxSet, Origin};
use crate::diagnostics::{Diagnostic, FileDiagnostics, binary_data, has_error};
use std::path::Path;

/// Largest box file read, CSV or SDF (256 MiB, about 10 million boxes of
/// CSV): a larger file is reported with an error naming it and not read.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// Reads one CSV file into `set`. A file that yields no box and no error
/// still makes its stem a known document (one file per document, with no
/// diagram in it); a file whose lines are all bad does not name a document.
/// Binary data is reported with one error naming the file and not read.
pub fn read_file(path: &Path, set: &mut BoxSet) -> Vec<Diagnostic> {
    let name = path.display().to_string();
    match crate::inputs::read_limited(path, MAX_FILE_BYTES) {
        Ok(bytes) => {
            if let Some(error) = binary_data(&name, &bytes, "a box CSV file") {
                return vec![error];
            }
            let before = set.len();
            let diagnostics = read_bytes(&name, &bytes, set);
            if set.len() == before && !has_error(&diagnostics) {
                set.touch(&crate::inputs::stem(path));
            }
            diagnostics
        }
        Err(e) => vec![Diagnostic::error(name, None, e)],
    }
}

/// Reads CSV text (`name` is used in diagnostics) into `set`. The
/// diagnostics are capped by [`crate::diagnostics::MAX_PER_FILE`].
pub fn read_bytes(name: &str, bytes: &[u8], set: &mut BoxSet) -> Vec<Diagnostic> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let file = set.add_file(name.to_string());
    let mut diagnostics = FileDiagnostics::new(name);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(bytes);
    let lines = LineIndex::new(bytes);
    let mut record = csv::ByteRecord::new();
    let mut first = true;
    loop {
        let line = lines.line_at(reader.position().byte());
        match reader.read_byte_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                diagnostics.error(Some(line), format!("unreadable line: {e}"));
                // The csv reader resumes after a bad record; stop if it cannot.
                if reader.is_done() {
                    break;
                }
                continue;
            }
        }
        let line = record.position().map_or(line, |p| lines.line_at(p.byte()));
        if record.iter().all(<[u8]>::is_empty) {
            continue;
        }
        let was_first = std::mem::replace(&mut first, false);
        match parse_record(&record) {
            Ok((doc, page, bbox)) => set.push(&doc, page, bbox, Origin::at(file, line)),
            Err(_) if was_first && is_documented_header(&record) => {}
            Err(_) if was_first && record.len() == 6 => diagnostics.warning(
                Some(line),
                "first line taken as a header (its numeric fields do not parse)",
            ),
            Err(message) => diagnostics.error(Some(line), format!("{message}; line skipped")),
        }
    }
    diagnostics.finish()
}

/// The documented header, `doc,page,x,y,width,height` or
/// `doc-id,page,x,y,width,height` (any case), is taken without a word.
fn is_documented_header(record: &csv::ByteRecord) -> bool {
    record.len() == FIELDS.len()
        && record
            .iter()
            .zip(FIELDS)
            .enumerate()
            .all(|(i, (got, want))| {
                got.eq_ignore_ascii_case(want.as_bytes())
                    || (i == 0 && got.eq_ignore_ascii_case(b"doc"))
            })
}

/// Line numbers of records. The `csv` crate's own line and byte positions
/// do not count blank lines and CRLF reliably (csv 1.4: a record's position
/// may point at the previous record's terminator), so a record's line is
/// taken as the first non-blank line starting at or after that position.
struct LineIndex {
    /// Byte offset and 1-based number of every non-blank line.
    starts: Vec<(u64, usize)>,
}

impl LineIndex {
    fn new(bytes: &[u8]) -> Self {
        let mut starts = Vec::new();
        let mut start = 0usize;
        for (number, line) in bytes.split(|&b| b == b'\n').enumerate() {
            if !line.iter().all(u8::is_ascii_whitespace) {
                starts.push((start as u64, number + 1));
            }
            start += line.len() + 1;
        }
        LineIndex { starts }
    }

    fn line_at(&self, byte: u64) -> usize {
        let i = self.starts.partition_point(|&(s, _)| s < byte);
        self.starts
            .get(i)
            .or(self.starts.last())
            .map_or(1, |&(_, n)| n)
    }
}

const FIELDS: [&str; 6] = ["doc-id", "page", "x", "y", "width", "height"];

/// One record as (document, page, box), or what is wrong with it.
pub fn parse_record(record: &csv::ByteRecord) -> Result<(String, u32, BBox), String> {
    if record.len() != 6 {
        return Err(format!(
            "expected 6 fields ({}), found {}",
            FIELDS.join(","),
            record.len()
        ));
    }
    let doc = String::from_utf8_lossy(record.get(0).unwrap_or_default()).into_owned();
    if doc.is_empty() {
        return Err("empty doc-id".into());
    }
    let mut values = [0u32; 5];
    for (i, (value, field)) in values.iter_mut().zip(FIELDS.iter().skip(1)).enumerate() {
        let text = String::from_utf8_lossy(record.get(i + 1).unwrap_or_default()).into_owned();
        *value = whole_number(field, &text)?;
    }
    let [page, x, y, width, height] = values;
    if page == 0 {
        return Err("page 0: pages are numbered from 1".into());
    }
    if width == 0 || height == 0 {
        return Err(format!("empty box (width {width}, height {height})"));
    }
    Ok((
        doc,
        page,
        BBox {
            x,
            y,
            width,
            height,
        },
    ))
}

/// A field as a whole non-negative number; `12.0` is accepted, `12.5` is not.
pub fn whole_number(field: &str, text: &str) -> Result<u32, String> {
    if let Ok(v) = text.parse::<u32>() {
        return Ok(v);
    }
    match text.parse::<f64>() {
        Ok(v) if v < 0.0 => Err(format!("{field} {text:?} is negative")),
        Ok(v) if v.fract() == 0.0 && v <= f64::from(u32::MAX) => Ok(v as u32),
        Ok(_) => Err(format!("{field} {text:?} is not a whole number of pixels")),
        Err(_) if text.is_empty() => Err(format!("{field} is missing")),
        Err(_) => Err(format!("{field} {text:?} is not a number")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segmentation::boxes::BBox;

    fn read(text: &str) -> (BoxSet, Vec<String>) {
        let mut set = BoxSet::default();
        let d = read_bytes("t.csv", text.as_bytes(), &mut set);
        (set, d.iter().map(ToString::to_string).collect())
    }

    #[test]
    fn reads_header_bom_crlf() {
        let (set, d) = read(
            "\u{feff}doc,page,x,y,w,h\r\nEP-1,2,10,20,30,40\r\n\r\n \r\nEP-1,2,1,2,3,4\r\n\n\nEP-1,3,1,2,3,4",
        );
        assert_eq!(
            d,
            vec![
                "t.csv:1: warning: first line taken as a header (its numeric fields do not parse)"
            ]
        );
        let boxes = &set.documents["EP-1"].pages[&2];
        assert_eq!(boxes.len(), 2);
        assert_eq!(
            boxes[0].bbox,
            BBox {
                x: 10,
                y: 20,
                width: 30,
                height: 40
            }
        );
        assert_eq!(boxes[0].origin.line, 2);
        assert_eq!(boxes[1].origin.line, 5);
        assert_eq!(set.documents["EP-1"].pages[&3][0].origin.line, 8);
    }

    #[test]
    fn reports_every_bad_line_and_keeps_the_rest() {
        let (set, d) = read(
            "A,1,0,0,5,5\nA,1,0,0\nA,x,0,0,5,5\nA,1,-3,0,5,5\nA,1,0,0,0,5\nA,0,0,0,5,5\n,1,0,0,5,5\nA,1,2.5,0,5,5\nA,1,2.0,0,5,5\n",
        );
        assert_eq!(
            d,
            vec![
                "t.csv:2: error: expected 6 fields (doc-id,page,x,y,width,height), found 4; line skipped",
                "t.csv:3: error: page \"x\" is not a number; line skipped",
                "t.csv:4: error: x \"-3\" is negative; line skipped",
                "t.csv:5: error: empty box (width 0, height 5); line skipped",
                "t.csv:6: error: page 0: pages are numbered from 1; line skipped",
                "t.csv:7: error: empty doc-id; line skipped",
                "t.csv:8: error: x \"2.5\" is not a whole number of pixels; line skipped",
            ]
        );
        assert_eq!(set.len(), 2);
    }

    #[test]
    fn a_bad_first_line_with_other_field_counts_is_an_error() {
        let (set, d) = read("garbage\nA,1,0,0,5,5\n");
        assert_eq!(d.len(), 1);
        assert!(d[0].starts_with("t.csv:1: error: expected 6 fields"));
        assert_eq!(set.len(), 1);
    }

    #[test]
    fn the_documented_header_is_taken_silently() {
        for header in [
            "doc,page,x,y,width,height",
            " DOC-ID , Page,x,y,Width,height",
        ] {
            let (set, d) = read(&format!("\n{header}\nA,1,0,0,5,5\n"));
            assert_eq!(d, Vec::<String>::new(), "{header}");
            assert_eq!(set.len(), 1);
        }
        let (_, d) = read("doc,page,x,y,w,h\nA,1,0,0,5,5\n");
        assert_eq!(
            d,
            vec![
                "t.csv:1: warning: first line taken as a header (its numeric fields do not parse)"
            ]
        );
    }

    #[test]
    fn diagnostics_are_capped_per_file() {
        let (set, d) = read(&"A,1,0,0,5,5,7\n".repeat(5000));
        assert_eq!(d.len(), crate::diagnostics::MAX_PER_FILE + 1);
        assert_eq!(
            d[999],
            "t.csv:1000: error: expected 6 fields (doc-id,page,x,y,width,height), found 7; line skipped"
        );
        assert_eq!(
            d[1000],
            "t.csv: error: 4000 more diagnostics not listed (errors: 4000, warnings: 0)"
        );
        assert_eq!(set.len(), 0);
    }
}
