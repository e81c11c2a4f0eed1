//! The warm ε-auction of one class's outer assignment (Bertsekas'
//! auction algorithm, maximization form), repaired between subgradient
//! steps from the last prices instead of solved again.
//!
//! Invariant: the prices and row potentials stay feasible (each row's
//! potential at least its best value `w − price`), so Σ potentials +
//! Σ prices bounds the optimum whatever the increment ε and however few
//! bids were made.

use crate::flowchart::mcs::lap::Lap;

/// Prices and assignment of one class's outer assignment, kept between
/// subgradient steps: a step changes a few dozen weights, so the last
/// prices are nearly right and a few bids repair the assignment. The
/// matrix is made square with rows of zeros (any assignment of the real
/// rows completes to one of equal weight), so every column is held and
/// any prices with row potentials of at least each row's best value
/// bound the optimum.
///
/// A step touches only the rows whose weights changed and the rows that
/// bid: prices only rise between exact solves, so a row's value at the
/// prices only falls, and the potential last computed for a row stays at
/// least its best value (a valid bound without a pass over the matrix).
#[derive(Clone, Debug, Default)]
pub(super) struct Auction {
    /// Column prices (≥ 0, at most [`PRICE_LIMIT`]; i32 so that a row's
    /// scan for its two best columns runs on vector lanes).
    pub price: Vec<i32>,
    /// Row of each column, or `NONE`.
    owner: Vec<u32>,
    /// Column of each row, or `NONE`.
    pub column: Vec<u32>,
    /// Row potentials: at least each row's best value `w − price`.
    pub value: Vec<i64>,
    queue: Vec<u32>,
    /// The bidding increment the assignment is ε-happy for (UNITs).
    epsilon: i64,
}

/// No row, no column.
pub(super) const NONE: u32 = u32::MAX;

/// The finest bidding increment (UNITs): the assignment and the bound are
/// within n × ε of the optimum (150 nodes: 0.15 edge). Steps far from the
/// target bid with a coarser one ([`coarse_epsilon`]).
pub(super) const EPSILON: i64 = 1;

/// Largest price: weights are below `i32::MAX / 4` (checked when the
/// relaxation is built), so row values `w − price` stay within i32.
const PRICE_LIMIT: i64 = i32::MAX as i64 / 4;

/// The bidding increment of the next step when the best bound is `gap`
/// UNITs above the Polyak target, over `columns` columns in all classes:
/// the auction's bound is within columns × ε of the outer optimum, so
/// while the gap is large a coarser increment (a power of two, at most
/// [`MAX_EPSILON`], its bound slack at most 1/[`EPSILON_SHARE`] of the
/// gap) costs the step little and ends its price wars sooner; near the
/// target it is [`EPSILON`] again. Every ε gives a valid bound.
pub(super) fn coarse_epsilon(gap: i64, columns: i64) -> i64 {
    let coarse = gap / (EPSILON_SHARE * columns.max(1));
    if coarse < 2 {
        EPSILON
    } else {
        (1i64 << coarse.ilog2()).min(MAX_EPSILON)
    }
}

/// The share of the gap the coarse increment's bound slack may take
/// (1/8): a larger share ends the price wars of steps far from the target
/// sooner but loosens their bounds; 1/8 balances the two. The coarsest
/// increment (UNITs, 1/16 of an edge) caps the slack of a step far from
/// the target at one edge per 16 columns; lower caps do about as well.
const EPSILON_SHARE: i64 = 8;
const MAX_EPSILON: i64 = 64;

impl Auction {
    /// A row's best and second best values over the columns, and the best
    /// column (the first of the best). By chunks of 8 columns whose maxima
    /// vectorize, keeping the two best chunk maxima; the best column and
    /// the second best are then looked up in the best chunk alone (one
    /// branching pass over every column was most of the relaxation's time).
    #[inline]
    fn best_two(&self, row: &[i32]) -> (i64, i64, usize) {
        const CHUNK: usize = 8;
        const LOW: i32 = i32::MIN;
        let price = self.price.get(..row.len()).unwrap_or(&[]);
        let value = |(&w, &p): (&i32, &i32)| w - p;
        let (mut v1, mut other, mut best) = (LOW, LOW, 0);
        let mut keep = |k: usize, m: i32| {
            if m > v1 {
                (other, v1, best) = (v1, m, k);
            } else if m > other {
                other = m;
            }
        };
        // Whole chunks as fixed-size arrays: a chunk of a length known
        // only at run time does not vectorize. The remainder comes last.
        let (rows, row_tail) = row.as_chunks::<CHUNK>();
        let (prices, price_tail) = price.as_chunks::<CHUNK>();
        for (k, (w, p)) in rows.iter().zip(prices).enumerate() {
            let mut m = LOW;
            for i in 0..CHUNK {
                m = m.max(w[i] - p[i]);
            }
            keep(k, m);
        }
        if !row_tail.is_empty() && !price_tail.is_empty() {
            let m = row_tail
                .iter()
                .zip(price_tail)
                .map(value)
                .fold(LOW, i32::max);
            keep(rows.len(), m);
        }
        let start = best * CHUNK;
        let end = (start + CHUNK).min(row.len());
        let (w, p) = (
            row.get(start..end).unwrap_or(&[]),
            price.get(start..end).unwrap_or(&[]),
        );
        let at = w.iter().zip(p).position(|c| value(c) == v1).unwrap_or(0);
        let v2 = w
            .iter()
            .zip(p)
            .enumerate()
            .filter(|&(i, _)| i != at)
            .map(|(_, c)| value(c))
            .fold(other, i32::max);
        (v1 as i64, v2 as i64, start + at)
    }

    /// Solves the square `n × n` matrix `w` exactly (Hungarian method) and
    /// takes its column potentials as prices, its assignment and each
    /// row's best value; `epsilon` is the increment of the repairs that
    /// follow (an optimal assignment is happy for any).
    pub fn solve_exactly(&mut self, lap: &mut Lap, n: usize, w: &[i32], epsilon: i64) {
        let (mut rows, mut cols) = (vec![0; n], vec![0; n]);
        lap.solve(n, n, w, &mut rows, &mut cols);
        self.price = cols;
        self.epsilon = epsilon;
        self.owner = vec![NONE; n];
        self.column = vec![NONE; n];
        for j in 0..n {
            if let Some(i) = lap.row_of_column(j) {
                self.owner[j] = i as u32;
                self.column[i] = j as u32;
            }
        }
        self.value = w
            .chunks_exact(n.max(1))
            .map(|row| self.best_two(row).0)
            .collect();
    }

    /// Tightens each row's potential to its assigned value + ε (every row
    /// is within ε of its best after the auction) and returns the bound of
    /// the square `n × n` matrix `w`: Σ potentials + Σ prices.
    pub fn settle(&mut self, n: usize, w: &[i32]) -> i64 {
        for (i, (value, &j)) in self.value.iter_mut().zip(&self.column).enumerate() {
            if j != NONE {
                let j = j as usize;
                *value = (*value).min(w[i * n + j] as i64 - self.price[j] as i64 + self.epsilon);
            }
        }
        self.value.iter().sum::<i64>() + self.price.iter().map(|&p| p as i64).sum::<i64>()
    }

    /// Repairs the assignment of the square `n × n` matrix `w` from the
    /// last prices after the weights of rows `dirty` changed; returns false
    /// when the bids exceed `budget` (the caller then solves exactly).
    pub fn repair(
        &mut self,
        n: usize,
        w: &[i32],
        dirty: &[u32],
        budget: usize,
        epsilon: i64,
    ) -> bool {
        self.free_unhappy(n, w, dirty, epsilon);
        self.bid(n, w, budget, epsilon)
    }

    /// Updates the potentials of rows `dirty` (of every row when `epsilon`
    /// is finer than the last increment) and frees those no longer within
    /// `epsilon` of their best, queued to bid.
    #[inline]
    fn free_unhappy(&mut self, n: usize, w: &[i32], dirty: &[u32], epsilon: i64) {
        self.queue.clear();
        let every = epsilon < self.epsilon;
        self.epsilon = epsilon;
        let rows = (0..n as u32).filter(|_| every);
        for i in rows.chain(dirty.iter().copied().filter(|_| !every)) {
            let i = i as usize;
            let row = &w[i * n..(i + 1) * n];
            let (best, _, _) = self.best_two(row);
            self.value[i] = best;
            let j = self.column[i];
            let happy =
                j != NONE && (row[j as usize] - self.price[j as usize]) as i64 >= best - epsilon;
            if !happy {
                if j != NONE {
                    self.owner[j as usize] = NONE;
                    self.column[i] = NONE;
                }
                self.queue.push(i as u32);
            }
        }
    }

    /// The queued rows bid until every row is assigned: each raises the
    /// price of its best column by its margin over the second best + ε
    /// and takes it, freeing the column's row. False past `budget` bids
    /// or past [`PRICE_LIMIT`].
    #[inline]
    fn bid(&mut self, n: usize, w: &[i32], budget: usize, epsilon: i64) -> bool {
        // Rows bid in the order they were freed (first in, first out): a
        // row freed last bidding first displaces the rows just placed,
        // which makes longer chains of displaced rows.
        let mut bids = 0;
        while let Some(&i) = self.queue.get(bids) {
            bids += 1;
            if bids > budget {
                return false;
            }
            let i = i as usize;
            let row = &w[i * n..(i + 1) * n];
            let (v1, v2, j) = self.best_two(row);
            let raise = if n > 1 { v1 - v2 + epsilon } else { epsilon };
            let price = self.price[j] as i64 + raise;
            if price > PRICE_LIMIT {
                // Prices only rise between exact solves: past the limit,
                // the caller solves exactly (prices back to the duals).
                return false;
            }
            self.price[j] = price as i32;
            // The row's best after the raise: the second best (or, alone,
            // its one column).
            self.value[i] = if n > 1 { v2 } else { v1 - raise };
            let previous = self.owner[j];
            if previous != NONE {
                self.column[previous as usize] = NONE;
                self.queue.push(previous);
            }
            self.owner[j] = i as u32;
            self.column[i] = j as u32;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::{Auction, EPSILON};
    use crate::flowchart::mcs::lap::Lap;
    use proptest::prelude::*;

    proptest! {
        /// A row's two best values at the prices and the first column of
        /// the best, against one pass over every column; small values make
        /// ties within and across chunks, lengths cover whole chunks and a
        /// remainder.
        #[test]
        fn best_two_is_the_first_best_column_and_the_next_value(
            cells in prop::collection::vec((-20i32..20, 0i32..20), 1..40),
        ) {
            let row: Vec<i32> = cells.iter().map(|c| c.0).collect();
            let auction = Auction {
                price: cells.iter().map(|c| c.1).collect(),
                ..Auction::default()
            };
            let values: Vec<i64> = cells.iter().map(|&(w, p)| (w - p) as i64).collect();
            let v1 = *values.iter().max().unwrap();
            let at = values.iter().position(|&v| v == v1).unwrap();
            let v2 = values
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != at)
                .map(|(_, &v)| v)
                .max()
                .unwrap_or(i32::MIN as i64);
            prop_assert_eq!(auction.best_two(&row), (v1, v2, at));
        }

        /// The warm auction against the Hungarian method on matrices that
        /// change between rounds, each round with its own increment ε
        /// (coarser or finer than the last): its potentials stay feasible,
        /// its bound is never below the optimum and at most n × ε above
        /// it, its assignment within n × ε below.
        #[test]
        fn warm_auction_stays_within_n_epsilon(
            n in 1usize..8,
            first in prop::collection::vec(0i32..5000, 64),
            changes in prop::collection::vec(
                (prop::collection::vec((0usize..64, 0i32..5000), 0..10), 0u32..7),
                1..6,
            ),
        ) {
            let mut w: Vec<i32> = first[..n * n].to_vec();
            let mut lap = Lap::default();
            let mut auction = Auction::default();
            auction.solve_exactly(&mut lap, n, &w, EPSILON);
            for (round, scale) in &changes {
                let epsilon = EPSILON << scale;
                let mut dirty = Vec::new();
                for &(at, v) in round {
                    w[at % (n * n)] = v;
                    let row = (at % (n * n) / n) as u32;
                    if !dirty.contains(&row) {
                        dirty.push(row);
                    }
                }
                let (mut r, mut c) = (vec![0; n], vec![0; n]);
                let exact = lap.solve(n, n, &w, &mut r, &mut c);
                if !auction.repair(n, &w, &dirty, 1_000_000, epsilon) {
                    auction.solve_exactly(&mut lap, n, &w, epsilon);
                }
                let bound = auction.settle(n, &w);
                // The potentials are feasible: each row's at least its best.
                for i in 0..n {
                    let best = (0..n).map(|j| w[i * n + j] as i64 - auction.price[j] as i64).max();
                    prop_assert!(Some(auction.value[i]) >= best, "row {} below its best", i);
                }
                let slack = n as i64 * epsilon;
                prop_assert!(bound >= exact && bound <= exact + slack, "bound {} exact {}", bound, exact);
                let value: i64 = (0..n).map(|i| w[i * n + auction.column[i] as usize] as i64).sum();
                prop_assert!(value <= exact && value >= exact - slack, "value {} exact {}", value, exact);
            }
        }
    }
}
