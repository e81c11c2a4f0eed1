//! The enumeration's late probes.
//!
//! The enumeration of the maximum mappings prunes on the target size only,
//! so its walk enters every subtree whose bound reaches the target, and a
//! subtree with no mapping of that size can hold millions of search nodes.
//! The relaxation restricted to a node's pairs (the maximum search's
//! probe, `relax.rs`) proves many such subtrees empty, but solved at every
//! node it costs far more than it saves where mappings are dense (a few
//! search nodes each). So a node is probed late, once its subtree has
//! taken `Tuning::late_probe_nodes` search nodes, and once; and the probes
//! together may cost at most as many work units as the walk has search
//! nodes (a probe's work counted as its copy and steps at the root's
//! cells / 64 each), so where they prune nothing the walk takes at most
//! about twice its work without them. The shallowest
//! such node of the current path goes first; when the probe prunes it, the
//! walk unwinds to it and goes on with its siblings. Pruning removes only
//! subtrees without a mapping of the target size, so the mappings listed,
//! and their order, are the same with late probes or without.
//!
//! The cost search's restricted label relaxations (`relax.rs`) that
//! prune nothing count their work against the same cap,
//! [`Late::over_cap`] (one that prunes has saved a subtree), and so do
//! the maximum search's probes that prune nothing, at
//! `Tuning::probe_cap` units per search node.

use super::{Goal, Search};

/// Where the late probes stand on the current path.
#[derive(Clone, Debug)]
pub(super) struct Late {
    /// The pairs mapped along the path from the root, in order.
    trail: Vec<(u32, u32)>,
    /// Search-node count when the node at each depth of the path was
    /// entered.
    entered: Vec<u64>,
    /// The shallowest depth of the path not probed yet; every node below
    /// it on the path was entered after it and is not probed either.
    open: usize,
    /// Depth of the node a late probe pruned while the walk unwinds to it
    /// (`usize::MAX`: none).
    unwind: usize,
    /// Search-node count when the walk began, and the work its probes
    /// have taken since: the enumeration's late probes, and the cost
    /// search's restricted label relaxations that pruned nothing, which
    /// share the cap ([`Late::over_cap`]).
    began: u64,
    spent: u64,
}

impl Default for Late {
    fn default() -> Self {
        Late {
            trail: Vec::new(),
            entered: Vec::new(),
            open: usize::MAX,
            unwind: usize::MAX,
            began: 0,
            spent: 0,
        }
    }
}

impl Late {
    /// A new walk from search-node count `nodes`: no node of the path so
    /// far is probed (the root never is; a split task's path is the
    /// root's) and no probe work is spent.
    pub fn restart(&mut self, nodes: u64) {
        self.forget_path();
        self.began = nodes;
        self.spent = 0;
    }

    /// The walk goes on from a node above every node of the path so far:
    /// none of them is probed or unwound to any more.
    pub fn forget_path(&mut self) {
        self.open = usize::MAX;
        self.unwind = usize::MAX;
    }

    /// The pair (`a`, `x`) is mapped at the next depth of the path.
    pub fn push(&mut self, a: u32, x: u32) {
        self.trail.push((a, x));
    }

    /// The last pair of the path is unmapped.
    pub fn pop(&mut self) {
        self.trail.pop();
    }

    /// True once the walk's probes counted have taken more than `per_node`
    /// work units per search node the walk has taken (`nodes` now): no
    /// probe runs until the walk has caught up. With 1, where they prune
    /// nothing the walk takes at most about twice its work units.
    pub fn over_cap(&self, nodes: u64, per_node: u64) -> bool {
        self.spent > (nodes - self.began).saturating_mul(per_node)
    }

    /// Counts a probe of `steps` steps of `step_units` each, its copy
    /// counted as one more step.
    pub fn spend(&mut self, steps: u32, step_units: u64) {
        self.spent += (1 + steps as u64) * step_units;
    }
}

impl Search<'_> {
    /// At the entry of the enumeration's search node at `depth`: probes the
    /// shallowest node of the path not probed yet once its subtree has
    /// taken `Tuning::late_probe_nodes` search nodes, unless the probes'
    /// work has reached the walk's search nodes; true when its bound proves
    /// that no mapping below it reaches the target size (the walk then
    /// unwinds to it).
    pub(super) fn late_probe(&mut self, depth: usize) -> bool {
        let Goal::Enumerate { target, .. } = self.goal else {
            return false;
        };
        let late = &mut self.late;
        // Every depth maps one pair (not so in induced mode, which has no
        // relaxation).
        if self.probe.is_none() || depth == 0 || late.trail.len() != depth {
            return false;
        }
        if late.entered.len() <= depth {
            late.entered.resize(depth + 1, 0);
        }
        let nodes = self.stats.nodes;
        late.entered[depth] = nodes;
        late.open = late.open.min(depth);
        let j = late.open;
        if nodes - late.entered[j] < self.tuning.late_probe_nodes || late.over_cap(nodes, 1) {
            return false;
        }
        late.open = j + 1;
        let mut fixed = late.trail[..j].to_vec();
        fixed.sort_unstable();
        let pruned = self.bounds_below(&fixed, target);
        if pruned {
            self.late.unwind = j;
        }
        self.count_probe(pruned)
    }

    /// After a child of the node at `depth` returned: true when a late
    /// probe pruned this node or one above it, so its walk stops here (a
    /// pruned child is done with and its siblings come next).
    pub(super) fn unwinding(&mut self, depth: usize) -> bool {
        if self.late.unwind == depth + 1 {
            self.late.unwind = usize::MAX;
        }
        self.late.unwind <= depth
    }

    /// The relaxation restricted to the pairs `fixed` (gold order): true
    /// when its bound proves every mapping containing them smaller than
    /// `target`.
    fn bounds_below(&mut self, fixed: &[(u32, u32)], target: u32) -> bool {
        let below = target.saturating_sub(1);
        let Some(out) = self.restricted_size(fixed, below) else {
            return false;
        };
        self.spend_on_probe(out.iterations);
        out.bound.is_some_and(|b| b <= below)
    }
}

#[cfg(test)]
mod tests {
    use super::Late;

    #[test]
    fn probes_wait_while_their_work_exceeds_the_walks_nodes() {
        let mut late = Late::default();
        late.restart(1_000);
        assert!(!late.over_cap(1_000, 1), "nothing spent yet");
        // A probe of 9 steps of 10 units, its copy one step more: 100.
        late.spend(9, 10);
        assert!(late.over_cap(1_099, 1), "99 nodes walked, 100 units spent");
        assert!(!late.over_cap(1_100, 1), "the walk has caught up");
        // 3 units per node: 34 nodes allow 102 units.
        assert!(late.over_cap(1_033, 3), "33 nodes allow 99 units");
        assert!(!late.over_cap(1_034, 3));
        assert!(!late.over_cap(1_001, u64::MAX), "uncapped");
        // A new walk starts with nothing spent.
        late.restart(5_000);
        assert!(!late.over_cap(5_000, 1));
    }
}
