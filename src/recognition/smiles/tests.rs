//! Hand-checked cases of the SMILES reader; the agreement with RDKit on
//! hundreds of SMILES is tests/recognition_smiles.rs.

use super::*;

fn hydrogens(smiles: &str) -> Vec<u32> {
    let m = read(smiles).unwrap();
    (0..m.atoms.len()).map(|a| m.hydrogen_count(a)).collect()
}

#[test]
fn implicit_hydrogens_follow_the_lowest_allowed_valence() {
    assert_eq!(hydrogens("CCO"), [3, 2, 1]);
    assert_eq!(hydrogens("CS(=O)C"), [3, 0, 0, 3]);
    assert_eq!(hydrogens("c1ccccc1"), [1; 6]);
    assert_eq!(hydrogens("c1cc[nH]c1"), [1, 1, 1, 1, 1]);
    assert_eq!(hydrogens("[CH3]C"), [3, 3]);
    assert_eq!(hydrogens("[NH4+]"), [4]);
}

#[test]
fn syntax_errors_name_the_character() {
    let at = |s: &str| read(s).unwrap_err().position;
    assert_eq!(at("C(C"), Some(2));
    assert_eq!(at("C)C"), Some(2));
    assert_eq!(at("CC=.C"), Some(3));
    assert_eq!(at("C1CC"), Some(2));
    assert_eq!(at("C[Xx]"), Some(3));
    assert_eq!(at("C C"), Some(2));
}

#[test]
fn a_smiles_of_more_atoms_than_the_inchi_library_takes_is_refused() {
    let most = "C".repeat(parse::MAX_ATOMS);
    assert_eq!(read(&most).map(|m| m.atoms.len()).ok(), Some(1024));
    // Branches are read without recursion: 1 000 nested ones are fine.
    let nested = format!("C{}{}", "(C".repeat(1000), ")".repeat(1000));
    assert_eq!(read(&nested).map(|m| m.atoms.len()).ok(), Some(1001));
    let err = read(&format!("{most}C")).unwrap_err();
    assert_eq!(err.position, Some(1025));
    assert!(
        err.message.contains("more than 1024 atoms"),
        "{}",
        err.message
    );
}
