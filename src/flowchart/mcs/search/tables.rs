//! Tables of one pair of graphs, made once before the search: node degrees
//! (the variables' static order), twin groups (interchangeable nodes,
//! tried once) and each node's cheapest partner by label distance.

// Indexing: node indices < n of their graph, by construction of the
// search's arrays (sized from the two graphs in `Search::new`); checked
// access at every search node costs measurable time.
#![allow(clippy::indexing_slicing)]

use super::completions::Groups;
use crate::flowchart::mcs::graph::Graph;

/// The tables of one pair of graphs the search reads and never changes.
#[derive(Clone)]
pub(super) struct Tables {
    /// Cheapest compatible partner's ned, per variable node (complete
    /// level; 0 elsewhere).
    pub(super) min_ned: [Vec<f64>; 2],
    /// Twin group of each node (the smallest index of its twins; with
    /// label distances, twins also have the same label).
    pub(super) twin: [Vec<u32>; 2],
    /// Enumeration (complete level): the twin groups, labels aside, on
    /// the candidate side of each class, whose orbits its leaves list
    /// (`completions.rs`); `None` when there are none.
    pub(super) orbits: Option<[Groups; 2]>,
    /// Variables as (side, node), in static order (degree descending).
    pub(super) vars: Vec<(u8, u32)>,
}

impl Tables {
    /// The twin groups of `g` (with `labels`, of equal labels only); the
    /// other tables empty, filled by the search's setup.
    pub(super) fn new(g: [&Graph; 2], labels: bool) -> Self {
        Tables {
            min_ned: [vec![0.0; g[0].n], vec![0.0; g[1].n]],
            twin: [twins(g[0], labels), twins(g[1], labels)],
            orbits: None,
            vars: Vec::new(),
        }
    }
}

pub(super) fn degrees(g: &Graph) -> Vec<u32> {
    (0..g.n)
        .map(|a| {
            let loops: u32 = g.loops(a).iter().map(|&c| c as u32).sum();
            loops
                + g.adj[a]
                    .iter()
                    .map(|&b| g.pair(a, b as usize).iter().map(|&c| c as u32).sum::<u32>())
                    .sum::<u32>()
        })
        .collect()
}

/// How many nodes of the same profile are compared with each twin group's
/// first node.
const TWIN_WINDOW: usize = 256;

/// Twin groups: nodes of one class with the same self-loops, the same edge
/// counts to every other node and a symmetric pair between them (so that
/// swapping them is an automorphism); with `labels`, also the same label.
/// Each node gets the smallest index of its group.
pub(super) fn twins(g: &Graph, labels: bool) -> Vec<u32> {
    let mut group: Vec<u32> = (0..g.n as u32).collect();
    let deg = degrees(g);
    let mut order: Vec<usize> = (0..g.n).collect();
    order.sort_by_key(|&a| (g.class[a], deg[a], g.adj[a].len(), a));
    for i in 0..order.len() {
        let a = order[i];
        if group[a] != a as u32 {
            continue;
        }
        // Being twins is an equivalence (same self-loops, label, symmetric
        // counts between them and equal counts to every other node carry
        // over), so comparing with the group's first node is enough. Only
        // the next TWIN_WINDOW nodes of the same profile are compared, so a
        // graph of many alike nodes costs O(n · TWIN_WINDOW), not O(n²):
        // twins missed only cost search time.
        for &b in order.iter().skip(i + 1).take(TWIN_WINDOW) {
            if g.class[b] != g.class[a] || deg[b] != deg[a] || g.adj[b].len() != g.adj[a].len() {
                break;
            }
            if group[b] == b as u32 && are_twins(g, a, b, labels) {
                group[b] = a as u32;
            }
        }
    }
    group
}

fn are_twins(g: &Graph, a: usize, b: usize, labels: bool) -> bool {
    if g.loops(a) != g.loops(b) || (labels && g.labels[a] != g.labels[b]) {
        return false;
    }
    if g.pair(a, b) != g.pair(b, a) {
        return false;
    }
    let others = |v: usize| {
        g.adj[v]
            .iter()
            .filter(move |&&w| w as usize != a && w as usize != b)
    };
    others(a).eq(others(b)) && others(a).all(|&w| g.pair(a, w as usize) == g.pair(b, w as usize))
}

/// For each node of each side, the least ned to a node of its class on the
/// other side (0 when there is none).
pub(super) fn min_partner_ned(g1: &Graph, g2: &Graph, ned: &[f64]) -> [Vec<f64>; 2] {
    let mut m1 = vec![f64::INFINITY; g1.n];
    let mut m2 = vec![f64::INFINITY; g2.n];
    for a in 0..g1.n {
        for x in 0..g2.n {
            if g1.class[a] == g2.class[x] {
                let v = ned[a * g2.n + x];
                m1[a] = m1[a].min(v);
                m2[x] = m2[x].min(v);
            }
        }
    }
    for v in m1.iter_mut().chain(m2.iter_mut()) {
        if v.is_infinite() {
            *v = 0.0;
        }
    }
    [m1, m2]
}
