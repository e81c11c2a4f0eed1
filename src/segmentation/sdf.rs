//! OSRA's SDF output (`osra -c -e -f sdf page.tif`) as a submission. Each
//! record (ended by `$$$$`) gives one box through its data fields
//!
//! ```text
//! >  <Page>
//! 1
//!
//! >  <Surrounding_box>
//! 331x534-769x765
//! ```
//!
//! `x1xy1-x2xy2`, where (x2, y2) is the box's last ink pixel (inclusive): the
//! box is x = x1, y = y1, width = x2 − x1 + 1, height = y2 − y1 + 1. The
//! document id is the file stem. A record without `Page` (OSRA run without
//! `-e`) is taken as page 1, with one warning per file.

use super::boxes::{BBox, BoxSet, Origin};
use super::csv::{MAX_FILE_BYTES, whole_number};
use crate::diagnostics::{Diagnostic, FileDiagnostics, binary_data};
use std::path::Path;

/// Reads one SDF file into `set` under the document named by its stem.
/// Binary data is reported with one error naming the file and not read.
pub fn read_file(path: &Path, set: &mut BoxSet) -> Vec<Diagnostic> {
    let name = path.display().to_string();
    match crate::inputs::read_limited(path, MAX_FILE_BYTES) {
        Ok(bytes) => {
            if let Some(error) = binary_data(&name, &bytes, "an SDF file") {
                return vec![error];
            }
            let doc = crate::inputs::stem(path);
            set.touch(&doc);
            read_text(&name, &doc, &String::from_utf8_lossy(&bytes), set)
        }
        Err(e) => vec![Diagnostic::error(name, None, e)],
    }
}

/// The fields of one record that matter, with their value lines.
#[derive(Default)]
struct Record {
    /// Line of the record's first line.
    start: usize,
    page: Option<(usize, String)>,
    bbox: Option<(usize, String)>,
}

/// Reads SDF text (`name` is used in diagnostics) into `set` for `doc`. The
/// diagnostics are capped by [`crate::diagnostics::MAX_PER_FILE`].
pub fn read_text(name: &str, doc: &str, text: &str, set: &mut BoxSet) -> Vec<Diagnostic> {
    let file = set.add_file(name.to_string());
    let mut diagnostics = FileDiagnostics::new(name);
    let mut record = Record {
        start: 1,
        ..Record::default()
    };
    let mut pending: Option<String> = None; // data field whose value comes next
    let mut no_page = false;
    let mut records = 0usize;
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')));
    for (number, line) in lines.by_ref() {
        if line.trim() == "$$$$" {
            records += 1;
            let done = std::mem::replace(
                &mut record,
                Record {
                    start: number + 1,
                    ..Record::default()
                },
            );
            match finish(&done, &mut no_page) {
                Ok((page, bbox, line)) => set.push(doc, page, bbox, Origin::at(file, line)),
                Err((line, message)) => {
                    diagnostics.error(Some(line), format!("{message}; record skipped"));
                }
            }
            pending = None;
        } else if let Some(field) = pending.take() {
            let value = Some((number, line.trim().to_string()));
            match field.as_str() {
                "Page" => record.page = value,
                "Surrounding_box" => record.bbox = value,
                _ => {}
            }
        } else if line.starts_with('>') {
            pending = field_name(line);
        }
    }
    if !record_is_blank(&record) {
        diagnostics.error(
            Some(record.start),
            "last record has no $$$$ terminator; record skipped",
        );
    } else if records == 0 && !text.trim().is_empty() {
        diagnostics.warning(None, "no SDF record ($$$$) in this file: read as no boxes");
    }
    if no_page {
        diagnostics.warning(
            None,
            "records without a Page field are taken as page 1 (run osra with -e)",
        );
    }
    diagnostics.finish()
}

fn record_is_blank(record: &Record) -> bool {
    record.page.is_none() && record.bbox.is_none()
}

/// The name between `<` and `>` of a data header line `>  <Name>`.
fn field_name(line: &str) -> Option<String> {
    let from = line.find('<')? + 1;
    let to = from + line[from..].find('>')?;
    Some(line[from..to].to_string())
}

/// A record's page, box and the line of its box; or the line and what is
/// wrong.
type Finished = Result<(u32, BBox, usize), (usize, String)>;

/// The box of a finished record.
fn finish(record: &Record, no_page: &mut bool) -> Finished {
    let Some((line, text)) = &record.bbox else {
        return Err((
            record.start,
            "record has no Surrounding_box field (run osra with -c)".into(),
        ));
    };
    let bbox = parse_box(text).map_err(|e| (*line, e))?;
    let page = match &record.page {
        Some((line, text)) => match whole_number("Page", text) {
            Ok(0) => return Err((*line, "Page 0: pages are numbered from 1".into())),
            Ok(p) => p,
            Err(e) => return Err((*line, e)),
        },
        None => {
            *no_page = true;
            1
        }
    };
    Ok((page, bbox, *line))
}

/// `x1xy1-x2xy2` with inclusive (x2, y2) as a box.
pub fn parse_box(text: &str) -> Result<BBox, String> {
    let bad = || format!("Surrounding_box {text:?} is not x1xy1-x2xy2");
    let (a, b) = text.split_once('-').ok_or_else(bad)?;
    let corner = |s: &str| -> Result<(u32, u32), String> {
        let (x, y) = s.split_once('x').ok_or_else(bad)?;
        Ok((whole_number("x", x.trim())?, whole_number("y", y.trim())?))
    };
    let (x1, y1) = corner(a)?;
    let (x2, y2) = corner(b)?;
    if x2 < x1 || y2 < y1 {
        return Err(format!(
            "Surrounding_box {text:?} has its second corner before its first"
        ));
    }
    Ok(BBox {
        x: x1,
        y: y1,
        width: (x2 - x1).saturating_add(1),
        height: (y2 - y1).saturating_add(1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECORD: &str = "\n OpenBabel\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n";

    fn read(text: &str) -> (BoxSet, Vec<String>) {
        let mut set = BoxSet::default();
        let d = read_text("r/EP-1.sdf", "EP-1", text, &mut set);
        (set, d.iter().map(ToString::to_string).collect())
    }

    #[test]
    fn text_without_any_record_is_reported() {
        let (set, d) = read("\u{1}\u{7f}junk\nmore junk\n");
        assert!(set.is_empty());
        assert_eq!(
            d,
            ["r/EP-1.sdf: warning: no SDF record ($$$$) in this file: read as no boxes"]
        );
        // An empty file (OSRA found nothing) is not reported.
        assert_eq!(read("\n").1, Vec::<String>::new());
    }

    #[test]
    fn reads_osra_records_with_inclusive_corners() {
        let text = format!(
            "{RECORD}>  <Page>\n2\n\n>  <Surrounding_box>\n331x534-769x765\n\n$$$$\n{RECORD}>  <Surrounding_box>\r\n5x6-5x6\r\n\r\n$$$$\r\n"
        );
        let (set, d) = read(&text);
        assert_eq!(
            d,
            vec![
                "r/EP-1.sdf: warning: records without a Page field are taken as page 1 (run osra with -e)"
            ]
        );
        let doc = &set.documents["EP-1"];
        assert_eq!(
            doc.pages[&2][0].bbox,
            BBox {
                x: 331,
                y: 534,
                width: 439,
                height: 232
            }
        );
        assert_eq!(doc.pages[&2][0].origin.line, 10);
        assert_eq!(
            doc.pages[&1][0].bbox,
            BBox {
                x: 5,
                y: 6,
                width: 1,
                height: 1
            }
        );
    }

    #[test]
    fn bad_records_are_reported_and_skipped() {
        let text = format!(
            "{RECORD}>  <Page>\n1\n\n$$$$\n{RECORD}> <Surrounding_box>\n9x9-3x3\n\n$$$$\n{RECORD}> <Surrounding_box>\n1x2\n\n$$$$\n{RECORD}> <Page>\n0\n> <Surrounding_box>\n1x1-2x2\n$$$$\n> <Surrounding_box>\n1x1-2x2\n"
        );
        let (set, d) = read(&text);
        assert_eq!(set.len(), 0);
        assert_eq!(
            d,
            vec![
                "r/EP-1.sdf:1: error: record has no Surrounding_box field (run osra with -c); record skipped",
                "r/EP-1.sdf:16: error: Surrounding_box \"9x9-3x3\" has its second corner before its first; record skipped",
                "r/EP-1.sdf:25: error: Surrounding_box \"1x2\" is not x1xy1-x2xy2; record skipped",
                "r/EP-1.sdf:34: error: Page 0: pages are numbered from 1; record skipped",
                "r/EP-1.sdf:38: error: last record has no $$$$ terminator; record skipped",
            ]
        );
    }
}
