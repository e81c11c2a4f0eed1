//! The settings of a segmentation evaluation, checked in one place. Every
//! entry point gives them as a [`Requested`] — the command line from its
//! options, Python from its keyword arguments, C as JSON — and
//! [`Requested::check`] applies every rule: one unit of tolerances (pixels
//! or millimetres), a spec each reads, millimetres and overlays only with
//! the page images (whose resolution converts them), and the overlays'
//! tolerance given exactly when overlays are drawn.

use super::tolerances::{DEFAULT_PIXELS, Tolerances};
use crate::task::OptionError;
use serde::{Deserialize, Serialize};

/// The settings as given, by the names of the command line's options in
/// snake case; one not given is its default.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct Requested {
    /// Pixels: a range `0..=55` or a list `0,10,20` (default `0..=55`).
    pub tolerances: Option<String>,
    /// Millimetres, a list, instead of pixels.
    pub tolerance_mm: Option<String>,
    /// The tolerance the overlay images show, in pixels.
    pub at: Option<u32>,
    /// The lowest score of a COCO detection kept (default: every one).
    pub min_score: Option<f64>,
}

/// The checked settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    pub tolerances: Tolerances,
    /// The tolerances were chosen (not the default).
    pub chosen: bool,
    /// The overlays' tolerance, when overlays are drawn.
    pub at: Option<u32>,
    /// The lowest score of a COCO detection kept.
    pub min_score: Option<f64>,
}

impl Requested {
    /// Checks every rule, `pages` and `overlays` saying whether the page
    /// images and an overlay folder are given; the error names the option
    /// and what is wrong with it.
    pub fn check(&self, pages: bool, overlays: bool) -> Result<Checked, OptionError> {
        let tolerances = match (&self.tolerances, &self.tolerance_mm) {
            (Some(_), Some(_)) => {
                return Err(OptionError::new(
                    "tolerance_mm",
                    "cannot be given with {tolerances}: give one unit",
                ));
            }
            (_, Some(_)) if !pages => {
                return Err(OptionError::new(
                    "tolerance_mm",
                    "needs the page images ({pages}), whose resolution converts millimetres",
                ));
            }
            (_, Some(mm)) => Tolerances::parse_millimetres(mm)
                .map_err(|e| OptionError::new("tolerance_mm", e))?,
            (Some(px), None) => {
                Tolerances::parse_pixels(px).map_err(|e| OptionError::new("tolerances", e))?
            }
            (None, None) => Tolerances::parse_pixels(DEFAULT_PIXELS)
                .map_err(|e| OptionError::new("tolerances", e))?,
        };
        if overlays && !pages {
            return Err(OptionError::new(
                "overlays",
                "need the page images ({pages}) to draw on",
            ));
        }
        if overlays != self.at.is_some() {
            return Err(OptionError::new(
                "at",
                "is the tolerance of the {overlays}: give both or neither",
            ));
        }
        if let Some(min) = self.min_score.filter(|m| !m.is_finite()) {
            return Err(OptionError::new(
                "min_score",
                format!("must be a number, not {min}"),
            ));
        }
        Ok(Checked {
            tolerances,
            chosen: self.tolerances.is_some() || self.tolerance_mm.is_some(),
            at: self.at,
            min_score: self.min_score,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_every_pixel_to_55() {
        let checked = Requested::default().check(false, false).unwrap();
        assert_eq!(checked.tolerances.iter().count(), 56);
        assert!(!checked.chosen);
    }

    #[test]
    fn every_rule_names_its_option() {
        let bad = |given: Requested, pages: bool, overlays: bool| {
            given.check(pages, overlays).unwrap_err().to_string()
        };
        let px = |spec: &str| Requested {
            tolerances: Some(spec.into()),
            ..Requested::default()
        };
        let mm = |spec: &str| Requested {
            tolerance_mm: Some(spec.into()),
            ..Requested::default()
        };
        assert_eq!(
            bad(px("0,x"), false, false),
            "tolerances takes whole numbers of pixels in 0..=65535; not \"x\""
        );
        assert_eq!(
            bad(px("9..3"), false, false),
            "tolerances names no tolerance: \"9..3\""
        );
        assert_eq!(
            bad(mm("1"), false, false),
            "tolerance_mm needs the page images (pages), whose resolution converts millimetres"
        );
        assert_eq!(
            bad(mm("-1"), true, false),
            "tolerance_mm takes numbers of millimetres in 0..=1000; not \"-1\""
        );
        let both = Requested {
            tolerances: Some("0".into()),
            tolerance_mm: Some("1".into()),
            ..Requested::default()
        };
        assert_eq!(
            bad(both, true, false),
            "tolerance_mm cannot be given with tolerances: give one unit"
        );
        assert_eq!(
            bad(Requested::default(), false, true),
            "overlays need the page images (pages) to draw on"
        );
        assert_eq!(
            bad(Requested::default(), true, true),
            "at is the tolerance of the overlays: give both or neither"
        );
        let at = Requested {
            at: Some(10),
            ..Requested::default()
        };
        assert_eq!(at.check(true, true).unwrap().at, Some(10));
    }
}
