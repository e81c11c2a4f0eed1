//! The reduced costs of the relaxation's best step: a bound at every search
//! node from the sum over its mapped pairs, in size mode and in label mode.

use super::relaxation::{LABEL_SCALE, Relaxation, UNIT};
use crate::flowchart::mcs::local::{Local, LocalCell};

/// Largest table of reduced costs (4 bytes a pair).
const MAX_PAIR_TABLE: usize = 1 << 22;

/// The outer assignment's optimum and reduced costs at one split: for any
/// mapping M (of every short-side node per class, as the search builds)
/// containing the pairs mapped so far, the edges are at most
/// `total − Σ_{(a,x) mapped} cost[a·n2 + x]` (in UNITs): every other
/// pair's weight is at most its row and column potentials.
#[derive(Clone, Debug)]
pub(crate) struct Reduced {
    /// Σ potentials = the outer optimum, in UNITs.
    pub total: i64,
    /// Reduced cost of each pair (gold a, run x) at `a * n2 + x`
    /// (incompatible pairs, and in label mode the pairs ruled out:
    /// `i32::MAX`).
    pub(super) cost: Vec<i32>,
    /// Run nodes (the row length of `cost`).
    n2: usize,
    /// Nodes every such mapping maps (Σ_classes min(n1, n2)).
    pub nodes: u32,
    /// The inner assignments at the same split (size mode only): the
    /// search adds each mapped pair's loss to its reduced cost.
    pub local: Option<Local>,
}

impl Reduced {
    /// The reduced cost of the pair (gold `a`, run `x`) (`i32::MAX` when
    /// incompatible).
    pub fn cost(&self, a: usize, x: usize) -> i32 {
        self.cost.get(a * self.n2 + x).copied().unwrap_or(i32::MAX)
    }

    /// Label mode ([`super::solve_labels_keeping`]): the least label cost of a
    /// mapping of `size` whose pairs' reduced costs sum to `used`.
    pub fn label_bound(&self, size: u32, used: i64) -> f64 {
        let edges = (size as i64 - self.nodes as i64) * UNIT;
        (edges - self.total + used) as f64 / LABEL_SCALE as f64
    }

    /// Size mode: true when no mapping of `size` contains the pair (gold
    /// `a`, run `x`): its reduced cost alone leaves a smaller bound.
    pub fn rules_out(&self, a: usize, x: usize, size: u32) -> bool {
        self.size_bound(self.cost(a, x) as i64) < size as i64
    }

    /// The bound on the size of a mapping whose mapped pairs' reduced
    /// costs sum to `used`.
    pub fn size_bound(&self, used: i64) -> i64 {
        self.nodes as i64 + (self.total - used).max(-UNIT).div_euclid(UNIT)
    }
}

impl Relaxation<'_> {
    /// The reduced costs of the best step, whose edge bound is `total`
    /// (none when n1 · n2 exceeds [`MAX_PAIR_TABLE`]).
    pub(super) fn reduced(&self, total: i64) -> Option<Reduced> {
        let n2 = self.g[1].n;
        let cells = self.g[0].n.saturating_mul(n2);
        if cells > MAX_PAIR_TABLE || self.best_inner.len() != self.pair_nodes.len() {
            return None;
        }
        let mut cost = vec![i32::MAX; cells];
        for class in &self.classes {
            for (i, &value) in class.best_value.iter().take(class.rows).enumerate() {
                for (j, &price) in class.best_price.iter().enumerate() {
                    let price = price as i64;
                    let p = class.pair(i, j);
                    let weight = self.base[p] + self.best_inner[p];
                    let (a, x) = self.pair_nodes[p];
                    // A pair ruled out (label mode) is in no mapping the
                    // bound is for: as an incompatible pair.
                    if self.forbidden.get(p) == Some(&true) {
                        continue;
                    }
                    cost[a as usize * n2 + x as usize] =
                        (value + price - weight).min(i32::MAX as i64) as i32;
                }
            }
        }
        Some(Reduced {
            total,
            cost,
            n2,
            nodes: self.node_term,
            local: self.label_target.is_none().then(|| self.local()),
        })
    }

    /// The inner assignments at the best step's split.
    fn local(&self) -> Local {
        let mut local = Local::new(self.g[0].n, self.g[1].n);
        let share = |z: u32, end: u8| {
            let edge_pair = &self.edge_pairs[z as usize];
            let shift = self
                .best_shift
                .get(z as usize)
                .copied()
                .unwrap_or(edge_pair.shift);
            edge_pair.share_at(shift, end).clamp(0, i32::MAX as i64) as i32
        };
        for (p, &(a, x)) in self.pair_nodes.iter().enumerate() {
            let range = self.cell_start[p]..self.cell_start[p + 1];
            let cells = self.cells[range].iter().map(|c| {
                let other = self.edge_pairs[c.z as usize].ends[1 - c.end as usize];
                let (gold, run) = self.pair_nodes[other as usize];
                LocalCell {
                    gold,
                    run,
                    row: c.row,
                    col: c.col,
                    share: share(c.z, c.end),
                }
            });
            local.push_pair((a, x), cells, self.shape[p], self.best_inner[p]);
        }
        local
    }
}
