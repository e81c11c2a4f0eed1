//! Listing many maximum mappings at once in the enumeration (complete
//! level), instead of one search node each with its bounds and ordered
//! candidates: nanoseconds a mapping instead of microseconds. Two cases:
//!
//! - **Twins.** Nodes of one class with the same neighbours (same edges
//!   to every other node, a symmetric pair between them) can swap
//!   partners: the swap is an automorphism of their graph, so it maps a
//!   maximum mapping to another one. On the candidate side of each class
//!   (the long side, whose nodes the variables are mapped to), the search
//!   tries only the first free member of a twin group, so it meets one
//!   mapping of each orbit; at its leaf, every mapping of the orbit is
//!   listed: the nodes mapped into a group, mapped one to one into it in
//!   every way. (A member not tried cannot lead further than the first:
//!   the swap maps its completions onto the first's.)
//! - **Completions.** Once the pairs mapped so far reach the target size
//!   with the nodes still free — mapped nodes + preserved edges +
//!   Σ_classes min(free gold, free run) = target — no completion can gain
//!   an edge (it would exceed the maximum), so every completion is a
//!   maximum mapping: in each class, the free nodes of the shorter side
//!   mapped one to one into the longer side's in every way. Used where no
//!   twins are listed (the completions of pairs already mapped into a
//!   twin group would miss the rest of their orbits).
//!
//! Both are *blocks*: gold nodes, run nodes, and how many of the gold
//! nodes map into the run nodes (all of the shorter side). A listing walks
//! the gold nodes by index: a node of a block takes each unused run node
//! of its block in turn, then none where the block's later gold nodes
//! can still map the rest; any other node keeps its partner. Each
//! mapping's cost is so summed in gold order from the first gold node, as
//! [`Search::mapping_cost`] does (same floats), and the order of the
//! mappings is fixed.

use super::{Goal, Search};
use crate::flowchart::mcs::mapping::{NONE, mapped_pairs};

/// Mappings listed between two looks at the clock.
const CLOCK_EVERY: u64 = 1024;

/// One block of a listing.
#[derive(Clone, Debug, Default)]
struct Block {
    run: Vec<u32>,
    /// Gold nodes still to map, gold nodes not yet passed.
    need: u32,
    left: u32,
}

/// The state of one listing.
struct Walk {
    /// Run partner of each gold node (outside blocks: fixed).
    partner: Vec<u32>,
    /// Block of each gold node, or `NONE`.
    block: Vec<u32>,
    blocks: Vec<Block>,
    used: Vec<bool>,
    /// Mapped nodes of every mapping listed.
    mapped: u32,
    target: u32,
    limit: u64,
}

/// Twin groups of one graph's nodes, for the listing of orbits: only the
/// groups of two members or more are kept.
#[derive(Clone, Debug, Default)]
pub(super) struct Groups {
    /// Per node: its group's index in `members`, or `NONE`.
    group: Vec<u32>,
    /// Members of each group, by index.
    members: Vec<Vec<u32>>,
}

impl Groups {
    /// The groups of `first` (each node's first twin, the smallest index),
    /// or `None` when every group has one member.
    pub fn new(first: &[u32]) -> Option<Self> {
        let mut size = vec![0u32; first.len()];
        for &f in first {
            if let Some(k) = size.get_mut(f as usize) {
                *k += 1;
            }
        }
        let mut group = vec![NONE; first.len()];
        let mut members: Vec<Vec<u32>> = Vec::new();
        for (v, &f) in first.iter().enumerate() {
            if size.get(f as usize).is_none_or(|&k| k < 2) {
                continue;
            }
            let at = match group.get(f as usize) {
                Some(&g) if g != NONE => g,
                _ => {
                    members.push(Vec::new());
                    members.len() as u32 - 1
                }
            };
            group[v] = at;
            if let Some(list) = members.get_mut(at as usize) {
                list.push(v as u32);
            }
        }
        (!members.is_empty()).then_some(Groups { group, members })
    }

    /// The groups.
    fn all(&self) -> impl Iterator<Item = &[u32]> {
        self.members.iter().map(Vec::as_slice)
    }

    /// The group of `v` when it has two members or more.
    pub fn of(&self, v: usize) -> Option<&[u32]> {
        let g = *self.group.get(v)?;
        self.members.get(g as usize).map(Vec::as_slice)
    }
}

impl Search<'_> {
    /// True when the enumeration lists twins' orbits at its leaves (see
    /// the module's comment).
    pub(super) fn lists_orbits(&self) -> bool {
        self.tables.orbits.is_some() && matches!(self.goal, Goal::Enumerate { .. })
    }

    /// False when `w` (side `side`) has a free twin of smaller index: the
    /// orbit listing tries only a group's first free member.
    pub(super) fn first_free_twin(&self, side: usize, w: usize) -> bool {
        let Some(group) = self.tables.orbits.as_ref().and_then(|g| g[side].of(w)) else {
            return true;
        };
        let free = &self.state.free[side];
        !group
            .iter()
            .take_while(|&&v| (v as usize) < w)
            .any(|&v| free.get(v as usize).copied().unwrap_or(false))
    }

    /// True when every completion of the current state is a mapping of
    /// `target` (see the module's comment); never under `induced` (a
    /// completion may break an induced edge) nor where orbits are listed.
    pub(super) fn completions_all_reach(&self, target: u32) -> bool {
        let b = &self.state.bound;
        !self.induced
            && self.tables.orbits.is_none()
            && b.mapped + b.preserved + b.node_term == target
    }

    /// Lists every completion of the current state as a mapping of
    /// `target`, up to `limit` mappings in all.
    pub(super) fn list_completions(&mut self, target: u32, limit: u64) {
        let (g1, g2) = (self.g[0], self.g[1]);
        let mut blocks = vec![Block::default(); self.state.classes];
        for x in 0..g2.n {
            if self.state.free[1][x]
                && let Some(b) = blocks.get_mut(g2.class[x] as usize)
            {
                b.run.push(x as u32);
            }
        }
        let mut block = vec![NONE; g1.n];
        for (c, b) in blocks.iter_mut().enumerate() {
            b.left = self.state.free_class[0][c];
            b.need = b.left.min(self.state.free_class[1][c]);
        }
        for (a, slot) in block.iter_mut().enumerate() {
            if self.state.free[0][a] {
                *slot = g1.class[a] as u32;
            }
        }
        let mapped = self.state.bound.mapped + blocks.iter().map(|b| b.need).sum::<u32>();
        self.list(Walk {
            partner: self.state.partner[0].clone(),
            block,
            blocks,
            used: vec![false; g2.n],
            mapped,
            target,
            limit,
        });
    }

    /// At a leaf of `target` where orbits are listed: every mapping of the
    /// leaf's orbit, up to `limit` mappings in all; false (nothing listed)
    /// when no node is mapped into a twin group (the orbit is the leaf).
    pub(super) fn list_orbit(&mut self, target: u32, limit: u64) -> bool {
        let Some(orbits) = self.tables.orbits.take() else {
            return false;
        };
        let mapped_into = |side: usize| {
            orbits[side]
                .all()
                .flatten()
                .any(|&v| self.state.partner[side][v as usize] != NONE)
        };
        if !mapped_into(0) && !mapped_into(1) {
            self.tables.orbits = Some(orbits);
            return false;
        }
        let (g1, g2) = (self.g[0], self.g[1]);
        let mut partner = self.state.partner[0].clone();
        let mut block = vec![NONE; g1.n];
        let mut blocks: Vec<Block> = Vec::new();
        // Groups on the run side: the gold nodes mapped into a group map
        // into it in every way.
        for members in orbits[1].all() {
            let b = blocks.len() as u32;
            let mut need = 0;
            for &x in members {
                let a = self.state.partner[1][x as usize];
                if a != NONE {
                    block[a as usize] = b;
                    partner[a as usize] = NONE;
                    need += 1;
                }
            }
            if need > 0 {
                blocks.push(Block {
                    run: members.to_vec(),
                    need,
                    left: need,
                });
            }
        }
        // Groups on the gold side: the run nodes mapped into a group take
        // its members in every way.
        for members in orbits[0].all() {
            let run: Vec<u32> = members
                .iter()
                .map(|&a| self.state.partner[0][a as usize])
                .filter(|&x| x != NONE)
                .collect();
            if run.is_empty() {
                continue;
            }
            let b = blocks.len() as u32;
            for &a in members {
                block[a as usize] = b;
                partner[a as usize] = NONE;
            }
            blocks.push(Block {
                need: run.len() as u32,
                left: members.len() as u32,
                run,
            });
        }
        self.tables.orbits = Some(orbits);
        self.list(Walk {
            partner,
            block,
            blocks,
            used: vec![false; g2.n],
            mapped: self.state.bound.mapped,
            target,
            limit,
        });
        true
    }

    fn list(&mut self, mut walk: Walk) {
        // Float sums start at -0.0, as `Iterator::sum` does.
        self.walk(&mut walk, 0, -0.0);
    }

    /// The mappings from gold node `from` on, `cost` the label cost of the
    /// gold nodes before it.
    fn walk(&mut self, w: &mut Walk, from: usize, mut cost: f64) {
        let (g1, n2, table) = (self.g[0], self.g[1].n, self.ned);
        let ned = |a: usize, x: u32| table.map_or(0.0, |n| n[a * n2 + x as usize]);
        // Nodes outside blocks add their partner's cost; the next node of
        // a block branches.
        let mut a = from;
        while a < g1.n && w.block[a] == NONE {
            let x = w.partner[a];
            if x != NONE {
                cost += ned(a, x);
            }
            a += 1;
        }
        if a == g1.n {
            self.listed(w, cost);
            return;
        }
        let b = w.block[a] as usize;
        w.blocks[b].left -= 1;
        if w.blocks[b].need > 0 {
            w.blocks[b].need -= 1;
            for k in 0..w.blocks[b].run.len() {
                let x = w.blocks[b].run[k];
                if w.used[x as usize] {
                    continue;
                }
                w.used[x as usize] = true;
                w.partner[a] = x;
                self.walk(w, a + 1, cost + ned(a, x));
                w.used[x as usize] = false;
                if self.limits.stop {
                    break;
                }
            }
            w.partner[a] = NONE;
            w.blocks[b].need += 1;
        }
        if !self.limits.stop && w.blocks[b].left >= w.blocks[b].need {
            // `a` unmapped: the block's later gold nodes still map the
            // rest.
            self.walk(w, a + 1, cost);
        }
        w.blocks[b].left += 1;
    }

    /// One mapping listed, as the enumeration's leaf counts it.
    fn listed(&mut self, w: &Walk, cost: f64) {
        match self.count_mapping(cost, w.mapped, w.limit) {
            None => return,
            Some(true) => {
                self.best.size = w.target as i64;
                self.best.mapping = mapped_pairs(&w.partner).collect();
            }
            Some(false) => {}
        }
        self.limits.clock.spend(1);
        if self.best.found.is_multiple_of(CLOCK_EVERY) && self.limits.clock.expired() {
            self.limits.timed_out = true;
            self.limits.stop = true;
        }
    }
}
