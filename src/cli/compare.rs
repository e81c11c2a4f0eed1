//! `clefeval compare BASELINE.json CURRENT.json`: the regression gate a
//! recognizer's CI runs after every change. Exit 1 on any regression beyond
//! the tolerance or anything of the baseline lost; exit 2 when the files
//! cannot be compared (a malformed field, an unknown task, two tasks, other
//! settings), naming the file and the JSON path.

use super::{Fatal, Status, Written, check_inputs, check_output_file, emit, read_result};
use crate::report::compare::{At, Comparison, Verdict};
use crate::report::table::{Align, Table};
use crate::report::validation::plural;
use crate::report::{OutputFormat, to_json};
use crate::tasks;
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Clone, Args)]
pub struct CompareArgs {
    /// Result file (`--format json`) of the baseline.
    pub baseline: PathBuf,
    /// Result file of the same task for the current version.
    pub current: PathBuf,
    /// Differences up to this much are not regressions.
    #[arg(
        long,
        value_name = "X",
        default_value_t = 0.0,
        allow_negative_numbers = true
    )]
    pub tolerance: f64,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = OutputFormat::Table)]
    pub format: OutputFormat,
    /// Write the output to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// No notes on stderr (this command writes none but errors).
    #[arg(short, long)]
    pub quiet: bool,
}

pub fn run(args: &CompareArgs) -> Result<Status, Fatal> {
    if args.tolerance.is_nan() || args.tolerance < 0.0 {
        return Err(Fatal("--tolerance must be a number ≥ 0".into()));
    }
    check_inputs("", &[args.baseline.clone(), args.current.clone()])?;
    check_output_file(args.output.as_deref())?;
    let baseline = read_result(&args.baseline)?;
    let current = read_result(&args.current)?;
    let (base_file, cur_file) = (args.baseline.display(), args.current.display());
    let (base_file, cur_file) = (base_file.to_string(), cur_file.to_string());
    let comparison = tasks::compare(
        &At::root(&base_file, &baseline),
        &At::root(&cur_file, &current),
        args.tolerance,
    )
    .map_err(Fatal)?;
    let text = match args.format {
        OutputFormat::Json => to_json(&comparison) + "\n",
        OutputFormat::Csv => changes_table(&comparison).to_csv(),
        OutputFormat::Table => render(&comparison),
    };
    emit(&text, args.output.as_deref())?;
    let mut written = Written::default();
    written.output(&args.format, args.output.as_deref());
    written.close(args.quiet);
    Ok(if comparison.regressions > 0 { 1 } else { 0 })
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
        "{}: {} compared, {}, {} (tolerance {})\n",
        c.task,
        plural(c.compared, "figure"),
        plural(c.regressions, "regression"),
        plural(c.improvements, "improvement"),
        c.tolerance
    ));
    out
}
