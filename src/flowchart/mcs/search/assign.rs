//! The assignment bound on the edges still to gain, kept up to date by dual
//! potentials.
//!
//! Every free node on the short side of its class (a row) gets a free
//! partner of its class (a column). A pair (a, x) keeps at most: its edges
//! to mapped nodes that line up and its self-loops (whole edges), and per
//! neighbour class and slot the smaller of the two counts of edges to free
//! nodes. An edge between two free nodes is seen from both ends, so it is
//! counted as two halves, or — for directed edges — whole at its head only
//! or whole at its tail only (three variants; the root keeps the one giving
//! the least bound). Weights are in half edges. The maximum-weight
//! assignment bounds the gain of any completion.
//!
//! Dual potentials `dual[side][node]` with `row + col ≥ weight` over free
//! pairs of a class and `col ≥ 0` bound every assignment by their sum.
//! Mapping a pair (a, x) lowers every weight except those between a free
//! neighbour of `a` and a free neighbour of `x`, which can rise (an edge to
//! the new pair lines up): only those are repaired, in O(deg²), so the
//! bound costs almost nothing per search node. (Solving the assignment
//! again at the search nodes where the repaired potentials do not prune
//! would prune many more of them, but costs more time than it saves.)
//! Every change is logged and undone when the pair is unmapped.

// Indexing: node indices of the two graphs and row/column positions of matrices
// built just above; the bound runs at every search node.
#![allow(clippy::indexing_slicing)]

use super::state::State;
use crate::flowchart::mcs::graph::{EndCounts, Graph};
use crate::flowchart::mcs::lap::Lap;

/// Weight variants: halves at both ends, whole at heads, whole at tails.
const VARIANTS: usize = 3;

/// Largest assignment matrix solved (cells of one class): it bounds the
/// time (O(rows² · cols)) and memory of the root solves; 40 000 cells is a
/// class of 200 nodes on each side, 160 KB.
const MAX_CELLS: usize = 40_000;

/// The potentials and their undo log.
#[derive(Clone, Debug, Default)]
pub(super) struct Duals {
    /// Off in induced mode and when the tuning switches it off.
    pub on: bool,
    /// Solved at the root (only once the incumbent is known to fall short
    /// of the cheaper bounds: easy pairs never pay for it).
    ready: bool,
    variant: usize,
    /// Potential of each node, per side (meaningful for free nodes).
    dual: [Vec<i32>; 2],
    /// Side of the rows (the short side) of each class.
    row_side: Vec<u8>,
    /// (side, node, old potential), undone back to the mark of each mapped pair.
    log: Vec<(u8, u32, i32)>,
    marks: Vec<usize>,
    lap: Lap,
    weights: Vec<i32>,
    rows: Vec<u32>,
    cols: Vec<u32>,
    row_dual: Vec<i32>,
    col_dual: Vec<i32>,
}

impl Duals {
    pub fn new(on: bool, n: [usize; 2], row_side: Vec<u8>) -> Self {
        Duals {
            on,
            dual: [vec![0; n[0]], vec![0; n[1]]],
            row_side,
            ..Duals::default()
        }
    }

    fn set(&mut self, side: usize, node: usize, value: i32) {
        if let Some(d) = self.dual[side].get_mut(node) {
            if !self.marks.is_empty() {
                self.log.push((side as u8, node as u32, *d));
            }
            *d = value;
        }
    }
}

/// Weight of the free pair (gold `a`, run `x`) in half edges, in the
/// state `state` of the search node.
fn pair_weight(g: [&Graph; 2], state: &State, variant: usize, a: usize, x: usize) -> i32 {
    let fixed = 2 * state.gain(g, a, x) as i32;
    let width = state.classes * state.slots;
    let (fa, fx) = (
        &state.to_free[0][a * width..(a + 1) * width],
        &state.to_free[1][x * width..(x + 1) * width],
    );
    let mut ends = EndCounts::default();
    for (k, (&p, &q)) in fa.iter().zip(fx).enumerate() {
        ends.add(g[0].kinds, k, p.min(q) as i32);
    }
    let EndCounts { tails, heads, both } = ends;
    fixed
        + both
        + match variant {
            0 => tails + heads,
            1 => 2 * heads,
            _ => 2 * tails,
        }
}

impl Duals {
    /// Solves the assignment of every class from scratch for `variant`,
    /// stores the potentials of the free nodes and returns their sum.
    fn solve_variant(&mut self, g: [&Graph; 2], state: &State, variant: usize) -> i64 {
        let mut total = 0;
        for c in 0..state.classes {
            let rs = self.row_side.get(c).copied().unwrap_or(0) as usize;
            let cs = 1 - rs;
            self.rows.clear();
            self.rows.extend(
                state.by_class[rs][c]
                    .iter()
                    .filter(|&&v| state.free[rs][v as usize]),
            );
            self.cols.clear();
            self.cols.extend(
                state.by_class[cs][c]
                    .iter()
                    .filter(|&&v| state.free[cs][v as usize]),
            );
            if self.rows.is_empty() {
                continue;
            }
            let (nr, nc) = (self.rows.len(), self.cols.len());
            self.weights.clear();
            for &r in &self.rows {
                for &q in &self.cols {
                    let (a, x) = if rs == 0 { (r, q) } else { (q, r) };
                    self.weights
                        .push(pair_weight(g, state, variant, a as usize, x as usize));
                }
            }
            self.row_dual.resize(nr, 0);
            self.col_dual.resize(nc, 0);
            total += self.lap.solve(
                nr,
                nc,
                &self.weights,
                &mut self.row_dual,
                &mut self.col_dual,
            );
            for i in 0..nr {
                let (node, value) = (self.rows[i] as usize, self.row_dual[i]);
                self.set(rs, node, value);
            }
            for j in 0..nc {
                let (node, value) = (self.cols[j] as usize, self.col_dual[j]);
                self.set(cs, node, value);
            }
        }
        self.variant = variant;
        total
    }

    /// At the root: solves the three variants and keeps the least (once);
    /// returns the sum of its potentials when it solved them.
    pub fn init(&mut self, g: [&Graph; 2], state: &State) -> Option<i64> {
        if !self.on || self.ready || !affordable(state) {
            return None;
        }
        let (mut sum, mut best) = (i64::MAX, 0);
        for v in 0..VARIANTS {
            let s = self.solve_variant(g, state, v);
            if s < sum {
                (sum, best) = (s, v);
            }
        }
        if best != VARIANTS - 1 {
            // The potentials of the last variant solved are in place.
            sum = self.solve_variant(g, state, best);
        }
        self.ready = true;
        Some(sum)
    }

    /// After mapping (a, x) in `state`: the two leave the sums, and the
    /// weights that rose get their row potential raised. Returns the
    /// change of the potentials' sum.
    pub fn repair(&mut self, g: [&Graph; 2], state: &State, a: usize, x: usize) -> i64 {
        if !self.ready {
            return 0;
        }
        self.marks.push(self.log.len());
        let mut change = -(self.dual[0][a] as i64 + self.dual[1][x] as i64);
        let variant = self.variant;
        let [g1, g2] = g;
        for &b in &g1.adj[a] {
            let b = b as usize;
            if !state.free[0][b] {
                continue;
            }
            let class = g1.class[b];
            for &y in &g2.adj[x] {
                let y = y as usize;
                if !state.free[1][y] || g2.class[y] != class {
                    continue;
                }
                let w = pair_weight(g, state, variant, b, y);
                let have = self.dual[0][b] + self.dual[1][y];
                if w > have {
                    let (side, node) = if self.row_side[class as usize] == 0 {
                        (0, b)
                    } else {
                        (1, y)
                    };
                    let old = self.dual[side][node];
                    self.set(side, node, old + (w - have));
                    change += (w - have) as i64;
                }
            }
        }
        change
    }

    /// Undoes the potentials' changes since the matching [`Self::repair`].
    pub fn undo(&mut self) {
        let Some(mark) = self.marks.pop() else {
            return;
        };
        while self.log.len() > mark {
            if let Some((side, node, old)) = self.log.pop() {
                self.dual[side as usize][node as usize] = old;
            }
        }
    }

    /// The bound on the edges still to gain from the potentials, of sum
    /// `sum`.
    pub fn edges(&self, sum: i64) -> Option<u32> {
        self.ready.then(|| (sum.max(0) / 2) as u32)
    }
}

/// The assignment costs O(rows² · cols) time and rows · cols memory per
/// class: beyond [`MAX_CELLS`] cells in a class (flowcharts of thousands
/// of nodes) it is not used and the cheaper bounds alone apply.
fn affordable(state: &State) -> bool {
    (0..state.classes).all(|c| {
        let count = |side: usize| state.by_class[side].get(c).map_or(0, Vec::len);
        count(0).saturating_mul(count(1)) <= MAX_CELLS
    })
}
