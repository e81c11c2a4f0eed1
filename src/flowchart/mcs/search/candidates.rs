//! The branching: which open variable the walk maps next, and its
//! partners in the order they are tried (the value ordering: cheapest
//! labels first in the cost search; else the relaxation's reduced cost,
//! a type and label hint, the look-ahead bound and the edges gained).
//! Partners the relaxations rule out are not listed.

// Indexing: node indices < n of their graph, by construction of the
// search's arrays (sized from the two graphs in `Search::new`); checked
// access at every search node costs measurable time.
#![allow(clippy::indexing_slicing)]

use super::{COST_EPS, Goal, Search};

/// One candidate partner of the branching variable.
#[derive(Clone, Copy, Debug)]
pub(super) struct Candidate {
    pub(super) node: u32,
    /// Upper bound on the size after adding the pair (look-ahead).
    bound: u32,
    gain: u32,
    ned: f64,
    /// 2 × same node type + same label as the variable (a hint for the
    /// order only).
    hint: u8,
    pub(super) twin: u32,
    /// The relaxation's reduced cost of the pair (0 without it).
    reduced: i32,
}

impl Search<'_> {
    /// The open variable to branch on: most edges to mapped nodes, then the
    /// static order (degree descending, gold first, index).
    pub(super) fn pick_variable(&self) -> Option<(u8, u32)> {
        let mut best: Option<(u8, u32)> = None;
        let mut best_w = 0;
        for &(side, v) in &self.tables.vars {
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

    /// The first free node of `var`'s class on the other side.
    pub(super) fn first_free_partner(&self, var: (u8, u32)) -> Option<u32> {
        let (side, v) = (var.0 as usize, var.1 as usize);
        let class = self.g[side].class[v] as usize;
        self.state.by_class[1 - side]
            .get(class)?
            .iter()
            .copied()
            .find(|&w| self.state.free[1 - side][w as usize])
    }

    /// Fills `self.lists.cands[depth]` with the partners of `var`, best first.
    pub(super) fn candidates(&mut self, depth: usize, var: (u8, u32)) -> Vec<Candidate> {
        self.partners(depth, var, false)
    }

    /// The first of [`Search::candidates`] alone (the greedy's choice):
    /// the look-ahead bound, most of the list's cost, is computed only for
    /// the partners that tie with the first on the keys ordered before it.
    pub(super) fn first_candidate(&mut self, var: (u8, u32)) -> Option<u32> {
        let cands = self.partners(0, var, true);
        let first = cands.first().map(|c| c.node);
        self.lists.cands[0] = cands;
        first
    }

    /// The partners of `var` in their order; with `first_only`, only those
    /// that can come first.
    pub(super) fn partners(
        &mut self,
        depth: usize,
        var: (u8, u32),
        first_only: bool,
    ) -> Vec<Candidate> {
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
                twin: self.tables.twin[other][w],
                reduced: self.reduced.as_ref().map_or(0, |r| r.cost(a, x)),
            });
        }
        if look_ahead && first_only {
            self.keep_leaders(var, &mut cands);
        }
        self.order(&mut cands);
        cands
    }

    /// Sorts the partners in the order they are tried: in the cost
    /// search, cheapest labels first; else by the relaxation's reduced
    /// cost, the type and label hint, the look-ahead bound and the edges
    /// gained; ties by twin group and index (twins next to each other, so
    /// that the walk tries one of each group).
    fn order(&self, cands: &mut [Candidate]) {
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
    }

    /// The size bound after adding the pair (gold `a`, run `x`).
    pub(super) fn look_ahead(&mut self, a: usize, x: usize) -> u32 {
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
    pub(super) fn keep_leaders(&mut self, var: (u8, u32), cands: &mut Vec<Candidate>) {
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
}

#[cfg(test)]
mod tests {
    use crate::flowchart::mcs::graph::Graph;
    use crate::flowchart::mcs::lagrange::tests::{flowchart, graph_strategy};
    use crate::flowchart::mcs::search::{Goal, Search};
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
