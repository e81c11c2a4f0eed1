//! The layers of a Standard InChI, and the first one in which a submitted
//! structure differs from its gold one: what kind of error a recognizer
//! made (docs/metrics.md, "First differing layer").
//!
//! Layers are compared in this order: the formula; connections (`/c`);
//! hydrogens (`/h`); charge (`/q`); protons (`/p`); stereo (`/b`, `/t`,
//! `/m`, `/s` of the main part); isotopes (`/i` and every layer after it,
//! the isotopic stereo included).

use serde::{Deserialize, Serialize};

/// A group of InChI layers, in the order they are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Layer {
    Formula,
    Connections,
    Hydrogens,
    Charge,
    Protons,
    Stereo,
    Isotopes,
}

impl Layer {
    pub const ALL: [Layer; 7] = [
        Layer::Formula,
        Layer::Connections,
        Layer::Hydrogens,
        Layer::Charge,
        Layer::Protons,
        Layer::Stereo,
        Layer::Isotopes,
    ];

    /// The name used in JSON, tables and the review page.
    pub fn name(self) -> &'static str {
        match self {
            Layer::Formula => "formula",
            Layer::Connections => "connections",
            Layer::Hydrogens => "hydrogens",
            Layer::Charge => "charge",
            Layer::Protons => "protons",
            Layer::Stereo => "stereo",
            Layer::Isotopes => "isotopes",
        }
    }
}

/// An InChI's layers grouped as [`Layer`] lists them, each group the text
/// of its layers joined (empty when absent).
fn groups(inchi: &str) -> [String; 7] {
    let mut out: [String; 7] = Default::default();
    let mut parts = inchi.split('/').skip(1);
    if let (Some(formula), Some(slot)) = (parts.next(), out.get_mut(0)) {
        *slot = formula.to_string();
    }
    let mut isotopic = false;
    for layer in parts {
        isotopic |= layer.starts_with('i');
        let group = match layer.chars().next() {
            _ if isotopic => 6,
            Some('c') => 1,
            Some('h') => 2,
            Some('q') => 3,
            Some('p') => 4,
            Some('b' | 't' | 'm' | 's') => 5,
            // Any other layer (`/f`, `/r` of non-standard InChIs) counts
            // with the connections.
            _ => 1,
        };
        if let Some(text) = out.get_mut(group) {
            text.push('/');
            text.push_str(layer);
        }
    }
    out
}

/// The first group of layers in which `run` differs from `gold`; `None`
/// when the InChIs are equal.
pub fn first_difference(gold: &str, run: &str) -> Option<Layer> {
    if gold == run {
        return None;
    }
    let (g, r) = (groups(gold), groups(run));
    Layer::ALL
        .iter()
        .zip(g.iter().zip(r.iter()))
        .find(|(_, (a, b))| a != b)
        .map(|(layer, _)| *layer)
        // Equal groups but different strings cannot happen for two
        // Standard InChIs; say the connections if it does.
        .or(Some(Layer::Connections))
}

/// Whether an InChI has a stereo layer (`/b`, `/t`, main or isotopic).
pub fn has_stereo(inchi: &str) -> bool {
    inchi
        .split('/')
        .skip(2)
        .any(|layer| layer.starts_with(['b', 't']))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Standard InChIs as RDKit 2026.09.1 gives them for the SMILES named.
    const ALANINE_L: &str = "InChI=1S/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)/t2-/m0/s1"; // N[C@@H](C)C(=O)O
    const ALANINE_D: &str = "InChI=1S/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)/t2-/m1/s1"; // N[C@H](C)C(=O)O
    const ALANINE: &str = "InChI=1S/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)"; // NC(C)C(=O)O
    const SARCOSINE: &str = "InChI=1S/C3H7NO2/c1-4-2-3(5)6/h4H,2H2,1H3,(H,5,6)"; // CNCC(=O)O
    const ETHANOL: &str = "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3"; // CCO
    const ETHANOL_13C: &str = "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3/i2+1"; // C[13CH2]O
    const METHYLAMMONIUM: &str = "InChI=1S/CH5N/c1-2/h2H2,1H3/p+1"; // [NH3+]C
    const METHYLAMINE: &str = "InChI=1S/CH5N/c1-2/h2H2,1H3"; // CN
    const METHYLIUM: &str = "InChI=1S/CH3/h1H3/q+1"; // [CH3+]
    const METHYL: &str = "InChI=1S/CH3/h1H3"; // [CH3]
    const BUTENE_E: &str = "InChI=1S/C4H8/c1-3-4-2/h3-4H,1-2H3/b4-3+"; // C/C=C/C
    const BUTENE_Z: &str = "InChI=1S/C4H8/c1-3-4-2/h3-4H,1-2H3/b4-3-"; // C/C=C\C
    const ETHANOL_D_S: &str = "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3/i2D/t2-/m0/s1"; // C[C@H]([2H])O
    const ETHANOL_D_R: &str = "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3/i2D/t2-/m1/s1"; // C[C@@H]([2H])O
    const ETHENE: &str = "InChI=1S/C2H4/c1-2/h1-2H2"; // C=C
    const ETHANE: &str = "InChI=1S/C2H6/c1-2/h1-2H3"; // CC

    #[test]
    fn the_first_differing_layer_names_the_kind_of_error() {
        let cases = [
            (ALANINE_L, ALANINE_L, None),
            (ALANINE_L, ALANINE_D, Some(Layer::Stereo)),
            (ALANINE_L, ALANINE, Some(Layer::Stereo)),
            (ALANINE, SARCOSINE, Some(Layer::Connections)),
            (ALANINE_L, SARCOSINE, Some(Layer::Connections)),
            (ETHANOL, ETHANOL_13C, Some(Layer::Isotopes)),
            (METHYLAMMONIUM, METHYLAMINE, Some(Layer::Protons)),
            (METHYLIUM, METHYL, Some(Layer::Charge)),
            (BUTENE_E, BUTENE_Z, Some(Layer::Stereo)),
            (ETHANOL_D_S, ETHANOL_D_R, Some(Layer::Isotopes)),
            (ETHENE, ETHANE, Some(Layer::Formula)),
            (ETHANOL, ALANINE, Some(Layer::Formula)),
        ];
        for (gold, run, expected) in cases {
            assert_eq!(first_difference(gold, run), expected, "{gold} / {run}");
        }
    }

    #[test]
    fn hydrogens_differ_where_only_the_hydrogen_layer_does() {
        // A hand-made pair that differs in /h alone (one hydrogen moved
        // from O to C with the formula and connections kept).
        let a = "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3";
        let b = "InChI=1S/C2H6O/c1-2-3/h2-3H,1H3";
        assert_eq!(first_difference(a, b), Some(Layer::Hydrogens));
    }

    #[test]
    fn stereo_is_seen_in_the_main_and_the_isotopic_part() {
        assert!(has_stereo(ALANINE_L));
        assert!(has_stereo(BUTENE_Z));
        assert!(has_stereo(ETHANOL_D_S));
        assert!(!has_stereo(ALANINE));
        assert!(!has_stereo(ETHANOL_13C));
    }
}
