//! The C API of clefeval (`libclefeval.so`, `libclefeval.a`, header
//! `include/clefeval.h`; docs/c-api.md): the library's own scoring behind
//! `extern "C"` functions, for recognizers written in C or C++.
//!
//! - [`status`]: the status codes, the thread's last error, the guard that
//!   keeps every panic on this side of the boundary, C strings in and out;
//! - [`evaluate`]: the generic entry, any task asked for as JSON, the
//!   result's JSON back;
//! - [`flowchart`]: one flowchart pair from two texts, at the chosen levels
//!   with every scoring switch;
//! - [`recognition`]: the outcome of two MOL texts with both InChIs, in this
//!   process under a lock or in worker processes.
//!
//! Every function checks its pointers (a null pointer is an error, never a
//! crash), reads text as UTF-8 (anything else is an error naming the line),
//! and returns a [`ClefevalStatus`]; what it allocates has a free function.
//! The header is generated from these files by cbindgen
//! (`native/cbindgen.toml`); a test fails when the committed one differs.

// Input from C must never make the library panic: the guard catches what
// slips through, but the code itself has no unwrap, expect or indexing.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

pub mod evaluate;
pub mod flowchart;
pub mod recognition;
pub mod status;

pub use flowchart::{
    ClefevalCutBy, ClefevalFlowchartOptions, ClefevalFlowchartScore, ClefevalLevelScore,
    ClefevalNodePair,
};
pub use recognition::{ClefevalOutcome, ClefevalRecognition};
pub use status::ClefevalStatus;

use std::ffi::{CString, c_char};
use std::sync::OnceLock;

/// The library's version, e.g. `"0.1.0"` (the `version` field of the JSON
/// results): a static string, never freed.
#[unsafe(no_mangle)]
pub extern "C" fn clefeval_version() -> *const c_char {
    static VERSION: OnceLock<CString> = OnceLock::new();
    VERSION
        .get_or_init(|| status::c_string(engine::report::VERSION))
        .as_ptr()
}
