//! The segmentation box CSV reader on arbitrary bytes: it must not panic,
//! every diagnostic names the file and a line that exists, every kept box is
//! a legal box (page from 1, non-empty) attributed to this file, and each
//! line (ended by LF, CRLF or a lone CR) yields at most one box or one
//! diagnostic.
#![no_main]

use clefeval::segmentation::boxes::BoxSet;
use clefeval::segmentation::csv::read_bytes;
use libfuzzer_sys::fuzz_target;

const NAME: &str = "run/EP-1.csv";

fuzz_target!(|data: &[u8]| {
    let mut set = BoxSet::default();
    let diagnostics = read_bytes(NAME, data, &mut set);
    let lines = data.split(|&b| b == b'\n').count();
    // The csv crate also ends a record at a lone CR.
    let records = data.split(|&b| b == b'\n' || b == b'\r').count();
    for d in &diagnostics {
        assert_eq!(d.file, NAME, "{d:?}");
        let line = d.line.expect("a CSV diagnostic has a line");
        assert!((1..=lines).contains(&line), "line {line} of {lines}: {d:?}");
    }
    assert_eq!(set.files, vec![NAME.to_string()]);
    let mut boxes = 0;
    for doc in set.documents.values() {
        for (&page, entries) in &doc.pages {
            assert!(page >= 1);
            for e in entries {
                assert!(e.bbox.width > 0 && e.bbox.height > 0, "{e:?}");
                assert_eq!(set.file_of(e.origin), NAME);
                boxes += 1;
            }
        }
    }
    assert_eq!(boxes, set.len());
    assert!(
        boxes + diagnostics.len() <= records,
        "{boxes} boxes + {} diagnostics from {records} lines",
        diagnostics.len()
    );
});
