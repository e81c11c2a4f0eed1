//! A topic's ranking: the order of the lines (the file's or trec_eval's),
//! heading removal, duplicate removal, the document ranking and the
//! cut-off. See `docs/retrieval.md`.
//!
//! Steps, in this order: sort the lines; drop heading lines (passage runs,
//! unless kept); drop a document (document runs) or a passage (document and
//! normalized XPath) seen again further down; rank the documents by their
//! first remaining line; keep the first N documents and every remaining
//! passage of those documents, wherever its line is.

use super::run::{IdSet, RunLine, TopicLines};
use std::cmp::Ordering;

/// The order of a topic's lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Order {
    /// The rank column ascending, equal ranks in file order (PRESeval).
    File,
    /// trec_eval's: score descending, equal scores by document id
    /// descending as bytes, then the file order.
    Score,
}

/// A topic's ranking after ordering, heading and duplicate removal, cut.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ranking {
    /// Document ids in rank order, at most N.
    pub docs: Vec<u32>,
    /// (position in `docs`, XPath id) of the remaining passages of those
    /// documents, by position and then rank (passage runs).
    pub passages: Vec<(u32, u32)>,
    /// Dropped duplicate lines.
    pub duplicates: Vec<RunLine>,
    /// Line numbers of removed heading lines.
    pub headings: Vec<usize>,
}

fn file_order(a: &RunLine, b: &RunLine) -> Ordering {
    a.rank.total_cmp(&b.rank).then(a.line.cmp(&b.line))
}

/// Sorts the topic's lines in `order`.
pub fn sort_lines(t: &mut TopicLines, order: Order) {
    match order {
        Order::File => {
            let sorted = t.lines.windows(2).all(|w| match w {
                [a, b] => file_order(a, b) != Ordering::Greater,
                _ => true,
            });
            if !sorted {
                t.lines.sort_by(file_order);
            }
        }
        Order::Score => {
            let docs = &t.docs;
            t.lines.sort_by(|a, b| {
                b.score
                    .total_cmp(&a.score)
                    .then_with(|| docs.get(b.doc).cmp(docs.get(a.doc)))
                    .then_with(|| file_order(a, b))
            });
        }
    }
}

/// Builds the ranking of a topic whose lines are read; `passage` says the
/// run is a passage run, `keep_headings` keeps heading lines.
pub fn rank_topic(
    t: &mut TopicLines,
    order: Order,
    cutoff: usize,
    passage: bool,
    keep_headings: bool,
) -> Ranking {
    sort_lines(t, order);
    let mut ranking = Ranking::default();
    let mut position = vec![u32::MAX; t.docs.len()];
    let mut seen_doc = vec![false; t.docs.len()];
    let mut seen_passage = IdSet::default();
    if passage {
        seen_passage.reserve(t.lines.len());
    }
    let mut kept: Vec<RunLine> = Vec::with_capacity(if passage { t.lines.len() } else { 0 });
    let mut all_docs = 0usize;
    for line in &t.lines {
        if passage && !keep_headings && t.heading.get(line.xpath as usize) == Some(&true) {
            ranking.headings.push(line.line);
            continue;
        }
        let duplicate = if passage {
            !seen_passage.insert((u64::from(line.doc) << 32) | u64::from(line.xpath))
        } else {
            seen_doc.get(line.doc as usize) == Some(&true)
        };
        if duplicate {
            ranking.duplicates.push(*line);
            continue;
        }
        if let Some(seen) = seen_doc.get_mut(line.doc as usize)
            && !*seen
        {
            *seen = true;
            if all_docs < cutoff {
                if let Some(p) = position.get_mut(line.doc as usize) {
                    *p = u32::try_from(ranking.docs.len()).unwrap_or(u32::MAX);
                }
                ranking.docs.push(line.doc);
            }
            all_docs += 1;
        }
        if passage {
            kept.push(*line);
        }
    }
    for line in &kept {
        if let Some(&p) = position.get(line.doc as usize)
            && p != u32::MAX
        {
            ranking.passages.push((p, line.xpath));
        }
    }
    ranking.passages.sort_by_key(|&(p, _)| p);
    ranking
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::xpath::is_heading;

    fn topic(lines: &[(&str, &str, f64, f64)]) -> TopicLines {
        let mut t = TopicLines::default();
        for (i, &(doc, xpath, rank, score)) in lines.iter().enumerate() {
            let (d, _) = t.docs.intern(doc.as_bytes());
            let (x, new) = t.xpaths.intern(xpath.as_bytes());
            if new {
                t.heading.push(is_heading(xpath.as_bytes()));
            }
            t.lines.push(RunLine {
                line: i + 1,
                doc: d,
                xpath: x,
                rank,
                score,
            });
        }
        t
    }

    #[test]
    fn file_and_score_orders_with_duplicates() {
        // H-2 of the hand goldens.
        let lines = [
            ("E1", "", 1.0, 5.0),
            ("E2", "", 2.0, 5.0),
            ("E3", "", 3.0, 4.0),
            ("E3", "", 4.0, 3.0),
        ];
        let mut t = topic(&lines);
        let r = rank_topic(&mut t, Order::File, 100, false, false);
        assert_eq!(r.docs, vec![0, 1, 2]);
        assert_eq!(r.duplicates.len(), 1);
        assert_eq!(r.duplicates[0].line, 4);
        let mut t = topic(&lines);
        let r = rank_topic(&mut t, Order::Score, 100, false, false);
        assert_eq!(r.docs, vec![1, 0, 2]);
        let mut t = topic(&lines);
        assert_eq!(
            rank_topic(&mut t, Order::File, 2, false, false).docs,
            vec![0, 1]
        );
    }

    #[test]
    fn passages_headings_and_cut() {
        let lines = [
            ("D5", "/h/heading[1]", 1.0, 0.0),
            ("D4", "/p", 2.0, 0.0),
            ("D1", "/p[4]", 3.0, 0.0),
            ("D2", "/p", 4.0, 0.0),
            ("D1", "/p[9]", 5.0, 0.0),
            ("D1", "/p[4]", 6.0, 0.0),
        ];
        let mut t = topic(&lines);
        let r = rank_topic(&mut t, Order::File, 2, true, false);
        assert_eq!(r.headings, vec![1]);
        assert_eq!(r.docs, vec![1, 2]);
        assert_eq!(r.duplicates.len(), 1);
        let xs: Vec<_> = r
            .passages
            .iter()
            .map(|&(p, x)| (p, t.xpaths.get(x).to_vec()))
            .collect();
        assert_eq!(
            xs,
            vec![
                (0, b"/p".to_vec()),
                (1, b"/p[4]".to_vec()),
                (1, b"/p[9]".to_vec())
            ]
        );
        let mut t = topic(&lines);
        let r = rank_topic(&mut t, Order::File, 100, true, true);
        assert_eq!(r.docs.len(), 4);
        assert!(r.headings.is_empty());
    }
}
