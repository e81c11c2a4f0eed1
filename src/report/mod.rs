//! Shared reporting: output formats, aligned text tables, number formatting
//! and where output goes. Every task builds its results as plain data
//! (serde-serializable for JSON) and renders tables through [`table::Table`].

pub mod check;
pub mod compare;
pub mod envelope;
pub mod html;
pub mod merge;
pub mod plot;
pub mod rerender;
pub mod saved;
pub mod table;
pub mod validation;

use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

/// The version of clefeval, which every JSON document carries after its
/// `"task"`: the result files say which clefeval wrote them.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// `--format`: how a command prints its results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    Table,
    Csv,
    Json,
}

/// Formats a distance or ratio for a table: 4 decimals (docs/metrics.md).
pub fn ratio(x: f64) -> String {
    format!("{x:.4}")
}

/// Serializes `value` as pretty JSON with full float precision.
pub fn to_json<T: serde::Serialize>(value: &T) -> String {
    // serde_json cannot fail on our plain data types (no maps with non-string keys).
    serde_json::to_string_pretty(value).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// Writes `text` to `output` (a file) or to standard output.
pub fn emit(text: &str, output: Option<&Path>) -> io::Result<()> {
    match output {
        Some(path) => std::fs::write(path, text),
        None => {
            let mut out = io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()
        }
    }
}

/// True when a progress bar should be drawn: stderr is a terminal and the
/// user did not ask for quiet.
pub fn show_progress(quiet: bool) -> bool {
    !quiet && io::stderr().is_terminal()
}

/// A progress bar on stderr, `{label} {bar} {pos}/{len} {eta} {msg}`, or a hidden
/// one when `show` is false (see [`show_progress`]).
pub fn progress_bar(show: bool, label: &str) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(0);
    let template = format!("{label} {{bar:40}} {{pos}}/{{len}} {{eta}} {{msg}}");
    if let Ok(style) = indicatif::ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}

/// Runs `work` while a thread of its own sets `bar`'s message to what
/// `message` returns, every `every` (the thread ends with `work`). A hidden
/// bar gets no thread: `work` runs alone.
pub fn with_messages<R>(
    bar: &indicatif::ProgressBar,
    every: Duration,
    message: impl Fn() -> String + Sync,
    work: impl FnOnce() -> R,
) -> R {
    if bar.is_hidden() {
        return work();
    }
    let (done, ticks) = mpsc::channel::<()>();
    let message = &message;
    std::thread::scope(|scope| {
        scope.spawn(move || {
            // Ends when `done` is dropped, at once rather than at the tick.
            while let Err(mpsc::RecvTimeoutError::Timeout) = ticks.recv_timeout(every) {
                bar.set_message(message());
            }
        });
        let out = work();
        drop(done);
        out
    })
}
