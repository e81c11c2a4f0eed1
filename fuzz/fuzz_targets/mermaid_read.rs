//! The Mermaid reader on arbitrary bytes: it must not panic, and what it
//! read passes `flowchart_check::check`.
#![no_main]

#[path = "flowchart_check.rs"]
mod flowchart_check;

use clefeval::flowchart::{ParseOptions, mermaid};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let parsed = mermaid::read(data, "fuzz.mmd", &ParseOptions::default());
    flowchart_check::check(&parsed, "fuzz.mmd");
});
