//! The sweep of one run against the gold boxes: TP per page and tolerance,
//! summed per document and over everything (micro average), the ratios, and
//! the largest unambiguous tolerance.

use super::boxes::{BoxSet, Document, Entry};
use super::matching::{Matcher, Pair};
use super::tolerances::{DEFAULT_DPI, Tolerance, Tolerances};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Counts at one tolerance.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub tp: u64,
    pub submitted: u64,
    pub gold: u64,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.tp += other.tp;
        self.submitted += other.submitted;
        self.gold += other.gold;
    }
}

/// TP, submitted and gold counts at every tolerance of a sweep, and the
/// first tolerance index at which a submitted box has two gold boxes within
/// tolerance.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sweep {
    pub counts: Vec<Counts>,
    pub first_ambiguous: Option<usize>,
}

impl Sweep {
    fn new(levels: usize) -> Self {
        Sweep {
            counts: vec![Counts::default(); levels],
            first_ambiguous: None,
        }
    }

    fn add(&mut self, other: &Sweep) {
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            a.add(b);
        }
        if let Some(level) = other.first_ambiguous {
            self.ambiguous_from(level);
        }
    }

    fn ambiguous_from(&mut self, level: usize) {
        self.first_ambiguous = Some(self.first_ambiguous.map_or(level, |l| l.min(level)));
    }

    /// The largest tolerance of the sweep at which no submitted box lies
    /// within tolerance of two or more gold boxes; `None` when even the
    /// smallest is ambiguous.
    pub fn max_unambiguous(&self, tolerances: &Tolerances) -> Option<Tolerance> {
        match self.first_ambiguous {
            None => tolerances.get(tolerances.len().checked_sub(1)?),
            Some(first) => tolerances.get(first.checked_sub(1)?),
        }
    }
}

impl RunSweep {
    /// This sweep with its micro totals made from its documents' sweeps
    /// (`levels` tolerances), as [`score`] makes them.
    pub fn totalled(mut self, levels: usize) -> Self {
        let mut total = Sweep::new(levels);
        for d in &self.documents {
            total.add(&d.sweep);
        }
        self.total = total;
        self
    }
}

/// One document's sweep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocumentSweep {
    pub doc: String,
    pub sweep: Sweep,
}

/// A run's sweep: micro totals and per-document figures, in document order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSweep {
    pub total: Sweep,
    pub documents: Vec<DocumentSweep>,
    /// Pages not matched (too many candidate pairs), in document order.
    pub crowded: Vec<CrowdedPage>,
}

/// Candidate pairs one page may have for it to be matched: a base of one
/// million plus a hundred per box of the page. More (boxes piled within
/// tolerance of each other, a broken recognizer or file) would make memory
/// grow with the square of the boxes, so such a page matches nothing (TP 0,
/// every box counted) and is reported.
pub fn max_pairs(subs: usize, golds: usize) -> usize {
    1_000_000usize.saturating_add(subs.saturating_add(golds).saturating_mul(100))
}

/// A page not matched: its candidate pairs exceed [`max_pairs`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrowdedPage {
    /// Document id.
    pub doc: String,
    /// 1-based page number.
    pub page: u32,
}

/// A page's resolution (dots per inch across, down) by document and page,
/// where known.
pub type Resolution<'a> = &'a dyn Fn(&str, u32) -> Option<(f64, f64)>;

/// Scores `run` against `gold` at every tolerance. `dpi(doc, page)` gives a
/// page's resolution (across, down), used only for millimetre tolerances.
pub fn score(gold: &BoxSet, run: &BoxSet, tolerances: &Tolerances, dpi: Resolution) -> RunSweep {
    let levels = tolerances.len();
    let empty = Document::default();
    let docs: BTreeSet<&String> = gold.documents.keys().chain(run.documents.keys()).collect();
    let mut matcher = Matcher::new();
    let mut pairs = Vec::new();
    let mut total = Sweep::new(levels);
    let mut documents = Vec::with_capacity(docs.len());
    let mut crowded = Vec::new();
    for doc in docs {
        let g = gold.documents.get(doc).unwrap_or(&empty);
        let s = run.documents.get(doc).unwrap_or(&empty);
        let mut sweep = Sweep::new(levels);
        let pages: BTreeSet<&u32> = g.pages.keys().chain(s.pages.keys()).collect();
        for &page in pages {
            let gb = g.pages.get(&page).map(Vec::as_slice).unwrap_or(&[]);
            let sb = s.pages.get(&page).map(Vec::as_slice).unwrap_or(&[]);
            let dpi = dpi(doc, page).unwrap_or((DEFAULT_DPI, DEFAULT_DPI));
            if !candidate_pairs(sb, gb, tolerances, dpi, &mut pairs) {
                crowded.push(CrowdedPage {
                    doc: doc.clone(),
                    page,
                });
            }
            let page_sweep = matcher.sweep(sb.len(), gb.len(), &pairs, levels);
            for (c, &tp) in sweep.counts.iter_mut().zip(&page_sweep.tp) {
                c.tp += u64::from(tp);
                c.submitted += sb.len() as u64;
                c.gold += gb.len() as u64;
            }
            if let Some(level) = page_sweep.first_ambiguous {
                sweep.ambiguous_from(level as usize);
            }
        }
        total.add(&sweep);
        documents.push(DocumentSweep {
            doc: doc.clone(),
            sweep,
        });
    }
    RunSweep {
        total,
        documents,
        crowded,
    }
}

/// The pairs of one page that match at some tolerance of the sweep, with
/// their levels, into `out`. False (and `out` empty) when they are more
/// than [`max_pairs`] allows.
///
/// Gold boxes are indexed by column (left side divided by the largest
/// threshold + 1) then top side, so each submitted box looks only at the
/// gold boxes of the (at most three) columns within reach whose top side is
/// within reach: the work is about the pairs within the largest tolerance,
/// not the product of the page's boxes, and memory is linear in boxes and
/// pairs.
pub fn candidate_pairs(
    subs: &[Entry],
    golds: &[Entry],
    tolerances: &Tolerances,
    dpi: (f64, f64),
    out: &mut Vec<Pair>,
) -> bool {
    out.clear();
    if subs.is_empty() || golds.is_empty() {
        return true;
    }
    let limit = max_pairs(subs.len(), golds.len());
    let thresholds = tolerances.thresholds(dpi);
    let reach = thresholds.max();
    let width = reach.saturating_add(1);
    let mut order: Vec<(u64, u64, u32)> = (0u32..)
        .zip(golds)
        .map(|(i, e)| (e.bbox.left() / width, e.bbox.top(), i))
        .collect();
    order.sort_unstable();
    for (si, s) in (0u32..).zip(subs) {
        let (left, top) = (s.bbox.left(), s.bbox.top());
        let (low, high) = (top.saturating_sub(reach), top.saturating_add(reach));
        for column in left.saturating_sub(reach) / width..=left.saturating_add(reach) / width {
            let from = order.partition_point(|&(c, t, _)| (c, t) < (column, low));
            let within = order
                .get(from..)
                .unwrap_or_default()
                .iter()
                .take_while(|&&(c, t, _)| (c, t) <= (column, high));
            for &(_, _, gi) in within {
                let Some(g) = golds.get(gi as usize) else {
                    continue;
                };
                if let Some(level) = thresholds.level(s.bbox.dx(&g.bbox), s.bbox.dy(&g.bbox)) {
                    if out.len() >= limit {
                        out.clear();
                        return false;
                    }
                    out.push(Pair {
                        sub: si,
                        gold: gi,
                        level: level as u32,
                    });
                }
            }
        }
    }
    true
}

/// Precision, recall and F1 at one tolerance, as the JSON prints them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    pub t: Tolerance,
    pub tp: u64,
    pub fp: u64,
    #[serde(rename = "fn")]
    pub fn_: u64,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    /// The ratios whose denominator was zero (and that are therefore 0).
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "crate::report::saved::static_strs"
    )]
    pub zero_denominator: Vec<&'static str>,
}

impl Figures {
    /// The figures of `counts` at tolerance `t`: precision = TP/submitted,
    /// recall = TP/gold, F1 = 2PR/(P+R); a zero denominator gives 0 and is
    /// listed in `zero_denominator`.
    pub fn new(t: Tolerance, counts: &Counts) -> Self {
        let mut zero = Vec::new();
        let mut div = |name, num: f64, den: f64| {
            if den == 0.0 {
                zero.push(name);
                0.0
            } else {
                num / den
            }
        };
        let precision = div("precision", counts.tp as f64, counts.submitted as f64);
        let recall = div("recall", counts.tp as f64, counts.gold as f64);
        let f1 = div("f1", 2.0 * precision * recall, precision + recall);
        Figures {
            t,
            tp: counts.tp,
            fp: counts.submitted - counts.tp,
            fn_: counts.gold - counts.tp,
            precision,
            recall,
            f1,
            zero_denominator: zero,
        }
    }

    /// The figures of a whole sweep, one per tolerance.
    pub fn of_sweep(sweep: &Sweep, tolerances: &Tolerances) -> Vec<Figures> {
        tolerances
            .iter()
            .zip(&sweep.counts)
            .map(|(t, c)| Figures::new(t, c))
            .collect()
    }
}
