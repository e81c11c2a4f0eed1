//! `validate`: every diagnostic of flowchart files and a summary per file,
//! so participants can check a run before they submit it (the file format
//! and its diagnostics: docs/formats.md). A file is `ok`, `ok` with
//! warnings (it is scored), or `rejected` (its topic scores as missing).

use super::evaluate::InputError;
use super::{Declared, ParseOptions, formats, read_file};
use crate::diagnostics::Diagnostic;
use crate::inputs::none_in;
use crate::report::table::Table;
use crate::report::validation::plural;
pub use crate::report::validation::{FileStatus, Summary};
use rayon::prelude::*;
use serde::Serialize;
use std::path::PathBuf;

/// The files named by `paths`: the flowchart files of folders
/// ([`formats::listed`]), a file named directly whatever its name; or why
/// there are none to check.
pub fn files_to_check(paths: &[PathBuf]) -> Result<Vec<PathBuf>, InputError> {
    let (files, problems, _) = formats::listed(paths);
    if let Some(problem) = problems.first() {
        return Err(InputError(format!("{}: {}", problem.file, problem.message)));
    }
    if files.is_empty() {
        return Err(InputError(none_in("", paths, &formats::flowchart_files())));
    }
    Ok(files)
}

/// What `validate` says about one file.
#[derive(Clone, Debug, Serialize)]
pub struct FileReport {
    pub file: String,
    pub status: FileStatus,
    pub nodes: usize,
    pub directed_edges: usize,
    pub undirected_edges: usize,
    /// The `MT` counts, `null` when not declared.
    pub declared: Declared,
    /// Errors and warnings found (more than listed when the list was cut).
    pub errors: usize,
    pub warnings: usize,
    /// `"diagnostics"` and `"diagnostic_list"` in the JSON, both objects.
    #[serde(flatten, serialize_with = "crate::diagnostics::objects_and_list")]
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ValidateSettings {
    pub strict: bool,
}

/// The whole output of `validate` (its JSON form with `--format json`).
#[derive(Clone, Debug, Serialize)]
pub struct ValidateReport {
    pub task: &'static str,
    /// The clefeval that wrote the file.
    pub version: &'static str,
    pub settings: ValidateSettings,
    pub files: Vec<FileReport>,
    pub summary: Summary,
}

/// Reads and checks every file (in parallel; the report keeps the order of `files`).
pub fn validate(files: &[PathBuf], options: &ParseOptions) -> ValidateReport {
    let files: Vec<FileReport> = files
        .par_iter()
        .map(|path| {
            let parsed = read_file(path, options);
            let status = FileStatus::of(parsed.errors, parsed.warnings);
            let f = &parsed.flowchart;
            FileReport {
                file: path.display().to_string(),
                status,
                nodes: f.nodes.len(),
                directed_edges: f.directed_edge_count(),
                undirected_edges: f.undirected_edge_count(),
                declared: f.declared.clone(),
                errors: parsed.errors,
                warnings: parsed.warnings,
                diagnostics: parsed.diagnostics,
            }
        })
        .collect();
    let summary = Summary::count(files.iter().map(|f| f.status));
    ValidateReport {
        task: "validate",
        version: crate::report::VERSION,
        settings: ValidateSettings {
            strict: options.strict,
        },
        files,
        summary,
    }
}

impl ValidateReport {
    /// The text output: diagnostic lines, a summary line per file, a total.
    pub fn table(&self) -> String {
        render_text(self)
    }

    /// One CSV row per file.
    pub fn csv(&self) -> String {
        render_csv(self)
    }
}

fn render_text(report: &ValidateReport) -> String {
    let mut out = String::new();
    for file in &report.files {
        for d in &file.diagnostics {
            out.push_str(&d.to_string());
            out.push('\n');
        }
        let status = file.status.describe(file.errors, file.warnings);
        let d = &file.declared;
        out.push_str(&format!(
            "{}: {status}: {} {}, {} {}, {} {}\n",
            file.file,
            plural(file.nodes, "node"),
            declared(d.nodes),
            plural(file.directed_edges, "directed edge"),
            declared(d.directed_edges),
            plural(file.undirected_edges, "undirected edge"),
            declared(d.undirected_edges),
        ));
    }
    out.push_str(&summary_line(report));
    out
}

/// `N files: a ok, b with warnings, c rejected`, with its line feed.
pub fn summary_line(report: &ValidateReport) -> String {
    report.summary.line()
}

fn render_csv(report: &ValidateReport) -> String {
    let mut table = Table::new([
        "file",
        "status",
        "errors",
        "warnings",
        "nodes",
        "declared_nodes",
        "directed_edges",
        "declared_directed_edges",
        "undirected_edges",
        "declared_undirected_edges",
    ]);
    let cell = |n: Option<u64>| n.map(|n| n.to_string()).unwrap_or_default();
    for file in &report.files {
        table.row([
            file.file.clone(),
            file.status.name().to_string(),
            file.errors.to_string(),
            file.warnings.to_string(),
            file.nodes.to_string(),
            cell(file.declared.nodes),
            file.directed_edges.to_string(),
            cell(file.declared.directed_edges),
            file.undirected_edges.to_string(),
            cell(file.declared.undirected_edges),
        ]);
    }
    table.to_csv()
}

fn declared(n: Option<u64>) -> String {
    match n {
        Some(n) => format!("(declared {n})"),
        None => "(not declared)".to_string(),
    }
}
