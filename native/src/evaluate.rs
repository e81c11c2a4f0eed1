//! The generic entry: any task, any of its file formats, asked for as
//! JSON — a task name and a request (the input paths by role, the task's
//! settings by the command line's names in snake case, the part, the
//! threads; docs/c-api.md) — and the result the command writes with
//! `--format json` given back. It goes through the library's task table,
//! so a task or a format added there reaches C with no new C function.

use crate::status::{ClefevalStatus, Failure, free_string, guard, into_raw, not_null, text};
use engine::task::TaskError;
use std::ffi::c_char;
use std::ptr;

/// Evaluates `request` (a JSON object, NUL-terminated UTF-8) for the task
/// named `task` (`"flowchart"`, `"segmentation"`, `"recognition"`,
/// `"prior-art"`, `"passage"`) and sets `*result` to the JSON result,
/// which the caller frees with `clefeval_string_free`.
///
/// A setting out of its range fails with `CLEFEVAL_STATUS_INVALID_OPTION`,
/// an input that cannot be scored (a missing path, unreadable gold data,
/// an unknown task or field, no run to score) with
/// `CLEFEVAL_STATUS_INPUT_ERROR`, InChI workers that cannot start with
/// `CLEFEVAL_STATUS_WORKER_FAILED`; the message names the option, the file
/// or the field. On failure `*result` is NULL.
///
/// # Safety
/// `task` and `request` are null or NUL-terminated strings; `result` is
/// null or points to writable memory for a pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn clefeval_evaluate(
    task: *const c_char,
    request: *const c_char,
    result: *mut *mut c_char,
) -> ClefevalStatus {
    guard(|| {
        not_null(result, "result")?;
        // SAFETY: not null; writable by the caller's contract.
        unsafe { ptr::write(result, ptr::null_mut()) };
        // SAFETY: null or NUL-terminated by the caller's contract.
        let (task, request) = unsafe { (text(task, "task")?, text(request, "request")?) };
        let json = engine::tasks::evaluate(task, request).map_err(|e| {
            let status = match e {
                TaskError::Option(_) => ClefevalStatus::InvalidOption,
                TaskError::Input(_) => ClefevalStatus::InputError,
                TaskError::Worker(_) => ClefevalStatus::WorkerFailed,
            };
            Failure::new(status, e.to_string())
        })?;
        // SAFETY: as above.
        unsafe { ptr::write(result, into_raw(Some(&json))) };
        Ok(())
    })
}

/// Frees a string the library returned (`clefeval_evaluate`'s result) and
/// sets the pointer to NULL. NULL, or a string freed already, is ignored.
///
/// # Safety
/// `string` is null or points to a pointer that is null or came from this
/// library and was not freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn clefeval_string_free(string: *mut *mut c_char) {
    // SAFETY: null or a valid pointer by the caller's contract.
    if let Some(slot) = unsafe { string.as_mut() } {
        // SAFETY: the string came from `into_raw` or is null.
        unsafe { free_string(slot) };
    }
}
