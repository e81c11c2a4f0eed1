//! RDKit's valence model, as `MolFromSmiles` applies it when it sanitizes
//! (docs/recognition.md, "SMILES"): the clean-up of pentavalent nitrogen,
//! phosphorus and halogen oxides to their charge-separated forms, the
//! explicit valence each atom may have, the hydrogens an atom of the
//! organic subset gets, and the radicals of a bracket atom with fewer bonds
//! than its valence. Written from RDKit's documented behaviour and checked
//! against RDKit on every case of goldens/recognition/smiles.

use super::elements::ELEMENTS;
use super::{Molecule, Order};

/// The allowed valences of element `z` (`[-1]`: any, also for no element).
pub(super) fn valences(z: usize) -> &'static [i32] {
    ELEMENTS.get(z).map_or(&[-1], |e| e.valences)
}

/// The first allowed valence: the one an atom takes by default (`-1`: none).
fn default_valence(z: usize) -> i32 {
    valences(z).first().copied().unwrap_or(-1)
}

fn last(list: &[i32]) -> i32 {
    list.last().copied().unwrap_or(-1)
}

/// The element whose valences a charged atom follows: the one with as many
/// electrons (`[N+]` as C, `[O-]` as F), unless the element has no valence
/// list of its own (metals keep theirs).
fn effective(z: usize, charge: i32) -> usize {
    if valences(z) == [-1] {
        return z;
    }
    (z as i32 - charge).clamp(0, 118) as usize
}

/// P, S, As and Se with a negative charge keep their own higher valences
/// (they are not held to those of Cl, Ar, Br or Kr).
fn can_be_hypervalent(z: usize, effective: usize) -> bool {
    (effective > 16 && (z == 15 || z == 16)) || (effective > 34 && (z == 33 || z == 34))
}

/// Twice a bond's contribution to an atom's valence (aromatic: 1.5).
fn twice(order: Order) -> u32 {
    match order {
        Order::Single => 2,
        Order::Double => 4,
        Order::Triple => 6,
        Order::Quadruple => 8,
        Order::Aromatic => 3,
    }
}

impl Molecule {
    /// Whether atom `a` is aromatic or has an aromatic bond.
    pub(super) fn is_aromatic(&self, a: usize) -> bool {
        self.atoms.get(a).is_some_and(|x| x.aromatic)
            || self.bonds_of(a).any(|b| {
                self.bonds
                    .get(b)
                    .is_some_and(|b| b.order == Order::Aromatic)
            })
    }

    /// Twice the sum of atom `a`'s bond orders and written hydrogens.
    fn accumulated(&self, a: usize) -> u32 {
        let written = self.atoms.get(a).map_or(0, |x| x.hydrogens);
        2 * written
            + self
                .bonds_of(a)
                .filter_map(|b| self.bonds.get(b))
                .map(|b| twice(b.order))
                .sum::<u32>()
    }

    /// The explicit valence of atom `a` as RDKit counts it (aromatic bonds
    /// 1.5, an aromatic atom's excess rounded down to an allowed valence),
    /// or the error when it exceeds every allowed valence.
    pub(super) fn explicit_valence(&self, a: usize, aromatic: bool) -> Result<u32, String> {
        let Some(atom) = self.atoms.get(a) else {
            return Ok(0);
        };
        let z = usize::from(atom.element);
        let own = valences(z);
        let eff = effective(z, atom.charge);
        let list = valences(eff);
        let dv = default_valence(eff);
        let mut acc = self.accumulated(a);
        if aromatic && dv >= 0 && acc > 2 * dv as u32 {
            let mut pval = dv;
            for &v in list {
                if v == -1 || 2 * v > acc as i32 {
                    break;
                }
                pval = v;
            }
            if acc as i32 - 2 * pval <= 3 {
                acc = 2 * pval as u32;
            }
        }
        let value = acc.div_ceil(2);
        let (mut most, mut offset) = (last(list), 0);
        if can_be_hypervalent(z, eff) {
            most = last(own);
            offset = -atom.charge;
        }
        if z == 1 && atom.charge == -1 {
            most = 2;
        }
        if most >= 0 && last(own) >= 0 && value as i32 + offset > most {
            return Err(format!(
                "{} with a valence of {value}, more than it may have",
                self.name(a)
            ));
        }
        Ok(value)
    }

    /// The hydrogens RDKit gives atom `a` of the organic subset (none to a
    /// bracket atom), or the error of an aromatic atom at no allowed valence.
    fn implicit_hydrogens(&self, a: usize, explicit: u32) -> Result<u32, String> {
        let Some(atom) = self.atoms.get(a) else {
            return Ok(0);
        };
        let z = usize::from(atom.element);
        if atom.bracket || z == 0 {
            return Ok(0);
        }
        let own = valences(z);
        let mut eff = effective(z, atom.charge);
        if eff == 0 {
            return Ok(0);
        }
        let dv = default_valence(eff);
        if dv == -1 {
            return Ok(0);
        }
        let mut value = explicit as i32;
        if can_be_hypervalent(z, eff) {
            eff = z;
            value -= atom.charge;
        }
        let list = valences(eff);
        if self.is_aromatic(a) {
            if value <= dv {
                return Ok((dv - value) as u32);
            }
            if !list.iter().take_while(|&&v| v > 0).any(|&v| v == value) {
                return Err(format!(
                    "aromatic {} at a valence of {value}, which it may not have",
                    self.name(a)
                ));
            }
            return Ok(0);
        }
        match list.iter().take_while(|&&v| v >= 0).find(|&&v| value <= v) {
            Some(&v) => Ok((v - value) as u32),
            None if last(list) != -1 && last(own) > 0 => Err(format!(
                "{} with a valence of {value}, more than it may have",
                self.name(a)
            )),
            None => Ok(0),
        }
    }

    /// RDKit's clean-up before the valences are checked: `N(=O)=O` as
    /// `[N+](=O)[O-]`, `N=N#N` as `N=[N+]=[N-]`, `C=P(=O)` as `C=[P+][O-]`,
    /// and the oxides of Cl, Br and I as charge-separated.
    pub(super) fn clean_up(&mut self) {
        for a in 0..self.atoms.len() {
            match self.atoms.get(a).map(|x| x.element) {
                Some(7) => self.nitrogen(a),
                Some(15) => self.phosphorus(a),
                Some(17 | 35 | 53) => self.halogen(a),
                _ => {}
            }
        }
    }

    fn charge(&self, a: usize) -> i32 {
        self.atoms.get(a).map_or(0, |x| x.charge)
    }

    fn element(&self, a: usize) -> u8 {
        self.atoms.get(a).map_or(0, |x| x.element)
    }

    fn set_charge(&mut self, a: usize, charge: i32) {
        if let Some(x) = self.atoms.get_mut(a) {
            x.charge = charge;
        }
    }

    fn set_order(&mut self, b: usize, order: Order) {
        if let Some(x) = self.bonds.get_mut(b) {
            x.order = order;
        }
    }

    /// Explicit valence without the aromatic rounding, unchecked.
    fn plain_valence(&self, a: usize) -> u32 {
        self.accumulated(a).div_ceil(2)
    }

    fn nitrogen(&mut self, a: usize) {
        if self.charge(a) != 0 || self.plain_valence(a) != 5 {
            return;
        }
        let found = self.bonds_of(a).find_map(|b| {
            let bond = self.bonds.get(b)?;
            let other = bond.other(a);
            let neutral = self.charge(other) == 0;
            match (self.element(other), bond.order) {
                (8, Order::Double) if neutral => Some((b, other, Order::Single)),
                (7, Order::Triple) if neutral => Some((b, other, Order::Double)),
                _ => None,
            }
        });
        if let Some((b, other, order)) = found {
            self.set_order(b, order);
            self.set_charge(a, 1);
            self.set_charge(other, -1);
        }
    }

    fn phosphorus(&mut self, a: usize) {
        if self.charge(a) != 0 || self.plain_valence(a) != 5 || self.degree(a) != 3 {
            return;
        }
        let mut oxygen = None;
        let mut double_to_c_or_n = false;
        for b in self.bonds_of(a).collect::<Vec<_>>() {
            let Some(bond) = self.bonds.get(b) else {
                continue;
            };
            let other = bond.other(a);
            if bond.order != Order::Double {
                continue;
            }
            match self.element(other) {
                8 if self.charge(other) == 0 => oxygen = Some((b, other)),
                6 | 7 if self.degree(other) >= 2 => double_to_c_or_n = true,
                _ => {}
            }
        }
        if let (true, Some((b, o))) = (double_to_c_or_n, oxygen) {
            self.set_charge(o, -1);
            self.set_order(b, Order::Single);
            self.set_charge(a, 1);
        }
    }

    fn halogen(&mut self, a: usize) {
        let valence = self.plain_valence(a);
        if self.charge(a) != 0 || !matches!(valence, 3 | 5 | 7) {
            return;
        }
        let bonds: Vec<usize> = self.bonds_of(a).collect();
        let all_oxygen = bonds.iter().all(|&b| {
            self.bonds
                .get(b)
                .is_some_and(|bond| self.element(bond.other(a)) == 8)
        });
        if !all_oxygen {
            return;
        }
        let mut charge = 0;
        for b in bonds {
            let Some(bond) = self.bonds.get(b) else {
                continue;
            };
            if bond.order == Order::Double {
                let other = bond.other(a);
                self.set_order(b, Order::Single);
                self.set_charge(other, -1);
                charge += 1;
            }
        }
        self.set_charge(a, charge);
    }

    /// Checks every atom's valence and gives each atom of the organic
    /// subset its hydrogens; then the radicals of bracket atoms.
    pub(super) fn assign_valences(&mut self) -> Result<(), String> {
        for a in 0..self.atoms.len() {
            let aromatic = self.is_aromatic(a);
            let explicit = self.explicit_valence(a, aromatic)?;
            let implicit = self.implicit_hydrogens(a, explicit)?;
            if let Some(x) = self.atoms.get_mut(a) {
                x.explicit_valence = explicit;
                x.implicit = implicit;
            }
        }
        for a in 0..self.atoms.len() {
            let radicals = self.radicals(a);
            if let Some(x) = self.atoms.get_mut(a) {
                x.radicals = radicals;
            }
        }
        Ok(())
    }

    /// The unpaired electrons of a bracket atom (RDKit's rule: what its
    /// bonds and hydrogens leave of its outer shell).
    fn radicals(&self, a: usize) -> u32 {
        let Some(atom) = self.atoms.get(a) else {
            return 0;
        };
        let z = usize::from(atom.element);
        if !atom.bracket || z == 0 {
            return 0;
        }
        let own = valences(z);
        let outer = ELEMENTS.get(z).map_or(0, |e| e.outer_electrons);
        let charge = atom.charge;
        if own == [-1] {
            if self.degree(a) > 0 {
                return 0;
            }
            return ((outer - charge).max(0) % 2) as u32;
        }
        // Bond orders with aromatic ones as 1.5, rounded down.
        let total = (self.accumulated(a) / 2) as i32;
        let base = if z <= 2 { 2 } else { 8 };
        let mut radicals = base - outer - total + charge;
        if radicals < 0 {
            radicals = 0;
            if own.len() > 1
                && let Some(&v) = own.iter().find(|&&v| v - total + charge >= 0)
            {
                radicals = v - total + charge;
            }
        }
        let early = outer - total - charge;
        if early >= 0 {
            radicals = radicals.min(early);
        }
        radicals.max(0) as u32
    }

    /// Before the InChI library sees it, RDKit turns charge-separated
    /// perchlorate back into `Cl(=O)(=O)(=O)O` (`[O-]` kept on one oxygen
    /// of the anion): a `[Cl+3]` with four singly bonded oxygens, at most
    /// one of them uncharged and the others `[O-]`.
    pub(super) fn perchlorate_as_rdkit_gives_it(&mut self) {
        for a in 0..self.atoms.len() {
            if self.element(a) != 17 || self.charge(a) != 3 {
                continue;
            }
            let oxygens: Vec<(usize, usize)> = self
                .bonds_of(a)
                .filter_map(|b| {
                    let bond = self.bonds.get(b)?;
                    let o = bond.other(a);
                    (bond.order == Order::Single && self.element(o) == 8).then_some((b, o))
                })
                .collect();
            let charged = oxygens
                .iter()
                .filter(|&&(_, o)| self.charge(o) == -1)
                .count();
            let uncharged = oxygens
                .iter()
                .filter(|&&(_, o)| self.charge(o) == 0)
                .count();
            if oxygens.len() != 4 || charged + uncharged != 4 || uncharged > 1 {
                continue;
            }
            let mut kept_one = uncharged == 1;
            for (b, o) in oxygens {
                if self.charge(o) == 0 {
                    continue;
                }
                if !kept_one {
                    kept_one = true;
                    continue;
                }
                self.set_order(b, Order::Double);
                self.set_charge(o, 0);
            }
            self.set_charge(a, 0);
        }
    }
}
