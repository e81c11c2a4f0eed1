//! One evaluation from files: read the gold boxes and every run, check the
//! boxes against the page images, draw overlays, score each run, and gather
//! the findings into a [`Report`].

use super::boxes::{BoxSet, Origin};
use super::formats::Context;
use super::overlay::Overlays;
use super::pages::{PageInfo, read_pages};
use super::report::{Findings, Report, RunReport, Settings};
use super::score::{CrowdedPage, max_pairs, score};
use super::settings::Requested;
use super::tolerances::{DEFAULT_DPI, Tolerances};
use super::{csv, formats};
use crate::diagnostics::{Diagnostic, RejectedRun, every_run_rejected, has_error};
use crate::inputs::{
    InputFiles, Run, Shard, collect_files, digests, distinct_names, none_in, run_rejection,
    skipped_in,
};
use crate::report::progress_bar;
use crate::task::{Request, TaskError, settings_from_json, with_threads};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The digests of the input files an evaluation names (`inputs` of its
/// JSON): the gold box files, every run's, and the page images if given.
pub fn input_digests(
    gold: &[PathBuf],
    runs: &[PathBuf],
    pages: Option<&PathBuf>,
) -> Vec<InputFiles> {
    let (boxes, images) = (
        Some(csv::MAX_FILE_BYTES),
        Some(super::pages::MAX_FILE_BYTES),
    );
    let extensions = formats::extensions();
    digests(&[
        ("gold", gold, &extensions, boxes),
        ("run", runs, &extensions, boxes),
        (
            "pages",
            pages.map(std::slice::from_ref).unwrap_or_default(),
            &["tif", "tiff"],
            images,
        ),
    ])
}

/// What a run or the gold must hold, as messages say.
const BOX_FILES: &str = "readable box files (*.csv, *.sdf, *.json)";

/// What to evaluate.
#[derive(Clone, Debug)]
pub struct Options {
    pub gold: Vec<PathBuf>,
    /// The runs, each named; no two of one name.
    pub runs: Vec<Run>,
    pub tolerances: Tolerances,
    /// Folder of `<doc-id>.tif` page images.
    pub pages: Option<PathBuf>,
    /// Folder for overlay PNGs and the pixel tolerance they show.
    pub overlays: Option<(PathBuf, u32)>,
    /// Draw a progress bar on stderr while page images are read.
    pub progress: bool,
    /// Score only this part of the documents ([`Shard::topics`], by each
    /// gold document's boxes; the documents without gold boxes are part 1's).
    /// The page checks are made for every document in every part.
    pub shard: Option<Shard>,
    /// The lowest score of a COCO detection kept (`None`: every one).
    pub min_score: Option<f64>,
}

/// Gold data that cannot be scored against, or no run to score: the
/// command cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoldError(pub String);

/// Reads every box file named by `paths` (files, or folders of files of
/// the [`formats`]) into one box set; `context` carries what one file
/// tells those read after it (the pages of COCO images).
pub fn read_boxes(paths: &[PathBuf], context: &mut Context) -> (BoxSet, Vec<Diagnostic>) {
    let (files, mut diagnostics) = collect_files(paths, &formats::extensions());
    let mut set = BoxSet::default();
    for file in &files {
        diagnostics.extend(formats::read_file(file, &mut set, context));
    }
    (set, diagnostics)
}

/// The line of a box for a diagnostic: none for a box of a COCO file
/// (line 0), whose place is a JSON path.
fn line_of(origin: Origin) -> Option<usize> {
    (origin.line > 0).then_some(origin.line as usize)
}

/// The page image of `doc` in `dir`: `<doc>.tif` or `<doc>.tiff`. Any
/// entry of that name counts (a folder or a FIFO too): reading it names it
/// and says why it is no page image.
fn page_file(dir: &Path, doc: &str) -> Option<PathBuf> {
    ["tif", "tiff", "TIF", "TIFF"]
        .iter()
        .map(|ext| dir.join(format!("{doc}.{ext}")))
        .find(|p| p.exists())
}

/// Errors for the pages of `run` that were not matched: too many
/// candidate pairs ([`max_pairs`]). Each names the file and line of the
/// page's first submitted box.
pub fn crowded_pages(
    gold: &BoxSet,
    run: &BoxSet,
    crowded: &[CrowdedPage],
    out: &mut Vec<Diagnostic>,
) {
    for CrowdedPage { doc, page } in crowded {
        let (subs, golds) = (run.page(doc, *page), gold.page(doc, *page));
        let first = subs.first();
        let (subs, golds) = (subs.len(), golds.len());
        out.push(Diagnostic::error(
            first.map_or_else(|| doc.clone(), |e| run.file_of(e.origin).to_string()),
            first.and_then(|e| line_of(e.origin)),
            format!(
                "page {page} of {doc}: {subs} submitted and {golds} gold boxes give more than {} candidate pairs (boxes piled within tolerance of each other): nothing on it is matched",
                max_pairs(subs, golds)
            ),
        ));
    }
}

/// Warnings for boxes on pages the document does not have or reaching
/// past the page's edge.
fn check_boxes(set: &BoxSet, pages: &BTreeMap<String, Vec<PageInfo>>, out: &mut Vec<Diagnostic>) {
    for (doc, document) in &set.documents {
        let Some(infos) = pages.get(doc) else {
            continue;
        };
        for (&page, entries) in &document.pages {
            for e in entries {
                let file = set.file_of(e.origin);
                let line = line_of(e.origin);
                let b = &e.bbox;
                match infos.get((page as usize).wrapping_sub(1)) {
                    None => out.push(Diagnostic::warning(
                        file,
                        line,
                        format!("box on page {page} of {doc}, which has {} pages", infos.len()),
                    )),
                    Some(p) if b.right() > u64::from(p.width) || b.bottom() > u64::from(p.height) => {
                        out.push(Diagnostic::warning(
                            file,
                            line,
                            format!(
                                "box x {} y {} width {} height {} reaches past page {page} of {doc} ({} × {} pixels)",
                                b.x, b.y, b.width, b.height, p.width, p.height
                            ),
                        ))
                    }
                    Some(_) => {}
                }
            }
        }
    }
}

/// Reads the page image of `doc` (drawing its overlays): the pages, or
/// `None` with the reason among the diagnostics.
fn read_document(
    dir: &Path,
    doc: &str,
    overlays: Option<&Overlays>,
) -> (Option<Vec<PageInfo>>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let Some(file) = page_file(dir, doc) else {
        diagnostics.push(Diagnostic::warning(
            dir.display().to_string(),
            None,
            format!("no page image {doc}.tif: no page checks for this document"),
        ));
        return (None, diagnostics);
    };
    let result = read_pages(&file, |number, _, bitmap| {
        if let Some(o) = overlays {
            o.draw(doc, number, bitmap, &mut diagnostics);
        }
    });
    match result {
        Ok(infos) => (Some(infos), diagnostics),
        Err(e) => {
            diagnostics.push(Diagnostic::error(
                file.display().to_string(),
                None,
                format!("{e}; no page checks for this document"),
            ));
            (None, diagnostics)
        }
    }
}

/// Runs the evaluation. A run that holds no readable box file, or no
/// document of the gold, is rejected with its reason and the others are
/// scored. Fails only when the gold data cannot be read at all or every run
/// is rejected.
pub fn evaluate(options: &Options) -> Result<Report, GoldError> {
    evaluate_drawing(options).map(|(report, _)| report)
}

/// The evaluation of a [`Request`] (the C API's generic entry): its
/// settings checked by [`Requested::check`], the JSON the command writes.
/// Overlays are drawn by the command line and Python only.
pub fn evaluate_request(request: &Request) -> Result<String, TaskError> {
    let given: Requested = settings_from_json(&request.settings)?;
    let checked = given.check(request.pages.is_some(), request.overlays.is_some())?;
    let runs = request.runs();
    let run_paths = Run::paths(&runs);
    let named: Vec<&PathBuf> = (request.gold.iter().chain(&run_paths))
        .chain(&request.pages)
        .collect();
    request.check(&["qrels", "groups", "worker"], &named)?;
    if let Some(dir) = request.pages.as_ref().filter(|p| !p.is_dir()) {
        return Err(TaskError::path(dir, "is not a folder"));
    }
    if let Some(dir) = &request.overlays {
        crate::outputs::check_output_folder(Some(dir))
            .map_err(|message| TaskError::in_file(message, &dir.display().to_string()))?;
    }
    let options = Options {
        gold: request.gold.clone(),
        runs,
        tolerances: checked.tolerances,
        pages: request.pages.clone(),
        overlays: request.overlays.clone().zip(checked.at),
        progress: false,
        shard: request.shard()?,
        min_score: checked.min_score,
    };
    let mut report = with_threads(request.threads, || evaluate(&options))?.map_err(|e| {
        TaskError::located(e.0, &read_boxes(&options.gold, &mut Context::default()).1)
    })?;
    report.inputs = input_digests(&options.gold, &run_paths, options.pages.as_ref());
    Ok(crate::report::to_json(&report))
}

/// [`evaluate`], with the number of overlay PNG files written.
pub fn evaluate_drawing(options: &Options) -> Result<(Report, usize), GoldError> {
    distinct_names(&options.runs).map_err(GoldError)?;
    let mut context = Context {
        min_score: options.min_score,
        ..Context::default()
    };
    let (mut gold, mut diagnostics) = read_gold(options, &mut context)?;
    let mut runs = read_runs(options, &gold, &context);
    every_run_rejected(runs.sets.len(), &runs.rejected).map_err(GoldError)?;
    let (pages, drawn) = match &options.pages {
        Some(dir) => check_pages(options, dir, &gold, &mut runs, &mut diagnostics),
        None => (BTreeMap::new(), 0),
    };
    if let Tolerances::Millimetres(_) = options.tolerances {
        warn_no_resolution(&pages, &mut diagnostics);
    }
    if let Some(shard) = options.shard {
        keep_part(shard, &mut gold, &mut runs);
    }
    let dpi = |doc: &str, page: u32| pages.get(doc)?.get((page as usize).checked_sub(1)?)?.dpi;
    let reports = runs
        .sets
        .into_iter()
        .zip(runs.names)
        .map(|((run, mut d), name)| {
            let sweep = score(&gold, &run, &options.tolerances, &dpi);
            crowded_pages(&gold, &run, &sweep.crowded, &mut d);
            RunReport::new(name, &sweep, &options.tolerances, d)
        })
        .collect();
    let settings = Settings {
        gold: options
            .gold
            .iter()
            .map(|p| p.display().to_string())
            .collect(),
        unit: options.tolerances.unit(),
        tolerances: options.tolerances.iter().collect(),
        pages: options.pages.as_ref().map(|p| p.display().to_string()),
        overlays: options.overlays.as_ref().map(|o| o.0.display().to_string()),
        overlay_tolerance: options.overlays.as_ref().map(|o| o.1),
        min_score: options.min_score,
    };
    let extensions = formats::extensions();
    let mut skipped = skipped_in(&options.gold, &extensions, BOX_FILES);
    for Run { path, name } in &options.runs {
        if !runs.rejected.iter().any(|r| r.run == *name) {
            skipped.extend(skipped_in(
                std::slice::from_ref(path),
                &extensions,
                BOX_FILES,
            ));
        }
    }
    let report = Report {
        shard: options.shard,
        head: Findings { diagnostics },
        rejected_runs: runs.rejected,
        skipped_files: skipped,
        ..Report::whole("segmentation", settings, reports)
    };
    Ok((report, drawn))
}

/// Keeps the documents of `shard` in the gold and the runs: the part of
/// each gold document by its number of boxes, a document without gold
/// boxes in part 1.
fn keep_part(shard: Shard, gold: &mut BoxSet, runs: &mut Runs) {
    let costs = (gold.documents.iter()).map(|(doc, d)| (doc.as_str(), d.len() as u64));
    let mine = shard.topics(costs);
    for (run, _) in &mut runs.sets {
        run.documents.retain(|doc, _| {
            mine.contains(doc) || (shard.index == 1 && !gold.documents.contains_key(doc))
        });
    }
    gold.documents.retain(|doc, _| mine.contains(doc));
}

/// The gold boxes and their diagnostics. Unreadable gold is a
/// [`GoldError`] (exit 2): no file read, or files read with errors and not
/// one box (e.g. junk named gold.csv). Gold with some bad lines and some
/// boxes is scored, the bad lines reported.
fn read_gold(
    options: &Options,
    context: &mut Context,
) -> Result<(BoxSet, Vec<Diagnostic>), GoldError> {
    let (gold, diagnostics) = read_boxes(&options.gold, context);
    let nothing_read = gold.files.is_empty() || (gold.is_empty() && has_error(&diagnostics));
    if !nothing_read {
        return Ok((gold, diagnostics));
    }
    if diagnostics.is_empty() {
        return Err(GoldError(none_in("--gold", &options.gold, BOX_FILES)));
    }
    let why: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
    Err(GoldError(format!(
        "no gold box could be read: {}",
        why.join("; ")
    )))
}

/// The runs read: for each run scored, its boxes with its diagnostics and
/// its name; the runs rejected with their reasons.
struct Runs {
    sets: Vec<(BoxSet, Vec<Diagnostic>)>,
    names: Vec<String>,
    rejected: Vec<RejectedRun>,
}

/// Reads every run; a run with no box file, or none on a gold document,
/// is rejected. A scored run's documents without gold boxes are warned of.
fn read_runs(options: &Options, gold: &BoxSet, context: &Context) -> Runs {
    let mut runs = Runs {
        sets: Vec::new(),
        names: Vec::new(),
        rejected: Vec::new(),
    };
    for Run { name, path } in &options.runs {
        let name = name.clone();
        let (run, mut d) = read_boxes(std::slice::from_ref(path), &mut context.clone());
        let matched = run
            .documents
            .keys()
            .filter(|doc| gold.documents.contains_key(*doc))
            .count();
        if let Some(reason) = run_rejection(path, run.files.len(), matched, BOX_FILES, "document") {
            runs.rejected.push(RejectedRun::new(name, reason, &d));
            continue;
        }
        for doc in run
            .documents
            .keys()
            .filter(|d| !gold.documents.contains_key(*d))
        {
            d.push(Diagnostic::warning(
                path.display().to_string(),
                None,
                format!("document {doc:?} has no gold boxes: its boxes count as false positives"),
            ));
        }
        runs.sets.push((run, d));
        runs.names.push(name);
    }
    runs
}

/// Reads the page images of every document of the gold and the runs from
/// `dir` (drawing the overlays when asked) and checks every box against its
/// page; returns the pages read by document and the overlays written.
fn check_pages(
    options: &Options,
    dir: &Path,
    gold: &BoxSet,
    runs: &mut Runs,
    diagnostics: &mut Vec<Diagnostic>,
) -> (BTreeMap<String, Vec<PageInfo>>, usize) {
    let mut pages: BTreeMap<String, Vec<PageInfo>> = BTreeMap::new();
    let overlays = options
        .overlays
        .as_ref()
        .map(|(dir, at)| Overlays::new(dir, *at, gold, &runs.sets, &runs.names));
    let docs: Vec<&String> = gold
        .documents
        .keys()
        .chain(runs.sets.iter().flat_map(|(r, _)| r.documents.keys()))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let bar = progress_bar(options.progress, "pages");
    bar.set_length(docs.len() as u64);
    // Documents are read in parallel, one page at a time each; results
    // are gathered in document order, so the output does not depend on
    // the thread count.
    let read: Vec<(Option<Vec<PageInfo>>, Vec<Diagnostic>)> = docs
        .par_iter()
        .map(|doc| {
            let read = read_document(dir, doc, overlays.as_ref());
            bar.inc(1);
            read
        })
        .collect();
    for (doc, (infos, d)) in docs.iter().zip(read) {
        diagnostics.extend(d);
        if let Some(infos) = infos {
            pages.insert((*doc).clone(), infos);
        }
    }
    bar.finish_and_clear();
    let drawn = overlays.map_or(0, |o| o.written());
    check_boxes(gold, &pages, diagnostics);
    for (run, d) in &mut runs.sets {
        check_boxes(run, &pages, d);
    }
    (pages, drawn)
}

/// A warning per document whose pages lack a resolution, when tolerances
/// are in millimetres (the default resolution is assumed).
fn warn_no_resolution(pages: &BTreeMap<String, Vec<PageInfo>>, diagnostics: &mut Vec<Diagnostic>) {
    for (doc, infos) in pages {
        if let Some(p) = infos.iter().position(|i| i.dpi.is_none()) {
            diagnostics.push(Diagnostic::warning(
                doc.as_str(),
                None,
                format!(
                    "page {} has no resolution: {DEFAULT_DPI} dpi assumed",
                    p + 1
                ),
            ));
        }
    }
}
