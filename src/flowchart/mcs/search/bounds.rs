//! The bounds read at every search node: the size bound from the state's
//! counters (with the assignment bound's potentials), tightened by the
//! degree pairing and the relaxation's reduced costs and losses; the
//! label-cost bounds of the cost search; and the pruning test that
//! combines them for the goal.

// Indexing: node indices < n of their graph, by construction of the
// search's arrays (sized from the two graphs in `Search::new`); checked
// access at every search node costs measurable time.
#![allow(clippy::indexing_slicing)]

use super::{COST_EPS, Goal, Search};
use crate::flowchart::mcs::graph::Graph;
use crate::flowchart::mcs::local;
use crate::flowchart::mcs::mapping::NONE;

/// Per gold node, the loss (`local.rs`) counted for its mapped pair in
/// `Bound::reduced`, with the log to undo changes.
#[derive(Clone)]
pub(super) struct Losses {
    /// The loss of each mapped gold node's pair.
    of_gold: Vec<i64>,
    /// (gold node, old loss) of every change, newest last.
    log: Vec<(u32, i64)>,
    /// Length of `log` when each mapped pair was added.
    marks: Vec<usize>,
    scratch: local::Scratch,
}

impl Losses {
    pub(super) fn new(gold_nodes: usize) -> Self {
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
    #[inline]
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
    pub(super) fn undo(&mut self) {
        let mark = self.marks.pop().unwrap_or(0);
        while self.log.len() > mark {
            if let Some((b, old)) = self.log.pop() {
                self.of_gold[b as usize] = old;
            }
        }
    }
}

impl Search<'_> {
    /// The upper bound on the size of any completion of the current state.
    pub(super) fn size_bound(&self) -> u32 {
        let b = &self.state.bound;
        let mut rest = self.free_mapped_term() + self.free_free_term();
        if let Some(d) = self.duals.edges(self.state.bound.dual_sum) {
            rest = rest.min(d);
        }
        b.mapped + b.node_term + b.preserved + rest
    }

    /// The free-to-free term in use by [`Self::size_bound`].
    pub(super) fn free_free_term(&self) -> u32 {
        if self.tuning.free_to_free {
            self.state.bound.free_free
        } else {
            self.state.free_edges_total[0].min(self.state.free_edges_total[1])
        }
    }

    /// The free-to-mapped term in use by [`Self::size_bound`].
    pub(super) fn free_mapped_term(&self) -> u32 {
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

    /// The bound, tightened by the degree and variable terms when the cheap
    /// one is not enough to prune against `floor` (a completion must exceed it).
    pub(super) fn tight_bound(&mut self, floor: i64) -> i64 {
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

    /// The relaxation's bound on the size of any completion.
    pub(super) fn reduced_bound(&self) -> i64 {
        self.reduced
            .as_ref()
            .map_or(i64::MAX, |r| r.size_bound(self.state.bound.reduced))
    }

    /// True when nothing below the current state can improve on the goal.
    pub(super) fn pruned(&mut self) -> bool {
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

    /// False when the relaxation proves that no completion with the pair
    /// (gold `a`, run `x`) added reaches the goal's threshold (more than
    /// the best size, or the target size).
    pub(super) fn pair_allowed(&mut self, a: usize, x: usize) -> bool {
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
    pub(super) fn add_loss(&mut self, a: usize, x: usize) {
        self.losses.marks.push(self.losses.log.len());
        let Some(local) = self.reduced.as_ref().and_then(|r| r.local.as_ref()) else {
            return;
        };
        if !self.tuning.local_loss {
            return;
        }
        self.state.bound.reduced += self.losses.update(local, self.g, &self.state.partner, a, x);
    }

    /// In the cost search, false when the label relaxation proves that no
    /// completion with the pair (gold `a`, run `x`) added costs less than
    /// `limit`. (Asked when the partners are listed and again at the
    /// pair's turn, when the best may be cheaper.)
    pub(super) fn labels_allowed(&self, a: usize, x: usize, limit: f64) -> bool {
        let more = self
            .label_reduced
            .as_ref()
            .map_or(0, |(r, _)| r.cost(a, x) as i64);
        self.label_floor(more) < limit
    }

    /// The cost search prunes where a lower bound on the label cost
    /// reaches this: the best cost less `eps`; in a task of a split search
    /// also another task's best cost *more* `COST_EPS` (`split.rs`: a
    /// mapping of the same cost found by a later task must not hide an
    /// earlier one).
    pub(super) fn cost_limit(&self, eps: f64) -> f64 {
        let own = self.best.cost - eps;
        self.task
            .as_ref()
            .map_or(own, |t| own.min(t.best_cost() + COST_EPS))
    }

    /// The label relaxation's least label cost of any completion with
    /// `more` added to the mapped pairs' reduced costs (−∞ without it).
    pub(super) fn label_floor(&self, more: i64) -> f64 {
        self.label_reduced
            .as_ref()
            .map_or(f64::NEG_INFINITY, |(r, size)| {
                r.label_bound(*size, self.state.bound.label_used + more)
            })
    }
}
