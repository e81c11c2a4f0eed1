//! SMILES read into the connection table the InChI library takes: atoms
//! with their charges, isotopes, hydrogens and radicals, bonds of a Kekulé
//! structure, and stereo as 0D parities. RDKit's `MolFromSmiles` is the
//! reference: a SMILES it refuses is refused here, and every other one
//! gives the Standard InChI that `MolToInchi(MolFromSmiles(s))` gives
//! (docs/recognition.md, "SMILES").

pub mod elements;
mod kekule;
pub mod parse;
mod stereo;
pub mod table;
mod valence;

use parse::{Chirality, Written};

/// A bond's order in the connection table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Single,
    Double,
    Triple,
    Quadruple,
    Aromatic,
}

#[derive(Clone, Debug)]
struct Atom {
    element: u8,
    aromatic: bool,
    bracket: bool,
    isotope: Option<u16>,
    charge: i32,
    /// Hydrogens written in the bracket.
    hydrogens: u32,
    /// Hydrogens the valence model adds (organic subset only).
    implicit: u32,
    explicit_valence: u32,
    radicals: u32,
    chirality: Option<Chirality>,
    position: usize,
    /// Neighbour order as written (bond indices; `None`: the bracket's
    /// hydrogens).
    order: Vec<Option<usize>>,
}

#[derive(Clone, Debug)]
struct Bond {
    a: usize,
    b: usize,
    order: Order,
    written: Written,
}

impl Bond {
    fn other(&self, a: usize) -> usize {
        if self.a == a { self.b } else { self.a }
    }
}

/// A molecule read from SMILES.
#[derive(Clone, Debug)]
pub struct Molecule {
    atoms: Vec<Atom>,
    bonds: Vec<Bond>,
    /// Bond indices of each atom, in the order the bonds were made.
    incident: Vec<Vec<usize>>,
    /// Per bond, whether it lies in a ring.
    in_ring: Vec<bool>,
}

/// Why a SMILES gives no structure: the message, and the 1-based character
/// position it concerns when there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub position: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.position {
            Some(p) => write!(f, "character {p}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl Molecule {
    fn bonds_of(&self, a: usize) -> impl Iterator<Item = usize> + '_ {
        self.incident.get(a).into_iter().flatten().copied()
    }

    fn degree(&self, a: usize) -> usize {
        self.incident.get(a).map_or(0, Vec::len)
    }

    /// An atom named for a message: its symbol and character position.
    fn name(&self, a: usize) -> String {
        match self.atoms.get(a) {
            Some(x) => {
                let symbol = elements::ELEMENTS
                    .get(usize::from(x.element))
                    .map_or("?", |e| e.symbol);
                format!("{symbol} at character {}", x.position)
            }
            None => format!("atom {a}"),
        }
    }

    fn hydrogen_count(&self, a: usize) -> u32 {
        self.atoms.get(a).map_or(0, |x| x.hydrogens + x.implicit)
    }
}

fn refusal(position: Option<usize>, message: impl Into<String>) -> Refusal {
    Refusal {
        position,
        message: message.into(),
    }
}

/// Reads one SMILES into a molecule as RDKit sanitizes it, or says why
/// RDKit would refuse it (or why it has no InChI: a `*` atom).
pub fn read(smiles: &str) -> Result<Molecule, Refusal> {
    let parsed = parse::parse(smiles).map_err(|e| refusal(Some(e.position), e.message))?;
    if let Some(star) = parsed.atoms.iter().find(|a| a.element == 0) {
        return Err(refusal(
            Some(star.position),
            "a `*` atom (any atom) has no InChI",
        ));
    }
    let mut molecule = Molecule {
        atoms: parsed
            .atoms
            .into_iter()
            .map(|a| Atom {
                element: a.element,
                aromatic: a.aromatic,
                bracket: a.bracket,
                isotope: a.isotope,
                charge: a.charge,
                hydrogens: a.hydrogens,
                implicit: 0,
                explicit_valence: 0,
                radicals: 0,
                chirality: a.chirality,
                position: a.position,
                order: a.order,
            })
            .collect(),
        bonds: Vec::with_capacity(parsed.bonds.len()),
        incident: Vec::new(),
        in_ring: Vec::new(),
    };
    molecule.incident = vec![Vec::new(); molecule.atoms.len()];
    for (index, bond) in parsed.bonds.iter().enumerate() {
        let order = match bond.written {
            Written::Single | Written::Up | Written::Down => Order::Single,
            Written::Double => Order::Double,
            Written::Triple => Order::Triple,
            Written::Quadruple => Order::Quadruple,
            Written::Aromatic => Order::Aromatic,
            Written::Unspecified => {
                let aromatic = |i: usize| molecule.atoms.get(i).is_some_and(|a| a.aromatic);
                if aromatic(bond.from) && aromatic(bond.to) {
                    Order::Aromatic
                } else {
                    Order::Single
                }
            }
        };
        molecule.bonds.push(Bond {
            a: bond.from,
            b: bond.to,
            order,
            written: bond.written,
        });
        for end in [bond.from, bond.to] {
            if let Some(list) = molecule.incident.get_mut(end) {
                list.push(index);
            }
        }
    }
    molecule.check_rings()?;
    molecule.clean_up();
    molecule
        .assign_valences()
        .map_err(|message| refusal(None, message))?;
    molecule.kekulize()?;
    molecule.perchlorate_as_rdkit_gives_it();
    Ok(molecule)
}

impl Molecule {
    /// An aromatic atom outside every ring is refused, as RDKit refuses it;
    /// a bond between aromatic atoms that is in no ring is single.
    fn check_rings(&mut self) -> Result<(), Refusal> {
        self.in_ring = kekule::ring_bonds(self);
        let in_ring = &self.in_ring;
        for (i, bond) in self.bonds.iter_mut().enumerate() {
            let ring = in_ring.get(i).copied().unwrap_or(false);
            if bond.order == Order::Aromatic && !ring && bond.written == Written::Unspecified {
                bond.order = Order::Single;
            }
        }
        for a in 0..self.atoms.len() {
            let aromatic = self.atoms.get(a).is_some_and(|x| x.aromatic);
            let ring = self
                .bonds_of(a)
                .any(|b| self.in_ring.get(b).copied().unwrap_or(false));
            if aromatic && !ring {
                return Err(refusal(
                    self.atoms.get(a).map(|x| x.position),
                    format!("{} is aromatic but in no ring", self.name(a)),
                ));
            }
        }
        Ok(())
    }

    /// The molecule in the InChI library's terms.
    pub fn to_inchi_input(&self) -> ::inchi::Molecule {
        let mut molecule = ::inchi::Molecule::new();
        for atom in &self.atoms {
            let symbol = elements::ELEMENTS
                .get(usize::from(atom.element))
                .map_or("C", |e| e.symbol);
            let mut built = ::inchi::Atom::new(symbol)
                .charge(atom.charge.clamp(-127, 127) as i8)
                .implicit_hydrogens(::inchi::ImplicitH::Exactly(
                    (atom.hydrogens + atom.implicit).min(127) as u8,
                ));
            if let Some(mass) = atom.isotope {
                built = built.isotope(mass);
            }
            built = built.radical(match atom.radicals {
                1 => ::inchi::Radical::Doublet,
                2 => ::inchi::Radical::Triplet,
                _ => ::inchi::Radical::None,
            });
            molecule.add_atom(built);
        }
        for bond in &self.bonds {
            let order = match bond.order {
                Order::Single => ::inchi::BondOrder::Single,
                Order::Double => ::inchi::BondOrder::Double,
                Order::Triple => ::inchi::BondOrder::Triple,
                // Left only where kekulization found no double bond to give.
                Order::Aromatic | Order::Quadruple => ::inchi::BondOrder::Single,
            };
            // Atom indices are in range by construction.
            let _ = molecule.add_bond(bond.a, bond.b, order);
        }
        for stereo in self.stereo() {
            molecule.add_stereo(stereo);
        }
        molecule
    }
}

/// The Standard InChI of one SMILES, or why there is none.
pub fn convert(smiles: &str) -> crate::recognition::inchi::Conversion {
    let molecule = read(smiles).map_err(|r| r.to_string())?;
    if molecule.bonds.iter().any(|b| b.order == Order::Quadruple) {
        return Err("a quadruple bond has no InChI".into());
    }
    crate::recognition::inchi::from_molecule(&molecule.to_inchi_input())
}

#[cfg(test)]
mod tests;
