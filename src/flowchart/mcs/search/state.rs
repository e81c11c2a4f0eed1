//! The state of the current search node: which nodes are free, the
//! partners of the mapped ones, the edge counters the size bound is read
//! from, and the bound itself, all updated incrementally as a pair is
//! mapped or a node set aside and undone on the way back (the bound is
//! restored from a saved copy, the counters by the inverse update).

// Indexing: node indices < n and slot offsets < classes × slots by
// construction of the arrays (sized from the two graphs in `State::new`);
// checked access here, at every search node, costs measurable time.
#![allow(clippy::indexing_slicing)]

use crate::flowchart::mcs::graph::{EndCounts, Graph, Kinds, preserved};
use crate::flowchart::mcs::mapping::NONE;

/// The bound components, saved and restored around each branch.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Bound {
    pub(super) mapped: u32,
    /// Σ_classes min(free1_c, free2_c).
    pub(super) node_term: u32,
    pub(super) preserved: u32,
    /// Free-to-mapped term.
    pub(super) free_mapped: u32,
    /// Free-to-free term.
    pub(super) free_free: u32,
    pub(super) cost: f64,
    /// Σ over open variables of their cheapest compatible partner's ned.
    pub(super) cost_rest: f64,
    /// Sum of the assignment bound's potentials over free nodes (half edges).
    pub(super) dual_sum: i64,
    /// Sum of the relaxation's reduced costs over the mapped pairs.
    pub(super) reduced: i64,
    /// Sum of the label relaxation's reduced costs over the mapped pairs.
    pub(super) label_used: i64,
}

/// The free sets, partners and edge counters of the current search node,
/// and the bound's terms kept from them.
#[derive(Clone)]
pub(super) struct State {
    /// Compatibility classes (of both graphs) and edge slots per node pair:
    /// the layout of `to_free`.
    pub(super) classes: usize,
    pub(super) slots: usize,
    kinds: Kinds,
    pub(super) free: [Vec<bool>; 2],
    /// Partner of each node on the other side, or `NONE`.
    pub(super) partner: [Vec<u32>; 2],
    /// Edges from each node to free nodes, per neighbour class and slot
    /// (at `(node × classes + class) × slots + slot`).
    pub(super) to_free: [Vec<u32>; 2],
    /// Edges among free nodes (and self-loops of free nodes), per key of
    /// edge kind and end classes ([`Self::free_edge_key`],
    /// [`Self::loop_key`]), and their total.
    pub(super) free_edges: [Vec<u32>; 2],
    pub(super) free_edges_total: [u32; 2],
    /// Edges with at least one free end.
    pub(super) open_edges: [u32; 2],
    /// Free nodes of each class.
    pub(super) free_class: [Vec<u32>; 2],
    /// Edges from each node to mapped nodes.
    pub(super) mapped_edges: [Vec<u32>; 2],
    /// Nodes of each class, per side.
    pub(super) by_class: [Vec<Vec<u32>>; 2],
    /// Per side and (neighbour class, slot), the free nodes' counts of
    /// edges to free nodes (scratch of the degree-pairing bound).
    buckets: [Vec<Vec<u32>>; 2],
    pub(super) bound: Bound,
}

impl State {
    /// Every node free: the counters of the whole graphs, and the node and
    /// free-to-free terms of the bound.
    pub(super) fn new(g: [&Graph; 2]) -> Self {
        let [g1, g2] = g;
        let classes = g1.class_count().max(g2.class_count()).max(1);
        let slots = g1.kinds.slots();
        let keys = (g1.kinds.directed + g1.kinds.undirected) * classes * classes
            + g1.kinds.loop_kinds() * classes;
        let mut s = State {
            classes,
            slots,
            kinds: g1.kinds,
            free: [vec![true; g1.n], vec![true; g2.n]],
            partner: [vec![NONE; g1.n], vec![NONE; g2.n]],
            to_free: [
                vec![0; g1.n * classes * slots],
                vec![0; g2.n * classes * slots],
            ],
            free_edges: [vec![0; keys], vec![0; keys]],
            free_edges_total: [0; 2],
            open_edges: [g1.edges as u32, g2.edges as u32],
            free_class: [vec![0; classes], vec![0; classes]],
            mapped_edges: [vec![0; g1.n], vec![0; g2.n]],
            by_class: [by_class(g1, classes), by_class(g2, classes)],
            buckets: [Vec::new(), Vec::new()],
            bound: Bound::default(),
        };
        for (side, gr) in g.into_iter().enumerate() {
            s.count_graph(side, gr);
        }
        s.bound.node_term = (0..classes)
            .map(|c| s.free_class[0][c].min(s.free_class[1][c]))
            .sum();
        s.bound.free_free = s.free_edges[0]
            .iter()
            .zip(&s.free_edges[1])
            .map(|(&a, &b)| a.min(b))
            .sum();
        s
    }

    /// Counts the nodes, edges and self-loops of graph `gr` (side `side`),
    /// every node free.
    fn count_graph(&mut self, side: usize, gr: &Graph) {
        let (classes, slots) = (self.classes, self.slots);
        for a in 0..gr.n {
            let ca = gr.class[a] as usize;
            self.free_class[side][ca] += 1;
            for &b in &gr.adj[a] {
                let b = b as usize;
                let cb = gr.class[b] as usize;
                let p = gr.pair(a, b);
                let base = (a * classes + cb) * slots;
                for (sl, &c) in p.iter().enumerate() {
                    self.to_free[side][base + sl] += c as u32;
                    if b > a && c > 0 {
                        let key = self.free_edge_key(sl, ca, cb);
                        self.free_edges[side][key] += c as u32;
                        self.free_edges_total[side] += c as u32;
                    }
                }
            }
            for (k, &c) in gr.loops(a).iter().enumerate() {
                let key = self.loop_key(k, ca);
                self.free_edges[side][key] += c as u32;
                self.free_edges_total[side] += c as u32;
            }
        }
    }

    /// Maps the free pair (gold `a`, run `x`): both leave the free sets,
    /// the bound gains the pair, its preserved edges and its free-to-mapped
    /// term.
    #[inline]
    pub(super) fn add_pair(&mut self, g: [&Graph; 2], a: usize, x: usize) {
        let gain = self.gain(g, a, x);
        self.remove_free(g[0], 0, a);
        self.remove_free(g[1], 1, x);
        self.partner[0][a] = x as u32;
        self.partner[1][x] = a as u32;
        let width = self.classes * self.slots;
        let (fa, fx) = (
            &self.to_free[0][a * width..(a + 1) * width],
            &self.to_free[1][x * width..(x + 1) * width],
        );
        self.bound.free_mapped += fa.iter().zip(fx).map(|(&p, &q)| p.min(q)).sum::<u32>();
        self.bound.preserved += gain;
        self.bound.mapped += 1;
    }

    /// Undoes [`Self::add_pair`] and the mapped-edge counts of the pair on
    /// the counters (the bound is restored by the caller).
    #[inline]
    pub(super) fn remove_pair(&mut self, g: [&Graph; 2], a: usize, x: usize) {
        self.add_mapped_edges(g, a, x, false);
        self.partner[0][a] = NONE;
        self.partner[1][x] = NONE;
        self.restore_free(g[1], 1, x);
        self.restore_free(g[0], 0, a);
    }

    /// True when `side` is the short side of class `c` among the free
    /// nodes (its nodes are the variables); gold on ties.
    pub(super) fn short_side(&self, side: usize, c: usize) -> bool {
        let (mine, theirs) = (self.free_class[side][c], self.free_class[1 - side][c]);
        if side == 0 {
            mine <= theirs
        } else {
            mine < theirs
        }
    }

    #[inline]
    fn free_edge_key(&self, s: usize, ca: usize, cb: usize) -> usize {
        let d = self.kinds.directed;
        let c = self.classes;
        if s < d {
            (s * c + ca) * c + cb
        } else if s < 2 * d {
            ((s - d) * c + cb) * c + ca
        } else {
            let (lo, hi) = if ca <= cb { (ca, cb) } else { (cb, ca) };
            (d * c + (s - 2 * d) * c + lo) * c + hi
        }
    }

    #[inline]
    fn loop_key(&self, k: usize, ca: usize) -> usize {
        let kinds = self.kinds;
        (kinds.directed + kinds.undirected) * self.classes * self.classes + k * self.classes + ca
    }

    /// The free-to-free term by degrees, a second bound on the edges among
    /// free nodes: a free node mapped to a free partner keeps, per neighbour
    /// class and slot, at most the smaller of their counts of edges to free
    /// nodes; pairing the free nodes of a class by sorted counts maximizes
    /// the sum of those minima. Undirected edges are counted at both ends;
    /// directed ones at their tails alone or at their heads alone, the
    /// smaller of the two. Self-loops of free nodes come from `free_edges`.
    pub(super) fn degree_free_free(&mut self) -> u32 {
        let (classes, slots) = (self.classes, self.slots);
        // Directed edges counted at their tails (out slots) or at their
        // heads (in slots): each count alone bounds them; undirected edges
        // are counted at both ends.
        let mut ends = EndCounts::default();
        let width = classes * slots;
        let mut buckets = std::mem::take(&mut self.buckets);
        buckets
            .iter_mut()
            .for_each(|b| b.resize_with(width, Vec::new));
        for c in 0..classes {
            let k = self.free_class[0][c].min(self.free_class[1][c]) as usize;
            if k == 0 {
                continue;
            }
            for (side, sides) in buckets.iter_mut().enumerate() {
                for &v in &self.by_class[side][c] {
                    let v = v as usize;
                    if !self.free[side][v] {
                        continue;
                    }
                    let row = &self.to_free[side][v * width..(v + 1) * width];
                    for (bucket, &count) in sides.iter_mut().zip(row) {
                        if count > 0 {
                            bucket.push(count);
                        }
                    }
                }
            }
            let [b0, b1] = &mut buckets;
            for (cs, (p, q)) in b0.iter_mut().zip(b1.iter_mut()).enumerate() {
                if !p.is_empty() && !q.is_empty() {
                    p.sort_unstable_by(|a, b| b.cmp(a));
                    q.sort_unstable_by(|a, b| b.cmp(a));
                    let kept = p
                        .iter()
                        .zip(q.iter())
                        .take(k)
                        .map(|(&a, &b)| a.min(b))
                        .sum::<u32>();
                    ends.add(self.kinds, cs, kept);
                }
                p.clear();
                q.clear();
            }
        }
        self.buckets = buckets;
        let first_loop = self.loop_key(0, 0);
        let loops: u32 = self.free_edges[0][first_loop..]
            .iter()
            .zip(&self.free_edges[1][first_loop..])
            .map(|(&a, &b)| a.min(b))
            .sum();
        ends.tails.min(ends.heads) + ends.both / 2 + loops
    }

    #[inline]
    fn free_edges_dec(&mut self, side: usize, key: usize, d: u32) {
        let old = self.free_edges[side][key];
        let other = self.free_edges[1 - side][key];
        let new = old - d;
        self.free_edges[side][key] = new;
        self.free_edges_total[side] -= d;
        self.bound.free_free -= old.min(other) - new.min(other);
    }

    /// Takes node `a` of `side` out of the free set, updating every counter
    /// and the bound.
    pub(super) fn remove_free(&mut self, gr: &Graph, side: usize, a: usize) {
        let ca = gr.class[a] as usize;
        let (classes, slots) = (self.classes, self.slots);
        for (b, pab) in gr.neighbours(a) {
            let pba = gr.pair(b, a);
            let cb = gr.class[b] as usize;
            if self.free[side][b] {
                for (s, &c) in pab.iter().enumerate() {
                    if c > 0 {
                        let key = self.free_edge_key(s, ca, cb);
                        self.free_edges_dec(side, key, c as u32);
                    }
                }
            } else {
                self.open_edges[side] -= pab.iter().map(|&c| c as u32).sum::<u32>();
            }
            let base = (b * classes + ca) * slots;
            let y = self.partner[side][b];
            if y != NONE {
                let obase = (y as usize * classes + ca) * slots;
                for (s, &c) in pba.iter().enumerate() {
                    let old = self.to_free[side][base + s];
                    let new = old - c as u32;
                    let o = self.to_free[1 - side][obase + s];
                    self.bound.free_mapped -= old.min(o) - new.min(o);
                    self.to_free[side][base + s] = new;
                }
            } else {
                for (s, &c) in pba.iter().enumerate() {
                    self.to_free[side][base + s] -= c as u32;
                }
            }
        }
        for (k, &c) in gr.loops(a).iter().enumerate() {
            if c > 0 {
                let key = self.loop_key(k, ca);
                self.free_edges_dec(side, key, c as u32);
                self.open_edges[side] -= c as u32;
            }
        }
        self.free[side][a] = false;
        let old = self.free_class[side][ca];
        let other = self.free_class[1 - side][ca];
        self.free_class[side][ca] = old - 1;
        self.bound.node_term -= old.min(other) - (old - 1).min(other);
    }

    /// Undoes [`Self::remove_free`] on the counters (the bound is restored
    /// by the caller from its saved copy).
    pub(super) fn restore_free(&mut self, gr: &Graph, side: usize, a: usize) {
        let ca = gr.class[a] as usize;
        let (classes, slots) = (self.classes, self.slots);
        self.free[side][a] = true;
        self.free_class[side][ca] += 1;
        for (k, &c) in gr.loops(a).iter().enumerate() {
            if c > 0 {
                let key = self.loop_key(k, ca);
                self.free_edges[side][key] += c as u32;
                self.free_edges_total[side] += c as u32;
                self.open_edges[side] += c as u32;
            }
        }
        for (b, pab) in gr.neighbours(a) {
            let pba = gr.pair(b, a);
            let cb = gr.class[b] as usize;
            if self.free[side][b] {
                for (s, &c) in pab.iter().enumerate() {
                    if c > 0 {
                        let key = self.free_edge_key(s, ca, cb);
                        self.free_edges[side][key] += c as u32;
                        self.free_edges_total[side] += c as u32;
                    }
                }
            } else {
                self.open_edges[side] += pab.iter().map(|&c| c as u32).sum::<u32>();
            }
            let base = (b * classes + ca) * slots;
            for (s, &c) in pba.iter().enumerate() {
                self.to_free[side][base + s] += c as u32;
            }
        }
    }

    /// Edges preserved by adding the pair (gold `a`, run `x`) to the mapping.
    #[inline]
    pub(super) fn gain(&self, g: [&Graph; 2], a: usize, x: usize) -> u32 {
        preserved(g[0].loops(a), g[1].loops(x)) + self.gain_mapped(g, a, x)
    }

    /// Edges between the pair (gold `a`, run `x`) and the mapped pairs that
    /// adding it would preserve (self-loops apart).
    #[inline]
    pub(super) fn gain_mapped(&self, g: [&Graph; 2], a: usize, x: usize) -> u32 {
        let [g1, g2] = g;
        let mut gain = 0;
        for (b, p) in g1.neighbours(a) {
            let y = self.partner[0][b];
            if y != NONE {
                gain += preserved(p, g2.pair(x, y as usize));
            }
        }
        gain
    }

    /// Induced mode: the pair (a, x) keeps edge counts equal to every mapped
    /// pair and on the self-loops.
    pub(super) fn consistent(&self, g: [&Graph; 2], a: usize, x: usize) -> bool {
        let [g1, g2] = g;
        if g1.loops(a) != g2.loops(x) || self.mapped_edges[0][a] != self.mapped_edges[1][x] {
            return false;
        }
        g1.adj[a].iter().all(|&b| {
            let y = self.partner[0][b as usize];
            y == NONE || g1.pair(a, b as usize) == g2.pair(x, y as usize)
        })
    }

    pub(super) fn add_mapped_edges(&mut self, g: [&Graph; 2], a: usize, x: usize, add: bool) {
        for (side, v) in [(0, a), (1, x)] {
            let gr = g[side];
            for &b in &gr.adj[v] {
                let w: u32 = gr.pair(b as usize, v).iter().map(|&c| c as u32).sum();
                let me = &mut self.mapped_edges[side][b as usize];
                *me = if add { *me + w } else { *me - w };
            }
        }
    }
}

fn by_class(g: &Graph, classes: usize) -> Vec<Vec<u32>> {
    let mut lists = vec![Vec::new(); classes];
    for a in 0..g.n {
        lists[g.class[a] as usize].push(a as u32);
    }
    lists
}
