//! Page images: every TIFF coding the reader accepts gives the same pixels
//! (Pillow's ink counts), and bad files give a clear error naming the page
//! while the scores are still computed.

use clefeval::segmentation::evaluate::{Options, evaluate};
use clefeval::segmentation::pages::{PageError, PageInfo, read_pages};
use clefeval::segmentation::tolerances::Tolerances;
use std::path::{Path, PathBuf};

#[path = "support/tiff_writer.rs"]
mod tiff_writer;

fn variants() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("goldens/segmentation/tiff-variants")
}

/// (width, height, ink pixels) of each page.
type Summary = Vec<(u32, u32, u64)>;

/// The summary of each page, and the pixels themselves.
fn decode(path: &Path) -> Result<(Summary, Vec<Vec<bool>>), PageError> {
    let mut summary = Vec::new();
    let mut pixels = Vec::new();
    read_pages(path, |_, info, bitmap| {
        let mut ink = 0;
        let mut all = Vec::new();
        for y in 0..info.height {
            for x in 0..info.width {
                all.push(bitmap.is_ink(x, y));
                ink += u64::from(bitmap.is_ink(x, y));
            }
        }
        summary.push((info.width, info.height, ink));
        pixels.push(all);
    })?;
    Ok((summary, pixels))
}

#[test]
fn every_coding_gives_the_same_pixels() {
    // Pillow's counts of black pixels of the two pages (make_fixtures.py).
    let counts = std::fs::read_to_string(variants().join("ink-counts.txt")).unwrap();
    let expected: Vec<(u32, u32, u64)> = counts
        .lines()
        .map(|l| {
            let v: Vec<u64> = l.split(' ').map(|n| n.parse().unwrap()).collect();
            (v[0] as u32, v[1] as u32, v[2])
        })
        .collect();
    assert_eq!(expected, vec![(70, 30, 321), (45, 21, 193)]);
    let (_, reference) = decode(&variants().join("none.tif")).unwrap();
    for name in [
        "none.tif",
        "g4-minisblack.tif",
        "g4-miniswhite.tif",
        "g4-lsb2msb.tif",
        "g3-1d.tif",
        "g3-1d-lsb2msb.tif",
    ] {
        let (summary, pixels) = decode(&variants().join(name)).unwrap();
        assert_eq!(summary, expected, "{name}");
        assert!(
            pixels == reference,
            "{name}: pixels differ from the uncompressed file"
        );
    }
}

#[test]
fn resolution_tags_are_read() {
    let infos = read_pages(&variants().join("g4-minisblack.tif"), |_, _, _| {}).unwrap();
    assert_eq!(
        infos,
        vec![
            PageInfo {
                width: 70,
                height: 30,
                dpi: Some((200.0, 100.0))
            },
            PageInfo {
                width: 45,
                height: 21,
                dpi: Some((200.0, 100.0))
            },
        ]
    );
}

#[test]
fn group3_two_dimensional_is_refused_clearly() {
    let e = read_pages(&variants().join("g3-2d.tif"), |_, _, _| {}).unwrap_err();
    assert_eq!(
        e.to_string(),
        "page 1: CCITT Group 3 two-dimensional coding (T4Options bit 0) is not supported"
    );
}

/// A TIFF with one bilevel page of the given declared size and
/// compression, whose strip holds `data`.
fn tiff(width: u32, height: u32, compression: u16, data: &[u8]) -> Vec<u8> {
    tiff_writer::write(&[tiff_writer::Page {
        width,
        height,
        compression,
        data,
    }])
}

/// A fresh folder for one test's files, removed when dropped.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("clefeval-{name}-"))
        .tempdir()
        .unwrap()
}

/// The file `name` in `dir`, holding `bytes`.
fn temp(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn bad_files_name_the_page_and_the_problem() {
    let tmp = scratch("pages");
    let dir = tmp.path();
    let huge = temp(dir, "huge.tif", &tiff(100_000, 100_000, 4, &[0; 16]));
    let e = read_pages(&huge, |_, _, _| {}).unwrap_err();
    assert_eq!(e.page, Some(1));
    assert!(e.message.contains("100000 × 100000"), "{e}");

    let unknown = temp(dir, "unknown.tif", &tiff(8, 8, 34_999, &[0; 8]));
    let e = read_pages(&unknown, |_, _, _| {}).unwrap_err();
    assert_eq!(e.page, Some(1));
    assert!(e.message.to_lowercase().contains("compression"), "{e}");

    let text = temp(dir, "text.tif", b"doc,page,x,y,width,height\n");
    let e = read_pages(&text, |_, _, _| {}).unwrap_err();
    assert_eq!(e.page, None);
    assert!(e.message.starts_with("not a readable TIFF file"), "{e}");

    let full = std::fs::read(variants().join("g4-minisblack.tif")).unwrap();
    // Cut inside the second page's data or directory.
    for cut in [full.len() / 2, full.len() - 20, 100] {
        let truncated = temp(dir, "truncated.tif", &full[..cut]);
        let e = read_pages(&truncated, |_, _, _| {}).unwrap_err();
        assert!(
            e.page.is_some() || e.message.starts_with("not a readable"),
            "cut {cut}: {e}"
        );
    }

    // A directory chain that loops back: an error, not endless pages.
    let mut looped = tiff(8, 8, 1, &[0; 8]);
    let ifd = u32::from_le_bytes(looped[4..8].try_into().unwrap()) as usize;
    let next = ifd + 2 + 11 * 12;
    looped[next..next + 4].copy_from_slice(&(ifd as u32).to_le_bytes());
    let e = read_pages(&temp(dir, "looped.tif", &looped), |_, _, _| {}).unwrap_err();
    assert!(e.message.contains("cycle"), "{e}");

    // Garbage CCITT data: an error at a row, never a panic.
    let garbage = temp(dir, "garbage.tif", &tiff(64, 64, 4, &[0x02; 40]));
    let e = read_pages(&garbage, |_, _, _| {}).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("page 1: CCITT Group 4 data invalid at row"),
        "{e}"
    );
}

#[test]
fn a_bad_page_image_costs_only_the_page_checks() {
    let tmp = scratch("pagecheck");
    let dir = tmp.path();
    let pages = dir.join("pages");
    std::fs::create_dir_all(&pages).unwrap();
    std::fs::write(pages.join("A.tif"), b"not a tiff").unwrap();
    std::fs::copy(variants().join("g4-minisblack.tif"), pages.join("B.tif")).unwrap();
    let gold = dir.join("gold.csv");
    let run = dir.join("run.csv");
    // A: page 3 does not exist, but A's image is bad, so no check for A.
    // B: a box on page 3 (B has 2) and a box past the edge of page 2 (45 × 21).
    std::fs::write(&gold, "A,3,0,0,5,5\nB,1,0,0,5,5\nB,2,40,0,10,5\n").unwrap();
    std::fs::write(&run, "A,3,0,0,5,5\nB,3,0,0,5,5\n").unwrap();
    let report = evaluate(&Options {
        gold: vec![gold.clone()],
        runs: vec![clefeval::inputs::Run::at(&run)],
        tolerances: Tolerances::parse_pixels("0").unwrap(),
        pages: Some(pages.clone()),
        overlays: None,
        progress: false,
        shard: None,
        min_score: None,
    })
    .unwrap();
    let a = pages.join("A.tif").display().to_string();
    let lines = |found: &[clefeval::diagnostics::Diagnostic]| -> Vec<String> {
        found.iter().map(ToString::to_string).collect()
    };
    let found = lines(&report.head.diagnostics);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with(&format!("{a}: error: not a readable TIFF file")));
    assert!(found[0].ends_with("; no page checks for this document"));
    assert_eq!(
        found[1],
        format!(
            "{}:3: warning: box x 40 y 0 width 10 height 5 reaches past page 2 of B (45 × 21 pixels)",
            gold.display()
        )
    );
    assert_eq!(
        lines(&report.runs[0].diagnostics),
        vec![format!(
            "{}:2: warning: box on page 3 of B, which has 2 pages",
            run.display()
        )]
    );
    // Scores are unaffected: A matches, B's boxes do not.
    let f = &report.runs[0].tolerances[0];
    assert_eq!((f.tp, f.fp, f.fn_), (1, 1, 2));
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Damaged page files give an error or pages, never a panic or hang.
        #[test]
        fn damaged_tiffs_never_panic(
            name in prop::sample::select(vec!["g4-minisblack.tif", "g3-1d.tif", "none.tif", "g4-lsb2msb.tif"]),
            edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..12),
            cut in any::<prop::sample::Index>(),
        ) {
            let mut bytes = std::fs::read(variants().join(name)).unwrap();
            for (at, value) in edits {
                let i = at.index(bytes.len());
                bytes[i] = value;
            }
            let keep = bytes.len() - cut.index(bytes.len() / 4);
            bytes.truncate(keep);
            let tmp = scratch("pages");
            let path = temp(tmp.path(), &format!("fuzz-{name}"), &bytes);
            if let Ok(pages) = read_pages(&path, |_, _, _| {}) {
                prop_assert!(!pages.is_empty());
            }
        }
    }
}
