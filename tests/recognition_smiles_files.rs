//! `clefeval recognition` on SMILES files and tables: the measures OCSR
//! papers report, checked by hand on the fourteen pairs of
//! goldens/recognition/smiles/measures (gold.smi against run.csv, each pair
//! built for one outcome and one first differing layer); SMILES and MOL
//! files in one side; names given twice; chosen columns; tables that
//! cannot be read; shards of SMILES structures merged.

use serde_json::{Value, json};
use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn goldens() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("goldens/recognition")
}

fn measures() -> PathBuf {
    goldens().join("smiles/measures")
}

fn clefeval<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .args(args)
        .output()
        .expect("the clefeval binary runs")
}

/// `clefeval recognition --format json` of `gold` against `runs`, `extra`
/// options after them.
fn recognition(gold: &Path, runs: &[&Path], extra: &[&str]) -> Output {
    let mut args = vec!["recognition", "--gold", p(gold)];
    for run in runs {
        args.extend(["--run", p(run)]);
    }
    args.extend(["--format", "json"]);
    args.extend(extra);
    clefeval(&args)
}

fn recognition_json(gold: &Path, runs: &[&Path], extra: &[&str]) -> Value {
    let out = recognition(gold, runs, extra);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON output")
}

fn p(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

fn structure<'a>(run: &'a Value, name: &str) -> &'a Value {
    (run["structures"].as_array().unwrap().iter())
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no structure {name}"))
}

#[test]
fn the_measures_of_a_dozen_structures_are_those_worked_out_by_hand() {
    let gold = measures().join("gold.smi");
    let run = measures().join("run.csv");
    let doc = recognition_json(&gold, &[&run], &["-j", "2"]);
    let r = &doc["runs"][0];
    assert_eq!(r["run"], "run.csv");
    // (name, outcome, match ignoring stereo, first differing layer), each
    // pair written for it: the same L-alanine written from another atom;
    // D for L; no centre for L; a methyl moved from C to N; a proton
    // less; a charge less; the 13C label dropped; cis for trans; an
    // ethane for ethene; Kekulé benzene for aromatic; an empty cell; no
    // row; a `*` gold atom; an unclosed ring.
    let expected = [
        ("ala_l", "match", json!(true), Value::Null),
        ("ala_d", "stereo", json!(true), json!("stereo")),
        ("ala_flat", "stereo", json!(true), json!("stereo")),
        ("sarcosine", "formula", json!(false), json!("connections")),
        ("methylammonium", "formula", json!(false), json!("protons")),
        ("methylium", "formula", json!(false), json!("charge")),
        ("ethanol_13c", "formula", json!(false), json!("isotopes")),
        ("butene", "stereo", json!(true), json!("stereo")),
        ("ethene", "wrong", json!(false), json!("formula")),
        ("benzene", "match", json!(true), Value::Null),
        ("empty_cell", "unreadable", json!(false), Value::Null),
        ("missing", "missing", json!(false), Value::Null),
        ("manual_star", "manual", Value::Null, Value::Null),
        ("refused", "unreadable", json!(false), Value::Null),
    ];
    assert_eq!(r["structures"].as_array().unwrap().len(), expected.len());
    for (name, outcome, ignoring, layer) in &expected {
        let s = structure(r, name);
        assert_eq!(s["outcome"], *outcome, "{name}");
        assert_eq!(s["match_ignoring_stereo"], *ignoring, "{name}");
        assert_eq!(s["first_difference"], *layer, "{name}");
    }
    // 14 structures, `manual_star` manual: 13 automatic. Matched: ala_l,
    // benzene; stereo: ala_d, ala_flat, butene. Gold with stereo: the four
    // alanines and butenes with a centre or a marked double bond — ala_l,
    // ala_d, ala_flat, butene, empty_cell (F/C=C/F), missing (lactic
    // acid): 6, of which ala_l is matched.
    assert_eq!(
        r["summary"],
        json!({
            "structures": 14, "manual": 1, "automatic": 13, "match": 2, "stereo": 3,
            "formula": 4, "wrong": 1, "unreadable": 2, "missing": 1,
            "recall": 2.0 / 13.0,
            "match_ignoring_stereo": 5, "recall_ignoring_stereo": 5.0 / 13.0,
            "stereo_structures": 6, "stereo_matched": 1, "stereo_recall": 1.0 / 6.0,
            "first_difference": {"formula": 1, "connections": 1, "hydrogens": 0,
                                 "charge": 1, "protons": 1, "stereo": 3, "isotopes": 1}
        })
    );
    // The SMILES as given, and the reasons naming the file, line and
    // character.
    let ala = structure(r, "ala_l");
    assert_eq!(ala["gold_smiles"], "N[C@@H](C)C(=O)O");
    assert_eq!(ala["run_smiles"], "C[C@H](N)C(=O)O");
    assert_eq!(
        ala["gold_inchi"],
        "InChI=1S/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)/t2-/m0/s1"
    );
    assert_eq!(structure(r, "empty_cell")["reason"], "empty");
    assert!(structure(r, "empty_cell").get("run_smiles").is_none());
    assert_eq!(
        structure(r, "refused")["reason"],
        format!("{}:14: character 2: ring bond 1 never closed", p(&run))
    );
    assert_eq!(
        structure(r, "manual_star")["reason"],
        format!(
            "{}:13: character 1: a `*` atom (any atom) has no InChI",
            p(&gold)
        )
    );
    assert_eq!(structure(r, "missing")["reason"], "no submitted structure");
    assert_eq!(
        doc["skipped_files"],
        json!([{"file": format!("{}:15", p(&run)),
                "reason": "no gold structure has this name"}])
    );
    // The table says the same.
    let out = clefeval(&["recognition", "--gold", p(&gold), "--run", p(&run)]);
    let text = String::from_utf8(out.stdout).unwrap();
    let ranking = text.lines().nth(2).unwrap();
    let cells: Vec<&str> = ranking.split_whitespace().collect();
    assert_eq!(
        cells,
        [
            "1", "run.csv", "14", "13", "2", "15.38", "0.1538", "0.3846", "6", "0.1667", "3", "4",
            "1", "2", "1", "1"
        ]
    );
    let layers = text.lines().find(|l| l.starts_with("run.csv  ")).unwrap();
    assert_eq!(
        layers.split_whitespace().collect::<Vec<_>>(),
        ["run.csv", "8", "1", "1", "0", "1", "1", "3", "1"]
    );
}

/// A fresh folder holding `files` (name, text).
fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

#[test]
fn mol_files_and_smiles_mix_on_either_side() {
    let mols = goldens().join("gold");
    let gold = folder(&[("set.smi", "C[C@H](N)C(=O)O alanine\nCCO ethanol\n")]);
    for name in ["match_shuffled", "wrong_changed_element"] {
        let file = format!("{name}.mol");
        fs::copy(mols.join(&file), gold.path().join(&file)).unwrap();
    }
    let run = folder(&[
        // The MOL gold's structures as SMILES, a TSV of the SMILES gold.
        (
            "mol.smi",
            "CC(C)Cc1ccc(C(C)C(=O)O)cc1 match_shuffled\nCc1ccccc1 wrong_changed_element\n",
        ),
        ("smiles.tsv", "name\tsmiles\nalanine\tN[C@@H](C)C(=O)O\n"),
    ]);
    fs::copy(
        goldens().join("runs/handmade/stereo_flipped_centre.mol"),
        run.path().join("ethanol.mol"),
    )
    .unwrap();
    let doc = recognition_json(gold.path(), &[run.path()], &[]);
    let r = &doc["runs"][0];
    let outcomes: Vec<(&str, &str)> = (r["structures"].as_array().unwrap().iter())
        .map(|s| (s["name"].as_str().unwrap(), s["outcome"].as_str().unwrap()))
        .collect();
    // ethanol against a MOL file of alanine: another formula.
    assert_eq!(
        outcomes,
        [
            ("alanine", "match"),
            ("ethanol", "wrong"),
            ("match_shuffled", "match"),
            ("wrong_changed_element", "match"),
        ]
    );
    assert!(structure(r, "ethanol").get("run_smiles").is_none());
    assert_eq!(
        structure(r, "match_shuffled")["run_smiles"],
        "CC(C)Cc1ccc(C(C)C(=O)O)cc1"
    );
    assert_eq!(doc["inputs"][1]["files"].as_array().unwrap().len(), 3);
}

#[test]
fn a_name_twice_stops_the_gold_and_keeps_the_first_in_a_run() {
    let gold = folder(&[
        ("a.smi", "CCO x\nCC y\n"),
        ("b.csv", "id,smiles\nz,C\nx,CCC\n"),
    ]);
    let run = folder(&[("r.smi", "C z\n")]);
    let out = clefeval(&[
        "recognition",
        "--gold",
        p(gold.path()),
        "--run",
        p(run.path()),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "clefeval: error: gold {}:3: a second gold structure named `x` (first: {}:1)\n",
            p(&gold.path().join("b.csv")),
            p(&gold.path().join("a.smi"))
        )
    );
    let gold = folder(&[("g.smi", "CCO x\nCC y\n")]);
    let run = folder(&[("r1.smi", "CCO x\nCCO y\n"), ("r2.smi", "CC y\n\nCCC x\n")]);
    let doc = recognition_json(gold.path(), &[run.path()], &[]);
    let r = &doc["runs"][0];
    // The first of each name (r1.smi) is scored: x matches, y does not.
    assert_eq!(structure(r, "x")["outcome"], "match");
    assert_eq!(structure(r, "y")["outcome"], "wrong");
    let r1 = p(&run.path().join("r1.smi")).to_string();
    let r2 = p(&run.path().join("r2.smi")).to_string();
    assert_eq!(
        r["diagnostics"],
        json!([
            format!(
                "{r2}:1: warning: another submitted structure is named `y` ({r1}:2); this one is ignored"
            ),
            format!(
                "{r2}:3: warning: another submitted structure is named `x` ({r1}:1); this one is ignored"
            ),
        ])
    );
}

#[test]
fn columns_are_found_by_header_or_chosen_and_a_missing_one_is_named() {
    let gold = folder(&[("g.csv", "file_name,SMILES\na.png,CCO\nb.png,CCN\n")]);
    let run = folder(&[(
        "r.csv",
        "Image,reference,Prediction\na.TIF,CCN,OCC\nb.TIF,CCN,CCO\n",
    )]);
    let score = |extra: &[&str]| recognition(gold.path(), &[run.path()], extra);
    let outcomes = |out: &Output| -> (Vec<String>, Value) {
        assert_eq!(out.status.code(), Some(0));
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        let outcomes = (doc["runs"][0]["structures"].as_array().unwrap().iter())
            .map(|s| s["outcome"].as_str().unwrap().to_string())
            .collect();
        (outcomes, doc["settings"].clone())
    };
    // By the usual headers: file_name and SMILES, Image and Prediction.
    let (found, settings) = outcomes(&score(&[]));
    assert_eq!(found, ["match", "wrong"]);
    assert!(settings.get("smiles_column").is_none());
    // `reference` chosen: the run's table has it, the gold's keeps SMILES.
    let (chosen, settings) = outcomes(&score(&["--smiles-column", "reference"]));
    assert_eq!(chosen, ["wrong", "match"]);
    assert_eq!(settings["smiles_column"], "reference");
    // A header no table has stops the command.
    let out = score(&["--smiles-column", "refrence"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "clefeval: error: --smiles-column refrence: no table read has a column of this header\n"
    );
    // No SMILES column in the gold: exit 2 naming the file.
    let bad = folder(&[("g.csv", "id,structure\na,C\n")]);
    let out = clefeval(&[
        "recognition",
        "--gold",
        p(bad.path()),
        "--run",
        p(run.path()),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "clefeval: error: gold {}: line 1: no SMILES column: none of smiles, pred, prediction, \
             smiles_pred (the header has: id, structure)\n",
            p(&bad.path().join("g.csv"))
        )
    );
    // No name column in a run's table: that run is rejected, naming it.
    let nameless = folder(&[("r.csv", "key,smiles\na,CCO\n")]);
    let doc = recognition_json(gold.path(), &[run.path(), nameless.path()], &[]);
    assert_eq!(
        doc["rejected_runs"][0]["diagnostics"][0],
        format!(
            "{}: line 1: no name column: none of image_id, id, name, file_name, file, image \
             (the header has: key, smiles)",
            p(&nameless.path().join("r.csv"))
        )
    );
}

#[test]
fn a_file_of_another_kind_is_named_as_such() {
    let gold = measures().join("gold.smi");
    let mol = fs::read(goldens().join("gold/match_shuffled.mol")).unwrap();
    let run = tempfile::tempdir().unwrap();
    fs::write(run.path().join("r.smi"), &mol).unwrap();
    let doc = recognition_json(&gold, &[run.path(), &measures().join("run.csv")], &[]);
    assert_eq!(
        doc["rejected_runs"][0]["diagnostics"][0],
        format!(
            "{}: a MOL or SD file, not a SMILES file",
            p(&run.path().join("r.smi"))
        )
    );
}

#[test]
fn parts_of_smiles_structures_merge_to_the_whole() {
    let gold = measures().join("gold.smi");
    let run = measures().join("run.csv");
    let dir = tempfile::tempdir().unwrap();
    let mut parts = Vec::new();
    for k in 1..=3 {
        let part = dir.path().join(format!("part{k}.json"));
        let out = recognition(
            &gold,
            &[&run],
            &["--shard", &format!("{k}/3"), "-o", p(&part)],
        );
        assert_eq!(out.status.code(), Some(0));
        parts.push(part);
    }
    let merged = dir.path().join("merged.json");
    let mut args = vec!["merge".to_string()];
    args.extend(parts.iter().map(|p| p.display().to_string()));
    args.extend(["-o".to_string(), merged.display().to_string()]);
    assert_eq!(clefeval(&args).status.code(), Some(0));
    let whole = recognition(&gold, &[&run], &[]);
    assert_eq!(fs::read(&merged).unwrap(), whole.stdout);
}

#[test]
fn empty_and_over_long_cells_and_strays_are_each_settled_alone() {
    let long = "C".repeat(100_001);
    let gold = folder(&[("g.csv", "id,smiles\na,\nb,CC\nc,CCC\n")]);
    let mut run = String::from("id,smiles\na,C\nb,\nc,");
    run.push_str(&long);
    run.push('\n');
    // Strays on lines 5 to 14: listed in line order, 9 before 10.
    for k in 5..=14 {
        run.push_str(&format!("stray{k},C\n"));
    }
    let runs = folder(&[("r.csv", &run)]);
    let doc = recognition_json(gold.path(), &[runs.path()], &[]);
    let r = &doc["runs"][0];
    let table = p(&runs.path().join("r.csv")).to_string();
    // An empty gold cell: manual, reason `empty`; an empty run cell:
    // unreadable, `empty`; an over-long SMILES refused alone, with its place.
    assert_eq!(structure(r, "a")["outcome"], "manual");
    assert_eq!(structure(r, "a")["reason"], "empty");
    assert_eq!(structure(r, "b")["outcome"], "unreadable");
    assert_eq!(structure(r, "b")["reason"], "empty");
    assert_eq!(structure(r, "c")["outcome"], "unreadable");
    assert_eq!(
        structure(r, "c")["reason"],
        format!("{table}:4: a SMILES of 100001 bytes, longer than the 100000 read")
    );
    assert_eq!(
        structure(r, "c")["run_smiles"],
        format!("{}…", "C".repeat(80))
    );
    let skipped: Vec<&str> = (doc["skipped_files"].as_array().unwrap().iter())
        .map(|s| s["file"].as_str().unwrap())
        .collect();
    let lines: Vec<String> = (5..=14).map(|k| format!("{table}:{k}")).collect();
    assert_eq!(skipped, lines);
}

#[test]
fn a_saved_smiles_result_renders_the_page_the_command_wrote() {
    let gold = measures().join("gold.smi");
    let run = measures().join("run.csv");
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    let out = recognition(
        &gold,
        &[&run],
        &[
            "--smiles-column",
            "SMILES",
            "--html",
            p(&page),
            "-o",
            p(&dir.path().join("r.json")),
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    let again = dir.path().join("again.html");
    let report = clefeval(&[
        "report",
        p(&dir.path().join("r.json")),
        "--html",
        p(&again),
        "--gold",
        p(&gold),
        "--run",
        p(&run),
    ]);
    assert_eq!(report.status.code(), Some(0));
    assert!(fs::read(&page).unwrap() == fs::read(&again).unwrap());
    let html = fs::read_to_string(&page).unwrap();
    assert!(html.contains("<div class=\"smiles\">SMILES C[C@H](N)C(=O)O</div>"));
}
