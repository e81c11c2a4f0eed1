//! Segmentation speed (criterion):
//! - `sweep/1M boxes, 100k pages, 56 tolerances`: scoring after reading;
//! - `sweep/one page of 50k boxes a side, 56 tolerances`: one crowded page;
//! - `pages/30 patents x 40 Group 4 pages`: reading and checking synthetic
//!   A4 300 dpi patent files (written to `target/bench-pages/`, so that
//!   `tiffinfo -D` can be timed on the same files).

use clefeval::segmentation::boxes::{BBox, BoxSet, Origin};
use clefeval::segmentation::pages::read_pages;
use clefeval::segmentation::score::score;
use clefeval::segmentation::tolerances::Tolerances;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;

#[path = "../tests/support/tiff_writer.rs"]
mod tiff_writer;

/// A small deterministic generator (xorshift), so runs are comparable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u32 {
        (self.next() % n) as u32
    }
}

/// 100 000 pages (10 000 documents of 10 pages), 5 gold boxes a page and 5
/// submitted boxes near them (each side moved by up to 60 px; one in ten
/// elsewhere on the page): 1 million boxes.
fn boxes() -> (BoxSet, BoxSet) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut gold, mut run) = (BoxSet::default(), BoxSet::default());
    for d in 0..10_000 {
        let doc = format!("EP-{d:07}-A1");
        for page in 1..=10 {
            for i in 0..5 {
                let g = BBox {
                    x: 100 + 450 * (i % 5) + rng.below(50),
                    y: 100 + 600 * (i % 5) + rng.below(50),
                    width: 200 + rng.below(200),
                    height: 150 + rng.below(200),
                };
                gold.push(&doc, page, g, Origin::at(0, 1));
                let s = if rng.below(10) == 0 {
                    BBox {
                        x: rng.below(2000),
                        y: rng.below(3000),
                        width: 300,
                        height: 300,
                    }
                } else {
                    let jitter = |rng: &mut Rng| rng.below(61) as i64 - 30;
                    let x = (i64::from(g.x) + jitter(&mut rng)).max(0) as u32;
                    let y = (i64::from(g.y) + jitter(&mut rng)).max(0) as u32;
                    let right = (i64::from(g.x + g.width) + jitter(&mut rng)) as u32;
                    let bottom = (i64::from(g.y + g.height) + jitter(&mut rng)) as u32;
                    BBox {
                        x,
                        y,
                        width: right.saturating_sub(x).max(1),
                        height: bottom.saturating_sub(y).max(1),
                    }
                };
                run.push(&doc, page, s, Origin::at(0, 1));
            }
        }
    }
    (gold, run)
}

/// One page of 50 000 gold boxes (a 250 × 200 grid, 100 × 100 px, 200 px
/// apart) and 50 000 submitted boxes, each near its gold box (left and top
/// moved by up to 15 px, right and bottom by up to 30 px): the spatial
/// index keeps the pairs to those in reach.
fn crowded_page() -> (BoxSet, BoxSet) {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let (mut gold, mut run) = (BoxSet::default(), BoxSet::default());
    for i in 0..50_000u32 {
        let (x, y) = (200 * (i % 250) + 40, 200 * (i / 250) + 40);
        gold.push(
            "EP-0000001-A1",
            1,
            BBox {
                x,
                y,
                width: 100,
                height: 100,
            },
            Origin::at(0, 1),
        );
        let s = BBox {
            x: x + rng.below(31) - 15,
            y: y + rng.below(31) - 15,
            width: 85 + rng.below(31),
            height: 85 + rng.below(31),
        };
        run.push("EP-0000001-A1", 1, s, Origin::at(0, 1));
    }
    (gold, run)
}

fn sweep(c: &mut Criterion) {
    let (gold, run) = boxes();
    assert_eq!(gold.len() + run.len(), 1_000_000);
    let tolerances = Tolerances::parse_pixels("0..=55").unwrap_or(Tolerances::Pixels(vec![0]));
    let mut group = c.benchmark_group("sweep");
    group.sample_size(10);
    group.bench_function("1M boxes, 100k pages, 56 tolerances", |b| {
        b.iter(|| black_box(score(&gold, &run, &tolerances, &|_, _| None)))
    });
    let (gold, run) = crowded_page();
    group.bench_function("one page of 50k boxes a side, 56 tolerances", |b| {
        b.iter(|| black_box(score(&gold, &run, &tolerances, &|_, _| None)))
    });
    group.finish();
}

const W: u16 = 2480;
const H: u32 = 3508;

/// One synthetic patent page, Group 4 coded: 60 lines of "text" (5 × 7
/// glyphs magnified 4 times, chosen by a hash) and a framed drawing.
fn page(seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed | 1);
    let glyphs: Vec<[u8; 7]> = (0..40)
        .map(|_| std::array::from_fn(|_| (rng.next() & 0x1F) as u8))
        .collect();
    let mut text: Vec<usize> = (0..60 * 80).map(|_| rng.below(40) as usize).collect();
    text.iter_mut().step_by(7).for_each(|g| *g = usize::MAX); // word gaps
    let mut encoder = fax::encoder::Encoder::new(fax::VecWriter::new());
    let mut row = vec![false; W as usize];
    for y in 0..H {
        row.iter_mut().for_each(|p| *p = false);
        let band = y.checked_sub(200).map(|v| (v / 40, v % 40));
        if let Some((line, r)) =
            band.filter(|&(line, r)| line < 60 && r < 28 && !(20..35).contains(&line))
        {
            for col in 0..80 {
                let Some(glyph) = glyphs.get(text[(line * 80 + col) as usize]) else {
                    continue;
                };
                let bits = glyph[(r / 4) as usize];
                for gx in 0..20 {
                    if bits & (0x10 >> (gx / 4)) != 0 {
                        row[200 + col as usize * 26 + gx] = true;
                    }
                }
            }
        }
        if (1000..1600).contains(&y) {
            row[600..604].iter_mut().for_each(|p| *p = true);
            row[1800..1804].iter_mut().for_each(|p| *p = true);
            let d = 600 + (y as usize - 1000) * 2;
            row[d..d + 3].iter_mut().for_each(|p| *p = true);
            if !(1004..1596).contains(&y) {
                row[600..1804].iter_mut().for_each(|p| *p = true);
            }
        }
        let pels = row.iter().map(|&b| {
            if b {
                fax::Color::Black
            } else {
                fax::Color::White
            }
        });
        let _ = encoder.encode_line(pels, W);
    }
    encoder.finish().map(|w| w.finish()).unwrap_or_default()
}

fn patents() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-pages");
    let _ = std::fs::create_dir_all(&dir);
    let distinct: Vec<Vec<u8>> = (0..30).map(|i| page(1000 + i)).collect();
    (0..30)
        .map(|p| {
            let pages: Vec<tiff_writer::Page> = (0..40)
                .map(|i| tiff_writer::Page {
                    width: u32::from(W),
                    height: H,
                    compression: 4,
                    data: &distinct[(p * 7 + i) % 30],
                })
                .collect();
            let path = dir.join(format!("EP-{p:07}-A1.tif"));
            let _ = std::fs::write(&path, tiff_writer::write(&pages));
            path
        })
        .collect()
}

fn pages(c: &mut Criterion) {
    let files = patents();
    let count: usize = files
        .iter()
        .map(|f| read_pages(f, |_, _, _| {}).map(|p| p.len()).unwrap_or(0))
        .sum();
    assert_eq!(count, 1200, "synthetic patents must decode");
    let mut group = c.benchmark_group("pages");
    group.sample_size(10);
    group.bench_function("30 patents x 40 Group 4 pages", |b| {
        b.iter(|| {
            for f in &files {
                black_box(read_pages(f, |_, _, _| {}).map(|p| p.len()).unwrap_or(0));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, sweep, pages);
criterion_main!(benches);
