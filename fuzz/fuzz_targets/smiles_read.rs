//! The SMILES reader (`recognition::smiles::read`) on arbitrary text: no
//! panic, no hang; a refusal names a character inside the SMILES (or none)
//! and says why; an accepted SMILES gives a connection table with at least
//! one atom, which the InChI library's input is built from.
#![no_main]

use clefeval::recognition::smiles;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match smiles::read(text) {
        Ok(molecule) => {
            let input = molecule.to_inchi_input();
            assert!(input.atom_count() >= 1);
            assert!(input.atom_count() <= smiles::parse::MAX_ATOMS);
        }
        Err(refusal) => {
            assert!(!refusal.message.is_empty());
            if let Some(p) = refusal.position {
                assert!(p >= 1 && p <= text.chars().count() + 1, "{refusal:?} in {text:?}");
            }
        }
    }
});
