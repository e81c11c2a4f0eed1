//! Diagnostics shared by every reader: each names its file and, where it has
//! one, its line, and says whether the input was rejected (error) or scored
//! anyway (warning).
//!
//! A JSON document lists a file's diagnostics twice, side by side: under
//! `"diagnostics"` as lines (`file:line: severity: message`, the shape of
//! the older versions) and under `"diagnostic_list"` as objects
//! ([`Diagnostic`]'s fields), the same entries in the same order
//! ([`both_lists`]).

use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// One finding about one input file, printed as `file:line: severity:
/// message`; in JSON an object of these fields, `line` `null` for a finding
/// about the whole file, `suppressed` only on the closing diagnostic of a
/// list cut at [`MAX_PER_FILE`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub file: String,
    /// 1-based line number; `None` for findings about the whole file.
    pub line: Option<usize>,
    pub severity: Severity,
    pub message: String,
    /// On the diagnostic that closes a cut list: the diagnostics it counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suppressed: Option<Suppressed>,
}

/// The diagnostics of one file found but not listed, by severity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suppressed {
    pub errors: usize,
    pub warnings: usize,
}

impl Diagnostic {
    pub fn error(file: impl Into<String>, line: Option<usize>, message: impl Into<String>) -> Self {
        Diagnostic {
            file: file.into(),
            line,
            severity: Severity::Error,
            message: message.into(),
            suppressed: None,
        }
    }

    pub fn warning(
        file: impl Into<String>,
        line: Option<usize>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            file: file.into(),
            line,
            severity: Severity::Warning,
            message: message.into(),
            suppressed: None,
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(
                f,
                "{}:{}: {}: {}",
                self.file, line, self.severity, self.message
            ),
            None => write!(f, "{}: {}: {}", self.file, self.severity, self.message),
        }
    }
}

/// Serializes a file's diagnostics, the field marked `#[serde(flatten,
/// serialize_with = "crate::diagnostics::both_lists")]`, as two fields:
/// `"diagnostics"`, each as its line (`file:line: severity: message`), and
/// `"diagnostic_list"`, each as an object.
pub fn both_lists<S: Serializer>(list: &[Diagnostic], serializer: S) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(Some(2))?;
    map.serialize_entry("diagnostics", &Lines(list))?;
    map.serialize_entry("diagnostic_list", list)?;
    map.end()
}

/// As [`both_lists`], for the documents whose `"diagnostics"` were objects
/// from the start (`validate`): there each is an object without
/// `suppressed`, as older versions wrote it.
pub fn objects_and_list<S: Serializer>(
    list: &[Diagnostic],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let plain: Vec<Plain> = list
        .iter()
        .map(|d| Plain {
            file: &d.file,
            line: d.line,
            severity: d.severity,
            message: &d.message,
        })
        .collect();
    let mut map = serializer.serialize_map(Some(2))?;
    map.serialize_entry("diagnostics", &plain)?;
    map.serialize_entry("diagnostic_list", list)?;
    map.end()
}

/// Diagnostics serialized as their lines.
struct Lines<'a>(&'a [Diagnostic]);

impl Serialize for Lines<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(ToString::to_string))
    }
}

/// A diagnostic's four fields, without `suppressed`.
#[derive(Serialize)]
struct Plain<'a> {
    file: &'a str,
    line: Option<usize>,
    severity: Severity,
    message: &'a str,
}

/// At most this many diagnostics are listed per file, by every reader; the
/// rest are counted in one closing diagnostic (an error when any of them was
/// an error), so a binary or misformatted file does not flood the output.
pub const MAX_PER_FILE: usize = 1000;

/// Collects the diagnostics of one file, listing at most [`MAX_PER_FILE`]
/// and counting every one.
#[derive(Debug)]
pub struct FileDiagnostics {
    file: String,
    listed: Vec<Diagnostic>,
    errors: usize,
    warnings: usize,
}

impl FileDiagnostics {
    pub fn new(file: &str) -> Self {
        FileDiagnostics {
            file: file.to_string(),
            listed: Vec::new(),
            errors: 0,
            warnings: 0,
        }
    }

    pub fn push(&mut self, severity: Severity, line: Option<usize>, message: impl Into<String>) {
        match severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
        }
        if self.listed.len() < MAX_PER_FILE {
            self.listed.push(Diagnostic {
                file: self.file.clone(),
                line,
                severity,
                message: message.into(),
                suppressed: None,
            });
        }
    }

    pub fn error(&mut self, line: Option<usize>, message: impl Into<String>) {
        self.push(Severity::Error, line, message);
    }

    pub fn warning(&mut self, line: Option<usize>, message: impl Into<String>) {
        self.push(Severity::Warning, line, message);
    }

    /// Errors found, listed or not.
    pub fn errors(&self) -> usize {
        self.errors
    }

    /// Warnings found, listed or not.
    pub fn warnings(&self) -> usize {
        self.warnings
    }

    /// Joins the findings of `other`, another collector of the same file
    /// whose list is in line order like this one's: the lists merge in line
    /// order (file-wide findings last), the first [`MAX_PER_FILE`] listed,
    /// every one counted.
    pub fn absorb(&mut self, other: FileDiagnostics) {
        self.errors += other.errors;
        self.warnings += other.warnings;
        self.listed.extend(other.listed);
        self.listed.sort_by_key(|d| d.line.unwrap_or(usize::MAX));
        self.listed.truncate(MAX_PER_FILE);
    }

    /// Puts the listed diagnostics in line order, file-wide ones first.
    pub fn sort_by_line(&mut self) {
        self.listed.sort_by_key(|d| d.line);
    }

    /// The listed diagnostics, then one that counts those not listed.
    pub fn finish(mut self) -> Vec<Diagnostic> {
        let listed_errors = self.listed.iter().filter(|d| d.is_error()).count();
        let unlisted_errors = self.errors - listed_errors;
        let unlisted = self.errors + self.warnings - self.listed.len();
        if unlisted > 0 {
            let severity = if unlisted_errors > 0 {
                Severity::Error
            } else {
                Severity::Warning
            };
            let suppressed = Suppressed {
                errors: unlisted_errors,
                warnings: unlisted - unlisted_errors,
            };
            self.listed.push(Diagnostic {
                file: self.file,
                line: None,
                severity,
                message: format!(
                    "{unlisted} more diagnostics not listed (errors: {}, warnings: {})",
                    suppressed.errors, suppressed.warnings
                ),
                suppressed: Some(suppressed),
            });
        }
        self.listed
    }
}

/// An error naming `file` when `text` (a file's bytes, or its text once
/// decoded) holds a NUL: binary data, not the text format `kind`. No text
/// format clefeval reads has a use for NUL, and text files never hold one.
pub fn binary_data(file: &str, text: &[u8], kind: &str) -> Option<Diagnostic> {
    text.contains(&0)
        .then(|| Diagnostic::error(file, None, binary_message(kind)))
}

/// The one wording of a binary file in every command: `binary data (a NUL
/// byte), not KIND; not read`.
pub fn binary_message(kind: &str) -> String {
    format!("binary data (a NUL byte), not {kind}; not read")
}

/// A fixed word of a result file (`"rejected"`, a task's name), read back
/// by a function of its own (`crate::report::saved::static_str`) from any
/// input. Spelled through this alias so that serde's derive, which
/// borrows a field written `&str` from the input, does not tie the reading
/// of a result to `'static` input.
pub type Word = &'static str;

/// A run that was not scored at all, and why: its path holds no file of the
/// task's kind, or none of its files pairs with a gold file (docs/cli.md,
/// "Input errors"). The other runs are scored; a report lists it after them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RejectedRun {
    pub run: String,
    /// Always `"rejected"`: what tells this entry from a scored run.
    #[serde(deserialize_with = "rejected")]
    pub status: Word,
    /// The reason first (`path: why`), then the findings about the run's
    /// files as lines.
    pub diagnostics: Vec<String>,
    /// The same entries as objects, the reason an error about the run's path.
    pub diagnostic_list: Vec<Diagnostic>,
}

/// Reads back the `status` of a [`RejectedRun`], which is `"rejected"`.
fn rejected<'de, D: serde::Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    match String::deserialize(d)?.as_str() {
        "rejected" => Ok("rejected"),
        other => Err(serde::de::Error::custom(format!(
            "a rejected run's status is \"rejected\", not {other:?}"
        ))),
    }
}

impl RejectedRun {
    /// The run named `run`, rejected for `reason` (an error about its path,
    /// see [`crate::inputs::run_rejection`]) with the findings `found`.
    pub fn new(run: String, reason: Diagnostic, found: &[Diagnostic]) -> Self {
        let mut diagnostics = vec![format!("{}: {}", reason.file, reason.message)];
        diagnostics.extend(found.iter().map(ToString::to_string));
        let mut diagnostic_list = vec![reason];
        diagnostic_list.extend_from_slice(found);
        RejectedRun {
            run,
            status: "rejected",
            diagnostics,
            diagnostic_list,
        }
    }
}

/// How many of a rejected run's diagnostics its line shows; the rest are
/// counted (the JSON lists them all).
pub const SHOWN_PER_RUN: usize = 4;

/// `run NAME rejected: ` and the first [`SHOWN_PER_RUN`] diagnostics, then
/// how many more there are: one line of bounded length however many lines
/// of the run's files are wrong.
impl fmt::Display for RejectedRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown: Vec<&str> = (self.diagnostics.iter())
            .take(SHOWN_PER_RUN)
            .map(String::as_str)
            .collect();
        write!(f, "run {} rejected: {}", self.run, shown.join("; "))?;
        match self.diagnostics.len().saturating_sub(SHOWN_PER_RUN) {
            0 => Ok(()),
            more => write!(f, "; and {more} more (--format json lists every one)"),
        }
    }
}

/// Ends a table's text with one line per rejected run, after a blank line
/// (nothing when none).
pub fn push_rejected(text: &mut String, runs: &[RejectedRun]) {
    push_lines(text, runs);
}

/// `items` at the end of a table, one line each, after a blank line (none
/// when there are none).
pub fn push_lines<T: fmt::Display>(text: &mut String, items: &[T]) {
    if items.is_empty() {
        return;
    }
    if !text.is_empty() && !text.ends_with("\n\n") {
        text.push('\n');
    }
    for item in items {
        text.push_str(&format!("{item}\n"));
    }
}

/// `Err` naming every run when no run can be scored.
pub fn every_run_rejected(scored: usize, rejected: &[RejectedRun]) -> Result<(), String> {
    if scored > 0 || rejected.is_empty() {
        return Ok(());
    }
    let lines: Vec<String> = rejected.iter().map(ToString::to_string).collect();
    Err(format!("no run can be scored:\n{}", lines.join("\n")))
}

/// True when any diagnostic is an error.
pub fn has_error(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(Diagnostic::is_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_with_and_without_line() {
        let d = Diagnostic::error("a/FC-1.txt", Some(7), "duplicate node id 3");
        assert_eq!(d.to_string(), "a/FC-1.txt:7: error: duplicate node id 3");
        let w = Diagnostic::warning("b.csv", None, "empty file");
        assert_eq!(w.to_string(), "b.csv: warning: empty file");
        assert!(has_error(&[w.clone(), d]));
        assert!(!has_error(&[w]));
    }

    #[test]
    fn lists_serialize_as_lines_and_objects_the_closing_one_with_its_counts() {
        #[derive(Serialize)]
        struct Topic {
            topic: &'static str,
            #[serde(flatten, serialize_with = "both_lists")]
            diagnostics: Vec<Diagnostic>,
            size: u8,
        }
        #[derive(Serialize)]
        struct File {
            #[serde(flatten, serialize_with = "objects_and_list")]
            diagnostics: Vec<Diagnostic>,
        }
        let mut found = FileDiagnostics::new("f.txt");
        for line in 1..=MAX_PER_FILE + 2 {
            found.warning(Some(line), "w");
        }
        found.error(None, "e");
        let found = found.finish();
        let listed = vec![found[0].clone(), found[MAX_PER_FILE].clone()];
        let json = serde_json::to_string(&Topic {
            topic: "T",
            diagnostics: listed.clone(),
            size: 3,
        })
        .unwrap();
        let closing = "3 more diagnostics not listed (errors: 1, warnings: 2)";
        assert_eq!(
            json,
            format!(
                "{{\"topic\":\"T\",\"diagnostics\":[\"f.txt:1: warning: w\",\"f.txt: error: {closing}\"],\
                 \"diagnostic_list\":[{{\"file\":\"f.txt\",\"line\":1,\"severity\":\"warning\",\"message\":\"w\"}},\
                 {{\"file\":\"f.txt\",\"line\":null,\"severity\":\"error\",\"message\":\"{closing}\",\
                 \"suppressed\":{{\"errors\":1,\"warnings\":2}}}}],\"size\":3}}"
            )
        );
        // validate's objects keep their four fields; the list has the counts.
        let json = serde_json::to_value(File {
            diagnostics: listed,
        })
        .unwrap();
        assert_eq!(json["diagnostics"][1].get("suppressed"), None);
        assert_eq!(json["diagnostics"][1]["message"], closing);
        assert_eq!(json["diagnostic_list"][1]["suppressed"]["warnings"], 2);
        assert_eq!(json["diagnostics"][0], json["diagnostic_list"][0]);
    }

    #[test]
    fn rejected_runs_end_a_table_and_stop_only_when_alone() {
        let found = [Diagnostic::error("e/x.txt", None, "is a FIFO")];
        let reason = Diagnostic::error("e", None, "holds nothing");
        let run = RejectedRun::new("e".into(), reason.clone(), &found);
        assert_eq!(run.diagnostic_list, [reason, found[0].clone()]);
        assert_eq!(
            run.to_string(),
            "run e rejected: e: holds nothing; e/x.txt: error: is a FIFO"
        );
        let mut text = "table\n".to_string();
        push_rejected(&mut text, std::slice::from_ref(&run));
        assert_eq!(text, format!("table\n\n{run}\n"));
        assert!(every_run_rejected(1, std::slice::from_ref(&run)).is_ok());
        assert!(every_run_rejected(0, &[]).is_ok());
        assert_eq!(
            every_run_rejected(0, std::slice::from_ref(&run)).unwrap_err(),
            format!("no run can be scored:\n{run}")
        );
    }
}
