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
//! and its label mode ([`solve_labels`]) bounds the label cost of the
//! complete level's cost search. On the bench
//! workload the relaxation is tight: its value rounded down equals the
//! maximum on every exactly solved pair of 300 at both levels (measured with
//! an LP solver on the same pairs), so most searches end here.
//!
//! Weights are fixed-point integers (an edge is [`UNIT`]): every split is
//! an integer, the bound is an exact integer sum, no rounding can make it
//! invalid.

// Indexing: pair, edge-pair and cell indices are built in `Relaxation::new`
// from the two graphs and stay below the lengths of the arrays built there.
#![allow(clippy::indexing_slicing)]

use super::graph::{Graph, preserved};
use super::lap::Lap;
use super::local::{Local, LocalCell};
use super::{mapping::size as evaluate, swaps::polished};
use std::time::Instant;

/// One edge in the fixed-point weights.
const UNIT: i64 = 1 << 10;

/// Subgradient iterations at most (300 measured against 1000 on 20 bench
/// pairs of 150 nodes, 1 s cut: intermediate 3 → 0 cut, basic 7 → 3; steps
/// of pairs that converge are unchanged).
const MAX_ITERATIONS: u32 = 1000;

/// Outer assignments within this many of the best size are polished into
/// mappings by the local search (10 measured against 0, 5 and every one:
/// 300 bench pairs of 10–60 nodes, basic + intermediate, all proved at the
/// root with 10; 1 cut with 0 or 5; every one twice the time).
const POLISH_WITHIN: u32 = 10;

/// Steps without a better bound after which the step scale shrinks by
/// [`SHRINK`] (5, 10, 20 and 1000 measured on the bench workload: 20
/// proved the most pairs).
const STALL_STEPS: u32 = 20;

/// The first step scale (Polyak's step towards the incumbent times it)
/// and its factor after [`STALL_STEPS`] without a better bound; the
/// relaxation stops below 1/1000. 2 and 0.7 measured against 1 and 0.5
/// (and 40 stalled steps, 0.8, growing on improvement): 40 bench pairs of
/// 150 nodes, basic + intermediate, 1 s cut: 3 + 0 → 0 + 0 cut (seed 2),
/// 4 + 2 → 1 + 0 (seed 5); 300 pairs of 10–60 nodes all proved either way.
const FIRST_SCALE: f64 = 2.0;
const SHRINK: f64 = 0.7;

/// The first step scale from another level's split (the basic level from
/// the intermediate one's). Measured (basic level, total time): 300 sweep
/// pairs 2 → 1.5: 838 → 762 ms; 20 pairs of 150 nodes 2.73 → 2.60 s; 176
/// workload pairs of 100–150 nodes 9.1 → 8.1 s (1: 8.0 s but one cut and a
/// slower tail on the 150-node pairs; 0.5 and 0.25 worse; the
/// intermediate level's last scale worse).
const WARM_SCALE: f64 = 1.5;

/// Steps the complete level runs on after the bound is proved (resuming
/// the intermediate level's relaxation): they sharpen the reduced costs
/// its label searches prune with.
pub(crate) const LABEL_STEPS: u32 = 150;

/// Edge pairs at most (memory ~ 24 bytes each): beyond, the relaxation is
/// not built and the cheaper bounds alone apply.
const MAX_EDGE_PAIRS: usize = 2_000_000;

/// Bids per row and column an auction may take before the step is solved
/// exactly instead.
const AUCTION_BIDS: usize = 32;

/// Cells of one class's outer assignment at most (as in `search/assign.rs`).
const MAX_CELLS: usize = 40_000;

/// What the relaxation proved and found.
#[derive(Clone, Debug, Default)]
pub(crate) struct Outcome {
    /// Upper bound on the size (mapped nodes + preserved edges), when the
    /// relaxation was solved.
    pub bound: Option<u32>,
    /// The best mapping among the outer assignments, with its size, when
    /// it is larger than the incumbent given.
    pub mapping: Option<(Vec<(u32, u32)>, u32)>,
    /// Subgradient iterations run.
    pub iterations: u32,
    /// The reduced costs of the best iteration, a bound for every search
    /// node (none when n1 · n2 exceeds [`MAX_PAIR_TABLE`]).
    pub reduced: Option<Reduced>,
    /// Where the steps stopped, to resume from.
    pub split: Option<Split>,
}

/// The state of the relaxation after its last step: the split of every
/// edge pair and the step scale. Another relaxation of the same two graphs
/// (the complete level's, after the intermediate level's) resumes from it
/// instead of proving the bound again.
#[derive(Clone, Debug)]
pub(crate) struct Split {
    t: Vec<i64>,
    mu: f64,
    /// Per edge pair: its two node pairs as (gold, run) nodes, to carry
    /// the split over to the other level's graphs of the same two files.
    ends: Vec<[(u32, u32); 2]>,
}

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
    /// (incompatible pairs: `i32::MAX`).
    cost: Vec<i32>,
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

    /// Label mode ([`solve_labels`]): the least label cost of a mapping of
    /// `size` whose pairs' reduced costs sum to `used`.
    pub fn label_bound(&self, size: u32, used: i64) -> f64 {
        let edges = (size as i64 - self.nodes as i64) * UNIT;
        (edges - self.total + used) as f64 / LABEL_SCALE as f64
    }

    /// The bound on the size of a mapping whose mapped pairs' reduced
    /// costs sum to `used`.
    pub fn size_bound(&self, used: i64) -> i64 {
        self.nodes as i64 + (self.total - used).max(-UNIT).div_euclid(UNIT)
    }
}

/// One edge pair: node pairs of its two ends, weight, split.
#[derive(Clone, Copy, Debug)]
struct EdgePair {
    ends: [u32; 2],
    /// Edges preserved (in [`UNIT`]s: `w * UNIT`).
    w: i64,
    /// Share of end 0 minus half the weight (end 1 gets the opposite).
    t: i64,
}

impl EdgePair {
    /// The share of end `end` (0 or 1) at split `t`.
    #[inline]
    fn share_at(&self, t: i64, end: u8) -> i64 {
        let half = self.w / 2;
        if end == 0 {
            half + t
        } else {
            self.w - half - t
        }
    }
}

/// A cell of a node pair's inner assignment: gold neighbour row, run
/// neighbour column, the edge pair and which end the node pair is.
#[derive(Clone, Copy, Debug)]
struct Cell {
    row: u16,
    col: u16,
    z: u32,
    end: u8,
}

/// One compatibility class's outer assignment.
#[derive(Clone, Debug)]
struct Class {
    /// Rows are gold nodes (else run nodes).
    gold_rows: bool,
    /// Rows (short side) and columns of the class.
    rows: usize,
    cols: usize,
    /// Index of the node pair of (row i, col j) is `first + i * cols + j`
    /// when `gold_rows`, else `first + j * rows + i` (pairs are numbered
    /// gold-major).
    first: usize,
    /// The weights (loops + inner optimum of each node pair), `cols ×
    /// cols` row major, the rows past `rows` zero; kept between steps and
    /// changed where a step changed an inner optimum.
    matrix: Vec<i32>,
    /// Rows with a changed weight since the last outer assignment.
    dirty: Vec<u32>,
    is_dirty: Vec<bool>,
    /// Warm state of the ε-auction between steps (empty before the first
    /// exact solve).
    auction: Auction,
    /// Row potentials and prices of the step of least bound.
    best_value: Vec<i64>,
    best_price: Vec<i32>,
}

impl Class {
    /// The node pair at (row `i`, column `j`).
    fn pair(&self, i: usize, j: usize) -> usize {
        if self.gold_rows {
            self.first + i * self.cols + j
        } else {
            self.first + j * self.rows + i
        }
    }

    /// The matrix index of the node pair at offset `local` from `first`.
    fn cell_of(&self, local: usize) -> usize {
        if self.gold_rows {
            local
        } else {
            (local % self.rows) * self.cols + local / self.rows
        }
    }
}

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
struct Auction {
    /// Column prices (≥ 0, at most [`PRICE_LIMIT`]; i32 so that a row's
    /// scan for its two best columns runs on vector lanes).
    price: Vec<i32>,
    /// Row of each column, or `NONE`.
    owner: Vec<u32>,
    /// Column of each row, or `NONE`.
    column: Vec<u32>,
    /// Row potentials: at least each row's best value `w − price`.
    value: Vec<i64>,
    queue: Vec<u32>,
    /// The bidding increment the assignment is ε-happy for (UNITs).
    epsilon: i64,
}

const NONE: u32 = u32::MAX;

/// The finest bidding increment (UNITs): the assignment and the bound are
/// within n × ε of the optimum (150 nodes: 0.15 edge). Steps far from the
/// target bid with a coarser one ([`coarse_epsilon`]).
const EPSILON: i64 = 1;

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
fn coarse_epsilon(gap: i64, columns: i64) -> i64 {
    let coarse = gap / (EPSILON_SHARE * columns.max(1));
    if coarse < 2 {
        EPSILON
    } else {
        (1i64 << coarse.ilog2()).min(MAX_EPSILON)
    }
}

/// The share of the gap the coarse increment's bound slack may take
/// (1/8) and the coarsest increment (UNITs). Measured in instructions
/// (one thread, 300 sweep pairs, typed + basic + complete, against ε = 1
/// throughout): a share of 8 −12 % (2:
/// +9 %, 4: −7 %, 16: −10 %); at most 16 or 32 units instead of 64 the
/// same within 0.5 %.
const EPSILON_SHARE: i64 = 8;
const MAX_EPSILON: i64 = 64;

impl Auction {
    /// A row's best and second best values over the columns, and the best
    /// column (the first of the best). By chunks of 8 columns whose maxima
    /// vectorize, keeping the two best chunk maxima; the best column and
    /// the second best are then looked up in the best chunk alone (one
    /// branching pass over every column was most of the relaxation's time).
    fn best_two(&self, row: &[i32]) -> (i64, i64, usize) {
        const CHUNK: usize = 8;
        const LOW: i32 = i32::MIN;
        let price = self.price.get(..row.len()).unwrap_or(&[]);
        let value = |(&w, &p): (&i32, &i32)| w - p;
        let (mut v1, mut other, mut best) = (LOW, LOW, 0);
        for (k, (w, p)) in row.chunks(CHUNK).zip(price.chunks(CHUNK)).enumerate() {
            let m = w.iter().zip(p).map(value).fold(LOW, i32::max);
            if m > v1 {
                (other, v1, best) = (v1, m, k);
            } else if m > other {
                other = m;
            }
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
    fn solve_exactly(&mut self, lap: &mut Lap, n: usize, w: &[i32], epsilon: i64) {
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
    fn settle(&mut self, n: usize, w: &[i32]) -> i64 {
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
    fn repair(&mut self, n: usize, w: &[i32], dirty: &[u32], budget: usize, epsilon: i64) -> bool {
        self.queue.clear();
        // A finer increment than the last: every row's happiness is
        // checked again.
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
        // Rows bid in the order they were freed (first in, first out; last
        // in, first out took 10 % more instructions on the bench pairs:
        // longer chains of displaced rows).
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

struct Relaxation<'g> {
    g: [&'g Graph; 2],
    classes: Vec<Class>,
    /// Per node pair: loops preserved (in UNITs).
    base: Vec<i64>,
    /// Per node pair: inner optimum (in UNITs).
    inner: Vec<i64>,
    /// Per node pair: its cells, `cell_start[p]..cell_start[p + 1]`.
    cell_start: Vec<usize>,
    cells: Vec<Cell>,
    /// Per cell: chosen by the inner assignment.
    chosen: Vec<bool>,
    /// Per node pair: its inner assignment's size (rows, cols).
    shape: Vec<(u16, u16)>,
    edge_pairs: Vec<EdgePair>,
    /// Per node pair: its class and index in the class's matrix.
    slot: Vec<(u32, u32)>,
    /// The node pairs of the last outer assignment.
    chosen_pairs: Vec<u32>,
    /// Per node pair: the inner optimum of the step of least bound.
    best_inner: Vec<i64>,
    /// Per edge pair: its split at the step of least bound.
    best_t: Vec<i64>,
    /// Node pairs of each node, for the mapping: (gold, run) of pair p.
    pair_nodes: Vec<(u32, u32)>,
    node_term: u32,
    /// Label mode ([`solve_labels`]): the incumbent's value of edges ×
    /// UNIT − label units, the Polyak target of every step.
    label_target: Option<i64>,
    /// False when the incumbent is known largest (the label searches'
    /// sharpening): the outer assignments are then never evaluated.
    look_for_mappings: bool,
    /// Label mode: each node pair's label units (its weight's deduction).
    pair_label: Vec<i64>,
    lap: Lap,
    small: Lap,
    matrix: Vec<i32>,
    row_dual: Vec<i32>,
    col_dual: Vec<i32>,
}

/// Solves the relaxation of `g1` and `g2` (non-induced) from the
/// incumbent's split, or from `start` (a split of the same graphs),
/// stopping `extra_steps` after its bound reaches `incumbent` (the size of
/// a known mapping), after [`MAX_ITERATIONS`] or at the deadline.
pub(crate) fn solve(
    g1: &Graph,
    g2: &Graph,
    incumbent: (&[(u32, u32)], u32),
    largest: bool,
    start: Option<&Split>,
    extra_steps: u32,
    deadline: Option<Instant>,
) -> Outcome {
    let Some(mut r) = Relaxation::new(g1, g2) else {
        return Outcome::default();
    };
    r.look_for_mappings = !largest;
    let mu = r.start(start, incumbent.0);
    r.run(incumbent.1, mu, extra_steps, deadline)
}

/// Label units per edge in [`solve_labels`] (a label cost of 1 weighs
/// this many UNITs against an edge's one).
pub(crate) const LABEL_SCALE: i64 = UNIT / 4;

/// The relaxation of the complete level's cost search: edges × UNIT − the
/// label cost of the mapped pairs (ned × [`LABEL_SCALE`], `labels` at
/// `a * n2 + x`, rounded down by the caller) over mappings of every
/// short-side node, for `steps` steps from `start` (the intermediate
/// level's split) or the incumbent's. For a mapping M of `size` edges +
/// nodes, `UNIT · edges − labels(M) ≤ total − Σ_M reduced costs`: the
/// returned reduced costs bound the label cost of every maximum mapping
/// containing the pairs mapped so far. Also returns the outer assignment of
/// `size` with the fewest label units met, if any.
pub(crate) fn solve_labels(
    g1: &Graph,
    g2: &Graph,
    labels: &[i64],
    incumbent: (&[(u32, u32)], u32),
    start: Option<&Split>,
    steps: u32,
    deadline: Option<Instant>,
) -> (Option<Reduced>, Option<Vec<(u32, u32)>>) {
    let Some(mut r) = Relaxation::new(g1, g2) else {
        return (None, None);
    };
    let label = |&(a, x): &(u32, u32)| {
        labels
            .get(a as usize * g2.n + x as usize)
            .copied()
            .unwrap_or(0)
    };
    r.pair_label = r.pair_nodes.iter().map(label).collect();
    for (b, &l) in r.base.iter_mut().zip(&r.pair_label) {
        *b -= l;
    }
    let (map, size) = incumbent;
    let own: i64 = map.iter().map(label).sum();
    r.label_target = Some((size as i64 - r.node_term as i64) * UNIT - own);
    let mu = r.start(start, map);
    let out = r.run(size, mu, steps, deadline);
    (out.reduced, out.mapping.map(|(m, _)| m))
}

/// The order of edge pairs ((a, x), (b, y)) in [`Relaxation::new`]: gold
/// edge {a, b} (a < b), then run pair (x, y).
fn edge_order(ends: &[(u32, u32); 2]) -> (u32, u32, u32, u32) {
    let [(a, x), (b, y)] = *ends;
    (a, b, x, y)
}

impl<'g> Relaxation<'g> {
    fn new(g1: &'g Graph, g2: &'g Graph) -> Option<Self> {
        let classes_n = g1.class_count().max(g2.class_count());
        let mut members: [Vec<Vec<u32>>; 2] =
            [vec![Vec::new(); classes_n], vec![Vec::new(); classes_n]];
        for (side, g) in [g1, g2].into_iter().enumerate() {
            for a in 0..g.n {
                members[side][g.class[a] as usize].push(a as u32);
            }
        }
        // Pair numbering: class by class, gold-major.
        let mut pos = [vec![0u32; g1.n], vec![0u32; g2.n]];
        let mut first_of_class = vec![0usize; classes_n];
        let mut classes = Vec::new();
        let mut pair_nodes = Vec::new();
        let mut node_term = 0;
        for c in 0..classes_n {
            let (m1, m2) = (&members[0][c], &members[1][c]);
            if m1.len().saturating_mul(m2.len()) > MAX_CELLS {
                return None;
            }
            for (side, m) in [m1, m2].into_iter().enumerate() {
                for (i, &v) in m.iter().enumerate() {
                    pos[side][v as usize] = i as u32;
                }
            }
            first_of_class[c] = pair_nodes.len();
            for &a in m1 {
                for &x in m2 {
                    pair_nodes.push((a, x));
                }
            }
            node_term += m1.len().min(m2.len()) as u32;
            if m1.is_empty() || m2.is_empty() {
                continue;
            }
            let gold_rows = m1.len() <= m2.len();
            let (rows, cols) = if gold_rows {
                (m1.len(), m2.len())
            } else {
                (m2.len(), m1.len())
            };
            classes.push(Class {
                gold_rows,
                rows,
                cols,
                first: first_of_class[c],
                matrix: vec![0; cols * cols],
                dirty: Vec::new(),
                is_dirty: vec![false; cols],
                auction: Auction::default(),
                best_value: Vec::new(),
                best_price: Vec::new(),
            });
        }
        let pair_of = |a: usize, x: usize| -> usize {
            let c = g1.class[a] as usize;
            first_of_class[c] + pos[0][a] as usize * members[1][c].len() + pos[1][x] as usize
        };
        let pairs = pair_nodes.len();
        let mut slot = vec![(0u32, 0u32); pairs];
        for (k, class) in classes.iter().enumerate() {
            for local in 0..class.rows * class.cols {
                slot[class.first + local] = (k as u32, class.cell_of(local) as u32);
            }
        }
        let base: Vec<i64> = pair_nodes
            .iter()
            .map(|&(a, x)| preserved(g1.loops(a as usize), g2.loops(x as usize)) as i64 * UNIT)
            .collect();
        // Edge pairs: gold node pairs {a, b} (a < b) against ordered run
        // pairs (x, y) of the same classes.
        let mut edge_pairs = Vec::new();
        let mut per_pair: Vec<u32> = vec![0; pairs + 1];
        for a in 0..g1.n {
            let ca = g1.class[a];
            for (b, pab) in g1.neighbours(a) {
                if b <= a {
                    continue;
                }
                let cb = g1.class[b];
                for &x in &members[1][ca as usize] {
                    let x = x as usize;
                    for (y, pxy) in g2.neighbours(x) {
                        if g2.class[y] != cb {
                            continue;
                        }
                        let w = preserved(pab, pxy);
                        if w == 0 {
                            continue;
                        }
                        if edge_pairs.len() >= MAX_EDGE_PAIRS {
                            return None;
                        }
                        let ends = [pair_of(a, x) as u32, pair_of(b, y) as u32];
                        per_pair[ends[0] as usize] += 1;
                        per_pair[ends[1] as usize] += 1;
                        edge_pairs.push(EdgePair {
                            ends,
                            w: w as i64 * UNIT,
                            t: 0,
                        });
                    }
                }
            }
        }
        // Total weight must fit the i32 matrices with room for the splits.
        let total: i64 = edge_pairs.iter().map(|z| z.w).sum::<i64>() + base.iter().sum::<i64>();
        if total.saturating_mul(4) > i32::MAX as i64 {
            return None;
        }
        let mut cell_start = vec![0usize; pairs + 1];
        for p in 0..pairs {
            cell_start[p + 1] = cell_start[p] + per_pair[p] as usize;
        }
        let mut fill = cell_start.clone();
        let mut cells = vec![
            Cell {
                row: 0,
                col: 0,
                z: 0,
                end: 0
            };
            cell_start[pairs]
        ];
        // Rows and columns: the other end's gold and run nodes, numbered
        // per node pair below.
        let mut raw: Vec<(u32, u32)> = vec![(0, 0); cells.len()];
        for (zi, z) in edge_pairs.iter().enumerate() {
            for end in 0..2 {
                let p = z.ends[end] as usize;
                let (b, y) = pair_nodes[z.ends[1 - end] as usize];
                raw[fill[p]] = (b, y);
                cells[fill[p]] = Cell {
                    row: 0,
                    col: 0,
                    z: zi as u32,
                    end: end as u8,
                };
                fill[p] += 1;
            }
        }
        let mut shape = vec![(0u16, 0u16); pairs];
        let mut ids: Vec<u32> = Vec::new();
        for p in 0..pairs {
            let range = cell_start[p]..cell_start[p + 1];
            for (k, pick) in [0usize, 1].into_iter().enumerate() {
                ids.clear();
                ids.extend(
                    raw[range.clone()]
                        .iter()
                        .map(|&(b, y)| if pick == 0 { b } else { y }),
                );
                ids.sort_unstable();
                ids.dedup();
                if ids.len() > u16::MAX as usize {
                    return None;
                }
                for i in range.clone() {
                    let v = if pick == 0 { raw[i].0 } else { raw[i].1 };
                    let at = ids.binary_search(&v).unwrap_or(0) as u16;
                    if k == 0 {
                        cells[i].row = at;
                    } else {
                        cells[i].col = at;
                    }
                }
                if k == 0 {
                    shape[p].0 = ids.len() as u16;
                } else {
                    shape[p].1 = ids.len() as u16;
                }
            }
        }
        let chosen = vec![false; cells.len()];
        Some(Relaxation {
            g: [g1, g2],
            classes,
            base,
            inner: vec![0; pairs],
            cell_start,
            cells,
            chosen,
            shape,
            edge_pairs,
            slot,
            chosen_pairs: Vec::new(),
            best_inner: Vec::new(),
            best_t: Vec::new(),
            pair_nodes,
            node_term,
            label_target: None,
            look_for_mappings: true,
            pair_label: Vec::new(),
            lap: Lap::default(),
            small: Lap::default(),
            matrix: Vec::new(),
            row_dual: Vec::new(),
            col_dual: Vec::new(),
        })
    }

    /// Sets the splits of `start` when it is one of these graphs', else the
    /// incumbent's (`map`) overwritten by `start`'s where it has the edge
    /// pair; returns the first step scale.
    fn start(&mut self, start: Option<&Split>, map: &[(u32, u32)]) -> f64 {
        match start.filter(|s| s.t.len() == self.edge_pairs.len()) {
            Some(split) => {
                for (z, &t) in self.edge_pairs.iter_mut().zip(&split.t) {
                    z.t = t;
                }
                split.mu
            }
            None => {
                self.incumbent_split(map);
                if let Some(split) = start {
                    // Another level's split (the basic level from the
                    // intermediate one's): its edge pairs keep their split,
                    // the others the incumbent's, from [`WARM_SCALE`].
                    // Both levels list their edge pairs in the order of
                    // `edge_order` (built by the same loops): one merge.
                    let mut known: Vec<_> = split.ends.iter().zip(&split.t).collect();
                    if !known.is_sorted_by_key(|(ends, _)| edge_order(ends)) {
                        known.sort_by_key(|(ends, _)| edge_order(ends));
                    }
                    let mut next = known.iter().peekable();
                    let pair_nodes = &self.pair_nodes;
                    for z in &mut self.edge_pairs {
                        let key = edge_order(&z.ends.map(|p| pair_nodes[p as usize]));
                        while next.next_if(|(ends, _)| edge_order(ends) < key).is_some() {}
                        if let Some(&(_, &t)) = next.next_if(|(ends, _)| edge_order(ends) == key) {
                            z.t = t;
                        }
                    }
                    return WARM_SCALE;
                }
                FIRST_SCALE
            }
        }
    }

    /// An edge pair between a node pair of the incumbent mapping and one
    /// outside it is given wholly to the outside end; the others halves.
    fn incumbent_split(&mut self, map: &[(u32, u32)]) {
        let mut partner = vec![u32::MAX; self.g[0].n];
        for &(a, x) in map {
            if let Some(p) = partner.get_mut(a as usize) {
                *p = x;
            }
        }
        let on = |p: u32| {
            let (a, x) = self.pair_nodes[p as usize];
            partner.get(a as usize) == Some(&x)
        };
        let flags: Vec<[bool; 2]> = self
            .edge_pairs
            .iter()
            .map(|z| [on(z.ends[0]), on(z.ends[1])])
            .collect();
        for (z, f) in self.edge_pairs.iter_mut().zip(flags) {
            let half = z.w / 2;
            z.t = match f {
                [true, false] => -half,
                [false, true] => z.w - half,
                _ => 0,
            };
        }
    }

    /// The share of edge pair `z` at `end`.
    #[inline]
    fn share(&self, z: u32, end: u8) -> i64 {
        let z = &self.edge_pairs[z as usize];
        z.share_at(z.t, end)
    }

    /// Solves node pair `p`'s inner assignment (positive shares only).
    fn solve_inner(&mut self, p: usize) {
        let range = self.cell_start[p]..self.cell_start[p + 1];
        let (nr, nc) = (self.shape[p].0 as usize, self.shape[p].1 as usize);
        for i in range.clone() {
            self.chosen[i] = false;
        }
        if range.is_empty() {
            self.inner[p] = 0;
            return;
        }
        if nr == 1 || nc == 1 {
            // One row or one column: the best positive cell.
            let mut best: Option<(usize, i64)> = None;
            for i in range {
                let c = self.cells[i];
                let s = self.share(c.z, c.end);
                if s > 0 && best.is_none_or(|(_, b)| s > b) {
                    best = Some((i, s));
                }
            }
            self.inner[p] = best.map_or(0, |(i, s)| {
                self.chosen[i] = true;
                s
            });
            return;
        }
        // Rows the smaller dimension (the solver assigns every row).
        let transpose = nr > nc;
        let (rows, cols) = if transpose { (nc, nr) } else { (nr, nc) };
        self.matrix.clear();
        self.matrix.resize(rows * cols, 0);
        for i in range.clone() {
            let c = self.cells[i];
            let s = self.share(c.z, c.end).max(0) as i32;
            let (r, q) = if transpose {
                (c.col as usize, c.row as usize)
            } else {
                (c.row as usize, c.col as usize)
            };
            self.matrix[r * cols + q] = s;
        }
        let two = (rows == 2).then(|| Lap::two_rows(cols, &self.matrix));
        self.inner[p] = match two {
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
            let c = self.cells[i];
            let (r, q) = if transpose {
                (c.col as usize, c.row as usize)
            } else {
                (c.row as usize, c.col as usize)
            };
            let assigned = match two {
                Some((_, columns)) => columns[r] == q,
                None => self.small.row_of_column(q) == Some(r),
            };
            self.chosen[i] = assigned && self.matrix[r * cols + q] > 0;
        }
    }

    /// Sets node pair `p`'s weight in its class's matrix from its loops
    /// and inner optimum, and marks its row changed.
    fn set_weight(&mut self, p: usize) {
        let (k, at) = self.slot[p];
        let class = &mut self.classes[k as usize];
        class.matrix[at as usize] = (self.base[p] + self.inner[p]) as i32;
        let row = at as usize / class.cols;
        if !class.is_dirty[row] {
            class.is_dirty[row] = true;
            class.dirty.push(row as u32);
        }
    }

    /// Solves every class's outer assignment, lists the chosen node pairs
    /// and returns the bound on the edges in UNITs. The first step solves
    /// exactly (Hungarian method); later steps repair the last one by an
    /// ε-auction from its prices over the changed rows, whose prices and
    /// row potentials stay feasible: the bound stays valid, and a step
    /// costs O(changed rows · cols) and a few bids instead of
    /// O(rows² · cols).
    fn solve_outer(&mut self, epsilon: i64) -> i64 {
        let mut total = 0;
        self.chosen_pairs.clear();
        for class in &mut self.classes {
            let n = class.cols;
            let auction = &mut class.auction;
            let warm = !auction.price.is_empty()
                && auction.repair(n, &class.matrix, &class.dirty, AUCTION_BIDS * n, epsilon);
            if !warm {
                auction.solve_exactly(&mut self.lap, n, &class.matrix, epsilon);
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
        total
    }

    /// Keeps the current step's potentials as the best.
    fn keep_best(&mut self) {
        self.best_inner.clone_from(&self.inner);
        if self.label_target.is_none() {
            self.best_t.clear();
            self.best_t.extend(self.edge_pairs.iter().map(|z| z.t));
        }
        for class in &mut self.classes {
            class.best_value.clone_from(&class.auction.value);
            class.best_price.clone_from(&class.auction.price);
        }
    }

    /// The size bound of an edge bound in UNITs.
    fn size_bound(&self, edges: i64) -> u32 {
        self.node_term + (edges.max(0) / UNIT) as u32
    }

    /// [`Outcome::reduced`] of the best iteration's slack and optimum.
    fn reduced(&self, total: i64) -> Option<Reduced> {
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
                    let w = self.base[p] + self.best_inner[p];
                    let (a, x) = self.pair_nodes[p];
                    cost[a as usize * n2 + x as usize] =
                        (value + price - w).min(i32::MAX as i64) as i32;
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
            let e = &self.edge_pairs[z as usize];
            let t = self.best_t.get(z as usize).copied().unwrap_or(e.t);
            e.share_at(t, end).clamp(0, i32::MAX as i64) as i32
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

    /// The outer assignment as a mapping (gold, run), by gold index, and
    /// its size.
    fn outer_mapping(&self) -> (Vec<(u32, u32)>, u32) {
        let mut map: Vec<(u32, u32)> = self
            .chosen_pairs
            .iter()
            .map(|&p| self.pair_nodes[p as usize])
            .collect();
        map.sort_unstable();
        let size = evaluate(self.g[0], self.g[1], &map);
        (map, size)
    }

    /// The outer assignment as a mapping (gold, run), by gold index, and
    /// its size; polished by the swap-based local search (focused on the
    /// nodes at lost edges) when it is within [`POLISH_WITHIN`] of `best`.
    fn mapping(&self, best: u32, deadline: Option<Instant>) -> (Vec<(u32, u32)>, u32) {
        let (g1, g2) = (self.g[0], self.g[1]);
        let (map, size) = self.outer_mapping();
        if size + POLISH_WITHIN < best {
            return (map, size);
        }
        let mut partner = vec![NONE; g1.n];
        for &(a, x) in &map {
            partner[a as usize] = x;
        }
        let map = polished(g1, g2, partner, true, deadline);
        let size = evaluate(g1, g2, &map);
        (map, size)
    }

    fn run(
        &mut self,
        incumbent: u32,
        mut mu: f64,
        extra_steps: u32,
        deadline: Option<Instant>,
    ) -> Outcome {
        for p in 0..self.inner.len() {
            self.solve_inner(p);
            self.set_weight(p);
        }
        let mut out = Outcome::default();
        let mut best_size = incumbent;
        let mut label_best: Option<i64> = None;
        let mut best_bound = i64::MAX;
        let mut since_better = 0;
        // Label mode: no proof to wait for, `extra_steps` steps.
        let mut proved_at: Option<u32> = self.label_target.map(|_| 0);
        let mut g: Vec<i8> = vec![0; self.edge_pairs.len()];
        let mut moved: Vec<u32> = Vec::new();
        let mut touched: Vec<u32> = Vec::new();
        let mut mark = vec![false; self.inner.len()];
        let columns: i64 = self.classes.iter().map(|c| c.cols as i64).sum();
        let mut epsilon = EPSILON;
        loop {
            let value = self.solve_outer(epsilon);
            out.iterations += 1;
            if value < best_bound {
                best_bound = value;
                self.keep_best();
                since_better = 0;
            } else {
                since_better += 1;
                if since_better >= STALL_STEPS {
                    mu *= SHRINK;
                    since_better = 0;
                }
            }
            // Once the bound proves the best mapping largest, no mapping
            // can improve on it: the outer assignments are not evaluated
            // (nor polished) in the steps run past the proof.
            // (In UNITs, signed: without a first mapping the incumbent is 0,
            // below the node term.)
            let edges = |size: u32| (size as i64 - self.node_term as i64) * UNIT;
            let proved = best_bound < edges(best_size) + UNIT;
            if self.label_target.is_some() {
                // Label mode: an outer assignment of the incumbent's size
                // with fewer label units than the best so far is kept (a
                // cheap start for the cost search: on two 104- and 120-node
                // workload pairs it went 372 ms → 8 ms and 3.9 s → 26 ms).
                let (map, size) = self.outer_mapping();
                if size == best_size {
                    let units: i64 = self
                        .chosen_pairs
                        .iter()
                        .map(|&p| self.pair_label[p as usize])
                        .sum();
                    if label_best.is_none_or(|b| units < b) {
                        label_best = Some(units);
                        out.mapping = Some((map, best_size));
                    }
                }
            }
            if self.label_target.is_none() && self.look_for_mappings && !proved {
                let (map, size) = self.mapping(best_size, deadline);
                if size > best_size {
                    best_size = size;
                    out.mapping = Some((map, size));
                }
            }
            // Edges the bound still allows above the best mapping.
            let target = edges(best_size);
            if best_bound < target + UNIT {
                proved_at.get_or_insert(out.iterations);
            }
            let target = self.label_target.unwrap_or(target);
            if proved_at.is_some_and(|p| out.iterations >= p + extra_steps)
                || out.iterations >= MAX_ITERATIONS
                || mu < 1e-3
                || deadline.is_some_and(|d| Instant::now() >= d)
            {
                break;
            }
            // Subgradient: +1 where only end 0 uses the edge pair, -1
            // where only end 1 does.
            // (An edge pair has one cell at each end: g is -1, 0 or 1.)
            moved.clear();
            for &p in &self.chosen_pairs {
                let p = p as usize;
                for i in self.cell_start[p]..self.cell_start[p + 1] {
                    if self.chosen[i] {
                        let c = self.cells[i];
                        if g[c.z as usize] == 0 {
                            moved.push(c.z);
                        }
                        g[c.z as usize] += if c.end == 0 { 1 } else { -1 };
                    }
                }
            }
            let norm = moved.iter().filter(|&&z| g[z as usize] != 0).count() as i64;
            if norm == 0 {
                // Consistent: the outer assignment's size is the bound.
                break;
            }
            let step = (mu * (value - target) as f64 / norm as f64).max(1.0) as i64;
            // Label mode keeps the fine increment: its reduced costs prune
            // the cost search (coarse ones there, share 16: 3.80 M against
            // 3.25 M search nodes on 40 pairs of 60–130 nodes).
            if self.label_target.is_none() {
                epsilon = coarse_epsilon(best_bound - target, columns);
            }
            touched.clear();
            for &zi in &moved {
                let v = std::mem::take(&mut g[zi as usize]);
                if v == 0 {
                    continue;
                }
                let z = &mut self.edge_pairs[zi as usize];
                let limit = 2 * z.w;
                z.t = (z.t - step * v as i64).clamp(-limit, limit);
                for p in z.ends {
                    if !mark[p as usize] {
                        mark[p as usize] = true;
                        touched.push(p);
                    }
                }
            }
            for &p in &touched {
                mark[p as usize] = false;
                self.solve_inner(p as usize);
                self.set_weight(p as usize);
            }
        }
        out.bound = Some(self.size_bound(best_bound));
        out.reduced = self.reduced(best_bound);
        out.split = Some(Split {
            t: self.edge_pairs.iter().map(|z| z.t).collect(),
            mu,
            ends: self
                .edge_pairs
                .iter()
                .map(|z| z.ends.map(|p| self.pair_nodes[p as usize]))
                .collect(),
        });
        out
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::{Auction, EPSILON, UNIT, solve};
    use crate::flowchart::mcs::graph::Graph;
    use crate::flowchart::mcs::lap::Lap;
    use crate::flowchart::mcs::mapping::size as evaluate;
    use crate::flowchart::mcs::{Level, Settings};
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

    pub(crate) fn graph_strategy() -> impl Strategy<Value = (Vec<usize>, Vec<(usize, usize, bool)>)>
    {
        (
            prop::collection::vec(0..2usize, 0..=5),
            prop::collection::vec((0..5usize, 0..5usize, any::<bool>()), 0..=8),
        )
    }

    proptest! {
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
            let level = if typed { Level::Intermediate } else { Level::Basic };
            let settings = Settings::default();
            let g1 = Graph::new(&flowchart(&t.0, &t.1), &settings, level);
            let g2 = Graph::new(&flowchart(&s.0, &s.1), &settings, level);
            let all = mappings(&g1, &g2);
            let best = all
                .iter()
                .max_by_key(|m| evaluate(&g1, &g2, m))
                .cloned()
                .unwrap_or_default();
            let best_size = evaluate(&g1, &g2, &best);
            let start: (&[(u32, u32)], u32) = if from_best { (&best, best_size) } else { (&[], 0) };
            // From the best mapping, it is known largest: no mapping is
            // looked for.
            let out = solve(&g1, &g2, start, from_best, None, extra, None);
            prop_assert!(!from_best || out.mapping.is_none());
            // From no mapping (incumbent 0), the first outer assignment is
            // one (it maps every short-side node).
            prop_assert!(from_best || best_size == 0 || out.mapping.is_some());
            let bound = out.bound.expect("small graphs are always relaxed");
            prop_assert!(bound >= best_size, "bound {} below the maximum {}", bound, best_size);
            if let Some((map, size)) = &out.mapping {
                prop_assert_eq!(evaluate(&g1, &g2, map), *size);
                prop_assert!(*size > start.1);
            }
            let r = out.reduced.expect("small graphs get reduced costs");
            prop_assert!(r.cost.iter().all(|&c| c >= 0));
            for m in &all {
                let used: i64 = m.iter().map(|&(a, x)| r.cost(a as usize, x as usize) as i64).sum();
                prop_assert!(
                    r.size_bound(used) >= evaluate(&g1, &g2, m) as i64,
                    "reduced bound {} below a mapping of size {} (total {} units {})",
                    r.size_bound(used), evaluate(&g1, &g2, m), r.total, UNIT
                );
            }
            // With the losses (`local.rs`): for every mapping and every
            // prefix of it taken as the pairs mapped so far, the reduced
            // costs plus the losses of the prefix's pairs bound the size.
            let local = r.local.as_ref().expect("size mode keeps the inner assignments");
            let mut scratch = crate::flowchart::mcs::local::Scratch::default();
            for m in &all {
                let size = evaluate(&g1, &g2, m) as i64;
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
}
