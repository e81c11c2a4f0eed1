//! `clefeval segmentation`: bounding boxes over pixel tolerances
//! (docs/segmentation.md). Parses the arguments, runs
//! [`crate::segmentation::evaluate`] and prints its report.

use super::{
    CommonArgs, Fatal, Status, Written, check_input_folder, check_inputs, check_output_folder,
    emit, given_runs, note_rejected, with_threads, write_file,
};
use crate::inputs::Run;
use crate::report::{OutputFormat, show_progress};
use crate::segmentation::evaluate::{Options, evaluate_drawing, input_digests};
use crate::segmentation::html::html;
use crate::segmentation::settings::Requested;
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Clone, Args)]
pub struct SegmentationArgs {
    /// Gold CSV (or COCO ground-truth JSON) file or folder.
    #[arg(long, required = true, value_name = "PATH")]
    pub gold: Vec<PathBuf>,
    /// Submitted CSV (or OSRA SDF, or COCO JSON) file or folder; repeat for several runs.
    #[arg(long, required = true, value_name = "PATH")]
    pub run: Vec<PathBuf>,
    /// Folder of the patents' page images, `<doc-id>.tif`.
    #[arg(long, value_name = "DIR")]
    pub pages: Option<PathBuf>,
    /// Tolerances in pixels: a range `0..=55` or a list `0,10,20` [default:
    /// 0..=55]. When given, the table shows every one of them; otherwise it
    /// shows the standard rows 0, 10, 20, 40, 55 (the JSON always has all).
    #[arg(long, value_name = "N..=N|N,...")]
    pub tolerances: Option<String>,
    /// Tolerances in millimetres instead, converted through each page's resolution.
    #[arg(long, value_name = "X,...")]
    pub tolerance_mm: Option<String>,
    /// Write one overlay PNG per page into this folder.
    #[arg(long, value_name = "DIR")]
    pub overlays: Option<PathBuf>,
    /// The tolerance the overlays show, in pixels.
    #[arg(long, value_name = "N")]
    pub at: Option<u32>,
    /// COCO detections files: leave out the boxes scored below this.
    #[arg(long, value_name = "X", allow_negative_numbers = true)]
    pub min_score: Option<f64>,
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub common: CommonArgs,
}

pub fn run(args: &SegmentationArgs) -> Result<Status, Fatal> {
    check_inputs("--gold", &args.gold)?;
    let runs = given_runs(&args.run)?;
    check_input_folder("--pages", args.pages.as_deref())?;
    args.common.check_outputs()?;
    check_output_folder(args.overlays.as_deref())?;
    let given = Requested {
        tolerances: args.tolerances.clone(),
        tolerance_mm: args.tolerance_mm.clone(),
        at: args.at,
        min_score: args.min_score,
    };
    let checked = (given.check(args.pages.is_some(), args.overlays.is_some()))
        .map_err(|e| Fatal(e.flag()))?;
    let options = Options {
        gold: args.gold.clone(),
        runs: runs.clone(),
        tolerances: checked.tolerances,
        pages: args.pages.clone(),
        overlays: args.overlays.clone().zip(checked.at),
        min_score: checked.min_score,
        progress: show_progress(args.common.quiet),
        shard: args.common.shard,
    };
    let (mut report, drawn) =
        with_threads(args.threads, || evaluate_drawing(&options))?.map_err(|e| Fatal(e.0))?;
    report.inputs = input_digests(&args.gold, &Run::paths(&runs), args.pages.as_ref());
    note_rejected(&report.rejected_runs, &report.skipped_files, &args.common);
    let text = report.render(args.common.format, checked.chosen);
    emit(&text, args.common.output.as_deref())?;
    let mut written = Written::default();
    if let Some(dir) = &args.overlays {
        written.folder(drawn, "overlay image", dir, " (a folder per run)");
    }
    written.output(&args.common.format, args.common.output.as_deref());
    if let Some(path) = &args.common.html {
        write_file(path, html(&report))?;
        written.file("the HTML page", path);
    }
    if args.common.format != OutputFormat::Table && !args.common.quiet {
        for d in report.all_diagnostics() {
            eprintln!("{d}");
        }
    }
    written.close(args.common.quiet);
    Ok(0)
}
