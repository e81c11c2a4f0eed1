//! Large-neighbourhood improvement of the first mapping: the pairs around
//! the edges it loses are freed and searched exactly, with a node budget,
//! while every other pair stays fixed. The greedy dive and the swap-based
//! local search stop at local optima, often a few edges short of the
//! maximum; a better first mapping is also a shorter proof.
//! Deterministic: the region depends only on the mapping and the graphs.

use super::Search;
use crate::flowchart::mcs::graph::preserved;
use crate::flowchart::mcs::mapping::NONE;

/// Search nodes allowed to one round.
const BUDGET: u64 = 2_000;

/// Rounds at most (each around the edges the last mapping loses).
const ROUNDS: usize = 4;

impl Search<'_> {
    /// Improves `self.best.mapping` (a complete mapping of size
    /// `self.best.size`) while a round finds a better one.
    pub(super) fn improve(&mut self) {
        for _ in 0..ROUNDS {
            let before = self.best.size;
            self.improve_once();
            if self.best.size == before
                || self.best.size >= self.root_bound as i64
                || self.limits.stop
            {
                break;
            }
        }
    }

    /// One round: frees the region around the lost edges, searches it.
    fn improve_once(&mut self) {
        let (g1, g2) = (self.g[0], self.g[1]);
        let mut partner = vec![NONE; g1.n];
        for &(a, x) in &self.best.mapping {
            if let Some(p) = partner.get_mut(a as usize) {
                *p = x;
            }
        }
        // Gold nodes at a lost edge, then their neighbours.
        let mut region = vec![false; g1.n];
        for (a, &x) in partner.iter().enumerate() {
            if x == NONE {
                continue;
            }
            for (b, p) in g1.neighbours(a) {
                let y = partner.get(b).copied().unwrap_or(NONE);
                let kept = if y == NONE {
                    0
                } else {
                    preserved(p, g2.pair(x as usize, y as usize))
                };
                if kept < p.iter().map(|&c| c as u32).sum() {
                    region[a] = true;
                    region[b] = true;
                }
            }
        }
        let core: Vec<usize> = (0..g1.n).filter(|&a| region[a]).collect();
        for a in core {
            for (b, _) in g1.neighbours(a) {
                region[b] = true;
            }
        }
        let fixed: Vec<(usize, usize)> = partner
            .iter()
            .enumerate()
            .filter(|&(a, &x)| x != NONE && !region[a])
            .map(|(a, &x)| (a, x as usize))
            .collect();
        if fixed.len() + 1 >= self.best.mapping.len() {
            return;
        }
        let saved = self.state.bound;
        for &(a, x) in &fixed {
            self.map(a, x);
        }
        self.limits.budget = Some(self.stats.nodes + BUDGET);
        self.dfs(0);
        self.limits.budget = None;
        if !self.limits.timed_out {
            self.limits.stop = false;
        }
        for &(a, x) in fixed.iter().rev() {
            self.unmap(a, x);
        }
        self.state.bound = saved;
    }
}
