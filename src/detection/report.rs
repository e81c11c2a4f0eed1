//! The results of `clefeval detection` as plain data: the JSON of
//! docs/detection.md, the text tables and the CSV, and the merge of the
//! parts of a sharded evaluation.

use super::matches::{self, Matches};
use super::params::{AREA_RANGES, Params};
use super::score::{
    Accumulated, Evaluated, accumulate, mean_defined, per_category, per_image, summarize,
};
use crate::coco::ImageId;
use crate::diagnostics::{Diagnostic, push_rejected};
use crate::inputs::push_skipped;
use crate::report::envelope::{Envelope, Findings, RunFindings};
use crate::report::merge::{Part, read_parts};
use crate::report::table::{Align, Table};
use crate::report::{OutputFormat, ratio, to_json};
use serde::{Deserialize, Serialize};

/// The whole output of one evaluation: the envelope of every result with
/// the detection settings, the findings about the gold file, and one
/// [`RunReport`] per run.
pub type Report = Envelope<Settings, RunReport, Findings>;

/// The settings an evaluation ran with (pycocotools' `Params` as chosen).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Settings {
    pub gold: Vec<String>,
    pub iou_thresholds: Vec<f64>,
    pub max_dets: [usize; 3],
    /// The categories scored; `null`: every category of the gold.
    pub categories: Option<Vec<i64>>,
    /// The images scored; `null`: every image of the gold.
    pub images: Option<Vec<ImageId>>,
    pub use_cats: bool,
    /// The IoU threshold of the per-image counts: 0.5 when it is one of
    /// the thresholds, otherwise the first.
    pub image_counts_iou: f64,
}

impl Settings {
    /// The settings written for `params`, the gold file given as `gold`.
    pub fn new(gold: String, params: &Params) -> Self {
        Settings {
            gold: vec![gold],
            iou_thresholds: params.iou_thresholds.clone(),
            max_dets: params.max_dets,
            categories: if params.use_cats {
                params.categories.clone()
            } else {
                None
            },
            images: params.images.clone(),
            use_cats: params.use_cats,
            image_counts_iou: params
                .iou_thresholds
                .get(counts_threshold(params))
                .copied()
                .unwrap_or(0.5),
        }
    }

    /// The parameters these settings were made from.
    pub fn params(&self) -> Params {
        Params {
            iou_thresholds: self.iou_thresholds.clone(),
            max_dets: self.max_dets,
            use_cats: self.use_cats,
            categories: self.categories.clone(),
            images: self.images.clone(),
            ..Params::default()
        }
    }
}

/// The index of the IoU threshold the per-image counts are taken at.
fn counts_threshold(params: &Params) -> usize {
    (params.iou_thresholds.iter().position(|&t| t == 0.5)).unwrap_or(0)
}

/// One of the twelve numbers of pycocotools' summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stat {
    /// `AP`, `AP50`, `AP75`, `APs`, `APm`, `APl`, `AR<m>` for each
    /// `maxDets` value `m`, `ARs`, `ARm`, `ARl`.
    pub name: String,
    /// The IoU thresholds averaged over, as pycocotools prints them
    /// (`0.50:0.95`, `0.50`).
    pub iou: String,
    pub area: String,
    pub max_dets: usize,
    /// −1 where there is no gold box to find.
    pub value: f64,
}

/// One category's figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CategoryAp {
    /// The category id (−1 when categories are pooled).
    pub id: i64,
    pub name: String,
    /// Gold boxes that count (not crowd), over the images scored.
    pub gold: usize,
    /// AP over every IoU threshold, area all, the largest `maxDets`; −1
    /// without a gold box.
    pub ap: f64,
}

/// One image's counts at [`Settings::image_counts_iou`], area all,
/// summed over categories.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImageCounts {
    pub image: ImageId,
    pub tp: usize,
    pub fp: usize,
    #[serde(rename = "fn")]
    pub fn_: usize,
}

/// The precision–recall curve at one IoU threshold: interpolated
/// precision at each of the 101 recall thresholds, area all, the largest
/// `maxDets`, the mean over categories with gold boxes (−1 where none).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Curve {
    pub iou: f64,
    pub precision: Vec<f64>,
}

/// One run's figures.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunReport {
    pub run: String,
    /// Detections in the run's file.
    pub detections: usize,
    /// Detections of a category the gold does not have, left out.
    pub dropped: usize,
    /// The twelve numbers, in pycocotools' order.
    pub summary: Vec<Stat>,
    pub categories: Vec<CategoryAp>,
    /// The curves at IoU 0.50 and 0.75 (those among the thresholds).
    pub curves: Vec<Curve>,
    /// Every image with a gold box or a detection, in evaluation order.
    pub images: Vec<ImageCounts>,
    #[serde(
        flatten,
        serialize_with = "crate::diagnostics::both_lists",
        deserialize_with = "crate::report::saved::diagnostics"
    )]
    pub diagnostics: Vec<Diagnostic>,
    /// In a part only: what accumulation needs ([`Matches`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matches: Option<Vec<Matches>>,
}

/// What a run's figures are made of besides its matches.
pub struct Scored<'a> {
    pub run: String,
    pub detections: usize,
    pub dropped: usize,
    /// Category names by id, in the evaluation's order.
    pub names: &'a [(i64, String)],
    pub diagnostics: Vec<Diagnostic>,
    /// Keep the matches (a part).
    pub part: bool,
}

/// The names, IoU labels, areas and `maxDets` of the twelve numbers.
pub(super) fn stat_labels(params: &Params) -> [(String, String, &'static str, usize); 12] {
    let thresholds = &params.iou_thresholds;
    let all = format!(
        "{:.2}:{:.2}",
        thresholds.first().copied().unwrap_or(0.0),
        thresholds.last().copied().unwrap_or(0.0)
    );
    let [m1, m10, m100] = params.max_dets;
    let area = |a: usize| AREA_RANGES.get(a).map_or("all", |r| r.label);
    let ap =
        |name: &str, iou: &str, a: usize, m: usize| (name.to_string(), iou.to_string(), area(a), m);
    [
        ap("AP", &all, 0, 100),
        ap("AP50", "0.50", 0, m100),
        ap("AP75", "0.75", 0, m100),
        ap("APs", &all, 1, m100),
        ap("APm", &all, 2, m100),
        ap("APl", &all, 3, m100),
        ap(&format!("AR{m1}"), &all, 0, m1),
        ap(&format!("AR{m10}"), &all, 0, m10),
        ap(&format!("AR{m100}"), &all, 0, m100),
        ap("ARs", &all, 1, m100),
        ap("ARm", &all, 2, m100),
        ap("ARl", &all, 3, m100),
    ]
}

/// The curves at IoU 0.50 and 0.75, those among the thresholds.
fn curves(acc: &Accumulated, params: &Params) -> Vec<Curve> {
    let [_, rr, kk, _, mm] = acc.dims;
    let largest = mm.saturating_sub(1);
    [0.5, 0.75]
        .iter()
        .filter_map(|&iou| {
            let t = params.iou_thresholds.iter().position(|&x| x == iou)?;
            let precision = (0..rr)
                .map(|r| mean_defined((0..kk).map(|k| acc.precision(t, r, k, 0, largest))))
                .collect();
            Some(Curve { iou, precision })
        })
        .collect()
}

impl RunReport {
    /// The report of a run whose matches are `evaluated`.
    pub fn new(scored: Scored, evaluated: &Evaluated, params: &Params) -> Self {
        let acc = accumulate(evaluated, params);
        let values = summarize(&acc, params);
        let summary = (stat_labels(params).into_iter().zip(values))
            .map(|((name, iou, area, max_dets), value)| Stat {
                name,
                iou,
                area: area.to_string(),
                max_dets,
                value,
            })
            .collect();
        let aps = per_category(&acc);
        let categories = (evaluated.categories.iter().enumerate())
            .map(|(k, &id)| CategoryAp {
                id,
                name: (scored.names.iter())
                    .find(|(c, _)| *c == id)
                    .map_or_else(|| "all".to_string(), |(_, n)| n.clone()),
                gold: (evaluated.evals.get(k).into_iter().flatten())
                    .map(|e| e.gold[0])
                    .sum(),
                ap: aps.get(k).copied().unwrap_or(-1.0),
            })
            .collect();
        let images = per_image(
            evaluated,
            counts_threshold(params),
            params.iou_thresholds.len(),
        )
        .into_iter()
        .map(|(image, [tp, fp, fn_])| ImageCounts { image, tp, fp, fn_ })
        .collect();
        RunReport {
            run: scored.run,
            detections: scored.detections,
            dropped: scored.dropped,
            summary,
            categories,
            curves: curves(&acc, params),
            images,
            diagnostics: scored.diagnostics,
            matches: (scored.part).then(|| matches::of(evaluated)),
        }
    }

    /// The value of the summary number `name`, −1 when absent.
    pub fn stat(&self, name: &str) -> f64 {
        (self.summary.iter().find(|s| s.name == name)).map_or(-1.0, |s| s.value)
    }
}

/// `clefeval merge` for detection results: every part's matches put back
/// at their category and image and accumulated as one whole evaluation
/// ([`RunReport::new`], the same code), so the result is byte for byte
/// the whole run's. Counts of the run's file, its findings and the
/// category names are the same in every part and taken from the first.
pub fn merge(parts: &[Part]) -> Result<String, String> {
    let (mut whole, others) = read_parts::<Report>(parts)?;
    let params = whole.settings.params();
    let mut all: Vec<Vec<Matches>> = Vec::with_capacity(whole.runs.len());
    for (r, run) in whole.runs.iter_mut().enumerate() {
        let mut gathered = run
            .matches
            .take()
            .ok_or_else(|| no_matches(parts, 0, &run.run))?;
        for (p, part) in others.iter().enumerate() {
            let other = part.runs.get(r).and_then(|o| o.matches.clone());
            gathered.extend(other.ok_or_else(|| no_matches(parts, p + 1, &run.run))?);
        }
        all.push(gathered);
    }
    whole.runs = (whole.runs.into_iter().zip(all))
        .map(|(run, gathered)| {
            let names: Vec<(i64, String)> = (run.categories.iter())
                .map(|c| (c.id, c.name.clone()))
                .collect();
            let ids: Vec<i64> = names.iter().map(|(id, _)| *id).collect();
            let evaluated = matches::evaluated(ids, &gathered, params.iou_thresholds.len())
                .map_err(|e| format!("run {}: {e}", run.run))?;
            let scored = Scored {
                run: run.run,
                detections: run.detections,
                dropped: run.dropped,
                names: &names,
                diagnostics: run.diagnostics,
                part: false,
            };
            Ok(RunReport::new(scored, &evaluated, &params))
        })
        .collect::<Result<_, String>>()?;
    whole.shard = None;
    Ok(to_json(&whole) + "\n")
}

fn no_matches(parts: &[Part], index: usize, run: &str) -> String {
    let file = parts.get(index).map_or("?", |p| p.file);
    format!("{file}: run {run} has no \"matches\": not a part this clefeval can merge")
}

/// A summary value for a table: 4 decimals, −1 as pycocotools prints it.
fn value(v: f64) -> String {
    ratio(v)
}

impl Report {
    /// The output text in `format`; the table carries the diagnostics
    /// below it.
    pub fn render(&self, format: OutputFormat) -> String {
        match format {
            OutputFormat::Json => to_json(self) + "\n",
            OutputFormat::Csv => self.csv(),
            OutputFormat::Table => {
                let mut text = self.table();
                for d in self.all_diagnostics() {
                    text.push_str(&format!("{d}\n"));
                }
                text
            }
        }
    }

    /// The text table: for one run its twelve numbers as pycocotools'
    /// summary lists them, then AP per category when there are several;
    /// for several runs one ranking row each, best AP first (ties by
    /// name).
    pub fn table(&self) -> String {
        let mut out = String::new();
        if let [run] = self.runs.as_slice() {
            out.push_str(&format!("run {}\n", run.run));
            let mut table =
                Table::new(["measure", "iou", "area", "max dets", "value"]).align(0, Align::Left);
            for s in &run.summary {
                table.row([
                    s.name.clone(),
                    s.iou.clone(),
                    s.area.clone(),
                    s.max_dets.to_string(),
                    value(s.value),
                ]);
            }
            out.push_str(&table.render());
            if run.categories.len() > 1 {
                out.push('\n');
                let mut table =
                    Table::new(["category", "name", "gold", "AP"]).align(1, Align::Left);
                for c in &run.categories {
                    table.row([
                        c.id.to_string(),
                        c.name.clone(),
                        c.gold.to_string(),
                        value(c.ap),
                    ]);
                }
                out.push_str(&table.render());
            }
        } else {
            let shown = self.ranking_columns();
            let mut headers = vec!["rank".to_string(), "run".to_string()];
            headers.extend(shown.iter().cloned());
            let mut table = Table::new(headers)
                .align(0, Align::Right)
                .align(1, Align::Left);
            for (rank, r) in self.ranking().iter().enumerate() {
                let mut row = vec![(rank + 1).to_string(), r.run.clone()];
                row.extend(shown.iter().map(|name| value(r.stat(name))));
                table.row(row);
            }
            out.push_str(&table.render());
        }
        if self
            .runs
            .iter()
            .flat_map(|r| &r.summary)
            .any(|s| s.value == -1.0)
        {
            out.push_str("-1: no gold box in that area range or at that IoU threshold, as pycocotools writes it\n");
        }
        push_rejected(&mut out, &self.rejected_runs);
        push_skipped(&mut out, &self.skipped_files);
        out
    }

    /// The columns of the ranking table: the six AP numbers and recall at
    /// the largest `maxDets`.
    pub fn ranking_columns(&self) -> Vec<String> {
        let mut names: Vec<String> = ["AP", "AP50", "AP75", "APs", "APm", "APl"]
            .map(String::from)
            .to_vec();
        names.push(format!("AR{}", self.settings.max_dets[2]));
        names
    }

    /// The runs, best AP first, ties by name.
    pub fn ranking(&self) -> Vec<&RunReport> {
        let mut ranked: Vec<&RunReport> = self.runs.iter().collect();
        ranked.sort_by(|a, b| {
            b.stat("AP")
                .total_cmp(&a.stat("AP"))
                .then_with(|| a.run.cmp(&b.run))
        });
        ranked
    }

    /// Every run's twelve numbers, as CSV rows.
    pub fn csv(&self) -> String {
        let mut table = Table::new(["run", "measure", "iou", "area", "max_dets", "value"]);
        for r in &self.runs {
            for s in &r.summary {
                table.row([
                    r.run.clone(),
                    s.name.clone(),
                    s.iou.clone(),
                    s.area.clone(),
                    s.max_dets.to_string(),
                    s.value.to_string(),
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
