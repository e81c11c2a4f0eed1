//! Large-neighbourhood search on the best mapping: a region of gold nodes
//! is freed and searched exactly, with a node budget, while every other
//! pair stays fixed; a larger mapping found replaces the best one. The
//! greedy dive, the swap-based local search and the relaxation's mappings
//! stop at local optima, often several edges short of the maximum; a
//! better mapping is also a shorter proof.
//!
//! A region is a breadth-first ball of gold nodes around a seed. The seeds
//! take turns between three kinds:
//! - a gold node at an edge the mapping loses (the usual place to gain);
//! - a gold node of a pair whose reduced cost in the relaxation is among
//!   the highest (a pair the relaxation finds expensive to keep);
//! - any gold node (diversity).
//!
//! The ball's size adapts: a region searched to its end without a gain
//! grows, one cut by its node budget shrinks. After [`STALL`] rounds in a
//! row without a gain the search restarts from the best mapping with a
//! random ball of it re-chosen by the greedy dive and local search (an
//! iterated local search: the walk leaves the local optimum, the best
//! mapping is kept). It stops at the root bound, when the clock stops,
//! after [`IDLE_RESTARTS`] restarts in a row without a gain, or at its
//! node budget ([`NODES`] search nodes for the full search). Deterministic: the seeds
//! come from a fixed generator (one stream per call of a search), the
//! regions depend only on the mappings and the graphs.

use super::Search;
use crate::flowchart::mcs::graph::preserved;
use crate::flowchart::mcs::mapping::{self, NONE};
use crate::rng::SplitMix64 as Rng;
use std::collections::VecDeque;

/// Search nodes of the full neighbourhood search, at most (a tenth of
/// the default work budget).
pub(super) const NODES: u64 = 8_000_000;

/// Search nodes of one region: small regions searched to their end often
/// gain more than large ones cut.
const ROUND_NODES: u64 = 1_000;

/// Rounds in a row without a gain after which the search restarts.
const STALL: usize = 200;

/// Restarts in a row without a gain after which the search stops.
const IDLE_RESTARTS: usize = 8;

/// Share of the gold nodes a restart re-chooses, in percent.
const RESTART_PERCENT: usize = 15;

/// Gold nodes of the first region, and the least of any region.
const MIN_REGION: usize = 8;

/// Which seeds a round's region grows from.
#[derive(Clone, Copy)]
enum Seed {
    Lost,
    Reduced,
    Any,
}

const SEEDS: [Seed; 3] = [Seed::Lost, Seed::Reduced, Seed::Any];

impl Search<'_> {
    /// Improves `self.best.mapping` (a complete mapping of size
    /// `self.best.size`) by the neighbourhood search, restarted from a
    /// perturbed copy of the best mapping each time it stalls, within
    /// about `nodes` search nodes; its seeds are drawn from the
    /// generator's `stream`.
    pub(super) fn improve(&mut self, nodes: u64, stream: u64) {
        let start = self.stats.nodes;
        let sizes = (self.g[0].n as u64) << 32 | self.g[1].n as u64;
        let mut rng = Rng(sizes ^ stream.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut global = (self.best.mapping.clone(), self.best.size);
        let mut idle = 0;
        let mut rounds = 0;
        loop {
            let mut size = MIN_REGION;
            let mut stall = 0;
            while stall < STALL
                && self.best.size < self.root_bound as i64
                && !self.limits.stop
                && self.stats.nodes - start < nodes
            {
                let before = self.best.size;
                let seed = SEEDS[rounds % SEEDS.len()];
                rounds += 1;
                let partner = mapping::partners(self.g[0].n, &self.best.mapping);
                let Some(region) = self.region(&partner, seed, size, &mut rng) else {
                    stall += 1;
                    continue;
                };
                let exhausted = self.search_region(&partner, &region);
                if self.best.size > before {
                    stall = 0;
                } else {
                    stall += 1;
                    size = if exhausted {
                        (size + 2).min(self.g[0].n)
                    } else {
                        (size - 1).max(MIN_REGION)
                    };
                }
            }
            if self.best.size > global.1 {
                global = (self.best.mapping.clone(), self.best.size);
                idle = 0;
            } else {
                idle += 1;
            }
            if idle > IDLE_RESTARTS
                || global.1 >= self.root_bound as i64
                || self.limits.stop
                || self.stats.nodes - start >= nodes
            {
                break;
            }
            // A restart: the best mapping with a ball of its pairs
            // re-chosen greedily.
            let share = (self.g[0].n * RESTART_PERCENT / 100).max(MIN_REGION);
            let Some(region) = self.region(&[], Seed::Any, share, &mut rng) else {
                break;
            };
            let prefix: Vec<(u32, u32)> = global
                .0
                .iter()
                .filter(|&&(a, _)| !region[a as usize])
                .copied()
                .collect();
            let restart = self.greedy(&prefix);
            self.best.size = mapping::size(self.g[0], self.g[1], &restart) as i64;
            self.best.mapping = restart;
        }
        if global.1 >= self.best.size {
            (self.best.mapping, self.best.size) = global;
        }
    }

    /// A ball of about `size` gold nodes around a seed of kind `seed` in
    /// the mapping `partner` (run partner per gold node; unused by
    /// [`Seed::Any`]), more seeds when the first one's component is
    /// smaller; none when there is no seed of that kind.
    fn region(&self, partner: &[u32], seed: Seed, size: usize, rng: &mut Rng) -> Option<Vec<bool>> {
        let g1 = self.g[0];
        let first = self.seed_node(partner, seed, rng)?;
        let size = size.min(g1.n);
        let mut inside = vec![false; g1.n];
        let mut count = 0;
        let mut queue = VecDeque::new();
        let mut first = Some(first);
        while count < size {
            let s = first.take().unwrap_or_else(|| rng.below(g1.n));
            if inside[s] {
                continue;
            }
            inside[s] = true;
            count += 1;
            queue.push_back(s);
            while let Some(a) = queue.pop_front() {
                for (b, _) in g1.neighbours(a) {
                    if count < size && !inside[b] {
                        inside[b] = true;
                        count += 1;
                        queue.push_back(b);
                    }
                }
            }
        }
        Some(inside)
    }

    /// A gold node drawn among the seeds of kind `seed` in the mapping
    /// `partner`; none when there is none.
    fn seed_node(&self, partner: &[u32], seed: Seed, rng: &mut Rng) -> Option<usize> {
        let (g1, g2) = (self.g[0], self.g[1]);
        let seeds: Vec<usize> = match seed {
            Seed::Any => return (g1.n > 0).then(|| rng.below(g1.n)),
            Seed::Lost => (0..g1.n)
                .filter(|&a| {
                    let x = partner[a];
                    x != NONE
                        && g1.neighbours(a).any(|(b, p)| {
                            let y = partner.get(b).copied().unwrap_or(NONE);
                            let kept = if y == NONE {
                                0
                            } else {
                                preserved(p, g2.pair(x as usize, y as usize))
                            };
                            kept < p.iter().map(|&c| c as u32).sum()
                        })
                })
                .collect(),
            Seed::Reduced => {
                let r = self.reduced.as_ref()?;
                let mut pairs: Vec<(i32, usize)> = (0..g1.n)
                    .filter(|&a| partner[a] != NONE)
                    .map(|a| (r.cost(a, partner[a] as usize), a))
                    .collect();
                pairs.sort_unstable_by(|p, q| q.cmp(p));
                pairs.truncate(pairs.len().div_ceil(4));
                pairs.into_iter().map(|(_, a)| a).collect()
            }
        };
        (!seeds.is_empty()).then(|| seeds[rng.below(seeds.len())])
    }

    /// Searches the completions of the best mapping's pairs (`partner`)
    /// outside `region` for a larger mapping (kept in `self.best`); true when the
    /// region was searched to its end.
    fn search_region(&mut self, partner: &[u32], region: &[bool]) -> bool {
        let fixed: Vec<(usize, usize)> = partner
            .iter()
            .enumerate()
            .filter(|&(a, &x)| x != NONE && !region[a])
            .map(|(a, &x)| (a, x as usize))
            .collect();
        if fixed.len() + 1 >= self.best.mapping.len() {
            return true;
        }
        let saved = self.state.bound;
        for &(a, x) in &fixed {
            self.map(a, x);
        }
        let exhausted = self.walk_within(ROUND_NODES);
        for &(a, x) in fixed.iter().rev() {
            self.unmap(a, x);
        }
        self.state.bound = saved;
        exhausted
    }

    /// Walks the search from the current node within `nodes` search
    /// nodes (and the caller's node budget, when there is one); true when
    /// the walk ended by itself, neither cut by `nodes` nor by a limit.
    pub(super) fn walk_within(&mut self, nodes: u64) -> bool {
        let outer = self.limits.budget;
        let round = self.stats.nodes + nodes;
        self.limits.budget = Some(outer.map_or(round, |b| b.min(round)));
        self.limits.budget_hit = false;
        self.dfs(0);
        let ended = !self.limits.budget_hit && !self.limits.timed_out;
        self.limits.budget = outer;
        self.limits.budget_hit = outer.is_some_and(|b| self.stats.nodes >= b);
        self.limits.stop = self.limits.timed_out || self.limits.budget_hit;
        ended && !self.limits.budget_hit
    }
}
