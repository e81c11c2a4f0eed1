//! The measures published beside the graph distance (docs/metrics.md,
//! "Precision, recall and F1"): node and edge precision, recall and F1
//! under a level's mapping, and the triplet F1 of label-exact diagram
//! benchmarks.

use super::model::Flowchart;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Precision, recall and F1 of `matched` items among a run's and a gold's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Prf {
    pub matched: usize,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
}

impl Prf {
    /// `matched` of `run` items and `gold` items; an empty denominator
    /// gives 0.
    pub fn of(matched: usize, run: usize, gold: usize) -> Prf {
        let ratio = |n: usize, d: usize| if d == 0 { 0.0 } else { n as f64 / d as f64 };
        let (precision, recall) = (ratio(matched, run), ratio(matched, gold));
        let f1 = if precision + recall > 0.0 {
            2.0 * precision * recall / (precision + recall)
        } else {
            0.0
        };
        Prf {
            matched,
            precision,
            recall,
            f1,
        }
    }
}

/// The means of precision, recall and F1 over topics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MeanPrf {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
}

impl MeanPrf {
    /// The means of `all` (every topic, missing ones as zeros); zeros for
    /// none. Summed in order, so that a merge of parts gives the bits of
    /// the whole.
    pub fn of<'a>(all: impl ExactSizeIterator<Item = &'a Prf>) -> MeanPrf {
        let n = all.len();
        if n == 0 {
            return MeanPrf::default();
        }
        let (mut p, mut r, mut f) = (0.0, 0.0, 0.0);
        for x in all {
            p += x.precision;
            r += x.recall;
            f += x.f1;
        }
        MeanPrf {
            precision: p / n as f64,
            recall: r / n as f64,
            f1: f / n as f64,
        }
    }
}

/// The triplets of a topic: how many the gold and the run have, and the
/// precision, recall and F1 of their multiset intersection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Triplets {
    pub gold: usize,
    pub run: usize,
    #[serde(flatten)]
    pub scores: Prf,
}

/// A text as triplets compare it: lower-cased, with the 32 ASCII
/// punctuation characters and every white-space character removed.
pub fn normalized(text: &str) -> String {
    text.chars()
        .flat_map(char::to_lowercase)
        .filter(|c| !c.is_ascii_punctuation() && !is_space(*c))
        .collect()
}

/// White space as Python's `str.isspace` has it: Unicode's white space and
/// the four ASCII separators U+001C–U+001F.
fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

type Triplet = (String, String, String);

/// Every edge of `flowchart` as (source text, edge text, target text),
/// normalized; an undirected edge's two node texts in sorted order.
pub fn triplets(flowchart: &Flowchart) -> Vec<Triplet> {
    let text: HashMap<i64, String> = (flowchart.nodes.iter())
        .map(|n| (n.id, normalized(n.text.as_deref().unwrap_or(""))))
        .collect();
    let node = |id: i64| text.get(&id).cloned().unwrap_or_default();
    (flowchart.edges.iter())
        .map(|e| {
            let (mut a, mut b) = (node(e.from), node(e.to));
            if !e.directed && b < a {
                std::mem::swap(&mut a, &mut b);
            }
            (a, normalized(e.text.as_deref().unwrap_or("")), b)
        })
        .collect()
}

/// The triplet scores of `run` against `gold` (`None`: no run, all zero).
pub fn triplet_scores(gold: &Flowchart, run: Option<&Flowchart>) -> Triplets {
    let gold_triplets = triplets(gold);
    let Some(run) = run else {
        return Triplets {
            gold: gold_triplets.len(),
            run: 0,
            scores: Prf::of(0, 0, gold_triplets.len()),
        };
    };
    let run_triplets = triplets(run);
    let mut counts: HashMap<&Triplet, usize> = HashMap::new();
    for t in &gold_triplets {
        *counts.entry(t).or_default() += 1;
    }
    let mut matched = 0;
    for t in &run_triplets {
        if let Some(left) = counts.get_mut(t).filter(|n| **n > 0) {
            *left -= 1;
            matched += 1;
        }
    }
    Triplets {
        gold: gold_triplets.len(),
        run: run_triplets.len(),
        scores: Prf::of(matched, run_triplets.len(), gold_triplets.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flowchart::{ParseOptions, parse};

    fn chart(text: &str) -> Flowchart {
        parse(text.as_bytes(), "t.txt", &ParseOptions::default()).flowchart
    }

    #[test]
    fn texts_are_normalized_as_python_does() {
        assert_eq!(normalized("  Code = \"1234\"? "), "code1234");
        assert_eq!(normalized("Enter\u{a0}\tCode_(x)"), "entercodex");
        // Non-ASCII punctuation stays; letters lower-case as Unicode says.
        assert_eq!(normalized("ÀB–C…"), "àb–c…");
        assert_eq!(normalized("a\u{1f}b\u{85}c"), "abc");
    }

    #[test]
    fn multiset_intersection_by_hand() {
        // Gold: A→B twice (two parallel edges), B–C undirected, C→A "no".
        let gold = chart(
            "NO 1 oval \"A\"\nNO 2 rectangle \"B\"\nNO 3 rectangle \"C\"\n\
             DE 1 2 plain\nDE 1 2 plain\nUE 2 3 plain\nDE 3 1 plain \"No\"\n",
        );
        // Run: A→B once, C–B (the same undirected edge written the other
        // way), C→A "no!" (the same text once normalized), A→C.
        let run = chart(
            "NO 7 oval \"a\"\nNO 8 rectangle \"b\"\nNO 9 rectangle \"c\"\n\
             DE 7 8 plain\nUE 9 8 dotted\nDE 9 7 plain \"no!\"\nDE 7 9 plain\n",
        );
        let t = triplet_scores(&gold, Some(&run));
        assert_eq!((t.gold, t.run, t.scores.matched), (4, 4, 3));
        assert_eq!(t.scores.precision, 0.75);
        assert_eq!(t.scores.recall, 0.75);
        assert_eq!(t.scores.f1, 0.75);
        let missing = triplet_scores(&gold, None);
        assert_eq!(
            (missing.gold, missing.run, missing.scores),
            (4, 0, Prf::default())
        );
        let empty = Flowchart::default();
        assert_eq!(triplet_scores(&empty, Some(&empty)).scores, Prf::default());
    }

    #[test]
    fn prf_by_hand() {
        let p = Prf::of(2, 4, 5);
        assert_eq!((p.precision, p.recall), (0.5, 0.4));
        assert_eq!(p.f1, 2.0 * 0.5 * 0.4 / 0.9);
        assert_eq!(Prf::of(0, 0, 3), Prf::default());
    }
}
