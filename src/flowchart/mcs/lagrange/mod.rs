//! The edge-split Lagrangian bound, solved at the root of the search when
//! the first mapping falls short of the cheaper bounds.
//!
//! It also leaves the reduced costs of its best step ([`Reduced`]), a
//! bound at every search node, and the mappings its steps meet.
//!
//! Formulation (the linearization of Adams and Johnson, "RLT1", for the
//! quadratic assignment problem, here on edge pairs): a gold edge {a, b}
//! and a run edge {x, y} with compatible ends form an *edge pair*
//! z = ((a, x), (b, y)) of weight w = the edges it would preserve. Mapping
//! a to x and b to y gains w. Relaxing "both ends chosen", each node pair
//! p = (a, x) solves its own *inner* assignment — gold neighbours of a to
//! run neighbours of x — over its share of every edge pair at p, and an
//! *outer* assignment of the node pairs (per class, every node of the
//! short side) over loops + inner optimum bounds the edges of any mapping.
//! The shares of an edge pair's two ends sum to w: half and half is the
//! cheaper assignment bound of `search/assign.rs`; every other split is a
//! valid bound too, and the best split over all edge pairs equals the
//! linear-programming relaxation of the maximum common edge subgraph.
//!
//! The splits start from the incumbent's (an edge pair between a pair of
//! the incumbent and one outside it wholly at the outside end) and are
//! improved by subgradient steps (Polyak's step towards the incumbent): an
//! edge pair used at one end (its node pair chosen by the outer assignment
//! and the edge pair by that pair's inner one) but not at the other moves
//! weight from the used end to the other. Each outer assignment is also a
//! mapping (polished by the local search when near the best, kept when
//! better). A relaxation can be resumed from where it stopped ([`Split`]),
//! and its label mode ([`solve_labels_keeping`]) bounds the label cost of the
//! complete level's cost search. Restricted to the mappings that contain a
//! search node's pairs ([`Probe`]: the pairs sharing a node with them
//! forbidden, the edge pairs they rule out given wholly to the forbidden
//! end), it bounds that node, in size mode and in label mode; it starts
//! warm from the root's state. On realistic flowcharts the relaxation is
//! tight, its value rounded down the maximum (`benches/mcs_lp_bound.py`
//! compares it with the exact LP optimum), so most searches end here.
//!
//! Weights are fixed-point integers (an edge is `UNIT`): every split is
//! an integer, the bound is an exact integer sum, no rounding can make it
//! invalid.
//!
//! The parts, each a file:
//! - `relaxation`: the edge pairs, cells and classes, built from two graphs;
//! - `assignments`: the inner and outer assignments at a split;
//! - `auction`: the warm ε-auction that repairs an outer assignment;
//! - `steps`: the subgradient walk and the mappings it meets;
//! - `reduced`: the reduced costs of the best step ([`Reduced`]).

// Indexing: pair, edge-pair and cell indices are built in `Relaxation::new`
// from the two graphs and stay below the lengths of the arrays built there;
// the auction's rows and columns stay below the `n` of the square matrix
// it is given.
#![allow(clippy::indexing_slicing)]

mod assignments;
mod auction;
mod reduced;
mod relaxation;
mod steps;

use super::clock::Clock;
use super::graph::Graph;
pub(crate) use reduced::Reduced;
pub(crate) use relaxation::LABEL_SCALE;
use relaxation::{Relaxation, UNIT};
pub(crate) use steps::{Outcome, Split};

/// Steps the complete level runs on after the bound is proved (resuming
/// the intermediate level's relaxation): they sharpen the reduced costs
/// its label searches prune with.
pub(crate) const LABEL_STEPS: u32 = 150;

/// Solves the relaxation of `g1` and `g2` (non-induced) from the
/// incumbent's split, or from `start` (a split of the same graphs),
/// stopping `extra_steps` after its bound reaches `incumbent` (the size of
/// a known mapping), after a step cap or once the clock has expired (`steps.rs`);
/// with `largest` the incumbent is known largest and no mapping is looked
/// for. Every relaxation deflects its steps where it needs to
/// ([`solve_keeping`]).
#[cfg(test)]
pub(crate) fn solve(
    g1: &Graph,
    g2: &Graph,
    incumbent: (&[(u32, u32)], u32),
    largest: bool,
    start: Option<&Split>,
    extra_steps: u32,
    clock: Clock,
) -> Outcome {
    solve_keeping(
        g1,
        g2,
        incumbent,
        largest,
        start,
        extra_steps,
        clock,
        (false, 0),
    )
    .0
}

/// [`solve`], and with `keep` the relaxation where its walk stopped, from
/// which the search nodes' restricted relaxations start ([`Probe`]); its
/// steps deflected where it has at least `deflect_from` edge pairs
/// ([`relaxation`]).
///
/// Such a relaxation walks both ways where needed. From a deflected
/// walk's split (the basic level from the intermediate one's), deflected
/// steps first, then, where they stop above the best mapping, plain steps
/// from the same start. Cold, or from a plain walk's split, plain steps
/// first ([`PLAIN_FIRST_PATIENCE`]), then, where they stop above it,
/// deflected steps from the same start and the same incumbent. Plain
/// steps prove the mildly edited large pairs in fewer steps, some that
/// deflected ones stall just above; deflected ones prove the heavily
/// edited pairs. The second walk's bound and mapping are taken where
/// better; the deflected walk's split, reduced costs and relaxation serve
/// what follows unless the plain walk proved the bound alone
/// (`docs/flowchart-distance.md`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_keeping<'g>(
    g1: &'g Graph,
    g2: &'g Graph,
    incumbent: (&[(u32, u32)], u32),
    largest: bool,
    start: Option<&Split>,
    extra_steps: u32,
    clock: Clock,
    (keep, deflect_from): (bool, usize),
) -> (Outcome, Option<Probe<'g>>) {
    let Some(mut r) = relaxation(g1, g2, deflect_from) else {
        return (Outcome::default(), None);
    };
    r.look_for_mappings = !largest;
    let scale = r.start(start, incumbent.0);
    // Known largest (the complete level's sharpening): nothing to prove;
    // the walk goes on the way its start was reached.
    if largest && start.is_some_and(|s| s.plain) {
        r.deflect = false;
    }
    if !r.deflect || largest {
        let out = r.run(incumbent.1, scale, extra_steps, clock);
        return (out, Probe::kept(keep, r));
    }
    let mut plain = r.clone();
    plain.deflect = false;
    if start.is_some_and(|s| !s.plain) {
        let mut out = r.run(incumbent.1, scale, extra_steps, clock);
        let best = best_size(&out, incumbent.1);
        if out.bound.is_some_and(|b| b > best) && !clock.expired() {
            plain.want_reduced = false;
            let retry = plain.run(best, scale, 0, clock);
            take_better(&mut out, retry);
        }
        return (out, Probe::kept(keep, r));
    }
    plain.patience = PLAIN_FIRST_PATIENCE;
    let first = plain.run(incumbent.1, scale, extra_steps, clock);
    plain.patience = u32::MAX;
    if first
        .bound
        .is_some_and(|b| b <= best_size(&first, incumbent.1))
        || clock.expired()
    {
        // The restricted relaxations deflect, as from a deflected walk.
        plain.deflect = true;
        return (first, Probe::kept(keep, plain));
    }
    let mut out = r.run(incumbent.1, scale, extra_steps, clock);
    take_better(&mut out, first);
    (out, Probe::kept(keep, r))
}

/// Steps without a better bound (three shrinks of the scale) after which
/// a plain walk that comes first gives way to the deflected one. Plain
/// walks that prove the mildly edited large pairs keep lowering their
/// bound; on the heavy pairs a plain walk run to its end costs the
/// deflected one budget (see benches/EXPERIMENTS.md).
const PLAIN_FIRST_PATIENCE: u32 = 60;

/// The size of the best mapping after a walk from an incumbent of `incumbent`.
fn best_size(out: &Outcome, incumbent: u32) -> u32 {
    out.mapping.as_ref().map_or(incumbent, |m| m.1)
}

/// Takes into `out` the other walk's steps, its bound where lower and its
/// mapping where larger; `out` keeps its split and reduced costs.
fn take_better(out: &mut Outcome, other: Outcome) {
    out.iterations += other.iterations;
    let size = out.mapping.as_ref().map(|m| m.1);
    if let Some(m) = other.mapping.filter(|m| size.is_none_or(|s| m.1 > s)) {
        out.mapping = Some(m);
    }
    if let Some(b) = other.bound.filter(|&b| out.bound.is_none_or(|o| b < o)) {
        out.bound = Some(b);
        out.value = other.value;
    }
}

/// The relaxation of `g1` and `g2`, its steps deflected where it has at
/// least `deflect_from` edge pairs (`Tuning::deflect_edge_pairs`):
/// deflected steps reach the LP bound where plain ones stall above it,
/// which the heavy pairs' proofs need; on small relaxations plain steps
/// reach it too, touching fewer node pairs a step
/// (`docs/flowchart-distance.md`).
fn relaxation<'g>(g1: &'g Graph, g2: &'g Graph, deflect_from: usize) -> Option<Relaxation<'g>> {
    let mut r = Relaxation::new(g1, g2)?;
    r.deflect = r.edge_pairs.len() >= deflect_from;
    Some(r)
}

/// The root's relaxation where its walk stopped: every search node's
/// relaxation restricted to its mapped pairs starts from a copy of it.
/// Warm: only the node pairs the restriction touches are solved again,
/// and the outer assignments are repaired from the root's prices instead
/// of solved anew.
#[derive(Clone)]
pub(crate) struct Probe<'g> {
    root: Relaxation<'g>,
}

impl<'g> Probe<'g> {
    /// The relaxation `r` where its walk stopped, kept when `keep`; the
    /// best step's potentials are in its reduced costs already, and the
    /// copies made from it do without them.
    fn kept(keep: bool, mut r: Relaxation<'g>) -> Option<Self> {
        keep.then(|| {
            r.forget_best();
            Probe { root: r }
        })
    }

    /// The work units of one step of the root's relaxation (⌈cells / 64⌉):
    /// what a restricted relaxation's copy costs, and each of its steps at
    /// most.
    pub(crate) fn step_units(&self) -> u64 {
        (self.root.cells.len() as u64).div_ceil(64)
    }

    /// A copy of the root restricted to the mappings containing every pair
    /// of `fixed` (a search node's mapped pairs), to walk at most `steps`
    /// steps without reduced costs or polish; the copy and the restriction
    /// are charged as one step's work.
    fn restricted(&self, fixed: &[(u32, u32)], steps: u32, clock: Clock) -> Relaxation<'g> {
        clock.spend(self.step_units());
        let mut r = self.root.clone();
        r.restrict(fixed);
        r.max_steps = steps;
        r.patience = PATIENCE;
        r.want_reduced = false;
        r.polish = false;
        r
    }

    /// The relaxation restricted to the mappings containing every pair of
    /// `fixed`, for `steps` steps at most: its bound, and the best of its
    /// outer assignments when larger than `incumbent`.
    pub(crate) fn solve(
        &self,
        fixed: &[(u32, u32)],
        incumbent: u32,
        steps: u32,
        clock: Clock,
    ) -> Outcome {
        let mut r = self.restricted(fixed, steps, clock);
        r.look_for_mappings = true;
        r.run(incumbent, FIXED_SCALE, 0, clock)
    }

    /// Label mode ([`solve_labels_keeping`]): the relaxation restricted to
    /// the mappings containing every pair of `fixed`, for `steps` steps at
    /// most; returns a lower bound on the label cost of every such mapping
    /// of `size`, and the steps run. The walk aims at `limit` (a label
    /// cost) and stops once the bound reaches it; it looks for no mappings.
    pub(crate) fn label_floor(
        &self,
        fixed: &[(u32, u32)],
        (size, limit): (u32, f64),
        steps: u32,
        clock: Clock,
    ) -> (f64, u32) {
        let edges = (size as i64 - self.root.node_term as i64) * UNIT;
        // A mapping M of `size` has labels(M) ≥ edges − value (label
        // units, each rounded down): M costs at least `limit` once
        // value ≤ edges − limit · LABEL_SCALE.
        let reach = edges as f64 - limit * LABEL_SCALE as f64;
        if !reach.is_finite() {
            return (f64::NEG_INFINITY, 0);
        }
        let mut r = self.restricted(fixed, steps, clock);
        r.label_target = Some(reach.floor() as i64);
        r.label_stop = true;
        r.look_for_mappings = false;
        let out = r.run(size, FIXED_SCALE, 0, clock);
        let floor = (edges - out.value) as f64 / LABEL_SCALE as f64;
        (floor, out.iterations)
    }
}

/// The first step scale of a restricted relaxation ([`Probe::restricted`]).
const FIXED_SCALE: f64 = 1.0;

/// Steps in a row without a better bound after which a restricted
/// relaxation stops: the ones that prune their node do so before, and
/// the others would walk on at a shrinking scale to their step cap.
/// Chosen on the heavy workload (see benches/EXPERIMENTS.md).
const PATIENCE: u32 = 100;

/// A mapping known and its size.
pub(crate) type Known<'a> = (&'a [(u32, u32)], u32);

/// What the label relaxation ([`solve_labels_keeping`]) leaves.
#[derive(Default)]
pub(crate) struct Labelled<'g> {
    /// Its reduced costs: a lower bound on the label cost at every node
    /// of the cost search.
    pub reduced: Option<Reduced>,
    /// The mapping of the incumbent's size with the fewest label units
    /// met, if any.
    pub mapping: Option<Vec<(u32, u32)>>,
    /// Where its walk stopped, when asked to keep it.
    pub probe: Option<Probe<'g>>,
}

/// The relaxation of the complete level's cost search: edges × UNIT − the
/// label cost of the mapped pairs (ned × [`LABEL_SCALE`], `labels` at
/// `a * n2 + x`, rounded down by the caller) over mappings of every
/// short-side node, for `steps` steps from `start` (the intermediate
/// level's split) or the incumbent's. For a mapping M of `size` edges +
/// nodes, `UNIT · edges − labels(M) ≤ total − Σ_M reduced costs`: the
/// returned reduced costs bound the label cost of every maximum mapping
/// containing the pairs mapped so far. Also returns the outer assignment of
/// `size` with the fewest label units met, if any. Every step is
/// deflected where it has at least `deflect_from` edge pairs
/// ([`relaxation`]), unless `start` is a plain walk's split; with `keep`
/// the relaxation where its walk stopped is kept, from which the cost
/// search's nodes start their restricted relaxations
/// ([`Probe::label_floor`]). With `sized`, the size relaxation's
/// reduced costs (the incumbent's size proved the maximum), every node
/// pair they rule out of the mappings of that size is forbidden, here and
/// in every restriction: an integer fact the linear bound alone does not
/// know (a pair used at a fraction pays only that fraction of its reduced
/// cost).
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_labels_keeping<'g>(
    g1: &'g Graph,
    g2: &'g Graph,
    labels: &[i64],
    (incumbent, sized): (Known<'_>, Option<&Reduced>),
    start: Option<&Split>,
    steps: u32,
    clock: Clock,
    (keep, deflect_from): (bool, usize),
) -> Labelled<'g> {
    let Some(mut r) = relaxation(g1, g2, deflect_from) else {
        return Labelled::default();
    };
    let label = |&(a, x): &(u32, u32)| {
        labels
            .get(a as usize * g2.n + x as usize)
            .copied()
            .unwrap_or(0)
    };
    for (base, pair) in r.base.iter_mut().zip(&r.pair_nodes) {
        *base -= label(pair);
    }
    r.label_units = labels.to_vec();
    let (map, size) = incumbent;
    let own: i64 = map.iter().map(label).sum();
    r.label_target = Some((size as i64 - r.node_term as i64) * UNIT - own);
    // The walk goes on the way its start was reached.
    if start.is_some_and(|s| s.plain) {
        r.deflect = false;
    }
    let scale = r.start(start, map);
    if let Some(sized) = sized {
        r.ruled_out = r
            .pair_nodes
            .iter()
            .map(|&(a, x)| sized.rules_out(a as usize, x as usize, size))
            .collect();
        if r.ruled_out.contains(&true) {
            r.restrict(&[]);
        }
    }
    let out = r.run(size, scale, steps, clock);
    Labelled {
        reduced: out.reduced,
        mapping: out.mapping.map(|(m, _)| m),
        probe: Probe::kept(keep, r),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::relaxation::Relaxation;
    use super::{Clock, LABEL_SCALE, UNIT, solve, solve_keeping, solve_labels_keeping};
    use crate::flowchart::mcs::clock::Work;
    use crate::flowchart::mcs::graph::Graph;
    use crate::flowchart::mcs::mapping::size as mapping_size;
    use crate::flowchart::mcs::settings::{Level, Settings};
    use crate::flowchart::{Edge, EdgeType, Flowchart, Node, NodeType};
    use proptest::prelude::*;

    const TYPES: [NodeType; 2] = [NodeType::Rectangle, NodeType::Diamond];

    pub(crate) fn flowchart(types: &[usize], edges: &[(usize, usize, bool)]) -> Flowchart {
        Flowchart {
            nodes: types
                .iter()
                .enumerate()
                .map(|(i, &t)| Node {
                    id: i as i64 + 1,
                    node_type: TYPES[t % TYPES.len()],
                    text: None,
                    location: None,
                    line: 0,
                })
                .collect(),
            edges: edges
                .iter()
                .filter(|&&(a, b, _)| a < types.len() && b < types.len())
                .map(|&(a, b, directed)| Edge {
                    from: a as i64 + 1,
                    to: b as i64 + 1,
                    directed,
                    edge_type: EdgeType::Plain,
                    text: None,
                    line: 0,
                })
                .collect(),
            ..Flowchart::default()
        }
    }

    /// Every mapping the search builds: per class, every node of the
    /// short side mapped to a distinct node of the other side.
    pub(crate) fn mappings(g1: &Graph, g2: &Graph) -> Vec<Vec<(u32, u32)>> {
        fn go(
            a: usize,
            g1: &Graph,
            g2: &Graph,
            used: &mut Vec<bool>,
            map: &mut Vec<(u32, u32)>,
            out: &mut Vec<Vec<(u32, u32)>>,
        ) {
            if a == g1.n {
                // Closed form: per class, min(n1, n2) nodes mapped.
                let classes = g1.class_count().max(g2.class_count());
                let full = (0..classes as u16).all(|c| {
                    let n1 = g1.class.iter().filter(|&&k| k == c).count();
                    let n2 = g2.class.iter().filter(|&&k| k == c).count();
                    let m = map
                        .iter()
                        .filter(|&&(a, _)| g1.class[a as usize] == c)
                        .count();
                    m == n1.min(n2)
                });
                if full {
                    out.push(map.clone());
                }
                return;
            }
            go(a + 1, g1, g2, used, map, out);
            for x in 0..g2.n {
                if !used[x] && g1.class[a] == g2.class[x] {
                    used[x] = true;
                    map.push((a as u32, x as u32));
                    go(a + 1, g1, g2, used, map, out);
                    map.pop();
                    used[x] = false;
                }
            }
        }
        let mut out = Vec::new();
        go(0, g1, g2, &mut vec![false; g2.n], &mut Vec::new(), &mut out);
        out
    }

    /// The graphs of two generated flowcharts, at the intermediate level
    /// when `typed`, else at the basic level.
    fn graphs(t: &Generated, s: &Generated, typed: bool) -> (Graph, Graph) {
        let level = if typed {
            Level::Intermediate
        } else {
            Level::Basic
        };
        let settings = Settings::default();
        (
            Graph::new(&flowchart(&t.0, &t.1), &settings, level),
            Graph::new(&flowchart(&s.0, &s.1), &settings, level),
        )
    }

    /// The pairs of `mapping` that `pick` (cycled) selects: a search
    /// node's mapped pairs.
    fn some_pairs(mapping: &[(u32, u32)], pick: &[bool]) -> Vec<(u32, u32)> {
        mapping
            .iter()
            .zip(pick.iter().cycle())
            .filter(|&(_, &p)| p)
            .map(|(&pair, _)| pair)
            .collect()
    }

    /// The largest size of a mapping of `g1` and `g2`, and every mapping
    /// of that size (brute force).
    fn largest_mappings(g1: &Graph, g2: &Graph) -> (u32, Vec<Vec<(u32, u32)>>) {
        let all = mappings(g1, g2);
        let size = all
            .iter()
            .map(|m| mapping_size(g1, g2, m))
            .max()
            .unwrap_or(0);
        let largest = all
            .into_iter()
            .filter(|m| mapping_size(g1, g2, m) == size)
            .collect();
        (size, largest)
    }

    /// Label units of every pair (gold a, run x) at `a * n2 + x`, taken
    /// from `units` in turn.
    fn label_table(g1: &Graph, g2: &Graph, units: &[i64]) -> Vec<i64> {
        (0..g1.n * g2.n).map(|i| units[i % units.len()]).collect()
    }

    /// The label units of `mapping` under `labels` (see [`label_table`]).
    fn label_units(labels: &[i64], n2: usize, mapping: &[(u32, u32)]) -> i64 {
        mapping
            .iter()
            .map(|&(a, x)| labels[a as usize * n2 + x as usize])
            .sum()
    }

    /// The size relaxation's reduced costs after `steps` steps from
    /// `best` (a largest mapping), checked to rule out no pair of any of
    /// the `largest` mappings (brute force): what the label relaxation
    /// forbids with them.
    fn ruling_out(
        g1: &Graph,
        g2: &Graph,
        (best, size): (&[(u32, u32)], u32),
        steps: u32,
        largest: &[Vec<(u32, u32)>],
    ) -> super::Reduced {
        let out = solve(g1, g2, (best, size), true, None, steps, Clock::unlimited());
        let r = out.reduced.expect("small graphs get reduced costs");
        for m in largest {
            for &(a, x) in m {
                assert!(
                    !r.rules_out(a as usize, x as usize, size),
                    "the pair ({a}, {x}) of a largest mapping ruled out"
                );
            }
        }
        r
    }

    /// Node types and edges of a generated flowchart.
    type Generated = (Vec<usize>, Vec<(usize, usize, bool)>);

    pub(crate) fn graph_strategy() -> impl Strategy<Value = (Vec<usize>, Vec<(usize, usize, bool)>)>
    {
        (
            prop::collection::vec(0..2usize, 0..=5),
            prop::collection::vec((0..5usize, 0..5usize, any::<bool>()), 0..=8),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// The bound is at least every mapping's size, the mapping returned
        /// has the size stated, reduced costs are non-negative and bound
        /// every mapping through the sum over its pairs.
        #[test]
        fn bounds_hold_against_every_mapping(
            t in graph_strategy(), s in graph_strategy(),
            typed in any::<bool>(), from_best in any::<bool>(), extra in 0u32..30,
        ) {
            let (g1, g2) = graphs(&t, &s, typed);
            let all = mappings(&g1, &g2);
            let best = all
                .iter()
                .max_by_key(|m| mapping_size(&g1, &g2, m))
                .cloned()
                .unwrap_or_default();
            let best_size = mapping_size(&g1, &g2, &best);
            let start: (&[(u32, u32)], u32) = if from_best { (&best, best_size) } else { (&[], 0) };
            // From the best mapping, it is known largest: no mapping is
            // looked for.
            let out = solve(&g1, &g2, start, from_best, None, extra, Clock::unlimited());
            prop_assert!(!from_best || out.mapping.is_none());
            // From no mapping (incumbent 0), the first outer assignment is
            // one (it maps every short-side node).
            prop_assert!(from_best || best_size == 0 || out.mapping.is_some());
            let bound = out.bound.expect("small graphs are always relaxed");
            prop_assert!(bound >= best_size, "bound {} below the maximum {}", bound, best_size);
            if let Some((map, size)) = &out.mapping {
                prop_assert_eq!(mapping_size(&g1, &g2, map), *size);
                prop_assert!(*size > start.1);
            }
            let r = out.reduced.expect("small graphs get reduced costs");
            prop_assert!(r.cost.iter().all(|&c| c >= 0));
            for m in &all {
                let used: i64 = m.iter().map(|&(a, x)| r.cost(a as usize, x as usize) as i64).sum();
                prop_assert!(
                    r.size_bound(used) >= mapping_size(&g1, &g2, m) as i64,
                    "reduced bound {} below a mapping of size {} (total {} units {})",
                    r.size_bound(used), mapping_size(&g1, &g2, m), r.total, UNIT
                );
            }
            // With the losses (`local.rs`): for every mapping and every
            // prefix of it taken as the pairs mapped so far, the reduced
            // costs plus the losses of the prefix's pairs bound the size.
            let local = r.local.as_ref().expect("size mode keeps the inner assignments");
            let mut scratch = crate::flowchart::mcs::local::Scratch::default();
            for m in &all {
                let size = mapping_size(&g1, &g2, m) as i64;
                let mut partner = [vec![u32::MAX; g1.n], vec![u32::MAX; g2.n]];
                let mut cost = 0;
                for (k, &(a, x)) in m.iter().enumerate() {
                    partner[0][a as usize] = x;
                    partner[1][x as usize] = a;
                    cost += r.cost(a as usize, x as usize) as i64;
                    let loss: i64 = m[..=k]
                        .iter()
                        .map(|&(b, y)| local.loss(b as usize, y as usize, &partner, &mut scratch))
                        .sum();
                    prop_assert!(loss >= 0);
                    prop_assert!(
                        r.size_bound(cost + loss) >= size,
                        "bound with losses {} below a mapping of size {} ({} of its pairs mapped)",
                        r.size_bound(cost + loss), size, k + 1
                    );
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Label mode: a mapping returned (an outer assignment as it is or
        /// polished) has the incumbent's size, and the reduced costs bound
        /// the label units of every mapping of that size.
        #[test]
        fn label_mappings_keep_the_size_and_label_bounds_hold(
            t in graph_strategy(), s in graph_strategy(), typed in any::<bool>(),
            units in prop::collection::vec(0..=LABEL_SCALE, 64), steps in 0u32..40,
            size_steps in 0u32..30, rule_out in any::<bool>(),
        ) {
            let (g1, g2) = graphs(&t, &s, typed);
            let (size, largest) = largest_mappings(&g1, &g2);
            let Some(best) = largest.first() else {
                return Ok(());
            };
            let labels = label_table(&g1, &g2, &units);
            let of = |m: &[(u32, u32)]| label_units(&labels, g2.n, m);
            let sized = rule_out.then(|| ruling_out(&g1, &g2, (best, size), size_steps, &largest));
            let out = solve_labels_keeping(
                &g1, &g2, &labels, ((best, size), sized.as_ref()), None, steps,
                Clock::unlimited(), (false, 0),
            );
            let (reduced, mapping) = (out.reduced, out.mapping);
            if let Some(map) = &mapping {
                prop_assert_eq!(mapping_size(&g1, &g2, map), size);
            }
            let r = reduced.expect("small graphs get reduced costs");
            for m in &largest {
                let used: i64 = m.iter().map(|&(a, x)| r.cost(a as usize, x as usize) as i64).sum();
                let floor = r.label_bound(size, used);
                prop_assert!(
                    floor * LABEL_SCALE as f64 <= of(m) as f64,
                    "label bound {} above a mapping of {} units", floor, of(m)
                );
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Label mode restricted to the mappings that contain some pairs:
        /// the floor is at most the label cost of every such mapping of
        /// the maximum size, whatever cost the walk aims at, from the
        /// root's state after any number of its steps.
        #[test]
        fn restricted_label_floors_hold_against_every_mapping_with_the_pairs(
            t in graph_strategy(), s in graph_strategy(), typed in any::<bool>(),
            units in prop::collection::vec(0..=LABEL_SCALE, 64), root_steps in 0u32..30,
            steps in 1u32..60, aim in 0.0f64..6.0,
            pick in prop::collection::vec(any::<bool>(), 5), which in any::<prop::sample::Index>(),
            size_steps in 0u32..30, rule_out in any::<bool>(),
        ) {
            let (g1, g2) = graphs(&t, &s, typed);
            let (size, largest) = largest_mappings(&g1, &g2);
            prop_assume!(!largest.is_empty());
            let labels = label_table(&g1, &g2, &units);
            let cost = |m: &[(u32, u32)]| label_units(&labels, g2.n, m) as f64 / LABEL_SCALE as f64;
            let base = &largest[which.index(largest.len())];
            let fixed = some_pairs(base, &pick);
            let sized = rule_out.then(|| ruling_out(&g1, &g2, (base, size), size_steps, &largest));
            let out = solve_labels_keeping(
                &g1, &g2, &labels, ((base, size), sized.as_ref()), None, root_steps,
                Clock::unlimited(), (true, 0),
            );
            let probe = out.probe.expect("small graphs are always relaxed");
            let least = largest
                .iter()
                .filter(|m| fixed.iter().all(|f| m.contains(f)))
                .map(|m| cost(m))
                .fold(f64::INFINITY, f64::min);
            let (floor, _) = probe.label_floor(&fixed, (size, aim), steps, Clock::unlimited());
            prop_assert!(
                floor <= least + 1e-9,
                "restricted label floor {} above a mapping of cost {} with the pairs {:?}",
                floor, least, fixed
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Restricted to the mappings that contain some pairs (a search
        /// node's), the bound is at least every such mapping's size, from
        /// the root's split after any number of its steps, and a mapping
        /// returned has the size stated.
        #[test]
        fn restricted_bounds_hold_against_every_mapping_with_the_pairs(
            t in graph_strategy(), s in graph_strategy(),
            typed in any::<bool>(), root_steps in 0u32..30, steps in 1u32..60,
            pick in prop::collection::vec(any::<bool>(), 5), which in any::<prop::sample::Index>(),
        ) {
            let (g1, g2) = graphs(&t, &s, typed);
            let all = mappings(&g1, &g2);
            prop_assume!(!all.is_empty());
            // The fixed pairs: some pairs of one of the mappings.
            let base = &all[which.index(all.len())];
            let fixed = some_pairs(base, &pick);
            let (_, probe) = solve_keeping(
                &g1, &g2, (&[], 0), false, None, root_steps, Clock::unlimited(), (true, 0),
            );
            let probe = probe.expect("small graphs are always relaxed");
            let best_with = all
                .iter()
                .filter(|m| fixed.iter().all(|f| m.contains(f)))
                .map(|m| mapping_size(&g1, &g2, m))
                .max()
                .expect("the mapping the pairs come from");
            let out = probe.solve(&fixed, 0, steps, Clock::unlimited());
            let bound = out.bound.expect("small graphs are always relaxed");
            prop_assert!(
                bound >= best_with,
                "restricted bound {} below a mapping of size {} with the pairs {:?}",
                bound, best_with, fixed
            );
            if let Some((map, size)) = &out.mapping {
                prop_assert_eq!(mapping_size(&g1, &g2, map), *size);
            }
        }

        /// A restricted relaxation's step is charged by the cells of the
        /// node pairs it allows (a fixed pair, or one sharing no node with
        /// a fixed pair), and its first step's exact outer solves by
        /// ⌈n³ / 4096⌉ per n × n class: one step from scratch spends
        /// exactly both.
        #[test]
        fn restricted_steps_are_charged_by_their_allowed_cells(
            t in graph_strategy(), s in graph_strategy(), typed in any::<bool>(),
            pick in prop::collection::vec(any::<bool>(), 5), which in any::<prop::sample::Index>(),
        ) {
            let (g1, g2) = graphs(&t, &s, typed);
            let all = mappings(&g1, &g2);
            prop_assume!(!all.is_empty());
            let fixed = some_pairs(&all[which.index(all.len())], &pick);
            let mut r = Relaxation::new(&g1, &g2).expect("small graphs are always relaxed");
            let every = r.work_cells;
            prop_assert_eq!(every, r.cells.len());
            r.restrict(&fixed);
            let allowed: usize = r
                .pair_nodes
                .iter()
                .enumerate()
                .filter(|&(_, &(a, x))| {
                    fixed.contains(&(a, x)) || !fixed.iter().any(|&(b, y)| b == a || y == x)
                })
                .map(|(p, _)| r.cell_start[p + 1] - r.cell_start[p])
                .sum();
            prop_assert_eq!(r.work_cells, allowed);
            if fixed.is_empty() {
                prop_assert_eq!(r.work_cells, every);
            }
            let exact: u64 = r.classes.iter().map(|c| (c.cols as u64).pow(3).div_ceil(4096)).sum();
            r.max_steps = 1;
            r.look_for_mappings = false;
            r.want_reduced = false;
            let work = Work::new(u64::MAX);
            r.run(0, 1.0, 0, Clock::unlimited().with_work(Some(&work)));
            prop_assert_eq!(work.used(), (allowed as u64).div_ceil(64).max(1) + exact);
        }
    }
}
