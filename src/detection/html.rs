//! `--html`: the detection report as one self-contained page: the ranking
//! of the runs, the precision–recall curves at IoU 0.50 and 0.75 (a line
//! per run), and per run its twelve numbers, AP per category and the
//! counts of every image (a sortable table).

use super::report::{Report, RunReport};
use crate::report::html::{Cell, HtmlPage, HtmlTable, Section, rejected_section};
use crate::report::merge::Part;
use crate::report::plot::{self, LineChart, Series, colour_css};
use crate::report::ratio;
use crate::report::rerender::{Rendered, Rerender};

/// The whole report as one HTML page.
pub fn html(report: &Report) -> String {
    HtmlPage::new("clefeval detection")
        .sections(sections(report))
        .sections(rejected_section("det", &report.rejected_runs))
        .render()
}

/// The report's sections, for this page or a combined one (the demo). Ids
/// start with `det-`: `det-ranking`, `det-curves` (charts `det-curve-50`,
/// `det-curve-75`), `det-run-<index>`, `det-diagnostics`.
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
        sections.push(Section::new("det-diagnostics", "Gold diagnostics").list(
            "diagnostics",
            report.head.diagnostics.iter().map(ToString::to_string),
        ));
    }
    sections
}

fn number(v: f64) -> Cell {
    Cell::number(ratio(v), v)
}

fn count(n: usize) -> Cell {
    Cell::number(n.to_string(), n as f64)
}

/// The runs ranked by AP, as the text table.
fn ranking(report: &Report) -> Section {
    let columns = report.ranking_columns();
    let mut headers = vec!["rank".to_string(), "run".to_string()];
    headers.extend(columns.iter().cloned());
    let mut table = HtmlTable::new(headers).sortable();
    for (rank, r) in report.ranking().iter().enumerate() {
        let colour = report
            .runs
            .iter()
            .position(|x| std::ptr::eq(x, *r))
            .unwrap_or(0);
        let mut row = vec![
            count(rank + 1),
            Cell::swatch(r.run.clone(), &colour_css(colour)),
        ];
        row.extend(columns.iter().map(|name| number(r.stat(name))));
        table.row(row);
    }
    Section::new("det-ranking", "Ranking")
        .paragraph("Runs ordered by AP (IoU 0.50:0.95, area all, 100 detections an image); −1 where there is no gold box to find.")
        .table(table)
}

/// Precision over recall at IoU 0.50 and 0.75, one line per run (the
/// mean over categories of pycocotools' interpolated precision).
fn curves(report: &Report) -> Section {
    let mut section = Section::new("det-curves", "Precision–recall curves");
    for iou in [0.5, 0.75] {
        let series: Vec<Series> = (report.runs.iter().enumerate())
            .filter_map(|(i, r)| {
                let curve = r.curves.iter().find(|c| c.iou == iou)?;
                let points = (curve.precision.iter().enumerate())
                    .filter(|(_, p)| **p >= 0.0)
                    .map(|(n, &p)| (n as f64 / (curve.precision.len().max(2) - 1) as f64, p))
                    .collect();
                Some(Series {
                    name: r.run.clone(),
                    colour: i,
                    points,
                })
            })
            .collect();
        if series.is_empty() {
            continue;
        }
        let spec = LineChart {
            title: format!("Precision by recall at IoU {iou:.2}"),
            x_label: "recall".into(),
            y_label: "precision".into(),
            series,
            marker: None,
        };
        let id = format!("det-curve-{}", (iou * 100.0).round());
        section = match plot::line_chart(&spec) {
            Ok(chart) => section.chart(&id, &chart),
            Err(e) => section.paragraph(&e.to_string()),
        };
    }
    section
}

/// One run: its twelve numbers, AP per category, every image's counts.
fn run_section(index: usize, run: &RunReport) -> Section {
    let mut summary = HtmlTable::new(["measure", "IoU", "area", "max dets", "value"]);
    for s in &run.summary {
        summary.row([
            Cell::text(s.name.clone()),
            Cell::text(s.iou.clone()),
            Cell::text(s.area.clone()),
            count(s.max_dets),
            number(s.value),
        ]);
    }
    let mut categories = HtmlTable::new(["category", "name", "gold", "AP"]).sortable();
    for c in &run.categories {
        categories.row([
            Cell::number(c.id.to_string(), c.id as f64),
            Cell::text(c.name.clone()),
            count(c.gold),
            number(c.ap),
        ]);
    }
    let mut images = HtmlTable::new(["image", "TP", "FP", "FN"]).sortable();
    for i in &run.images {
        images.row([
            Cell::text(i.image.to_string()),
            count(i.tp),
            count(i.fp),
            count(i.fn_),
        ]);
    }
    Section::new(&format!("det-run-{index}"), &format!("Run {}", run.run))
        .paragraph(&format!(
            "{} detections read, {} of categories the gold does not have left out.",
            run.detections, run.dropped
        ))
        .table(summary)
        .heading("AP per category")
        .table(categories)
        .heading("Images: true and false positives and missed gold boxes")
        .table(images)
        .list(
            "diagnostics",
            run.diagnostics.iter().map(ToString::to_string),
        )
}

/// `clefeval report` of a saved detection result: its table or CSV, and
/// its page.
pub fn rerender(part: &Part, _text: &str, asked: &Rerender) -> Result<Rendered, String> {
    let report: Report = part.read()?;
    Ok(Rendered {
        text: report.render(asked.format),
        page: asked.page.then(|| html(&report)),
        notes: Vec::new(),
    })
}
