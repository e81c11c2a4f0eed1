//! The relaxation's data and how it is built from two graphs: the node
//! pairs of every class, the edge pairs between them, each node pair's
//! cells (its inner assignment's entries) and each class's outer matrix.
//!
//! Numbering: node pairs class by class, gold-major within a class; edge
//! pairs by gold edge {a, b} (a < b), then run pair (x, y)
//! ([`edge_order`]); a node pair's cells in the order of its edge pairs.

use super::auction::Auction;
use crate::flowchart::mcs::graph::{Graph, preserved};
use crate::flowchart::mcs::lap::Lap;
use std::sync::Arc;

/// One edge in the fixed-point weights.
pub(crate) const UNIT: i64 = 1 << 10;

/// Label units per edge in [`super::solve_labels_keeping`] (a label cost of 1 weighs
/// this many UNITs against an edge's one).
pub(crate) const LABEL_SCALE: i64 = UNIT / 4;

/// The weight of a forbidden node pair in label mode: far below any
/// allowed pair's (at least −[`LABEL_SCALE`]), so that the outer
/// assignment keeps the fixed pairs; prices stay below `i32::MAX / 4`
/// (`auction.rs`), so weight − price stays within i32.
pub(super) const FORBIDDEN: i32 = -(i32::MAX / 4);

/// Subgradient steps at most: a cap for the pairs that stall, high enough
/// that large pairs, which converge slowly, still reach their proof (the
/// pairs that converge stop well before it).
pub(super) const MAX_ITERATIONS: u32 = 1000;

/// Edge pairs at most (memory ~ 24 bytes each): beyond, the relaxation is
/// not built and the cheaper bounds alone apply.
const MAX_EDGE_PAIRS: usize = 2_000_000;

/// Cells of one class's outer assignment at most (as in `search/assign.rs`).
const MAX_CELLS: usize = 40_000;

/// One edge pair: node pairs of its two ends, weight, split.
#[derive(Clone, Copy, Debug)]
pub(super) struct EdgePair {
    pub ends: [u32; 2],
    /// Edges preserved (in [`UNIT`]s: edges × UNIT).
    pub weight: i64,
    /// Share of end 0 minus half the weight (end 1 gets the opposite).
    pub shift: i64,
}

impl EdgePair {
    /// The share of end `end` (0 or 1) at shift `shift`.
    #[inline]
    pub fn share_at(&self, shift: i64, end: u8) -> i64 {
        let half = self.weight / 2;
        if end == 0 {
            half + shift
        } else {
            self.weight - half - shift
        }
    }
}

/// A cell of a node pair's inner assignment: gold neighbour row, run
/// neighbour column, the edge pair and which end the node pair is.
#[derive(Clone, Copy, Debug)]
pub(super) struct Cell {
    pub row: u16,
    pub col: u16,
    pub z: u32,
    pub end: u8,
}

/// One compatibility class's outer assignment.
#[derive(Clone, Debug)]
pub(super) struct Class {
    /// Rows are gold nodes (else run nodes).
    gold_rows: bool,
    /// Rows (short side) and columns of the class.
    pub rows: usize,
    pub cols: usize,
    /// Index of the node pair of (row i, col j) is `first + i * cols + j`
    /// when `gold_rows`, else `first + j * rows + i` (pairs are numbered
    /// gold-major).
    first: usize,
    /// The weights (loops + inner optimum of each node pair), `cols ×
    /// cols` row major, the rows past `rows` zero; kept between steps and
    /// changed where a step changed an inner optimum.
    pub matrix: Vec<i32>,
    /// Rows with a changed weight since the last outer assignment.
    pub dirty: Vec<u32>,
    pub is_dirty: Vec<bool>,
    /// Warm state of the ε-auction between steps (empty before the first
    /// exact solve).
    pub auction: Auction,
    /// Row potentials and prices of the step of least bound.
    pub best_value: Vec<i64>,
    pub best_price: Vec<i32>,
}

impl Class {
    /// The node pair at (row `i`, column `j`).
    #[inline]
    pub fn pair(&self, i: usize, j: usize) -> usize {
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

/// The relaxation of two graphs at its current split, with the state the
/// subgradient steps keep between them.
#[derive(Clone)]
pub(super) struct Relaxation<'g> {
    pub g: [&'g Graph; 2],
    pub classes: Vec<Class>,
    /// Per node pair: loops preserved (in UNITs).
    pub base: Vec<i64>,
    /// Per node pair: inner optimum (in UNITs).
    pub inner: Vec<i64>,
    /// Per node pair: its cells, `cell_start[p]..cell_start[p + 1]`
    /// (fixed once built: shared by the copies search nodes start from).
    pub cell_start: Arc<[usize]>,
    pub cells: Arc<[Cell]>,
    /// Per cell: chosen by the inner assignment.
    pub chosen: Vec<bool>,
    /// Per node pair: its inner assignment's size (rows, cols).
    pub shape: Vec<(u16, u16)>,
    pub edge_pairs: Vec<EdgePair>,
    /// Per node pair: its class and index in the class's matrix.
    pub slot: Vec<(u32, u32)>,
    /// The node pairs of the last outer assignment.
    pub chosen_pairs: Vec<u32>,
    /// Per node pair: the inner optimum of the step of least bound.
    pub best_inner: Vec<i64>,
    /// Per edge pair: its shift at the step of least bound.
    pub best_shift: Vec<i64>,
    /// Node pairs of each node, for the mapping: (gold, run) of pair p.
    pub pair_nodes: Vec<(u32, u32)>,
    /// Nodes every mapping the search builds maps (Σ_classes min(n1, n2)).
    pub node_term: u32,
    /// Label mode ([`super::solve_labels_keeping`]): the incumbent's value of
    /// edges × UNIT − label units, the Polyak target of every step.
    pub label_target: Option<i64>,
    /// Label mode restricted to a search node ([`super::Probe::label_floor`]):
    /// the walk stops once its bound reaches `label_target`, which then
    /// proves the node pruned.
    pub label_stop: bool,
    /// False when the incumbent is known largest (the label searches'
    /// sharpening): the outer assignments are then never evaluated.
    pub look_for_mappings: bool,
    /// Label mode: the label units of every pair (gold a, run x) at
    /// `a * n2 + x` (each node pair's weight is reduced by its own).
    pub label_units: Vec<i64>,
    /// Node pairs no mapping of the restricted relaxation contains
    /// ([`Self::restrict`]; empty: none): never counted as used by a step;
    /// their weight is zero in size mode, [`FORBIDDEN`] in label mode.
    pub forbidden: Vec<bool>,
    /// Label mode: node pairs that no mapping of the target size contains
    /// (the size relaxation's reduced cost of the pair alone exceeds its
    /// slack; empty: none), forbidden at the root and in every
    /// restriction of it.
    pub ruled_out: Vec<bool>,
    /// The cells a step's work is counted by: every cell, or once
    /// restricted the cells of the node pairs not forbidden (a restricted
    /// step skips the forbidden pairs and solves again only the pairs its
    /// moves touch: counted by every cell, a deep search node's step would
    /// be charged many times its time).
    pub work_cells: usize,
    /// Whether the steps are deflected (`steps.rs`); plain subgradient
    /// steps otherwise.
    pub deflect: bool,
    /// Steps at most.
    pub max_steps: u32,
    /// Steps in a row without a better bound after which the walk stops.
    pub patience: u32,
    /// Whether the reduced costs of the best step are made at the end.
    pub want_reduced: bool,
    /// Whether the outer assignments near the best size are polished by
    /// the local search (off in the search nodes' relaxations: there the
    /// polish costs more than their steps, and the walk finds the
    /// mappings).
    pub polish: bool,
    /// Whether every inner assignment and weight is set (after the first
    /// walk): a walk resumed from here solves only what changed.
    pub inner_solved: bool,
    /// Scratch of the outer assignments' exact solves.
    pub lap: Lap,
    /// Scratch of the inner assignments: solver, matrix and potentials.
    pub small: Lap,
    pub matrix: Vec<i32>,
    pub row_dual: Vec<i32>,
    pub col_dual: Vec<i32>,
}

/// The order of edge pairs ((a, x), (b, y)) in [`Relaxation::new`]: gold
/// edge {a, b} (a < b), then run pair (x, y).
pub(super) fn edge_order(ends: &[(u32, u32); 2]) -> (u32, u32, u32, u32) {
    let [(a, x), (b, y)] = *ends;
    (a, b, x, y)
}

impl<'g> Relaxation<'g> {
    /// The relaxation of `g1` and `g2` at split zero (inner and outer
    /// assignments not yet solved); `None` when it would be too large: a
    /// class past [`MAX_CELLS`] node pairs, more than [`MAX_EDGE_PAIRS`]
    /// edge pairs, weights that would not fit the i32 matrices, or an inner
    /// assignment past `u16` rows or columns.
    pub fn new(g1: &'g Graph, g2: &'g Graph) -> Option<Self> {
        let members = class_members(g1, g2);
        let numbering = PairNumbering::new(g1, g2, &members)?;
        let pairs = numbering.nodes.len();
        let mut slot = vec![(0u32, 0u32); pairs];
        for (k, class) in numbering.classes.iter().enumerate() {
            for local in 0..class.rows * class.cols {
                slot[class.first + local] = (k as u32, class.cell_of(local) as u32);
            }
        }
        let base: Vec<i64> = numbering
            .nodes
            .iter()
            .map(|&(a, x)| preserved(g1.loops(a as usize), g2.loops(x as usize)) as i64 * UNIT)
            .collect();
        let (edge_pairs, per_pair) = edge_pairs(g1, g2, &members[1], &numbering)?;
        // Total weight must fit the i32 matrices with room for the splits.
        let total: i64 =
            edge_pairs.iter().map(|z| z.weight).sum::<i64>() + base.iter().sum::<i64>();
        if total.saturating_mul(4) > i32::MAX as i64 {
            return None;
        }
        let (cell_start, mut cells, other_ends) =
            build_cells(&edge_pairs, &numbering.nodes, &per_pair);
        let shape = number_cells(&cell_start, &mut cells, &other_ends)?;
        let chosen = vec![false; cells.len()];
        let work_cells = cells.len();
        Some(Relaxation {
            g: [g1, g2],
            classes: numbering.classes,
            base,
            inner: vec![0; pairs],
            cell_start: cell_start.into(),
            cells: cells.into(),
            chosen,
            shape,
            edge_pairs,
            slot,
            chosen_pairs: Vec::new(),
            best_inner: Vec::new(),
            best_shift: Vec::new(),
            pair_nodes: numbering.nodes,
            node_term: numbering.node_term,
            label_target: None,
            label_stop: false,
            look_for_mappings: true,
            label_units: Vec::new(),
            forbidden: Vec::new(),
            ruled_out: Vec::new(),
            work_cells,
            deflect: true,
            max_steps: MAX_ITERATIONS,
            patience: u32::MAX,
            want_reduced: true,
            inner_solved: false,
            polish: true,
            lap: Lap::default(),
            small: Lap::default(),
            matrix: Vec::new(),
            row_dual: Vec::new(),
            col_dual: Vec::new(),
        })
    }
}

impl Relaxation<'_> {
    /// Restricts the relaxation to the mappings containing every pair of
    /// `fixed` (gold, run): the node pairs that share one node with a
    /// fixed pair are forbidden, as are the pairs [`Self::ruled_out`] (never a step's use; weight zero in size
    /// mode, where no weight is negative, and [`FORBIDDEN`] in label mode,
    /// where the fixed pairs' weights are: any weight keeps the bound
    /// valid, since no mapping with the fixed pairs contains them), and an
    /// edge pair with one forbidden end gives its whole weight to that end
    /// (a split like any other, so the bound stays valid; the allowed end
    /// can never realize it). Where the inner assignments are solved, only
    /// the node pairs this changes are solved again.
    pub fn restrict(&mut self, fixed: &[(u32, u32)]) {
        let mut partner = [vec![u32::MAX; self.g[0].n], vec![u32::MAX; self.g[1].n]];
        for &(a, x) in fixed {
            partner[0][a as usize] = x;
            partner[1][x as usize] = a;
        }
        self.forbidden = self
            .pair_nodes
            .iter()
            .enumerate()
            .map(|(p, &(a, x))| {
                let (pa, px) = (partner[0][a as usize], partner[1][x as usize]);
                ((pa != u32::MAX || px != u32::MAX) && pa != x)
                    || self.ruled_out.get(p) == Some(&true)
            })
            .collect();
        let mut touched = vec![false; self.forbidden.len()];
        self.work_cells = 0;
        for p in 0..self.forbidden.len() {
            if !self.forbidden[p] {
                self.work_cells += self.cell_start[p + 1] - self.cell_start[p];
                continue;
            }
            touched[p] = true;
            for i in self.cell_start[p]..self.cell_start[p + 1] {
                let c = self.cells[i];
                let z = &mut self.edge_pairs[c.z as usize];
                let other = z.ends[1 - c.end as usize] as usize;
                if self.forbidden[other] {
                    continue;
                }
                let half = z.weight / 2;
                // All of the weight at this (forbidden) end.
                z.shift = if c.end == 0 { z.weight - half } else { -half };
                touched[other] = true;
            }
        }
        if self.inner_solved {
            for p in (0..touched.len()).filter(|&p| touched[p]) {
                self.solve_inner(p);
                self.set_weight(p);
            }
        }
    }
}

/// Per side, per class: the nodes of the class, by index.
fn class_members(g1: &Graph, g2: &Graph) -> [Vec<Vec<u32>>; 2] {
    let classes = g1.class_count().max(g2.class_count());
    let mut members: [Vec<Vec<u32>>; 2] = [vec![Vec::new(); classes], vec![Vec::new(); classes]];
    for (side, g) in [g1, g2].into_iter().enumerate() {
        for a in 0..g.n {
            members[side][g.class[a] as usize].push(a as u32);
        }
    }
    members
}

/// The node pairs, numbered class by class, gold-major, and the outer
/// assignment of each class with both sides non-empty.
struct PairNumbering {
    /// (gold, run) of each node pair.
    nodes: Vec<(u32, u32)>,
    /// Per class: the number of its first node pair.
    first_of_class: Vec<usize>,
    /// Per side, per node: its position among its class's members.
    position: [Vec<u32>; 2],
    /// Per class: its run nodes.
    run_members: Vec<usize>,
    classes: Vec<Class>,
    node_term: u32,
}

impl PairNumbering {
    /// `None` when a class has more than [`MAX_CELLS`] node pairs.
    fn new(g1: &Graph, g2: &Graph, members: &[Vec<Vec<u32>>; 2]) -> Option<Self> {
        let class_count = members[0].len();
        let mut position = [vec![0u32; g1.n], vec![0u32; g2.n]];
        let mut first_of_class = vec![0usize; class_count];
        let mut classes = Vec::new();
        let mut nodes = Vec::new();
        let mut node_term = 0;
        for c in 0..class_count {
            let (m1, m2) = (&members[0][c], &members[1][c]);
            if m1.len().saturating_mul(m2.len()) > MAX_CELLS {
                return None;
            }
            for (side, m) in [m1, m2].into_iter().enumerate() {
                for (i, &v) in m.iter().enumerate() {
                    position[side][v as usize] = i as u32;
                }
            }
            first_of_class[c] = nodes.len();
            for &a in m1 {
                for &x in m2 {
                    nodes.push((a, x));
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
        let run_members = members[1].iter().map(Vec::len).collect();
        Some(PairNumbering {
            nodes,
            first_of_class,
            position,
            run_members,
            classes,
            node_term,
        })
    }

    /// The number of the node pair (gold `a` of class `c`, run `x`).
    #[inline]
    fn pair(&self, c: usize, a: usize, x: usize) -> usize {
        self.first_of_class[c]
            + self.position[0][a] as usize * self.run_members[c]
            + self.position[1][x] as usize
    }
}

/// Every edge pair, gold edges {a, b} (a < b) against ordered run pairs
/// (x, y) of the same classes that preserve an edge, at split zero, and
/// per node pair the number of edge pairs at it; `None` past
/// [`MAX_EDGE_PAIRS`].
fn edge_pairs(
    g1: &Graph,
    g2: &Graph,
    run_members: &[Vec<u32>],
    numbering: &PairNumbering,
) -> Option<(Vec<EdgePair>, Vec<u32>)> {
    let mut edge_pairs = Vec::new();
    let mut per_pair: Vec<u32> = vec![0; numbering.nodes.len() + 1];
    for a in 0..g1.n {
        let ca = g1.class[a] as usize;
        for (b, counts_ab) in g1.neighbours(a) {
            if b <= a {
                continue;
            }
            let cb = g1.class[b];
            for &x in &run_members[ca] {
                let x = x as usize;
                for (y, counts_xy) in g2.neighbours(x) {
                    if g2.class[y] != cb {
                        continue;
                    }
                    let edges = preserved(counts_ab, counts_xy);
                    if edges == 0 {
                        continue;
                    }
                    if edge_pairs.len() >= MAX_EDGE_PAIRS {
                        return None;
                    }
                    let ends = [
                        numbering.pair(ca, a, x) as u32,
                        numbering.pair(cb as usize, b, y) as u32,
                    ];
                    per_pair[ends[0] as usize] += 1;
                    per_pair[ends[1] as usize] += 1;
                    edge_pairs.push(EdgePair {
                        ends,
                        weight: edges as i64 * UNIT,
                        shift: 0,
                    });
                }
            }
        }
    }
    Some((edge_pairs, per_pair))
}

/// The cells of every node pair, one per edge pair at it, grouped by node
/// pair (`cell_start`), with row and column not yet numbered; and per
/// cell the other end's (gold, run) nodes, which number them.
fn build_cells(
    edge_pairs: &[EdgePair],
    pair_nodes: &[(u32, u32)],
    per_pair: &[u32],
) -> (Vec<usize>, Vec<Cell>, Vec<(u32, u32)>) {
    let pairs = pair_nodes.len();
    let mut cell_start = vec![0usize; pairs + 1];
    for p in 0..pairs {
        cell_start[p + 1] = cell_start[p] + per_pair[p] as usize;
    }
    let mut fill = cell_start.clone();
    let unnumbered = Cell {
        row: 0,
        col: 0,
        z: 0,
        end: 0,
    };
    let mut cells = vec![unnumbered; cell_start[pairs]];
    let mut other_ends: Vec<(u32, u32)> = vec![(0, 0); cells.len()];
    for (zi, z) in edge_pairs.iter().enumerate() {
        for end in 0..2 {
            let p = z.ends[end] as usize;
            other_ends[fill[p]] = pair_nodes[z.ends[1 - end] as usize];
            cells[fill[p]] = Cell {
                row: 0,
                col: 0,
                z: zi as u32,
                end: end as u8,
            };
            fill[p] += 1;
        }
    }
    (cell_start, cells, other_ends)
}

/// Numbers each node pair's rows (the other ends' gold nodes) and columns
/// (their run nodes) in ascending node order, sets them in the cells and
/// returns each node pair's (rows, cols); `None` past `u16`.
fn number_cells(
    cell_start: &[usize],
    cells: &mut [Cell],
    other_ends: &[(u32, u32)],
) -> Option<Vec<(u16, u16)>> {
    let pairs = cell_start.len() - 1;
    let mut shape = vec![(0u16, 0u16); pairs];
    let mut ids: Vec<u32> = Vec::new();
    for p in 0..pairs {
        let range = cell_start[p]..cell_start[p + 1];
        for gold in [true, false] {
            let node = |i: usize| {
                let (b, y) = other_ends[i];
                if gold { b } else { y }
            };
            ids.clear();
            ids.extend(range.clone().map(node));
            ids.sort_unstable();
            ids.dedup();
            if ids.len() > u16::MAX as usize {
                return None;
            }
            for i in range.clone() {
                let at = ids.binary_search(&node(i)).unwrap_or(0) as u16;
                if gold {
                    cells[i].row = at;
                } else {
                    cells[i].col = at;
                }
            }
            if gold {
                shape[p].0 = ids.len() as u16;
            } else {
                shape[p].1 = ids.len() as u16;
            }
        }
    }
    Some(shape)
}
