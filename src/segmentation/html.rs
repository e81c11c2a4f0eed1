//! `--html`: the segmentation report as one self-contained page: the
//! ranking of the runs, F1, precision and recall curves over the tolerances
//! for every run (the organizers' 55 px limit marked), and per run its
//! figures and a per-document table whose rows expand to every tolerance.

use super::report::{Report, RunReport, cell, shown, unambiguous};
use super::score::Figures;
use super::tolerances::{DEFAULT_PIXELS, Tolerance, Tolerances};
use crate::report::html::{Cell, HtmlPage, HtmlTable, Section, rejected_section};
use crate::report::merge::Part;
use crate::report::plot::{self, LineChart, Marker, Series, colour_css};
use crate::report::ratio;
use crate::report::rerender::{Rendered, Rerender};

/// The tolerance the organizers of CLEF-IP 2012 used as their limit, in px.
const ORGANIZERS_LIMIT: u32 = 55;

fn value(t: Tolerance) -> f64 {
    match t {
        Tolerance::Pixels(p) => f64::from(p),
        Tolerance::Millimetres(mm) => mm,
    }
}

/// The whole report as one HTML page.
pub fn html(report: &Report) -> String {
    HtmlPage::new("clefeval segmentation")
        .sections(sections(report))
        .sections(rejected_section("seg", &report.rejected_runs))
        .render()
}

/// The report's sections, for this page or a combined one (the demo). Ids
/// start with `seg-`: `seg-ranking`, `seg-curves` (charts `seg-curve-f1`,
/// `seg-curve-precision`, `seg-curve-recall`), `seg-run-<index>`,
/// `seg-diagnostics`.
pub fn sections(report: &Report) -> Vec<Section> {
    let mut sections = vec![ranking(report), curves(report)];
    sections.extend(
        report
            .runs
            .iter()
            .enumerate()
            .map(|(i, run)| run_section(i, run)),
    );
    if !report.head.diagnostics.is_empty() {
        sections.push(
            Section::new("seg-diagnostics", "Gold and page diagnostics").list(
                "diagnostics",
                report.head.diagnostics.iter().map(ToString::to_string),
            ),
        );
    }
    sections
}

/// The run's name cell, with its colour in the charts.
fn run_cell(report: &Report, run: &RunReport) -> Cell {
    let index = report
        .runs
        .iter()
        .position(|r| std::ptr::eq(r, run))
        .unwrap_or(0);
    Cell::swatch(run.run.clone(), &colour_css(index))
}

fn ratio_cell(f: &Figures, name: &str, value: f64) -> Cell {
    Cell::number(cell(value, name, f), value)
}

/// The runs ranked by mean F1 at the standard tolerances, as the text table.
fn ranking(report: &Report) -> Section {
    let columns = report.ranking_columns(false);
    let mut headers = vec!["rank".to_string(), "run".to_string()];
    headers.extend(columns.iter().map(|t| format!("F1 @ {t}")));
    headers.extend(["mean F1".to_string(), "max unambiguous".to_string()]);
    let mut table = HtmlTable::new(headers).sortable();
    for (rank, (mean, r)) in report.ranking(false).iter().enumerate() {
        let mut row = vec![
            Cell::number((rank + 1).to_string(), (rank + 1) as f64),
            run_cell(report, r),
        ];
        row.extend(
            shown(&r.tolerances, false)
                .iter()
                .map(|f| ratio_cell(f, "f1", f.f1)),
        );
        row.push(Cell::number(ratio(*mean), *mean));
        let max = r.max_unambiguous_tolerance;
        row.push(Cell::number(unambiguous(max), max.map_or(-1.0, value)));
        table.row(row);
    }
    Section::new("seg-ranking", "Ranking")
        .paragraph("Runs ordered by their mean F1 over the tolerances shown; * marks a zero denominator (the ratio is 0).")
        .table(table)
}

/// F1, precision and recall over the tolerances, one line per run.
fn curves(report: &Report) -> Section {
    let unit = report.settings.unit;
    let reaches_limit = report
        .runs
        .iter()
        .flat_map(|r| &r.tolerances)
        .any(|f| f.t == Tolerance::Pixels(ORGANIZERS_LIMIT));
    let marker = (unit == "px" && reaches_limit).then(|| Marker {
        x: f64::from(ORGANIZERS_LIMIT),
        label: format!("organizers' limit {ORGANIZERS_LIMIT} px"),
    });
    type Pick = fn(&Figures) -> f64;
    let metrics: [(&str, &str, Pick); 3] = [
        ("f1", "F1", |f| f.f1),
        ("precision", "Precision", |f| f.precision),
        ("recall", "Recall", |f| f.recall),
    ];
    let mut section = Section::new("seg-curves", "Curves over the tolerances");
    for (id, name, pick) in metrics {
        let spec = LineChart {
            title: format!("{name} by tolerance"),
            x_label: format!("tolerance ({unit})"),
            y_label: name.to_string(),
            series: report
                .runs
                .iter()
                .enumerate()
                .map(|(i, r)| Series {
                    name: r.run.clone(),
                    colour: i,
                    points: r.tolerances.iter().map(|f| (value(f.t), pick(f))).collect(),
                })
                .collect(),
            marker: marker.clone(),
        };
        section = match plot::line_chart(&spec) {
            Ok(chart) => section.chart(&format!("seg-curve-{id}"), &chart),
            Err(e) => section.paragraph(&e.to_string()),
        };
    }
    section
}

/// Counts and ratios, one row per tolerance.
fn figures_table(figures: &[&Figures]) -> HtmlTable {
    let mut table = HtmlTable::new(["t", "tp", "fp", "fn", "precision", "recall", "F1"]);
    for f in figures {
        let count = |n: u64| Cell::number(n.to_string(), n as f64);
        table.row([
            Cell::number(f.t.to_string(), value(f.t)),
            count(f.tp),
            count(f.fp),
            count(f.fn_),
            ratio_cell(f, "precision", f.precision),
            ratio_cell(f, "recall", f.recall),
            ratio_cell(f, "f1", f.f1),
        ]);
    }
    table
}

/// One run: its figures at the standard tolerances, its documents (each
/// expandable to every tolerance) and its diagnostics.
fn run_section(index: usize, run: &RunReport) -> Section {
    let mut documents = HtmlTable::new(
        ["document".to_string()]
            .into_iter()
            .chain(
                shown(&run.tolerances, false)
                    .iter()
                    .map(|f| format!("F1 @ {}", f.t)),
            )
            .chain(["max unambiguous".to_string()]),
    )
    .sortable();
    for d in &run.documents {
        let mut row = vec![Cell::text(d.doc.clone())];
        row.extend(
            shown(&d.tolerances, false)
                .iter()
                .map(|f| ratio_cell(f, "f1", f.f1)),
        );
        let max = d.max_unambiguous_tolerance;
        row.push(Cell::number(unambiguous(max), max.map_or(-1.0, value)));
        let all: Vec<&Figures> = d.tolerances.iter().collect();
        documents.row_with_detail(row, figures_table(&all).render());
    }
    Section::new(&format!("seg-run-{index}"), &format!("Run {}", run.run))
        .paragraph(&format!(
            "Largest unambiguous tolerance: {}. Counts summed over all pages (micro average).",
            unambiguous(run.max_unambiguous_tolerance)
        ))
        .table(figures_table(&shown(&run.tolerances, false)))
        .heading("Documents (click a row for every tolerance)")
        .table(documents)
        .list(
            "diagnostics",
            run.diagnostics.iter().map(ToString::to_string),
        )
}

/// `clefeval report` of a saved segmentation result: its table (every
/// tolerance when they were chosen, as the command shows them) or CSV,
/// and its page.
pub fn rerender(part: &Part, _text: &str, asked: &Rerender) -> Result<Rendered, String> {
    let report: Report = part.read()?;
    let standard = Tolerances::parse_pixels(DEFAULT_PIXELS)?;
    let all_rows = report.settings.unit != "px"
        || !(report.settings.tolerances.iter()).eq(standard.iter().collect::<Vec<_>>().iter());
    Ok(Rendered {
        text: report.render(asked.format, all_rows),
        page: asked.page.then(|| html(&report)),
        notes: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segmentation::report::{DocumentReport, Settings};
    use crate::segmentation::score::Counts;

    fn figures(tp: u64, tolerances: impl Iterator<Item = u32>) -> Vec<Figures> {
        tolerances
            .map(|t| {
                let counts = Counts {
                    tp,
                    submitted: 4,
                    gold: 4,
                };
                Figures::new(Tolerance::Pixels(t), &counts)
            })
            .collect()
    }

    fn report(to: u32) -> Report {
        let run = |name: &str, tp| RunReport {
            run: name.into(),
            tolerances: figures(tp, 0..=to),
            max_unambiguous_tolerance: Some(Tolerance::Pixels(2)),
            documents: vec![DocumentReport {
                doc: "EP<1>".into(),
                tolerances: figures(tp, 0..=to),
                max_unambiguous_tolerance: None,
            }],
            diagnostics: vec![crate::diagnostics::Diagnostic::warning("a<b", None, "c")],
        };
        let settings = Settings {
            unit: "px",
            ..Settings::default()
        };
        Report::whole("segmentation", settings, vec![run("r<1>", 2), run("r2", 4)])
    }

    #[test]
    fn one_chart_per_metric_with_a_line_per_run_and_names_escaped() {
        let page = html(&report(55));
        for id in ["seg-curve-f1", "seg-curve-precision", "seg-curve-recall"] {
            assert!(page.contains(&format!("<figure class=\"chart\" id=\"{id}\">")));
        }
        // Each chart: one 56-point line per run, in the run's colour.
        let lines = |colour: &str| {
            page.split("<polyline")
                .filter(|p| p.contains(&format!("stroke=\"{colour}\"")))
                .filter(|p| {
                    let points = p.split("points=\"").nth(1).unwrap_or_default();
                    points
                        .split('"')
                        .next()
                        .unwrap_or_default()
                        .split_whitespace()
                        .count()
                        == 56
                })
                .count()
        };
        assert_eq!((lines("#1F77B4"), lines("#FF7F0E")), (3, 3));
        assert_eq!(page.matches("organizers&#39; limit 55 px").count(), 3);
        assert!(
            page.contains("<h2>Run r&lt;1&gt;</h2>")
                && page.contains("<li>a&lt;b: warning: c</li>")
        );
        assert!(page.contains("<td>EP&lt;1&gt;</td>"));
        assert!(!page.contains("r<1>") && !page.contains("EP<1>"));
        // r2 (F1 = 1) ranks first, r<1> (F1 = 0.5) second.
        let first = page.find("r2</td>").unwrap_or(usize::MAX);
        assert!(first < page.find("r&lt;1&gt;</td>").unwrap_or(0));
        assert!(page.contains("<td class=\"num\" data-sort=\"0.5\">0.5000</td>"));
    }

    #[test]
    fn no_limit_marker_when_the_sweep_stops_short_of_55_px() {
        let page = html(&report(20));
        assert!(!page.contains("organizers"));
        assert_eq!(page.matches("class=\"chart\"").count(), 3);
    }
}
