//! The results of `clefeval segmentation` as plain data: the JSON of docs/segmentation.md
//! and the text tables.

use super::score::{Counts, DocumentSweep, Figures, RunSweep, Sweep};
use super::tolerances::{STANDARD_ROWS, Tolerance, Tolerances};
use crate::diagnostics::{Diagnostic, push_rejected};
use crate::inputs::push_skipped;
pub use crate::report::envelope::Findings;
use crate::report::envelope::{Envelope, RunFindings};
use crate::report::merge::{Part, read_parts};
use crate::report::table::Table;
use crate::report::{OutputFormat, ratio, to_json};
use serde::{Deserialize, Serialize};

/// The whole output of one evaluation: the envelope of every result with
/// the segmentation settings, the findings about the gold files and the
/// pages (the head), and one [`RunReport`] per run.
pub type Report = Envelope<Settings, RunReport, Findings>;

/// The settings an evaluation ran with.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Settings {
    pub gold: Vec<String>,
    /// `px` or `mm`.
    #[serde(deserialize_with = "crate::report::saved::static_str")]
    pub unit: &'static str,
    pub tolerances: Vec<Tolerance>,
    pub pages: Option<String>,
    pub overlays: Option<String>,
    pub overlay_tolerance: Option<u32>,
    /// The lowest score of a COCO detection kept (absent: every one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_score: Option<f64>,
}

impl Settings {
    /// The tolerances of the sweep, as the evaluation swept them.
    pub fn sweep_tolerances(&self) -> Tolerances {
        match self.unit {
            "mm" => Tolerances::Millimetres(
                (self.tolerances.iter())
                    .map(|t| match *t {
                        Tolerance::Millimetres(mm) => mm,
                        Tolerance::Pixels(px) => f64::from(px),
                    })
                    .collect(),
            ),
            _ => Tolerances::Pixels(
                (self.tolerances.iter())
                    .map(|t| match *t {
                        Tolerance::Pixels(px) => px,
                        Tolerance::Millimetres(mm) => mm as u32,
                    })
                    .collect(),
            ),
        }
    }
}

/// One run's figures.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunReport {
    pub run: String,
    /// Micro-averaged figures (counts summed over all pages of all documents).
    pub tolerances: Vec<Figures>,
    pub max_unambiguous_tolerance: Option<Tolerance>,
    pub documents: Vec<DocumentReport>,
    /// Findings about the run's files and its boxes (`"diagnostics"` and
    /// `"diagnostic_list"` in the JSON).
    #[serde(
        flatten,
        serialize_with = "crate::diagnostics::both_lists",
        deserialize_with = "crate::report::saved::diagnostics"
    )]
    pub diagnostics: Vec<Diagnostic>,
}

/// One document's figures within a run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DocumentReport {
    pub doc: String,
    pub tolerances: Vec<Figures>,
    pub max_unambiguous_tolerance: Option<Tolerance>,
}

impl RunReport {
    /// The report of a scored run.
    pub fn new(
        run: String,
        sweep: &RunSweep,
        tolerances: &Tolerances,
        diagnostics: Vec<Diagnostic>,
    ) -> Self {
        let figures = |s: &Sweep| Figures::of_sweep(s, tolerances);
        RunReport {
            run,
            tolerances: figures(&sweep.total),
            max_unambiguous_tolerance: sweep.total.max_unambiguous(tolerances),
            documents: sweep
                .documents
                .iter()
                .map(|d| DocumentReport {
                    doc: d.doc.clone(),
                    tolerances: figures(&d.sweep),
                    max_unambiguous_tolerance: d.sweep.max_unambiguous(tolerances),
                })
                .collect(),
            diagnostics,
        }
    }
}

/// `clefeval merge` for segmentation results: the parts' documents joined
/// run by run in document order (the order of a whole evaluation); each
/// run's micro figures and largest unambiguous tolerance made again by
/// [`RunReport::new`] from the documents' counts. The findings of the gold,
/// the pages and each run's files are the same in every part and taken
/// from the first; the pages that were too crowded to match, which each
/// part finds among its own documents, are gathered after them in
/// document and page order, as a whole run lists them.
pub fn merge(parts: &[Part]) -> Result<String, String> {
    let (mut whole, others) = read_parts::<Report>(parts)?;
    let mut crowded: Vec<Vec<Diagnostic>> = vec![Vec::new(); whole.runs.len()];
    for (run, crowded) in whole.runs.iter_mut().zip(&mut crowded) {
        let (theirs, found) = run
            .diagnostics
            .drain(..)
            .partition(|d| crowded_page(&d.message).is_some());
        run.diagnostics = found;
        crowded.extend::<Vec<Diagnostic>>(theirs);
    }
    for part in others {
        for ((run, other), crowded) in whole.runs.iter_mut().zip(part.runs).zip(&mut crowded) {
            run.documents.extend(other.documents);
            crowded.extend(
                other
                    .diagnostics
                    .into_iter()
                    .filter(|d| crowded_page(&d.message).is_some()),
            );
        }
    }
    let tolerances = whole.settings.sweep_tolerances();
    whole.runs = (whole.runs.into_iter().zip(crowded))
        .map(|(mut run, mut crowded)| {
            run.documents.sort_by(|a, b| a.doc.cmp(&b.doc));
            crowded.sort_by_key(|d| {
                crowded_page(&d.message).map(|(doc, page)| (doc.to_owned(), page))
            });
            let sweep = RunSweep {
                total: Sweep::default(),
                documents: (run.documents.iter())
                    .map(|d| DocumentSweep {
                        doc: d.doc.clone(),
                        sweep: d.sweep(&tolerances),
                    })
                    .collect(),
                crowded: Vec::new(),
            }
            .totalled(tolerances.len());
            let mut diagnostics = run.diagnostics;
            diagnostics.extend(crowded);
            RunReport::new(run.run, &sweep, &tolerances, diagnostics)
        })
        .collect();
    whole.shard = None;
    Ok(to_json(&whole) + "\n")
}

impl DocumentReport {
    /// The sweep this document's figures were made from: its counts at
    /// every tolerance and the first tolerance that is ambiguous.
    pub fn sweep(&self, tolerances: &Tolerances) -> Sweep {
        let counts = (self.tolerances.iter())
            .map(|f| Counts {
                tp: f.tp,
                submitted: f.tp + f.fp,
                gold: f.tp + f.fn_,
            })
            .collect();
        let last = tolerances.len().checked_sub(1);
        let first_ambiguous = match self.max_unambiguous_tolerance {
            None => Some(0),
            Some(t) => match tolerances.iter().position(|u| u == t) {
                Some(i) if Some(i) == last => None,
                Some(i) => Some(i + 1),
                None => Some(0),
            },
        };
        Sweep {
            counts,
            first_ambiguous,
        }
    }
}

/// The page and document of an error `evaluate::crowded_pages` wrote, read back
/// from its message (`page P of DOC: …`): where it goes among the errors of
/// the other documents when the parts of an evaluation are merged.
pub fn crowded_page(message: &str) -> Option<(&str, u32)> {
    let rest = message.strip_prefix("page ")?;
    let (page, rest) = rest.split_once(" of ")?;
    let (doc, _) = rest.split_once(": ")?;
    rest.contains("candidate pairs").then_some(())?;
    Some((doc, page.parse().ok()?))
}

/// Which tolerances a table shows: all of them when `all`, otherwise those
/// of the standard rows 0, 10, 20, 40, 55 that were computed (all of them
/// again when none of the standard rows was).
pub fn shown(figures: &[Figures], all: bool) -> Vec<&Figures> {
    let standard: Vec<&Figures> = figures
        .iter()
        .filter(|f| matches!(f.t, Tolerance::Pixels(t) if STANDARD_ROWS.contains(&t)))
        .collect();
    if all || standard.is_empty() {
        figures.iter().collect()
    } else {
        standard
    }
}

/// A ratio for a table; `*` marks a zero denominator.
pub fn cell(value: f64, name: &str, f: &Figures) -> String {
    let mark = if f.zero_denominator.contains(&name) {
        "*"
    } else {
        ""
    };
    format!("{}{mark}", ratio(value))
}

impl Report {
    /// The output text in `format`; the table shows every tolerance when
    /// `all_rows` (they were chosen), and carries the diagnostics below it.
    pub fn render(&self, format: OutputFormat, all_rows: bool) -> String {
        match format {
            OutputFormat::Json => to_json(self) + "\n",
            OutputFormat::Csv => self.csv(),
            OutputFormat::Table => {
                let mut text = self.table(all_rows);
                for d in self.all_diagnostics() {
                    text.push_str(&format!("{d}\n"));
                }
                text
            }
        }
    }

    /// The text table: for one run, one row per tolerance with counts and
    /// ratios; for several, one ranking row per run with F1 at each shown
    /// tolerance, best mean F1 first. `all_rows`: show every tolerance.
    pub fn table(&self, all_rows: bool) -> String {
        let mut out = String::new();
        let any_zero = self
            .runs
            .iter()
            .flat_map(|r| &r.tolerances)
            .any(|f| !f.zero_denominator.is_empty());
        if let [run] = self.runs.as_slice() {
            let mut table = Table::new(["t", "tp", "fp", "fn", "precision", "recall", "f1"]);
            for f in shown(&run.tolerances, all_rows) {
                table.row([
                    f.t.to_string(),
                    f.tp.to_string(),
                    f.fp.to_string(),
                    f.fn_.to_string(),
                    cell(f.precision, "precision", f),
                    cell(f.recall, "recall", f),
                    cell(f.f1, "f1", f),
                ]);
            }
            out.push_str(&format!("run {}\n", run.run));
            out.push_str(&table.render());
        } else {
            let columns = self.ranking_columns(all_rows);
            let mut headers = vec!["rank".to_string(), "run".to_string()];
            headers.extend(columns.iter().map(|t| format!("f1@{t}")));
            headers.push("mean f1".into());
            headers.push("max unambiguous".into());
            let mut table = Table::new(headers)
                .align(0, crate::report::table::Align::Right)
                .align(1, crate::report::table::Align::Left);
            for (rank, (mean, r)) in self.ranking(all_rows).iter().enumerate() {
                let mut row = vec![(rank + 1).to_string(), r.run.clone()];
                row.extend(
                    shown(&r.tolerances, all_rows)
                        .iter()
                        .map(|f| cell(f.f1, "f1", f)),
                );
                row.push(ratio(*mean));
                row.push(unambiguous(r.max_unambiguous_tolerance));
                table.row(row);
            }
            out.push_str(&table.render());
        }
        if let [run] = self.runs.as_slice() {
            out.push_str(&format!(
                "max unambiguous tolerance: {}\n",
                unambiguous(run.max_unambiguous_tolerance)
            ));
        }
        if any_zero {
            out.push_str("* zero denominator (no submitted boxes, no gold boxes, or no match): the ratio is 0\n");
        }
        push_rejected(&mut out, &self.rejected_runs);
        push_skipped(&mut out, &self.skipped_files);
        out
    }

    /// The tolerances of the ranking table's F1 columns: those [`shown`] of
    /// the first run (every run has the same tolerances).
    pub fn ranking_columns(&self, all_rows: bool) -> Vec<Tolerance> {
        self.runs
            .first()
            .map(|r| shown(&r.tolerances, all_rows).iter().map(|f| f.t).collect())
            .unwrap_or_default()
    }

    /// The runs ranked by their mean F1 over the shown tolerances (see
    /// [`shown`]), best first, ties by name; with each run its mean F1.
    pub fn ranking(&self, all_rows: bool) -> Vec<(f64, &RunReport)> {
        let mut ranked: Vec<(f64, &RunReport)> = self
            .runs
            .iter()
            .map(|r| {
                let f = shown(&r.tolerances, all_rows);
                let mean = f.iter().map(|f| f.f1).sum::<f64>() / f.len().max(1) as f64;
                (mean, r)
            })
            .collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.run.cmp(&b.1.run)));
        ranked
    }

    /// Every run's micro figures at every tolerance, as CSV rows.
    pub fn csv(&self) -> String {
        let mut table = Table::new(["run", "t", "tp", "fp", "fn", "precision", "recall", "f1"]);
        for r in &self.runs {
            for f in &r.tolerances {
                table.row([
                    r.run.clone(),
                    f.t.to_string(),
                    f.tp.to_string(),
                    f.fp.to_string(),
                    f.fn_.to_string(),
                    f.precision.to_string(),
                    f.recall.to_string(),
                    f.f1.to_string(),
                ]);
            }
        }
        table.to_csv()
    }
}

impl RunFindings for RunReport {
    fn findings(&self) -> &[Diagnostic] {
        &self.diagnostics
    }
}

/// The largest unambiguous tolerance for a table, or `none`.
pub fn unambiguous(t: Option<Tolerance>) -> String {
    t.map_or_else(|| "none".to_string(), |t| t.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segmentation::score::Counts;

    fn run(name: &str, counts: &[(u64, u64, u64)], tolerances: &[u32]) -> RunReport {
        RunReport {
            run: name.into(),
            tolerances: tolerances
                .iter()
                .zip(counts)
                .map(|(&t, &(tp, submitted, gold))| {
                    Figures::new(
                        Tolerance::Pixels(t),
                        &Counts {
                            tp,
                            submitted,
                            gold,
                        },
                    )
                })
                .collect(),
            max_unambiguous_tolerance: tolerances.last().map(|&t| Tolerance::Pixels(t)),
            documents: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

    fn report(runs: Vec<RunReport>) -> Report {
        let settings = Settings {
            unit: "px",
            ..Settings::default()
        };
        Report::whole("segmentation", settings, runs)
    }

    #[test]
    fn single_run_shows_standard_rows_and_marks_zero_denominators() {
        let t = [0, 5, 10];
        let r = report(vec![run("a", &[(0, 0, 2), (0, 0, 2), (0, 0, 2)], &t)]);
        assert_eq!(
            r.table(false),
            "run a\n\
             t   tp  fp  fn  precision  recall       f1\n\
             --  --  --  --  ---------  ------  -------\n\
             0    0   0   2    0.0000*  0.0000  0.0000*\n\
             10   0   0   2    0.0000*  0.0000  0.0000*\n\
             max unambiguous tolerance: 10\n\
             * zero denominator (no submitted boxes, no gold boxes, or no match): the ratio is 0\n"
        );
        assert_eq!(r.table(true).lines().count(), 3 + 3 + 2);
    }

    #[test]
    fn several_runs_are_ranked_by_mean_f1() {
        let t = [0, 10];
        let r = report(vec![
            run("weak", &[(1, 4, 4), (2, 4, 4)], &t),
            run("strong", &[(2, 4, 4), (4, 4, 4)], &t),
        ]);
        assert_eq!(
            r.table(false),
            "rank  run       f1@0   f1@10  mean f1  max unambiguous\n\
             ----  ------  ------  ------  -------  ---------------\n   \
             1  strong  0.5000  1.0000   0.7500               10\n   \
             2  weak    0.2500  0.5000   0.3750               10\n"
        );
        assert_eq!(r.csv().lines().nth(1), Some("weak,0,1,3,3,0.25,0.25,0.25"));
    }
}
