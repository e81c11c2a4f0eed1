//! The tolerances of a sweep: whole pixels (`--tolerances 0..=55`, `0,10,20`)
//! or millimetres (`--tolerance-mm 0.5,1,2`), and their per-page thresholds
//! in pixels.

use serde::{Deserialize, Serialize};

/// Pixel tolerances when none are given (docs/segmentation.md).
pub const DEFAULT_PIXELS: &str = "0..=55";
/// The rows the table shows when `--tolerances` is not given.
pub const STANDARD_ROWS: [u32; 5] = [0, 10, 20, 40, 55];
/// Largest pixel tolerance accepted (the largest page side).
pub const MAX_PIXELS: u32 = 65_535;
/// Resolution assumed where a page gives none, in dots per inch.
pub const DEFAULT_DPI: f64 = 300.0;

/// One tolerance of a sweep, printed as `t` in the JSON.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Tolerance {
    Pixels(u32),
    Millimetres(f64),
}

impl std::fmt::Display for Tolerance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tolerance::Pixels(t) => write!(f, "{t}"),
            Tolerance::Millimetres(mm) => write!(f, "{mm}mm"),
        }
    }
}

/// The tolerances of a sweep, ascending and distinct.
#[derive(Clone, Debug, PartialEq)]
pub enum Tolerances {
    Pixels(Vec<u32>),
    Millimetres(Vec<f64>),
}

impl Tolerances {
    /// Parses a spec of pixels (`--tolerances`): comma-separated items, each a whole number,
    /// `a..=b` (inclusive) or `a..b` (exclusive). Sorted, duplicates dropped.
    pub fn parse_pixels(spec: &str) -> Result<Self, String> {
        let mut out = Vec::new();
        for item in spec.split(',').map(str::trim) {
            let number = |s: &str| match s.trim().parse::<u32>() {
                Ok(t) if t <= MAX_PIXELS => Ok(t),
                _ => Err(format!(
                    "takes whole numbers of pixels in 0..={MAX_PIXELS}; not {s:?}"
                )),
            };
            if let Some((a, b)) = item.split_once("..=") {
                out.extend(number(a)?..=number(b)?);
            } else if let Some((a, b)) = item.split_once("..") {
                out.extend(number(a)?..number(b)?);
            } else {
                out.push(number(item)?);
            }
        }
        out.sort_unstable();
        out.dedup();
        if out.is_empty() {
            return Err(format!("names no tolerance: {spec:?}"));
        }
        Ok(Tolerances::Pixels(out))
    }

    /// Parses a spec of millimetres (`--tolerance-mm`): comma-separated non-negative decimals.
    pub fn parse_millimetres(spec: &str) -> Result<Self, String> {
        let mut out = Vec::new();
        for item in spec.split(',').map(str::trim) {
            match item.parse::<f64>() {
                Ok(mm) if (0.0..=1000.0).contains(&mm) => out.push(mm),
                _ => {
                    return Err(format!(
                        "takes numbers of millimetres in 0..=1000; not {item:?}"
                    ));
                }
            }
        }
        out.sort_by(f64::total_cmp);
        out.dedup();
        Ok(Tolerances::Millimetres(out))
    }

    pub fn len(&self) -> usize {
        match self {
            Tolerances::Pixels(v) => v.len(),
            Tolerances::Millimetres(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `i`-th tolerance.
    pub fn get(&self, i: usize) -> Option<Tolerance> {
        match self {
            Tolerances::Pixels(v) => v.get(i).map(|&t| Tolerance::Pixels(t)),
            Tolerances::Millimetres(v) => v.get(i).map(|&t| Tolerance::Millimetres(t)),
        }
    }

    /// All tolerances in order.
    pub fn iter(&self) -> impl Iterator<Item = Tolerance> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    /// The unit name for the JSON settings.
    pub fn unit(&self) -> &'static str {
        match self {
            Tolerances::Pixels(_) => "px",
            Tolerances::Millimetres(_) => "mm",
        }
    }

    /// The per-page thresholds in whole pixels for a page of the given
    /// resolution (dots per inch across, down). A side difference of d
    /// pixels is within a tolerance of τ mm when d ≤ τ·dpi/25.4, i.e.
    /// d ≤ floor(τ·dpi/25.4) (a millionth of a pixel of slack absorbs
    /// rounding of the decimal input).
    pub fn thresholds(&self, dpi: (f64, f64)) -> Thresholds {
        match self {
            Tolerances::Pixels(v) => {
                let t: Vec<u64> = v.iter().map(|&t| u64::from(t)).collect();
                Thresholds { x: t.clone(), y: t }
            }
            Tolerances::Millimetres(v) => {
                let px = |mm: f64, dpi: f64| (mm * dpi / 25.4 + 1e-6).floor() as u64;
                Thresholds {
                    x: v.iter().map(|&mm| px(mm, dpi.0)).collect(),
                    y: v.iter().map(|&mm| px(mm, dpi.1)).collect(),
                }
            }
        }
    }
}

/// Pixel thresholds of every tolerance of a sweep on one page, for the
/// horizontal sides (x) and the vertical sides (y). Both ascending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thresholds {
    pub x: Vec<u64>,
    pub y: Vec<u64>,
}

impl Thresholds {
    /// Index of the first tolerance at which a pair with these largest side
    /// differences matches, or `None` when it matches at none.
    pub fn level(&self, dx: u64, dy: u64) -> Option<usize> {
        let i = self.x.partition_point(|&t| t < dx);
        let j = self.y.partition_point(|&t| t < dy);
        let level = i.max(j);
        (level < self.x.len()).then_some(level)
    }

    /// The largest threshold on either axis: no pair farther apart matches.
    pub fn max(&self) -> u64 {
        let x = self.x.last().copied().unwrap_or(0);
        let y = self.y.last().copied().unwrap_or(0);
        x.max(y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ranges_and_lists() {
        assert_eq!(Tolerances::parse_pixels("0..=55").map(|t| t.len()), Ok(56));
        assert_eq!(
            Tolerances::parse_pixels("20, 0,10,10, 3..5"),
            Ok(Tolerances::Pixels(vec![0, 3, 4, 10, 20]))
        );
        assert!(Tolerances::parse_pixels("a").is_err());
        assert!(Tolerances::parse_pixels("-1").is_err());
        assert!(Tolerances::parse_pixels("5..5").is_err());
        assert!(Tolerances::parse_pixels("0..=4000000000").is_err());
        assert_eq!(Tolerances::parse_pixels("65535").map(|t| t.len()), Ok(1));
        assert_eq!(
            Tolerances::parse_millimetres("2, 0.5"),
            Ok(Tolerances::Millimetres(vec![0.5, 2.0]))
        );
        assert!(Tolerances::parse_millimetres("nan").is_err());
        assert!(Tolerances::parse_millimetres("-1").is_err());
    }

    #[test]
    fn millimetres_become_pixels_per_axis() {
        let t = Tolerances::Millimetres(vec![0.0, 1.0, 25.4]);
        let th = t.thresholds((300.0, 600.0));
        // 1 mm at 300 dpi = 11.81 px, at 600 dpi = 23.62 px; 25.4 mm = 1 inch exactly.
        assert_eq!(th.x, vec![0, 11, 300]);
        assert_eq!(th.y, vec![0, 23, 600]);
        assert_eq!(th.level(11, 23), Some(1));
        assert_eq!(th.level(12, 0), Some(2));
        assert_eq!(th.level(0, 601), None);
        assert_eq!(th.max(), 600);
    }

    #[test]
    fn pixel_levels() {
        let th = Tolerances::parse_pixels("0,10,20").map(|t| t.thresholds((1.0, 1.0)));
        let th = th.unwrap_or(Thresholds {
            x: vec![],
            y: vec![],
        });
        assert_eq!(th.level(0, 0), Some(0));
        assert_eq!(th.level(10, 3), Some(1));
        assert_eq!(th.level(11, 3), Some(2));
        assert_eq!(th.level(21, 3), None);
    }
}
