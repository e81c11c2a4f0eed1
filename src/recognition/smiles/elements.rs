//! The elements as RDKit's periodic table gives them (RDKit 2026.09.1): symbol, allowed
//! valences (`-1` alone: any), outer electrons. Written by
//! goldens/recognition/make_elements.py; not edited by hand.

/// One element: symbol, allowed valences (ascending; `[-1]` means any),
/// number of outer electrons.
pub struct Element {
    pub symbol: &'static str,
    pub valences: &'static [i32],
    pub outer_electrons: i32,
}

/// Indexed by atomic number; index 0 is the wildcard `*`.
pub const ELEMENTS: [Element; 119] = [
    Element {
        symbol: "*",
        valences: &[-1],
        outer_electrons: 0,
    },
    Element {
        symbol: "H",
        valences: &[1],
        outer_electrons: 1,
    },
    Element {
        symbol: "He",
        valences: &[0],
        outer_electrons: 2,
    },
    Element {
        symbol: "Li",
        valences: &[1, -1],
        outer_electrons: 1,
    },
    Element {
        symbol: "Be",
        valences: &[2],
        outer_electrons: 2,
    },
    Element {
        symbol: "B",
        valences: &[3],
        outer_electrons: 3,
    },
    Element {
        symbol: "C",
        valences: &[4],
        outer_electrons: 4,
    },
    Element {
        symbol: "N",
        valences: &[3],
        outer_electrons: 5,
    },
    Element {
        symbol: "O",
        valences: &[2],
        outer_electrons: 6,
    },
    Element {
        symbol: "F",
        valences: &[1],
        outer_electrons: 7,
    },
    Element {
        symbol: "Ne",
        valences: &[0],
        outer_electrons: 8,
    },
    Element {
        symbol: "Na",
        valences: &[1, -1],
        outer_electrons: 1,
    },
    Element {
        symbol: "Mg",
        valences: &[2, -1],
        outer_electrons: 2,
    },
    Element {
        symbol: "Al",
        valences: &[3],
        outer_electrons: 3,
    },
    Element {
        symbol: "Si",
        valences: &[4],
        outer_electrons: 4,
    },
    Element {
        symbol: "P",
        valences: &[3, 5],
        outer_electrons: 5,
    },
    Element {
        symbol: "S",
        valences: &[2, 4, 6],
        outer_electrons: 6,
    },
    Element {
        symbol: "Cl",
        valences: &[1],
        outer_electrons: 7,
    },
    Element {
        symbol: "Ar",
        valences: &[0],
        outer_electrons: 8,
    },
    Element {
        symbol: "K",
        valences: &[1, -1],
        outer_electrons: 1,
    },
    Element {
        symbol: "Ca",
        valences: &[2, -1],
        outer_electrons: 2,
    },
    Element {
        symbol: "Sc",
        valences: &[-1],
        outer_electrons: 3,
    },
    Element {
        symbol: "Ti",
        valences: &[-1],
        outer_electrons: 4,
    },
    Element {
        symbol: "V",
        valences: &[-1],
        outer_electrons: 5,
    },
    Element {
        symbol: "Cr",
        valences: &[-1],
        outer_electrons: 6,
    },
    Element {
        symbol: "Mn",
        valences: &[-1],
        outer_electrons: 7,
    },
    Element {
        symbol: "Fe",
        valences: &[-1],
        outer_electrons: 8,
    },
    Element {
        symbol: "Co",
        valences: &[-1],
        outer_electrons: 9,
    },
    Element {
        symbol: "Ni",
        valences: &[-1],
        outer_electrons: 10,
    },
    Element {
        symbol: "Cu",
        valences: &[-1],
        outer_electrons: 11,
    },
    Element {
        symbol: "Zn",
        valences: &[-1],
        outer_electrons: 2,
    },
    Element {
        symbol: "Ga",
        valences: &[3],
        outer_electrons: 3,
    },
    Element {
        symbol: "Ge",
        valences: &[4],
        outer_electrons: 4,
    },
    Element {
        symbol: "As",
        valences: &[3, 5],
        outer_electrons: 5,
    },
    Element {
        symbol: "Se",
        valences: &[2, 4, 6],
        outer_electrons: 6,
    },
    Element {
        symbol: "Br",
        valences: &[1],
        outer_electrons: 7,
    },
    Element {
        symbol: "Kr",
        valences: &[0],
        outer_electrons: 8,
    },
    Element {
        symbol: "Rb",
        valences: &[1, -1],
        outer_electrons: 1,
    },
    Element {
        symbol: "Sr",
        valences: &[2, -1],
        outer_electrons: 2,
    },
    Element {
        symbol: "Y",
        valences: &[-1],
        outer_electrons: 3,
    },
    Element {
        symbol: "Zr",
        valences: &[-1],
        outer_electrons: 4,
    },
    Element {
        symbol: "Nb",
        valences: &[-1],
        outer_electrons: 5,
    },
    Element {
        symbol: "Mo",
        valences: &[-1],
        outer_electrons: 6,
    },
    Element {
        symbol: "Tc",
        valences: &[-1],
        outer_electrons: 7,
    },
    Element {
        symbol: "Ru",
        valences: &[-1],
        outer_electrons: 8,
    },
    Element {
        symbol: "Rh",
        valences: &[-1],
        outer_electrons: 9,
    },
    Element {
        symbol: "Pd",
        valences: &[-1],
        outer_electrons: 10,
    },
    Element {
        symbol: "Ag",
        valences: &[-1],
        outer_electrons: 11,
    },
    Element {
        symbol: "Cd",
        valences: &[-1],
        outer_electrons: 2,
    },
    Element {
        symbol: "In",
        valences: &[3],
        outer_electrons: 3,
    },
    Element {
        symbol: "Sn",
        valences: &[2, 4],
        outer_electrons: 4,
    },
    Element {
        symbol: "Sb",
        valences: &[3, 5],
        outer_electrons: 5,
    },
    Element {
        symbol: "Te",
        valences: &[2, 4, 6],
        outer_electrons: 6,
    },
    Element {
        symbol: "I",
        valences: &[1, 3, 5],
        outer_electrons: 7,
    },
    Element {
        symbol: "Xe",
        valences: &[0, 2, 4, 6],
        outer_electrons: 8,
    },
    Element {
        symbol: "Cs",
        valences: &[1],
        outer_electrons: 1,
    },
    Element {
        symbol: "Ba",
        valences: &[2, -1],
        outer_electrons: 2,
    },
    Element {
        symbol: "La",
        valences: &[-1],
        outer_electrons: 3,
    },
    Element {
        symbol: "Ce",
        valences: &[-1],
        outer_electrons: 4,
    },
    Element {
        symbol: "Pr",
        valences: &[-1],
        outer_electrons: 3,
    },
    Element {
        symbol: "Nd",
        valences: &[-1],
        outer_electrons: 4,
    },
    Element {
        symbol: "Pm",
        valences: &[-1],
        outer_electrons: 5,
    },
    Element {
        symbol: "Sm",
        valences: &[-1],
        outer_electrons: 6,
    },
    Element {
        symbol: "Eu",
        valences: &[-1],
        outer_electrons: 7,
    },
    Element {
        symbol: "Gd",
        valences: &[-1],
        outer_electrons: 8,
    },
    Element {
        symbol: "Tb",
        valences: &[-1],
        outer_electrons: 9,
    },
    Element {
        symbol: "Dy",
        valences: &[-1],
        outer_electrons: 10,
    },
    Element {
        symbol: "Ho",
        valences: &[-1],
        outer_electrons: 11,
    },
    Element {
        symbol: "Er",
        valences: &[-1],
        outer_electrons: 12,
    },
    Element {
        symbol: "Tm",
        valences: &[-1],
        outer_electrons: 13,
    },
    Element {
        symbol: "Yb",
        valences: &[-1],
        outer_electrons: 14,
    },
    Element {
        symbol: "Lu",
        valences: &[-1],
        outer_electrons: 15,
    },
    Element {
        symbol: "Hf",
        valences: &[-1],
        outer_electrons: 4,
    },
    Element {
        symbol: "Ta",
        valences: &[-1],
        outer_electrons: 5,
    },
    Element {
        symbol: "W",
        valences: &[-1],
        outer_electrons: 6,
    },
    Element {
        symbol: "Re",
        valences: &[-1],
        outer_electrons: 7,
    },
    Element {
        symbol: "Os",
        valences: &[-1],
        outer_electrons: 8,
    },
    Element {
        symbol: "Ir",
        valences: &[-1],
        outer_electrons: 9,
    },
    Element {
        symbol: "Pt",
        valences: &[-1],
        outer_electrons: 10,
    },
    Element {
        symbol: "Au",
        valences: &[-1],
        outer_electrons: 11,
    },
    Element {
        symbol: "Hg",
        valences: &[-1],
        outer_electrons: 2,
    },
    Element {
        symbol: "Tl",
        valences: &[-1],
        outer_electrons: 3,
    },
    Element {
        symbol: "Pb",
        valences: &[2, 4],
        outer_electrons: 4,
    },
    Element {
        symbol: "Bi",
        valences: &[3, 5],
        outer_electrons: 5,
    },
    Element {
        symbol: "Po",
        valences: &[2, 4, 6],
        outer_electrons: 6,
    },
    Element {
        symbol: "At",
        valences: &[1, 3, 5],
        outer_electrons: 7,
    },
    Element {
        symbol: "Rn",
        valences: &[0],
        outer_electrons: 8,
    },
    Element {
        symbol: "Fr",
        valences: &[1],
        outer_electrons: 1,
    },
    Element {
        symbol: "Ra",
        valences: &[2, -1],
        outer_electrons: 2,
    },
    Element {
        symbol: "Ac",
        valences: &[-1],
        outer_electrons: 3,
    },
    Element {
        symbol: "Th",
        valences: &[-1],
        outer_electrons: 4,
    },
    Element {
        symbol: "Pa",
        valences: &[-1],
        outer_electrons: 3,
    },
    Element {
        symbol: "U",
        valences: &[-1],
        outer_electrons: 4,
    },
    Element {
        symbol: "Np",
        valences: &[-1],
        outer_electrons: 5,
    },
    Element {
        symbol: "Pu",
        valences: &[-1],
        outer_electrons: 6,
    },
    Element {
        symbol: "Am",
        valences: &[-1],
        outer_electrons: 7,
    },
    Element {
        symbol: "Cm",
        valences: &[-1],
        outer_electrons: 8,
    },
    Element {
        symbol: "Bk",
        valences: &[-1],
        outer_electrons: 9,
    },
    Element {
        symbol: "Cf",
        valences: &[-1],
        outer_electrons: 10,
    },
    Element {
        symbol: "Es",
        valences: &[-1],
        outer_electrons: 11,
    },
    Element {
        symbol: "Fm",
        valences: &[-1],
        outer_electrons: 12,
    },
    Element {
        symbol: "Md",
        valences: &[-1],
        outer_electrons: 13,
    },
    Element {
        symbol: "No",
        valences: &[-1],
        outer_electrons: 14,
    },
    Element {
        symbol: "Lr",
        valences: &[-1],
        outer_electrons: 15,
    },
    Element {
        symbol: "Rf",
        valences: &[-1],
        outer_electrons: 2,
    },
    Element {
        symbol: "Db",
        valences: &[-1],
        outer_electrons: 2,
    },
    Element {
        symbol: "Sg",
        valences: &[-1],
        outer_electrons: 2,
    },
    Element {
        symbol: "Bh",
        valences: &[-1],
        outer_electrons: 2,
    },
    Element {
        symbol: "Hs",
        valences: &[-1],
        outer_electrons: 2,
    },
    Element {
        symbol: "Mt",
        valences: &[-1],
        outer_electrons: 2,
    },
    Element {
        symbol: "Ds",
        valences: &[-1],
        outer_electrons: 2,
    },
    Element {
        symbol: "Rg",
        valences: &[-1],
        outer_electrons: 2,
    },
    Element {
        symbol: "Cn",
        valences: &[-1],
        outer_electrons: 2,
    },
    Element {
        symbol: "Nh",
        valences: &[-1],
        outer_electrons: 2,
    },
    Element {
        symbol: "Fl",
        valences: &[-1],
        outer_electrons: 2,
    },
    Element {
        symbol: "Mc",
        valences: &[-1],
        outer_electrons: 2,
    },
    Element {
        symbol: "Lv",
        valences: &[-1],
        outer_electrons: 2,
    },
    Element {
        symbol: "Ts",
        valences: &[-1],
        outer_electrons: 2,
    },
    Element {
        symbol: "Og",
        valences: &[-1],
        outer_electrons: 2,
    },
];
