//! What every `validate` report shares, whatever the files it checks: a
//! file's verdict from its error and warning counts, the count of files of
//! each verdict, and how both read in a table.

use serde::Serialize;

/// The verdict on one checked file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileStatus {
    /// No diagnostic.
    Ok,
    /// Warnings only: the file is scored.
    Warnings,
    /// At least one error: the file is not scored.
    Rejected,
}

impl FileStatus {
    /// The verdict on a file with `errors` errors and `warnings` warnings.
    pub fn of(errors: usize, warnings: usize) -> Self {
        if errors > 0 {
            FileStatus::Rejected
        } else if warnings > 0 {
            FileStatus::Warnings
        } else {
            FileStatus::Ok
        }
    }

    /// The name a CSV cell gives it (as in the JSON).
    pub fn name(self) -> &'static str {
        match self {
            FileStatus::Ok => "ok",
            FileStatus::Warnings => "warnings",
            FileStatus::Rejected => "rejected",
        }
    }

    /// How a table's summary line of the file says it: `ok`, `ok, 2
    /// warnings`, `rejected, 1 error, 0 warnings`.
    pub fn describe(self, errors: usize, warnings: usize) -> String {
        match self {
            FileStatus::Ok => "ok".to_string(),
            FileStatus::Warnings => format!("ok, {}", plural(warnings, "warning")),
            FileStatus::Rejected => format!(
                "rejected, {}, {}",
                plural(errors, "error"),
                plural(warnings, "warning")
            ),
        }
    }
}

/// Number of files of each status.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    pub files: usize,
    pub ok: usize,
    pub warnings: usize,
    pub rejected: usize,
}

impl Summary {
    /// The counts of the files whose statuses are `statuses`.
    pub fn count(statuses: impl Iterator<Item = FileStatus>) -> Self {
        let mut summary = Summary::default();
        for status in statuses {
            summary.files += 1;
            match status {
                FileStatus::Ok => summary.ok += 1,
                FileStatus::Warnings => summary.warnings += 1,
                FileStatus::Rejected => summary.rejected += 1,
            }
        }
        summary
    }

    /// `N files: a ok, b with warnings, c rejected`, with its line feed.
    pub fn line(&self) -> String {
        format!(
            "{}: {} ok, {} with warnings, {} rejected\n",
            plural(self.files, "file"),
            self.ok,
            self.warnings,
            self.rejected
        )
    }
}

/// `1 noun`, `n nouns`.
pub fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_counts_and_lines() {
        let statuses = [
            FileStatus::of(0, 0),
            FileStatus::of(0, 2),
            FileStatus::of(1, 0),
        ];
        assert_eq!(
            statuses,
            [FileStatus::Ok, FileStatus::Warnings, FileStatus::Rejected]
        );
        assert_eq!(statuses[1].describe(0, 2), "ok, 2 warnings");
        assert_eq!(statuses[2].describe(1, 0), "rejected, 1 error, 0 warnings");
        assert_eq!(statuses[2].name(), "rejected");
        let summary = Summary::count(statuses.into_iter());
        assert_eq!(
            summary.line(),
            "3 files: 1 ok, 1 with warnings, 1 rejected\n"
        );
        assert_eq!(
            Summary::count(std::iter::once(FileStatus::Ok)).line(),
            "1 file: 1 ok, 0 with warnings, 0 rejected\n"
        );
    }
}
