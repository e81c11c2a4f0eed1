//! The relaxation's inner assignments, restricted by the pairs the search
//! has mapped.
//!
//! At a split of the edge-split relaxation (`lagrange/`), a node pair
//! (a, x) weighs its loops plus its inner optimum: the best assignment of
//! a's edges to x's edges, each cell (gold neighbour b, run neighbour y)
//! worth its share of the edge pair. In a mapping, the cell (b, y) can only
//! be realised when b is mapped to y, or while both are free. Once the
//! search has mapped some pairs, the inner optimum over the cells still
//! possible is at most the unrestricted one; the difference, the pair's
//! *loss*, adds to its reduced cost: for any completion M of the mapped
//! pairs, edges(M) ≤ total − Σ_{mapped} (reduced cost + loss). The reduced
//! costs alone forget where the pairs are: mapping a chain's next node away
//! from the mapped one's neighbour costs the share of the edge lost, which
//! the loss counts at both ends.

// Indexing: cell ranges come from `start` (built with the cells), node
// indices of cells are < n1 / n2 of the graphs the partner arrays belong
// to; checked access in the search loop costs measurable time.
#![allow(clippy::indexing_slicing)]

use super::lap::Lap;

const NONE: u32 = u32::MAX;

/// One cell of a node pair's inner assignment: the gold and run neighbours
/// it pairs, their row and column in the pair's matrix, and its share (≥ 0)
/// at the split kept.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LocalCell {
    pub gold: u32,
    pub run: u32,
    pub row: u16,
    pub col: u16,
    pub share: i32,
}

/// The inner assignments of every compatible node pair at one split.
#[derive(Clone, Debug, Default)]
pub(crate) struct Local {
    /// Pair index of (gold a, run x) at `a * n2 + x` (`NONE`: incompatible).
    index: Vec<u32>,
    n2: usize,
    /// Cells of pair p: `start[p]..start[p + 1]`.
    start: Vec<u32>,
    cells: Vec<LocalCell>,
    /// Per pair: (rows, cols) of its inner matrix.
    shape: Vec<(u16, u16)>,
    /// Per pair: the unrestricted inner optimum (the one the reduced costs
    /// were computed with).
    inner: Vec<i64>,
}

/// Scratch space of [`Local::loss`] (no allocation once grown).
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    lap: Lap,
    matrix: Vec<i32>,
    row_dual: Vec<i32>,
    col_dual: Vec<i32>,
}

impl Local {
    /// An empty table for `n1 × n2` node pairs; pairs are added in index
    /// order with [`Self::push_pair`].
    pub fn new(n1: usize, n2: usize) -> Self {
        Local {
            index: vec![NONE; n1 * n2],
            n2,
            start: vec![0],
            ..Local::default()
        }
    }

    /// Adds the next pair, (gold `a`, run `x`), with its cells, matrix
    /// shape and unrestricted inner optimum.
    #[inline]
    pub fn push_pair(
        &mut self,
        (a, x): (u32, u32),
        cells: impl Iterator<Item = LocalCell>,
        shape: (u16, u16),
        inner: i64,
    ) {
        if let Some(slot) = self.index.get_mut(a as usize * self.n2 + x as usize) {
            *slot = self.shape.len() as u32;
        }
        self.cells.extend(cells);
        self.start.push(self.cells.len() as u32);
        self.shape.push(shape);
        self.inner.push(inner);
    }

    /// The loss of the pair (gold `a`, run `x`) given the partners of the
    /// nodes mapped so far (`partner[0]` per gold node, `partner[1]` per
    /// run node, `u32::MAX` when free): its inner optimum less the inner
    /// optimum over the cells still possible (0 for incompatible pairs).
    pub fn loss(&self, a: usize, x: usize, partner: &[Vec<u32>; 2], s: &mut Scratch) -> i64 {
        let Some(&p) = self.index.get(a * self.n2 + x) else {
            return 0;
        };
        if p == NONE {
            return 0;
        }
        let p = p as usize;
        let cells = &self.cells[self.start[p] as usize..self.start[p + 1] as usize];
        let possible = |c: &LocalCell| {
            let (b, y) = (partner[0][c.gold as usize], partner[1][c.run as usize]);
            b == c.run || (b == NONE && y == NONE)
        };
        if cells.iter().all(possible) {
            return 0;
        }
        let (nr, nc) = (self.shape[p].0 as usize, self.shape[p].1 as usize);
        let value = if nr == 1 || nc == 1 {
            cells
                .iter()
                .filter(|c| possible(c))
                .map(|c| c.share as i64)
                .max()
                .unwrap_or(0)
        } else {
            // Rows the smaller dimension (the solver assigns every row).
            let transpose = nr > nc;
            let (rows, cols) = if transpose { (nc, nr) } else { (nr, nc) };
            s.matrix.clear();
            s.matrix.resize(rows * cols, 0);
            for c in cells.iter().filter(|c| possible(c)) {
                let (r, q) = if transpose {
                    (c.col as usize, c.row as usize)
                } else {
                    (c.row as usize, c.col as usize)
                };
                s.matrix[r * cols + q] = c.share;
            }
            s.row_dual.resize(rows, 0);
            s.col_dual.resize(cols, 0);
            s.lap
                .solve(rows, cols, &s.matrix, &mut s.row_dual, &mut s.col_dual)
        };
        (self.inner[p] - value).max(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pair (gold 0, run 0) with cells (1→1) 512, (2→2) 512 and (1→2) 300
    /// (rows: gold 1, 2; columns: run 1, 2); inner optimum 1024.
    fn one_pair() -> Local {
        let cell = |gold, run, row, col, share| LocalCell {
            gold,
            run,
            row,
            col,
            share,
        };
        let mut local = Local::new(3, 3);
        let cells = [
            cell(1, 1, 0, 0, 512),
            cell(2, 2, 1, 1, 512),
            cell(1, 2, 0, 1, 300),
        ];
        local.push_pair((0, 0), cells.into_iter(), (2, 2), 1024);
        local
    }

    fn partners(pairs: &[(u32, u32)]) -> [Vec<u32>; 2] {
        let mut p = [vec![NONE; 3], vec![NONE; 3]];
        for &(a, x) in pairs {
            p[0][a as usize] = x;
            p[1][x as usize] = a;
        }
        p
    }

    #[test]
    fn loss_counts_the_cells_the_mapped_pairs_rule_out() {
        let local = one_pair();
        let mut s = Scratch::default();
        // Nothing mapped, or the optimum's own cells kept: no loss.
        assert_eq!(local.loss(0, 0, &partners(&[]), &mut s), 0);
        assert_eq!(local.loss(0, 0, &partners(&[(1, 1)]), &mut s), 0);
        assert_eq!(local.loss(0, 0, &partners(&[(1, 1), (2, 2)]), &mut s), 0);
        // Gold 1 on run 2: (1→1) and (2→2) gone, (1→2) left: 1024 − 300.
        assert_eq!(local.loss(0, 0, &partners(&[(1, 2)]), &mut s), 724);
        // Gold 2 on run 1: (1→1) lost (run 1 taken), (2→2) lost (gold 2
        // elsewhere), (1→2) open (both free): 1024 − 300.
        assert_eq!(local.loss(0, 0, &partners(&[(2, 1)]), &mut s), 724);
        // Gold 1 and 2 both elsewhere: nothing left.
        assert_eq!(local.loss(0, 0, &partners(&[(1, 0), (2, 1)]), &mut s), 1024);
        // Incompatible (unknown) pair: no loss.
        assert_eq!(local.loss(1, 1, &partners(&[(1, 0)]), &mut s), 0);
    }
}
