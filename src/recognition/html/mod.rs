//! The recognition report page (`--html`, `--review`): one self-contained
//! HTML file on the shared builder ([`crate::report::html`]): outcome bars
//! per run (a `plotters` chart) with the summary table, then the visual
//! review (inline SVG and CSS, clip images as `data:` URLs, no script, no
//! network). Per gold structure: the clip image when a clip folder is
//! given, the gold molecule and every run's submission drawn from their MOL
//! coordinates (a structure given as SMILES shown as its SMILES), outcomes,
//! InChIs and reasons. Radio buttons (CSS only)
//! filter the structures by outcome.

mod draw;

use super::evaluate::{RunResult, Structure};
use super::formats;
use super::layers::Layer;
use super::listing::{self, Source};
use super::molfile::Molecule;
use super::outcome::{Outcome, Summary};
use super::report::Report;
use super::smiles::table::Columns;
use crate::diagnostics::RejectedRun;
use crate::inputs::collect_files;
use crate::report::html::{Cell, HtmlPage, HtmlTable, Section, escape, rejected_section};
use crate::report::merge::Part;
use crate::report::plot::{self, BarChart, Bars, colour_css};
use crate::report::rerender::{Rendered, Rerender, left_out};
use base64::prelude::{BASE64_STANDARD, Engine as _};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Image extensions tried for a clip, in this order.
const CLIP_EXTENSIONS: [&str; 6] = ["png", "tif", "tiff", "PNG", "TIF", "TIFF"];

/// The review's own rules (the page's shared style does the rest); class
/// names specific enough not to touch the other tasks' sections.
const STYLE: &str = "nav.filters label{margin-right:1em;cursor:pointer;text-decoration:underline}\
.card{border:1px solid #ccc;margin:1em 0;padding:.5em}.card h3,.card h4{margin:.2em 0 .4em}\
.card .row{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}\
.side{border:1px solid #eee;padding:.3em}.clip{max-width:320px}\
.inchi{font-family:monospace;font-size:80%;word-break:break-all;max-width:320px}\
.smiles{font-family:monospace;word-break:break-all;max-width:320px;margin:.3em 0}\
.reason{font-size:85%;overflow-wrap:anywhere;max-width:320px}\
.mol line,.mol polyline{stroke:#000;stroke-width:1.3;fill:none}.mol .dash{stroke-dasharray:3 2}\
.mol .dot{stroke-dasharray:1 2}.mol text{font-size:13px}.mol .sup,.mol .sub{font-size:9px}\
.o{padding:0 .4em;border-radius:3px;color:#fff}\
.o-match{background:#2a7}.o-stereo{background:#49c}.o-formula{background:#c80}\
.o-wrong{background:#c33}.o-unreadable{background:#838}.o-missing{background:#777}\
.o-manual{background:#555}";

/// The report page for the results of every run and the runs not scored
/// (`rejected`); `clips` is the folder of clip images named by structure
/// stem.
pub fn html(runs: &[RunResult], rejected: &[RejectedRun], clips: Option<&Path>) -> String {
    HtmlPage::new("clefeval recognition")
        .sections(sections(runs, clips))
        .sections(rejected_section("rec", rejected))
        .render()
}

/// The report's sections, for this page or a combined one (the demo):
/// `rec-outcomes` (the summary table and the charts `rec-outcome-bars`,
/// `rec-layer-bars`) and `rec-review` (the gallery, filter ids
/// `f-<outcome>`).
pub fn sections(runs: &[RunResult], clips: Option<&Path>) -> Vec<Section> {
    named_sections(runs, clips, &Naming::default())
}

/// How one evaluation's sections are named on a page that holds several
/// (the demo): the ids' first word, and what the titles add.
pub struct Naming<'a> {
    /// `rec` gives the ids of [`sections`]; another key prefixes every id
    /// (`KEY-outcomes`, `KEY-f-match`).
    pub key: &'a str,
    /// Added to the titles (`Outcomes: SUBJECT`).
    pub subject: Option<&'a str>,
}

impl Default for Naming<'_> {
    fn default() -> Self {
        Naming {
            key: "rec",
            subject: None,
        }
    }
}

impl Naming<'_> {
    fn id(&self, what: &str) -> String {
        format!("{}-{what}", self.key)
    }

    /// The prefix of the gallery's filter ids.
    fn filters(&self) -> String {
        if self.key == "rec" {
            String::new()
        } else {
            format!("{}-", self.key)
        }
    }

    fn title(&self, title: &str) -> String {
        match self.subject {
            Some(subject) => format!("{title}: {subject}"),
            None => title.to_string(),
        }
    }
}

/// [`sections`] named by `naming`.
pub fn named_sections(runs: &[RunResult], clips: Option<&Path>, naming: &Naming) -> Vec<Section> {
    vec![outcomes(runs, naming), review(runs, clips, naming)]
}

/// Outcome counts per run: the table and grouped bars (categories: the
/// outcomes; one bar per run in its palette colour), then the structures
/// whose InChIs differ by the first layer that does, as bars too.
fn outcomes(runs: &[RunResult], naming: &Naming) -> Section {
    let mut headers = vec![
        "run",
        "structures",
        "automatic",
        "recalled",
        "%",
        "% ignoring stereo",
        "stereo gold",
        "% on stereo",
    ];
    headers.extend(Outcome::ALL.iter().skip(1).map(|o| o.name()));
    let mut table = HtmlTable::new(headers);
    let count = |n: usize| Cell::number(n.to_string(), n as f64);
    for (i, run) in runs.iter().enumerate() {
        let s = &run.summary;
        let mut row = vec![
            Cell::swatch(run.run.clone(), &colour_css(i)),
            count(s.structures),
            count(s.automatic),
            count(s.matched),
            percent(s.recall),
            percent(s.recall_ignoring_stereo),
            count(s.stereo_structures),
            percent(s.stereo_recall),
        ];
        row.extend(Outcome::ALL.iter().skip(1).map(|&o| count(s.count(o))));
        table.row(row);
    }
    let spec = per_run(
        runs,
        ("Outcomes per run", "outcome"),
        Outcome::ALL.map(Outcome::name),
        |s, k| Outcome::ALL.get(k).map_or(0, |&o| s.count(o)),
    );
    let layers = per_run(
        runs,
        ("First differing InChI layer per run", "layer"),
        Layer::ALL.map(Layer::name),
        |s, k| {
            Layer::ALL
                .get(k)
                .map_or(0, |&l| s.first_difference.count(l))
        },
    );
    let mut section = Section::new(&naming.id("outcomes"), &naming.title("Outcomes"))
        .paragraph("Recalled: structures whose Standard InChI equals the gold one, out of the automatic set (manual gold structures excluded).")
        .paragraph("Automatic: a gold structure the InChI library gives a Standard InChI for, scored by comparing InChIs. Manual: a gold structure it gives none for (an alias, an R-group, a pseudo-atom, an unreadable file), left to visual review and counted in no ratio. The outcomes of an automatic structure, best first: match (equal InChIs); stereo (equal but for the stereo layers); formula (the same formula, other connections); wrong (another formula); unreadable (the submitted structure has no InChI); missing (no submitted structure). The definitions are in docs/metrics.md of clefeval.")
        .paragraph("Ignoring stereo: structures whose InChIs are equal once the stereo layers are dropped (match or stereo), out of the automatic set. Stereo gold: automatic gold structures whose InChI has a stereo layer; on stereo: those matched, out of them.")
        .table(table);
    section = match plot::bar_chart(&spec) {
        Ok(chart) => section.chart(&naming.id("outcome-bars"), &chart),
        Err(e) => section.paragraph(&e.to_string()),
    };
    section = section.paragraph("Where a submission's InChI differs from the gold one, the first layer group that differs, in this order: formula; connections (/c); hydrogens (/h); charge (/q); protons (/p); stereo (/b, /t, /m, /s); isotopes (/i and after).");
    match plot::bar_chart(&layers) {
        Ok(chart) => section.chart(&naming.id("layer-bars"), &chart),
        Err(e) => section.paragraph(&e.to_string()),
    }
}

/// Grouped bars of `categories` (each `count(summary, index)`), one bar
/// per run in its palette colour; `(title, x label)`.
fn per_run<const N: usize>(
    runs: &[RunResult],
    (title, x_label): (&str, &str),
    categories: [&str; N],
    count: impl Fn(&Summary, usize) -> usize,
) -> BarChart {
    BarChart {
        title: title.into(),
        x_label: x_label.into(),
        y_label: "structures".into(),
        categories: categories.iter().map(|c| c.to_string()).collect(),
        bars: (runs.iter().enumerate())
            .map(|(i, run)| Bars {
                name: run.run.clone(),
                colour: i,
                counts: (0..N).map(|k| count(&run.summary, k) as u64).collect(),
            })
            .collect(),
    }
}

/// A ratio shown as a percentage with two decimals.
fn percent(ratio: f64) -> Cell {
    Cell::number(format!("{:.2}", 100.0 * ratio), 100.0 * ratio)
}

/// The gallery: filter buttons, then one card per gold structure.
fn review(runs: &[RunResult], clips: Option<&Path>, naming: &Naming) -> Section {
    let f = naming.filters();
    let mut out = format!("<style>{STYLE}{}</style>\n", filter_style(&f));
    let filters = std::iter::once("all").chain(Outcome::ALL.iter().map(|o| o.name()));
    for id in filters.clone() {
        let checked = if id == "all" {
            " checked=\"checked\""
        } else {
            ""
        };
        let _ = write!(
            out,
            "<input type=\"radio\" name=\"{f}f\" id=\"{f}f-{id}\" hidden=\"hidden\"{checked}/>"
        );
    }
    out.push_str("\n<nav class=\"filters\">Show: ");
    for id in filters {
        let _ = write!(out, "<label for=\"{f}f-{id}\">{id}</label> ");
    }
    out.push_str("</nav>\n<main>\n");
    for (name, rows) in by_structure(runs) {
        card(&mut out, name, &rows, clips);
    }
    out.push_str("</main>\n");
    Section::new(&naming.id("review"), &naming.title("Review")).html(out)
}

/// CSS rules hiding the cards without the checked outcome and marking the
/// label of the checked filter (filter ids prefixed by `f`).
fn filter_style(f: &str) -> String {
    let mut css = format!("#{f}f-all:checked~nav label[for={f}f-all]{{font-weight:bold}}");
    for o in Outcome::ALL {
        let n = o.name();
        let _ = write!(
            css,
            "#{f}f-{n}:checked~main .card:not(.has-{n}){{display:none}}\
             #{f}f-{n}:checked~nav label[for={f}f-{n}]{{font-weight:bold}}"
        );
    }
    css
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
        "<section class=\"card {}\"><h3>{}</h3><div class=\"row\">",
        has.join(" "),
        escape(name)
    );
    if let Some(folder) = clips {
        out.push_str("<div class=\"side\"><b>clip</b><br/>");
        match clip(folder, name) {
            Ok(Some(data)) => {
                let _ = write!(
                    out,
                    "<img class=\"clip\" alt=\"clip\" src=\"data:image/png;base64,{data}\"/>"
                );
            }
            Ok(None) => out.push_str("<i>no clip image</i>"),
            Err(e) => {
                let _ = write!(out, "<i>{}</i>", escape(&e));
            }
        }
        out.push_str("</div>");
    }
    // A `manual` outcome is the gold's: its reason goes on the gold's card.
    let manual = (rows.iter())
        .find(|(_, s)| s.outcome == Outcome::Manual)
        .map(|(_, s)| s.reason.as_deref().unwrap_or("no InChI"));
    if let Some((_, first)) = rows.first() {
        let mut header = String::from("<b>gold</b>");
        if let Some(reason) = manual {
            let _ = write!(
                header,
                " <span class=\"o o-manual\">manual</span><div class=\"reason\">{}: left to \
                 visual review</div>",
                escape(reason)
            );
        }
        side(
            out,
            &header,
            first.gold_molecule.as_ref(),
            first.gold_smiles.as_deref(),
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
        match (&s.reason, s.outcome) {
            (_, Outcome::Manual) => header.push_str(
                "<div class=\"reason\">not scored: the gold structure has no Standard InChI</div>",
            ),
            (Some(reason), _) => {
                let _ = write!(header, "<div class=\"reason\">{}</div>", escape(reason));
            }
            (None, _) => {}
        }
        side(
            out,
            &header,
            s.run_molecule.as_ref(),
            s.run_smiles.as_deref(),
            s.run_inchi.as_deref(),
            s.run_warning.as_deref(),
        );
    }
    out.push_str("</div></section>\n");
}

/// One structure under `header` (HTML): drawn from its MOL coordinates,
/// or, given as SMILES (which has no coordinates), the SMILES as written;
/// then its InChI and warning.
fn side(
    out: &mut String,
    header: &str,
    molecule: Option<&Molecule>,
    smiles: Option<&str>,
    inchi: Option<&str>,
    warning: Option<&str>,
) {
    let _ = write!(out, "<div class=\"side\">{header}<br/>");
    match (molecule, smiles) {
        (Some(m), _) => out.push_str(&draw::svg(m)),
        (None, Some(s)) => {
            let _ = write!(out, "<div class=\"smiles\">SMILES {}</div>", escape(s));
        }
        (None, None) => out.push_str("<i>no drawing</i>"),
    }
    let _ = write!(
        out,
        "<div class=\"inchi\">{}</div>",
        escape(inchi.unwrap_or("no InChI"))
    );
    if let Some(w) = warning {
        let _ = write!(out, "<div class=\"reason\">warning: {}</div>", escape(w));
    }
    out.push_str("</div>");
}

/// The clip image of `name` in `folder`, converted to PNG and base64
/// encoded; `None` when there is no such image. Any entry of the name
/// counts: a folder or a FIFO named like a clip is opened through
/// [`crate::inputs::open_regular`], refused unopened and named.
fn clip(folder: &Path, name: &str) -> Result<Option<String>, String> {
    let Some(path) = CLIP_EXTENSIONS
        .iter()
        .map(|ext| folder.join(format!("{name}.{ext}")))
        .find(|p| p.exists())
    else {
        return Ok(None);
    };
    let named = |why: String| format!("clip {}: {why}", path.display());
    let file = crate::inputs::open_regular(&path).map_err(named)?;
    let mut reader = image::ImageReader::new(std::io::BufReader::new(file));
    if let Ok(format) = image::ImageFormat::from_path(&path) {
        reader.set_format(format);
    }
    let image = reader.decode().map_err(|e| named(e.to_string()))?;
    let mut png = std::io::Cursor::new(Vec::new());
    image
        .write_to(&mut png, image::ImageFormat::Png)
        .map_err(|e| format!("clip {}: {e}", path.display()))?;
    Ok(Some(BASE64_STANDARD.encode(png.get_ref())))
}

/// `clefeval report` of a saved recognition result: its table or CSV,
/// and its page, the molecules drawn from the input files when `asked`
/// gives them again (runs by name, as scored).
pub fn rerender(part: &Part, _text: &str, asked: &Rerender) -> Result<Rendered, String> {
    let mut report: Report = part.read()?;
    let mut rendered = Rendered {
        text: report.render(asked.format),
        ..Rendered::default()
    };
    if !asked.page {
        return Ok(rendered);
    }
    if asked.gold.is_empty() || asked.runs.is_empty() {
        rendered
            .notes
            .push(left_out("molecule drawings", "--gold and --run"));
    }
    let columns = Columns {
        name: report.settings.name_column.clone(),
        smiles: report.settings.smiles_column.clone(),
    };
    let (gold, _) = collect_files(asked.gold, &formats::extensions());
    // Gold data that no longer lists is drawn from nothing; the page says
    // so through the structures' missing drawings.
    let gold = listing::list(&gold, true, &columns).unwrap_or_default();
    let paths: BTreeMap<&str, &PathBuf> = (asked.runs.iter())
        .map(|r| (r.name.as_str(), &r.path))
        .collect();
    let drawn = |source: &Source| match source {
        Source::File(path) => formats::read_file(path).ok().map(|r| r.molecule),
        Source::Entry { .. } => None,
    };
    for run in &mut report.runs {
        let files = paths.get(run.run.as_str()).map_or_else(Vec::new, |p| {
            collect_files(std::slice::from_ref(*p), &formats::extensions()).0
        });
        let listed = listing::list(&files, false, &columns).unwrap_or_default();
        let (pairs, _) = listing::pair(&gold, listed);
        let by_name: BTreeMap<String, _> = pairs.into_iter().map(|p| (p.name.clone(), p)).collect();
        for s in &mut run.structures {
            let Some(pair) = by_name.get(&s.name) else {
                continue;
            };
            s.gold_molecule = drawn(&pair.gold);
            s.run_molecule = pair.run.as_ref().and_then(drawn);
        }
    }
    rendered.page = Some(html(&report.runs, &report.rejected_runs, asked.clips));
    Ok(rendered)
}
