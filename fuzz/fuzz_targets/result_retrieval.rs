//! A `prior-art` or `passage` result file read back (`merge`, `report`,
//! `compare`) on arbitrary bytes: the checks of `result_check.rs`, a file of another
//! task read as a `prior-art` result. Seeded with
//! that task's results.
#![no_main]

#[path = "result_check.rs"]
mod result_check;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| result_check::check(data, &["prior-art", "passage"]));
