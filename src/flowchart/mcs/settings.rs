//! The vocabulary every part of the engine shares: the scoring [`Level`],
//! the distance's [`Denominator`], the [`Settings`] that change a pair's
//! result, the [`Tuning`] switches that change only the work done, and the
//! [`Stats`] of that work (`docs/flowchart-distance.md`).

use serde::Serialize;
use std::time::Duration;

/// The scoring levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Every node compatible with every node; edge types ignored.
    Basic,
    /// Nodes compatible when their node types are equal.
    Intermediate,
    /// Intermediate compatibility; labels decide among the maximum subgraphs.
    Complete,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Basic, Level::Intermediate, Level::Complete];

    /// The name used in tables and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Level::Basic => "basic",
            Level::Intermediate => "intermediate",
            Level::Complete => "complete",
        }
    }
}

/// Which distance formula.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Denominator {
    /// d = 1 − m / (|Ft| + |Fs| − m) (default).
    #[default]
    Union,
    /// d = 1 − m / max(|Ft|, |Fs|).
    Max,
}

/// The switches that change a pair's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Settings {
    pub denominator: Denominator,
    /// Only induced common subgraphs.
    pub induced: bool,
    /// Every edge read as undirected.
    pub ignore_direction: bool,
    /// An edge is preserved only by an edge of the same type (intermediate
    /// and complete levels; the basic level ignores edge types).
    pub edge_types: bool,
    /// Labels compared as written, without normalization.
    pub exact_labels: bool,
    /// Enumeration of maximum common subgraphs stops after this many.
    pub max_mappings: u64,
    /// Per pair and level; `None`: no wall-clock limit.
    #[serde(serialize_with = "seconds")]
    pub time_limit: Option<Duration>,
    /// Units of search work per pair and level ([`DEFAULT_BUDGET`];
    /// `None`: no work limit). A result cut by it is the same on every
    /// machine and thread count.
    pub budget: Option<u64>,
}

/// The default work budget per pair and level: about a minute of search on
/// one core of a 2-core machine (units counted as `mcs/clock.rs` says;
/// benches/EXPERIMENTS.md gives the measurement).
pub const DEFAULT_BUDGET: u64 = 80_000_000;

/// A time limit in JSON: seconds as a number, or null.
fn seconds<S: serde::Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
    match d {
        Some(d) => s.serialize_some(&d.as_secs_f64()),
        None => s.serialize_none(),
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            denominator: Denominator::Union,
            induced: false,
            ignore_direction: false,
            edge_types: false,
            exact_labels: false,
            max_mappings: 100_000,
            time_limit: None,
            budget: Some(DEFAULT_BUDGET),
        }
    }
}

/// Ingredients of the search that can be switched off, to measure what each
/// one is worth (benches). Every combination gives the same exact results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// Free-to-mapped term per mapped pair, neighbour class and slot
    /// (off: the smaller of the two totals of free-to-mapped edges).
    pub free_to_mapped: bool,
    /// Free-to-free histograms per class pair and kind (off: the smaller of
    /// the two totals of free-to-free edges).
    pub free_to_free: bool,
    /// The degree-pairing bound on free-to-free edges, where the cheap
    /// bound does not prune.
    pub degree_bound: bool,
    /// The assignment bound (potentials repaired per search node, the
    /// assignment solved again where the cheaper bounds do not prune);
    /// used only with `lagrangian` off (with the relaxation it costs more
    /// than it saves).
    pub assignment_bound: bool,
    /// Greedy first dive and local search before the search.
    pub incumbent: bool,
    /// The edge-split Lagrangian relaxation at the root (`lagrange/`).
    pub lagrangian: bool,
    /// The relaxation's inner assignments restricted by the mapped pairs
    /// (`local.rs`): each mapped pair's loss adds to its reduced cost.
    pub local_loss: bool,
    /// The label relaxation forbids the node pairs that the size
    /// relaxation's reduced costs rule out of every maximum mapping.
    pub rule_out: bool,
    /// Partners ordered by the bound after adding them, then by edges
    /// gained; where the relaxation ran, by its reduced cost first (off:
    /// by index).
    pub value_ordering: bool,
    /// Interchangeable free partners tried once.
    pub twins: bool,
    /// Search nodes a label search of the complete level may take before
    /// the relaxations sharpen its bounds and it runs again (0: sharpen
    /// first).
    pub label_nodes: u64,
    /// Search nodes a thread's part of an enumeration split over threads
    /// walks before it may hand some off to a hungry thread
    /// (`search/split.rs`; 0: never split).
    pub split_nodes: u64,
    /// Subgradient steps of the relaxation restricted to a search node's
    /// mapped pairs, solved at every node of the maximum search's walk
    /// from the root that the cheaper bounds do not prune, at the cost
    /// search's while the work of those that pruned nothing stays within
    /// its search nodes, and late at the enumeration's
    /// (`late_probe_nodes`, under the same cap) (`search/relax.rs`; the
    /// cost search takes at most 50; 0: never).
    pub probe_steps: u32,
    /// Search nodes a subtree of the enumeration takes before the
    /// relaxation restricted to its root's pairs is solved, once, to prune
    /// it when no mapping of the target size lies below
    /// (`search/late.rs`; 0: at the first node below it).
    pub late_probe_nodes: u64,
    /// Work units per search node that the maximum search's probes which
    /// prune nothing may take (`search/relax.rs`): once over, no node is
    /// probed until the walk has caught up (`u64::MAX`: no cap).
    pub probe_cap: u64,
    /// Edge pairs from which the relaxation's subgradient steps are
    /// deflected (`lagrange/steps.rs`; 0: always, `usize::MAX`: never).
    pub deflect_edge_pairs: usize,
}

/// Search nodes a label search of the complete level may take before the
/// relaxations sharpen its bounds: about what sharpening costs on a
/// 30-node pair (150 relaxation steps), so a pair that needs the sharpening
/// loses at most that much, and most pairs, which finish well within it,
/// never pay for it.
const LABEL_NODES: u64 = 1_000;

/// Search nodes a task of a split label search walks before it may hand
/// off, by default (a hand-off costs replaying the path, O(depth) pair
/// mappings, in each of its two tasks).
const SPLIT_NODES: u64 = 2000;

/// Steps of a search node's restricted relaxation at most, by default: it
/// stops as soon as its bound prunes the node, and a node it prunes late
/// is a subtree the walk need not enter. With the stop after steps without
/// a better bound (`lagrange::PATIENCE`), this value proves the most heavy
/// bench pairs within the budget; chosen on the heavy workload (see
/// benches/EXPERIMENTS.md).
const PROBE_STEPS: u32 = 500;

/// Search nodes of an enumeration's subtree before its root is probed, by
/// default: the probe then costs about what the walk already spent below
/// it. Chosen on the heavy bench pairs whose enumeration is long (see
/// benches/EXPERIMENTS.md).
const LATE_PROBE_NODES: u64 = 3_000;

/// Work units per search node of the maximum search's probes that prune
/// nothing, by default. A probe is charged its copy and its steps, the
/// root's cells / 64 units each; a search node one unit, though it takes
/// far longer than a unit of steps. Uncapped, such probes take most
/// of the time of some mildly edited pairs; a lower cap loses proofs of
/// heavy pairs. Chosen on the workload and heavy benches (see
/// benches/EXPERIMENTS.md).
const PROBE_CAP: u64 = 300;

/// Edge pairs from which the relaxation deflects its steps, by default:
/// the heavy pairs' proofs need deflected steps, and on smaller
/// relaxations plain steps reach the bound in fewer instructions. Chosen
/// on the sweep and heavy workloads (see benches/EXPERIMENTS.md).
const DEFLECT_EDGE_PAIRS: usize = 2_500;

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            free_to_mapped: true,
            free_to_free: true,
            degree_bound: true,
            assignment_bound: true,
            incumbent: true,
            lagrangian: true,
            local_loss: true,
            rule_out: true,
            value_ordering: true,
            twins: true,
            label_nodes: LABEL_NODES,
            split_nodes: SPLIT_NODES,
            probe_steps: PROBE_STEPS,
            late_probe_nodes: LATE_PROBE_NODES,
            probe_cap: PROBE_CAP,
            deflect_edge_pairs: DEFLECT_EDGE_PAIRS,
        }
    }
}

/// Work counters of one pair's search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Stats {
    /// Search nodes visited (all goals of the level together).
    pub nodes: u64,
    /// Upper bound on |mcs| at the root.
    pub root_bound: u32,
    /// Size of the first mapping (the known one completed, greedy and
    /// local search).
    pub first: u32,
    /// Size of the best mapping before the walk (after the relaxation's
    /// mappings and the neighbourhood search).
    pub incumbent: u32,
    /// Subgradient steps of the edge-split relaxation.
    pub relaxation_steps: u32,
    /// Search nodes whose relaxation restricted to their pairs was solved.
    pub probes: u32,
    /// Of those, the ones its bound pruned.
    pub pruned: u32,
    /// Complete level: the label relaxation's lower bound on the least
    /// label cost at the root, where it ran.
    pub label_bound: Option<f64>,
}
