//! What the engine returns for one pair at one level ([`Mcs`], with the
//! complete level's [`LabelCosts`]) and the distance a size gives
//! (`docs/flowchart-distance.md`).

use super::clock::CutBy;
use super::settings::{Denominator, Stats};
use crate::flowchart::NodeId;
use serde::Serialize;

/// Label costs of the complete level.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LabelCosts {
    /// Least label cost over all maximum common subgraphs.
    pub best: f64,
    /// Mean label cost over the maximum common subgraphs enumerated.
    pub mean: f64,
    /// Per-subgraph mean ned, bins [0,0.1), [0.1,0.2), …, [0.9,1.0].
    pub histogram: [u64; 10],
    /// Maximum common subgraphs enumerated (distinct node mappings).
    pub mappings: u64,
    /// Of those, how many have the best cost.
    pub best_mappings: u64,
    /// The enumeration stopped at `max_mappings` or at the time limit.
    pub truncated: bool,
}

/// A maximum common subgraph of two flowcharts at one level.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Mcs {
    /// |mcs|: mapped nodes + preserved edges (the best found).
    pub size: usize,
    /// Proven upper bound on |mcs| (== `size` when exact).
    pub upper: usize,
    /// False when a limit cut the search.
    pub exact: bool,
    /// When not exact: which limit cut it.
    pub cut_by: Option<CutBy>,
    /// (gold id, run id) of the mapping found, by gold node order.
    pub mapping: Vec<(NodeId, NodeId)>,
    /// Complete level only.
    pub labels: Option<LabelCosts>,
    pub stats: Stats,
}

/// Bin of a per-subgraph mean ned in [0, 1]: [k/10, (k+1)/10) for k < 9, the
/// last bin closed. A value within 1e-9 below a bin edge counts as on it, so
/// that e.g. 0.3 computed as 0.29999999999999998 falls in [0.3, 0.4).
pub fn histogram_bin(mean: f64) -> usize {
    ((mean * 10.0 + 1e-9).floor().max(0.0) as usize).min(9)
}

/// Distance from a common size `m`: union form
/// 1 − m / (|Ft| + |Fs| − m) or max form 1 − m / max(|Ft|, |Fs|);
/// 0 for two empty graphs.
pub fn distance(m: f64, gold_size: usize, run_size: usize, denominator: Denominator) -> f64 {
    let (t, s) = (gold_size as f64, run_size as f64);
    let den = match denominator {
        Denominator::Union => t + s - m,
        Denominator::Max => t.max(s),
    };
    if den <= 0.0 { 0.0 } else { 1.0 - m / den }
}
