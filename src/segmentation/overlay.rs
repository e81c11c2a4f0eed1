//! Overlay images: a page drawn with its gold and submitted boxes coloured
//! by outcome at one tolerance, with a legend in a margin to the right of
//! the page, one PNG per page and run
//! (`<dir>/<run>/<doc>_p<page:4>.png`), so that a person sees at a glance
//! what a recognizer missed. Pages without any box get no image.

use super::boxes::{BBox, BoxSet, Entry};
use super::matching::Matcher;
use super::pages::Bitmap;
use super::score::candidate_pairs;
use super::tolerances::Tolerances;
use crate::diagnostics::Diagnostic;
use image::{Rgb, RgbImage};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Largest page drawn, in pixels (an A4 page at 600 dpi is 35 million).
pub const MAX_OVERLAY_PIXELS: u64 = 1 << 26;

/// The outcome of a box at the overlay's tolerance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoxOutcome {
    GoldMatched,
    GoldMissed,
    RunMatched,
    RunUnmatched,
}

impl BoxOutcome {
    const ALL: [BoxOutcome; 4] = [
        BoxOutcome::GoldMatched,
        BoxOutcome::GoldMissed,
        BoxOutcome::RunMatched,
        BoxOutcome::RunUnmatched,
    ];

    /// Green, red, blue, orange.
    pub fn colour(self) -> Rgb<u8> {
        Rgb(match self {
            BoxOutcome::GoldMatched => [0, 160, 0],
            BoxOutcome::GoldMissed => [220, 0, 0],
            BoxOutcome::RunMatched => [0, 70, 230],
            BoxOutcome::RunUnmatched => [255, 140, 0],
        })
    }

    fn label(self) -> &'static str {
        match self {
            BoxOutcome::GoldMatched => "GOLD MATCHED",
            BoxOutcome::GoldMissed => "GOLD MISSED",
            BoxOutcome::RunMatched => "RUN MATCHED",
            BoxOutcome::RunUnmatched => "RUN UNMATCHED",
        }
    }
}

/// The outcome of every gold and submitted box of one page at tolerance `at`
/// (the same maximum matching the scores use).
pub fn classify(gold: &[Entry], run: &[Entry], at: u32) -> Vec<(BBox, BoxOutcome)> {
    let tolerances = Tolerances::Pixels(vec![at]);
    let mut pairs = Vec::new();
    // A page with too many pairs draws every box unmatched (the scoring
    // reports it).
    candidate_pairs(run, gold, &tolerances, (1.0, 1.0), &mut pairs);
    let mates = Matcher::new().matching_at(run.len(), gold.len(), &pairs, 0);
    let mut gold_matched = vec![false; gold.len()];
    let mut out = Vec::with_capacity(gold.len() + run.len());
    for (e, mate) in run.iter().zip(&mates) {
        if let Some(m) = mate.and_then(|g| gold_matched.get_mut(g)) {
            *m = true;
        }
        let outcome = if mate.is_some() {
            BoxOutcome::RunMatched
        } else {
            BoxOutcome::RunUnmatched
        };
        out.push((e.bbox, outcome));
    }
    for (e, &m) in gold.iter().zip(&gold_matched) {
        out.push((
            e.bbox,
            if m {
                BoxOutcome::GoldMatched
            } else {
                BoxOutcome::GoldMissed
            },
        ));
    }
    out
}

/// Draws the overlays of every run while pages are read.
pub struct Overlays<'a> {
    dir: PathBuf,
    at: u32,
    gold: &'a BoxSet,
    runs: Vec<(&'a BoxSet, String)>,
    /// The PNG files written so far.
    written: AtomicUsize,
}

impl<'a> Overlays<'a> {
    pub fn new<D>(
        dir: &std::path::Path,
        at: u32,
        gold: &'a BoxSet,
        runs: &'a [(BoxSet, D)],
        names: &[String],
    ) -> Self {
        Overlays {
            dir: dir.to_path_buf(),
            at,
            gold,
            runs: runs
                .iter()
                .map(|(r, _)| r)
                .zip(names.iter().cloned())
                .collect(),
            written: AtomicUsize::new(0),
        }
    }

    /// How many PNG files were written.
    pub fn written(&self) -> usize {
        self.written.load(Ordering::Relaxed)
    }

    /// Writes the overlays of page `page` of `doc` (decoded in `bitmap`).
    pub fn draw(&self, doc: &str, page: u32, bitmap: &Bitmap, diagnostics: &mut Vec<Diagnostic>) {
        let boxes = |set: &BoxSet| -> Vec<Entry> {
            set.documents
                .get(doc)
                .and_then(|d| d.pages.get(&page))
                .cloned()
                .unwrap_or_default()
        };
        let gold = boxes(self.gold);
        for (run, name) in &self.runs {
            let run = boxes(run);
            if gold.is_empty() && run.is_empty() {
                continue;
            }
            let path = self.dir.join(name).join(format!("{doc}_p{page:04}.png"));
            let fail =
                |message: String| Diagnostic::error(path.display().to_string(), None, message);
            if u64::from(bitmap.width) * u64::from(bitmap.height) > MAX_OVERLAY_PIXELS {
                diagnostics.push(fail(format!("page {page} of {doc} is too large to draw")));
                continue;
            }
            let image = render(bitmap, &classify(&gold, &run, self.at), self.at);
            let written = std::fs::create_dir_all(self.dir.join(name))
                .map_err(|e| e.to_string())
                .and_then(|_| image.save(&path).map_err(|e| e.to_string()));
            match written {
                Ok(()) => _ = self.written.fetch_add(1, Ordering::Relaxed),
                Err(e) => diagnostics.push(fail(format!("cannot write overlay: {e}"))),
            }
        }
    }
}

/// Width of the legend's margin, in units of the legend's scale.
const MARGIN: u32 = 100;

/// Height the legend needs, in units of the legend's scale.
const LEGEND_HEIGHT: u32 = 50;

/// The page in grey with the boxes as 3-pixel frames, and the legend in a
/// white margin to the right of the page: no page pixel is covered and
/// every one keeps its coordinates, so a box's numbers can be read off the
/// image. The margin is at least as high as the legend (a page lower than
/// that gets white below it).
pub fn render(bitmap: &Bitmap, boxes: &[(BBox, BoxOutcome)], at: u32) -> RgbImage {
    let page = (bitmap.width, bitmap.height);
    let scale = (bitmap.width / 600).clamp(1, 4);
    let height = bitmap.height.max(LEGEND_HEIGHT * scale);
    let mut image = RgbImage::from_fn(bitmap.width + MARGIN * scale, height, |x, y| {
        if bitmap.is_ink(x, y) {
            Rgb([90, 90, 90])
        } else {
            Rgb([255, 255, 255])
        }
    });
    for (b, outcome) in boxes {
        // Gold frames lie just inside their box, submitted ones just outside,
        // so that a submitted box on its gold box shows both.
        let framed = match outcome {
            BoxOutcome::GoldMatched | BoxOutcome::GoldMissed => *b,
            BoxOutcome::RunMatched | BoxOutcome::RunUnmatched => BBox {
                x: b.x.saturating_sub(3),
                y: b.y.saturating_sub(3),
                width: b.width.saturating_add(6),
                height: b.height.saturating_add(6),
            },
        };
        frame(&mut image, page, &framed, 3, outcome.colour());
    }
    // A grey rule along the page's right edge, then the legend.
    let whole = image.dimensions();
    fill(
        &mut image,
        whole,
        bitmap.width,
        0,
        scale,
        height,
        Rgb([200, 200, 200]),
    );
    let left = bitmap.width + scale;
    let line = 9 * scale;
    let mut y = scale * 4;
    text(
        &mut image,
        left + scale * 4,
        y,
        scale,
        &format!("T={at} PX"),
        Rgb([0, 0, 0]),
    );
    for outcome in BoxOutcome::ALL {
        y += line;
        fill(
            &mut image,
            whole,
            left + scale * 4,
            y,
            7 * scale,
            7 * scale,
            outcome.colour(),
        );
        text(
            &mut image,
            left + scale * 14,
            y,
            scale,
            outcome.label(),
            outcome.colour(),
        );
    }
    image
}

/// Fills the rectangle (x, y, w, h), cut to the `within` (width, height)
/// corner of the image.
fn fill(image: &mut RgbImage, within: (u32, u32), x: u32, y: u32, w: u32, h: u32, colour: Rgb<u8>) {
    let (right, bottom) = (within.0.min(image.width()), within.1.min(image.height()));
    for yy in y..y.saturating_add(h).min(bottom) {
        for xx in x..x.saturating_add(w).min(right) {
            image.put_pixel(xx, yy, colour);
        }
    }
}

/// A rectangle outline of `thickness` pixels just inside the box, cut to
/// the page (`page`: its width and height).
fn frame(image: &mut RgbImage, page: (u32, u32), b: &BBox, thickness: u32, colour: Rgb<u8>) {
    let t = thickness.min(b.width).min(b.height);
    let (right, bottom) = (
        b.x.saturating_add(b.width - t),
        b.y.saturating_add(b.height - t),
    );
    fill(image, page, b.x, b.y, b.width, t, colour);
    fill(image, page, b.x, bottom, b.width, t, colour);
    fill(image, page, b.x, b.y, t, b.height, colour);
    fill(image, page, right, b.y, t, b.height, colour);
}

/// Draws upper-case `s` in a 5 × 7 pixel font magnified `scale` times.
fn text(image: &mut RgbImage, x: u32, y: u32, scale: u32, s: &str, colour: Rgb<u8>) {
    for (i, c) in s.chars().enumerate() {
        let rows = glyph(c);
        for (r, bits) in rows.iter().enumerate() {
            for col in 0..5 {
                if bits & (0x10 >> col) != 0 {
                    let px = x + (i as u32 * 6 + col) * scale;
                    let py = y + r as u32 * scale;
                    fill(image, image.dimensions(), px, py, scale, scale, colour);
                }
            }
        }
    }
}

/// The 5 × 7 glyph of the characters the legend uses (blank otherwise).
fn glyph(c: char) -> [u8; 7] {
    match c {
        'A' => [0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11],
        'C' => [0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E],
        'D' => [0x1E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1E],
        'E' => [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F],
        'G' => [0x0E, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0F],
        'H' => [0x11, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11],
        'I' => [0x0E, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0E],
        'L' => [0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1F],
        'M' => [0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11],
        'N' => [0x11, 0x19, 0x15, 0x13, 0x11, 0x11, 0x11],
        'O' => [0x0E, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E],
        'P' => [0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10],
        'R' => [0x1E, 0x11, 0x11, 0x1E, 0x14, 0x12, 0x11],
        'S' => [0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E],
        'T' => [0x1F, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04],
        'U' => [0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0E],
        'X' => [0x11, 0x11, 0x0A, 0x04, 0x0A, 0x11, 0x11],
        '=' => [0x00, 0x00, 0x1F, 0x00, 0x1F, 0x00, 0x00],
        '0' => [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E],
        '1' => [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
        '2' => [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F],
        '3' => [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E],
        '4' => [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02],
        '5' => [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E],
        '6' => [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E],
        '7' => [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
        '8' => [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E],
        '9' => [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C],
        _ => [0; 7],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segmentation::boxes::Origin;

    fn entry(x: u32, y: u32, width: u32, height: u32) -> Entry {
        Entry {
            bbox: BBox {
                x,
                y,
                width,
                height,
            },
            origin: Origin::at(0, 1),
        }
    }

    /// Page 2 of the golden EP-1000002-A1 (2480 × 3508 pixels).
    fn golden_page() -> Bitmap {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("goldens/segmentation/pages/EP-1000002-A1.tif");
        let mut page = None;
        crate::segmentation::pages::read_pages(&path, |n, _, bitmap| {
            if n == 2 {
                page = Some(bitmap.clone());
            }
        })
        .unwrap();
        page.unwrap()
    }

    #[test]
    fn the_legend_sits_in_a_margin_beside_the_page_and_covers_no_page_pixel() {
        let page = golden_page();
        let (width, height) = (page.width, page.height);
        // A gold box at the top left, where the page's header is, and a
        // submitted box reaching past the page's right edge.
        let gold = BBox {
            x: 100,
            y: 60,
            width: 300,
            height: 100,
        };
        let run = BBox {
            x: 2400,
            y: 1000,
            width: 200,
            height: 200,
        };
        let boxes = [
            (gold, BoxOutcome::GoldMissed),
            (run, BoxOutcome::RunUnmatched),
        ];
        let image = render(&page, &boxes, 10);
        // The scale is 4 on a page 2480 pixels wide: a 400-pixel margin.
        assert_eq!(image.dimensions(), (width + 400, height));
        // Every page pixel keeps its grey or white but those of the two
        // frames, which are exactly the 3-pixel rings (the submitted one
        // just outside its box, cut at the page's edge).
        let ring = |b: &BBox, out: u32, x: u32, y: u32| {
            let (x0, y0) = (b.x - out, b.y - out);
            let (x1, y1) = (b.x + b.width + out, b.y + b.height + out);
            let inside = |m: u32| x >= x0 + m && x < x1 - m && y >= y0 + m && y < y1 - m;
            inside(0) && !inside(3)
        };
        let mut ink_under_old_legend = 0;
        for y in 0..height {
            for x in 0..width {
                let want = if ring(&gold, 0, x, y) {
                    BoxOutcome::GoldMissed.colour()
                } else if ring(&run, 3, x, y) {
                    BoxOutcome::RunUnmatched.colour()
                } else if page.is_ink(x, y) {
                    Rgb([90, 90, 90])
                } else {
                    Rgb([255, 255, 255])
                };
                assert_eq!(*image.get_pixel(x, y), want, "page pixel {x}, {y}");
                ink_under_old_legend += usize::from(x < 384 && y < 200 && page.is_ink(x, y));
            }
        }
        // The page's header reaches into the corner the legend covered.
        assert!(ink_under_old_legend > 100, "{ink_under_old_legend}");
        // The margin: a grey rule, then the legend's four colours and its
        // black heading; the submitted frame does not spill into it.
        let margin: Vec<Rgb<u8>> = (0..height)
            .flat_map(|y| (width..width + 400).map(move |x| (x, y)))
            .map(|(x, y)| *image.get_pixel(x, y))
            .collect();
        let count = |c: Rgb<u8>| margin.iter().filter(|p| **p == c).count();
        assert_eq!(count(Rgb([200, 200, 200])), 4 * height as usize);
        // A swatch of 28 × 28 pixels and its label, for every outcome.
        for outcome in BoxOutcome::ALL {
            let label = drawn(outcome.label());
            assert_eq!(count(outcome.colour()), 28 * 28 + label, "{outcome:?}");
        }
        assert_eq!(count(Rgb([0, 0, 0])), drawn("T=10 PX"));
        assert!((200..height).all(|y| {
            (width + 4..width + 400).all(|x| *image.get_pixel(x, y) == Rgb([255, 255, 255]))
        }));
    }

    /// How many pixels `s` covers, drawn at scale 4.
    fn drawn(s: &str) -> usize {
        let dots: u32 = s.chars().flat_map(glyph).map(u8::count_ones).sum();
        16 * dots as usize
    }

    #[test]
    fn outcomes_follow_the_maximum_matching() {
        // Gold A is matched at t = 2 by S1; gold B is missed; S2 is extra.
        let gold = [entry(10, 10, 20, 20), entry(100, 100, 20, 20)];
        let run = [entry(12, 10, 18, 20), entry(300, 300, 5, 5)];
        let c = classify(&gold, &run, 2);
        let outcomes: Vec<BoxOutcome> = c.iter().map(|c| c.1).collect();
        assert_eq!(
            outcomes,
            vec![
                BoxOutcome::RunMatched,
                BoxOutcome::RunUnmatched,
                BoxOutcome::GoldMatched,
                BoxOutcome::GoldMissed
            ]
        );
        assert_eq!(classify(&gold, &run, 1)[0].1, BoxOutcome::RunUnmatched);
    }
}
