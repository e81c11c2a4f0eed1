//! `--html`: a self-contained HTML report of a segmentation evaluation, with
//! an inline SVG plot of F1 by tolerance for every run and one of precision,
//! recall and F1 for each run.

use super::report::Report;
use super::score::Figures;
use super::tolerances::Tolerance;
use std::fmt::Write;

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn value(t: Tolerance) -> f64 {
    match t {
        Tolerance::Pixels(p) => f64::from(p),
        Tolerance::Millimetres(mm) => mm,
    }
}

const COLOURS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
];

/// An SVG line plot: one named series of (tolerance, ratio) points each.
fn plot(title: &str, unit: &str, series: &[(String, Vec<(f64, f64)>)]) -> String {
    let (w, h, left, bottom) = (640.0, 300.0, 50.0, 40.0);
    let max_x = series
        .iter()
        .flat_map(|(_, p)| p.iter().map(|q| q.0))
        .fold(0.0f64, f64::max)
        .max(1.0);
    let sx = |x: f64| left + x / max_x * (w - left - 20.0);
    let sy = |y: f64| h - bottom - y * (h - bottom - 20.0);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" role=\"img\"><title>{}</title>",
        esc(title)
    );
    let _ = write!(
        svg,
        "<line x1=\"{left}\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\" stroke=\"#000\"/><line x1=\"{left}\" y1=\"20\" x2=\"{left}\" y2=\"{0}\" stroke=\"#000\"/>",
        sy(0.0),
        w - 20.0
    );
    for tick in 0..=4 {
        let y = f64::from(tick) / 4.0;
        let _ = write!(
            svg,
            "<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"end\">{y:.2}</text><line x1=\"{left}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#ddd\"/>",
            left - 4.0,
            sy(y),
            w - 20.0
        );
    }
    let _ = write!(
        svg,
        "<text x=\"{left}\" y=\"{}\" font-size=\"11\">0</text><text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"end\">{max_x} {unit}</text>",
        h - bottom + 14.0,
        w - 20.0,
        h - bottom + 14.0
    );
    for (i, (name, points)) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let path: Vec<String> = points
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", sx(x), sy(y)))
            .collect();
        let _ = write!(
            svg,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/><text x=\"{}\" y=\"{}\" font-size=\"12\" fill=\"{colour}\">{}</text>",
            path.join(" "),
            w - 160.0,
            40.0 + 14.0 * i as f64,
            esc(name)
        );
    }
    svg.push_str("</svg>");
    svg
}

fn points(figures: &[Figures], pick: impl Fn(&Figures) -> f64) -> Vec<(f64, f64)> {
    figures.iter().map(|f| (value(f.t), pick(f))).collect()
}

/// The whole report as one HTML page.
pub fn html(report: &Report) -> String {
    let unit = report.settings.unit;
    let mut out = String::from(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>clefeval segmentation</title>\
         <style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}\
         td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}</style></head><body>\
         <h1>Segmentation</h1>",
    );
    let f1: Vec<(String, Vec<(f64, f64)>)> = report
        .runs
        .iter()
        .map(|r| (r.run.clone(), points(&r.tolerances, |f| f.f1)))
        .collect();
    out.push_str(&plot("F1 by tolerance", unit, &f1));
    for run in &report.runs {
        let _ = write!(out, "<h2>{}</h2>", esc(&run.run));
        let series = [
            (
                "precision".to_string(),
                points(&run.tolerances, |f| f.precision),
            ),
            ("recall".to_string(), points(&run.tolerances, |f| f.recall)),
            ("F1".to_string(), points(&run.tolerances, |f| f.f1)),
        ];
        out.push_str(&plot(&run.run, unit, &series));
        let unambiguous = run
            .max_unambiguous_tolerance
            .map_or("none".to_string(), |t| t.to_string());
        let _ = write!(
            out,
            "<p>Largest unambiguous tolerance: {}</p>",
            esc(&unambiguous)
        );
        out.push_str("<table><tr><th>t</th><th>tp</th><th>fp</th><th>fn</th><th>precision</th><th>recall</th><th>F1</th></tr>");
        for f in &run.tolerances {
            let _ = write!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.4}</td><td>{:.4}</td><td>{:.4}</td></tr>",
                f.t, f.tp, f.fp, f.fn_, f.precision, f.recall, f.f1
            );
        }
        out.push_str("</table>");
        if !run.diagnostics.is_empty() {
            out.push_str("<h3>Diagnostics</h3><ul>");
            for d in &run.diagnostics {
                let _ = write!(out, "<li>{}</li>", esc(d));
            }
            out.push_str("</ul>");
        }
    }
    if !report.diagnostics.is_empty() {
        out.push_str("<h2>Gold and page diagnostics</h2><ul>");
        for d in &report.diagnostics {
            let _ = write!(out, "<li>{}</li>", esc(d));
        }
        out.push_str("</ul>");
    }
    out.push_str("</body></html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segmentation::report::{RunReport, Settings};
    use crate::segmentation::score::Counts;

    #[test]
    fn one_polyline_per_series_and_names_escaped() {
        let figures = |tp| {
            (0..3)
                .map(|t| {
                    Figures::new(
                        Tolerance::Pixels(t),
                        &Counts {
                            tp,
                            submitted: 4,
                            gold: 4,
                        },
                    )
                })
                .collect::<Vec<_>>()
        };
        let run = |name: &str, tp| RunReport {
            run: name.into(),
            tolerances: figures(tp),
            max_unambiguous_tolerance: Some(Tolerance::Pixels(2)),
            documents: Vec::new(),
            diagnostics: vec!["a<b".into()],
        };
        let report = Report {
            task: "segmentation",
            settings: Settings {
                unit: "px",
                ..Settings::default()
            },
            diagnostics: Vec::new(),
            runs: vec![run("r<1>", 2), run("r2", 4)],
        };
        let page = html(&report);
        // F1 plot: 2 runs; each run's plot: 3 series.
        assert_eq!(page.matches("<polyline").count(), 2 + 2 * 3);
        assert!(page.contains("<h2>r&lt;1&gt;</h2>") && page.contains("<li>a&lt;b</li>"));
        assert!(!page.contains("r<1>"));
        // F1 = 0.5 for r<1> at every t: y = 260 - 0.5 * 240 = 140.
        assert!(page.contains("points=\"50.0,140.0 335.0,140.0 620.0,140.0\""));
    }
}
