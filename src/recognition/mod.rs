//! Chemical structure recognition (docs/recognition.md): MOL files to Standard InChI in
//! isolated worker processes, outcomes per gold structure, the review page.
//!
//! - [`molfile`]: bounded reading and checking of V2000/V3000/SDF files,
//!   atoms and bonds for drawing;
//! - [`inchi`]: the IUPAC InChI library, in-process (used by workers);
//! - [`worker`]: the worker protocol and the pool of worker processes;
//! - [`outcome`]: match, stereo, formula, wrong, unreadable, missing, manual;
//! - [`formats`]: the table of structure file formats and their readers;
//! - [`listing`]: the named structures of a side and their pairing;
//! - [`smiles`]: SMILES read into the InChI library's connection table;
//! - [`mod@evaluate`]: one conversion batch per chunk, results per run;
//! - [`report`]: the JSON value, the ranking table and CSV;
//! - [`settings`]: the settings as given, checked in one place;
//! - [`html`]: the self-contained HTML page with the visual review;
//! - [`compare`]: the rule of `clefeval compare` for recognition results;
//! - [`check`]: a result file's outcomes and summaries made again.

pub mod check;
pub mod compare;
pub mod demo;
pub mod evaluate;
pub mod formats;
pub mod html;
pub mod inchi;
pub mod layers;
pub mod listing;
pub mod molfile;
pub mod outcome;
pub mod report;
pub mod settings;
pub mod smiles;
pub mod worker;

pub use evaluate::{RunResult, Structure, evaluate};
pub use outcome::{Outcome, Summary};
pub use worker::{Pool, WorkerCommand};
