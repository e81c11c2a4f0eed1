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
//! free-to-mapped term (per mapped pair, neighbour class and slot, the
//! smaller of the two counts of edges to free nodes) and the free-to-free
//! term (per class pair and edge kind, the smaller of the two counts of
//! edges among free nodes; self-loops per class). The edges still to gain
//! are also bounded, where the edge-split relaxation is switched off, by an
//! assignment of the free nodes on their local edge counts (`assign.rs`):
//! solved at the root, its dual potentials repaired at every search node;
//! and, where the edge-split relaxation ran (`lagrange/`), by its optimum
//! less the reduced costs of the mapped pairs and their losses (`local.rs`:
//! the share of their inner assignments the mapped pairs rule out). The
//! least of the bounds counts. Where none of them prunes a node of the
//! maximum search's walk, the relaxation restricted to the node's mapped
//! pairs is solved for a few steps (`relax.rs`) and prunes it when its
//! bound does; in the cost search, once its bounds were sharpened, the
//! label relaxation restricted the same way.
//!
//! This file holds the search's types, its setup and the walk (`run`,
//! `dfs`, `branch`, the leaves); one concern per file below it:
//!
//! - `state.rs`: the current search node (free sets, partners, edge
//!   counters, the bound's terms) and its incremental updates;
//! - `bounds.rs`: the bounds read from it and the pruning test;
//! - `assign.rs`: the assignment bound's dual potentials;
//! - `candidates.rs`: the variable to branch on and its ordered partners;
//! - `tables.rs`: degrees, twin groups, cheapest label partners;
//! - `relax.rs`: the search's use of the relaxations (`lagrange/`);
//! - `improve.rs`: the neighbourhood improvement of the first mapping;
//! - `completions.rs`: the enumeration's listing of many mappings at once;
//! - `split.rs`: a long label search split over threads.

// Indexing: node indices < n by construction of the search's arrays (sized
// from the two graphs in `Search::new`); checked access in the search loop
// costs measurable time.
#![allow(clippy::indexing_slicing)]

mod assign;
mod bounds;
mod candidates;
mod completions;
mod improve;
mod late;
mod relax;
mod split;
mod state;
mod tables;

use super::clock::Clock;
use super::graph::Graph;
use super::lagrange;
use super::mapping::{self, NONE, mapped_pairs};
use super::swaps::polished;
use super::{Stats, Tuning};
use bounds::Losses;
use candidates::Candidate;
pub(crate) use lagrange::{LABEL_STEPS, Reduced, Split};
use state::State;
use tables::{Tables, degrees, min_partner_ned, twins};

/// Search nodes of the short walk before the full neighbourhood search:
/// where the first mappings already hold a maximum, it usually proves it
/// in far fewer, and the full neighbourhood search is skipped.
const PROOF_NODES: u64 = 10_000;

/// How far below the root bound the best mapping (after the relaxation)
/// must lie for a short neighbourhood search to come before the short
/// walk. One below is most often the bound's rounding, a maximum the walk
/// proves; further below, a larger mapping is likely, and the
/// neighbourhood search finds one in far less work than the walk, whose
/// probes prove well but find slowly (see benches/EXPERIMENTS.md).
const FIRST_GAP: i64 = 2;

/// Search nodes of that first neighbourhood search (a round begun under
/// it may finish above it).
const FIRST_IMPROVE_NODES: u64 = 10_000;

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

/// What stops a search: the clock (deadline or work budget), a
/// search-node budget, or the search itself (done, cut, or a split task
/// cancelled).
#[derive(Clone, Debug, Default)]
struct Limits<'c> {
    /// Set to end the walk (checked at every search node).
    stop: bool,
    /// The clock stopped the search: its result is not proven.
    timed_out: bool,
    /// Search-node count at which the search stops (`improve.rs`,
    /// [`Search::run_within`]).
    budget: Option<u64>,
    /// The budget stopped the last search.
    budget_hit: bool,
    clock: Clock<'c>,
}

impl Limits<'_> {
    /// At the `nodes`-th search node (`cancelled`: a split task has nothing
    /// left to tell): spends the node's unit of work and stops when the
    /// clock has expired, at the budget or the cancel. The clock is read at
    /// every node: a node costs microseconds (milliseconds on huge graphs),
    /// reading the clock nanoseconds.
    #[inline]
    fn check(&mut self, nodes: u64, cancelled: bool) {
        self.clock.spend(1);
        if self.clock.expired() {
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
    /// False when the clock (deadline or work budget) cut the search.
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
    /// The variables, twin groups and cheapest label partners: made once.
    tables: Tables,
    /// The current search node.
    state: State,
    /// The assignment bound's potentials (`assign.rs`).
    duals: assign::Duals,
    /// The relaxation's reduced costs (`lagrange/`): a bound at every
    /// search node from the sum over the mapped pairs (`Bound::reduced`),
    /// and partners that would take it below the goal are not tried.
    pub reduced: Option<lagrange::Reduced>,
    /// Subgradient steps after the relaxation's proof (see `lagrange/`):
    /// set where the complete level will prune with the reduced costs.
    pub relax_extra: u32,
    /// Where the last relaxation stopped (see [`lagrange::Split`]).
    pub split: Option<lagrange::Split>,
    /// The maximum search's root relaxation, from which its search nodes'
    /// restricted relaxations start (`relax.rs`).
    probe: Option<lagrange::Probe<'g>>,
    /// The label relaxation (`lagrange::solve_labels_keeping`) and the size it
    /// bounds the label cost at: a lower bound at every node of the cost
    /// search.
    label_reduced: Option<(lagrange::Reduced, u32)>,
    /// The label relaxation where its walk stopped, from which the cost
    /// search's nodes start their restricted relaxations (`relax.rs`).
    label_probe: Option<lagrange::Probe<'g>>,
    /// The losses counted in `Bound::reduced` and their undo log.
    losses: Losses,
    /// The enumeration's late probes along the path (`late.rs`).
    late: late::Late,
    /// Proven upper bound on the size of any mapping (the root's bounds).
    root_bound: u32,
    /// The partners listed at each depth of the walk.
    lists: Lists,
    /// What the current search is after.
    goal: Goal,
    /// The best mapping found by the current search.
    best: Best,
    /// When the current search stops.
    limits: Limits<'g>,
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
            tables: Tables::new(g, ned.is_some()),
            state: State::new(g),
            duals: assign::Duals::default(),
            reduced: None,
            relax_extra: 0,
            split: None,
            probe: None,
            label_reduced: None,
            label_probe: None,
            losses: Losses::new(g1.n),
            late: late::Late::default(),
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
        s.lists = Lists::new(s.tables.vars.len() + 1);
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
        self.tables.min_ned = min_partner_ned(self.g[0], self.g[1], ned);
        if self.tuning.twins && !self.induced {
            self.tables.orbits = self.candidate_twins();
        }
        if !self.induced {
            self.state.bound.cost_rest = self
                .tables
                .vars
                .iter()
                .map(|&(side, v)| self.tables.min_ned[side as usize][v as usize])
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
        let degree = [degrees(self.g[0]), degrees(self.g[1])];
        vars.sort_by_key(|&(side, v)| {
            (
                std::cmp::Reverse(degree[side as usize][v as usize]),
                side,
                v,
            )
        });
        self.tables.vars = vars;
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

    /// [`Self::run`] within `nodes` search nodes; none when they were not
    /// enough.
    pub fn run_within(
        &mut self,
        goal: Goal,
        start: Option<Incumbent>,
        clock: Clock<'g>,
        nodes: u64,
    ) -> Option<SearchResult> {
        self.limits.budget = Some(self.stats.nodes + nodes);
        self.limits.budget_hit = false;
        let out = self.run(goal, start, clock);
        self.limits.budget = None;
        (!self.limits.budget_hit).then_some(out)
    }

    /// Counts a search node and sees whether the search must stop.
    fn check_time(&mut self) {
        self.stats.nodes += 1;
        let cancelled = self.task.as_ref().is_some_and(|t| t.cancelled());
        self.limits.check(self.stats.nodes, cancelled);
    }

    fn leaf(&mut self) {
        let size = (self.state.bound.mapped + self.state.bound.preserved) as i64;
        match self.goal {
            Goal::Max => {
                if size > self.best.size {
                    self.best.size = size;
                    self.limits.clock.show_best(size as u32);
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
    /// [`mapping::label_cost`] (the running sum follows the search's order).
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
        if self.probing(depth) && self.probe() || self.late_probe(depth) {
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
            if self.unwinding(depth) || self.limits.stop || self.pruned() {
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
                self.late.push(a, x);
                let (a, x) = (a as usize, x as usize);
                self.map(a, x);
                self.add_loss(a, x);
                let v = if side == 0 { a } else { x };
                self.state.bound.cost_rest -= if self.induced {
                    0.0
                } else {
                    self.tables.min_ned[side as usize][v]
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
                self.late.pop();
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
            // Once the clock has expired, the rest take their first free
            // partner (a mapping all the same, found in O(n) per variable).
            self.limits.clock.spend(1);
            let partner = if self.limits.clock.expired() {
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
        polished(self.g[0], self.g[1], m, false, self.limits.clock)
    }

    /// Sets the goal and forgets the last search's results.
    fn reset(&mut self, goal: Goal, start: Option<Incumbent>, clock: Clock<'g>) {
        self.goal = goal;
        self.limits.clock = clock;
        self.limits.stop = false;
        self.late.restart(self.stats.nodes);
        self.best.reset(start.as_ref().map(|s| (s.size, s.cost)));
        if let Some(start) = start {
            self.best.mapping = start.mapping;
        }
    }

    /// The first mapping of the maximum search: the greedy's, from the
    /// known mapping when there is one (the basic level's seed, the
    /// intermediate maximum), kept when larger. From a known mapping, its
    /// completion only: the greedy from scratch as well costs more than it
    /// finds.
    fn first_mapping(&mut self) {
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

    /// Before the walk of the maximum search, while the best mapping falls
    /// short of the root bound: the relaxation (a tighter bound, and its
    /// mappings), a short walk that often proves the best mapping a
    /// maximum, then the neighbourhood search (`improve.rs`); where the
    /// best mapping lies [`FIRST_GAP`] or more below the bound, a short
    /// neighbourhood search comes first. True when the short walk ended
    /// the search.
    fn improve_root(&mut self) -> bool {
        let improvable = |s: &Self| !s.induced && s.best.size < s.root_bound as i64;
        if improvable(self) && self.tuning.lagrangian {
            self.relax();
        }
        if !self.tuning.incumbent {
            return false;
        }
        let first = improvable(self) && self.root_bound as i64 - self.best.size >= FIRST_GAP;
        if first {
            self.improve(FIRST_IMPROVE_NODES, 0);
        }
        if improvable(self) {
            if self.walk_within(PROOF_NODES) {
                return true;
            }
            // After a first neighbourhood search, other regions.
            self.improve(improve::NODES, u64::from(first));
        }
        false
    }

    /// Shows the best size and the root bound on the clock's watch (the
    /// maximum search; the walk's leaves show each larger mapping).
    fn show_progress(&self) {
        self.limits.clock.show_best(self.best.size.max(0) as u32);
        self.limits.clock.show_bound(self.root_bound);
    }

    /// Runs the search for `goal` from the root, starting from a known
    /// solution of the goal when one is given.
    pub fn run(&mut self, goal: Goal, start: Option<Incumbent>, clock: Clock<'g>) -> SearchResult {
        self.reset(goal, start, clock);
        if goal == Goal::Max && !self.induced && self.tuning.incumbent {
            self.first_mapping();
        }
        if goal == Goal::Max {
            self.stats.first = self.best.size.max(0) as u32;
        }
        if goal != Goal::Max || self.best.size < self.root_bound as i64 {
            self.init_duals();
            self.root_bound = self.root_bound.min(self.size_bound());
        }
        let proved = goal == Goal::Max && {
            self.show_progress();
            self.improve_root()
        };
        self.stats.root_bound = self.root_bound;
        if goal == Goal::Max {
            self.stats.incumbent = self.best.size.max(0) as u32;
            self.show_progress();
        }
        if !proved && (goal != Goal::Max || self.best.size < self.root_bound as i64) {
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

#[cfg(test)]
mod tests {
    use super::{Goal, Search, SearchResult};
    use crate::flowchart::mcs::clock::{Clock, Work};
    use crate::flowchart::mcs::graph::Graph;
    use crate::flowchart::mcs::lagrange::tests::flowchart;
    use crate::flowchart::mcs::mapping;
    use crate::flowchart::mcs::settings::{Level, Settings, Tuning};

    /// A generated pair of 28 nodes a side: a random graph and a copy with
    /// about a quarter of its edges replaced.
    fn pair() -> (Graph, Graph) {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as usize % n
        };
        let n = 28;
        let types: Vec<usize> = (0..n).map(|_| next(2)).collect();
        let edges: Vec<_> = (0..40).map(|_| (next(n), next(n), true)).collect();
        let edited: Vec<_> = edges
            .iter()
            .map(|&e| {
                if next(4) == 0 {
                    (next(n), next(n), true)
                } else {
                    e
                }
            })
            .collect();
        let settings = Settings::default();
        (
            Graph::new(&flowchart(&types, &edges), &settings, Level::Basic),
            Graph::new(&flowchart(&types, &edited), &settings, Level::Basic),
        )
    }

    /// The basic level's maximum search of `g1` and `g2` within `limit`
    /// units of work (none: no limit), and the units spent.
    fn search(g1: &Graph, g2: &Graph, limit: Option<u64>) -> (SearchResult, u64) {
        let work = Work::new(limit.unwrap_or(u64::MAX));
        let clock = match limit {
            Some(_) => Clock::unlimited().with_work(Some(&work)),
            None => Clock::unlimited(),
        };
        let mut search = Search::new(g1, g2, false, Tuning::default(), None);
        let out = search.run(Goal::Max, None, clock);
        (out, work.used())
    }

    /// A search cut by its work budget says it is not exact, brackets the
    /// maximum between its size and its upper bound, and is the same on
    /// every run: the cut falls at the same unit of work.
    #[test]
    fn work_budget_cuts_the_same_way_every_time() {
        let (g1, g2) = pair();
        let (exact, _) = search(&g1, &g2, None);
        assert!(exact.complete);
        let mut cut = 0;
        for limit in [1, 16, 256, 1024, 4096, 1 << 20] {
            let (a, used) = search(&g1, &g2, Some(limit));
            let (b, again) = search(&g1, &g2, Some(limit));
            assert_eq!(used, again);
            assert_eq!(
                (a.size, a.upper, a.complete, &a.mapping),
                (b.size, b.upper, b.complete, &b.mapping)
            );
            assert_eq!(mapping::size(&g1, &g2, &a.mapping), a.size);
            assert!(a.size <= exact.size && exact.size <= a.upper);
            if a.complete {
                assert_eq!((a.size, a.upper), (exact.size, exact.size));
            } else {
                assert!(used >= limit);
                cut += 1;
            }
        }
        assert!(cut > 0 && cut < 6, "every budget or none cut the search");
    }
}
