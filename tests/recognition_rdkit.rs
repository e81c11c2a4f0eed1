//! Agreement with an independent toolkit: for 300 real molecules (NCI
//! sample and EGFR ligands shipped with RDKit; 2D with wedges, 3D, V2000
//! and V3000), our Standard InChI equals the one RDKit computed from its own
//! molecule (goldens/recognition/rdkit/agreement.sdf, written by
//! make_rdkit_agreement.py).

use clefeval::recognition::{inchi, molfile};
use std::path::Path;

#[test]
fn standard_inchis_equal_rdkits_for_300_molecules() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("goldens/recognition/rdkit/agreement.sdf");
    let sdf = std::fs::read_to_string(path).unwrap();
    let records: Vec<&str> = sdf
        .split("$$$$\n")
        .filter(|r| !r.trim().is_empty())
        .collect();
    assert_eq!(records.len(), 300);
    let mut stereo = 0;
    let mut disagreements = Vec::new();
    for record in records {
        let rdkit = record
            .split("> <RDKIT_INCHI>\n")
            .nth(1)
            .and_then(|rest| rest.lines().next())
            .unwrap();
        let checked = molfile::from_bytes(record.as_bytes()).unwrap();
        let ours = inchi::convert(&checked.text).unwrap().inchi;
        if ours != rdkit {
            disagreements.push(format!(
                "{}: ours {ours}, RDKit {rdkit}",
                record.lines().next().unwrap()
            ));
        }
        stereo += usize::from(rdkit.contains("/t") || rdkit.contains("/b"));
    }
    assert!(disagreements.is_empty(), "{disagreements:#?}");
    assert!(stereo >= 90, "only {stereo} molecules with stereo layers");
}
