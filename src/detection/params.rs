//! The parameters of a COCO evaluation, as pycocotools' `Params` for
//! `bbox` holds them (docs/detection.md, "Parameters"): IoU thresholds,
//! recall thresholds, the area ranges, the detections kept per image,
//! whether categories are kept apart, the categories and images scored.

use crate::coco::ImageId;

/// `numpy.linspace(start, stop, num)` as numpy computes it: `i · step +
/// start` with `step = (stop − start) / (num − 1)`, the last value `stop`
/// itself (so the ninth IoU threshold is 0.8999999999999999).
pub fn linspace(start: f64, stop: f64, num: usize) -> Vec<f64> {
    if num == 1 {
        return vec![start];
    }
    let step = (stop - start) / (num - 1) as f64;
    let mut out: Vec<f64> = (0..num).map(|i| i as f64 * step + start).collect();
    if let Some(last) = out.last_mut() {
        *last = stop;
    }
    out
}

/// An area range by its label, closed at both ends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AreaRange {
    pub label: &'static str,
    pub min: f64,
    pub max: f64,
}

/// The four area ranges of COCO: all, small (< 32²), medium, large (> 96²).
pub const AREA_RANGES: [AreaRange; 4] = [
    AreaRange {
        label: "all",
        min: 0.0,
        max: 1e10,
    },
    AreaRange {
        label: "small",
        min: 0.0,
        max: 1024.0,
    },
    AreaRange {
        label: "medium",
        min: 1024.0,
        max: 9216.0,
    },
    AreaRange {
        label: "large",
        min: 9216.0,
        max: 1e10,
    },
];

/// The parameters an evaluation runs with.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// IoU thresholds, in the order given (default: linspace(.5, .95, 10)).
    pub iou_thresholds: Vec<f64>,
    /// Recall thresholds (linspace(0, 1, 101)).
    pub recall_thresholds: Vec<f64>,
    /// Detections kept per image and category, three values in increasing
    /// order (default 1, 10, 100).
    pub max_dets: [usize; 3],
    /// Categories kept apart (`useCats`); when not, every category's boxes
    /// are matched together.
    pub use_cats: bool,
    /// The category ids scored (`catIds`; `None`: every category of the
    /// gold). Read only when categories are kept apart, as pycocotools
    /// reads it.
    pub categories: Option<Vec<i64>>,
    /// The image ids scored (`imgIds`; `None`: every image of the gold).
    pub images: Option<Vec<ImageId>>,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            iou_thresholds: linspace(0.5, 0.95, 10),
            recall_thresholds: linspace(0.0, 1.0, 101),
            max_dets: [1, 10, 100],
            use_cats: true,
            categories: None,
            images: None,
        }
    }
}

impl Params {
    /// The largest number of detections kept per image and category.
    pub fn max_det(&self) -> usize {
        self.max_dets[2]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_are_numpys() {
        let t = linspace(0.5, 0.95, 10);
        assert_eq!(t[8], 0.8999999999999999);
        assert_eq!((t[0], t[5], t[9]), (0.5, 0.75, 0.95));
        let r = linspace(0.0, 1.0, 101);
        assert_eq!((r[29], r[57], r[100]), (0.29, 0.5700000000000001, 1.0));
    }
}
