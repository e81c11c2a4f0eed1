//! What the command files share: the options every evaluating command
//! takes ([`CommonArgs`]), the error that stops a command ([`Fatal`],
//! exit 2), the checks of named paths and outputs made before any work,
//! where output goes, and the format an output file's extension names.

use crate::diagnostics::RejectedRun;
use crate::inputs::Skipped;
use crate::inputs::{self, Run, Shard};
use crate::report::saved;
use crate::report::{self, OutputFormat};
use crate::{outputs, task};
use clap::{Args, ValueEnum};
use std::path::{Path, PathBuf};

/// Options every evaluating command takes. `F` is the command's output
/// formats: [`OutputFormat`] (table, csv, json) unless a command has more.
#[derive(Debug, Clone, Args)]
pub struct CommonArgs<F: ValueEnum + Clone + Send + Sync + 'static = OutputFormat> {
    /// Output format.
    #[arg(short, long, value_enum, default_value = "table")]
    pub format: F,
    /// Write the output to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Also write a self-contained HTML report with plots.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// No progress bar, no notes on stderr.
    #[arg(short, long)]
    pub quiet: bool,
    /// Score only part K of N of the topics (1 ≤ K ≤ N), for `clefeval
    /// merge` to join with the other parts (docs/distributed.md).
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
}

/// A command that could not run (bad arguments, unreadable gold data, an
/// output that cannot be written): exit 2. The message names the file
/// involved, if any; there is deliberately no blanket conversion from other
/// errors, so none reaches the user without it.
#[derive(Debug)]
pub struct Fatal(pub String);

impl<F: ValueEnum + Clone + Send + Sync + 'static> CommonArgs<F> {
    /// `--format` from `--output`'s extension ([`format_from_output`]).
    pub(super) fn pick_format(&mut self, explicit: bool) -> Result<(), Fatal> {
        pick_format(
            &mut self.format,
            self.output.as_deref(),
            explicit,
            self.quiet,
        )
    }

    /// Checks `--output` and `--html` before any work ([`check_output_file`]).
    pub fn check_outputs(&self) -> Result<(), Fatal> {
        check_output_file(self.output.as_deref())?;
        check_output_file(self.html.as_deref())
    }
}

/// `--flag PATH`, or `PATH` for a positional argument (empty `flag`), as an
/// error message starts.
fn named(flag: &str, path: &Path) -> String {
    if flag.is_empty() {
        path.display().to_string()
    } else {
        format!("{flag} {}", path.display())
    }
}

/// Exit 2 before any work unless every input path the user named exists: a
/// typo is no run (docs/cli.md, "Input errors").
pub fn check_inputs(flag: &str, paths: &[PathBuf]) -> Result<(), Fatal> {
    for path in paths {
        if let Err(e) = std::fs::metadata(path) {
            return Err(Fatal(format!(
                "{}: {}",
                named(flag, path),
                inputs::missing_reason(&e)
            )));
        }
    }
    Ok(())
}

/// The runs `--run` names ([`Run::given`]: `PATH` or `NAME=PATH`): exit 2
/// before any work when a path does not exist. (Two runs of one name are
/// refused by the evaluation, before it reads any file.)
pub fn given_runs(args: &[PathBuf]) -> Result<Vec<Run>, Fatal> {
    let runs = (args.iter())
        .map(|arg| Run::given(arg).map_err(|e| Fatal(format!("--run {e}"))))
        .collect::<Result<Vec<_>, _>>()?;
    check_inputs("--run", &Run::paths(&runs))?;
    Ok(runs)
}

/// Exit 2 before any work unless the input folder `path` (if given) exists
/// and is a folder.
pub fn check_input_folder(flag: &str, path: Option<&Path>) -> Result<(), Fatal> {
    let Some(path) = path else { return Ok(()) };
    check_inputs(flag, &[path.to_path_buf()])?;
    if !path.is_dir() {
        return Err(Fatal(format!("{}: is not a folder", named(flag, path))));
    }
    Ok(())
}

/// Exit 2 before any work when the output file `path` (if given) cannot be
/// written ([`outputs::check_output_file`]).
pub fn check_output_file(path: Option<&Path>) -> Result<(), Fatal> {
    outputs::check_output_file(path).map_err(Fatal)
}

/// Exit 2 before any work when the output folder `path` (if given) cannot be
/// made or written into ([`outputs::check_output_folder`]).
pub fn check_output_folder(path: Option<&Path>) -> Result<(), Fatal> {
    outputs::check_output_folder(path).map_err(Fatal)
}

/// The rejected runs and skipped files on stderr when the output is CSV
/// (which has no place for them) or JSON (which lists them too), unless
/// `--quiet`; the table ends with them.
pub fn note_rejected(runs: &[RejectedRun], skipped: &[Skipped], common: &CommonArgs) {
    if common.format != OutputFormat::Table && !common.quiet {
        for run in runs {
            eprintln!("{run}");
        }
        for file in skipped {
            eprintln!("{file}");
        }
    }
}

/// Writes `text` to `output` (a file) or to standard output. A reader of
/// standard output that stops early (`clefeval … | head`) ends the output,
/// not the command: a broken pipe is no error.
pub fn emit(text: &str, output: Option<&Path>) -> Result<(), Fatal> {
    report::emit(text, output).or_else(|e| match output {
        Some(path) => Err(cannot_write(path, e)),
        None if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        None => Err(Fatal(format!("cannot write the output: {e}"))),
    })
}

/// Writes a whole file, such as an HTML page.
pub fn write_file(path: &Path, contents: impl AsRef<[u8]>) -> Result<(), Fatal> {
    std::fs::write(path, contents).map_err(|e| cannot_write(path, e))
}

fn cannot_write(path: &Path, e: std::io::Error) -> Fatal {
    Fatal(format!("cannot write {}: {e}", path.display()))
}

/// The JSON document of the result file at `path`
/// ([`saved::read_result`]).
pub fn read_result(path: &Path) -> Result<serde_json::Value, Fatal> {
    saved::read_result(path).map_err(Fatal)
}

/// Exit status of a command that ran.
pub type Status = u8;

/// What an output file's extension says: a format (`.json`, `.csv`, `.txt`
/// the table), a page (`.html`, `.htm`), nothing (no extension), or an
/// extension of no output format.
enum Named {
    Format(&'static str),
    Page,
    Nothing,
    Other,
}

fn named_by_extension(path: &Path) -> Named {
    match crate::inputs::extension(path).as_str() {
        "json" => Named::Format("json"),
        "csv" => Named::Format("csv"),
        "txt" => Named::Format("table"),
        "html" | "htm" => Named::Page,
        "" => Named::Nothing,
        _ => Named::Other,
    }
}

/// [`format_from_output`] for one command's `format` and `output`: a
/// page's extension is refused (the page is `--html`'s), an extension of
/// no format keeps the format with a warning.
pub(super) fn pick_format<F: ValueEnum>(
    format: &mut F,
    output: Option<&Path>,
    explicit: bool,
    quiet: bool,
) -> Result<(), Fatal> {
    let Some(path) = output else {
        return Ok(());
    };
    let name = |f: &F| f.to_possible_value().map(|v| v.get_name().to_string());
    let wanted = match named_by_extension(path) {
        Named::Format(wanted) => wanted,
        Named::Nothing => return Ok(()),
        Named::Page => {
            return Err(Fatal(format!(
                "--output {}: --output writes the table (.txt), the CSV (.csv) or the JSON \
                 (.json), not a page; the page is written by --html FILE",
                path.display()
            )));
        }
        Named::Other => {
            if !quiet {
                eprintln!(
                    "clefeval: warning: --output {} has an extension of no output format \
                     (.txt, .csv, .json); it is written in --format {}",
                    path.display(),
                    name(format).unwrap_or_default()
                );
            }
            return Ok(());
        }
    };
    if explicit {
        if wanted != "table" && name(format).as_deref() != Some(wanted) && !quiet {
            eprintln!(
                "clefeval: warning: --output {} is written in --format {}, not {wanted}",
                path.display(),
                name(format).unwrap_or_default()
            );
        }
        return Ok(());
    }
    *format = F::from_str(wanted, true).map_err(|_| {
        Fatal(format!(
            "--output {}: this command does not write {wanted}; give --format",
            path.display()
        ))
    })?;
    Ok(())
}

/// Runs `f` on a pool of `threads` threads ([`task::with_threads`]).
pub fn with_threads<T: Send>(
    threads: Option<usize>,
    f: impl FnOnce() -> T + Send,
) -> Result<T, Fatal> {
    task::with_threads(threads, f).map_err(|e| Fatal(e.flag()))
}
