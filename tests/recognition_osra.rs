//! Clips of RDKit drawings read by the real OSRA recognizer
//! (goldens/recognition/osra, made by make_osra.py): outcomes and InChIs
//! equal the ones RDKit's InChI gives (expected/osra.json), and the review
//! page embeds every clip (PNG and TIFF) as a PNG.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// The first run's 21 structures have the outcomes and InChIs of the
/// expected file (RDKit's).
fn as_expected(got: &Value, expected: &Path) {
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(expected).unwrap()).unwrap();
    let structures = got["runs"][0]["structures"].as_array().unwrap();
    let want = expected["structures"].as_array().unwrap();
    assert_eq!((structures.len(), want.len()), (21, 21));
    for (s, w) in structures.iter().zip(want) {
        assert_eq!(s["name"], w["name"]);
        for field in ["outcome", "gold_inchi", "run_inchi"] {
            assert_eq!(s[field], w[field], "{} {field}", w["name"]);
        }
    }
}

#[test]
fn osra_submissions_score_as_rdkit_says_and_review_embeds_the_clips() {
    let g = Path::new(env!("CARGO_MANIFEST_DIR")).join("goldens/recognition");
    let osra = g.join("osra");
    let tmp = tempfile::Builder::new()
        .prefix("clefeval-osra-review-")
        .tempdir()
        .unwrap();
    let review = tmp.path().join("review.html");
    let out = Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .arg("recognition")
        .arg("--gold")
        .arg(osra.join("gold"))
        .arg("--run")
        .arg(osra.join("runs/osra"))
        .arg("--clips")
        .arg(osra.join("clips"))
        .arg("--review")
        .arg(&review)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    as_expected(&got, &g.join("expected/osra.json"));
    let summary = &got["runs"][0]["summary"];
    for (field, n) in [
        ("match", 14),
        ("stereo", 2),
        ("wrong", 2),
        ("unreadable", 3),
    ] {
        assert_eq!(summary[field], n, "{field}");
    }

    let html = std::fs::read_to_string(&review).unwrap();
    assert_eq!(html.matches("<section class=\"card").count(), 21);
    // Every clip embedded as PNG (base64 of the PNG signature), the TIFF too.
    assert_eq!(
        html.matches("src=\"data:image/png;base64,iVBORw0KGgo")
            .count(),
        21
    );
    // Gold and submission drawn for every structure with a readable file
    // (the one with a `*` atom too; two submissions are empty).
    assert_eq!(html.matches("<svg class=\"mol\"").count(), 21 + 19);
    // No executable script (the chart data are `<script type="application/json">`).
    assert!(!html.contains("src=\"http") && !html.contains("<script>"));
    // Links only within the page (its contents line).
    assert_eq!(
        html.matches("href=").count(),
        html.matches("href=\"#").count()
    );
    for outcome in ["all", "match", "stereo", "wrong", "unreadable"] {
        assert!(html.contains(&format!("id=\"f-{outcome}\"")), "{outcome}");
    }
    assert!(html.contains("class=\"card has-stereo\""));
}

/// OSRA's default output, a SMILES per clip, in one CSV table
/// (osra/runs/osra-smiles, made by make_osra_smiles.py): outcomes and
/// InChIs equal RDKit's `MolToInchi(MolFromSmiles(s))` against the gold
/// (expected/osra_smiles.json); the review page shows the SMILES where
/// there are no coordinates, and the first differing layers as a chart.
#[test]
fn osra_smiles_score_as_rdkit_says_and_are_shown_as_written() {
    let g = Path::new(env!("CARGO_MANIFEST_DIR")).join("goldens/recognition");
    let osra = g.join("osra");
    let tmp = tempfile::tempdir().unwrap();
    let page = tmp.path().join("page.html");
    let out = Command::new(env!("CARGO_BIN_EXE_clefeval"))
        .arg("recognition")
        .arg("--gold")
        .arg(osra.join("gold"))
        .arg("--run")
        .arg(osra.join("runs/osra-smiles"))
        .arg("--html")
        .arg(&page)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    as_expected(&got, &g.join("expected/osra_smiles.json"));
    let summary = &got["runs"][0]["summary"];
    for (field, n) in [
        ("match", 13),
        ("stereo", 2),
        ("wrong", 3),
        ("unreadable", 3),
    ] {
        assert_eq!(summary[field], n, "{field}");
    }
    let html = std::fs::read_to_string(&page).unwrap();
    // Gold drawn from its MOL files; the 19 submitted SMILES shown as
    // written (two cells are empty: nothing to show).
    assert_eq!(html.matches("<svg class=\"mol\"").count(), 21);
    assert_eq!(html.matches("<div class=\"smiles\">SMILES ").count(), 19);
    assert!(html.contains("<div class=\"smiles\">SMILES C#Cc1ccccc1</div>"));
    assert!(html.contains("First differing InChI layer per run"));
}
