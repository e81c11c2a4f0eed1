//! The OSRA SDF reader on arbitrary text: it must not panic, every
//! diagnostic names the file, and every `$$$$` record ends as exactly one
//! box or one error (plus at most one error for an unterminated last record;
//! at most two warnings: missing pages, no record at all).
#![no_main]

use clefeval::segmentation::boxes::BoxSet;
use clefeval::segmentation::sdf::read_text;
use libfuzzer_sys::fuzz_target;

const NAME: &str = "run/EP-1.sdf";

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut set = BoxSet::default();
    let diagnostics = read_text(NAME, "EP-1", &text, &mut set);
    let lines = text.lines().count();
    let records = text.lines().filter(|l| l.trim() == "$$$$").count();
    let mut errors = 0;
    for d in &diagnostics {
        assert_eq!(d.file, NAME, "{d:?}");
        if let Some(line) = d.line {
            assert!((1..=lines + 1).contains(&line), "line {line} of {lines}: {d:?}");
        }
        if d.is_error() {
            errors += 1;
        }
    }
    assert!(diagnostics.len() - errors <= 2, "{diagnostics:?}");
    let boxes = set.len();
    assert!(
        boxes + errors == records || boxes + errors == records + 1,
        "{boxes} boxes + {errors} errors from {records} records"
    );
    assert!(set.documents.keys().all(|d| d == "EP-1"));
    for doc in set.documents.values() {
        for (&page, entries) in &doc.pages {
            assert!(page >= 1);
            for e in entries {
                assert!(e.bbox.width > 0 && e.bbox.height > 0, "{e:?}");
            }
        }
    }
});
