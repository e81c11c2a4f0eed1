//! Qrels readers: document qrels `topic 0 doc relevance` and passage qrels
//! `topic 0 doc xpath relevance` or the 6-column run layout (every line
//! relevant with grade 1). An entry listed twice (for passages, after the
//! XPath normalization) counts once with its highest grade. A document's
//! grade is the highest grade of its entries. See `docs/retrieval.md`.

use super::input::{read_table, text};
use super::xpath::normalize_xpath;
use crate::diagnostics::Diagnostic;
use std::collections::HashMap;
use std::path::Path;

/// The judgements of one document for one topic.
#[derive(Clone, Debug, Default)]
pub struct DocJudgement {
    pub doc: String,
    /// Highest grade of the document's entries.
    pub grade: i64,
    /// Normalized XPath → highest grade (passage qrels only).
    pub passages: HashMap<Box<[u8]>, i64>,
}

impl DocJudgement {
    /// The passages of grade ≥ `min_grade` (heading entries included).
    pub fn relevant_passages(&self, min_grade: i64) -> usize {
        self.passages.values().filter(|&&g| g >= min_grade).count()
    }
}

/// The judgements of one topic, documents in order of first appearance.
#[derive(Clone, Debug, Default)]
pub struct TopicQrels {
    pub topic: String,
    pub docs: Vec<DocJudgement>,
    index: HashMap<Box<[u8]>, usize>,
}

impl TopicQrels {
    /// The judgement of `doc`, if the topic has one.
    pub fn doc(&self, doc: &[u8]) -> Option<&DocJudgement> {
        self.index.get(doc).and_then(|&i| self.docs.get(i))
    }

    fn doc_mut(&mut self, doc: &[u8], grade: i64) -> Option<&mut DocJudgement> {
        let next = self.docs.len();
        let i = *self.index.entry(doc.into()).or_insert(next);
        if i == next {
            self.docs.push(DocJudgement {
                doc: text(doc),
                grade,
                passages: HashMap::new(),
            });
        }
        let d = self.docs.get_mut(i)?;
        d.grade = d.grade.max(grade);
        Some(d)
    }
}

/// A qrels file: topics in order of first appearance.
#[derive(Clone, Debug, Default)]
pub struct Qrels {
    pub topics: Vec<TopicQrels>,
    /// True for passage qrels.
    pub passage: bool,
    index: HashMap<Box<[u8]>, usize>,
}

impl Qrels {
    /// The index in [`Qrels::topics`] of `topic`.
    pub fn topic_index(&self, topic: &[u8]) -> Option<usize> {
        self.index.get(topic).copied()
    }

    fn topic_mut(&mut self, topic: &[u8]) -> Option<&mut TopicQrels> {
        let next = self.topics.len();
        let i = *self.index.entry(topic.into()).or_insert(next);
        if i == next {
            self.topics.push(TopicQrels {
                topic: text(topic),
                ..TopicQrels::default()
            });
        }
        self.topics.get_mut(i)
    }
}

fn grade(field: &[u8]) -> Result<i64, String> {
    std::str::from_utf8(field)
        .ok()
        .and_then(|s| s.parse::<i64>().ok())
        .ok_or_else(|| format!("relevance `{}` is not an integer", text(field)))
}

/// Reads document qrels `topic 0 doc relevance`.
pub fn read_document_qrels(path: &Path) -> Result<Qrels, Diagnostic> {
    let mut qrels = Qrels::default();
    read_table::<5>(path, |_, f, count| {
        let [topic, _, doc, relevance, ..] = *f else {
            return Err(columns(count));
        };
        if count != 4 {
            let run_line = matches!(count, 5 | 6) && !relevance.starts_with(b"/");
            return Err(if run_line {
                format!(
                    "{}: a run's line, not a judgement (are the qrels and the run swapped?)",
                    columns(count)
                )
            } else {
                columns(count)
            });
        }
        let g = grade(relevance)?;
        if let Some(t) = qrels.topic_mut(topic) {
            t.doc_mut(doc, g);
        }
        Ok(())
    })?;
    Ok(qrels)
}

fn columns(count: usize) -> String {
    format!("expected `topic 0 doc relevance` (4 columns), found {count} columns")
}

/// Reads passage qrels: `topic 0 doc xpath relevance`, or `topic Q0 doc
/// xpath rank score` where every line has grade 1.
pub fn read_passage_qrels(path: &Path) -> Result<Qrels, Diagnostic> {
    let mut qrels = Qrels {
        passage: true,
        ..Qrels::default()
    };
    let mut xpath = Vec::new();
    read_table::<7>(path, |_, f, count| {
        let [topic, _, doc, raw_xpath, fifth, ..] = *f else {
            return Err(passage_columns(count));
        };
        let g = match count {
            5 => grade(fifth)?,
            6 if raw_xpath.starts_with(b"/") => 1,
            _ => return Err(passage_columns(count)),
        };
        if !raw_xpath.starts_with(b"/") {
            return Err(format!(
                "XPath `{}` does not start with `/`",
                text(raw_xpath)
            ));
        }
        normalize_xpath(raw_xpath, &mut xpath);
        if let Some(d) = qrels.topic_mut(topic).and_then(|t| t.doc_mut(doc, g)) {
            let slot = d.passages.entry(xpath.as_slice().into()).or_insert(g);
            *slot = (*slot).max(g);
        }
        Ok(())
    })?;
    Ok(qrels)
}

fn passage_columns(count: usize) -> String {
    format!(
        "expected `topic 0 doc xpath relevance` or `topic Q0 doc xpath rank score`, \
         found {count} columns"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::test_files::file;

    #[test]
    fn document_qrels_keep_highest_grade() {
        let f = file("# c\nT1 0 D1 1\nT1 0 D2 0\nT1 0 D1 3\nT2 0 D9 2\n");
        let q = read_document_qrels(f.path()).unwrap();
        assert_eq!(q.topics.len(), 2);
        assert_eq!(q.topics[0].doc(b"D1").unwrap().grade, 3);
        assert_eq!(q.topics[0].doc(b"D2").unwrap().grade, 0);
        assert_eq!(q.topic_index(b"T2"), Some(1));
    }

    #[test]
    fn passage_qrels_normalize_and_six_columns() {
        let f = file("T 0 D /a[1]/p[1] 1\nT 0 D /a/p 2\nT Q0 E /b/p[10] 1 1.0\n");
        let q = read_passage_qrels(f.path()).unwrap();
        let d = q.topics[0].doc(b"D").unwrap();
        assert_eq!(d.passages.len(), 1);
        assert_eq!(d.passages[&b"/a/p"[..]], 2);
        assert_eq!(q.topics[0].doc(b"E").unwrap().grade, 1);
    }

    #[test]
    fn bad_lines_name_file_and_line() {
        let f = file("T 0 D 1\nT 0 D x\n");
        let e = read_document_qrels(f.path()).unwrap_err();
        assert_eq!(e.line, Some(2));
        let f = file("T 0 D 1 2 3 4\n");
        assert!(read_passage_qrels(f.path()).is_err());
    }
}
