//! The settings of a detection evaluation, checked in one place. Every
//! entry point gives them as a [`Requested`] — the command line from its
//! options, Python from its keyword arguments, C as JSON — and
//! [`Requested::check`] turns them into pycocotools' `Params`: IoU
//! thresholds in [0, 1], each once, in the order given; three `maxDets`
//! values of at least 1, sorted as `evaluate()` sorts them; the categories
//! and images kept, each once.

use super::params::Params;
use crate::coco::ImageId;
use crate::task::OptionError;
use serde::{Deserialize, Serialize};

/// The settings as given, by the names of the command line's options in
/// snake case; one not given is its default.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(default)]
pub struct Requested {
    /// IoU thresholds, a list `0.5,0.75` (default: numpy's
    /// `linspace(.5, .95, 10)`).
    pub iou_thresholds: Option<String>,
    /// The three `maxDets` values, a list `1,10,100` (the default).
    pub max_dets: Option<String>,
    /// The category ids scored, a list (default: every category of the
    /// gold).
    pub categories: Option<String>,
    /// The image ids scored, a list (default: every image of the gold).
    pub images: Option<String>,
    /// Categories kept apart (`useCats`, default true).
    pub use_cats: Option<bool>,
}

/// The items of a comma-separated list, each read by `read`; empty items
/// and an item given twice are refused.
fn list<T: PartialEq + std::fmt::Display>(
    option: &str,
    spec: &str,
    what: &str,
    read: impl Fn(&str) -> Option<T>,
) -> Result<Vec<T>, OptionError> {
    let mut out: Vec<T> = Vec::new();
    for item in spec.split(',').map(str::trim) {
        let value = read(item)
            .ok_or_else(|| OptionError::new(option, format!("takes {what}; not {item:?}")))?;
        if out.contains(&value) {
            return Err(OptionError::new(option, format!("names {value} twice")));
        }
        out.push(value);
    }
    Ok(out)
}

/// An image id as a list gives it: a whole number is a number id,
/// anything else a string id.
fn image_id(item: &str) -> Option<ImageId> {
    if item.is_empty() {
        return None;
    }
    Some(match item.parse::<i64>() {
        Ok(n) => ImageId::Number(n),
        Err(_) => ImageId::Text(item.to_string()),
    })
}

impl Requested {
    /// Checks every rule; the error names the option and what is wrong.
    pub fn check(&self) -> Result<Params, OptionError> {
        let mut params = Params::default();
        if let Some(spec) = &self.iou_thresholds {
            params.iou_thresholds = list("iou_thresholds", spec, "numbers in 0..=1", |t| {
                t.parse::<f64>().ok().filter(|x| (0.0..=1.0).contains(x))
            })?;
        }
        if let Some(spec) = &self.max_dets {
            let mut values = list("max_dets", spec, "whole numbers of at least 1", |t| {
                t.parse::<usize>().ok().filter(|&n| n >= 1)
            })?;
            values.sort_unstable();
            params.max_dets = <[usize; 3]>::try_from(values).map_err(|v| {
                OptionError::new(
                    "max_dets",
                    format!(
                        "takes three values (as pycocotools' summary reads them), not {}",
                        v.len()
                    ),
                )
            })?;
        }
        params.use_cats = self.use_cats.unwrap_or(true);
        params.categories = (self.categories.as_deref())
            .map(|spec| {
                list("categories", spec, "category ids (whole numbers)", |t| {
                    t.parse::<i64>().ok()
                })
            })
            .transpose()?;
        params.images = (self.images.as_deref())
            .map(|spec| list("images", spec, "image ids", image_id))
            .transpose()?;
        Ok(params)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_pycocotools() {
        assert_eq!(Requested::default().check().unwrap(), Params::default());
    }

    #[test]
    fn lists_are_read_and_max_dets_sorted() {
        let given = Requested {
            iou_thresholds: Some("0.7, 0.3,0.5".into()),
            max_dets: Some("20,1,5".into()),
            categories: Some("3,1".into()),
            images: Some("7,page-2".into()),
            use_cats: Some(false),
        };
        let checked = given.check().unwrap();
        assert_eq!(checked.iou_thresholds, vec![0.7, 0.3, 0.5]);
        assert_eq!(checked.max_dets, [1, 5, 20]);
        assert!(!checked.use_cats);
        assert_eq!(checked.categories, Some(vec![3, 1]));
        assert_eq!(
            checked.images,
            Some(vec![ImageId::Number(7), ImageId::Text("page-2".into())])
        );
    }

    #[test]
    fn every_rule_names_its_option() {
        let bad = |given: Requested| given.check().unwrap_err().flag();
        let iou = |s: &str| Requested {
            iou_thresholds: Some(s.into()),
            ..Requested::default()
        };
        assert_eq!(
            bad(iou("0.5,1.5")),
            "--iou-thresholds takes numbers in 0..=1; not \"1.5\""
        );
        assert_eq!(
            bad(iou("0.5,,0.7")),
            "--iou-thresholds takes numbers in 0..=1; not \"\""
        );
        assert_eq!(bad(iou("0.5,0.50")), "--iou-thresholds names 0.5 twice");
        let max = |s: &str| Requested {
            max_dets: Some(s.into()),
            ..Requested::default()
        };
        assert_eq!(
            bad(max("1,10")),
            "--max-dets takes three values (as pycocotools' summary reads them), not 2"
        );
        assert_eq!(
            bad(max("0,1,2")),
            "--max-dets takes whole numbers of at least 1; not \"0\""
        );
        let cats = Requested {
            categories: Some("1,x".into()),
            ..Requested::default()
        };
        assert_eq!(
            bad(cats),
            "--categories takes category ids (whole numbers); not \"x\""
        );
        let images = Requested {
            images: Some("3,3".into()),
            ..Requested::default()
        };
        assert_eq!(bad(images), "--images names 3 twice");
    }
}
