//! The recognition outcome of two MOL texts (docs/recognition.md): each
//! text checked as the command line checks a structure file, converted to
//! its Standard InChI, and the pair classified (match, stereo, formula,
//! wrong, unreadable, manual) with both InChIs.
//!
//! The IUPAC InChI library is not thread-safe and may crash or loop on
//! malformed input. [`clefeval_recognition_outcome`] calls it in the
//! caller's process under one global lock: calls from several threads are
//! safe (they take turns), but a crash of the library ends the caller's
//! process. [`clefeval_recognition_outcome_isolated`] runs the conversions
//! in `clefeval inchi-worker` child processes, as the command line does: a
//! crash or a hang costs that structure only (it is `unreadable` or
//! `manual` with the reason), at the price of starting a process per call
//! and needing the `clefeval` binary.

use crate::status::{ClefevalStatus, Failure, free_string, guard, into_raw, not_null, text};
use engine::recognition::inchi::{self, Conversion};
use engine::recognition::molfile;
use engine::recognition::outcome::{Outcome, classify};
use engine::recognition::settings::{DEFAULT_TIMEOUT_SECONDS, Requested};
use engine::recognition::{Pool, WorkerCommand};
use std::ffi::c_char;
use std::path::PathBuf;
use std::ptr;
use std::sync::{Mutex, PoisonError};

/// What became of the gold structure (docs/recognition.md).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClefevalOutcome {
    /// Standard InChI strings equal.
    Match = 0,
    /// Equal once the stereo layers (`/b /t /m /s`) are dropped.
    Stereo = 1,
    /// Same formula layer, different structure.
    Formula = 2,
    /// Different formula.
    Wrong = 3,
    /// The submitted text yields no InChI.
    Unreadable = 4,
    /// No submission (never given by this API: both texts are required).
    Missing = 5,
    /// The gold text yields no InChI: left to visual review.
    Manual = 6,
}

/// The outcome of one pair of MOL texts. Filled by
/// `clefeval_recognition_outcome`; free its strings with
/// `clefeval_recognition_free`.
#[repr(C)]
#[derive(Debug)]
pub struct ClefevalRecognition {
    pub outcome: ClefevalOutcome,
    /// The gold Standard InChI (`InChI=1S/...`), or NULL when it has none.
    pub gold_inchi: *mut c_char,
    /// The submitted Standard InChI, or NULL when it has none.
    pub run_inchi: *mut c_char,
    /// Why there is no InChI: the submission's for `unreadable`, the gold's
    /// for `manual` (`line 4: ...`, or the InChI library's message);
    /// otherwise NULL.
    pub reason: *mut c_char,
    /// Warnings of the reading and of the InChI library, gold side, or NULL.
    pub gold_warning: *mut c_char,
    /// Warnings of the reading and of the InChI library, submitted side, or
    /// NULL.
    pub run_warning: *mut c_char,
}

/// One InChI library call at a time in this process: it is not thread-safe.
static INCHI: Mutex<()> = Mutex::new(());

/// Classifies the submitted MOL text `run` against the gold MOL text `gold`
/// (both NUL-terminated UTF-8; V2000, V3000 or the first record of an SD
/// file) into `*out`, converting both with the InChI library in this
/// process.
///
/// NOT CRASH-ISOLATED: the library is called in the caller's process, under
/// a global lock (calls from several threads take turns). A structure that
/// crashes or hangs the library crashes or hangs the caller; use
/// `clefeval_recognition_outcome_isolated` for untrusted input. A text that
/// is no valid MOL record is not a failure: it is `unreadable` (or
/// `manual` on the gold side) with the reason. On failure `*out` is left
/// empty (outcome `CLEFEVAL_OUTCOME_MISSING`, NULL strings).
///
/// # Safety
/// `gold` and `run` are null or NUL-terminated strings; `out` is null or
/// points to writable memory for a `ClefevalRecognition`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn clefeval_recognition_outcome(
    gold: *const c_char,
    run: *const c_char,
    out: *mut ClefevalRecognition,
) -> ClefevalStatus {
    guard(|| {
        // SAFETY: passed on under the same contract.
        let (gold, run) = unsafe { inputs(gold, run, out)? };
        let convert = |text: &str| {
            let _turn = INCHI.lock().unwrap_or_else(PoisonError::into_inner);
            inchi::convert(text)
        };
        let result = outcome(gold, run, |texts| {
            Ok(texts.iter().map(|t| convert(t)).collect())
        })?;
        // SAFETY: checked by `inputs`.
        unsafe { ptr::write(out, result) };
        Ok(())
    })
}

/// As `clefeval_recognition_outcome`, with the conversions in `clefeval
/// inchi-worker` child processes of the binary at `program` (a path, or a
/// name looked up in `PATH`), each allowed `timeout_seconds` (0: the
/// command line's default, 10 s). Crash-isolated: a structure that crashes
/// or hangs the library gets the reason (`unreadable`, or `manual` on the
/// gold side) and the caller goes on. Fails with
/// `CLEFEVAL_STATUS_WORKER_FAILED` when no worker process can be started.
///
/// # Safety
/// `gold`, `run` and `program` are null or NUL-terminated strings; `out` is
/// null or points to writable memory for a `ClefevalRecognition`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn clefeval_recognition_outcome_isolated(
    gold: *const c_char,
    run: *const c_char,
    program: *const c_char,
    timeout_seconds: f64,
    out: *mut ClefevalRecognition,
) -> ClefevalStatus {
    guard(|| {
        // SAFETY: passed on under the same contract.
        let (gold, run) = unsafe { inputs(gold, run, out)? };
        // SAFETY: null or NUL-terminated by the caller's contract.
        let program = unsafe { text(program, "program")? };
        let given = Requested {
            timeout: if timeout_seconds == 0.0 {
                DEFAULT_TIMEOUT_SECONDS
            } else {
                timeout_seconds
            },
            ..Requested::default()
        };
        let timeout = (given.check())
            .map_err(|e| Failure::new(ClefevalStatus::InvalidOption, e.to_string()))?;
        let pool = Pool {
            command: WorkerCommand::clefeval(PathBuf::from(program)),
            jobs: 1,
            timeout,
        };
        let result = outcome(gold, run, |texts| {
            pool.convert_all(texts, &|| ()).map_err(|e| {
                Failure::new(
                    ClefevalStatus::WorkerFailed,
                    format!("cannot start the InChI worker {program}: {e}"),
                )
            })
        })?;
        // SAFETY: checked by `inputs`.
        unsafe { ptr::write(out, result) };
        Ok(())
    })
}

/// Frees the strings of `*result` and sets them to NULL. NULL, or a result
/// freed already, is ignored.
///
/// # Safety
/// `result` is null or points to a `ClefevalRecognition` filled by a
/// `clefeval_recognition_*` function (or freed by this function since).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn clefeval_recognition_free(result: *mut ClefevalRecognition) {
    // SAFETY: null or a valid result by the caller's contract.
    let Some(result) = (unsafe { result.as_mut() }) else {
        return;
    };
    for slot in [
        &mut result.gold_inchi,
        &mut result.run_inchi,
        &mut result.reason,
        &mut result.gold_warning,
        &mut result.run_warning,
    ] {
        // SAFETY: each was made by `into_raw` or is null.
        unsafe { free_string(slot) };
    }
}

impl ClefevalRecognition {
    fn empty() -> Self {
        ClefevalRecognition {
            outcome: ClefevalOutcome::Missing,
            gold_inchi: ptr::null_mut(),
            run_inchi: ptr::null_mut(),
            reason: ptr::null_mut(),
            gold_warning: ptr::null_mut(),
            run_warning: ptr::null_mut(),
        }
    }
}

/// Checks `out` (and empties it) and reads the two texts.
///
/// # Safety
/// As the functions that call it.
unsafe fn inputs<'a>(
    gold: *const c_char,
    run: *const c_char,
    out: *mut ClefevalRecognition,
) -> Result<(&'a str, &'a str), Failure> {
    not_null(out, "out")?;
    // SAFETY: not null; writable by the caller's contract.
    unsafe { ptr::write(out, ClefevalRecognition::empty()) };
    // SAFETY: null or NUL-terminated by the caller's contract.
    unsafe { Ok((text(gold, "gold")?, text(run, "run")?)) }
}

/// One side read and checked: its conversion when known without the
/// library (the reason there is none), else the text to convert; and the
/// notes of the reading.
struct Side {
    refused: Option<String>,
    text: String,
    notes: Vec<String>,
}

impl Side {
    fn read(text: &str) -> Side {
        match molfile::from_bytes(text.as_bytes()) {
            Err(reason) => Side {
                refused: Some(reason),
                text: String::new(),
                notes: Vec::new(),
            },
            Ok(record) => Side {
                refused: molfile::refusal(&record.molecule),
                text: record.text,
                notes: record.notes,
            },
        }
    }

    /// The reading notes and the library's warning, joined.
    fn warning(&self, conversion: &Conversion) -> Option<String> {
        let mut parts: Vec<&str> = self.notes.iter().map(String::as_str).collect();
        if let Ok(inchi) = conversion {
            parts.extend(inchi.warning.as_deref());
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

/// The outcome of `gold` and `run`, the texts the library must see
/// converted by `convert` (in order; one result per text).
fn outcome(
    gold: &str,
    run: &str,
    convert: impl FnOnce(&[String]) -> Result<Vec<Conversion>, Failure>,
) -> Result<ClefevalRecognition, Failure> {
    let sides = [Side::read(gold), Side::read(run)];
    let texts: Vec<String> = sides
        .iter()
        .filter(|s| s.refused.is_none())
        .map(|s| s.text.clone())
        .collect();
    let mut converted = convert(&texts)?.into_iter();
    let [gold_conversion, run_conversion]: [Conversion; 2] =
        sides.each_ref().map(|side| match &side.refused {
            Some(reason) => Err(reason.clone()),
            None => converted
                .next()
                .unwrap_or_else(|| Err("not converted".into())),
        });
    let outcome = classify(&gold_conversion, Some(&run_conversion));
    let reason = match outcome {
        Outcome::Manual => gold_conversion.as_ref().err(),
        Outcome::Unreadable => run_conversion.as_ref().err(),
        _ => None,
    };
    let inchi = |c: &Conversion| into_raw(c.as_ref().ok().map(|i| i.inchi.as_str()));
    let [gold_side, run_side] = &sides;
    Ok(ClefevalRecognition {
        outcome: match outcome {
            Outcome::Match => ClefevalOutcome::Match,
            Outcome::Stereo => ClefevalOutcome::Stereo,
            Outcome::Formula => ClefevalOutcome::Formula,
            Outcome::Wrong => ClefevalOutcome::Wrong,
            Outcome::Unreadable => ClefevalOutcome::Unreadable,
            Outcome::Missing => ClefevalOutcome::Missing,
            Outcome::Manual => ClefevalOutcome::Manual,
        },
        gold_inchi: inchi(&gold_conversion),
        run_inchi: inchi(&run_conversion),
        reason: into_raw(reason.map(String::as_str)),
        gold_warning: into_raw(gold_side.warning(&gold_conversion).as_deref()),
        run_warning: into_raw(run_side.warning(&run_conversion).as_deref()),
    })
}
