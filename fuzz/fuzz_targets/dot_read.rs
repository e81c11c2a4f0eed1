//! The DOT reader on arbitrary bytes: it must not panic, and what it
//! read passes `flowchart_check::check`.
#![no_main]

#[path = "flowchart_check.rs"]
mod flowchart_check;

use clefeval::flowchart::{ParseOptions, dot};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let parsed = dot::read(data, "fuzz.dot", &ParseOptions::default());
    flowchart_check::check(&parsed, "fuzz.dot");
});
