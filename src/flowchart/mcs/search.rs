//! The branch and bound over node mappings (McGregor-style depth first).
//!
//! Default (non-induced) mode: adding a compatible pair never loses an edge,
//! so every maximum common subgraph maps every node of the short side of its
//! compatibility class. The variables are those nodes; each is given a
//! partner of its class on the other side, never left unmapped, and the node
//! term Σ_classes min(n1, n2) is constant.
//!
//! Induced mode (`--induced`): every gold node is a variable, may stay
//! unmapped, and a pair is allowed only when the edge counts between it and
//! every mapped pair agree in both graphs.
//!
//! Upper bound at every search node, maintained incrementally: the sum of
//! mapped nodes, Σ_classes min(free1, free2), preserved edges, the
//! free-to-mapped term (per mapped pair, neighbour class and slot, the smaller
//! of the two counts of edges to free nodes) and the free-to-free term (per
//! class pair and edge kind, the smaller of the two histograms; self-loops
//! per class). The edges still to gain are also bounded, where the
//! edge-split relaxation is switched off, by an assignment of the free
//! nodes on their local edge counts (`assign.rs`): solved at the root, its
//! dual potentials repaired at every search node; and, where the
//! edge-split relaxation ran (`lagrange.rs`), by its optimum less the
//! reduced costs of the mapped pairs and their losses (`local.rs`: the
//! share of their inner assignments the mapped pairs rule out). The least
//! of the bounds counts.

// Indexing: node indices < n and slot offsets < classes × slots by construction of
// the state arrays (sized from the two graphs in `Search::new`); checked access
// in the search loop costs measurable time.
#![allow(clippy::indexing_slicing)]

mod assign;
mod completions;
mod improve;
mod split;
mod state;

use super::graph::Graph;
use super::lagrange;
use super::local;
use super::mapping::{self, NONE, label_cost, mapped_pairs};
use super::swaps::polished;
use super::{Stats, Tuning};
pub(crate) use lagrange::{LABEL_STEPS, Reduced, Split};
pub(crate) use split::SPLIT_NODES;
use state::State;
use std::time::Instant;

/// Two label costs closer than this are equal: a mapping replaces the best
/// one only when it is cheaper by more than `COST_EPS`.
pub(crate) const COST_EPS: f64 = 1e-9;

/// What the search is after.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Goal {
    /// The largest size (mapped nodes + preserved edges).
    Max,
    /// Among mappings of size `target` (the maximum), the least label cost.
    Cost { target: u32 },
    /// Every mapping of size `target`, up to `limit`.
    Enumerate { target: u32, limit: u64 },
}

/// Per gold node, the loss (`local.rs`) counted for its mapped pair in
/// `Bound::reduced`, with the log to undo changes.
#[derive(Clone)]
struct Losses {
    /// The loss of each mapped gold node's pair.
    of_gold: Vec<i64>,
    /// (gold node, old loss) of every change, newest last.
    log: Vec<(u32, i64)>,
    /// Length of `log` when each mapped pair was added.
    marks: Vec<usize>,
    scratch: local::Scratch,
}

impl Losses {
    fn new(gold_nodes: usize) -> Self {
        Losses {
            of_gold: vec![0; gold_nodes],
            log: Vec::new(),
            marks: Vec::new(),
            scratch: local::Scratch::default(),
        }
    }

    /// Sets the losses of the pair (gold `a`, run `x`), just mapped, and of
    /// the mapped pairs next to it (whose inner assignments it changes);
    /// returns the change of their sum.
    fn update(
        &mut self,
        local: &local::Local,
        g: [&Graph; 2],
        partner: &[Vec<u32>; 2],
        a: usize,
        x: usize,
    ) -> i64 {
        let (loss, log, scratch) = (&mut self.of_gold, &mut self.log, &mut self.scratch);
        let mut change = 0;
        let mut set = |b: usize, y: usize| {
            let l = local.loss(b, y, partner, scratch);
            if l != loss[b] {
                log.push((b as u32, loss[b]));
                change += l - loss[b];
                loss[b] = l;
            }
        };
        set(a, x);
        for &b in &g[0].adj[a] {
            let y = partner[0][b as usize];
            if y != NONE {
                set(b as usize, y as usize);
            }
        }
        for &y in &g[1].adj[x] {
            let b = partner[1][y as usize];
            if b != NONE {
                set(b as usize, y as usize);
            }
        }
        change
    }

    /// Undoes the changes since the last mark (the pair last added).
    fn undo(&mut self) {
        let mark = self.marks.pop().unwrap_or(0);
        while self.log.len() > mark {
            if let Some((b, old)) = self.log.pop() {
                self.of_gold[b as usize] = old;
            }
        }
    }
}

/// The candidate partners at each depth of the walk, and where the walk
/// is in them (a task of a split search hands off the untried rest).
#[derive(Clone, Default)]
struct Lists {
    /// The partners of each depth's variable, best first (grown as
    /// needed).
    cands: Vec<Vec<Candidate>>,
    /// Index of the partner being tried at each depth.
    tried: Vec<u32>,
    /// Length of each depth's list.
    listed: Vec<usize>,
}

impl Lists {
    fn new(depth: usize) -> Self {
        Lists {
            cands: (0..depth).map(|_| Vec::new()).collect(),
            tried: vec![0; depth],
            listed: vec![0; depth],
        }
    }
}

/// The best of the current search: the goal's best mapping and, in the
/// enumeration, every mapping counted.
#[derive(Clone)]
struct Best {
    /// Size of the best mapping (−1: none yet).
    size: i64,
    /// Label cost of the best mapping (cost search).
    cost: f64,
    mapping: Vec<(u32, u32)>,
    /// Enumeration: label cost and mapped nodes of each mapping counted.
    costs: Vec<(f64, u32)>,
    /// Enumeration: mappings counted.
    found: u64,
    /// Enumeration: stopped at the limit.
    truncated: bool,
}

impl Best {
    fn empty() -> Self {
        Best {
            size: -1,
            cost: f64::INFINITY,
            mapping: Vec::new(),
            costs: Vec::new(),
            found: 0,
            truncated: false,
        }
    }

    /// Forgets the last search's results (keeping the buffers), starting
    /// from `size` and `cost` when known.
    fn reset(&mut self, start: Option<(u32, f64)>) {
        self.size = -1;
        self.cost = f64::INFINITY;
        self.mapping.clear();
        self.costs.clear();
        self.found = 0;
        self.truncated = false;
        if let Some((size, cost)) = start {
            self.size = size as i64;
            self.cost = cost;
        }
    }
}

/// What stops a search: the deadline, a search-node budget, or the search
/// itself (done, cut, or a split task cancelled).
#[derive(Clone, Debug, Default)]
struct Limits {
    /// Set to end the walk (checked at every search node).
    stop: bool,
    /// The deadline stopped the search: its result is not proven.
    timed_out: bool,
    /// Search-node count at which the search stops (`improve.rs`,
    /// [`Search::run_within`]).
    budget: Option<u64>,
    /// The budget stopped the last search.
    budget_hit: bool,
    deadline: Option<Instant>,
}

impl Limits {
    /// At the `nodes`-th search node (`cancelled`: a split task has nothing
    /// left to tell): stops at the deadline, the budget or the cancel. The
    /// clock is read at every node: a node costs microseconds (milliseconds
    /// on huge graphs), reading the clock nanoseconds.
    #[inline]
    fn check(&mut self, nodes: u64, cancelled: bool) {
        if self.past_deadline() {
            self.timed_out = true;
            self.stop = true;
        }
        if cancelled {
            self.stop = true;
        }
        if self.budget.is_some_and(|b| nodes >= b) {
            self.stop = true;
            self.budget_hit = true;
        }
    }

    #[inline]
    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// One candidate partner of the branching variable.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    node: u32,
    /// Upper bound on the size after adding the pair (look-ahead).
    bound: u32,
    gain: u32,
    ned: f64,
    /// 2 × same node type + same label as the variable (a hint for the
    /// order only).
    hint: u8,
    twin: u32,
    /// The relaxation's reduced cost of the pair (0 without it).
    reduced: i32,
}

/// One decision of the walk: a variable's partner, or (induced mode) the
/// variable left unmapped.
#[derive(Clone, Copy, Debug)]
pub(super) enum Step {
    Map { a: u32, x: u32, side: u8 },
    Skip { side: u8, v: u32 },
}

/// A known solution the search starts from.
#[derive(Clone, Debug)]
pub(crate) struct Incumbent {
    pub mapping: Vec<(u32, u32)>,
    pub size: u32,
    pub cost: f64,
}

/// The result of one search.
#[derive(Clone, Debug)]
pub(crate) struct SearchResult {
    /// Best size found (mapped nodes + preserved edges).
    pub size: u32,
    /// Proven upper bound on the size (== `size` when complete).
    pub upper: u32,
    /// False when the deadline cut the search.
    pub complete: bool,
    /// The best mapping: (gold index, run index), by gold index.
    pub mapping: Vec<(u32, u32)>,
    /// Enumerate goal: label cost and mapped nodes of every mapping found,
    /// in search order.
    pub costs: Vec<(f64, u32)>,
    /// Enumerate goal: stopped at the limit.
    pub truncated: bool,
}

/// The search state over one gold graph (side 0) and one run graph (side 1).
#[derive(Clone)]
pub(crate) struct Search<'g> {
    g: [&'g Graph; 2],
    induced: bool,
    tuning: Tuning,
    /// ned of gold node a and run node x at `a * n2 + x` (complete level).
    ned: Option<&'g [f64]>,
    /// Cheapest compatible partner's ned, per variable node.
    min_ned: [Vec<f64>; 2],
    /// Twin group of each node (the smallest index of its twins).
    twin: [Vec<u32>; 2],
    /// Enumeration (complete level): the twin groups, labels aside, on
    /// the candidate side of each class, whose orbits its leaves list
    /// (`completions.rs`); `None` when there are none.
    orbits: Option<[completions::Groups; 2]>,
    /// Variables as (side, node), in static order (degree descending).
    vars: Vec<(u8, u32)>,
    degree: [Vec<u32>; 2],
    /// The current search node.
    state: State,
    duals: assign::Duals,
    /// The relaxation's reduced costs (`lagrange.rs`): a bound at every
    /// search node from the sum over the mapped pairs (`Bound::reduced`),
    /// and partners that would take it below the goal are not tried.
    pub reduced: Option<lagrange::Reduced>,
    /// Subgradient steps after the relaxation's proof (see `lagrange.rs`):
    /// set where the complete level will prune with the reduced costs.
    pub relax_extra: u32,
    /// Where the last relaxation stopped (see [`lagrange::Split`]).
    pub split: Option<lagrange::Split>,
    /// The label relaxation (`lagrange::solve_labels`) and the size it
    /// bounds the label cost at: a lower bound at every node of the cost
    /// search.
    label_reduced: Option<(lagrange::Reduced, u32)>,
    /// The losses counted in `Bound::reduced` and their undo log.
    losses: Losses,
    root_bound: u32,
    /// The partners listed at each depth of the walk.
    lists: Lists,
    goal: Goal,
    /// The best mapping found by the current search.
    best: Best,
    /// When the current search stops.
    limits: Limits,
    /// In a task of a label search split over threads (`split.rs`).
    task: Option<split::Task>,
    pub stats: Stats,
}

impl<'g> Search<'g> {
    /// Sets up the state with every node free.
    pub fn new(
        g1: &'g Graph,
        g2: &'g Graph,
        induced: bool,
        tuning: Tuning,
        ned: Option<&'g [f64]>,
    ) -> Self {
        let g = [g1, g2];
        let mut s = Search {
            g,
            induced,
            tuning,
            ned,
            min_ned: [vec![0.0; g1.n], vec![0.0; g2.n]],
            twin: [twins(g1, ned.is_some()), twins(g2, ned.is_some())],
            orbits: None,
            vars: Vec::new(),
            degree: [degrees(g1), degrees(g2)],
            state: State::new(g),
            duals: assign::Duals::default(),
            reduced: None,
            relax_extra: 0,
            split: None,
            label_reduced: None,
            losses: Losses::new(g1.n),
            root_bound: 0,
            lists: Lists::default(),
            goal: Goal::Max,
            best: Best::empty(),
            limits: Limits::default(),
            task: None,
            stats: Stats::default(),
        };
        s.set_variables();
        s.set_label_tables();
        s.set_assignment_bound();
        s.root_bound = s.size_bound();
        // Candidate lists grow as needed (a depth's list holds the free
        // partners of one variable).
        s.lists = Lists::new(s.vars.len() + 1);
        s
    }

    /// With label distances (complete level): each variable's cheapest
    /// partner, whose sum over the open variables bounds the label cost
    /// still to come, and the twin groups whose orbits the enumeration
    /// lists.
    fn set_label_tables(&mut self) {
        let Some(ned) = self.ned else {
            return;
        };
        self.min_ned = min_partner_ned(self.g[0], self.g[1], ned);
        if self.tuning.twins && !self.induced {
            self.orbits = self.candidate_twins();
        }
        if !self.induced {
            self.state.bound.cost_rest = self
                .vars
                .iter()
                .map(|&(side, v)| self.min_ned[side as usize][v as usize])
                .sum();
        }
    }

    /// The assignment bound (`assign.rs`), only where the relaxation is
    /// off: with it, the assignment's three root solves cost more than
    /// they prune. Not in induced mode.
    fn set_assignment_bound(&mut self) {
        let state = &self.state;
        let row_side = (0..state.classes)
            .map(|c| u8::from(state.free_class[1][c] < state.free_class[0][c]))
            .collect();
        let tuning = &self.tuning;
        let on = tuning.assignment_bound && !tuning.lagrangian && !self.induced;
        self.duals = assign::Duals::new(on, [self.g[0].n, self.g[1].n], row_side);
    }

    /// Solves the assignment bound at the root (once; see `assign.rs`).
    fn init_duals(&mut self) {
        if let Some(sum) = self.duals.init(self.g, &self.state) {
            self.state.bound.dual_sum = sum;
        }
    }

    /// The twin groups (labels aside) of each class's candidate side (the
    /// side whose nodes are not variables), or `None` when there are none.
    fn candidate_twins(&self) -> Option<[completions::Groups; 2]> {
        let groups = [0usize, 1].map(|side| {
            let g = self.g[side];
            let mut first = twins(g, false);
            for (v, f) in first.iter_mut().enumerate() {
                if self.state.short_side(side, g.class[v] as usize) {
                    *f = v as u32;
                }
            }
            completions::Groups::new(&first)
        });
        match groups {
            [None, None] => None,
            [gold, run] => Some([gold.unwrap_or_default(), run.unwrap_or_default()]),
        }
    }

    fn set_variables(&mut self) {
        let mut vars: Vec<(u8, u32)> = Vec::new();
        if self.induced {
            vars.extend((0..self.g[0].n as u32).map(|a| (0, a)));
        } else {
            for side in 0..2u8 {
                let gr = self.g[side as usize];
                for a in 0..gr.n {
                    if self.state.short_side(side as usize, gr.class[a] as usize) {
                        vars.push((side, a as u32));
                    }
                }
            }
        }
        vars.sort_by_key(|&(side, v)| {
            (
                std::cmp::Reverse(self.degree[side as usize][v as usize]),
                side,
                v,
            )
        });
        self.vars = vars;
    }

    /// The upper bound on the size of any completion of the current state.
    fn size_bound(&self) -> u32 {
        let b = &self.state.bound;
        let mut rest = self.free_mapped_term() + self.free_free_term();
        if let Some(d) = self.duals.edges(self.state.bound.dual_sum) {
            rest = rest.min(d);
        }
        b.mapped + b.node_term + b.preserved + rest
    }

    /// The free-to-free term in use by [`Self::size_bound`].
    fn free_free_term(&self) -> u32 {
        if self.tuning.free_to_free {
            self.state.bound.free_free
        } else {
            self.state.free_edges_total[0].min(self.state.free_edges_total[1])
        }
    }

    /// The bound, tightened by the degree and variable terms when the cheap
    /// one is not enough to prune against `floor` (a completion must exceed it).
    fn tight_bound(&mut self, floor: i64) -> i64 {
        let relaxed = self.reduced_bound();
        if relaxed <= floor {
            return relaxed;
        }
        let b = self.state.bound;
        let base = (b.mapped + b.node_term + b.preserved) as i64;
        let (fm, mut ff) = (self.free_mapped_term(), self.free_free_term());
        let dual = self
            .duals
            .edges(self.state.bound.dual_sum)
            .unwrap_or(u32::MAX);
        let bound = |fm: u32, ff: u32, dual: u32| base + (fm + ff).min(dual) as i64;
        // Where the relaxation's reduced costs bound the node, the degree
        // bound is not computed: it costs a pass over the free nodes and a
        // sort per node, more time than the search nodes it saves there.
        if self.tuning.degree_bound && self.reduced.is_none() && bound(fm, ff, dual) > floor {
            ff = ff.min(self.state.degree_free_free());
        }
        bound(fm, ff, dual).min(relaxed)
    }

    /// The free-to-mapped term in use by [`Self::size_bound`].
    fn free_mapped_term(&self) -> u32 {
        if self.tuning.free_to_mapped {
            self.state.bound.free_mapped
        } else {
            let ff = [
                self.state.free_edges_total[0],
                self.state.free_edges_total[1],
            ];
            (self.state.open_edges[0] - ff[0]).min(self.state.open_edges[1] - ff[1])
        }
    }

    /// Maps the pair (gold `a`, run `x`): the state, the bound's
    /// relaxation and label terms and the assignment bound's potentials.
    fn map(&mut self, a: usize, x: usize) {
        self.state.add_pair(self.g, a, x);
        let bound = &mut self.state.bound;
        if let Some(r) = &self.reduced {
            bound.reduced += r.cost(a, x) as i64;
        }
        if let Some(ned) = self.ned {
            bound.cost += ned[a * self.g[1].n + x];
        }
        if let Some((r, _)) = &self.label_reduced {
            bound.label_used += r.cost(a, x) as i64;
        }
        self.state.add_mapped_edges(self.g, a, x, true);
        self.state.bound.dual_sum += self.duals.repair(self.g, &self.state, a, x);
    }

    /// Undoes [`Self::map`] (the bound is restored by the caller).
    fn unmap(&mut self, a: usize, x: usize) {
        self.duals.undo();
        self.state.remove_pair(self.g, a, x);
    }

    /// The open variable to branch on: most edges to mapped nodes, then the
    /// static order (degree descending, gold first, index).
    fn pick_variable(&self) -> Option<(u8, u32)> {
        let mut best: Option<(u8, u32)> = None;
        let mut best_w = 0;
        for &(side, v) in &self.vars {
            if !self.state.free[side as usize][v as usize] {
                continue;
            }
            let w = self.state.mapped_edges[side as usize][v as usize];
            if best.is_none() || w > best_w {
                best = Some((side, v));
                best_w = w;
            }
        }
        best
    }

    /// Fills `self.lists.cands[depth]` with the partners of `var`, best first.
    fn candidates(&mut self, depth: usize, var: (u8, u32)) -> Vec<Candidate> {
        self.partners(depth, var, false)
    }

    /// The first of [`Search::candidates`] alone (the greedy's choice):
    /// the look-ahead bound, most of the list's cost, is computed only for
    /// the partners that tie with the first on the keys ordered before it.
    fn first_candidate(&mut self, var: (u8, u32)) -> Option<u32> {
        let cands = self.partners(0, var, true);
        let first = cands.first().map(|c| c.node);
        self.lists.cands[0] = cands;
        first
    }

    /// The partners of `var` in their order; with `first_only`, only those
    /// that can come first.
    fn partners(&mut self, depth: usize, var: (u8, u32), first_only: bool) -> Vec<Candidate> {
        // The look-ahead bound orders the partners; an enumeration visits
        // them all, so it is not computed there.
        let look_ahead = self.tuning.value_ordering && !matches!(self.goal, Goal::Enumerate { .. });
        let mut cands = std::mem::take(&mut self.lists.cands[depth]);
        cands.clear();
        let (side, v) = (var.0 as usize, var.1 as usize);
        let other = 1 - side;
        let class = self.g[side].class[v];
        let og = self.g[other];
        for w in 0..og.n {
            if !self.state.free[other][w] || og.class[w] != class {
                continue;
            }
            let (a, x) = if side == 0 { (v, w) } else { (w, v) };
            if self.induced && !self.state.consistent(self.g, a, x) {
                continue;
            }
            // The label test here too (before the look-ahead bound), at
            // the cost known when the list is made: the current best, or
            // in a task of a split search the first mapping's (a task
            // that resumes the list at an index must make the same list).
            let listed = match &self.task {
                Some(t) => t.start_cost() - COST_EPS / 2.0,
                None => self.cost_limit(COST_EPS / 2.0),
            };
            if matches!(self.goal, Goal::Cost { .. }) && !self.labels_allowed(a, x, listed) {
                continue;
            }
            if !self.pair_allowed(a, x) {
                continue;
            }
            let ned = self.ned.map_or(0.0, |n| n[a * self.g[1].n + x]);
            let bound = if look_ahead && !first_only {
                self.look_ahead(a, x)
            } else {
                0
            };
            cands.push(Candidate {
                node: w as u32,
                bound,
                gain: self.state.gain(self.g, a, x),
                ned,
                hint: 2 * u8::from(self.g[0].types[a] == self.g[1].types[x])
                    + u8::from(self.g[0].labels[a] == self.g[1].labels[x]),
                twin: self.twin[other][w],
                reduced: self.reduced.as_ref().map_or(0, |r| r.cost(a, x)),
            });
        }
        if look_ahead && first_only {
            self.keep_leaders(var, &mut cands);
        }
        if self.tuning.value_ordering && matches!(self.goal, Goal::Cost { .. }) {
            // Cheapest labels first; pairs that cannot reach the target
            // are cut at once by the child's bound.
            cands.sort_by(|p, q| {
                p.ned
                    .total_cmp(&q.ned)
                    .then(q.bound.cmp(&p.bound))
                    .then(q.gain.cmp(&p.gain))
                    .then(p.twin.cmp(&q.twin))
                    .then(p.node.cmp(&q.node))
            });
        } else if self.tuning.value_ordering {
            cands.sort_by(|p, q| {
                p.reduced
                    .cmp(&q.reduced)
                    .then(q.hint.cmp(&p.hint))
                    .then(q.bound.cmp(&p.bound))
                    .then(q.gain.cmp(&p.gain))
                    .then(p.ned.total_cmp(&q.ned))
                    .then(p.twin.cmp(&q.twin))
                    .then(p.node.cmp(&q.node))
            });
        } else {
            cands.sort_by(|p, q| p.twin.cmp(&q.twin).then(p.node.cmp(&q.node)));
        }
        cands
    }

    /// The size bound after adding the pair (gold `a`, run `x`).
    fn look_ahead(&mut self, a: usize, x: usize) -> u32 {
        let saved = self.state.bound;
        self.map(a, x);
        let b = self.size_bound();
        self.unmap(a, x);
        self.state.bound = saved;
        b
    }

    /// Keeps the candidates that tie with the best on the keys the order
    /// compares before the look-ahead bound (the label distance in the
    /// cost search; else the reduced cost, then the hint) and computes
    /// their bounds: the first of the full order is among them.
    fn keep_leaders(&mut self, var: (u8, u32), cands: &mut Vec<Candidate>) {
        let cost = matches!(self.goal, Goal::Cost { .. });
        let before = |p: &Candidate, q: &Candidate| {
            if cost {
                p.ned.total_cmp(&q.ned)
            } else {
                p.reduced.cmp(&q.reduced).then(q.hint.cmp(&p.hint))
            }
        };
        let Some(best) = cands.iter().copied().min_by(|p, q| before(p, q)) else {
            return;
        };
        cands.retain(|c| before(c, &best).is_eq());
        for c in cands.iter_mut() {
            let (a, x) = if var.0 == 0 {
                (var.1 as usize, c.node as usize)
            } else {
                (c.node as usize, var.1 as usize)
            };
            c.bound = self.look_ahead(a, x);
        }
    }

    /// In the cost search, false when the label relaxation proves that no
    /// completion with the pair (gold `a`, run `x`) added costs less than
    /// `limit`. (Asked when the partners are listed and again at the
    /// pair's turn, when the best may be cheaper.)
    fn labels_allowed(&self, a: usize, x: usize, limit: f64) -> bool {
        let more = self
            .label_reduced
            .as_ref()
            .map_or(0, |(r, _)| r.cost(a, x) as i64);
        self.label_floor(more) < limit
    }

    /// False when the relaxation proves that no completion with the pair
    /// (gold `a`, run `x`) added reaches the goal's threshold (more than
    /// the best size, or the target size).
    fn pair_allowed(&mut self, a: usize, x: usize) -> bool {
        let Some(r) = &self.reduced else {
            return true;
        };
        let threshold = match self.goal {
            Goal::Max => self.best.size + 1,
            Goal::Cost { target } | Goal::Enumerate { target, .. } => target as i64,
        };
        let mut used = self.state.bound.reduced + r.cost(a, x) as i64;
        // The pair's loss where its reduced cost alone does not rule it
        // out (its neighbours' changes are counted once it is mapped).
        if let Some(local) = r.local.as_ref().filter(|_| self.tuning.local_loss)
            && r.size_bound(used) >= threshold
        {
            used += local.loss(a, x, &self.state.partner, &mut self.losses.scratch);
        }
        r.size_bound(used) >= threshold
    }

    /// Adds the loss of the pair (gold `a`, run `x`), just mapped, and the
    /// changes of the mapped pairs next to it, to `Bound::reduced`.
    fn add_loss(&mut self, a: usize, x: usize) {
        self.losses.marks.push(self.losses.log.len());
        let Some(local) = self.reduced.as_ref().and_then(|r| r.local.as_ref()) else {
            return;
        };
        if !self.tuning.local_loss {
            return;
        }
        self.state.bound.reduced += self.losses.update(local, self.g, &self.state.partner, a, x);
    }

    /// The cost search prunes where a lower bound on the label cost
    /// reaches this: the best cost less `eps`; in a task of a split search
    /// also another task's best cost *more* `COST_EPS` (`split.rs`: a
    /// mapping of the same cost found by a later task must not hide an
    /// earlier one).
    fn cost_limit(&self, eps: f64) -> f64 {
        let own = self.best.cost - eps;
        self.task
            .as_ref()
            .map_or(own, |t| own.min(t.best_cost() + COST_EPS))
    }

    /// The label relaxation's least label cost of any completion with
    /// `more` added to the mapped pairs' reduced costs (−∞ without it).
    fn label_floor(&self, more: i64) -> f64 {
        self.label_reduced
            .as_ref()
            .map_or(f64::NEG_INFINITY, |(r, size)| {
                r.label_bound(*size, self.state.bound.label_used + more)
            })
    }

    /// [`Self::run`] within `nodes` search nodes; none when they were not
    /// enough.
    pub fn run_within(
        &mut self,
        goal: Goal,
        start: Option<Incumbent>,
        deadline: Option<Instant>,
        nodes: u64,
    ) -> Option<SearchResult> {
        self.limits.budget = Some(self.stats.nodes + nodes);
        self.limits.budget_hit = false;
        let out = self.run(goal, start, deadline);
        self.limits.budget = None;
        (!self.limits.budget_hit).then_some(out)
    }

    /// Sharpens the bounds of the label searches of mappings of `known`'s
    /// size: the size relaxation runs on for [`LABEL_STEPS`] steps from
    /// where it stopped (from the start where it never ran), and with
    /// `labels` the label relaxation follows from there; returns a mapping
    /// of that size cheaper than `known` when the label relaxation met one.
    pub fn sharpen(
        &mut self,
        known: &Incumbent,
        labels: bool,
        deadline: Option<Instant>,
    ) -> Option<Incumbent> {
        let split = self.split.take();
        self.relax_extra = LABEL_STEPS;
        self.relax_from((&known.mapping, known.size, true), split.as_ref(), deadline);
        if labels {
            self.relax_labels(&known.mapping, known.size, known.cost, deadline)
        } else {
            None
        }
    }

    /// Runs the label relaxation for the cost search of mappings of `size`
    /// (`map` one of them, of label cost `cost`), from the last
    /// relaxation's split; not where every node's cheapest partner already
    /// proves `cost` least. Returns the cheapest of its outer assignments
    /// of `size` when it is cheaper than `cost`.
    fn relax_labels(
        &mut self,
        map: &[(u32, u32)],
        size: u32,
        cost: f64,
        deadline: Option<Instant>,
    ) -> Option<Incumbent> {
        let ned = self
            .ned
            .filter(|_| !self.induced && self.tuning.lagrangian)?;
        if self.state.bound.cost_rest >= cost - COST_EPS {
            return None;
        }
        let scale = lagrange::LABEL_SCALE as f64;
        let labels: Vec<i64> = ned.iter().map(|&d| (d * scale).floor() as i64).collect();
        let split = self.split.take();
        let out = lagrange::solve_labels(
            self.g[0],
            self.g[1],
            &labels,
            (map, size),
            split.as_ref(),
            lagrange::LABEL_STEPS,
            deadline,
        );
        self.label_reduced = out.0.map(|r| (r, size));
        let mapping = out.1?;
        let found = label_cost(ned, self.g[1].n, &mapping);
        (found < cost - COST_EPS).then_some(Incumbent {
            mapping,
            size,
            cost: found,
        })
    }

    /// The relaxation's bound on the size of any completion.
    fn reduced_bound(&self) -> i64 {
        self.reduced
            .as_ref()
            .map_or(i64::MAX, |r| r.size_bound(self.state.bound.reduced))
    }

    /// Counts a search node and sees whether the search must stop.
    fn check_time(&mut self) {
        self.stats.nodes += 1;
        let cancelled = self.task.as_ref().is_some_and(|t| t.cancelled());
        self.limits.check(self.stats.nodes, cancelled);
    }

    /// The first free node of `var`'s class on the other side.
    fn first_free_partner(&self, var: (u8, u32)) -> Option<u32> {
        let (side, v) = (var.0 as usize, var.1 as usize);
        let class = self.g[side].class[v] as usize;
        self.state.by_class[1 - side]
            .get(class)?
            .iter()
            .copied()
            .find(|&w| self.state.free[1 - side][w as usize])
    }

    /// True when nothing below the current state can improve on the goal.
    fn pruned(&mut self) -> bool {
        match self.goal {
            Goal::Max => self.tight_bound(self.best.size) <= self.best.size,
            Goal::Cost { target } => {
                self.state.bound.cost + self.state.bound.cost_rest >= self.cost_limit(COST_EPS)
                    || self.label_floor(0) >= self.cost_limit(COST_EPS / 2.0)
                    || self.tight_bound(target as i64 - 1) < target as i64
            }
            Goal::Enumerate { target, .. } => self.tight_bound(target as i64 - 1) < target as i64,
        }
    }

    fn leaf(&mut self) {
        let size = (self.state.bound.mapped + self.state.bound.preserved) as i64;
        match self.goal {
            Goal::Max => {
                if size > self.best.size {
                    self.best.size = size;
                    self.record();
                    if size >= self.root_bound as i64 {
                        self.limits.stop = true;
                    }
                }
            }
            Goal::Cost { target } => {
                if size == target as i64 && self.state.bound.cost < self.best.cost - COST_EPS {
                    self.best.cost = self.state.bound.cost;
                    if let Some(t) = &self.task {
                        t.offer(self.best.cost);
                    }
                    self.best.size = size;
                    self.record();
                }
            }
            Goal::Enumerate { target, limit } => {
                if size != target as i64 || (self.lists_orbits() && self.list_orbit(target, limit))
                {
                    return;
                }
                let cost = self.mapping_cost();
                if self.count_mapping(cost, self.state.bound.mapped, limit) == Some(true) {
                    self.best.size = size;
                    self.record();
                }
            }
        }
    }

    /// Counts one mapping of the enumeration (its label cost and mapped
    /// nodes): `Some(true)` for the first one, `None` (and the search
    /// stops, cut) when `limit` mappings are already counted.
    fn count_mapping(&mut self, cost: f64, mapped: u32, limit: u64) -> Option<bool> {
        let own = self.best.found >= limit;
        if self
            .task
            .as_ref()
            .is_some_and(|t| t.past_limit(self.best.found, own))
            || own
        {
            self.best.truncated = true;
            self.limits.stop = true;
            return None;
        }
        self.best.found += 1;
        self.best.costs.push((cost, mapped));
        if let Some(t) = &self.task {
            t.counted(self.best.found);
        }
        Some(self.best.found == 1)
    }

    /// The label cost of the current mapping summed in gold order, as
    /// [`label_cost`] (the running sum follows the search's order).
    fn mapping_cost(&self) -> f64 {
        let Some(ned) = self.ned else {
            return 0.0;
        };
        let n2 = self.g[1].n;
        self.state.partner[0]
            .iter()
            .enumerate()
            .filter(|&(_, &x)| x != NONE)
            .map(|(a, &x)| ned[a * n2 + x as usize])
            .sum()
    }

    fn record(&mut self) {
        self.best.mapping.clear();
        self.best
            .mapping
            .extend(mapped_pairs(&self.state.partner[0]));
    }

    fn dfs(&mut self, depth: usize) {
        self.check_time();
        if self.limits.stop || self.pruned() || self.handed_off(depth) {
            return;
        }
        if let Goal::Enumerate { target, limit } = self.goal
            && self.completions_all_reach(target)
        {
            self.list_completions(target, limit);
            return;
        }
        let Some(var) = self.pick_variable() else {
            self.leaf();
            return;
        };
        self.branch(depth, var, 0);
    }

    /// Tries the partners of `var` from the `from`-th in their order (then,
    /// in induced mode, leaving it unmapped), each followed by the walk
    /// below.
    fn branch(&mut self, depth: usize, var: (u8, u32), from: usize) {
        let cands = self.candidates(depth, var);
        self.lists.listed[depth] = cands.len();
        let saved = self.state.bound;
        let (side, v) = (var.0 as usize, var.1 as usize);
        let use_twins = self.tuning.twins && !matches!(self.goal, Goal::Enumerate { .. });
        let orbits = self.lists_orbits();
        // (Resumed at `from` by a task of a split search: the partner
        // tried before it was `from − 1` or a twin of it.)
        let mut prev_twin = from
            .checked_sub(1)
            .and_then(|i| cands.get(i))
            .map_or(NONE, |c| c.twin);
        for (i, cand) in cands.iter().enumerate().skip(from) {
            if use_twins && cand.twin == prev_twin {
                continue;
            }
            if orbits && !self.first_free_twin(1 - side, cand.node as usize) {
                continue;
            }
            prev_twin = cand.twin;
            let (a, x) = if side == 0 {
                (v as u32, cand.node)
            } else {
                (cand.node, v as u32)
            };
            if matches!(self.goal, Goal::Cost { .. })
                && !self.labels_allowed(a as usize, x as usize, self.cost_limit(COST_EPS / 2.0))
            {
                continue;
            }
            let step = Step::Map {
                a,
                x,
                side: side as u8,
            };
            self.lists.tried[depth] = i as u32;
            self.descend(step);
            self.dfs(depth + 1);
            self.ascend(step);
            self.state.bound = saved;
            if self.limits.stop || self.pruned() {
                break;
            }
        }
        if self.induced && !self.limits.stop {
            let step = Step::Skip {
                side: side as u8,
                v: v as u32,
            };
            self.descend(step);
            self.dfs(depth + 1);
            self.ascend(step);
            self.state.bound = saved;
        }
        self.lists.cands[depth] = cands;
    }

    /// Takes one decision of the walk (its bound changes; undone by
    /// [`Self::ascend`] and restoring the bound).
    fn descend(&mut self, step: Step) {
        match step {
            Step::Map { a, x, side } => {
                let (a, x) = (a as usize, x as usize);
                self.map(a, x);
                self.add_loss(a, x);
                let v = if side == 0 { a } else { x };
                self.state.bound.cost_rest -= if self.induced {
                    0.0
                } else {
                    self.min_ned[side as usize][v]
                };
            }
            Step::Skip { side, v } => {
                let side = side as usize;
                self.state.remove_free(self.g[side], side, v as usize);
            }
        }
        if let Some(t) = &mut self.task {
            t.path.push(step);
        }
    }

    fn ascend(&mut self, step: Step) {
        match step {
            Step::Map { a, x, .. } => {
                self.losses.undo();
                self.unmap(a as usize, x as usize);
            }
            Step::Skip { side, v } => {
                let side = side as usize;
                self.state.restore_free(self.g[side], side, v as usize);
            }
        }
        if let Some(t) = &mut self.task {
            t.path.pop();
        }
    }

    /// A first mapping: `prefix` (pairs of a known mapping, possibly
    /// partial), completed by the search's first dive (greedy by edges
    /// gained), then pair swaps and moves to free partners while they gain
    /// edges.
    fn greedy(&mut self, prefix: &[(u32, u32)]) -> Vec<(u32, u32)> {
        let mut path = Vec::new();
        for &(a, x) in prefix {
            let (a, x) = (a as usize, x as usize);
            if self.state.free[0][a]
                && self.state.free[1][x]
                && self.g[0].class[a] == self.g[1].class[x]
            {
                let saved = self.state.bound;
                self.map(a, x);
                path.push((a, x, saved));
            }
        }
        while let Some(var) = self.pick_variable() {
            // Past the deadline, the rest take their first free partner
            // (a mapping all the same, found in O(n) per variable).
            let partner = if self.limits.past_deadline() {
                self.first_free_partner(var)
            } else {
                self.first_candidate(var)
            };
            let Some(w) = partner else {
                break;
            };
            let (a, x) = if var.0 == 0 {
                (var.1 as usize, w as usize)
            } else {
                (w as usize, var.1 as usize)
            };
            let saved = self.state.bound;
            self.map(a, x);
            path.push((a, x, saved));
        }
        let m: Vec<u32> = self.state.partner[0].clone();
        for &(a, x, saved) in path.iter().rev() {
            self.unmap(a, x);
            self.state.bound = saved;
        }
        polished(self.g[0], self.g[1], m, false, self.limits.deadline)
    }

    /// The edge-split relaxation (`lagrange.rs`): a tighter root bound and
    /// the mappings met on the way.
    fn relax(&mut self) {
        let incumbent = self.best.size.max(0) as u32;
        let map = std::mem::take(&mut self.best.mapping);
        let start = self.split.take();
        let better = self.relax_from(
            (&map, incumbent, false),
            start.as_ref(),
            self.limits.deadline,
        );
        self.best.mapping = map;
        if let Some((map, size)) = better {
            self.best.size = size as i64;
            self.best.mapping = map;
        }
    }

    /// Solves the relaxation from a known mapping of `size` (a complete
    /// one; `largest` when known to be a maximum), keeps its root bound
    /// and per-pair bounds, and returns a larger mapping when it met one.
    fn relax_from(
        &mut self,
        (map, size, largest): (&[(u32, u32)], u32, bool),
        start: Option<&lagrange::Split>,
        deadline: Option<Instant>,
    ) -> Option<(Vec<(u32, u32)>, u32)> {
        if self.induced || !self.tuning.lagrangian {
            return None;
        }
        let out = lagrange::solve(
            self.g[0],
            self.g[1],
            (map, size),
            largest,
            start,
            self.relax_extra,
            deadline,
        );
        self.split = out.split;
        if let Some(bound) = out.bound {
            self.root_bound = self.root_bound.min(bound);
        }
        if out.reduced.is_some() {
            self.reduced = out.reduced;
        }
        self.stats.relaxation_steps += out.iterations;
        out.mapping.filter(|&(_, s)| s > size)
    }

    /// Sets the goal and forgets the last search's results.
    fn reset(&mut self, goal: Goal, start: Option<Incumbent>, deadline: Option<Instant>) {
        self.goal = goal;
        self.limits.deadline = deadline;
        self.limits.stop = false;
        self.best.reset(start.as_ref().map(|s| (s.size, s.cost)));
        if let Some(start) = start {
            self.best.mapping = start.mapping;
        }
    }

    /// Runs the search for `goal` from the root, starting from a known
    /// solution of the goal when one is given.
    pub fn run(
        &mut self,
        goal: Goal,
        start: Option<Incumbent>,
        deadline: Option<Instant>,
    ) -> SearchResult {
        self.reset(goal, start, deadline);
        if goal == Goal::Max && !self.induced && self.tuning.incumbent {
            // From a known mapping (the basic level's seed, the intermediate
            // maximum), its completion only: the greedy from scratch as well
            // costs more than it finds.
            let map = if self.best.mapping.is_empty() {
                self.greedy(&[])
            } else {
                let known = std::mem::take(&mut self.best.mapping);
                let map = self.greedy(&known);
                self.best.mapping = known;
                map
            };
            let size = mapping::size(self.g[0], self.g[1], &map) as i64;
            if size > self.best.size {
                self.best.size = size;
                self.best.mapping = map;
            }
        }
        if goal != Goal::Max || self.best.size < self.root_bound as i64 {
            self.init_duals();
            self.root_bound = self.root_bound.min(self.size_bound());
        }
        let improvable =
            |s: &Self| goal == Goal::Max && !s.induced && s.best.size < s.root_bound as i64;
        // The first mapping, kept only where the relaxation may replace it.
        let first = improvable(self).then(|| (self.best.mapping.clone(), self.best.size));
        if improvable(self) && self.tuning.lagrangian {
            self.relax();
        }
        if improvable(self) && self.tuning.incumbent {
            self.improve();
            if let Some(first) = first.filter(|f| improvable(self) && f.1 < self.best.size) {
                // The relaxation's mapping can stall the improvement below
                // where the first mapping's neighbourhoods lead: both are
                // tried.
                let kept = (
                    std::mem::replace(&mut self.best.mapping, first.0),
                    self.best.size,
                );
                self.best.size = first.1;
                self.improve();
                if self.best.size < kept.1 {
                    (self.best.mapping, self.best.size) = kept;
                }
            }
        }
        self.stats.root_bound = self.root_bound;
        if goal == Goal::Max {
            self.stats.incumbent = self.best.size.max(0) as u32;
        }
        if goal != Goal::Max || self.best.size < self.root_bound as i64 {
            self.dfs(0);
        }
        let size = self.best.size.max(0) as u32;
        let complete = !self.limits.timed_out;
        SearchResult {
            size,
            upper: if complete { size } else { self.root_bound },
            complete,
            mapping: std::mem::take(&mut self.best.mapping),
            costs: std::mem::take(&mut self.best.costs),
            truncated: self.best.truncated,
        }
    }
}

fn degrees(g: &Graph) -> Vec<u32> {
    (0..g.n)
        .map(|a| {
            let loops: u32 = g.loops(a).iter().map(|&c| c as u32).sum();
            loops
                + g.adj[a]
                    .iter()
                    .map(|&b| g.pair(a, b as usize).iter().map(|&c| c as u32).sum::<u32>())
                    .sum::<u32>()
        })
        .collect()
}

/// Twin groups: nodes of one class with the same self-loops, the same edge
/// counts to every other node and a symmetric pair between them (so that
/// swapping them is an automorphism); with `labels`, also the same label.
/// Each node gets the smallest index of its group.
/// How many nodes of the same profile are compared with each group's first.
const TWIN_WINDOW: usize = 256;

fn twins(g: &Graph, labels: bool) -> Vec<u32> {
    let mut group: Vec<u32> = (0..g.n as u32).collect();
    let deg = degrees(g);
    let mut order: Vec<usize> = (0..g.n).collect();
    order.sort_by_key(|&a| (g.class[a], deg[a], g.adj[a].len(), a));
    for i in 0..order.len() {
        let a = order[i];
        if group[a] != a as u32 {
            continue;
        }
        // Being twins is an equivalence (same self-loops, label, symmetric
        // counts between them and equal counts to every other node carry
        // over), so comparing with the group's first node is enough. Only
        // the next TWIN_WINDOW nodes of the same profile are compared, so a
        // graph of many alike nodes costs O(n · TWIN_WINDOW), not O(n²):
        // twins missed only cost search time.
        for &b in order.iter().skip(i + 1).take(TWIN_WINDOW) {
            if g.class[b] != g.class[a] || deg[b] != deg[a] || g.adj[b].len() != g.adj[a].len() {
                break;
            }
            if group[b] == b as u32 && are_twins(g, a, b, labels) {
                group[b] = a as u32;
            }
        }
    }
    group
}

fn are_twins(g: &Graph, a: usize, b: usize, labels: bool) -> bool {
    if g.loops(a) != g.loops(b) || (labels && g.labels[a] != g.labels[b]) {
        return false;
    }
    if g.pair(a, b) != g.pair(b, a) {
        return false;
    }
    let others = |v: usize| {
        g.adj[v]
            .iter()
            .filter(move |&&w| w as usize != a && w as usize != b)
    };
    others(a).eq(others(b)) && others(a).all(|&w| g.pair(a, w as usize) == g.pair(b, w as usize))
}

/// For each node of each side, the least ned to a node of its class on the
/// other side (0 when there is none).
fn min_partner_ned(g1: &Graph, g2: &Graph, ned: &[f64]) -> [Vec<f64>; 2] {
    let mut m1 = vec![f64::INFINITY; g1.n];
    let mut m2 = vec![f64::INFINITY; g2.n];
    for a in 0..g1.n {
        for x in 0..g2.n {
            if g1.class[a] == g2.class[x] {
                let v = ned[a * g2.n + x];
                m1[a] = m1[a].min(v);
                m2[x] = m2[x].min(v);
            }
        }
    }
    for v in m1.iter_mut().chain(m2.iter_mut()) {
        if v.is_infinite() {
            *v = 0.0;
        }
    }
    [m1, m2]
}

#[cfg(test)]
mod tests {
    use super::lagrange::tests::{flowchart, graph_strategy};
    use super::{Goal, Search};
    use crate::flowchart::mcs::graph::Graph;
    use crate::flowchart::mcs::{Level, Settings, Tuning};
    use proptest::prelude::*;

    proptest! {
        /// The greedy's choice computed from the leading candidates alone
        /// is the first of the whole ordered list, at every step of a
        /// greedy walk, in the maximum and the cost searches (random label
        /// distances; node types vary the hint at the basic level).
        #[test]
        fn first_candidate_heads_the_list(
            t in graph_strategy(), s in graph_strategy(), typed in any::<bool>(),
            cost in any::<bool>(), ned in prop::collection::vec(0u8..3, 64),
        ) {
            let level = if typed { Level::Intermediate } else { Level::Basic };
            let settings = Settings::default();
            let g1 = Graph::new(&flowchart(&t.0, &t.1), &settings, level);
            let g2 = Graph::new(&flowchart(&s.0, &s.1), &settings, level);
            let ned: Vec<f64> = (0..g1.n * g2.n).map(|i| f64::from(ned[i % 64]) / 2.0).collect();
            let mut search = Search::new(&g1, &g2, false, Tuning::default(), Some(&ned));
            if cost {
                search.goal = Goal::Cost { target: 0 };
            }
            while let Some(var) = search.pick_variable() {
                let all = search.candidates(0, var);
                let head = all.first().map(|c| c.node);
                let first = search.first_candidate(var);
                prop_assert_eq!(first, head);
                let Some(w) = first else { break };
                let (a, x) = if var.0 == 0 { (var.1, w) } else { (w, var.1) };
                search.map(a as usize, x as usize);
            }
        }
    }
}
