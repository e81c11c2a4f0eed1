//! The exact maximum-common-subgraph distance of SPEC §2.
//!
//! [`maximum_common_subgraph`] takes a gold and a submitted [`Flowchart`],
//! a [`Level`] and the [`Settings`] switches, and returns the size of a
//! maximum common subgraph (with the mapping and, at the complete level, the
//! label costs); [`distance`] turns a size into the union or max distance.
//!
//! - `graph`: the compact graph the search runs on;
//! - `search`: the branch and bound (closed-form node term, incremental
//!   upper bound, assignment bound, greedy incumbent with local search and
//!   neighbourhood improvement, twin pruning);
//! - `lagrange`: the edge-split relaxation (the LP bound that proves most
//!   maxima at the root; its reduced costs bound every search node);
//! - `lap`: the assignment solver with dual potentials;
//! - [`labels`]: label normalization and ned.
//!
//! The levels of one pair share the intermediate maximum: [`typed_maximum`]
//! once, then [`maximum_common_subgraph_with`] per level.
//!
//! Every result is exact unless a time limit cut the search: the result then
//! says so and carries the proven upper bound. The search is sequential per
//! pair, so a result depends only on its two flowcharts (node and edge order
//! as read), never on the thread count.

mod graph;
pub mod labels;
mod lagrange;
mod lap;
mod local;
mod mapping;
mod search;
mod swaps;

use crate::flowchart::{Flowchart, NodeId};
use graph::Graph;
use search::{COST_EPS, Goal, Incumbent, Search};
use serde::Serialize;
use std::time::{Duration, Instant};

/// The scoring levels of SPEC §2.
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

/// Which distance formula (SPEC §2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Denominator {
    /// d = 1 − m / (|Ft| + |Fs| − m) (default).
    #[default]
    Union,
    /// d = 1 − m / max(|Ft|, |Fs|).
    Max,
}

/// The switches of SPEC §2 and §5 that change a pair's result.
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
    /// Per pair and level; `None`: every result is exact.
    #[serde(serialize_with = "seconds")]
    pub time_limit: Option<Duration>,
}

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
    /// The edge-split Lagrangian relaxation at the root (`lagrange.rs`).
    pub lagrangian: bool,
    /// The relaxation's inner assignments restricted by the mapped pairs
    /// (`local.rs`): each mapped pair's loss adds to its reduced cost.
    pub local_loss: bool,
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
}

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
            value_ordering: true,
            twins: true,
            label_nodes: LABEL_NODES,
            split_nodes: search::SPLIT_NODES,
        }
    }
}

/// Work counters of one pair's search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Search nodes visited (all goals of the level together).
    pub nodes: u64,
    /// Upper bound on |mcs| at the root.
    pub root_bound: u32,
    /// |mcs| of the first mapping (greedy and local search).
    pub incumbent: u32,
    /// Subgradient steps of the edge-split relaxation.
    pub relaxation_steps: u32,
}

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
    /// False when the time limit cut the search.
    pub exact: bool,
    /// (gold id, run id) of the mapping found, by gold node order.
    pub mapping: Vec<(NodeId, NodeId)>,
    /// Complete level only.
    pub labels: Option<LabelCosts>,
    pub stats: Stats,
}

/// The maximum common subgraph at the intermediate level of one pair,
/// computed once and shared by the levels: it is the intermediate result,
/// the first incumbent of the basic level (a common subgraph there too) and
/// the size of the complete level (same classes, labels only rank the
/// maximum common subgraphs).
#[derive(Clone, Debug)]
pub struct TypedMaximum {
    outcome: search::SearchResult,
    stats: Stats,
    /// The relaxation's reduced costs and where it stopped (the complete
    /// level's graphs are the same).
    reduced: Option<search::Reduced>,
    split: Option<search::Split>,
}

/// The intermediate level's search of `gold` and `run`, for
/// [`maximum_common_subgraph_with`] at any level.
pub fn typed_maximum(gold: &Flowchart, run: &Flowchart, settings: &Settings) -> TypedMaximum {
    typed_maximum_tuned(gold, run, settings, Tuning::default(), true)
}

/// [`typed_maximum`] for the given levels only: without the complete
/// level, the relaxation stops at its proof instead of sharpening the
/// reduced costs for the label searches (same results, less work).
pub fn typed_maximum_for(
    gold: &Flowchart,
    run: &Flowchart,
    settings: &Settings,
    levels: &[Level],
) -> TypedMaximum {
    let labels = levels.contains(&Level::Complete);
    typed_maximum_tuned(gold, run, settings, Tuning::default(), labels)
}

/// Steps the intermediate relaxation runs on after its proof when the
/// complete level will prune with its reduced costs (session 3: complete
/// level of 300 bench pairs 11.0 → 8.5 s with 20; session 4: without
/// them the complete median rose 1.3–1.6 → 1.9–2.1 ms).
const LABEL_EXTRA_STEPS: u32 = 20;

fn typed_maximum_tuned(
    gold: &Flowchart,
    run: &Flowchart,
    settings: &Settings,
    tuning: Tuning,
    labels: bool,
) -> TypedMaximum {
    let deadline = settings.time_limit.map(|t| Instant::now() + t);
    let g1 = Graph::new(gold, settings, Level::Intermediate);
    let g2 = Graph::new(run, settings, Level::Intermediate);
    let mut search = Search::new(&g1, &g2, settings.induced, tuning, None);
    if labels {
        search.relax_extra = LABEL_EXTRA_STEPS;
    }
    let outcome = search.run(Goal::Max, None, deadline);
    TypedMaximum {
        outcome,
        stats: search.stats,
        reduced: search.reduced.take(),
        split: search.split.take(),
    }
}

/// Search nodes a label search of the complete level may take before the
/// relaxations sharpen its bounds: about what sharpening costs on a
/// 30-node pair (150 steps), so a pair that needs it loses at most that
/// much. Measured (complete level; 300 bench pairs of 10–60 nodes median /
/// the 8 criterion pairs of 30 nodes in all): 1 000: 1.9 ms / 18 ms;
/// 2 000: 1.9 ms / 31 ms; 10 000: 1.7 ms / 45 ms (one pair spends the
/// 10 000 nodes, then sharpens); sharpening every pair first: 2.9–3.3 ms.
const LABEL_NODES: u64 = 1_000;

/// |mcs| of `gold` and `run` at `level` (SPEC §2).
///
/// Ties: the reported mapping is the first one of greatest size found in the
/// search's fixed order (at the complete level, of least label cost); the
/// order depends only on the two flowcharts, never on threads.
pub fn maximum_common_subgraph(
    gold: &Flowchart,
    run: &Flowchart,
    level: Level,
    settings: &Settings,
) -> Mcs {
    maximum_common_subgraph_tuned(gold, run, level, settings, Tuning::default())
}

/// [`maximum_common_subgraph`] of a pair whose [`typed_maximum`] is known:
/// the levels of one pair share it (same results, less work).
pub fn maximum_common_subgraph_with(
    gold: &Flowchart,
    run: &Flowchart,
    level: Level,
    settings: &Settings,
    typed: &TypedMaximum,
) -> Mcs {
    solve(gold, run, level, settings, Tuning::default(), Some(typed))
}

/// [`maximum_common_subgraph`] with search ingredients switched off (benches).
pub fn maximum_common_subgraph_tuned(
    gold: &Flowchart,
    run: &Flowchart,
    level: Level,
    settings: &Settings,
    tuning: Tuning,
) -> Mcs {
    // The basic level without an incumbent searches from scratch.
    let typed = (level != Level::Basic || tuning.incumbent)
        .then(|| typed_maximum_tuned(gold, run, settings, tuning, level == Level::Complete));
    solve(gold, run, level, settings, tuning, typed.as_ref())
}

fn solve(
    gold: &Flowchart,
    run: &Flowchart,
    level: Level,
    settings: &Settings,
    tuning: Tuning,
    typed: Option<&TypedMaximum>,
) -> Mcs {
    let deadline = settings.time_limit.map(|t| Instant::now() + t);
    let g1 = Graph::new(gold, settings, level);
    let g2 = Graph::new(run, settings, level);
    let ids = |map: &[(u32, u32)]| -> Vec<(NodeId, NodeId)> {
        map.iter()
            .filter_map(|&(a, x)| Some((*g1.ids.get(a as usize)?, *g2.ids.get(x as usize)?)))
            .collect()
    };
    if let (Level::Intermediate, Some(t)) = (level, typed) {
        return Mcs {
            size: t.outcome.size as usize,
            upper: t.outcome.upper as usize,
            exact: t.outcome.complete,
            mapping: ids(&t.outcome.mapping),
            labels: None,
            stats: t.stats,
        };
    }
    let ned = if level == Level::Complete {
        match (ned_matrix(&g1, &g2, deadline), typed) {
            (Some(table), _) => Some(table),
            (None, Some(t)) => return labels_cut(&g1, &g2, t, ids(&t.outcome.mapping)),
            (None, None) => ned_matrix(&g1, &g2, None),
        }
    } else {
        None
    };
    let mut search = Search::new(&g1, &g2, settings.induced, tuning, ned.as_deref());
    let best = match (level, typed) {
        (Level::Complete, Some(t)) => {
            search.reduced.clone_from(&t.reduced);
            search.split.clone_from(&t.split);
            t.outcome.clone()
        }
        _ => {
            // At the basic level, a maximum common subgraph of the
            // intermediate level is a common subgraph too: it seeds the
            // search, and the intermediate relaxation's split starts the
            // basic one's where they share edge pairs (176 workload pairs
            // of 100–150 nodes: 34.7 k → 30.8 k steps, 10 → 2 cut at
            // 200 ms).
            if let Some(t) = typed {
                search.split.clone_from(&t.split);
            }
            let seed = typed.filter(|_| tuning.incumbent).map(|t| Incumbent {
                mapping: t.outcome.mapping.clone(),
                size: mapping::size(&g1, &g2, &t.outcome.mapping),
                cost: 0.0,
            });
            search.run(Goal::Max, seed, deadline)
        }
    };
    let mut exact = best.complete;
    let mut mapping = best.mapping;
    let mut labels = None;
    if let Some(ned) = &ned {
        let cost_of = |map: &[(u32, u32)]| mapping::label_cost(ned, g2.n, map);
        let mut best_cost = cost_of(&mapping);
        // The label searches run first with the bounds at hand, within
        // `tuning.label_nodes` search nodes; past that, the relaxations
        // sharpen them (`Search::sharpen`) and the search runs again, to
        // the end. Most pairs never need it; the results are the same
        // either way.
        let mut sharp = false;
        if exact {
            let goal = Goal::Cost { target: best.size };
            let start = Incumbent {
                mapping: mapping.clone(),
                size: best.size,
                cost: best_cost,
            };
            let cheapest =
                match search.run_within(goal, Some(start.clone()), deadline, tuning.label_nodes) {
                    Some(out) => out,
                    None => {
                        sharp = true;
                        let cheaper = search.sharpen(&start, true, deadline);
                        // Past the budget: split over the pool's threads
                        // as they free up (`search/split.rs`; the same
                        // result).
                        search.run_split(goal, Some(cheaper.unwrap_or(start)), deadline)
                    }
                };
            exact = cheapest.complete;
            mapping = cheapest.mapping;
            best_cost = cost_of(&mapping);
        }
        labels = Some(if exact {
            let goal = Goal::Enumerate {
                target: best.size,
                limit: settings.max_mappings,
            };
            let quick = (!sharp)
                .then(|| search.run_within(goal, None, deadline, tuning.label_nodes))
                .flatten();
            let all = quick.unwrap_or_else(|| {
                if !sharp {
                    let known = Incumbent {
                        mapping: mapping.clone(),
                        size: best.size,
                        cost: best_cost,
                    };
                    let _ = search.sharpen(&known, false, deadline);
                }
                // Past the quick walk's budget: split over the pool's
                // threads as they free up (`search/split.rs`; the same
                // mappings in the same order).
                search.run_split(goal, None, deadline)
            });
            summarize(&all.costs, best_cost, !all.complete || all.truncated)
        } else {
            summarize(&[(best_cost, mapping.len() as u32)], best_cost, true)
        });
    }
    Mcs {
        size: best.size as usize,
        upper: best.upper as usize,
        exact,
        mapping: ids(&mapping),
        labels,
        stats: search.stats,
    }
}

/// ned of every compatible pair, `a * n2 + x` (incompatible pairs: 1);
/// `None` when the deadline passes first (read before each gold node: the
/// table has n1 · n2 entries, a minute's work on a pair of 20 000 nodes).
fn ned_matrix(g1: &Graph, g2: &Graph, deadline: Option<Instant>) -> Option<Vec<f64>> {
    let mut ned = Vec::with_capacity(g1.n * g2.n);
    for (c1, l1) in g1.class.iter().zip(&g1.labels) {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        let from = labels::NedFrom::new(l1);
        for (c2, l2) in g2.class.iter().zip(&g2.labels) {
            ned.push(if c1 == c2 { from.to(l2) } else { 1.0 });
        }
    }
    Some(ned)
}

/// The complete level when the deadline passed before its ned table was
/// built: the intermediate maximum `t` (reported as `mapping`) with its
/// own label cost, cut — as a cost search cut at its first mapping.
fn labels_cut(g1: &Graph, g2: &Graph, t: &TypedMaximum, mapping: Vec<(NodeId, NodeId)>) -> Mcs {
    let mut pairs = t.outcome.mapping.clone();
    pairs.sort_unstable();
    fn label(g: &Graph, v: u32) -> &str {
        g.labels.get(v as usize).map_or("", String::as_str)
    }
    // Summed in gold order, as `mapping::label_cost` sums a table's.
    let cost: f64 = pairs
        .iter()
        .map(|&(a, x)| labels::NedFrom::new(label(g1, a)).to(label(g2, x)))
        .sum();
    Mcs {
        size: t.outcome.size as usize,
        upper: t.outcome.upper as usize,
        exact: false,
        mapping,
        labels: Some(summarize(&[(cost, pairs.len() as u32)], cost, true)),
        stats: t.stats,
    }
}

/// Mean, histogram and best count of the enumerated (label cost, mapped
/// nodes); the per-subgraph mean ned is cost / mapped nodes (0 when none).
fn summarize(costs: &[(f64, u32)], best: f64, truncated: bool) -> LabelCosts {
    let mut histogram = [0u64; 10];
    for &(c, mapped) in costs {
        let mean = if mapped == 0 { 0.0 } else { c / mapped as f64 };
        if let Some(bin) = histogram.get_mut(histogram_bin(mean)) {
            *bin += 1;
        }
    }
    // Summed in ascending order: the mean does not depend on the order
    // the search met the mappings in.
    let mut sorted: Vec<f64> = costs.iter().map(|&(c, _)| c).collect();
    sorted.sort_by(f64::total_cmp);
    let mean = if costs.is_empty() {
        best
    } else {
        sorted.iter().sum::<f64>() / costs.len() as f64
    };
    LabelCosts {
        best,
        mean,
        histogram,
        mappings: costs.len() as u64,
        best_mappings: costs.iter().filter(|&&(c, _)| c <= best + COST_EPS).count() as u64,
        truncated,
    }
}

/// Bin of a per-subgraph mean ned in [0, 1]: [k/10, (k+1)/10) for k < 9, the
/// last bin closed. A value within 1e-9 below a bin edge counts as on it, so
/// that e.g. 0.3 computed as 0.29999999999999998 falls in [0.3, 0.4).
pub fn histogram_bin(mean: f64) -> usize {
    ((mean * 10.0 + 1e-9).floor().max(0.0) as usize).min(9)
}

/// Distance from a common size `m` (SPEC §2): union form
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

#[cfg(test)]
mod tests {
    use super::graph::Graph;
    use super::{Level, Settings, labels, maximum_common_subgraph, ned_matrix};
    use crate::flowchart::{Edge, EdgeType, Flowchart, Node, NodeType};
    use std::time::{Duration, Instant};

    /// Nodes (type, label) 1..=n and directed plain edges between them.
    fn flowchart(nodes: &[(NodeType, &str)], edges: &[(i64, i64)]) -> Flowchart {
        Flowchart {
            nodes: nodes
                .iter()
                .enumerate()
                .map(|(i, &(node_type, text))| Node {
                    id: i as i64 + 1,
                    node_type,
                    text: Some(text.to_string()),
                    location: None,
                    line: 0,
                })
                .collect(),
            edges: edges
                .iter()
                .map(|&(from, to)| Edge {
                    from,
                    to,
                    directed: true,
                    edge_type: EdgeType::Plain,
                    text: None,
                    line: 0,
                })
                .collect(),
            ..Flowchart::default()
        }
    }

    fn pair() -> (Flowchart, Flowchart) {
        use NodeType::{Diamond, Rectangle};
        let gold = flowchart(
            &[(Rectangle, "Start"), (Diamond, "ok?"), (Rectangle, "stop")],
            &[(1, 2), (2, 3)],
        );
        let run = flowchart(
            &[
                (Rectangle, "Stort"),
                (Diamond, "ok"),
                (Rectangle, "end"),
                (Rectangle, "x"),
            ],
            &[(1, 2), (2, 4)],
        );
        (gold, run)
    }

    #[test]
    fn ned_table_is_every_pair_or_nothing_past_the_deadline() {
        let (gold, run) = pair();
        let settings = Settings::default();
        let g1 = Graph::new(&gold, &settings, Level::Complete);
        let g2 = Graph::new(&run, &settings, Level::Complete);
        assert_eq!(ned_matrix(&g1, &g2, Some(Instant::now())), None);
        let table = ned_matrix(&g1, &g2, None).expect("no deadline");
        assert_eq!(table.len(), 3 * 4);
        for a in 0..3 {
            for x in 0..4 {
                let want = if g1.class[a] == g2.class[x] {
                    labels::ned(&g1.labels[a], &g2.labels[x])
                } else {
                    1.0
                };
                assert_eq!(table[a * 4 + x], want, "pair {a} {x}");
            }
        }
        // Hand-computed: "start"/"stort" 1/5, "ok?"/"ok" 1/3.
        assert_eq!(table[0], 0.2);
        assert_eq!(table[4 + 1], 1.0 / 3.0);
    }

    #[test]
    fn complete_level_cut_before_its_labels_keeps_the_maximum_and_its_cost() {
        let (gold, run) = pair();
        let cut = Settings {
            time_limit: Some(Duration::ZERO),
            ..Settings::default()
        };
        let r = maximum_common_subgraph(&gold, &run, Level::Complete, &cut);
        assert!(!r.exact);
        let labels = r.labels.expect("complete level has label costs");
        assert_eq!((labels.mappings, labels.truncated), (1, true));
        // The reported mapping's own cost, by hand from its pairs.
        let text = |f: &Flowchart, id| {
            let node = f.nodes.iter().find(|n| n.id == id).expect("mapped node");
            labels::normalize(node.text.as_deref().unwrap_or(""), false)
        };
        let cost: f64 = r
            .mapping
            .iter()
            .map(|&(a, x)| labels::ned(&text(&gold, a), &text(&run, x)))
            .sum();
        assert!((labels.best - cost).abs() < 1e-12, "{} {cost}", labels.best);
        assert_eq!(labels.mean, labels.best);
        assert!(r.size <= r.upper);
    }
}
