//! The visual review page: one self-contained HTML file (inline SVG and
//! CSS, images as `data:` URLs, no script, no network). Per gold structure:
//! the clip image when a clip folder is given, the gold molecule and every
//! run's submission drawn from their MOL coordinates, outcomes, InChIs and
//! reasons. Radio buttons (CSS only) filter the structures by outcome.

mod draw;

use super::evaluate::{RunResult, Structure};
use super::molfile::Molecule;
use super::outcome::Outcome;
use crate::report::html::escape;
use base64::prelude::{BASE64_STANDARD, Engine as _};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

/// Image extensions tried for a clip, in this order.
const CLIP_EXTENSIONS: [&str; 6] = ["png", "tif", "tiff", "PNG", "TIF", "TIFF"];

const STYLE: &str = "body{font-family:sans-serif;margin:1em;color:#222}\
table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right}\
td:first-child,th:first-child{text-align:left}\
nav label{margin-right:1em;cursor:pointer;text-decoration:underline}\
.card{border:1px solid #ccc;margin:1em 0;padding:.5em}\
.row{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}\
.side{border:1px solid #eee;padding:.3em}.clip{max-width:320px}\
.inchi{font-family:monospace;font-size:80%;word-break:break-all;max-width:320px}\
.mol line,.mol polyline{stroke:#000;stroke-width:1.3;fill:none}.mol .dash{stroke-dasharray:3 2}\
.mol .dot{stroke-dasharray:1 2}.mol text{font-size:13px}.mol .sup,.mol .sub{font-size:9px}\
.o{padding:0 .4em;border-radius:3px;color:#fff}\
.o-match{background:#2a7}.o-stereo{background:#49c}.o-formula{background:#c80}\
.o-wrong{background:#c33}.o-unreadable{background:#838}.o-missing{background:#777}\
.o-manual{background:#555}";

/// The review page for the results of every run; `clips` is the folder of
/// clip images named by structure stem.
pub fn page(runs: &[RunResult], clips: Option<&Path>) -> String {
    let mut out = String::from(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>clefeval recognition review</title><style>",
    );
    out.push_str(STYLE);
    out.push_str(&filter_style());
    out.push_str("</style></head><body><h1>Recognition review</h1>\n");
    summary(&mut out, runs);
    let filters = std::iter::once("all").chain(Outcome::ALL.iter().map(|o| o.name()));
    for id in filters.clone() {
        let checked = if id == "all" { " checked" } else { "" };
        let _ = write!(
            out,
            "<input type=\"radio\" name=\"f\" id=\"f-{id}\" hidden{checked}>"
        );
    }
    out.push_str("\n<nav>Show: ");
    for id in filters {
        let _ = write!(out, "<label for=\"f-{id}\">{id}</label> ");
    }
    out.push_str("</nav>\n<main>\n");
    for (name, rows) in by_structure(runs) {
        card(&mut out, name, &rows, clips);
    }
    out.push_str("</main></body></html>\n");
    out
}

/// CSS rules hiding the cards without the checked outcome and marking the
/// label of the checked filter.
fn filter_style() -> String {
    let mut css = String::from("#f-all:checked~nav label[for=f-all]{font-weight:bold}");
    for o in Outcome::ALL {
        let n = o.name();
        let _ = write!(
            css,
            "#f-{n}:checked~main .card:not(.has-{n}){{display:none}}\
             #f-{n}:checked~nav label[for=f-{n}]{{font-weight:bold}}"
        );
    }
    css
}

fn summary(out: &mut String, runs: &[RunResult]) {
    out.push_str(
        "<table><tr><th>run</th><th>structures</th><th>automatic</th><th>recalled</th><th>%</th>",
    );
    for o in Outcome::ALL.iter().skip(1) {
        let _ = write!(out, "<th>{}</th>", o.name());
    }
    out.push_str("</tr>\n");
    for run in runs {
        let s = &run.summary;
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.2}</td>",
            escape(&run.run),
            s.structures,
            s.automatic,
            s.matched,
            100.0 * s.recall
        );
        for &o in Outcome::ALL.iter().skip(1) {
            let _ = write!(out, "<td>{}</td>", s.count(o));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}

/// The structures by name, each with its result in every run.
fn by_structure(runs: &[RunResult]) -> BTreeMap<&str, Vec<(&str, &Structure)>> {
    let mut map: BTreeMap<&str, Vec<(&str, &Structure)>> = BTreeMap::new();
    for run in runs {
        for s in &run.structures {
            map.entry(s.name.as_str())
                .or_default()
                .push((run.run.as_str(), s));
        }
    }
    map
}

fn card(out: &mut String, name: &str, rows: &[(&str, &Structure)], clips: Option<&Path>) {
    let mut classes: Vec<&str> = rows.iter().map(|(_, s)| s.outcome.name()).collect();
    classes.sort_unstable();
    classes.dedup();
    let has: Vec<String> = classes.iter().map(|c| format!("has-{c}")).collect();
    let _ = write!(
        out,
        "<section class=\"card {}\"><h2>{}</h2><div class=\"row\">",
        has.join(" "),
        escape(name)
    );
    if let Some(folder) = clips {
        out.push_str("<div class=\"side\"><b>clip</b><br>");
        match clip(folder, name) {
            Ok(Some(data)) => {
                let _ = write!(
                    out,
                    "<img class=\"clip\" alt=\"clip\" src=\"data:image/png;base64,{data}\">"
                );
            }
            Ok(None) => out.push_str("<i>no clip image</i>"),
            Err(e) => {
                let _ = write!(out, "<i>{}</i>", escape(&e));
            }
        }
        out.push_str("</div>");
    }
    if let Some((_, first)) = rows.first() {
        side(
            out,
            "<b>gold</b>",
            first.gold_molecule.as_ref(),
            first.gold_inchi.as_deref(),
            first.gold_warning.as_deref(),
        );
    }
    for (run, s) in rows {
        let outcome = s.outcome.name();
        let mut header = format!(
            "<b>{}</b> <span class=\"o o-{outcome}\">{outcome}</span>",
            escape(run)
        );
        if let Some(reason) = &s.reason {
            let _ = write!(header, "<div class=\"inchi\">{}</div>", escape(reason));
        }
        side(
            out,
            &header,
            s.run_molecule.as_ref(),
            s.run_inchi.as_deref(),
            s.run_warning.as_deref(),
        );
    }
    out.push_str("</div></section>\n");
}

/// One drawn molecule under `header` (HTML), with its InChI and warning.
fn side(
    out: &mut String,
    header: &str,
    molecule: Option<&Molecule>,
    inchi: Option<&str>,
    warning: Option<&str>,
) {
    let _ = write!(out, "<div class=\"side\">{header}<br>");
    match molecule {
        Some(m) => out.push_str(&draw::svg(m)),
        None => out.push_str("<i>no drawing</i>"),
    }
    let _ = write!(
        out,
        "<div class=\"inchi\">{}</div>",
        escape(inchi.unwrap_or("no InChI"))
    );
    if let Some(w) = warning {
        let _ = write!(out, "<div class=\"inchi\">warning: {}</div>", escape(w));
    }
    out.push_str("</div>");
}

/// The clip image of `name` in `folder`, converted to PNG and base64
/// encoded; `None` when there is no such image.
fn clip(folder: &Path, name: &str) -> Result<Option<String>, String> {
    let Some(path) = CLIP_EXTENSIONS
        .iter()
        .map(|ext| folder.join(format!("{name}.{ext}")))
        .find(|p| p.is_file())
    else {
        return Ok(None);
    };
    let image = image::open(&path).map_err(|e| format!("clip {}: {e}", path.display()))?;
    let mut png = std::io::Cursor::new(Vec::new());
    image
        .write_to(&mut png, image::ImageFormat::Png)
        .map_err(|e| format!("clip {}: {e}", path.display()))?;
    Ok(Some(BASE64_STANDARD.encode(png.get_ref())))
}
