//! A result file read back (`merge`, `report`, `compare`) on arbitrary
//! bytes, of any task: the checks of `result_check.rs`. The seeds are
//! every task's results; the `result_<task>` targets hold one task each.
#![no_main]

#[path = "result_check.rs"]
mod result_check;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| result_check::check(data, &[]));
