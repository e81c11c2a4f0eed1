//! Exact maximum one-to-one matching of one page's submitted and gold boxes
//! at every tolerance of a sweep.
//!
//! Each candidate pair carries a level: the index of the first tolerance at
//! which it matches (computed once). Levels are processed in ascending order;
//! at each level the pairs of that level join the graph and the matching of
//! the previous level is grown by augmenting paths (Kuhn's algorithm with an
//! iterative depth-first search). A matching that is maximum at one level is
//! a valid start at the next, and one pass over the free submitted boxes
//! reaches the maximum of a fixed graph (Berge: a vertex with no augmenting
//! path keeps having none while the graph is unchanged), so TP is exact at
//! every level.

const NONE: u32 = u32::MAX;

/// A candidate pair: submitted box `sub`, gold box `gold`, matching from
/// tolerance index `level` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pair {
    pub sub: u32,
    pub level: u32,
    pub gold: u32,
}

/// What the sweep of one page gives.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageSweep {
    /// TP (matching size) at each tolerance index.
    pub tp: Vec<u32>,
    /// The first tolerance index at which some submitted box has two or more
    /// gold boxes within tolerance, if any.
    pub first_ambiguous: Option<u32>,
}

/// Reusable buffers for [`Matcher::sweep`], so that sweeping many small
/// pages does not allocate for each.
#[derive(Debug, Default)]
pub struct Matcher {
    pairs: Vec<Pair>,
    start: Vec<u32>,
    sub_mate: Vec<u32>,
    gold_mate: Vec<u32>,
    seen: Vec<u32>,
    stamp: u32,
    stack: Vec<(u32, u32)>,
    arrivals: Vec<bool>,
}

impl Matcher {
    pub fn new() -> Self {
        Self::default()
    }

    /// Sweeps one page: `subs` submitted and `golds` gold boxes, candidate
    /// `pairs` (indices in range, each pair at most once), `levels`
    /// tolerances. Pairs with a level ≥ `levels` are ignored.
    pub fn sweep(&mut self, subs: usize, golds: usize, pairs: &[Pair], levels: usize) -> PageSweep {
        self.stage(subs, golds, pairs, levels);
        self.arrivals.clear();
        self.arrivals.resize(levels, false);
        for p in &self.pairs {
            if let Some(arrives) = self.arrivals.get_mut(p.level as usize) {
                *arrives = true;
            }
        }
        let arrivals = std::mem::take(&mut self.arrivals);
        let mut size = 0u32;
        let tp = (0u32..)
            .zip(&arrivals)
            .map(|(level, &arrives)| {
                // The matching changes only where new pairs arrive.
                if arrives {
                    size += self.augment_all(subs, level);
                }
                size
            })
            .collect();
        self.arrivals = arrivals;
        PageSweep {
            tp,
            first_ambiguous: self.first_ambiguous(subs),
        }
    }

    /// The matching at tolerance index `level`: for each submitted box the
    /// gold box it is matched to.
    pub fn matching_at(
        &mut self,
        subs: usize,
        golds: usize,
        pairs: &[Pair],
        level: usize,
    ) -> Vec<Option<usize>> {
        self.stage(subs, golds, pairs, level + 1);
        // Growing level by level gives the same kind of matching as the
        // sweep; a single pass at the final level is equally maximum.
        self.augment_all(subs, level as u32);
        self.sub_mate
            .iter()
            .map(|&g| (g != NONE).then_some(g as usize))
            .collect()
    }

    /// Sorts the usable pairs by submitted box then level, builds the
    /// adjacency index and clears the matching.
    fn stage(&mut self, subs: usize, golds: usize, pairs: &[Pair], levels: usize) {
        self.pairs.clear();
        self.pairs.extend(pairs.iter().filter(|p| {
            (p.level as usize) < levels && (p.sub as usize) < subs && (p.gold as usize) < golds
        }));
        self.pairs.sort_unstable();
        // start[u]..start[u + 1]: the pairs of submitted box u (counted
        // one place to the right, then summed).
        self.start.clear();
        self.start.resize(subs + 1, 0);
        for p in &self.pairs {
            if let Some(count) = self.start.get_mut(p.sub as usize + 1) {
                *count += 1;
            }
        }
        let mut sum = 0;
        for s in &mut self.start {
            sum += *s;
            *s = sum;
        }
        self.sub_mate.clear();
        self.sub_mate.resize(subs, NONE);
        self.gold_mate.clear();
        self.gold_mate.resize(golds, NONE);
        self.seen.clear();
        self.seen.resize(golds, 0);
        self.stamp = 0;
    }

    /// One pass of augmenting paths from every free submitted box, using
    /// pairs of level ≤ `level`. Returns the number of new matches.
    fn augment_all(&mut self, subs: usize, level: u32) -> u32 {
        let mut added = 0;
        for u in (0u32..).take(subs) {
            let free = self.sub_mate.get(u as usize) == Some(&NONE);
            if free && self.has_pair(u, level) && self.augment(u, level) {
                added += 1;
            }
        }
        added
    }

    fn has_pair(&self, u: u32, level: u32) -> bool {
        adjacency(&self.start, &self.pairs, u)
            .first()
            .is_some_and(|p| p.level <= level)
    }

    /// Iterative depth-first search for an augmenting path from free
    /// submitted box `root`; flips the path when found.
    fn augment(&mut self, root: u32, level: u32) -> bool {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        self.stack.clear();
        // Frames: a submitted box and how many of its pairs were tried.
        self.stack.push((root, 0));
        while let Some(&(u, tried)) = self.stack.last() {
            let next = adjacency(&self.start, &self.pairs, u)
                .get(tried as usize)
                .filter(|p| p.level <= level);
            let (Some(next), Some(top)) = (next, self.stack.last_mut()) else {
                self.stack.pop();
                continue;
            };
            top.1 = tried + 1;
            let g = next.gold;
            let Some(seen) = self.seen.get_mut(g as usize) else {
                continue;
            };
            if *seen == self.stamp {
                continue;
            }
            *seen = self.stamp;
            match self.gold_mate.get(g as usize) {
                Some(&NONE) => {
                    // Flip the path: each frame's last tried pair is on it.
                    for &(u, tried) in &self.stack {
                        let pairs = adjacency(&self.start, &self.pairs, u);
                        let on_path = tried.checked_sub(1).and_then(|i| pairs.get(i as usize));
                        if let (Some(p), Some(sub_mate)) =
                            (on_path, self.sub_mate.get_mut(u as usize))
                        {
                            *sub_mate = p.gold;
                            if let Some(gold_mate) = self.gold_mate.get_mut(p.gold as usize) {
                                *gold_mate = u;
                            }
                        }
                    }
                    return true;
                }
                Some(&mate) => self.stack.push((mate, 0)),
                None => {}
            }
        }
        false
    }

    /// The smallest level at which a submitted box has two gold boxes: the
    /// level of its second pair (pairs are sorted by level per box).
    fn first_ambiguous(&self, subs: usize) -> Option<u32> {
        (0u32..)
            .take(subs)
            .filter_map(|u| Some(adjacency(&self.start, &self.pairs, u).get(1)?.level))
            .min()
    }
}

/// The pairs of submitted box `u` (sorted by level), given the staged
/// `pairs` and their `start` index.
fn adjacency<'a>(start: &[u32], pairs: &'a [Pair], u: u32) -> &'a [Pair] {
    let u = u as usize;
    match (start.get(u), start.get(u + 1)) {
        (Some(&from), Some(&to)) => pairs.get(from as usize..to as usize).unwrap_or_default(),
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(sub: u32, gold: u32, level: u32) -> Pair {
        Pair { sub, gold, level }
    }

    #[test]
    fn augmenting_path_beats_greedy() {
        // Submitted 0 can take gold 0 or 1, submitted 1 only gold 0, both
        // from level 0: greedy 0→0 leaves 1 unmatched; maximum is 2.
        let pairs = [pair(0, 0, 0), pair(0, 1, 0), pair(1, 0, 0)];
        let mut m = Matcher::new();
        let s = m.sweep(2, 2, &pairs, 2);
        assert_eq!(s.tp, vec![2, 2]);
        assert_eq!(s.first_ambiguous, Some(0));
        let at = m.matching_at(2, 2, &pairs, 0);
        assert_eq!(at, vec![Some(1), Some(0)]);
    }

    #[test]
    fn matching_grows_with_levels() {
        // Level 0: 0-0. Level 1: 1-0 arrives (blocked until) level 2: 0-1.
        let pairs = [pair(0, 0, 0), pair(1, 0, 1), pair(0, 1, 2)];
        let s = Matcher::new().sweep(2, 2, &pairs, 4);
        assert_eq!(s.tp, vec![1, 1, 2, 2]);
        assert_eq!(s.first_ambiguous, Some(2));
    }

    #[test]
    fn two_submitted_on_one_gold() {
        let pairs = [pair(0, 0, 0), pair(1, 0, 0)];
        let s = Matcher::new().sweep(2, 1, &pairs, 1);
        assert_eq!(s.tp, vec![1]);
        assert_eq!(s.first_ambiguous, None);
    }

    #[test]
    fn long_chain_needs_deep_paths() {
        // sub i pairs gold i (level 1) and gold i+1 (level 0): greedy at
        // level 0 matches i→i+1, level 1 adds gold 0 through a path of length n.
        let n = 20_000u32;
        let mut pairs = Vec::new();
        for i in 0..n {
            pairs.push(pair(i, i + 1, 0));
            pairs.push(pair(i, i, 1));
        }
        pairs.push(pair(n, n, 1));
        let s = Matcher::new().sweep(n as usize + 1, n as usize + 1, &pairs, 2);
        assert_eq!(s.tp, vec![n, n + 1]);
    }
}
