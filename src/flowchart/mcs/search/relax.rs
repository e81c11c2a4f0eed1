//! The search's use of the relaxations (`lagrange/`): the edge-split
//! relaxation's root bound, reduced costs and mappings, its sharpening
//! before the label searches, and the label relaxation that bounds their
//! label cost.

use super::{COST_EPS, Goal, Incumbent, LABEL_STEPS, Search};
use crate::flowchart::mcs::clock::Clock;
use crate::flowchart::mcs::lagrange;
use crate::flowchart::mcs::mapping::{label_cost, mapped_pairs};

/// Steps of a cost-search node's restricted label relaxation at most
/// (and `Tuning::probe_steps` when fewer): there a walk that prunes late
/// costs the walk the cheaper mappings it would meet meanwhile. Chosen on
/// the heavy bench pairs whose least label cost is hard (see
/// benches/EXPERIMENTS.md).
const LABEL_PROBE_STEPS: u32 = 50;

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
        // Kept for every goal: the sharpening before the label searches
        // leaves the probe the enumeration's search nodes use.
        let keep = self.tuning.probe_steps > 0;
        let (out, probe) = lagrange::solve_keeping(
            self.g[0],
            self.g[1],
            (map, size),
            largest,
            start,
            self.relax_extra,
            clock,
            (keep, self.tuning.deflect_edge_pairs),
        );
        self.probe = probe;
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

    /// Whether the search node at `depth` is bounded by the relaxation
    /// restricted to its pairs ([`Self::probe`]): in the maximum search
    /// (the size relaxation) while the work of its probes that pruned
    /// nothing stays within `Tuning::probe_cap` units per search node, and
    /// in the cost search once its bounds were sharpened (the label
    /// relaxation) while that work stays within its search nodes
    /// (`Late::over_cap`),
    /// below the root (where the relaxation already ran), on a walk from
    /// the root, where every pair mapped is one of the walk's decisions.
    /// Not in the neighbourhood search's regions (`improve.rs`), which
    /// start with most pairs mapped and a small node budget: there a
    /// relaxation costs more than the region's whole walk; the
    /// enumeration probes its nodes late instead (`late.rs`).
    pub(super) fn probing(&self, depth: usize) -> bool {
        let kept = match self.goal {
            Goal::Max => {
                self.probe.is_some() && !self.late.over_cap(self.stats.nodes, self.tuning.probe_cap)
            }
            Goal::Cost { .. } => {
                self.label_probe.is_some() && !self.late.over_cap(self.stats.nodes, 1)
            }
            Goal::Enumerate { .. } => false,
        };
        kept && depth >= 1
            && self.tuning.probe_steps > 0
            && self.state.bound.mapped as usize == depth
    }

    /// The label relaxation restricted to the current search node's mapped
    /// pairs (cost search): true when its bound proves that no completion
    /// of the target size costs less than the best cost. Its mappings are
    /// not taken: the search finds the first cheapest mapping in its own
    /// order (the same with these relaxations or without).
    fn probe_labels(&mut self) -> bool {
        let (Some(probe), Goal::Cost { target }) = (&self.label_probe, self.goal) else {
            return false;
        };
        let fixed: Vec<(u32, u32)> = mapped_pairs(&self.state.partner[0]).collect();
        let limit = self.cost_limit(COST_EPS / 2.0);
        let steps = self.tuning.probe_steps.min(LABEL_PROBE_STEPS);
        let clock = self.limits.clock;
        let (floor, steps) = probe.label_floor(&fixed, (target, limit), steps, clock);
        self.stats.relaxation_steps += steps;
        let pruned = floor >= limit;
        if !pruned {
            self.late.spend(steps, probe.step_units());
        }
        pruned
    }

    /// The relaxation restricted to the current search node's mapped
    /// pairs: true when its bound proves that no completion beats the best
    /// mapping (or, in the cost search, costs less than the best).
    pub(super) fn probe(&mut self) -> bool {
        let pruned = match self.goal {
            Goal::Cost { .. } => self.probe_labels(),
            _ => self.probe_size(),
        };
        self.count_probe(pruned)
    }

    /// Counts a search node's restricted relaxation, and whether it pruned
    /// the node (returned).
    pub(super) fn count_probe(&mut self, pruned: bool) -> bool {
        self.stats.probes += 1;
        self.stats.pruned += u32::from(pruned);
        pruned
    }

    /// The size relaxation restricted to the mappings containing every
    /// pair of `fixed`, walked from `incumbent` for `Tuning::probe_steps`
    /// steps at most (counted); `None` where none was kept.
    pub(super) fn restricted_size(
        &mut self,
        fixed: &[(u32, u32)],
        incumbent: u32,
    ) -> Option<lagrange::Outcome> {
        let probe = self.probe.as_ref()?;
        let out = probe.solve(fixed, incumbent, self.tuning.probe_steps, self.limits.clock);
        self.stats.relaxation_steps += out.iterations;
        Some(out)
    }

    /// Counts a size probe of `steps` steps against the walk's cap on the
    /// probes' work (`Late::over_cap`).
    pub(super) fn spend_on_probe(&mut self, steps: u32) {
        let step_units = self.probe.as_ref().map_or(0, |p| p.step_units());
        self.late.spend(steps, step_units);
    }

    /// [`Self::probe`] in the maximum search: a larger mapping the steps
    /// meet becomes the best.
    fn probe_size(&mut self) -> bool {
        let fixed: Vec<(u32, u32)> = mapped_pairs(&self.state.partner[0]).collect();
        let best = self.best.size.max(0) as u32;
        let Some(out) = self.restricted_size(&fixed, best) else {
            return false;
        };
        if let Some((map, size)) = out.mapping.filter(|&(_, s)| s > best) {
            self.best.size = size as i64;
            self.best.mapping = map;
            self.limits.clock.show_best(size);
            if size >= self.root_bound {
                self.limits.stop = true;
            }
        }
        let pruned = out.bound.is_some_and(|b| b as i64 <= self.best.size);
        if !pruned {
            self.spend_on_probe(out.iterations);
        }
        pruned
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
        let sized = self.reduced.as_ref().filter(|_| self.tuning.rule_out);
        let out = lagrange::solve_labels_keeping(
            self.g[0],
            self.g[1],
            &labels,
            ((map, size), sized),
            split.as_ref(),
            lagrange::LABEL_STEPS,
            clock,
            (self.tuning.probe_steps > 0, self.tuning.deflect_edge_pairs),
        );
        self.label_reduced = out.reduced.map(|r| (r, size));
        self.stats.label_bound = self
            .label_reduced
            .as_ref()
            .map(|(r, s)| r.label_bound(*s, 0));
        self.label_probe = out.probe;
        let mapping = out.mapping?;
        let found = label_cost(ned, self.g[1].n, &mapping);
        (found < cost - COST_EPS).then_some(Incumbent {
            mapping,
            size,
            cost: found,
        })
    }
}
