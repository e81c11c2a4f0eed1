//! Mappings as plain data: the size and the label cost of a mapping given
//! as (gold, run) pairs, and the pairs of a partner array. A leaf: the
//! search, the relaxation and the local search all measure their mappings
//! here, and it knows nothing of them.

// Indexing: a mapping's gold nodes are < `g1.n` and its run nodes < `g2.n`
// (mappings are made from the two graphs).
#![allow(clippy::indexing_slicing)]

use super::graph::{Graph, preserved};

/// The partner of an unmapped node in a partner array.
pub(crate) const NONE: u32 = u32::MAX;

/// Label cost of a mapping given as pairs (ned at `a * n2 + x`), summed in
/// gold order: float sums depend on their order, the reported costs must
/// not depend on the search's.
pub(crate) fn label_cost(ned: &[f64], n2: usize, map: &[(u32, u32)]) -> f64 {
    let cost = |pairs: &[(u32, u32)]| {
        pairs
            .iter()
            .filter_map(|&(a, x)| ned.get(a as usize * n2 + x as usize))
            .sum()
    };
    if map.is_sorted() {
        cost(map)
    } else {
        let mut pairs = map.to_vec();
        pairs.sort_unstable();
        cost(&pairs)
    }
}

/// The run partner of each of `n1` gold nodes in a mapping given as
/// pairs ([`NONE`] where unmapped): the inverse of [`mapped_pairs`].
pub(crate) fn partners(n1: usize, map: &[(u32, u32)]) -> Vec<u32> {
    let mut partner = vec![NONE; n1];
    for &(a, x) in map {
        if let Some(p) = partner.get_mut(a as usize) {
            *p = x;
        }
    }
    partner
}

/// Size (mapped nodes + preserved edges) of a mapping given as pairs.
pub(crate) fn size(g1: &Graph, g2: &Graph, map: &[(u32, u32)]) -> u32 {
    let m = partners(g1.n, map);
    let mut size = 0;
    for &(a, x) in map {
        let (a, x) = (a as usize, x as usize);
        size += 1 + preserved(g1.loops(a), g2.loops(x));
        for (b, counts) in g1.neighbours(a) {
            let y = m[b];
            if b > a && y != NONE {
                size += preserved(counts, g2.pair(x, y as usize));
            }
        }
    }
    size
}

/// The (gold, run) pairs of `partner` (run partner per gold node, or
/// [`NONE`]), by gold index.
pub(crate) fn mapped_pairs(partner: &[u32]) -> impl Iterator<Item = (u32, u32)> + '_ {
    partner
        .iter()
        .enumerate()
        .filter(|&(_, &x)| x != NONE)
        .map(|(a, &x)| (a as u32, x))
}
