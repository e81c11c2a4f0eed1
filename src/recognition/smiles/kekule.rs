//! Rings and kekulization. An aromatic atom that needs one more bond to
//! reach its valence (RDKit's rule for double-bond candidates) must get
//! exactly one double bond among its aromatic bonds: a perfect matching of
//! the candidates over the aromatic bonds, found with Edmonds' blossom
//! algorithm (exact on any ring system, odd rings included). Without one,
//! the SMILES is refused as RDKit refuses it ("can't kekulize").

use super::{Molecule, Order, Refusal};
use std::collections::VecDeque;

const NONE: usize = usize::MAX;

fn at(v: &[usize], i: usize) -> usize {
    v.get(i).copied().unwrap_or(NONE)
}

fn put(v: &mut [usize], i: usize, x: usize) {
    if let Some(slot) = v.get_mut(i) {
        *slot = x;
    }
}

fn flag(v: &[bool], i: usize) -> bool {
    v.get(i).copied().unwrap_or(false)
}

fn set(v: &mut [bool], i: usize, x: bool) {
    if let Some(slot) = v.get_mut(i) {
        *slot = x;
    }
}

/// Per bond, whether it lies in a ring (is no bridge of the graph).
pub(super) fn ring_bonds(m: &Molecule) -> Vec<bool> {
    let n = m.atoms.len();
    let mut in_ring = vec![true; m.bonds.len()];
    let (mut order, mut low) = (vec![NONE; n], vec![0usize; n]);
    let mut counter = 0;
    for root in 0..n {
        if at(&order, root) != NONE {
            continue;
        }
        // (atom, bond it was reached by, next incident bond to look at)
        let mut stack = vec![(root, NONE, 0usize)];
        put(&mut order, root, counter);
        put(&mut low, root, counter);
        counter += 1;
        while let Some(&(v, via, next)) = stack.last() {
            let bonds = m.incident.get(v).map_or(&[][..], Vec::as_slice);
            if let Some(&b) = bonds.get(next) {
                if let Some(top) = stack.last_mut() {
                    top.2 += 1;
                }
                if b == via {
                    continue;
                }
                let Some(to) = m.bonds.get(b).map(|x| x.other(v)) else {
                    continue;
                };
                if at(&order, to) == NONE {
                    put(&mut order, to, counter);
                    put(&mut low, to, counter);
                    counter += 1;
                    stack.push((to, b, 0));
                } else {
                    let value = at(&low, v).min(at(&order, to));
                    put(&mut low, v, value);
                }
            } else {
                stack.pop();
                if let Some(&(parent, _, _)) = stack.last() {
                    let value = at(&low, parent).min(at(&low, v));
                    put(&mut low, parent, value);
                    if at(&low, v) > at(&order, parent)
                        && let Some(slot) = in_ring.get_mut(via)
                    {
                        *slot = false;
                    }
                }
            }
        }
    }
    in_ring
}

impl Molecule {
    /// Whether aromatic atom `a` can take a double bond (RDKit's rule: its
    /// bonds, hydrogens and radicals leave exactly one to its valence).
    fn candidate(&self, a: usize) -> bool {
        let Some(atom) = self.atoms.get(a) else {
            return false;
        };
        let z = usize::from(atom.element);
        let valences = super::valence::valences(z);
        // Aromatic bonds count one, the others their order.
        let mut bonds = 0i32;
        for b in self.bonds_of(a) {
            bonds += match self.bonds.get(b).map(|x| x.order) {
                Some(Order::Double) => 2,
                Some(Order::Triple) => 3,
                Some(Order::Quadruple) => 4,
                _ => 1,
            };
        }
        let hydrogens = self.hydrogen_count(a) as i32;
        let bonds = bonds + hydrogens;
        let mut charge = atom.charge;
        if is_early(z) || (z == 6 && charge > 0) {
            charge = -charge;
        }
        let mut dv = valences.first().copied().unwrap_or(-1) + charge;
        let total = (atom.explicit_valence + atom.implicit) as i32;
        let radicals = atom.radicals as i32;
        let degree = self.degree(a) as i32 + atom.implicit as i32;
        for &v in valences.iter().skip(1) {
            if total <= dv || v <= 0 {
                break;
            }
            dv = v + charge;
        }
        // An aromatic N-oxide written `O=n1ccccc1`.
        if total == 5
            && bonds == 4
            && dv == 3
            && degree == 3
            && radicals == 0
            && charge == 0
            && hydrogens == 0
            && matches!(z, 7 | 15 | 33)
        {
            dv = 5;
        }
        if degree + radicals >= dv {
            return false;
        }
        dv == bonds + 1 + radicals || (radicals == 0 && atom.bracket && dv == bonds + 2)
    }

    /// Turns every aromatic bond into a single or double one.
    pub(super) fn kekulize(&mut self) -> Result<(), Refusal> {
        let n = self.atoms.len();
        let aromatic: Vec<bool> = (0..n).map(|a| self.is_aromatic(a)).collect();
        if !aromatic.iter().any(|&x| x) {
            return Ok(());
        }
        let candidates: Vec<bool> = (0..n)
            .map(|a| flag(&aromatic, a) && self.candidate(a))
            .collect();
        let mut adjacent = vec![Vec::new(); n];
        for (i, bond) in self.bonds.iter().enumerate() {
            if bond.order == Order::Aromatic
                && flag(&candidates, bond.a)
                && flag(&candidates, bond.b)
            {
                if let Some(list) = adjacent.get_mut(bond.a) {
                    list.push((bond.b, i));
                }
                if let Some(list) = adjacent.get_mut(bond.b) {
                    list.push((bond.a, i));
                }
            }
        }
        let mate = matching(&adjacent);
        if let Some(a) = (0..n).find(|&a| flag(&candidates, a) && at(&mate, a) == NONE) {
            return Err(Refusal {
                position: self.atoms.get(a).map(|x| x.position),
                message: format!(
                    "cannot kekulize: {} gets no double bond in its aromatic ring",
                    self.name(a)
                ),
            });
        }
        let mut double = vec![false; self.bonds.len()];
        for (a, list) in adjacent.iter().enumerate() {
            for &(b, i) in list {
                if at(&mate, a) == b {
                    set(&mut double, i, true);
                }
            }
        }
        for (i, bond) in self.bonds.iter_mut().enumerate() {
            if bond.order == Order::Aromatic {
                bond.order = if flag(&double, i) {
                    Order::Double
                } else {
                    Order::Single
                };
            }
        }
        Ok(())
    }
}

/// Elements left of carbon in RDKit's sense (their charge counts the
/// other way in the candidate rule).
fn is_early(z: usize) -> bool {
    matches!(
        z,
        3..=5 | 11..=13 | 19..=22 | 30..=32 | 37..=41 | 48..=51 | 55..=61 | 72 | 73 | 80..=83
            | 87..=93 | 104..=118
    )
}

/// A maximum matching of the graph `adjacent` (neighbour, bond) by Edmonds'
/// blossom algorithm: per vertex its mate, or `NONE`.
fn matching(adjacent: &[Vec<(usize, usize)>]) -> Vec<usize> {
    let n = adjacent.len();
    let mut mate = vec![NONE; n];
    // A greedy start, then an augmenting path from every free vertex.
    for v in 0..n {
        if at(&mate, v) != NONE {
            continue;
        }
        if let Some(&(u, _)) = adjacent
            .get(v)
            .and_then(|l| l.iter().find(|&&(u, _)| at(&mate, u) == NONE))
        {
            put(&mut mate, v, u);
            put(&mut mate, u, v);
        }
    }
    for root in 0..n {
        if at(&mate, root) == NONE
            && adjacent.get(root).is_some_and(|l| !l.is_empty())
            && let Some(end) = augmenting_path(adjacent, &mate, root)
        {
            let (parent, mut v) = end;
            while v != NONE {
                let pv = at(&parent, v);
                let next = at(&mate, pv);
                put(&mut mate, v, pv);
                put(&mut mate, pv, v);
                v = next;
            }
        }
    }
    mate
}

/// An augmenting path from the free vertex `root`: the parent links and
/// its free end.
fn augmenting_path(
    adjacent: &[Vec<(usize, usize)>],
    mate: &[usize],
    root: usize,
) -> Option<(Vec<usize>, usize)> {
    let n = adjacent.len();
    let mut used = vec![false; n];
    let mut parent = vec![NONE; n];
    let mut base: Vec<usize> = (0..n).collect();
    set(&mut used, root, true);
    let mut queue = VecDeque::from([root]);
    while let Some(v) = queue.pop_front() {
        for &(to, _) in adjacent.get(v).map_or(&[][..], Vec::as_slice) {
            if at(&base, v) == at(&base, to) || at(mate, v) == to {
                continue;
            }
            let mate_of_to = at(mate, to);
            if to == root || (mate_of_to != NONE && at(&parent, mate_of_to) != NONE) {
                let common = lowest_common_ancestor(mate, &base, &parent, v, to, n);
                let mut blossom = vec![false; n];
                mark_path(mate, &base, &mut parent, &mut blossom, v, common, to);
                mark_path(mate, &base, &mut parent, &mut blossom, to, common, v);
                for i in 0..n {
                    if flag(&blossom, at(&base, i)) {
                        put(&mut base, i, common);
                        if !flag(&used, i) {
                            set(&mut used, i, true);
                            queue.push_back(i);
                        }
                    }
                }
            } else if at(&parent, to) == NONE {
                put(&mut parent, to, v);
                if mate_of_to == NONE {
                    return Some((parent, to));
                }
                set(&mut used, mate_of_to, true);
                queue.push_back(mate_of_to);
            }
        }
    }
    None
}

fn lowest_common_ancestor(
    mate: &[usize],
    base: &[usize],
    parent: &[usize],
    mut a: usize,
    mut b: usize,
    n: usize,
) -> usize {
    let mut seen = vec![false; n];
    loop {
        a = at(base, a);
        if a == NONE {
            break;
        }
        set(&mut seen, a, true);
        let m = at(mate, a);
        if m == NONE {
            break;
        }
        a = at(parent, m);
    }
    loop {
        b = at(base, b);
        if b == NONE || flag(&seen, b) {
            return b;
        }
        b = at(parent, at(mate, b));
    }
}

fn mark_path(
    mate: &[usize],
    base: &[usize],
    parent: &mut [usize],
    blossom: &mut [bool],
    mut v: usize,
    common: usize,
    mut child: usize,
) {
    while v != NONE && at(base, v) != common {
        set(blossom, at(base, v), true);
        let m = at(mate, v);
        set(blossom, at(base, m), true);
        put(parent, v, child);
        child = m;
        v = at(parent, m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: the size of a maximum matching by trying every edge set.
    fn brute(n: usize, edges: &[(usize, usize)]) -> usize {
        let mut best = 0;
        for mask in 0u32..(1 << edges.len()) {
            let mut used = vec![false; n];
            let mut ok = true;
            let mut size = 0;
            for (i, &(a, b)) in edges.iter().enumerate() {
                if mask & (1 << i) != 0 {
                    if used[a] || used[b] {
                        ok = false;
                        break;
                    }
                    used[a] = true;
                    used[b] = true;
                    size += 1;
                }
            }
            if ok {
                best = best.max(size);
            }
        }
        best
    }

    #[test]
    fn blossom_matching_is_maximum_on_small_graphs() {
        // Deterministic pseudo-random graphs of up to 8 vertices, 12 edges.
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        for _ in 0..400 {
            let n = 2 + next() % 7;
            let mut edges = Vec::new();
            for _ in 0..(next() % 12) {
                let (a, b) = (next() % n, next() % n);
                if a != b && !edges.contains(&(a, b)) && !edges.contains(&(b, a)) {
                    edges.push((a, b));
                }
            }
            let mut adjacent = vec![Vec::new(); n];
            for (i, &(a, b)) in edges.iter().enumerate() {
                adjacent[a].push((b, i));
                adjacent[b].push((a, i));
            }
            let mate = matching(&adjacent);
            for v in 0..n {
                if mate[v] != NONE {
                    assert_eq!(mate[mate[v]], v);
                    assert!(edges.contains(&(v, mate[v])) || edges.contains(&(mate[v], v)));
                }
            }
            let size = mate.iter().filter(|&&m| m != NONE).count() / 2;
            assert_eq!(size, brute(n, &edges), "{edges:?}");
        }
    }
}
