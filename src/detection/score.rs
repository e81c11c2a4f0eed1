//! COCO average precision for boxes, the arithmetic of pycocotools 2.0's
//! `COCOeval(iouType="bbox")` (docs/detection.md): [`evaluate`] matches
//! each image's detections to its gold boxes per category and area range,
//! [`accumulate`] turns the matches into precision and recall at every
//! IoU and recall threshold, [`summarize`] gives the twelve numbers. The
//! operations are pycocotools' own, in its order, so that every number
//! equals its to the last bits: IoU as its C `bbIou`, precision
//! `tp / (fp + tp + ε)`, stable sorts, means as numpy's pairwise sum.

use super::params::{AREA_RANGES, Params};
use crate::coco::{BBox, Detection, Gold, ImageId};
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};

/// numpy's `np.spacing(1)`, added to precision's denominator.
const EPS: f64 = f64::EPSILON;

/// One gold box as matching sees it.
#[derive(Clone, Copy, Debug)]
struct Gt {
    id: i64,
    bbox: BBox,
    area: f64,
    crowd: bool,
}

/// One detection as matching sees it: its box, area w·h and score (its
/// place in the file is its place in its image's list).
#[derive(Clone, Copy, Debug)]
struct Dt {
    bbox: BBox,
    area: f64,
    score: f64,
}

/// The boxes of an evaluation, grouped by (category, image).
pub struct Prepared {
    /// Image ids in evaluation order (numbers, then strings).
    pub images: Vec<ImageId>,
    /// Category ids in increasing order; one entry `-1` when categories
    /// are pooled.
    pub categories: Vec<i64>,
    gts: Vec<Vec<Gt>>,
    dts: Vec<Vec<Dt>>,
    /// Detections left out: their category is not in the gold.
    pub dropped: usize,
}

/// Why a run cannot be scored at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejected(pub String);

impl Prepared {
    fn at(&self, k: usize, i: usize) -> usize {
        k * self.images.len() + i
    }

    /// Groups the gold boxes and the detections. A detection on an image
    /// the gold does not list rejects the run (pycocotools stops there);
    /// one of a category the gold lacks is dropped and counted. Those of
    /// the images and categories not chosen (`params`) are left out.
    pub fn new(gold: &Gold, detections: &[Detection], params: &Params) -> Result<Self, Rejected> {
        let mut images = match &params.images {
            Some(chosen) => chosen.clone(),
            None => gold.images.clone(),
        };
        images.sort();
        images.dedup();
        let image_index: HashMap<ImageId, usize> = images
            .iter()
            .cloned()
            .enumerate()
            .map(|(i, id)| (id, i))
            .collect();
        let mut ids: Vec<i64> = match (&params.categories, params.use_cats) {
            (Some(chosen), true) => chosen.clone(),
            _ => gold.categories.iter().map(|c| c.id).collect(),
        };
        ids.sort_unstable();
        ids.dedup();
        let category_index: HashMap<i64, usize> =
            ids.iter().enumerate().map(|(k, &id)| (id, k)).collect();
        let categories = if params.use_cats { ids } else { vec![-1] };
        let mut prepared = Prepared {
            gts: vec![Vec::new(); categories.len() * images.len()],
            dts: vec![Vec::new(); categories.len() * images.len()],
            images,
            categories,
            dropped: 0,
        };
        // pycocotools rejects the run at a detection on an unknown image
        // (the first in file order is named).
        let gold_images: HashSet<&ImageId> = gold.images.iter().collect();
        let unknown =
            (detections.iter().enumerate()).find(|(_, d)| !gold_images.contains(&d.image));
        if let Some((n, d)) = unknown {
            return Err(Rejected(format!(
                "$[{n}].image_id: image {} is not in the gold's images",
                d.image
            )));
        }
        let gold_categories: HashSet<i64> = gold.categories.iter().map(|c| c.id).collect();
        let category_of = |id: &i64| category_index.get(id).copied();
        let gold_order = file_order(gold.annotations.len(), params.use_cats, |n| {
            gold.annotations
                .get(n)
                .and_then(|a| category_of(&a.category))
        });
        for n in gold_order {
            let Some(a) = gold.annotations.get(n) else {
                continue;
            };
            let (Some(&i), Some(&k)) = (image_index.get(&a.image), category_index.get(&a.category))
            else {
                continue;
            };
            let slot = prepared.at(if params.use_cats { k } else { 0 }, i);
            if let Some(list) = prepared.gts.get_mut(slot) {
                list.push(Gt {
                    id: a.id,
                    bbox: a.bbox,
                    area: a.area,
                    crowd: a.iscrowd,
                });
            }
        }
        let detection_order = file_order(detections.len(), params.use_cats, |n| {
            detections.get(n).and_then(|d| category_of(&d.category))
        });
        for n in detection_order {
            let Some(d) = detections.get(n) else {
                continue;
            };
            // Counted over the whole file, whatever images are scored (a
            // part's count is the whole run's).
            if !gold_categories.contains(&d.category) {
                prepared.dropped += 1;
                continue;
            }
            let (Some(&i), Some(&k)) = (image_index.get(&d.image), category_index.get(&d.category))
            else {
                continue;
            };
            let slot = prepared.at(if params.use_cats { k } else { 0 }, i);
            if let Some(list) = prepared.dts.get_mut(slot) {
                list.push(Dt {
                    bbox: d.bbox,
                    area: d.bbox[2] * d.bbox[3],
                    score: d.score,
                });
            }
        }
        Ok(prepared)
    }
}

/// The places `0..n` in the order boxes are listed in: the file's, or,
/// with categories pooled, pycocotools' (by category, then the file's).
fn file_order(n: usize, use_cats: bool, category: impl Fn(usize) -> Option<usize>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    if !use_cats {
        order.sort_by_key(|&i| category(i));
    }
    order
}

/// Higher scores first; equal scores (0.0 and −0.0 too, as numpy compares
/// them) keep their order in a stable sort.
fn by_score(a: f64, b: f64) -> std::cmp::Ordering {
    b.partial_cmp(&a).unwrap_or(std::cmp::Ordering::Equal)
}

/// The IoU of a detection and a gold box as pycocotools' `bbIou` computes
/// it; a crowd box divides by the detection's area alone.
fn iou(d: &BBox, g: &BBox, crowd: bool) -> f64 {
    let w = (d[2] + d[0]).min(g[2] + g[0]) - d[0].max(g[0]);
    if w <= 0.0 {
        return 0.0;
    }
    let h = (d[3] + d[1]).min(g[3] + g[1]) - d[1].max(g[1]);
    if h <= 0.0 {
        return 0.0;
    }
    let i = w * h;
    let (da, ga) = (d[2] * d[3], g[2] * g[3]);
    let u = if crowd { da } else { da + ga - i };
    i / u
}

/// A detection at one IoU threshold in one area range: a false positive.
pub const FP: u8 = 0;
/// A true positive: matched to a gold box that counts, whose id is not 0
/// (pycocotools stores the id, 0 meaning none).
pub const TP: u8 = 1;
/// Ignored: matched to a crowd box or one outside the area range, or
/// unmatched and itself outside the range.
pub const IGNORED: u8 = 2;

/// The matches of one image and category, every area range (index as
/// [`AREA_RANGES`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ImageEval {
    /// The image's place in the evaluation's order.
    pub image: usize,
    /// Scores of the detections kept (best first, at most the largest
    /// `maxDets`).
    pub scores: Vec<f64>,
    /// [`FP`], [`TP`] or [`IGNORED`] per area range, IoU threshold and
    /// detection, at `(a · T + t) · D + d`.
    pub states: Vec<u8>,
    /// Per area range, the gold boxes not ignored.
    pub gold: [usize; 4],
    /// Per IoU threshold, the gold boxes not ignored in area `all` that no
    /// detection matched.
    pub missed: Vec<usize>,
}

impl ImageEval {
    /// The state of detection `d` at threshold `t` in area range `a`, of
    /// `thresholds` thresholds.
    pub fn state(&self, a: usize, t: usize, d: usize, thresholds: usize) -> u8 {
        let at = (a * thresholds + t) * self.scores.len() + d;
        self.states.get(at).copied().unwrap_or(IGNORED)
    }
}

/// pycocotools' `evaluateImg` for one image and category, every area
/// range at once; `None` where the image has neither gold boxes nor
/// detections of the category.
fn evaluate_img(image: usize, gts: &[Gt], dts: &[Dt], params: &Params) -> Option<ImageEval> {
    if gts.is_empty() && dts.is_empty() {
        return None;
    }
    let mut order: Vec<usize> = (0..dts.len()).collect();
    // Stable: equal scores keep file order.
    order.sort_by(|&a, &b| {
        let (sa, sb) = (
            dts.get(a).map_or(0.0, |d| d.score),
            dts.get(b).map_or(0.0, |d| d.score),
        );
        by_score(sa, sb)
    });
    order.truncate(params.max_det());
    let dt: Vec<Dt> = order.iter().filter_map(|&n| dts.get(n).copied()).collect();
    let ious: Vec<Vec<f64>> = (dt.iter())
        .map(|d| gts.iter().map(|g| iou(&d.bbox, &g.bbox, g.crowd)).collect())
        .collect();
    let thresholds = &params.iou_thresholds;
    let floor = (thresholds.iter())
        .map(|&t| t.min(1.0 - 1e-10))
        .fold(f64::INFINITY, f64::min);
    let mut out = ImageEval {
        image,
        scores: dt.iter().map(|d| d.score).collect(),
        states: Vec::with_capacity(AREA_RANGES.len() * thresholds.len() * dt.len()),
        gold: [0; 4],
        missed: Vec::with_capacity(thresholds.len()),
    };
    // Per threshold and detection: the gold box matched (its place).
    let mut matched_to: Vec<Option<usize>> = vec![None; dt.len()];
    let mut gold_taken = vec![false; gts.len()];
    for (a, range) in AREA_RANGES.iter().enumerate() {
        let outside = |area: f64| area < range.min || area > range.max;
        let ignore: Vec<bool> = gts.iter().map(|g| g.crowd || outside(g.area)).collect();
        // Gold boxes not ignored first, in file order (a stable sort).
        let mut gorder: Vec<usize> = (0..gts.len()).collect();
        gorder.sort_by_key(|&g| ignore.get(g).copied().unwrap_or(false));
        // Per detection, the gold boxes (in that order) it may match at
        // the lowest threshold: the others are passed over at every
        // threshold (their IoU is below it), and where the scan would stop
        // at one of them (the first ignored box, a box that counts being
        // held) it stops at the next candidate as well, all later boxes
        // being ignored too.
        let candidates: Vec<Vec<usize>> = (ious.iter())
            .map(|row| {
                (gorder.iter().copied())
                    .filter(|&g| row.get(g).is_some_and(|&v| v >= floor))
                    .collect()
            })
            .collect();
        if let Some(slot) = out.gold.get_mut(a) {
            *slot = ignore.iter().filter(|&&i| !i).count();
        }
        for &threshold in thresholds {
            matched_to.iter_mut().for_each(|m| *m = None);
            gold_taken.iter_mut().for_each(|g| *g = false);
            for (d, (row, candidates)) in ious.iter().zip(&candidates).enumerate() {
                let mut best = threshold.min(1.0 - 1e-10);
                let mut m: Option<usize> = None;
                for &g in candidates {
                    let (Some(gt), Some(&g_ignored)) = (gts.get(g), ignore.get(g)) else {
                        continue;
                    };
                    if gold_taken.get(g).copied().unwrap_or(false) && !gt.crowd {
                        continue;
                    }
                    if let Some(m) = m
                        && !ignore.get(m).copied().unwrap_or(false)
                        && g_ignored
                    {
                        break;
                    }
                    let value = row.get(g).copied().unwrap_or(0.0);
                    if value < best {
                        continue;
                    }
                    best = value;
                    m = Some(g);
                }
                if let Some(m) = m {
                    if let Some(slot) = matched_to.get_mut(d) {
                        *slot = Some(m);
                    }
                    if let Some(slot) = gold_taken.get_mut(m) {
                        *slot = true;
                    }
                }
            }
            if a == 0 {
                out.missed.push(
                    (0..gts.len())
                        .filter(|&g| {
                            !ignore.get(g).copied().unwrap_or(true)
                                && !gold_taken.get(g).copied().unwrap_or(true)
                        })
                        .count(),
                );
            }
            for (d, det) in dt.iter().enumerate() {
                let state = match matched_to.get(d).copied().flatten() {
                    Some(m) if ignore.get(m).copied().unwrap_or(false) => IGNORED,
                    Some(m) if gts.get(m).is_some_and(|g| g.id != 0) => TP,
                    // Unmatched detections outside the area range are
                    // ignored; one matched to a gold box of id 0 counts as
                    // unmatched, as pycocotools reads its stored id.
                    _ if outside(det.area) => IGNORED,
                    _ => FP,
                };
                out.states.push(state);
            }
        }
    }
    Some(out)
}

/// Every image's matches: per category (in the order of [`Prepared`]),
/// the images with a gold box or a detection of it, in image order.
#[derive(Debug)]
pub struct Evaluated {
    pub categories: Vec<i64>,
    pub images: Vec<ImageId>,
    pub evals: Vec<Vec<ImageEval>>,
    pub dropped: usize,
}

/// pycocotools' `evaluate()`, the (category, image) pairs on the threads
/// of the current rayon pool; each result goes to its own place, so the
/// value does not depend on the thread count.
pub fn evaluate(prepared: &Prepared, params: &Params) -> Evaluated {
    let images = prepared.images.len();
    let matched: Vec<Option<ImageEval>> = (0..prepared.categories.len() * images)
        .into_par_iter()
        .map(|slot| {
            let (gts, dts) = (
                prepared.gts.get(slot).map_or(&[][..], Vec::as_slice),
                prepared.dts.get(slot).map_or(&[][..], Vec::as_slice),
            );
            evaluate_img(slot % images.max(1), gts, dts, params)
        })
        .collect();
    let mut evals: Vec<Vec<ImageEval>> = vec![Vec::new(); prepared.categories.len()];
    for (slot, e) in matched.into_iter().enumerate() {
        if let (Some(e), Some(list)) = (e, evals.get_mut(slot / images.max(1))) {
            list.push(e);
        }
    }
    Evaluated {
        categories: prepared.categories.clone(),
        images: prepared.images.clone(),
        evals,
        dropped: prepared.dropped,
    }
}

/// Per image (in evaluation order, those with a gold box or a detection):
/// true positives, false positives and missed gold boxes at the IoU
/// threshold `t` (of `thresholds`), area all, summed over categories;
/// detections matched to crowd or ignored boxes count in neither.
pub fn per_image(evaluated: &Evaluated, t: usize, thresholds: usize) -> Vec<(ImageId, [usize; 3])> {
    let mut counts: Vec<Option<[usize; 3]>> = vec![None; evaluated.images.len()];
    for e in evaluated.evals.iter().flatten() {
        let Some(slot) = counts.get_mut(e.image) else {
            continue;
        };
        let c = slot.get_or_insert([0; 3]);
        for d in 0..e.scores.len() {
            match e.state(0, t, d, thresholds) {
                TP => c[0] += 1,
                FP => c[1] += 1,
                _ => {}
            }
        }
        c[2] += e.missed.get(t).copied().unwrap_or(0);
    }
    (evaluated.images.iter().zip(counts))
        .filter_map(|(image, c)| Some((image.clone(), c?)))
        .collect()
}

/// Precision `[t][r][k][a][m]` and recall `[t][k][a][m]`, −1 where there
/// is no gold box to find.
pub struct Accumulated {
    pub dims: [usize; 5],
    pub precision: Vec<f64>,
    pub recall: Vec<f64>,
}

impl Accumulated {
    pub fn precision(&self, t: usize, r: usize, k: usize, a: usize, m: usize) -> f64 {
        let [_, rr, kk, aa, mm] = self.dims;
        let at = (((t * rr + r) * kk + k) * aa + a) * mm + m;
        self.precision.get(at).copied().unwrap_or(-1.0)
    }

    pub fn recall(&self, t: usize, k: usize, a: usize, m: usize) -> f64 {
        let [_, _, kk, aa, mm] = self.dims;
        let at = ((t * kk + k) * aa + a) * mm + m;
        self.recall.get(at).copied().unwrap_or(-1.0)
    }
}

/// pycocotools' `accumulate()`.
pub fn accumulate(evaluated: &Evaluated, params: &Params) -> Accumulated {
    let (tt, rr, kk, aa, mm) = (
        params.iou_thresholds.len(),
        params.recall_thresholds.len(),
        evaluated.categories.len(),
        AREA_RANGES.len(),
        params.max_dets.len(),
    );
    // Per category, (score, image, place) of every detection kept,
    // concatenated in image order and sorted by score, stable. The order
    // is the same in every area range, and a smaller `maxDets` keeps a
    // subsequence of it: one sort serves every (area, maxDets).
    let sorted: Vec<Vec<(f64, u32, u32)>> = (evaluated.evals.par_iter())
        .map(|present| {
            let mut kept: Vec<(f64, u32, u32)> = Vec::new();
            for (e, eval) in present.iter().enumerate() {
                for (d, &s) in eval.scores.iter().enumerate() {
                    kept.push((s, e as u32, d as u32));
                }
            }
            kept.sort_by(|x, y| by_score(x.0, y.0));
            kept
        })
        .collect();
    let units: Vec<(usize, usize, usize)> = (0..kk)
        .flat_map(|k| (0..aa).flat_map(move |a| (0..mm).map(move |m| (k, a, m))))
        .collect();
    // Each (category, area, maxDets) on its own: recall per threshold,
    // precision per threshold and recall threshold.
    let curves: Vec<Option<(Vec<f64>, Vec<f64>)>> = (units.par_iter())
        .map(|&(k, a, m)| {
            let present = evaluated.evals.get(k)?;
            let npig: usize = present
                .iter()
                .map(|e| e.gold.get(a).copied().unwrap_or(0))
                .sum();
            if present.is_empty() || npig == 0 {
                return None;
            }
            let max_det = params.max_dets.get(m).copied().unwrap_or(0);
            let kept: Vec<(u32, u32)> = (sorted.get(k)?.iter())
                .filter(|x| (x.2 as usize) < max_det)
                .map(|x| (x.1, x.2))
                .collect();
            let mut recall = vec![0.0; tt];
            let mut precision = vec![0.0; tt * rr];
            let mut rc = Vec::with_capacity(kept.len());
            let mut pr = Vec::with_capacity(kept.len());
            for t in 0..tt {
                let (mut tp, mut fp) = (0usize, 0usize);
                rc.clear();
                pr.clear();
                for &(e, d) in &kept {
                    match present
                        .get(e as usize)
                        .map(|x| x.state(a, t, d as usize, tt))
                    {
                        Some(TP) => tp += 1,
                        Some(FP) => fp += 1,
                        _ => {}
                    }
                    let (tpf, fpf) = (tp as f64, fp as f64);
                    rc.push(tpf / npig as f64);
                    pr.push(tpf / (fpf + tpf + EPS));
                }
                if let Some(slot) = recall.get_mut(t) {
                    *slot = rc.last().copied().unwrap_or(0.0);
                }
                for i in (1..pr.len()).rev() {
                    if let (Some(&here), Some(&before)) = (pr.get(i), pr.get(i - 1))
                        && here > before
                        && let Some(slot) = pr.get_mut(i - 1)
                    {
                        *slot = here;
                    }
                }
                for (r, &threshold) in params.recall_thresholds.iter().enumerate() {
                    // numpy's searchsorted(side="left"): the first recall
                    // at or above the threshold. Past the last recall
                    // reached, pycocotools leaves 0 (its loop stops at the
                    // first index out of range).
                    let at = rc.partition_point(|&x| x < threshold);
                    let Some(&value) = pr.get(at) else {
                        break;
                    };
                    if let Some(slot) = precision.get_mut(t * rr + r) {
                        *slot = value;
                    }
                }
            }
            Some((recall, precision))
        })
        .collect();
    let mut out = Accumulated {
        dims: [tt, rr, kk, aa, mm],
        precision: vec![-1.0; tt * rr * kk * aa * mm],
        recall: vec![-1.0; tt * kk * aa * mm],
    };
    for (&(k, a, m), curve) in units.iter().zip(curves) {
        let Some((recall, precision)) = curve else {
            continue;
        };
        for t in 0..tt {
            if let (Some(slot), Some(&v)) = (
                out.recall.get_mut(((t * kk + k) * aa + a) * mm + m),
                recall.get(t),
            ) {
                *slot = v;
            }
            for r in 0..rr {
                let at = (((t * rr + r) * kk + k) * aa + a) * mm + m;
                if let (Some(slot), Some(&v)) =
                    (out.precision.get_mut(at), precision.get(t * rr + r))
                {
                    *slot = v;
                }
            }
        }
    }
    out
}

/// numpy's mean of a 1-D float64 array: its pairwise sum (blocks of 128,
/// eight partial sums) from 0.0, divided by the count.
pub fn numpy_mean(values: &[f64]) -> f64 {
    fn pairwise(a: &[f64]) -> f64 {
        let n = a.len();
        if n < 8 {
            return a.iter().fold(0.0, |s, &x| s + x);
        }
        if n <= 128 {
            let mut r = [0.0f64; 8];
            r.copy_from_slice(a.get(..8).unwrap_or(&[0.0; 8]));
            let whole = n - n % 8;
            let mut i = 8;
            while i < whole {
                for (j, slot) in r.iter_mut().enumerate() {
                    *slot += a.get(i + j).copied().unwrap_or(0.0);
                }
                i += 8;
            }
            let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
            for &x in a.get(i..).unwrap_or_default() {
                res += x;
            }
            return res;
        }
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        let (left, right) = a.split_at(n2);
        pairwise(left) + pairwise(right)
    }
    (0.0 + pairwise(values)) / values.len() as f64
}

/// The mean of the values above −1, or −1 when there are none (as
/// `summarize` takes it).
pub fn mean_defined(values: impl Iterator<Item = f64>) -> f64 {
    let kept: Vec<f64> = values.filter(|&v| v > -1.0).collect();
    if kept.is_empty() {
        -1.0
    } else {
        numpy_mean(&kept)
    }
}

/// One of the twelve numbers: average precision (`ap`) or recall, at one
/// IoU threshold (`None`: all), area range and `maxDets` value.
fn summarize_one(
    acc: &Accumulated,
    params: &Params,
    ap: bool,
    iou: Option<f64>,
    area: usize,
    max_dets: usize,
) -> f64 {
    let [tt, rr, kk, _, _] = acc.dims;
    let ts: Vec<usize> = (0..tt)
        .filter(|&t| iou.is_none_or(|x| params.iou_thresholds.get(t) == Some(&x)))
        .collect();
    let ms: Vec<usize> = (0..params.max_dets.len())
        .filter(|&m| params.max_dets.get(m) == Some(&max_dets))
        .collect();
    let mut values = Vec::new();
    // The order of numpy's flattening: t, then r, then k (then a, m).
    for &t in &ts {
        if ap {
            for r in 0..rr {
                for k in 0..kk {
                    values.extend(ms.iter().map(|&m| acc.precision(t, r, k, area, m)));
                }
            }
        } else {
            for k in 0..kk {
                values.extend(ms.iter().map(|&m| acc.recall(t, k, area, m)));
            }
        }
    }
    mean_defined(values.into_iter())
}

/// The twelve numbers of `summarize()` for `bbox`, in its order: AP at
/// IoU .50:.95, .50, .75, small, medium, large; AR at the three `maxDets`,
/// small, medium, large. The first is taken at 100 detections whatever
/// `maxDets` holds, as pycocotools takes it (−1 when 100 is not one of
/// them).
pub fn summarize(acc: &Accumulated, params: &Params) -> [f64; 12] {
    let [m1, m10, m100] = params.max_dets;
    let s = |ap, iou, area, m| summarize_one(acc, params, ap, iou, area, m);
    [
        s(true, None, 0, 100),
        s(true, Some(0.5), 0, m100),
        s(true, Some(0.75), 0, m100),
        s(true, None, 1, m100),
        s(true, None, 2, m100),
        s(true, None, 3, m100),
        s(false, None, 0, m1),
        s(false, None, 0, m10),
        s(false, None, 0, m100),
        s(false, None, 1, m100),
        s(false, None, 2, m100),
        s(false, None, 3, m100),
    ]
}

/// Per category (in the evaluation's order), AP over every IoU threshold,
/// area all, the largest `maxDets`; −1 without gold boxes.
pub fn per_category(acc: &Accumulated) -> Vec<f64> {
    let [tt, rr, kk, _, mm] = acc.dims;
    let largest = mm.saturating_sub(1);
    (0..kk)
        .map(|k| {
            let values = (0..tt)
                .flat_map(|t| (0..rr).map(move |r| (t, r)))
                .map(|(t, r)| acc.precision(t, r, k, 0, largest));
            mean_defined(values)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coco::{Category, GoldBox};

    fn gold(boxes: &[(i64, BBox, bool)]) -> Gold {
        Gold {
            images: vec![ImageId::Number(1)],
            pages: vec![None],
            categories: vec![Category {
                id: 1,
                name: "structure".into(),
            }],
            annotations: (boxes.iter())
                .map(|&(id, bbox, iscrowd)| GoldBox {
                    id,
                    image: ImageId::Number(1),
                    category: 1,
                    bbox,
                    area: bbox[2] * bbox[3],
                    iscrowd,
                })
                .collect(),
            warnings: Vec::new(),
        }
    }

    fn det(bbox: BBox, score: f64) -> Detection {
        Detection {
            image: ImageId::Number(1),
            category: 1,
            bbox,
            score,
        }
    }

    fn stats(gold: &Gold, run: &[Detection]) -> [f64; 12] {
        let params = Params::default();
        let prepared = Prepared::new(gold, run, &params).unwrap();
        summarize(&accumulate(&evaluate(&prepared, &params), &params), &params)
    }

    #[test]
    fn iou_as_bbiou_computes_it() {
        let a = [0.0, 0.0, 10.0, 10.0];
        assert_eq!(iou(&a, &[5.0, 0.0, 10.0, 10.0], false), 50.0 / 150.0);
        // A crowd box divides by the detection's area.
        assert_eq!(iou(&[0.0, 0.0, 20.0, 10.0], &a, true), 100.0 / 200.0);
        assert_eq!(iou(&a, &[10.0, 0.0, 5.0, 5.0], false), 0.0);
    }

    #[test]
    fn one_hit_and_one_false_alarm_by_hand() {
        // A medium gold box (40 × 40 = 1600), found by the best detection;
        // the second lies elsewhere. Every recall threshold is reached at
        // the first detection, whose precision is 1 / (1 + ε).
        let g = gold(&[(1, [0.0, 0.0, 40.0, 40.0], false)]);
        let s = stats(
            &g,
            &[
                det([0.0, 0.0, 40.0, 40.0], 0.9),
                det([100.0, 100.0, 40.0, 40.0], 0.8),
            ],
        );
        let p = 1.0 / (1.0 + f64::EPSILON);
        assert_eq!(p, 0.9999999999999998);
        // numpy's mean of p: 101 values (one threshold) round up to
        // 0.9999999999999999, 1010 values (ten) to p again
        // (np.mean(np.full(101, p)), np.full(1010, p)).
        let one = 0.9999999999999999;
        assert_eq!(
            s,
            [p, one, one, -1.0, p, -1.0, 1.0, 1.0, 1.0, -1.0, 1.0, -1.0]
        );
        // The false alarm first: precision 1/2 at the hit.
        let s = stats(
            &g,
            &[
                det([0.0, 0.0, 40.0, 40.0], 0.8),
                det([100.0, 100.0, 40.0, 40.0], 0.9),
            ],
        );
        assert_eq!(s[0], 1.0 / (1.0 + 1.0 + f64::EPSILON));
        // AR at one detection per image: the false alarm is the one kept.
        assert_eq!(s[6], 0.0);
    }

    #[test]
    fn a_zero_and_a_negative_zero_score_tie() {
        // Two detections on one box: the first in the file takes it, the
        // other is a false alarm, whichever sign its zero has (pycocotools
        // 2.0.11 gives the same AR at 1 and 100 detections on both orders).
        let g = gold(&[(1, [0.0, 0.0, 40.0, 40.0], false)]);
        let hit = [0.0, 0.0, 40.0, 40.0];
        let s = stats(&g, &[det(hit, -0.0), det([200.0, 0.0, 40.0, 40.0], 0.0)]);
        assert_eq!(s[8], 1.0);
        assert_eq!(s[6], 1.0);
        let s = stats(&g, &[det([200.0, 0.0, 40.0, 40.0], 0.0), det(hit, -0.0)]);
        assert_eq!(s[6], 0.0);
    }

    #[test]
    fn an_empty_run_scores_zero_where_gold_exists() {
        // pycocotools stops on an empty list; here every defined number is 0.
        let g = gold(&[(1, [0.0, 0.0, 40.0, 40.0], false)]);
        let s = stats(&g, &[]);
        assert_eq!(
            s,
            [
                0.0, 0.0, 0.0, -1.0, 0.0, -1.0, 0.0, 0.0, 0.0, -1.0, 0.0, -1.0
            ]
        );
    }

    #[test]
    fn a_detection_on_an_unknown_image_rejects_the_run() {
        let g = gold(&[(1, [0.0, 0.0, 40.0, 40.0], false)]);
        let mut d = det([0.0, 0.0, 1.0, 1.0], 0.5);
        d.image = ImageId::Number(8);
        let err = Prepared::new(&g, &[det([0.0; 4], 0.1), d], &Params::default()).err();
        assert_eq!(
            err,
            Some(Rejected(
                "$[1].image_id: image 8 is not in the gold's images".into()
            ))
        );
    }

    #[test]
    fn numpys_mean_is_its_pairwise_sum() {
        // 0.1 added 200 times: the pairwise sum, not the running one.
        let values = vec![0.1; 200];
        let running = values.iter().fold(0.0, |s, &x| s + x) / 200.0;
        assert_eq!(numpy_mean(&values), 0.1);
        assert_ne!(running, 0.1);
    }
}
