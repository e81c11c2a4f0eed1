//! Overlay images: a page drawn with its gold and submitted boxes coloured
//! by outcome at one tolerance, with a legend, one PNG per page and run
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

/// The page in grey, the boxes as 3-pixel frames, the legend on white at
/// the top left.
pub fn render(bitmap: &Bitmap, boxes: &[(BBox, BoxOutcome)], at: u32) -> RgbImage {
    let mut image = RgbImage::from_fn(bitmap.width, bitmap.height, |x, y| {
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
        frame(&mut image, &framed, 3, outcome.colour());
    }
    let scale = (bitmap.width / 600).clamp(1, 4);
    let line = 9 * scale;
    fill(
        &mut image,
        0,
        0,
        96 * scale,
        50 * scale,
        Rgb([255, 255, 255]),
    );
    let mut y = scale * 4;
    text(
        &mut image,
        scale * 4,
        y,
        scale,
        &format!("T={at} PX"),
        Rgb([0, 0, 0]),
    );
    for outcome in BoxOutcome::ALL {
        y += line;
        fill(
            &mut image,
            scale * 4,
            y,
            7 * scale,
            7 * scale,
            outcome.colour(),
        );
        text(
            &mut image,
            scale * 14,
            y,
            scale,
            outcome.label(),
            outcome.colour(),
        );
    }
    image
}

fn fill(image: &mut RgbImage, x: u32, y: u32, w: u32, h: u32, colour: Rgb<u8>) {
    for yy in y..y.saturating_add(h).min(image.height()) {
        for xx in x..x.saturating_add(w).min(image.width()) {
            image.put_pixel(xx, yy, colour);
        }
    }
}

/// A rectangle outline of `thickness` pixels just inside the box.
fn frame(image: &mut RgbImage, b: &BBox, thickness: u32, colour: Rgb<u8>) {
    let t = thickness.min(b.width).min(b.height);
    fill(image, b.x, b.y, b.width, t, colour);
    fill(
        image,
        b.x,
        b.y.saturating_add(b.height - t),
        b.width,
        t,
        colour,
    );
    fill(image, b.x, b.y, t, b.height, colour);
    fill(
        image,
        b.x.saturating_add(b.width - t),
        b.y,
        t,
        b.height,
        colour,
    );
}

/// Draws upper-case `s` in a 5 × 7 pixel font magnified `scale` times.
fn text(image: &mut RgbImage, x: u32, y: u32, scale: u32, s: &str, colour: Rgb<u8>) {
    for (i, c) in s.chars().enumerate() {
        let rows = glyph(c);
        for (r, bits) in rows.iter().enumerate() {
            for col in 0..5 {
                if bits & (0x10 >> col) != 0 {
                    let px = x + (i as u32 * 6 + col) * scale;
                    fill(image, px, y + r as u32 * scale, scale, scale, colour);
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
