//! Maximum-weight assignment with its dual potentials (the Hungarian
//! method, shortest augmenting paths, O(rows² · cols)).
//!
//! The search needs the duals, not only the optimum: any potentials with
//! `row[i] + col[j] ≥ w[i][j]` and `col[j] ≥ 0` bound every assignment of
//! all rows from above by `Σ row + Σ col`, and they stay valid when weights
//! only go down, so a search node repairs its parent's potentials where
//! weights went up instead of solving again (see `search/assign.rs`). The
//! crates that solve assignments (`pathfinding`'s `kuhn_munkres`,
//! `hungarian`) return the assignment but not the potentials.

// Indexing: the solver's arrays are sized rows + 1 and cols + 1 by
// `reduce_rows`, indices stay below; O(rows² · cols) inner loop.
#![allow(clippy::indexing_slicing)]

/// Scratch space of the solver, reused between calls (no allocation once
/// grown).
#[derive(Clone, Debug, Default)]
pub(crate) struct Lap {
    /// Row and column potentials of the minimum-cost form (1-based; the
    /// duals of the maximum-weight form, negated).
    row_potential: Vec<i64>,
    col_potential: Vec<i64>,
    /// Per column (1-based, 0 the root): its row, 1-based (0: none).
    row_of: Vec<usize>,
    /// Per column: the column before it on the shortest path found.
    path_from: Vec<usize>,
    /// Per column: the least reduced cost of reaching it so far.
    slack: Vec<i64>,
    /// Per column: reached by the current path search.
    reached: Vec<bool>,
    /// Per row: placed by the greedy start.
    placed: Vec<bool>,
}

/// Larger than any path's reduced cost.
const INF: i64 = i64::MAX / 4;

/// The cost (−weight) of 1-based row `i` and column `j` of the row-major
/// matrix `w` with `cols` columns.
#[inline]
fn cost(w: &[i32], cols: usize, i: usize, j: usize) -> i64 {
    -(w.get((i - 1) * cols + (j - 1)).copied().unwrap_or(0) as i64)
}

impl Lap {
    /// Solves the maximum-weight assignment of every row of the
    /// `rows × cols` matrix `w` (row major, `rows <= cols`) to distinct
    /// columns. Writes optimal potentials to `row_dual` and `col_dual`
    /// (`row_dual[i] + col_dual[j] ≥ w[i·cols + j]`, `col_dual[j] ≥ 0`,
    /// zero on unassigned columns) and returns the optimum, which equals
    /// `Σ row_dual + Σ col_dual`.
    pub fn solve(
        &mut self,
        rows: usize,
        cols: usize,
        w: &[i32],
        row_dual: &mut [i32],
        col_dual: &mut [i32],
    ) -> i64 {
        if rows > cols || w.len() < rows * cols {
            return self.row_maxima(cols, w, row_dual, col_dual);
        }
        if let Some(total) = self.greedy((rows, cols), w, row_dual) {
            col_dual.fill(0);
            return total;
        }
        // The general path: row reduction with a greedy start, then a
        // shortest augmenting path for each row not placed.
        self.reduce_rows(rows, cols, w);
        for i in 1..=rows {
            if !self.placed[i] {
                self.augment(i, cols, w);
            }
        }
        for (d, &u) in row_dual.iter_mut().zip(&self.row_potential[1..]) {
            *d = -u as i32;
        }
        for (d, &v) in col_dual.iter_mut().zip(&self.col_potential[1..]) {
            *d = -v as i32;
        }
        (1..=cols)
            .filter(|&j| self.row_of[j] != 0)
            .map(|j| -cost(w, cols, self.row_of[j], j))
            .sum()
    }

    /// Not an assignment of every row (more rows than columns, or a short
    /// matrix; never asked by the search): the row maxima, with zero column
    /// potentials, are feasible potentials and a valid bound.
    fn row_maxima(
        &mut self,
        cols: usize,
        w: &[i32],
        row_dual: &mut [i32],
        col_dual: &mut [i32],
    ) -> i64 {
        self.row_of.clear();
        col_dual.iter_mut().for_each(|d| *d = 0);
        let mut total = 0;
        for (i, d) in row_dual.iter_mut().enumerate() {
            let row = w.get(i * cols..(i + 1) * cols).unwrap_or(&[]);
            *d = row.iter().copied().max().unwrap_or(0);
            total += *d as i64;
        }
        total
    }

    /// The start of the general path, in the minimum-cost form on
    /// cost = −w, 1-based with column 0 as the root: row reduction (each
    /// row's potential its cheapest cost, columns 0) and a greedy start (a
    /// row whose cheapest column is still free takes it, a tight edge). On
    /// the near-identity matrices of the search most rows are placed here
    /// and few need a path.
    #[inline]
    fn reduce_rows(&mut self, rows: usize, cols: usize, w: &[i32]) {
        self.row_potential.clear();
        self.row_potential.resize(rows + 1, 0);
        self.col_potential.clear();
        self.col_potential.resize(cols + 1, 0);
        self.row_of.clear();
        self.row_of.resize(cols + 1, 0);
        self.path_from.clear();
        self.path_from.resize(cols + 1, 0);
        self.placed.clear();
        self.placed.resize(rows + 1, false);
        for i in 1..=rows {
            let (mut best, mut at) = (INF, 0);
            for j in 1..=cols {
                let c = cost(w, cols, i, j);
                if c < best {
                    (best, at) = (c, j);
                }
            }
            self.row_potential[i] = best;
            if self.row_of[at] == 0 {
                self.row_of[at] = i;
                self.placed[i] = true;
            }
        }
    }

    /// Places row `i` by a shortest augmenting path from the root (column
    /// 0) over reduced costs, updating the potentials on the way (Dijkstra
    /// with the potentials of the rows and columns reached), then flips
    /// the path.
    #[inline]
    fn augment(&mut self, i: usize, cols: usize, w: &[i32]) {
        self.row_of[0] = i;
        let mut j0 = 0;
        self.slack.clear();
        self.slack.resize(cols + 1, INF);
        self.reached.clear();
        self.reached.resize(cols + 1, false);
        loop {
            self.reached[j0] = true;
            let i0 = self.row_of[j0];
            let mut delta = INF;
            let mut j1 = 0;
            for j in 1..=cols {
                if self.reached[j] {
                    continue;
                }
                let cur = cost(w, cols, i0, j) - self.row_potential[i0] - self.col_potential[j];
                if cur < self.slack[j] {
                    self.slack[j] = cur;
                    self.path_from[j] = j0;
                }
                if self.slack[j] < delta {
                    delta = self.slack[j];
                    j1 = j;
                }
            }
            for j in 0..=cols {
                if self.reached[j] {
                    self.row_potential[self.row_of[j]] += delta;
                    self.col_potential[j] -= delta;
                } else {
                    self.slack[j] -= delta;
                }
            }
            j0 = j1;
            if self.row_of[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = self.path_from[j0];
            self.row_of[j0] = self.row_of[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }

    /// The start of [`Lap::solve`] when it is the whole solve: every row's
    /// first best column is a different column (the inner assignments of
    /// the relaxation, a few rows each, mostly are), so the assignment is
    /// optimal with the row maxima (written to `row_dual`) and zero column
    /// potentials, exactly as the general path would leave it. `None`
    /// otherwise (or past 64 columns).
    fn greedy(
        &mut self,
        (rows, cols): (usize, usize),
        w: &[i32],
        row_dual: &mut [i32],
    ) -> Option<i64> {
        if cols > 64 || rows > cols {
            return None;
        }
        let mut taken = 0u64;
        let mut best = [0u8; 64];
        for (i, row) in w.chunks_exact(cols.max(1)).take(rows).enumerate() {
            let mut at = 0;
            for (j, &v) in row.iter().enumerate() {
                if v > row[at] {
                    at = j;
                }
            }
            if taken & (1 << at) != 0 {
                return None;
            }
            taken |= 1 << at;
            best[i] = at as u8;
        }
        self.row_of.clear();
        self.row_of.resize(cols + 1, 0);
        let mut total = 0;
        for (i, &at) in best.iter().take(rows).enumerate() {
            let value = w[i * cols + at as usize];
            self.row_of[at as usize + 1] = i + 1;
            total += value as i64;
            if let Some(d) = row_dual.get_mut(i) {
                *d = value;
            }
        }
        Some(total)
    }

    /// The assignment of two rows to distinct columns of the `2 × cols`
    /// matrix `w` (`cols ≥ 2`): the optimum and each row's column, the
    /// same assignment [`Lap::solve`] makes (its greedy start when the
    /// rows' first best columns differ; else its one augmenting path,
    /// which moves the row that loses least to the first column where
    /// that loss is least, the second row on a tie), without its scratch
    /// arrays or potentials. Most of the relaxation's inner assignments
    /// that need a matrix have two rows (a node pair's neighbours are few).
    pub fn two_rows(cols: usize, w: &[i32]) -> (i64, [usize; 2]) {
        let (r0, r1) = w.split_at(cols.min(w.len()));
        let first_best = |row: &[i32]| {
            let mut at = 0;
            for (j, &v) in row.iter().enumerate() {
                if v > row[at] {
                    at = j;
                }
            }
            at
        };
        let (a0, a1) = (first_best(r0), first_best(r1));
        let value = |c0: usize, c1: usize| r0[c0] as i64 + r1[c1] as i64;
        if a0 != a1 {
            return (value(a0, a1), [a0, a1]);
        }
        let c = a0;
        let mut best: Option<(i64, [usize; 2])> = None;
        for j in (0..cols.min(r1.len())).filter(|&j| j != c) {
            let loss1 = r1[c] as i64 - r1[j] as i64;
            let loss0 = r0[c] as i64 - r0[j] as i64;
            let (loss, columns) = if loss1 <= loss0 {
                (loss1, [c, j])
            } else {
                (loss0, [j, c])
            };
            if best.is_none_or(|(b, _)| loss < b) {
                best = Some((loss, columns));
            }
        }
        let [c0, c1] = best.map_or([c, c], |(_, columns)| columns);
        (value(c0, c1), [c0, c1])
    }

    /// The assignment of the last [`Lap::solve`] with `rows <= cols`:
    /// `row_of[j]` is the row given column `j`, or `None`.
    pub fn row_of_column(&self, j: usize) -> Option<usize> {
        match self.row_of.get(j + 1) {
            Some(&i) if i > 0 => Some(i - 1),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Lap;

    /// Every assignment of rows to distinct columns, the best total.
    fn brute(rows: usize, cols: usize, w: &[i32]) -> i64 {
        fn go(i: usize, rows: usize, cols: usize, w: &[i32], used: &mut Vec<bool>) -> i64 {
            if i == rows {
                return 0;
            }
            let mut best = i64::MIN;
            for j in 0..cols {
                if !used[j] {
                    used[j] = true;
                    let rest = go(i + 1, rows, cols, w, used);
                    best = best.max(w[i * cols + j] as i64 + rest);
                    used[j] = false;
                }
            }
            best
        }
        go(0, rows, cols, w, &mut vec![false; cols])
    }

    #[test]
    fn hand_made() {
        let mut lap = Lap::default();
        let (mut r, mut c) = (vec![0; 3], vec![0; 3]);
        // Best: 3 + 6 + ... rows (0→2, 1→0, 2→1) = 3 + 6 + 1 = 10.
        let w = [1, 2, 3, 6, 5, 4, 1, 1, 1];
        assert_eq!(lap.solve(3, 3, &w, &mut r, &mut c), 10);
        // More rows than columns: row maxima, 9 + 5.
        let (mut r2, mut c1) = (vec![0; 2], vec![0; 1]);
        assert_eq!(lap.solve(2, 1, &[9, 5], &mut r2, &mut c1), 14);
        let mut c4 = vec![0; 4];
        let w = [5, 0, 0, 9, 5, 0, 0, 0];
        assert_eq!(lap.solve(2, 4, &w, &mut r, &mut c4), 14);
    }

    proptest::proptest! {
        /// Two rows: the same optimum and the same columns as the general
        /// solver (ties included: small weights make many).
        #[test]
        fn two_rows_assign_as_the_general_solver(
            cols in 2usize..7,
            seed in proptest::collection::vec(0i32..4, 14),
        ) {
            let w = &seed[..2 * cols];
            let mut lap = Lap::default();
            let (mut r, mut c) = (vec![0; 2], vec![0; cols]);
            let best = lap.solve(2, cols, w, &mut r, &mut c);
            let (value, columns) = Lap::two_rows(cols, w);
            proptest::prop_assert_eq!(value, best);
            for (i, &j) in columns.iter().enumerate() {
                proptest::prop_assert_eq!(lap.row_of_column(j), Some(i));
            }
        }

        #[test]
        fn optimum_and_duals_agree_with_brute_force(
            rows in 1usize..5,
            extra in 0usize..3,
            seed in proptest::collection::vec(0i32..7, 40),
        ) {
            let cols = rows + extra;
            let w: Vec<i32> = seed.iter().copied().cycle().take(rows * cols).collect();
            let mut lap = Lap::default();
            let (mut r, mut c) = (vec![0; rows], vec![0; cols]);
            let best = lap.solve(rows, cols, &w, &mut r, &mut c);
            proptest::prop_assert_eq!(best, brute(rows, cols, &w));
            let sum: i64 = r.iter().chain(&c).map(|&d| d as i64).sum();
            proptest::prop_assert_eq!(sum, best);
            for i in 0..rows {
                for j in 0..cols {
                    proptest::prop_assert!(r[i] + c[j] >= w[i * cols + j]);
                }
            }
            proptest::prop_assert!(c.iter().all(|&d| d >= 0));
        }
    }
}
