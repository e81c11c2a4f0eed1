//! The MOL pre-checks before InChI (`recognition::molfile::from_bytes`) on
//! arbitrary bytes: no panic; an accepted record has atoms, bonds that name
//! existing atoms, no NUL byte and and reading its text again
//! gives the same molecule; a refusal is a non-empty reason.
#![no_main]

use clefeval::recognition::molfile::{MAX_FILE_BYTES, from_bytes, parse, refusal};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let data = &data[..data.len().min(MAX_FILE_BYTES + 1)];
    match from_bytes(data) {
        Ok(record) => {
            let m = &record.molecule;
            assert!(!m.atoms.is_empty());
            for b in &m.bonds {
                assert!(b.from < m.atoms.len() && b.to < m.atoms.len(), "{b:?}");
            }
            assert!(!record.text.contains('\0'));
            assert_eq!(parse(&record.text).as_ref(), Ok(m));
            if let Some(reason) = refusal(m) {
                assert!(!reason.is_empty());
            }
        }
        Err(reason) => assert!(!reason.is_empty()),
    }
});
