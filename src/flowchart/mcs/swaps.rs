//! The swap-based local search that improves a complete mapping (the
//! first mapping, and the relaxation's outer assignments): swaps of two
//! gold nodes' partners within a class and moves to free partners, first
//! improvement, while they preserve more edges.

// Indexing: node indices < n of their graph, partner arrays of length n
// (built from the two graphs); runs on every mapping a relaxation polishes.
#![allow(clippy::indexing_slicing)]

use super::clock::{Clock, interrupted};
use super::graph::{Count, Graph, preserved};
use super::mapping::{self, NONE, mapped_pairs};

/// Edges preserved by gold node `a` mapped to `x` towards the other mapped nodes.
fn contribution(g1: &Graph, g2: &Graph, m: &[u32], a: usize, x: usize) -> u32 {
    let mut s = preserved(g1.loops(a), g2.loops(x));
    for (b, counts) in g1.neighbours(a) {
        let y = m[b];
        if y != NONE {
            s += preserved(counts, g2.pair(x, y as usize));
        }
    }
    s
}

/// The mapping `m` (run partner per gold node, or `NONE`) after
/// [`local_search`], as (gold, run) pairs by gold index.
pub(crate) fn polished(
    g1: &Graph,
    g2: &Graph,
    mut m: Vec<u32>,
    focus: bool,
    clock: Clock,
) -> Vec<(u32, u32)> {
    local_search(g1, g2, &mut m, focus, clock);
    mapped_pairs(&m).collect()
}

/// Size evaluations [`cheaper_labels`] makes at most (each a pass over the
/// mapping's edges): it runs where a budget is already spent.
const LABEL_SWAP_CHECKS: u32 = 20_000;

/// `map` after swaps of two gold nodes' partners within a class and moves
/// to free run nodes of the class, first improvement in node order, each
/// kept when it lowers the label cost (`ned` at `a * n2 + x`) by more than
/// `eps` and leaves the size of the mapping as it was: a mapping of the
/// same size and no higher label cost. Ends when no swap or move improves,
/// after [`LABEL_SWAP_CHECKS`] size evaluations, or on an interruption;
/// never on the clock, since it polishes what a spent budget left.
pub(crate) fn cheaper_labels(
    g1: &Graph,
    g2: &Graph,
    map: &[(u32, u32)],
    ned: &[f64],
    eps: f64,
) -> Vec<(u32, u32)> {
    let n2 = g2.n;
    let mut m = vec![NONE; g1.n];
    let mut used = vec![false; n2];
    for &(a, x) in map {
        if let (Some(slot), Some(u)) = (m.get_mut(a as usize), used.get_mut(x as usize)) {
            *slot = x;
            *u = true;
        }
    }
    let size = mapping::size(g1, g2, map);
    let cost = |a: usize, x: u32| ned.get(a * n2 + x as usize).copied().unwrap_or(1.0);
    let checks = std::cell::Cell::new(0u32);
    // The size after a change, counted against the cap (false past it).
    let keeps_size = |m: &[u32]| {
        checks.set(checks.get() + 1);
        let pairs: Vec<(u32, u32)> = mapped_pairs(m).collect();
        checks.get() <= LABEL_SWAP_CHECKS && mapping::size(g1, g2, &pairs) == size
    };
    let mut improved = true;
    while improved && checks.get() < LABEL_SWAP_CHECKS && !interrupted() {
        improved = false;
        for a in 0..g1.n {
            let x = m[a];
            if x == NONE {
                continue;
            }
            let class = g1.class[a];
            for b in a + 1..g1.n {
                let (x, y) = (m[a], m[b]);
                if y == NONE || g1.class[b] != class {
                    continue;
                }
                if cost(a, y) + cost(b, x) - cost(a, x) - cost(b, y) >= -eps {
                    continue;
                }
                (m[a], m[b]) = (y, x);
                if keeps_size(&m) {
                    improved = true;
                } else {
                    (m[a], m[b]) = (x, y);
                }
            }
            for z in 0..n2 {
                let x = m[a];
                if used[z] || g2.class[z] != class || cost(a, z as u32) - cost(a, x) >= -eps {
                    continue;
                }
                m[a] = z as u32;
                if keeps_size(&m) {
                    (used[x as usize], used[z]) = (false, true);
                    improved = true;
                } else {
                    m[a] = x;
                }
            }
        }
    }
    mapped_pairs(&m).collect()
}

/// True when gold node `a` mapped to `x` keeps every edge and loop it has
/// towards mapped nodes (a node [`local_search`] may skip when focused).
fn keeps_all(g1: &Graph, g2: &Graph, m: &[u32], a: usize, x: usize) -> bool {
    let total = |p: &[Count]| p.iter().map(|&c| c as u32).sum::<u32>();
    let mut own = total(g1.loops(a));
    for &b in &g1.adj[a] {
        if m[b as usize] != NONE {
            own += total(g1.pair(a, b as usize));
        }
    }
    contribution(g1, g2, m, a, x) == own
}

/// Improves a complete (closed-form) mapping by swapping the partners of two
/// gold nodes of one class, or moving a gold node to a free run node of its
/// class, while that preserves more edges. First improvement, a few passes.
/// `focus`: only gold nodes that lose an edge are moved (a pass costs
/// O(lossy nodes · n) instead of O(n²); the relaxation polishes its
/// mappings, many per solve, so).
fn local_search(g1: &Graph, g2: &Graph, m: &mut [u32], focus: bool, clock: Clock) {
    let mut inv = vec![NONE; g2.n];
    for (a, &x) in m.iter().enumerate() {
        if x != NONE {
            inv[x as usize] = a as u32;
        }
    }
    let mut near = Vec::new();
    for _pass in 0..4 {
        let mut improved = false;
        for a in 0..g1.n {
            let x = m[a];
            if clock.expired() {
                return;
            }
            if x == NONE || (focus && keeps_all(g1, g2, m, a, x as usize)) {
                continue;
            }
            // One unit of work per gold node whose candidates are scanned.
            clock.spend(1);
            // `a`'s own edges at `x`: every trial below is undone unless it
            // gains, and then the scan of `a` ends.
            let own = contribution(g1, g2, m, a, x as usize);
            swap_candidates(g1, g2, m, &inv, a, x as usize, &mut near);
            for &b in &near {
                let b = b as usize;
                let y = m[b];
                if b <= a || y == NONE || g1.class[a] != g1.class[b] {
                    continue;
                }
                let before = own + contribution(g1, g2, m, b, y as usize)
                    - preserved(g1.pair(a, b), g2.pair(x as usize, y as usize));
                m[a] = y;
                m[b] = x;
                let after = contribution(g1, g2, m, a, y as usize)
                    + contribution(g1, g2, m, b, x as usize)
                    - preserved(g1.pair(a, b), g2.pair(y as usize, x as usize));
                if after > before {
                    inv[x as usize] = b as u32;
                    inv[y as usize] = a as u32;
                    improved = true;
                    break;
                }
                m[a] = x;
                m[b] = y;
            }
            // Moves of `a` (at its partner after a swap) to a free node.
            let (x, own) = if m[a] == x {
                (x, own)
            } else {
                (m[a], contribution(g1, g2, m, a, m[a] as usize))
            };
            m[a] = NONE;
            move_candidates(g1, g2, m, a, &mut near);
            for &z in &near {
                let z = z as usize;
                if inv[z] != NONE || g2.class[z] != g1.class[a] {
                    continue;
                }
                if contribution(g1, g2, m, a, z) > own {
                    m[a] = z as u32;
                    inv[x as usize] = NONE;
                    inv[z] = a as u32;
                    improved = true;
                    break;
                }
            }
            if m[a] == NONE {
                m[a] = x;
            }
        }
        if !improved {
            break;
        }
    }
}

/// The gold nodes `b` whose swap with `a` (at `x`) may gain, sorted: a
/// swap gains only if `a` at `m[b]` or `b` at `x` keeps an edge, i.e.
/// `m[b]` is a neighbour of `x` or of a neighbour's partner of `a`, or `b`
/// a neighbour of a node whose partner is a neighbour of `x` (every gold
/// node when `a` or `x` has a self-loop). A superset of the swaps that
/// gain, in the order of the full scan: the first that gains is the same,
/// for O(degree²) contributions instead of O(n).
fn swap_candidates(
    g1: &Graph,
    g2: &Graph,
    m: &[u32],
    inv: &[u32],
    a: usize,
    x: usize,
    near: &mut Vec<u32>,
) {
    near.clear();
    if has_loops(g1, a) || has_loops(g2, x) {
        near.extend(0..g1.n as u32);
        return;
    }
    // The gold nodes at the run nodes where `a` would keep an edge and at
    // the neighbours of `x`.
    extend_beyond(near, &g1.adj[a], m, g2);
    near.extend(&g2.adj[x]);
    near.retain(|&y| inv[y as usize] != NONE);
    near.iter_mut().for_each(|y| *y = inv[*y as usize]);
    extend_beyond(near, &g2.adj[x], inv, g1);
    near.sort_unstable();
    near.dedup();
}

/// Adds the neighbours in `g` of the images under `map` of `nodes`.
fn extend_beyond(near: &mut Vec<u32>, nodes: &[u32], map: &[u32], g: &Graph) {
    for &v in nodes {
        let image = map[v as usize];
        if image != NONE {
            near.extend(&g.adj[image as usize]);
        }
    }
}

fn has_loops(g: &Graph, v: usize) -> bool {
    g.loops(v).iter().any(|&c| c > 0)
}

/// The run nodes `a` (unmapped) may move to with an edge kept, sorted:
/// neighbours of the partners of `a`'s neighbours (every run node when
/// `a` has a self-loop). A move gains only if it keeps an edge.
fn move_candidates(g1: &Graph, g2: &Graph, m: &[u32], a: usize, near: &mut Vec<u32>) {
    near.clear();
    if has_loops(g1, a) {
        near.extend(0..g2.n as u32);
        return;
    }
    extend_beyond(near, &g1.adj[a], m, g2);
    near.sort_unstable();
    near.dedup();
}

#[cfg(test)]
mod tests {
    use super::{cheaper_labels, contribution, move_candidates, preserved, swap_candidates};
    use crate::flowchart::mcs::graph::Graph;
    use crate::flowchart::mcs::lagrange::tests::{flowchart, graph_strategy, mappings};
    use crate::flowchart::mcs::mapping::NONE;
    use crate::flowchart::mcs::mapping::{label_cost, mapped_pairs, size};
    use crate::flowchart::mcs::{Level, Settings};
    use proptest::prelude::*;

    proptest! {
        /// The candidates hold every swap and every move that gains, for
        /// every mapping of two random graphs (with self-loops) and every
        /// mapped gold node.
        #[test]
        fn candidates_hold_every_gain(
            t in graph_strategy(), s in graph_strategy(), typed in any::<bool>(),
        ) {
            let level = if typed { Level::Intermediate } else { Level::Basic };
            let settings = Settings::default();
            let g1 = Graph::new(&flowchart(&t.0, &t.1), &settings, level);
            let g2 = Graph::new(&flowchart(&s.0, &s.1), &settings, level);
            let mut near = Vec::new();
            for map in mappings(&g1, &g2) {
                let mut m = vec![NONE; g1.n];
                let mut inv = vec![NONE; g2.n];
                for &(a, x) in &map {
                    m[a as usize] = x;
                    inv[x as usize] = a;
                }
                for &(a, x) in &map {
                    let (a, x) = (a as usize, x as usize);
                    swap_candidates(&g1, &g2, &m, &inv, a, x, &mut near);
                    prop_assert!(near.windows(2).all(|w| w[0] < w[1]));
                    for &(b, y) in &map {
                        let (b, y) = (b as usize, y as usize);
                        if b == a || g1.class[a] != g1.class[b] {
                            continue;
                        }
                        let before = contribution(&g1, &g2, &m, a, x)
                            + contribution(&g1, &g2, &m, b, y)
                            - preserved(g1.pair(a, b), g2.pair(x, y));
                        let mut swapped = m.clone();
                        swapped[a] = y as u32;
                        swapped[b] = x as u32;
                        let after = contribution(&g1, &g2, &swapped, a, y)
                            + contribution(&g1, &g2, &swapped, b, x)
                            - preserved(g1.pair(a, b), g2.pair(y, x));
                        if after > before {
                            prop_assert!(near.contains(&(b as u32)), "swap {} {} gains", a, b);
                        }
                    }
                    let mut freed = m.clone();
                    freed[a] = NONE;
                    move_candidates(&g1, &g2, &freed, a, &mut near);
                    prop_assert!(near.windows(2).all(|w| w[0] < w[1]));
                    for (z, &at) in inv.iter().enumerate() {
                        let free = at == NONE && g2.class[z] == g1.class[a];
                        if free && contribution(&g1, &g2, &freed, a, z) > 0 {
                            prop_assert!(near.contains(&(z as u32)), "move {} to {} keeps an edge", a, z);
                        }
                    }
                }
            }
        }
    }

    proptest! {
        /// The label swaps keep the size and never raise the label cost,
        /// and what they leave is a local optimum: no swap of two gold
        /// nodes' partners within a class and no move to a free run node of
        /// the class keeps the size and costs less (by more than the
        /// tolerance), checked by trying every one on the result; from
        /// every mapping of two random graphs, under random label costs.
        #[test]
        fn label_swaps_keep_the_size_and_end_at_a_local_optimum(
            t in graph_strategy(), s in graph_strategy(), typed in any::<bool>(),
            costs in prop::collection::vec(0.0f64..1.0, 64),
        ) {
            let level = if typed { Level::Intermediate } else { Level::Basic };
            let settings = Settings::default();
            let g1 = Graph::new(&flowchart(&t.0, &t.1), &settings, level);
            let g2 = Graph::new(&flowchart(&s.0, &s.1), &settings, level);
            let ned: Vec<f64> = (0..g1.n * g2.n).map(|i| costs[i % costs.len()]).collect();
            let eps = 1e-9;
            for map in mappings(&g1, &g2) {
                let out = cheaper_labels(&g1, &g2, &map, &ned, eps);
                let before = label_cost(&ned, g2.n, &map);
                let after = label_cost(&ned, g2.n, &out);
                prop_assert_eq!(size(&g1, &g2, &out), size(&g1, &g2, &map));
                prop_assert_eq!(out.len(), map.len());
                prop_assert!(after <= before + 1e-12, "{} above {}", after, before);
                let mut m = vec![NONE; g1.n];
                for &(a, x) in &out {
                    m[a as usize] = x;
                }
                let cost_of = |m: &[u32]| {
                    let pairs: Vec<(u32, u32)> = mapped_pairs(m).collect();
                    (size(&g1, &g2, &pairs), label_cost(&ned, g2.n, &pairs))
                };
                let (k, c) = cost_of(&m);
                for a in 0..g1.n {
                    for b in 0..g1.n {
                        if a == b || m[a] == NONE || m[b] == NONE || g1.class[a] != g1.class[b] {
                            continue;
                        }
                        let mut other = m.clone();
                        other.swap(a, b);
                        let (k2, c2) = cost_of(&other);
                        prop_assert!(k2 != k || c2 >= c - eps - 1e-12, "swap {} {}: {} < {}", a, b, c2, c);
                    }
                    for z in 0..g2.n as u32 {
                        if m[a] == NONE || m.contains(&z) || g2.class[z as usize] != g1.class[a] {
                            continue;
                        }
                        let mut other = m.clone();
                        other[a] = z;
                        let (k2, c2) = cost_of(&other);
                        prop_assert!(k2 != k || c2 >= c - eps - 1e-12, "move {} to {}: {} < {}", a, z, c2, c);
                    }
                }
            }
        }
    }
}
