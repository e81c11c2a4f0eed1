//! The subgradient walk: where the splits start ([`Relaxation::start`]),
//! the steps that move them (Polyak's step towards the incumbent, along the
//! subgradient deflected by the last direction), the mappings the steps'
//! outer assignments give, and when the walk stops.

use super::auction::{EPSILON, coarse_epsilon};
use super::reduced::Reduced;
use super::relaxation::{Relaxation, UNIT, edge_order};
use crate::flowchart::mcs::clock::Clock;
use crate::flowchart::mcs::mapping;
use crate::flowchart::mcs::swaps::polished;

/// Outer assignments within this many of the best size are polished into
/// mappings by the local search: the near ones often polish into a larger
/// mapping, the far ones rarely, and polishing every one doubles the work.
const POLISH_WITHIN: u32 = 10;

/// Steps without a better bound after which the step scale shrinks by
/// [`SHRINK`]: patient enough for the bound to zig-zag down, short enough
/// not to waste steps at a scale that overshoots (the value that proves
/// the most bench pairs; see benches/EXPERIMENTS.md).
const STALL_STEPS: u32 = 20;

/// The first step scale (Polyak's step towards the incumbent times it)
/// and its factor after [`STALL_STEPS`] without a better bound; the walk
/// stops below [`LAST_SCALE`]. Steps larger than Polyak's at first and a
/// slow shrink prove more of the large bench pairs within a time limit
/// than Polyak's step halved on every stall.
const FIRST_SCALE: f64 = 2.0;
const SHRINK: f64 = 0.7;
const LAST_SCALE: f64 = 1e-3;

/// The first step scale from another level's split (the basic level from
/// the intermediate one's): that split is already near the other level's,
/// so the steps start smaller than from the incumbent's, but not much
/// smaller, since the optimum moves with the classes.
const WARM_SCALE: f64 = 1.5;

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
    /// The least bound of the steps, in UNITs: on the edges (size mode),
    /// on edges × UNIT − label units (label mode).
    pub value: i64,
    /// The reduced costs of the best iteration, a bound for every search
    /// node (none when the table of n1 · n2 pairs would be too large).
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
    /// Per edge pair: its shift (share of end 0 minus half the weight).
    shifts: Vec<i64>,
    /// The step scale to go on with.
    scale: f64,
    /// Per edge pair: its two node pairs as (gold, run) nodes, to carry
    /// the split over to the other level's graphs of the same two files.
    ends: Vec<[(u32, u32); 2]>,
    /// Whether plain steps reached it (else deflected ones).
    pub(super) plain: bool,
}

/// The walk's state between steps.
struct Walk {
    /// The step scale (Polyak's step towards the target times it).
    scale: f64,
    /// The least edge bound of the steps so far (UNITs).
    best_bound: i64,
    /// Steps since the best bound last fell (reset at each shrink of the
    /// scale too).
    since_better: u32,
    /// Steps since the best bound last fell.
    since_fell: u32,
    /// The size of the largest mapping known (the incumbent's at first).
    best_size: u32,
    /// Label mode: the fewest label units of an outer assignment of
    /// `best_size` met.
    label_best: Option<i64>,
    /// The step whose bound proved `best_size` the maximum (label mode: 0,
    /// there is nothing to prove; restricted to a search node: the step
    /// whose bound reached the target).
    proved_at: Option<u32>,
    /// The bidding increment of the next outer assignments.
    epsilon: i64,
    /// Per edge pair: the subgradient of this step, −1, 0 or 1 (all zero
    /// between steps).
    direction: Vec<i8>,
    /// The edge pairs used at some end this step.
    moved: Vec<u32>,
    /// The node pairs at an edge pair whose split moved, once each
    /// (`mark`).
    touched: Vec<u32>,
    mark: Vec<bool>,
    /// Per edge pair: the deflected direction of the last step (the
    /// subgradient plus a share of the direction before it).
    deflected: Vec<f64>,
    /// The edge pairs whose deflected direction is not zero.
    active: Vec<u32>,
}

impl Relaxation<'_> {
    /// Sets the splits of `start` when it is one of these graphs', else the
    /// incumbent's (`map`) overwritten by `start`'s where it has the edge
    /// pair; returns the first step scale.
    pub(super) fn start(&mut self, start: Option<&Split>, map: &[(u32, u32)]) -> f64 {
        match start.filter(|s| s.shifts.len() == self.edge_pairs.len()) {
            Some(split) => {
                for (z, &shift) in self.edge_pairs.iter_mut().zip(&split.shifts) {
                    z.shift = shift;
                }
                split.scale
            }
            None => {
                self.incumbent_split(map);
                if let Some(split) = start {
                    self.other_level_split(split);
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
            let half = z.weight / 2;
            z.shift = match f {
                [true, false] => -half,
                [false, true] => z.weight - half,
                _ => 0,
            };
        }
    }

    /// Another level's split (the basic level from the intermediate
    /// one's): its edge pairs keep their split, the others the incumbent's.
    /// Both levels list their edge pairs in the order of `edge_order`
    /// (built by the same loops): one merge.
    fn other_level_split(&mut self, split: &Split) {
        let mut known: Vec<_> = split.ends.iter().zip(&split.shifts).collect();
        if !known.is_sorted_by_key(|(ends, _)| edge_order(ends)) {
            known.sort_by_key(|(ends, _)| edge_order(ends));
        }
        let mut next = known.iter().peekable();
        let pair_nodes = &self.pair_nodes;
        for z in &mut self.edge_pairs {
            let key = edge_order(&z.ends.map(|p| pair_nodes[p as usize]));
            while next.next_if(|(ends, _)| edge_order(ends) < key).is_some() {}
            if let Some(&(_, &shift)) = next.next_if(|(ends, _)| edge_order(ends) == key) {
                z.shift = shift;
            }
        }
    }

    /// The size bound of an edge bound in UNITs.
    fn size_bound(&self, edges: i64) -> u32 {
        self.node_term + (edges.max(0) / UNIT) as u32
    }

    /// The edges of a mapping of `size`, in UNITs (signed: without a first
    /// mapping the incumbent is 0, below the node term).
    #[inline]
    fn edges(&self, size: u32) -> i64 {
        (size as i64 - self.node_term as i64) * UNIT
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
        let size = mapping::size(self.g[0], self.g[1], &map);
        (map, size)
    }

    /// The outer assignment as a mapping (gold, run), by gold index, and
    /// its size; polished by the swap-based local search (focused on the
    /// nodes at lost edges) when it is within [`POLISH_WITHIN`] of `best`.
    fn mapping(&self, best: u32, clock: Clock) -> (Vec<(u32, u32)>, u32) {
        let (g1, g2) = (self.g[0], self.g[1]);
        let (map, size) = self.outer_mapping();
        if !self.polish || size + POLISH_WITHIN < best {
            return (map, size);
        }
        let map = polished(g1, g2, mapping::partners(g1.n, &map), true, clock);
        let size = mapping::size(g1, g2, &map);
        (map, size)
    }

    /// Label mode: the outer assignment as a mapping of `size` with its
    /// label units, when it is one; else, within [`POLISH_WITHIN`] of
    /// `size`, polished by the local search, when that reaches `size`.
    /// The outer assignments trade edges for labels: the cheap ones often
    /// fall a few edges short of the maximum, and the local search gives
    /// those edges back while changing few pairs.
    fn label_mapping(&self, size: u32, clock: Clock) -> Option<(Vec<(u32, u32)>, i64)> {
        let (g1, g2) = (self.g[0], self.g[1]);
        let (mut map, found) = self.outer_mapping();
        if found != size {
            if !self.polish || found + POLISH_WITHIN < size {
                return None;
            }
            map = polished(g1, g2, mapping::partners(g1.n, &map), true, clock);
            if mapping::size(g1, g2, &map) != size {
                return None;
            }
        }
        let units = map
            .iter()
            .map(|&(a, x)| self.label_units[a as usize * g2.n + x as usize])
            .sum();
        Some((map, units))
    }

    /// Walks from the current splits at step scale `scale`, with a known
    /// mapping of size `incumbent`, until `extra_steps` steps after the
    /// bound proves the best mapping largest (label mode: `extra_steps`
    /// steps), [`MAX_ITERATIONS`](super::relaxation::MAX_ITERATIONS) (or
    /// `max_steps`), `patience` steps without a better bound, a scale below
    /// [`LAST_SCALE`], a consistent step or the clock's expiry.
    pub(super) fn run(
        &mut self,
        incumbent: u32,
        scale: f64,
        extra_steps: u32,
        clock: Clock,
    ) -> Outcome {
        if !self.inner_solved {
            self.solve_every_inner();
            self.inner_solved = true;
        }
        let mut out = Outcome::default();
        let mut walk = Walk {
            scale,
            best_bound: i64::MAX,
            since_better: 0,
            since_fell: 0,
            best_size: incumbent,
            label_best: None,
            proved_at: self.label_target.filter(|_| !self.label_stop).map(|_| 0),
            epsilon: EPSILON,
            direction: vec![0; self.edge_pairs.len()],
            moved: Vec::new(),
            touched: Vec::new(),
            mark: vec![false; self.inner.len()],
            deflected: vec![0.0; self.edge_pairs.len()],
            active: Vec::new(),
        };
        let columns: i64 = self.classes.iter().map(|c| c.cols as i64).sum();
        // A step's work: its cells (once restricted, those of the pairs
        // not forbidden), in units of 64.
        let step_work = (self.work_cells as u64).div_ceil(64).max(1);
        loop {
            let (value, exact_work) = self.solve_outer(walk.epsilon);
            out.iterations += 1;
            clock.spend(step_work + exact_work);
            self.record_bound(&mut walk, value);
            self.collect_mapping(&mut walk, &mut out, clock);
            // Size mode: edges the bound still allows above the best
            // mapping; label mode restricted to a search node: the target.
            let target = self.edges(walk.best_size);
            let proved = match self.label_target {
                Some(label) => self.label_stop && walk.best_bound <= label,
                None => walk.best_bound < target + UNIT,
            };
            if proved {
                walk.proved_at.get_or_insert(out.iterations);
            }
            let target = self.label_target.unwrap_or(target);
            if walk
                .proved_at
                .is_some_and(|p| out.iterations >= p + extra_steps)
                || out.iterations >= self.max_steps
                || walk.since_fell >= self.patience
                || walk.scale < LAST_SCALE
                || clock.expired()
            {
                break;
            }
            let nonzero = self.subgradient(&mut walk);
            if nonzero == 0 {
                // Consistent: the outer assignment's size is the bound.
                break;
            }
            // Plain steps: every entry of the subgradient is ±1, so its
            // squared norm is the count of nonzero entries.
            let norm = if self.deflect {
                deflect(&mut walk)
            } else {
                nonzero as f64
            };
            if norm <= 0.0 {
                break;
            }
            let step = walk.scale * (value - target) as f64 / norm;
            // Label mode keeps the fine increment: its reduced costs prune
            // the cost search, and coarse ones there prune less.
            if self.label_target.is_none() {
                walk.epsilon = coarse_epsilon(walk.best_bound - target, columns);
            }
            if self.deflect {
                self.take_step(&mut walk, step);
            } else {
                self.take_plain_step(&mut walk, step.round() as i64);
            }
        }
        out.bound = Some(self.size_bound(walk.best_bound));
        out.value = walk.best_bound;
        if self.want_reduced {
            out.reduced = self.reduced(walk.best_bound);
        }
        out.split = Some(self.split(walk.scale));
        out
    }

    /// The current splits and step scale `scale`, to resume from.
    fn split(&self, scale: f64) -> Split {
        Split {
            shifts: self.edge_pairs.iter().map(|z| z.shift).collect(),
            scale,
            ends: self
                .edge_pairs
                .iter()
                .map(|z| z.ends.map(|p| self.pair_nodes[p as usize]))
                .collect(),
            plain: !self.deflect,
        }
    }

    /// Keeps a step's edge bound `value` when it is the least so far;
    /// shrinks the scale after [`STALL_STEPS`] steps without one.
    #[inline]
    fn record_bound(&mut self, walk: &mut Walk, value: i64) {
        if value < walk.best_bound {
            walk.best_bound = value;
            // The best step's potentials serve only its reduced costs.
            if self.want_reduced {
                self.keep_best();
            }
            walk.since_better = 0;
            walk.since_fell = 0;
        } else {
            walk.since_fell += 1;
            walk.since_better += 1;
            if walk.since_better >= STALL_STEPS {
                walk.scale *= SHRINK;
                walk.since_better = 0;
            }
        }
    }

    /// The step's outer assignment as a mapping, kept in `out` when it
    /// improves on the best: in label mode, one of the incumbent's size
    /// (as it is or polished, [`Self::label_mapping`]) with fewer label
    /// units (a cheap start for the cost search); in size
    /// mode, a larger one, while the bound has not yet proved the best
    /// mapping largest (past the proof no mapping can improve on it, and
    /// the outer assignments are neither evaluated nor polished).
    #[inline]
    fn collect_mapping(&self, walk: &mut Walk, out: &mut Outcome, clock: Clock) {
        let proved = walk.best_bound < self.edges(walk.best_size) + UNIT;
        if self.label_target.is_some()
            && self.look_for_mappings
            && let Some((map, units)) = self.label_mapping(walk.best_size, clock)
            && walk.label_best.is_none_or(|b| units < b)
        {
            walk.label_best = Some(units);
            out.mapping = Some((map, walk.best_size));
        }
        if self.label_target.is_none() && self.look_for_mappings && !proved {
            let (map, size) = self.mapping(walk.best_size, clock);
            if size > walk.best_size {
                walk.best_size = size;
                out.mapping = Some((map, size));
            }
        }
    }

    /// The subgradient of the step into `walk.direction`: +1 where only
    /// end 0 uses the edge pair, −1 where only end 1 does (an edge pair has
    /// one cell at each end); returns how many edge pairs are nonzero.
    #[inline]
    fn subgradient(&self, walk: &mut Walk) -> i64 {
        let direction = &mut walk.direction;
        walk.moved.clear();
        for &p in &self.chosen_pairs {
            let p = p as usize;
            if self.forbidden.get(p) == Some(&true) {
                continue;
            }
            for i in self.cell_start[p]..self.cell_start[p + 1] {
                if self.chosen[i] {
                    let c = self.cells[i];
                    if direction[c.z as usize] == 0 {
                        walk.moved.push(c.z);
                    }
                    direction[c.z as usize] += if c.end == 0 { 1 } else { -1 };
                }
            }
        }
        walk.moved
            .iter()
            .filter(|&&z| direction[z as usize] != 0)
            .count() as i64
    }

    /// Moves every edge pair's split by `step` times its deflected
    /// direction (rounded to whole units, within twice its weight), and
    /// solves again the inner assignments of the node pairs at the edge
    /// pairs moved.
    #[inline]
    fn take_step(&mut self, walk: &mut Walk, step: f64) {
        walk.touched.clear();
        for i in 0..walk.active.len() {
            let zi = walk.active[i];
            let delta = (step * walk.deflected[zi as usize]).round() as i64;
            self.shift_split(zi, delta, walk);
        }
        self.solve_touched(walk);
    }

    /// The plain step: moves every edge pair's split by `step` against its
    /// subgradient (clearing it), as [`Self::take_step`] with the direction
    /// the subgradient itself, without the deflection's bookkeeping.
    #[inline]
    fn take_plain_step(&mut self, walk: &mut Walk, step: i64) {
        walk.touched.clear();
        for i in 0..walk.moved.len() {
            let zi = walk.moved[i];
            let g = std::mem::take(&mut walk.direction[zi as usize]);
            self.shift_split(zi, step * g as i64, walk);
        }
        self.solve_touched(walk);
    }

    /// Moves edge pair `zi`'s split by −`delta` (within twice its weight)
    /// and marks its two node pairs to be solved again.
    #[inline(always)]
    fn shift_split(&mut self, zi: u32, delta: i64, walk: &mut Walk) {
        if delta == 0 {
            return;
        }
        let z = &mut self.edge_pairs[zi as usize];
        let limit = 2 * z.weight;
        z.shift = (z.shift - delta).clamp(-limit, limit);
        for p in z.ends {
            if !walk.mark[p as usize] {
                walk.mark[p as usize] = true;
                walk.touched.push(p);
            }
        }
    }

    /// Solves again the inner assignments of the node pairs marked.
    #[inline]
    fn solve_touched(&mut self, walk: &mut Walk) {
        for &p in &walk.touched {
            walk.mark[p as usize] = false;
            self.solve_inner(p as usize);
            self.set_weight(p as usize);
        }
    }
}

/// The deflection's factor γ of the modified gradient step (Camerini,
/// Fratta and Maffioli): the direction before adds in when it makes an
/// obtuse angle with the subgradient, damping the zig-zag of plain steps.
const DEFLECTION: f64 = 1.5;

/// A deflected direction below this is dropped (it only decays).
const NEGLIGIBLE: f64 = 1e-3;

/// Folds the subgradient (`walk.direction` at `walk.moved`, cleared here)
/// into the deflected direction d ← g + β·d, β = max(0, −γ·g·d/|d|²),
/// γ = [`DEFLECTION`]; returns |d|².
fn deflect(walk: &mut Walk) -> f64 {
    let (mut dot, mut prev) = (0.0, 0.0);
    for &z in &walk.active {
        let d = walk.deflected[z as usize];
        dot += d * walk.direction[z as usize] as f64;
        prev += d * d;
    }
    let beta = if prev > 0.0 {
        (-DEFLECTION * dot / prev).max(0.0)
    } else {
        0.0
    };
    for &z in &walk.active {
        walk.deflected[z as usize] *= beta;
    }
    if beta == 0.0 {
        walk.active.clear();
    }
    for &z in &walk.moved {
        let g = std::mem::take(&mut walk.direction[z as usize]);
        let d = &mut walk.deflected[z as usize];
        if *d == 0.0 && g != 0 {
            walk.active.push(z);
        }
        *d += g as f64;
    }
    let deflected = &mut walk.deflected;
    walk.active.retain(|&z| {
        let d = &mut deflected[z as usize];
        if d.abs() < NEGLIGIBLE {
            *d = 0.0;
            false
        } else {
            true
        }
    });
    walk.active
        .iter()
        .map(|&z| deflected[z as usize].powi(2))
        .sum()
}
