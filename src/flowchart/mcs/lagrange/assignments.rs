//! The two assignments of one step at the current split: each node pair's
//! inner assignment (its gold neighbours to its run neighbours, over its
//! shares of the edge pairs at it) and each class's outer assignment (its
//! node pairs over loops + inner optimum), solved warm by the ε-auction.

use super::auction::NONE;
use super::relaxation::{Cell, FORBIDDEN, Relaxation};
use crate::flowchart::mcs::lap::Lap;
use std::ops::Range;

/// Bids per row and column an auction may take before the step is solved
/// exactly instead.
const AUCTION_BIDS: usize = 32;

/// An exact solve of an `n × n` outer assignment counts ⌈n³ / this⌉ units
/// of work besides its step's (see `clock.rs`): in the relaxations
/// restricted to a complete level's search nodes, whose forbidden pairs
/// send most repairs to the exact solve, these solves are most of the
/// time, and counted by its cells alone such a step would run several
/// times longer per unit than the rest of the search.
const EXACT_CUBE_PER_UNIT: u64 = 4096;

impl Relaxation<'_> {
    /// The share of edge pair `z` at `end`.
    #[inline]
    fn share(&self, z: u32, end: u8) -> i64 {
        let z = &self.edge_pairs[z as usize];
        z.share_at(z.shift, end)
    }

    /// Solves every node pair's inner assignment and sets its weight (the
    /// first step).
    pub(super) fn solve_every_inner(&mut self) {
        for p in 0..self.inner.len() {
            self.solve_inner(p);
            self.set_weight(p);
        }
    }

    /// Solves node pair `p`'s inner assignment (positive shares only).
    pub(super) fn solve_inner(&mut self, p: usize) {
        let range = self.cell_start[p]..self.cell_start[p + 1];
        let (nr, nc) = (self.shape[p].0 as usize, self.shape[p].1 as usize);
        for i in range.clone() {
            self.chosen[i] = false;
        }
        self.inner[p] = if range.is_empty() {
            0
        } else if nr == 1 || nc == 1 {
            self.best_cell(range)
        } else {
            self.assign_cells(range, (nr, nc))
        };
    }

    /// An inner assignment of one row or one column: its best positive
    /// cell, chosen.
    #[inline]
    fn best_cell(&mut self, range: Range<usize>) -> i64 {
        let mut best: Option<(usize, i64)> = None;
        for i in range {
            let c = self.cells[i];
            let s = self.share(c.z, c.end);
            if s > 0 && best.is_none_or(|(_, b)| s > b) {
                best = Some((i, s));
            }
        }
        best.map_or(0, |(i, s)| {
            self.chosen[i] = true;
            s
        })
    }

    /// An inner assignment of `nr × nc` cells (both at least 2) solved on
    /// its matrix; its positive assigned cells chosen.
    #[inline]
    fn assign_cells(&mut self, range: Range<usize>, (nr, nc): (usize, usize)) -> i64 {
        // Rows the smaller dimension (the solver assigns every row).
        let transpose = nr > nc;
        let (rows, cols) = if transpose { (nc, nr) } else { (nr, nc) };
        let at = |c: &Cell| {
            if transpose {
                (c.col as usize, c.row as usize)
            } else {
                (c.row as usize, c.col as usize)
            }
        };
        self.matrix.clear();
        self.matrix.resize(rows * cols, 0);
        for i in range.clone() {
            let c = self.cells[i];
            let (r, q) = at(&c);
            self.matrix[r * cols + q] = self.share(c.z, c.end).max(0) as i32;
        }
        let two = (rows == 2).then(|| Lap::two_rows(cols, &self.matrix));
        let value = match two {
            Some((value, _)) => value,
            None => {
                self.row_dual.resize(rows, 0);
                self.col_dual.resize(cols, 0);
                self.small.solve(
                    rows,
                    cols,
                    &self.matrix,
                    &mut self.row_dual,
                    &mut self.col_dual,
                )
            }
        };
        for i in range {
            let (r, q) = at(&self.cells[i]);
            let assigned = match two {
                Some((_, columns)) => columns[r] == q,
                None => self.small.row_of_column(q) == Some(r),
            };
            self.chosen[i] = assigned && self.matrix[r * cols + q] > 0;
        }
        value
    }

    /// Sets node pair `p`'s weight in its class's matrix from its loops
    /// and inner optimum, and marks its row changed.
    #[inline]
    pub(super) fn set_weight(&mut self, p: usize) {
        let (k, at) = self.slot[p];
        let class = &mut self.classes[k as usize];
        class.matrix[at as usize] = if self.forbidden.get(p) == Some(&true) {
            if self.label_target.is_some() {
                FORBIDDEN
            } else {
                0
            }
        } else {
            (self.base[p] + self.inner[p]) as i32
        };
        let row = at as usize / class.cols;
        if !class.is_dirty[row] {
            class.is_dirty[row] = true;
            class.dirty.push(row as u32);
        }
    }

    /// Solves every class's outer assignment, lists the chosen node pairs
    /// and returns the bound on the edges in UNITs and the work units of
    /// its exact solves. The first step solves
    /// exactly (Hungarian method); later steps repair the last one by an
    /// ε-auction from its prices over the changed rows, whose prices and
    /// row potentials stay feasible: the bound stays valid, and a step
    /// costs O(changed rows · cols) and a few bids instead of
    /// O(rows² · cols).
    pub(super) fn solve_outer(&mut self, epsilon: i64) -> (i64, u64) {
        let mut total = 0;
        let mut exact_work = 0;
        self.chosen_pairs.clear();
        for class in &mut self.classes {
            let n = class.cols;
            let auction = &mut class.auction;
            let warm = !auction.price.is_empty()
                && auction.repair(n, &class.matrix, &class.dirty, AUCTION_BIDS * n, epsilon);
            if !warm {
                auction.solve_exactly(&mut self.lap, n, &class.matrix, epsilon);
                exact_work += (n as u64).pow(3).div_ceil(EXACT_CUBE_PER_UNIT);
            }
            for &i in &class.dirty {
                class.is_dirty[i as usize] = false;
            }
            class.dirty.clear();
            total += class.auction.settle(n, &class.matrix);
            for i in 0..class.rows {
                let j = class.auction.column[i];
                if j != NONE {
                    self.chosen_pairs.push(class.pair(i, j as usize) as u32);
                }
            }
        }
        (total, exact_work)
    }

    /// Drops the best step's potentials (kept for the reduced costs).
    pub(super) fn forget_best(&mut self) {
        self.best_inner = Vec::new();
        self.best_shift = Vec::new();
        for class in &mut self.classes {
            class.best_value = Vec::new();
            class.best_price = Vec::new();
        }
    }

    /// Keeps the current step's potentials as the best.
    pub(super) fn keep_best(&mut self) {
        self.best_inner.clone_from(&self.inner);
        if self.label_target.is_none() {
            self.best_shift.clear();
            self.best_shift
                .extend(self.edge_pairs.iter().map(|z| z.shift));
        }
        for class in &mut self.classes {
            class.best_value.clone_from(&class.auction.value);
            class.best_price.clone_from(&class.auction.price);
        }
    }
}
