//! What a part of a sharded detection evaluation stores so that `merge`
//! can accumulate as one whole evaluation would (docs/detection.md,
//! "Shards"): average precision cannot be rebuilt from counts, so each
//! (category, image) pair keeps its detections' scores and, per area
//! range, IoU threshold and detection, whether it was a true positive, a
//! false positive or ignored — with the gold boxes that count and those
//! missed. The values are written compactly and exactly: a score as the
//! 16 hexadecimal digits of its bits, the flags two to a hexadecimal
//! digit.

use super::params::AREA_RANGES;
use super::score::{Evaluated, ImageEval};
use crate::coco::ImageId;
use serde::{Deserialize, Serialize};

/// One (category, image) pair of a part. In the JSON it is one string of
/// six fields separated by spaces, `category gold missed scores states
/// image` (see [`Matches::line`]), so that a part stays a fraction of the
/// detections file's size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Matches {
    pub category: i64,
    pub image: ImageId,
    /// The scores of the detections kept, best first: 16 hexadecimal
    /// digits of each one's IEEE 754 bits.
    pub scores: String,
    /// Per area range (all, small, medium, large): the gold boxes that
    /// count.
    pub gold: [usize; 4],
    /// Per IoU threshold: the gold boxes that count in area `all` and that
    /// no detection matched.
    pub missed: Vec<usize>,
    /// The state of every (area range, threshold, detection), in that
    /// order, two to a hexadecimal digit (`0` false positive, `1` true
    /// positive, `2` ignored).
    pub states: String,
}

impl Matches {
    /// The pair as one line: the category id, the four gold counts and the
    /// missed counts (each joined by commas), the scores, the states
    /// (`-` when there is no detection) and last the image id as JSON (a
    /// number, or a quoted string, which may hold spaces).
    pub fn line(&self) -> String {
        let join = |v: &[usize]| {
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        };
        let or_dash = |s: &str| {
            if s.is_empty() {
                "-".to_string()
            } else {
                s.to_string()
            }
        };
        format!(
            "{} {} {} {} {} {}",
            self.category,
            join(&self.gold),
            join(&self.missed),
            or_dash(&self.scores),
            or_dash(&self.states),
            serde_json::to_string(&self.image).unwrap_or_default()
        )
    }

    /// The pair a [`Matches::line`] holds, or what is wrong with it.
    pub fn parse(line: &str) -> Result<Self, String> {
        let mut fields = line.splitn(6, ' ');
        let mut next = |what: &str| {
            fields
                .next()
                .ok_or_else(|| format!("no {what} in {line:?}"))
        };
        let category = next("category")?;
        let category = category
            .parse()
            .map_err(|_| format!("category {category:?} is no id"))?;
        let counts = |text: &str, what: &str| -> Result<Vec<usize>, String> {
            (text.split(','))
                .map(|n| {
                    n.parse()
                        .map_err(|_| format!("{what} {text:?} are not counts"))
                })
                .collect()
        };
        let gold = counts(next("gold counts")?, "gold counts")?;
        let gold = <[usize; 4]>::try_from(gold).map_err(|_| "not four gold counts".to_string())?;
        let missed = counts(next("missed counts")?, "missed counts")?;
        let dash = |s: &str| {
            if s == "-" {
                String::new()
            } else {
                s.to_string()
            }
        };
        let scores = dash(next("scores")?);
        let states = dash(next("states")?);
        let image = next("image")?;
        let image =
            serde_json::from_str(image).map_err(|_| format!("image {image:?} is no image id"))?;
        Ok(Matches {
            category,
            image,
            scores,
            gold,
            missed,
            states,
        })
    }
}

impl From<Matches> for String {
    fn from(m: Matches) -> String {
        m.line()
    }
}

impl TryFrom<String> for Matches {
    type Error = String;
    fn try_from(line: String) -> Result<Self, String> {
        Matches::parse(&line)
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Every (category, image) pair of `evaluated`, in category then image
/// order.
pub fn of(evaluated: &Evaluated) -> Vec<Matches> {
    let mut out = Vec::new();
    for (k, list) in evaluated.evals.iter().enumerate() {
        let Some(&category) = evaluated.categories.get(k) else {
            continue;
        };
        for e in list {
            let Some(image) = evaluated.images.get(e.image) else {
                continue;
            };
            let mut scores = String::with_capacity(e.scores.len() * 16);
            for s in &e.scores {
                scores.push_str(&format!("{:016x}", s.to_bits()));
            }
            let states = (e.states.chunks(2))
                .map(|pair| {
                    let high = pair.first().copied().unwrap_or(0);
                    let low = pair.get(1).copied().unwrap_or(0);
                    char::from(*HEX.get(usize::from(high * 4 + low)).unwrap_or(&b'0'))
                })
                .collect();
            out.push(Matches {
                category,
                image: image.clone(),
                scores,
                gold: e.gold,
                missed: e.missed.clone(),
                states,
            });
        }
    }
    out
}

/// One hexadecimal digit's value.
fn digit(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    }
}

/// The evaluation the parts' `matches` come from: `categories` in the
/// evaluation's order (every part lists them all), each pair put back at
/// its category and image (images in evaluation order). The error names
/// the pair and what is wrong with it.
pub fn evaluated(
    categories: Vec<i64>,
    matches: &[Matches],
    thresholds: usize,
) -> Result<Evaluated, String> {
    let mut images: Vec<ImageId> = matches.iter().map(|m| m.image.clone()).collect();
    images.sort();
    images.dedup();
    let mut evals: Vec<Vec<ImageEval>> = vec![Vec::new(); categories.len()];
    for (n, m) in matches.iter().enumerate() {
        let wrong = |what: &str| {
            format!(
                "matches[{n}] (category {}, image {}): {what}",
                m.category, m.image
            )
        };
        let k = (categories.iter().position(|&c| c == m.category))
            .ok_or_else(|| wrong("a category the evaluation does not have"))?;
        let image = images
            .binary_search(&m.image)
            .map_err(|_| wrong("no such image"))?;
        let scores = decode_scores(&m.scores)
            .ok_or_else(|| wrong("scores are not 16 hexadecimal digits each"))?;
        if m.missed.len() != thresholds {
            return Err(wrong("not one missed count per threshold"));
        }
        let states = decode_states(&m.states, AREA_RANGES.len() * thresholds * scores.len())
            .ok_or_else(|| {
                wrong("states that do not hold one per area range, threshold and detection")
            })?;
        let list = evals.get_mut(k).ok_or_else(|| wrong("out of place"))?;
        list.push(ImageEval {
            image,
            scores,
            states,
            gold: m.gold,
            missed: m.missed.clone(),
        });
    }
    for (k, list) in evals.iter_mut().enumerate() {
        list.sort_by_key(|e| e.image);
        if let Some(pair) = list
            .windows(2)
            .find(|w| w.first().map(|e| e.image) == w.get(1).map(|e| e.image))
        {
            let image = pair.first().and_then(|e| images.get(e.image)).cloned();
            return Err(format!(
                "category {}, image {}: given twice",
                categories.get(k).copied().unwrap_or(-1),
                image.map_or_else(|| "?".to_string(), |i| i.to_string())
            ));
        }
    }
    Ok(Evaluated {
        categories,
        images,
        evals,
        dropped: 0,
    })
}

fn decode_scores(text: &str) -> Option<Vec<f64>> {
    if !text.len().is_multiple_of(16) {
        return None;
    }
    (text.as_bytes().chunks(16))
        .map(|chunk| {
            let bits = chunk
                .iter()
                .try_fold(0u64, |acc, &c| Some(acc << 4 | u64::from(digit(c)?)))?;
            Some(f64::from_bits(bits))
        })
        .collect()
}

/// `count` states from two to a digit; a state above 2, or a digit too
/// many or too few, is refused.
fn decode_states(text: &str, count: usize) -> Option<Vec<u8>> {
    if text.len() != count.div_ceil(2) {
        return None;
    }
    let mut out = Vec::with_capacity(count);
    for c in text.bytes() {
        let v = digit(c)?;
        let (high, low) = (v / 4, v % 4);
        if high > 2 || low > 2 {
            return None;
        }
        out.push(high);
        out.push(low);
    }
    if !count.is_multiple_of(2) && out.pop() != Some(0) {
        return None;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(image: usize) -> ImageEval {
        // Two thresholds, three detections; area all: t0 1 0 2, t1 0 2 1;
        // the other areas all ignored.
        let mut states = vec![1, 0, 2, 0, 2, 1];
        states.extend([2; 18]);
        ImageEval {
            image,
            scores: vec![0.9, 0.1 + 0.2, -0.0],
            states,
            gold: [2, 0, 1, 1],
            missed: vec![1, 2],
        }
    }

    #[test]
    fn matches_are_written_and_read_back_exactly() {
        let whole = Evaluated {
            categories: vec![3, 7],
            images: vec![ImageId::Number(4), ImageId::Text("p".into())],
            evals: vec![vec![], vec![pair(1)]],
            dropped: 0,
        };
        let written = of(&whole);
        assert_eq!(written.len(), 1);
        let m = &written[0];
        assert_eq!((m.category, &m.image), (7, &ImageId::Text("p".into())));
        // 0.9, 0.30000000000000004 and −0 by their bits.
        assert_eq!(m.scores, "3feccccccccccccd3fd33333333333348000000000000000");
        // (1,0) (2,0) (2,1), then (2,2) nine times.
        assert_eq!(m.states, "489aaaaaaaaa");
        assert_eq!(
            serde_json::to_string(m).unwrap(),
            r#""7 2,0,1,1 1,2 3feccccccccccccd3fd33333333333348000000000000000 489aaaaaaaaa \"p\"""#
        );
        let spaced = Matches {
            image: ImageId::Text("a b".into()),
            scores: String::new(),
            states: String::new(),
            ..m.clone()
        };
        assert_eq!(spaced.line(), r#"7 2,0,1,1 1,2 - - "a b""#);
        assert_eq!(Matches::parse(&spaced.line()), Ok(spaced));
        assert_eq!(
            Matches::parse("7 2,0,1 1,2 - - 3"),
            Err("not four gold counts".into())
        );
        let back = evaluated(vec![3, 7], &written, 2).unwrap();
        assert_eq!(back.images, vec![ImageId::Text("p".into())]);
        let got = &back.evals[1][0];
        assert_eq!(got.scores[1].to_bits(), (0.1f64 + 0.2).to_bits());
        assert!(got.scores[2].is_sign_negative());
        assert_eq!(
            (got.image, &got.states, got.gold, &got.missed),
            (0, &pair(0).states, [2, 0, 1, 1], &vec![1, 2])
        );
    }

    #[test]
    fn a_tampered_pair_is_named() {
        let evaluated_one = Evaluated {
            categories: vec![3],
            images: vec![ImageId::Number(1)],
            evals: vec![vec![pair(0)]],
            dropped: 0,
        };
        let good = of(&evaluated_one);
        let bad = |f: fn(&mut Matches)| {
            let mut m = good.clone();
            f(&mut m[0]);
            evaluated(vec![3], &m, 2).unwrap_err()
        };
        assert_eq!(
            bad(|m| m.states.replace_range(0..1, "c")),
            "matches[0] (category 3, image 1): states that do not hold one per area range, threshold and detection"
        );
        assert_eq!(
            bad(|m| m.states.push('0')),
            "matches[0] (category 3, image 1): states that do not hold one per area range, threshold and detection"
        );
        assert_eq!(
            bad(|m| m.scores.push('0')),
            "matches[0] (category 3, image 1): scores are not 16 hexadecimal digits each"
        );
        assert_eq!(
            bad(|m| m.category = 4),
            "matches[0] (category 4, image 1): a category the evaluation does not have"
        );
        let mut twice = good.clone();
        twice.extend(good.clone());
        assert_eq!(
            evaluated(vec![3], &twice, 2).unwrap_err(),
            "category 3, image 1: given twice"
        );
    }
}
