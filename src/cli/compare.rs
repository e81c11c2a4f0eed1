//! `clefeval compare BASELINE.json CURRENT.json`: the regression gate a
//! recognizer's CI runs after every change. Exit 1 on any regression beyond
//! the tolerance or anything of the baseline lost; exit 2 when the files
//! cannot be compared (a malformed field, an unknown task, two tasks, other
//! settings), naming the file and the JSON path.

use super::{Fatal, Status, check_inputs, check_output_file, emit};
use crate::diagnostics::binary_data;
use crate::report::compare::{At, Comparison, Verdict, compare};
use crate::report::table::{Align, Table};
use crate::report::{OutputFormat, to_json};
use crate::tasks::TASKS;
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    /// Result file (`--format json`) of the baseline.
    pub baseline: PathBuf,
    /// Result file of the same task for the current version.
    pub current: PathBuf,
    /// Differences up to this much are not regressions.
    #[arg(long, default_value_t = 0.0)]
    pub tolerance: f64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Table)]
    pub format: OutputFormat,
    /// Write the output to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

pub fn run(args: &CompareArgs) -> Result<Status, Fatal> {
    if args.tolerance.is_nan() || args.tolerance < 0.0 {
        return Err(Fatal("--tolerance must be a number ≥ 0".into()));
    }
    check_inputs("", &[args.baseline.clone(), args.current.clone()])?;
    check_output_file(args.output.as_deref())?;
    let baseline = read_json(&args.baseline)?;
    let current = read_json(&args.current)?;
    let (base_file, cur_file) = (args.baseline.display(), args.current.display());
    let (base_file, cur_file) = (base_file.to_string(), cur_file.to_string());
    let comparison = compare(
        &At::root(&base_file, &baseline),
        &At::root(&cur_file, &current),
        args.tolerance,
        TASKS,
    )
    .map_err(Fatal)?;
    let text = match args.format {
        OutputFormat::Json => to_json(&comparison) + "\n",
        OutputFormat::Csv => changes_table(&comparison).to_csv(),
        OutputFormat::Table => render(&comparison),
    };
    emit(&text, args.output.as_deref())?;
    Ok(if comparison.regressions > 0 { 1 } else { 0 })
}

/// Largest result file read (256 MiB).
const MAX_FILE_BYTES: u64 = 256 << 20;

/// The JSON document of the result file at `path`; errors word a missing,
/// special, binary or oversized file as every command does.
fn read_json(path: &Path) -> Result<serde_json::Value, Fatal> {
    let kind = "a JSON result file";
    let text = crate::inputs::read_limited(path, MAX_FILE_BYTES)
        .and_then(|bytes| match binary_data("", &bytes, kind) {
            Some(binary) => Err(binary.message),
            None => String::from_utf8(bytes).map_err(|_| format!("not UTF-8 text, not {kind}")),
        })
        .map_err(|e| Fatal(format!("{}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| {
        Fatal(format!(
            "{}:{}: not a JSON result file: {e}",
            path.display(),
            e.line()
        ))
    })
}

fn changes_table(c: &Comparison) -> Table {
    let mut table = Table::new([
        "run", "item", "metric", "baseline", "current", "delta", "verdict",
    ])
    .align(1, Align::Left)
    .align(2, Align::Left)
    .align(6, Align::Left);
    let mut changes: Vec<_> = c.changes.iter().collect();
    // Regressions first, then improvements, then notes; stable within each.
    changes.sort_by_key(|ch| ch.verdict);
    for ch in changes {
        let verdict = match ch.verdict {
            Verdict::Regression => "REGRESSION",
            Verdict::Improvement => "improvement",
            Verdict::Note => "note",
        };
        table.row([
            ch.run.clone(),
            ch.item.clone(),
            ch.metric.clone(),
            ch.baseline.clone(),
            ch.current.clone(),
            ch.delta.map(|d| format!("{d:+.4}")).unwrap_or_default(),
            verdict.to_owned(),
        ]);
    }
    table
}

fn render(c: &Comparison) -> String {
    let mut out = String::new();
    let table = changes_table(c);
    if !table.is_empty() {
        out.push_str(&table.render());
        out.push('\n');
    }
    out.push_str(&format!(
        "{}: {} figures compared, {} regressions, {} improvements (tolerance {})\n",
        c.task, c.compared, c.regressions, c.improvements, c.tolerance
    ));
    out
}
