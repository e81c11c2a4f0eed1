//! What every function returns ([`ClefevalStatus`]), the message of the
//! thread's last failure ([`clefeval_last_error`], with its line), the
//! [`guard`] every function body runs in, and C strings in and out.
//!
//! The last error is kept per thread, as `errno` is: a function clears it
//! when it starts and sets it when it fails, so the message read after a
//! failure is that failure's, whatever other threads do.

use std::cell::RefCell;
use std::ffi::{CStr, CString, c_char, c_int};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr;

/// What a function of the C API returns: `CLEFEVAL_STATUS_OK`, or why it
/// failed (the message and line from `clefeval_last_error` and
/// `clefeval_last_error_line`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClefevalStatus {
    /// Done: the output holds the result.
    Ok = 0,
    /// A pointer argument that must not be null was null.
    NullPointer = 1,
    /// A text is not valid UTF-8 (the message names the line).
    InvalidUtf8 = 2,
    /// A flowchart text has an error (the message names the text, `gold` or
    /// `run`, and the line): it cannot be scored.
    ParseError = 3,
    /// An option is out of its range (no level chosen, an unknown
    /// denominator, a negative or not-a-number time).
    InvalidOption = 4,
    /// No InChI worker process could be started.
    WorkerFailed = 5,
    /// An internal error of the library was caught at the boundary.
    Internal = 6,
    /// An input that cannot be scored: a path that does not exist, gold
    /// data that cannot be read, an unknown task or request field, no run
    /// to score (the message names it).
    InputError = 7,
}

/// A failure: its status, message and line (0: none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub status: ClefevalStatus,
    pub message: String,
    pub line: usize,
}

impl Failure {
    pub fn new(status: ClefevalStatus, message: impl Into<String>) -> Self {
        Failure {
            status,
            message: message.into(),
            line: 0,
        }
    }
}

thread_local! {
    /// The last failure of this thread: its message and line.
    static LAST_ERROR: RefCell<Option<(CString, usize)>> = const { RefCell::new(None) };
}

fn set_last_error(failure: Option<&Failure>) {
    let value = failure.map(|f| (c_string(&f.message), f.line));
    LAST_ERROR.with(|last| *last.borrow_mut() = value);
}

/// The message of the last failed call on this thread (`gold:4: error:
/// duplicate node id 2 ...`), or NULL when the last call succeeded. Only
/// the functions that return a `ClefevalStatus` set or clear it. The
/// string belongs to the library and stays valid until the next such call
/// on this thread; copy it to keep it.
#[unsafe(no_mangle)]
pub extern "C" fn clefeval_last_error() -> *const c_char {
    LAST_ERROR.with(|last| {
        last.borrow()
            .as_ref()
            .map_or(ptr::null(), |(message, _)| message.as_ptr())
    })
}

/// The line (from 1) the last failure on this thread is about, or 0 when
/// it names none (or the last call succeeded).
#[unsafe(no_mangle)]
pub extern "C" fn clefeval_last_error_line() -> usize {
    LAST_ERROR.with(|last| last.borrow().as_ref().map_or(0, |(_, line)| *line))
}

/// The name of a status (a `ClefevalStatus` value), e.g. `"parse
/// error"`, or `"unknown status"`: a static string, never freed.
#[unsafe(no_mangle)]
pub extern "C" fn clefeval_status_name(status: c_int) -> *const c_char {
    const NAMES: [(ClefevalStatus, &CStr); 8] = [
        (ClefevalStatus::Ok, c"ok"),
        (ClefevalStatus::NullPointer, c"null pointer"),
        (ClefevalStatus::InvalidUtf8, c"invalid UTF-8"),
        (ClefevalStatus::ParseError, c"parse error"),
        (ClefevalStatus::InvalidOption, c"invalid option"),
        (ClefevalStatus::WorkerFailed, c"worker failed"),
        (ClefevalStatus::Internal, c"internal error"),
        (ClefevalStatus::InputError, c"input error"),
    ];
    NAMES
        .iter()
        .find(|(known, _)| *known as c_int == status)
        .map_or(c"unknown status", |(_, name)| name)
        .as_ptr()
}

/// Runs the body of a C API function: clears the thread's last error, runs
/// `body`, records its failure, and turns a panic into
/// [`ClefevalStatus::Internal`] (no unwinding crosses into C).
pub fn guard(body: impl FnOnce() -> Result<(), Failure>) -> ClefevalStatus {
    set_last_error(None);
    let failure = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => return ClefevalStatus::Ok,
        Ok(Err(failure)) => failure,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_owned());
            Failure::new(ClefevalStatus::Internal, format!("internal error: {what}"))
        }
    };
    set_last_error(Some(&failure));
    failure.status
}

/// Fails with [`ClefevalStatus::NullPointer`] naming `what` when `pointer`
/// is null.
pub fn not_null<T>(pointer: *const T, what: &str) -> Result<(), Failure> {
    if pointer.is_null() {
        Err(Failure::new(
            ClefevalStatus::NullPointer,
            format!("{what} is a null pointer"),
        ))
    } else {
        Ok(())
    }
}

/// The NUL-terminated text at `pointer` as UTF-8; `what` names it in the
/// failure (a null pointer, or the line of the first byte that is not
/// UTF-8).
///
/// # Safety
/// `pointer` is null or points to a NUL-terminated string that stays
/// unchanged while the returned borrow lives.
pub unsafe fn text<'a>(pointer: *const c_char, what: &str) -> Result<&'a str, Failure> {
    not_null(pointer, what)?;
    // SAFETY: not null, and NUL-terminated by the caller's contract.
    let bytes = unsafe { CStr::from_ptr(pointer) }.to_bytes();
    std::str::from_utf8(bytes).map_err(|e| {
        let valid = bytes.get(..e.valid_up_to()).unwrap_or_default();
        let line = 1 + valid.iter().filter(|&&b| b == b'\n').count();
        Failure {
            status: ClefevalStatus::InvalidUtf8,
            message: format!(
                "{what}:{line}: not valid UTF-8 (byte {}); pass text as UTF-8",
                e.valid_up_to() + 1
            ),
            line,
        }
    })
}

/// `text` as a C string; a NUL inside becomes U+FFFD.
pub fn c_string(text: &str) -> CString {
    CString::new(text.replace('\0', "\u{FFFD}")).unwrap_or_default()
}

/// `text` as a C string the caller frees with [`free_string`], or NULL.
pub fn into_raw(text: Option<&str>) -> *mut c_char {
    text.map_or(ptr::null_mut(), |t| c_string(t).into_raw())
}

/// Frees a string made by [`into_raw`] and sets the pointer to NULL.
///
/// # Safety
/// `*slot` is null or came from [`into_raw`] and was not freed.
pub unsafe fn free_string(slot: &mut *mut c_char) {
    let pointer = std::mem::replace(slot, ptr::null_mut());
    if !pointer.is_null() {
        // SAFETY: made by `CString::into_raw` in `into_raw`, freed once.
        drop(unsafe { CString::from_raw(pointer) });
    }
}
