//! The level driver: one pair's search at one level, in the phases the
//! levels share.
//!
//! 1. The intermediate maximum ([`typed_maximum`]), computed once per pair:
//!    it is the intermediate result, the seed of the basic level and the
//!    size of the complete level.
//! 2. The maximum at the level ([`maximum`]): the basic level searches from
//!    the intermediate mapping, the complete level takes the intermediate
//!    maximum as it is.
//! 3. At the complete level, the label costs ([`label_costs`]): the ned
//!    table ([`ned_matrix`]), the least label cost among the maximum
//!    mappings ([`cheapest`]), then every maximum mapping's cost
//!    ([`enumerate`]) summed up ([`summarize`]).

use super::clock::{Clock, CutBy, Watch, Work};
use super::graph::Graph;
use super::labels;
use super::mapping::{self, label_cost};
use super::result::{LabelCosts, Mcs, histogram_bin};
use super::search::{self, COST_EPS, Goal, Incumbent, Search};
use super::settings::{Level, Settings, Stats, Tuning};
use super::swaps;
use crate::flowchart::{Flowchart, NodeId};
use std::time::Instant;

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
    /// Which limit cut the search, when one did.
    cut_by: Option<CutBy>,
}

/// Steps the intermediate relaxation runs on after its proof when the
/// complete level will prune with its reduced costs: sharper reduced costs
/// cut more of the label searches than the steps cost.
const LABEL_EXTRA_STEPS: u32 = 20;

/// The intermediate level's search of `gold` and `run`; with `labels` (the
/// complete level follows) the relaxation runs [`LABEL_EXTRA_STEPS`] past
/// its proof to sharpen the reduced costs the label searches prune with.
/// The search shows its progress on `watch` when given.
pub(super) fn typed_maximum(
    gold: &Flowchart,
    run: &Flowchart,
    settings: &Settings,
    tuning: Tuning,
    labels: bool,
    watch: Option<&Watch>,
) -> TypedMaximum {
    let work = settings.budget.map(Work::new);
    let clock = limits(settings, work.as_ref()).with_watch(watch);
    let g1 = Graph::new(gold, settings, Level::Intermediate);
    let g2 = Graph::new(run, settings, Level::Intermediate);
    let mut search = Search::new(&g1, &g2, settings.induced, tuning, None);
    if labels {
        search.relax_extra = LABEL_EXTRA_STEPS;
    }
    let outcome = search.run(Goal::Max, None, clock);
    TypedMaximum {
        cut_by: (!outcome.complete).then(|| clock.cut_by()),
        outcome,
        stats: search.stats,
        reduced: search.reduced.take(),
        split: search.split.take(),
    }
}

/// The result of one pair at `level`, from its intermediate maximum when
/// known; the search shows its progress on `watch` when given.
pub(super) fn solve(
    gold: &Flowchart,
    run: &Flowchart,
    level: Level,
    settings: &Settings,
    tuning: Tuning,
    (typed, watch): (Option<&TypedMaximum>, Option<&Watch>),
) -> Mcs {
    let work = settings.budget.map(Work::new);
    let clock = limits(settings, work.as_ref()).with_watch(watch);
    let g1 = Graph::new(gold, settings, level);
    let g2 = Graph::new(run, settings, level);
    if let (Level::Intermediate, Some(typed)) = (level, typed) {
        return Mcs {
            size: typed.outcome.size as usize,
            upper: typed.outcome.upper as usize,
            exact: typed.outcome.complete,
            cut_by: typed.cut_by,
            mapping: node_ids(&g1, &g2, &typed.outcome.mapping),
            labels: None,
            stats: typed.stats,
        };
    }
    if let (Level::Complete, Some(typed)) = (level, typed) {
        // The complete level's size is the intermediate maximum: the label
        // searches keep it.
        clock.show_best(typed.outcome.size);
        clock.show_bound(typed.outcome.upper);
    }
    let ned = if level == Level::Complete {
        match (ned_matrix(&g1, &g2, clock), typed) {
            (Some(table), _) => Some(table),
            (None, Some(typed)) => return labels_cut(&g1, &g2, typed, clock.cut_by()),
            (None, None) => ned_matrix(&g1, &g2, Clock::unlimited()),
        }
    } else {
        None
    };
    let mut search = Search::new(&g1, &g2, settings.induced, tuning, ned.as_deref());
    let best = maximum(&mut search, (&g1, &g2), level, tuning, typed, clock);
    // A maximum taken from the intermediate search was cut by its clock.
    let best_cut = match (level, typed) {
        _ if best.complete => None,
        (Level::Complete, Some(typed)) => typed.cut_by,
        _ => Some(clock.cut_by()),
    };
    let (exact, mapping, labels) = match &ned {
        Some(ned) => {
            let found = label_costs(&mut search, ned, (&g1, &g2), &best, settings, tuning, clock);
            (found.exact, found.mapping, Some(found.labels))
        }
        None => (best.complete, best.mapping, None),
    };
    Mcs {
        size: best.size as usize,
        upper: best.upper as usize,
        exact,
        cut_by: best_cut.or_else(|| (!exact).then(|| clock.cut_by())),
        mapping: node_ids(&g1, &g2, &mapping),
        labels,
        stats: search.stats,
    }
}

/// The pairs of `map` (node indices) as (gold id, run id).
fn node_ids(g1: &Graph, g2: &Graph, map: &[(u32, u32)]) -> Vec<(NodeId, NodeId)> {
    map.iter()
        .filter_map(|&(a, x)| Some((*g1.ids.get(a as usize)?, *g2.ids.get(x as usize)?)))
        .collect()
}

/// The maximum at the basic or complete level. The complete level has the
/// intermediate level's classes: its maximum is the intermediate one, and
/// the intermediate relaxation's reduced costs and split carry over. At the
/// basic level, a maximum common subgraph of the intermediate level is a
/// common subgraph too: it seeds the search, and the intermediate
/// relaxation's split starts the basic one's where they share edge pairs.
fn maximum<'g>(
    search: &mut Search<'g>,
    (g1, g2): (&Graph, &Graph),
    level: Level,
    tuning: Tuning,
    typed: Option<&TypedMaximum>,
    clock: Clock<'g>,
) -> search::SearchResult {
    if let (Level::Complete, Some(typed)) = (level, typed) {
        search.reduced.clone_from(&typed.reduced);
        search.split.clone_from(&typed.split);
        return typed.outcome.clone();
    }
    if let Some(typed) = typed {
        search.split.clone_from(&typed.split);
    }
    let seed = typed.filter(|_| tuning.incumbent).map(|typed| Incumbent {
        mapping: typed.outcome.mapping.clone(),
        size: mapping::size(g1, g2, &typed.outcome.mapping),
        cost: 0.0,
    });
    search.run(Goal::Max, seed, clock)
}

/// What the complete level's label phase settled: whether it is exact, the
/// mapping reported (of least label cost when exact) and the label costs.
struct Labelled {
    exact: bool,
    mapping: Vec<(u32, u32)>,
    labels: LabelCosts,
}

/// The complete level's label costs of the maximum `best` of the graphs
/// `g1` and `g2` (`ned` the table of [`ned_matrix`]).
///
/// The label searches run first with the bounds at hand, within
/// `tuning.label_nodes` search nodes; past that, the relaxations sharpen
/// them (`Search::sharpen`) and the search runs again, to the end, split
/// over the pool's threads as they free up (`search/split.rs`). Most pairs
/// never need it; the results are the same either way.
fn label_costs<'g>(
    search: &mut Search<'g>,
    ned: &[f64],
    (g1, g2): (&Graph, &Graph),
    best: &search::SearchResult,
    settings: &Settings,
    tuning: Tuning,
    clock: Clock<'g>,
) -> Labelled {
    let cost_of = |map: &[(u32, u32)]| label_cost(ned, g2.n, map);
    let mut known = Incumbent {
        mapping: best.mapping.clone(),
        size: best.size,
        cost: cost_of(&best.mapping),
    };
    if !best.complete {
        let labels = known_alone(&known);
        return Labelled {
            exact: false,
            mapping: known.mapping,
            labels,
        };
    }
    let (least, sharp) = cheapest(search, known, tuning.label_nodes, clock);
    // A cut search's best mapping, polished by label swaps: the cheapest
    // mapping of the size known to the search need not be a local optimum.
    let mapping = if least.complete {
        least.mapping
    } else {
        swaps::cheaper_labels(g1, g2, &least.mapping, ned, COST_EPS)
    };
    known = Incumbent {
        cost: cost_of(&mapping),
        mapping,
        size: best.size,
    };
    let labels = if least.complete {
        let limit = settings.max_mappings;
        let all = enumerate(search, &known, limit, sharp, tuning.label_nodes, clock);
        if all.costs.is_empty() && !all.complete {
            // Cut by a limit before it listed any: the least-cost mapping
            // is one of them.
            known_alone(&known)
        } else {
            summarize(&all.costs, known.cost, !all.complete || all.truncated)
        }
    } else {
        known_alone(&known)
    };
    Labelled {
        exact: least.complete,
        mapping: known.mapping,
        labels,
    }
}

/// The least label cost among the mappings of `start`'s size, from
/// `start`: within `budget` search nodes, else after sharpening the bounds
/// (then true) over the pool's threads.
fn cheapest<'g>(
    search: &mut Search<'g>,
    start: Incumbent,
    budget: u64,
    clock: Clock<'g>,
) -> (search::SearchResult, bool) {
    let goal = Goal::Cost { target: start.size };
    if let Some(out) = search.run_within(goal, Some(start.clone()), clock, budget) {
        return (out, false);
    }
    let cheaper = search.sharpen(&start, true, clock);
    let out = search.run_split(goal, Some(cheaper.unwrap_or(start)), clock);
    (out, true)
}

/// Every mapping of `known`'s size, up to `limit`, with its label cost:
/// within `budget` search nodes unless the bounds are already `sharp`, else
/// after sharpening them, over the pool's threads (the same mappings in the
/// same order).
fn enumerate<'g>(
    search: &mut Search<'g>,
    known: &Incumbent,
    limit: u64,
    sharp: bool,
    budget: u64,
    clock: Clock<'g>,
) -> search::SearchResult {
    let goal = Goal::Enumerate {
        target: known.size,
        limit,
    };
    if !sharp {
        if let Some(out) = search.run_within(goal, None, clock, budget) {
            return out;
        }
        let _ = search.sharpen(known, false, clock);
    }
    search.run_split(goal, None, clock)
}

/// The clock of one pair and level: the time limit from now, and the work
/// budget `work` (built by the caller from `settings.budget`, so that it
/// outlives the clock).
fn limits<'a>(settings: &Settings, work: Option<&'a Work>) -> Clock<'a> {
    Clock::with_deadline(settings.time_limit.map(|limit| Instant::now() + limit)).with_work(work)
}

/// ned of every compatible pair, `a * n2 + x` (incompatible pairs: 1);
/// `None` when the clock expires first (read before each gold node: the
/// table has n1 · n2 entries, a minute's work on a pair of 20 000 nodes).
fn ned_matrix(g1: &Graph, g2: &Graph, clock: Clock) -> Option<Vec<f64>> {
    let mut ned = Vec::with_capacity(g1.n * g2.n);
    // A row's work: its entries, in units of 64.
    let row_work = (g2.n as u64).div_ceil(64).max(1);
    for (c1, l1) in g1.class.iter().zip(&g1.labels) {
        if clock.expired() {
            return None;
        }
        clock.spend(row_work);
        let from = labels::NedFrom::new(l1);
        for (c2, l2) in g2.class.iter().zip(&g2.labels) {
            ned.push(if c1 == c2 { from.to(l2) } else { 1.0 });
        }
    }
    Some(ned)
}

/// The complete level when the clock expired before its ned table was
/// built (by `cut_by`): the intermediate maximum with its own label cost,
/// cut — as a cost search cut at its first mapping.
fn labels_cut(g1: &Graph, g2: &Graph, typed: &TypedMaximum, cut_by: CutBy) -> Mcs {
    let mut pairs = typed.outcome.mapping.clone();
    pairs.sort_unstable();
    fn label(g: &Graph, v: u32) -> &str {
        g.labels.get(v as usize).map_or("", String::as_str)
    }
    // Summed in gold order, as `label_cost` sums a table's.
    let cost: f64 = pairs
        .iter()
        .map(|&(a, x)| labels::NedFrom::new(label(g1, a)).to(label(g2, x)))
        .sum();
    Mcs {
        size: typed.outcome.size as usize,
        upper: typed.outcome.upper as usize,
        exact: false,
        cut_by: Some(typed.cut_by.unwrap_or(cut_by)),
        mapping: node_ids(g1, g2, &typed.outcome.mapping),
        labels: Some(summarize(&[(cost, pairs.len() as u32)], cost, true)),
        stats: typed.stats,
    }
}

/// The label statistics of a cut label phase: over `known`, the mapping
/// reported, alone.
fn known_alone(known: &Incumbent) -> LabelCosts {
    summarize(
        &[(known.cost, known.mapping.len() as u32)],
        known.cost,
        true,
    )
}

/// Mean, histogram and best count of the enumerated (label cost, mapped
/// nodes); the per-subgraph mean ned is cost / mapped nodes (0 when none).
fn summarize(costs: &[(f64, u32)], best: f64, truncated: bool) -> LabelCosts {
    let mut histogram = [0u64; 10];
    for &(cost, mapped) in costs {
        let mean = if mapped == 0 {
            0.0
        } else {
            cost / mapped as f64
        };
        if let Some(bin) = histogram.get_mut(histogram_bin(mean)) {
            *bin += 1;
        }
    }
    // Summed in ascending order: the mean does not depend on the order
    // the search met the mappings in.
    let mut sorted: Vec<f64> = costs.iter().map(|&(cost, _)| cost).collect();
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
        best_mappings: costs
            .iter()
            .filter(|&&(cost, _)| cost <= best + COST_EPS)
            .count() as u64,
        truncated,
    }
}

#[cfg(test)]
mod tests {
    use super::super::maximum_common_subgraph;
    use super::{Clock, ned_matrix};
    use crate::flowchart::mcs::graph::Graph;
    use crate::flowchart::mcs::labels;
    use crate::flowchart::mcs::settings::{Level, Settings};
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
        assert_eq!(
            ned_matrix(&g1, &g2, Clock::with_deadline(Some(Instant::now()))),
            None
        );
        let table = ned_matrix(&g1, &g2, Clock::unlimited()).expect("no deadline");
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
