//! `clefeval detection`: boxes with scores by COCO average precision
//! (docs/detection.md). Parses the arguments, runs
//! [`crate::detection::evaluate::evaluate`] and prints its report.

use super::{
    CommonArgs, Fatal, Status, Written, check_inputs, emit, given_runs, note_rejected,
    with_threads, write_file,
};
use crate::detection::evaluate::{Input, Options, RunInput, evaluate, input_digests};
use crate::detection::html::html;
use crate::detection::settings::Requested;
use crate::inputs::{Run, distinct_names};
use crate::report::OutputFormat;
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Clone, Args)]
pub struct DetectionArgs {
    /// The COCO ground-truth file (images, annotations, categories).
    #[arg(long, required = true, value_name = "PATH")]
    pub gold: PathBuf,
    /// A COCO detections file (a list of image_id, category_id, bbox,
    /// score); repeat for several runs.
    #[arg(long, required = true, value_name = "PATH")]
    pub run: Vec<PathBuf>,
    /// IoU thresholds, a list [default: 0.50, 0.55, …, 0.95 as numpy's
    /// linspace(.5, .95, 10)].
    #[arg(long, value_name = "X,...")]
    pub iou_thresholds: Option<String>,
    /// The three maxDets values: detections kept per image and category
    /// [default: 1,10,100].
    #[arg(long, value_name = "N,...")]
    pub max_dets: Option<String>,
    /// Score only these category ids [default: every category of the gold].
    #[arg(long, value_name = "N,...")]
    pub categories: Option<String>,
    /// Score only these image ids [default: every image of the gold].
    #[arg(long, value_name = "NAME,...")]
    pub images: Option<String>,
    /// Keep categories apart (pycocotools' useCats); false matches every
    /// category's boxes together.
    #[arg(long, value_name = "true|false")]
    pub use_cats: Option<bool>,
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub common: CommonArgs,
}

pub fn run(args: &DetectionArgs) -> Result<Status, Fatal> {
    check_inputs("--gold", std::slice::from_ref(&args.gold))?;
    let runs = given_runs(&args.run)?;
    args.common.check_outputs()?;
    let given = Requested {
        iou_thresholds: args.iou_thresholds.clone(),
        max_dets: args.max_dets.clone(),
        categories: args.categories.clone(),
        images: args.images.clone(),
        use_cats: args.use_cats,
    };
    let params = given.check().map_err(|e| Fatal(e.flag()))?;
    distinct_names(&runs).map_err(Fatal)?;
    let options = Options {
        gold: Input::File(args.gold.clone()),
        runs: RunInput::files(&runs),
        params,
        shard: args.common.shard,
    };
    let mut report = with_threads(args.threads, || evaluate(&options))?.map_err(|e| Fatal(e.0))?;
    report.inputs = input_digests(&args.gold, &Run::paths(&runs));
    note_rejected(&report.rejected_runs, &report.skipped_files, &args.common);
    emit(
        &report.render(args.common.format),
        args.common.output.as_deref(),
    )?;
    let mut written = Written::default();
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
