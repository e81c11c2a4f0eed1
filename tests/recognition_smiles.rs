//! Agreement with RDKit on SMILES (goldens/recognition/smiles/rdkit_cases.tsv,
//! written by make_smiles.py with RDKit 2026.09.1 and its InChI 1.07.3, the
//! version vendored here): for every SMILES that RDKit reads, our Standard
//! InChI equals `MolToInchi(MolFromSmiles(s))`; every SMILES it refuses, or
//! gives no InChI for, gives none here either.

use clefeval::recognition::smiles;
use std::path::Path;

#[test]
fn standard_inchis_of_smiles_equal_rdkits() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("goldens/recognition/smiles/rdkit_cases.tsv");
    let text = std::fs::read_to_string(path).unwrap();
    let (mut cases, mut with_inchi, mut stereo) = (0, 0, 0);
    let mut disagreements = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [s, status, expected, note] = fields[..] else {
            panic!("bad line {line:?}");
        };
        cases += 1;
        let ours = smiles::convert(s);
        let agrees = match (status, &ours) {
            ("inchi", Ok(got)) => got.inchi == expected,
            ("refused" | "no-inchi", Err(_)) => true,
            _ => false,
        };
        if status == "inchi" {
            with_inchi += 1;
            stereo += usize::from(expected.contains("/t") || expected.contains("/b"));
        }
        if !agrees {
            disagreements.push(format!(
                "{s} ({note}): RDKit {status} {expected}, ours {ours:?}"
            ));
        }
    }
    assert!(cases >= 300, "only {cases} cases");
    assert!(
        with_inchi >= 250 && stereo >= 80,
        "{with_inchi} InChIs, {stereo} with stereo"
    );
    assert!(
        disagreements.is_empty(),
        "{} of {cases}:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}
