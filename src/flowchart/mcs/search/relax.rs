//! The search's use of the relaxations (`lagrange/`): the edge-split
//! relaxation's root bound, reduced costs and mappings, its sharpening
//! before the label searches, and the label relaxation that bounds their
//! label cost.

use super::{COST_EPS, Incumbent, LABEL_STEPS, Search};
use crate::flowchart::mcs::clock::Clock;
use crate::flowchart::mcs::lagrange;
use crate::flowchart::mcs::mapping::label_cost;

impl Search<'_> {
    /// The edge-split relaxation (`lagrange/`): a tighter root bound and
    /// the mappings met on the way.
    pub(super) fn relax(&mut self) {
        let incumbent = self.best.size.max(0) as u32;
        let map = std::mem::take(&mut self.best.mapping);
        let start = self.split.take();
        let better = self.relax_from((&map, incumbent, false), start.as_ref(), self.limits.clock);
        self.best.mapping = map;
        if let Some((map, size)) = better {
            self.best.size = size as i64;
            self.best.mapping = map;
        }
    }

    /// Solves the relaxation from a known mapping of `size` (a complete
    /// one; `largest` when known to be a maximum), keeps its root bound
    /// and per-pair bounds, and returns a larger mapping when it met one.
    pub(super) fn relax_from(
        &mut self,
        (map, size, largest): (&[(u32, u32)], u32, bool),
        start: Option<&lagrange::Split>,
        clock: Clock,
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
            clock,
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

    /// Sharpens the bounds of the label searches of mappings of `known`'s
    /// size: the size relaxation runs on for [`LABEL_STEPS`] steps from
    /// where it stopped (from the start where it never ran), and with
    /// `labels` the label relaxation follows from there; returns a mapping
    /// of that size cheaper than `known` when the label relaxation met one.
    pub fn sharpen(&mut self, known: &Incumbent, labels: bool, clock: Clock) -> Option<Incumbent> {
        let split = self.split.take();
        self.relax_extra = LABEL_STEPS;
        self.relax_from((&known.mapping, known.size, true), split.as_ref(), clock);
        if labels {
            self.relax_labels(&known.mapping, known.size, known.cost, clock)
        } else {
            None
        }
    }

    /// Runs the label relaxation for the cost search of mappings of `size`
    /// (`map` one of them, of label cost `cost`), from the last
    /// relaxation's split; not where every node's cheapest partner already
    /// proves `cost` least. Returns the cheapest of its outer assignments
    /// of `size` when it is cheaper than `cost`.
    pub(super) fn relax_labels(
        &mut self,
        map: &[(u32, u32)],
        size: u32,
        cost: f64,
        clock: Clock,
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
            clock,
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
}
