//! The SMILES file and table readers (`recognition::smiles::table`) on
//! arbitrary bytes: no panic; every entry has a name and a line within the
//! file; a refusal says why; every warning names a line of the file.
#![no_main]

use clefeval::recognition::smiles::table::{Columns, Table, read_csv, read_smi};
use libfuzzer_sys::fuzz_target;

fn check(data: &[u8], read: Result<Table, String>) {
    let lines = data.iter().filter(|&&b| b == b'\n' || b == b'\r').count() + 1;
    match read {
        Ok(table) => {
            for e in &table.entries {
                assert!(!e.name.is_empty());
                assert!(e.line >= 1 && e.line <= lines, "line {} of {lines}", e.line);
                if let Some(s) = &e.smiles {
                    assert!(!s.is_empty() && s.trim() == s);
                }
            }
            for (line, message) in &table.warnings {
                assert!(*line >= 1 && *line <= lines && !message.is_empty());
            }
        }
        Err(reason) => assert!(!reason.is_empty()),
    }
}

fuzz_target!(|data: &[u8]| {
    check(data, read_smi(data));
    check(data, read_csv(data, b',', &Columns::default()));
    check(data, read_csv(data, b'\t', &Columns::default()));
});
