//! Run readers: document runs `topic Q0 doc rank score [tag]` and passage
//! runs `topic Q0 doc xpath rank score`, streamed topic by topic.
//!
//! A line is cut into fields in place; document ids and normalized XPaths
//! are interned per topic, so memory holds one topic's lines (32 bytes
//! each) and its distinct ids, never the run's text. A run grouped by
//! topic (the usual layout) is read once; when a topic comes back after
//! another began, the file is read a second time holding every topic's
//! lines (still interned), so interleaved runs score alike.

use super::input::{for_each_line_of, is_skipped, split_fields, text, with_reader};
use super::xpath::{is_heading, normalize_xpath};
use crate::diagnostics::Diagnostic;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::io::Read;
use std::path::Path;

/// Which lines a run holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// `topic Q0 doc rank score [tag]`.
    Document,
    /// `topic Q0 doc xpath rank score`.
    Passage,
}

/// Malformed lines listed before a rejected run's reading stops.
pub(crate) const MAX_ERRORS: usize = 20;

/// One run line: ids index the topic's interners.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunLine {
    /// Physical 1-based line number.
    pub line: usize,
    pub doc: u32,
    /// Normalized XPath id (0 in document runs).
    pub xpath: u32,
    pub rank: f64,
    pub score: f64,
}

/// A hasher for `u64` keys (hashes, or packed pairs of small ids): one
/// multiply and a fold spread every key bit over the high bits hashbrown
/// tags with and the low bits it indexes with.
#[derive(Default)]
pub struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        let h = n.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = h ^ (h >> 32);
    }
}

/// A hash map keyed by precomputed hashes or packed ids.
pub type IdMap<V> = HashMap<u64, V, BuildHasherDefault<IdHasher>>;
/// A hash set of precomputed hashes or packed id pairs.
pub type IdSet = HashSet<u64, BuildHasherDefault<IdHasher>>;

/// A fast non-cryptographic hash of a short byte string (ids, XPaths).
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h: u64 = bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
    }
    let mut w = [0u8; 8];
    let rest = chunks.remainder();
    if let Some(slot) = w.get_mut(..rest.len()) {
        slot.copy_from_slice(rest);
    }
    h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
    h ^ (h >> 29)
}

/// Byte-string equality without a library call: ids and XPaths are short,
/// and comparing them eight bytes at a time inline beats calling `memcmp`
/// once per line.
#[inline]
pub fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut x = a.chunks_exact(8);
    let mut y = b.chunks_exact(8);
    for (p, q) in (&mut x).zip(&mut y) {
        if p.iter().zip(q).fold(0u8, |acc, (u, v)| acc | (u ^ v)) != 0 {
            return false;
        }
    }
    x.remainder().iter().zip(y.remainder()).all(|(u, v)| u == v)
}

/// Distinct byte strings of one topic, numbered from 0, in one buffer.
#[derive(Clone, Debug, Default)]
pub struct Interner {
    bytes: Vec<u8>,
    spans: Vec<(usize, usize)>,
    heads: IdMap<u32>,
    next: Vec<u32>,
}

impl Interner {
    /// The id of `s`, adding it when new; `true` when it was new.
    pub fn intern(&mut self, s: &[u8]) -> (u32, bool) {
        let h = hash_bytes(s);
        let mut at = self.heads.get(&h).copied();
        while let Some(id) = at {
            if same_bytes(self.get(id), s) {
                return (id, false);
            }
            at = self
                .next
                .get(id as usize)
                .copied()
                .filter(|&n| n != u32::MAX);
        }
        let id = u32::try_from(self.spans.len()).unwrap_or(u32::MAX);
        let start = self.bytes.len();
        self.bytes.extend_from_slice(s);
        self.spans.push((start, self.bytes.len()));
        let previous = self.heads.insert(h, id);
        self.next.push(previous.unwrap_or(u32::MAX));
        (id, true)
    }

    /// The bytes of `id` (empty for an unknown id).
    pub fn get(&self, id: u32) -> &[u8] {
        self.spans
            .get(id as usize)
            .and_then(|&(a, b)| self.bytes.get(a..b))
            .unwrap_or_default()
    }

    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    fn clear(&mut self) {
        self.bytes.clear();
        self.spans.clear();
        self.heads.clear();
        self.next.clear();
    }
}

/// One topic's lines, in file order.
#[derive(Clone, Debug, Default)]
pub struct TopicLines {
    pub topic: Vec<u8>,
    pub lines: Vec<RunLine>,
    pub docs: Interner,
    pub xpaths: Interner,
    /// Per XPath id: the XPath is a heading.
    pub heading: Vec<bool>,
}

impl TopicLines {
    fn clear(&mut self) {
        self.topic.clear();
        self.lines.clear();
        self.docs.clear();
        self.xpaths.clear();
        self.heading.clear();
    }

    /// The topic id as text.
    pub fn topic_text(&self) -> String {
        text(&self.topic)
    }
}

/// Parses a rank or score; NaN refused. `-0` reads as `0`, so equal
/// numbers compare equal in a total order.
///
/// Fast path (Clinger's): a plain decimal `[-]digits[.digits]` with at most
/// 15 digits is an exact integer m over 10^k, k ≤ 15, both exact doubles,
/// so the one division rounds correctly — the same double as the full
/// parser, which handles every other spelling.
pub fn parse_number(field: &[u8]) -> Option<f64> {
    const POW10: [f64; 16] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];
    let (negative, digits) = match field.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, field),
    };
    let mut mantissa: u64 = 0;
    let mut count = 0usize;
    let mut fraction: Option<usize> = None;
    let mut plain = !digits.is_empty() && digits.len() <= 16;
    for &b in digits {
        match b {
            b'0'..=b'9' => {
                mantissa = mantissa * 10 + u64::from(b - b'0');
                count += 1;
                if let Some(f) = fraction.as_mut() {
                    *f += 1;
                }
            }
            b'.' if fraction.is_none() => fraction = Some(0),
            _ => {
                plain = false;
                break;
            }
        }
    }
    if plain
        && (1..=15).contains(&count)
        && let Some(&scale) = POW10.get(fraction.unwrap_or(0))
    {
        let v = mantissa as f64 / scale;
        return Some(if negative { -v + 0.0 } else { v });
    }
    let v: f64 = std::str::from_utf8(field).ok()?.parse().ok()?;
    if v.is_nan() { None } else { Some(v + 0.0) }
}

/// The fields of one run line that count (the XPath goes to a buffer).
pub struct Parsed<'a> {
    pub topic: &'a [u8],
    pub doc: &'a [u8],
    pub rank: f64,
    pub score: f64,
}

/// Whether a file found in a run folder is taken as a run: one of its
/// lines has the shape of a line of a run or a qrels file of either task
/// (4 to 6 columns, a number in column 4, 5 or 6), so that a run of the
/// other task or a qrels file is read and rejected for what it looks
/// like, while a README (prose, `#` lines) or an empty file is not a run.
/// A file that cannot be read is taken, for its reader to say why.
pub fn has_run_shape(path: &Path) -> bool {
    let mut shaped = false;
    let read = with_reader(path, |reader| {
        for_each_line_of(reader, true, |_, line| {
            let mut f: [&[u8]; 6] = [&[]; 6];
            let count = split_fields(line, &mut f);
            let numbers = f.get(3..count.min(6)).unwrap_or_default();
            shaped = (4..=6).contains(&count)
                && !is_skipped(count, f[0])
                && numbers.iter().any(|n| parse_number(n).is_some());
            !shaped
        })
    });
    shaped || !matches!(read, Ok(Ok(())))
}

/// The error of a passage line in a document run.
const PASSAGE_IN_DOCUMENT_RUN: &str = "a passage line (XPath in column 4) in a document run; expected `topic Q0 doc rank score [tag]`";

/// The end of the error of a passage run line whose column 4 is no XPath.
const NO_XPATH: &str = "does not start with `/` (a document run line?)";

/// What a run file whose every error (of those read) says the same looks
/// like, as an error for the front of its list: a run of the other task,
/// or a qrels file given as a run.
fn looks_like(layout: Layout, errors: &[Diagnostic], file: &str) -> Option<Diagnostic> {
    let every =
        |says: &dyn Fn(&str) -> bool| !errors.is_empty() && errors.iter().all(|e| says(&e.message));
    let four_columns = |m: &str| m.ends_with(", found 4 columns");
    // A passage qrels line: an XPath where a document run has its rank,
    // one column short of a passage run.
    let passage_qrels = |m: &str| match layout {
        Layout::Document => m.starts_with("rank `/"),
        Layout::Passage => m.ends_with(", found 5 columns"),
    };
    let guess = if every(&four_columns) {
        "looks like a qrels file (topic, iteration, document, relevance), not a run"
    } else if every(&passage_qrels) {
        "looks like a passage qrels file (topic, iteration, document, XPath, relevance), \
         not a run"
    } else {
        match layout {
            Layout::Document if every(&|m| m == PASSAGE_IN_DOCUMENT_RUN) => {
                "looks like a passage run (an XPath in column 4): `clefeval passage` scores it"
            }
            Layout::Passage if every(&|m| m.ends_with(NO_XPATH)) => {
                "looks like a document run (no XPath in column 4): `clefeval prior-art` scores it"
            }
            _ => return None,
        }
    };
    Some(Diagnostic::error(file, None, guess))
}

/// Parses one line; `Ok(None)` for a blank or comment line. The normalized
/// XPath of a passage line is left in `xpath` (cleared for a document line).
pub fn parse_line<'a>(
    layout: Layout,
    text_line: &'a [u8],
    xpath: &mut Vec<u8>,
) -> Result<Option<Parsed<'a>>, String> {
    let mut f: [&[u8]; 7] = [&[]; 7];
    let count = split_fields(text_line, &mut f);
    if is_skipped(count, f[0]) {
        return Ok(None);
    }
    let (rank, score) = match layout {
        Layout::Document => {
            if count == 6 && f[3].starts_with(b"/") {
                return Err(PASSAGE_IN_DOCUMENT_RUN.to_string());
            }
            if count != 5 && count != 6 {
                return Err(format!(
                    "expected `topic Q0 doc rank score [tag]` (5 or 6 columns), \
                     found {count} columns"
                ));
            }
            xpath.clear();
            (f[3], f[4])
        }
        Layout::Passage => {
            if count != 6 {
                return Err(format!(
                    "expected `topic Q0 doc xpath rank score` (6 columns), found {count} columns"
                ));
            }
            if !f[3].starts_with(b"/") {
                return Err(format!("XPath `{}` {NO_XPATH}", text(f[3])));
            }
            normalize_xpath(f[3], xpath);
            (f[4], f[5])
        }
    };
    let rank =
        parse_number(rank).ok_or_else(|| format!("rank `{}` is not a number", text(rank)))?;
    let score =
        parse_number(score).ok_or_else(|| format!("score `{}` is not a number", text(score)))?;
    Ok(Some(Parsed {
        topic: f[0],
        doc: f[2],
        rank,
        score,
    }))
}

/// How a run read ended.
#[derive(Debug, Default)]
pub struct RunRead {
    /// Malformed lines, or an unreadable file: the run is rejected.
    pub errors: Vec<Diagnostic>,
}

pub(crate) enum Mode {
    /// Emit a topic when the next begins; stop at a topic seen before.
    Grouped,
    /// Hold every topic, emit all at the end.
    All,
}

/// Reads the run at `path` and calls `topic` once per topic, in order of
/// first appearance, with all of that topic's lines. When the run has
/// errors, `topic` may have been called for some topics: the caller
/// discards its results. `restart` is called before a second reading.
pub fn read_run(
    path: &Path,
    layout: Layout,
    mut topic: impl FnMut(&mut TopicLines),
    mut restart: impl FnMut(),
) -> RunRead {
    match read_pass(path, layout, Mode::Grouped, &mut topic) {
        Pass::Done(read) => read,
        Pass::Interleaved => {
            restart();
            match read_pass(path, layout, Mode::All, &mut topic) {
                Pass::Done(read) => read,
                Pass::Interleaved => RunRead::default(),
            }
        }
    }
}

enum Pass {
    Done(RunRead),
    Interleaved,
}

fn read_pass(
    path: &Path,
    layout: Layout,
    mode: Mode,
    emit: &mut impl FnMut(&mut TopicLines),
) -> Pass {
    let file = path.display().to_string();
    match with_reader(path, |reader| scan(reader, true, &file, layout, mode, emit)) {
        Err(d) => Pass::Done(RunRead { errors: vec![d] }),
        Ok(scan) if scan.interleaved => Pass::Interleaved,
        Ok(scan) => Pass::Done(RunRead {
            errors: scan.errors,
        }),
    }
}

/// What one reading of a stream found.
pub(crate) struct Scan {
    /// Malformed lines, then the error that stopped the stream, if any.
    pub errors: Vec<Diagnostic>,
    /// Reading stopped at an error of the stream itself (I/O, an
    /// over-long line, binary data).
    pub fatal: bool,
    /// A topic came back after another began (grouped mode, no error yet).
    pub interleaved: bool,
    /// Physical lines read.
    pub lines: usize,
    /// The topics met, numbered in order of first appearance.
    pub topics: Interner,
}

/// Reads the lines of `reader` (the file from its start, or a part of it
/// beginning at a line start: line numbers are then the part's own) and
/// emits its topics when no line is malformed.
pub(crate) fn scan(
    reader: &mut dyn Read,
    file_start: bool,
    file: &str,
    layout: Layout,
    mode: Mode,
    emit: &mut impl FnMut(&mut TopicLines),
) -> Scan {
    let mut errors: Vec<Diagnostic> = Vec::new();
    let mut interleaved = false;
    let mut count = 0;
    let mut xpath = Vec::new();
    // Grouped mode: the current topic and the topics already emitted.
    let mut current = TopicLines::default();
    let mut started = false;
    let mut closed: IdSet = IdSet::default();
    let mut topics = Interner::default();
    // All mode: every topic, numbered as in `topics`.
    let mut all: Vec<TopicLines> = Vec::new();
    let outcome = for_each_line_of(reader, file_start, |number, line| {
        count = number;
        let Parsed {
            topic,
            doc,
            rank,
            score,
        } = match parse_line(layout, line, &mut xpath) {
            Ok(Some(parsed)) => parsed,
            Ok(None) => return true,
            Err(message) => {
                errors.push(Diagnostic::error(file.to_string(), Some(number), message));
                return errors.len() < MAX_ERRORS;
            }
        };
        let lines = match mode {
            Mode::Grouped => {
                if !started || !same_bytes(&current.topic, topic) {
                    if started {
                        let (id, _) = topics.intern(&current.topic);
                        closed.insert(u64::from(id));
                        if errors.is_empty() {
                            emit(&mut current);
                        }
                    }
                    let (id, new) = topics.intern(topic);
                    if !new && closed.contains(&u64::from(id)) && errors.is_empty() {
                        interleaved = true;
                        return false;
                    }
                    current.clear();
                    current.topic.extend_from_slice(topic);
                    started = true;
                }
                &mut current
            }
            Mode::All => {
                let (id, new) = topics.intern(topic);
                if new {
                    all.push(TopicLines {
                        topic: topic.to_vec(),
                        ..TopicLines::default()
                    });
                }
                match all.get_mut(id as usize) {
                    Some(t) => t,
                    None => return false,
                }
            }
        };
        let (doc_id, _) = lines.docs.intern(doc);
        let (xpath_id, new) = lines.xpaths.intern(&xpath);
        if new {
            lines
                .heading
                .push(layout == Layout::Passage && is_heading(&xpath));
        }
        lines.lines.push(RunLine {
            line: number,
            doc: doc_id,
            xpath: xpath_id,
            rank,
            score,
        });
        true
    });
    let fatal = match outcome {
        Err((line, message)) => {
            errors.push(Diagnostic::error(file.to_string(), line, message));
            true
        }
        Ok(()) => false,
    };
    if let Some(guess) = looks_like(layout, &errors, file) {
        errors.insert(0, guess);
    }
    if !interleaved && errors.is_empty() {
        match mode {
            Mode::Grouped if started => emit(&mut current),
            Mode::Grouped => {}
            Mode::All => all.iter_mut().for_each(emit),
        }
    }
    Scan {
        errors,
        fatal,
        interleaved,
        lines: count,
        topics,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::test_files::file;

    fn collect(path: &Path, layout: Layout) -> (Vec<(String, Vec<usize>)>, RunRead, usize) {
        let seen = std::cell::RefCell::new(Vec::new());
        let mut restarts = 0;
        let read = read_run(
            path,
            layout,
            |t| {
                seen.borrow_mut()
                    .push((t.topic_text(), t.lines.iter().map(|l| l.line).collect()))
            },
            || {
                seen.borrow_mut().clear();
                restarts += 1;
            },
        );
        (seen.into_inner(), read, restarts)
    }

    #[test]
    fn grouped_and_interleaved_runs() {
        let f = file("A Q0 d1 1 2.0 t\nA Q0 d2 2 1.5 t\nB Q0 d1 1 3 t\n");
        let (seen, read, restarts) = collect(f.path(), Layout::Document);
        assert!(read.errors.is_empty());
        assert_eq!(restarts, 0);
        assert_eq!(seen, vec![("A".into(), vec![1, 2]), ("B".into(), vec![3])]);
        let f = file("A Q0 d1 1 2 t\nB Q0 d1 1 3 t\nA Q0 d2 2 1 t\n");
        let (seen, read, restarts) = collect(f.path(), Layout::Document);
        assert!(read.errors.is_empty());
        assert_eq!(restarts, 1);
        assert_eq!(seen, vec![("A".into(), vec![1, 3]), ("B".into(), vec![2])]);
    }

    #[test]
    fn malformed_lines_reject_the_run() {
        let f = file("A Q0 d1 1 2 t\nA Q0 d2 x 1 t\nA Q0 d3 /p 3 1\nA Q0 d4\n");
        let (_, read, _) = collect(f.path(), Layout::Document);
        let lines: Vec<_> = read.errors.iter().map(|d| d.line).collect();
        assert_eq!(lines, vec![Some(2), Some(3), Some(4)]);
        let f = file("A Q0 d1 p[1] 1 2\n");
        let (_, read, _) = collect(f.path(), Layout::Passage);
        // The line's error, after what the file looks like: a document run.
        assert_eq!(read.errors.len(), 2);
        assert!(
            read.errors[0]
                .message
                .starts_with("looks like a document run")
        );
        assert_eq!(read.errors[1].line, Some(1));
    }

    #[test]
    fn interner_and_numbers() {
        let mut i = Interner::default();
        assert_eq!(i.intern(b"abc"), (0, true));
        assert_eq!(i.intern(b"abcdefghijk"), (1, true));
        assert_eq!(i.intern(b"abc"), (0, false));
        assert_eq!(i.get(1), b"abcdefghijk");
        assert_eq!(parse_number(b"12"), Some(12.0));
        assert_eq!(parse_number(b"-0"), Some(0.0));
        assert_eq!(parse_number(b"1e2"), Some(100.0));
        assert_eq!(parse_number(b"nan"), None);
        assert_eq!(parse_number(b"x"), None);
        assert_eq!(parse_number(b"."), None);
        assert_eq!(parse_number(b"1.2.3"), None);
        for text in [
            "0.1",
            "38.761",
            "-2.5",
            "1000.000",
            "999999999999999",
            "0.000000000000001",
            "12.",
            ".5",
            "1234567890.12345",
            "1234567890.123456",
            "-0.0",
            "7",
            "+3.25",
            "1e-7",
        ] {
            let want: f64 = text.parse::<f64>().unwrap() + 0.0;
            assert_eq!(parse_number(text.as_bytes()), Some(want), "{text}");
        }
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(
            bytes in proptest::collection::vec(
                proptest::sample::select(b" \t\r\n#/[]1Q0ab.-e9\xEF\xBB\xBF".to_vec()),
                0..400,
            ),
        ) {
            let f = crate::retrieval::test_files::named("fuzz-run", &bytes);
            for layout in [Layout::Document, Layout::Passage] {
                let read = read_run(
                    f.path(),
                    layout,
                    |t| {
                        let _ = crate::retrieval::order::rank_topic(
                            t,
                            crate::retrieval::Order::Score,
                            3,
                            true,
                            false,
                        );
                    },
                    || {},
                );
                // Every error names its line, but what the whole file
                // looks like, which comes first.
                let lines = read.errors.iter().skip_while(|d| d.message.starts_with("looks like"));
                proptest::prop_assert!(lines.clone().all(|d| d.line.is_some()));
            }
        }
    }
}
