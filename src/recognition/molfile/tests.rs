use super::*;

const ETHANOL: &str = "\n  test\n\n  3  2  0  0  0  0  0  0  0  0999 V2000
    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    1.2990    0.7500    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    2.5981   -0.0000    0.0000 O   0  5  0  0  0  0  0  0  0  0  0  0
  1  2  1  0
  2  3  1  6
M  END
";

#[test]
fn reads_a_v2000_record() {
    let record = from_bytes(ETHANOL.as_bytes()).unwrap();
    let m = &record.molecule;
    assert_eq!(m.atoms.len(), 3);
    assert_eq!(m.atoms[2].symbol, "O");
    assert_eq!(m.atoms[2].charge, -1);
    assert_eq!((m.atoms[1].x, m.atoms[1].y), (1.299, 0.75));
    assert_eq!(
        m.bonds[1],
        Bond {
            from: 1,
            to: 2,
            order: BondOrder::Single,
            stereo: BondStereo::Hash
        }
    );
    assert!(record.notes.is_empty());
}

#[test]
fn charge_and_isotope_properties_override_the_atom_block() {
    let text = ETHANOL.replace(
        "M  END",
        "A    1\nM  END\nM  CHG  1   1   1\nM  ISO  1   3  18\nM  END",
    );
    // The alias text line `M  END` ends nothing; the properties apply.
    let m = parse(&text).unwrap();
    assert_eq!(m.atoms[0].charge, 1);
    assert_eq!(m.atoms[2].charge, 0, "M  CHG voids atom-block charges");
    assert_eq!(m.atoms[2].isotope, Some(18));
    assert_eq!(m.atoms[0].alias.as_deref(), Some("M  END"));
    assert_eq!(
        refusal(&m).unwrap(),
        "atom 1 is drawn as the alias \"M  END\", which the InChI library ignores"
    );
}

#[test]
fn crlf_and_first_sdf_record() {
    let sdf = format!("{ETHANOL}> <ID>\n7\n\n$$$$\njunk that is not read\n").replace('\n', "\r\n");
    let record = from_bytes(sdf.as_bytes()).unwrap();
    assert!(record.text.starts_with("\n  test\n"));
    assert!(record.text.ends_with("> <ID>\n7\n\n"));
    assert_eq!(record.molecule.atoms.len(), 3);
}

#[test]
fn counts_line_promising_999_atoms() {
    let text = ETHANOL.replacen("  3  2  0", "999  2  0", 1);
    let err = from_bytes(text.as_bytes()).unwrap_err();
    assert_eq!(
        err,
        "line 10: M  END inside the atom block (the counts line promises 999 atoms and 2 bonds)"
    );
    let cut =
        "\n\n\n  5  0  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 C   0  0\n";
    assert_eq!(
        parse(cut).unwrap_err(),
        "line 4: the counts line promises 5 atoms and 0 bonds but the file ends at line 5 \
         inside the atom block"
    );
}

#[test]
fn bad_bonds_and_counts() {
    let text = ETHANOL.replace("  2  3  1  6", "  2  9  1  6");
    assert_eq!(
        parse(&text).unwrap_err(),
        "line 9: a bond names atom 9 but there are 3 atoms"
    );
    let text = ETHANOL.replace("  3  2  0  0", "  x  2  0  0");
    assert!(
        parse(&text)
            .unwrap_err()
            .starts_with("line 4: the counts line")
    );
    assert_eq!(
        parse("\n\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n").unwrap_err(),
        "the structure has no atoms"
    );
    assert_eq!(
        parse("one\ntwo\n").unwrap_err(),
        "only 2 lines; a MOL file has a 3-line header and a counts line"
    );
}

#[test]
fn nul_bytes_empty_and_oversized_input() {
    let mut bytes = ETHANOL.as_bytes().to_vec();
    bytes[40] = 0;
    assert_eq!(
        from_bytes(&bytes).unwrap_err(),
        "binary data (a NUL byte), not a MOL file; not read"
    );
    assert_eq!(from_bytes(b"").unwrap_err(), "empty file");
    assert_eq!(from_bytes(b" \n\r\n").unwrap_err(), "empty file");
    let junk = vec![b'x'; MAX_FILE_BYTES + 1];
    assert!(
        from_bytes(&junk)
            .unwrap_err()
            .starts_with("larger than the 16 MiB")
    );
    // A large SDF whose first record ends early is still read.
    let mut sdf = format!("{ETHANOL}$$$$\n").into_bytes();
    sdf.resize(MAX_FILE_BYTES + 1, b'x');
    assert_eq!(from_bytes(&sdf).unwrap().molecule.atoms.len(), 3);
}

#[test]
fn latin1_bytes_are_read_with_a_note() {
    let mut bytes = ETHANOL.as_bytes().to_vec();
    bytes[3] = 0xE9; // 'é' in Latin-1, in the title line
    let record = from_bytes(&bytes).unwrap();
    assert_eq!(record.notes, vec!["not UTF-8; read as Latin-1".to_owned()]);
    assert!(record.text.contains('é'));
}

#[test]
fn whitespace_separated_fields_are_accepted() {
    let text = "\n\n\n  2  1  0  0  0  0  0  0  0  0999 V2000\n0.0 0.0 0.0 C 0 0\n1.5 0.0 0.0 N 0 3\n1 2 3\nM  END\n";
    let m = parse(text).unwrap();
    assert_eq!(m.atoms[1].symbol, "N");
    assert_eq!(m.atoms[1].charge, 1);
    assert_eq!(m.bonds[0].order, BondOrder::Triple);
}

const V3000: &str = "\n  test\n\n  0  0  0     0  0            999 V3000
M  V30 BEGIN CTAB
M  V30 COUNTS 3 2 0 0 0
M  V30 BEGIN ATOM
M  V30 10 C 0.0 0.0 0 0
M  V30 20 N 1.5 0.0 0 0 CHG=1 MASS=15
M  V30 30 \"O\" 3.0 -
M  V30 0.5 0 0 CHG=-1
M  V30 END ATOM
M  V30 BEGIN BOND
M  V30 1 1 10 20 CFG=1
M  V30 2 2 20 30
M  V30 END BOND
M  V30 BEGIN COLLECTION
M  V30 MDLV30/STEABS ATOMS=(1 10)
M  V30 END COLLECTION
M  V30 END CTAB
M  END
";

#[test]
fn reads_a_v3000_record() {
    let m = parse(V3000).unwrap();
    assert_eq!(m.atoms.len(), 3);
    assert_eq!((m.atoms[1].charge, m.atoms[1].isotope), (1, Some(15)));
    assert_eq!(
        (m.atoms[2].symbol.as_str(), m.atoms[2].y, m.atoms[2].charge),
        ("O", 0.5, -1)
    );
    assert_eq!(m.bonds[0].stereo, BondStereo::Wedge);
    assert_eq!((m.bonds[1].from, m.bonds[1].to), (1, 2));
    assert_eq!(m.bonds[1].order, BondOrder::Double);
}

#[test]
fn v3000_counts_and_references_are_checked() {
    let text = V3000.replace("COUNTS 3 2", "COUNTS 4 2");
    assert_eq!(
        parse(&text).unwrap_err(),
        "line 6: COUNTS promises 4 atoms and 2 bonds but the record has 3 atoms and 2 bonds"
    );
    let text = V3000.replace("2 2 20 30", "2 2 20 31");
    assert_eq!(
        parse(&text).unwrap_err(),
        "line 15: a bond names atom 31, which is not defined"
    );
    let text = V3000.replace("M  V30 COUNTS 3 2 0 0 0\n", "");
    assert_eq!(
        parse(&text).unwrap_err(),
        "a V3000 record without an M  V30 COUNTS line"
    );
}

#[test]
fn files_that_are_not_regular_files() {
    let tmp = tempfile::Builder::new()
        .prefix("clefeval-molfile-")
        .tempdir()
        .unwrap();
    let dir = tmp.path();
    let folder = dir.join("x.mol");
    std::fs::create_dir_all(&folder).unwrap();
    assert_eq!(
        read(&folder).unwrap_err(),
        format!("{}: is a folder, not a regular file", folder.display())
    );
    let missing = dir.join("missing.mol");
    assert_eq!(
        read(&missing).unwrap_err(),
        format!("{}: no such file or folder", missing.display())
    );
}

#[test]
fn star_atoms_have_no_inchi() {
    let text = ETHANOL.replacen(" O   0  5", " *   0  5", 1);
    let molecule = parse(&text).unwrap();
    assert_eq!(
        refusal(&molecule).unwrap(),
        "atom 3 is a `*` pseudo atom: no Standard InChI"
    );
    assert_eq!(refusal(&parse(ETHANOL).unwrap()), None);
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;

    /// Mutations of a valid record: a line dropped, duplicated or replaced
    /// by a fragment of another line, or bytes overwritten.
    fn mutated() -> impl Strategy<Value = Vec<u8>> {
        let base = format!("{ETHANOL}{V3000}");
        (
            proptest::collection::vec((0usize..40, 0usize..4, any::<u8>()), 1..6),
            Just(base),
        )
            .prop_map(|(edits, base)| {
                let mut lines: Vec<Vec<u8>> = base.lines().map(|l| l.as_bytes().to_vec()).collect();
                for (at, kind, byte) in edits {
                    let i = at % lines.len().max(1);
                    match kind {
                        0 if !lines.is_empty() => {
                            lines.remove(i);
                        }
                        1 if !lines.is_empty() => {
                            let copy = lines[i].clone();
                            lines.insert(i, copy);
                        }
                        2 if !lines.is_empty() => {
                            let cut = usize::from(byte) % (lines[i].len() + 1);
                            lines[i].truncate(cut);
                        }
                        _ if !lines.is_empty() && !lines[i].is_empty() => {
                            let j = usize::from(byte) % lines[i].len();
                            lines[i][j] = byte;
                        }
                        _ => {}
                    }
                }
                lines.join(&b'\n')
            })
    }

    fn bonds_in_range(record: &Record) -> bool {
        let n = record.molecule.atoms.len();
        record.molecule.bonds.iter().all(|b| b.from < n && b.to < n)
    }

    proptest! {
        #[test]
        fn arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
            if let Ok(record) = from_bytes(&bytes) {
                prop_assert!(bonds_in_range(&record));
            }
        }

        #[test]
        fn mutated_records(bytes in mutated()) {
            match from_bytes(&bytes) {
                Ok(record) => {
                    prop_assert!(bonds_in_range(&record));
                    prop_assert!(!record.molecule.atoms.is_empty());
                }
                Err(reason) => prop_assert!(!reason.is_empty()),
            }
        }
    }
}
