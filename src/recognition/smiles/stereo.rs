//! Stereo as 0D parities (the InChI library's `inchi_Stereo0D`):
//!
//! - a tetrahedral centre `@`/`@@` with its four neighbours in the order
//!   written, the centre itself standing for its implicit hydrogen or lone
//!   pair; `@` (anticlockwise seen from the first) is the library's odd
//!   parity, `@@` its even one;
//! - a double bond written `=` with a `/` or `\` bond at each end: the two
//!   marked neighbours on the same side is the library's odd parity (cis),
//!   on opposite sides its even one (trans).
//!
//! A marked centre with two neighbours of one symmetry class is dropped, as
//! RDKit drops it, unless it is ring stereo: the two equal neighbours in a
//! ring whose ring system holds another marked centre of that kind
//! (`O[C@H]1CC[C@@H](C)CC1`). The library decides the rest.

use super::parse::{Chirality, Written};
use super::{Molecule, Order};
use inchi::{Parity, Stereo};

/// Which side of a double-bond end a marked neighbour stands on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Up,
    Down,
}

impl Molecule {
    pub(super) fn stereo(&self) -> Vec<Stereo> {
        let mut out = Vec::new();
        let kept = self.true_centres();
        for (centre, atom) in self.atoms.iter().enumerate() {
            let Some(chirality) = atom.chirality else {
                continue;
            };
            if atom.hydrogens > 1 || !kept.contains(&centre) {
                continue;
            }
            let mut neighbours: Vec<usize> = atom
                .order
                .iter()
                .map(|slot| match slot {
                    Some(b) => self.bonds.get(*b).map_or(centre, |x| x.other(centre)),
                    None => centre,
                })
                .collect();
            if neighbours.len() == 3 && !neighbours.contains(&centre) {
                // A lone pair (`C[S@](=O)c1ccccc1`) is read as the last
                // neighbour, as RDKit reads it.
                neighbours.push(centre);
            }
            let Ok(neighbours) = <[usize; 4]>::try_from(neighbours) else {
                continue;
            };
            let parity = match chirality {
                Chirality::Anticlockwise => Parity::Odd,
                Chirality::Clockwise => Parity::Even,
            };
            out.push(Stereo::Tetrahedral {
                center: centre,
                neighbors: neighbours,
                parity,
            });
        }
        for bond in &self.bonds {
            if bond.written != Written::Double || bond.order != Order::Double {
                continue;
            }
            let (Some((x, sx)), Some((y, sy))) =
                (self.marked(bond.a, bond.b), self.marked(bond.b, bond.a))
            else {
                continue;
            };
            let parity = if sx == sy { Parity::Odd } else { Parity::Even };
            out.push(Stereo::DoubleBond {
                ends: [x, bond.a, bond.b, y],
                parity,
            });
        }
        out
    }

    /// Symmetry classes of the atoms by colour refinement: element, charge,
    /// isotope, hydrogens and degree, refined by the classes of the
    /// neighbours until stable.
    fn classes(&self) -> Vec<u64> {
        use std::collections::hash_map::DefaultHasher;
        use std::hash::{Hash, Hasher};
        let n = self.atoms.len();
        let mut class: Vec<u64> = self
            .atoms
            .iter()
            .enumerate()
            .map(|(a, x)| {
                let mut h = DefaultHasher::new();
                (
                    x.element,
                    x.charge,
                    x.isotope,
                    self.hydrogen_count(a),
                    self.degree(a),
                )
                    .hash(&mut h);
                h.finish()
            })
            .collect();
        let count = |c: &[u64]| c.iter().collect::<std::collections::HashSet<_>>().len();
        let mut distinct = count(&class);
        for _ in 0..n {
            let next: Vec<u64> = (0..n)
                .map(|a| {
                    let mut around: Vec<(u64, u8)> = self
                        .bonds_of(a)
                        .filter_map(|b| self.bonds.get(b))
                        .map(|b| {
                            let order = b.order as u8;
                            (class.get(b.other(a)).copied().unwrap_or(0), order)
                        })
                        .collect();
                    around.sort_unstable();
                    let mut h = DefaultHasher::new();
                    (class.get(a).copied().unwrap_or(0), around).hash(&mut h);
                    h.finish()
                })
                .collect();
            let now = count(&next);
            class = next;
            if now == distinct {
                break;
            }
            distinct = now;
        }
        class
    }

    /// The marked centres that are stereocentres in RDKit's sense.
    fn true_centres(&self) -> Vec<usize> {
        let marked: Vec<usize> = (0..self.atoms.len())
            .filter(|&a| self.atoms.get(a).is_some_and(|x| x.chirality.is_some()))
            .collect();
        if marked.is_empty() {
            return marked;
        }
        let class = self.classes();
        let in_ring = &self.in_ring;
        let mut unique = Vec::new();
        // Centres with one pair of equal neighbours, both in rings.
        let mut ring_candidates = Vec::new();
        for &centre in &marked {
            let mut neighbours: Vec<(u64, bool)> = self
                .bonds_of(centre)
                .filter_map(|b| {
                    let bond = self.bonds.get(b)?;
                    Some((
                        class.get(bond.other(centre)).copied()?,
                        in_ring.get(b).copied().unwrap_or(false),
                    ))
                })
                .collect();
            // Implicit hydrogens, each of one class of their own kind.
            for _ in 0..self.hydrogen_count(centre) {
                neighbours.push((u64::MAX, false));
            }
            let mut classes: Vec<u64> = neighbours.iter().map(|n| n.0).collect();
            classes.sort_unstable();
            classes.dedup();
            match neighbours.len() - classes.len() {
                0 => unique.push(centre),
                1 => {
                    let pair: Vec<bool> = neighbours
                        .iter()
                        .filter(|n| neighbours.iter().filter(|m| m.0 == n.0).count() == 2)
                        .map(|n| n.1)
                        .collect();
                    if pair.iter().all(|&ring| ring) {
                        ring_candidates.push(centre);
                    }
                }
                _ => {}
            }
        }
        // Ring systems: atoms joined by ring bonds.
        let system = self.ring_systems(in_ring);
        for &c in &ring_candidates {
            let partner = ring_candidates
                .iter()
                .any(|&d| d != c && system.get(d) == system.get(c));
            if partner {
                unique.push(c);
            }
        }
        unique
    }

    /// A label per atom, equal for atoms joined by a path of ring bonds.
    fn ring_systems(&self, in_ring: &[bool]) -> Vec<usize> {
        let n = self.atoms.len();
        let mut label: Vec<usize> = (0..n).collect();
        let mut changed = true;
        while changed {
            changed = false;
            for (i, bond) in self.bonds.iter().enumerate() {
                if !in_ring.get(i).copied().unwrap_or(false) {
                    continue;
                }
                let (la, lb) = (
                    label.get(bond.a).copied().unwrap_or(0),
                    label.get(bond.b).copied().unwrap_or(0),
                );
                if la != lb {
                    let low = la.min(lb);
                    for end in [bond.a, bond.b] {
                        if let Some(l) = label.get_mut(end) {
                            *l = low;
                        }
                    }
                    changed = true;
                }
            }
        }
        label
    }

    /// The first neighbour of double-bond end `end` (other than `partner`)
    /// joined by a `/` or `\` bond, and its side.
    fn marked(&self, end: usize, partner: usize) -> Option<(usize, Side)> {
        self.bonds_of(end).find_map(|b| {
            let bond = self.bonds.get(b)?;
            let other = bond.other(end);
            if other == partner {
                return None;
            }
            // `p/q`: q above p. `bond.a` is the atom written first.
            let up = match bond.written {
                Written::Up => true,
                Written::Down => false,
                _ => return None,
            };
            let other_above = if bond.a == end { up } else { !up };
            Some((other, if other_above { Side::Up } else { Side::Down }))
        })
    }
}
