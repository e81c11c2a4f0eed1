//! One plain run read in parts on several threads.
//!
//! The file is cut at line starts near every [`PART_BYTES`] bytes, moved
//! forward past the lines of the topic found there so that each part
//! begins a topic. The parts are read at once, each as a run of its own
//! (its own line numbers, shifted afterwards), and their results are kept
//! in file order. Where the cut fails to keep a topic in one part (topics
//! interleaved, a topic longer than a part) the run is read as a whole
//! instead, so the result never depends on where the file was cut, nor on
//! how many threads read it. Compressed runs are streams and read whole.

use super::input::{is_compressed, is_skipped, split_fields};
use super::run::{Layout, MAX_ERRORS, Mode, RunRead, Scan, TopicLines, scan};
use crate::diagnostics::Diagnostic;
use crate::inputs::open_regular;
use rayon::prelude::*;
use std::collections::HashSet;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// The nominal size of a part (8 MiB, about 200 000 run lines): large
/// enough that cutting costs nothing, small enough that two threads share
/// a run of a few hundred thousand lines.
pub const PART_BYTES: u64 = 8 << 20;

/// One part's result: what its topics gave and the number of lines before
/// it (add it to the part's line numbers).
pub struct Part<S> {
    pub state: S,
    pub line_base: usize,
}

/// Reads the plain run at `path` in parts of about `part_bytes`, calling
/// `topic` on a part's own state for each of its topics. `None` when the
/// run must be read as a whole ([`super::run::read_run`]): a compressed or
/// short file, a file that does not open, a topic found in two parts or
/// met twice in one. With malformed lines, the errors are those the whole
/// reading reports (the first 20, in file order) and the states are to be
/// discarded.
pub fn read_run_in_parts<S: Send>(
    path: &Path,
    layout: Layout,
    part_bytes: u64,
    init: impl Fn() -> S + Sync,
    topic: impl Fn(&mut S, &mut TopicLines) + Sync,
) -> Option<(Vec<Part<S>>, RunRead)> {
    if is_compressed(path) || part_bytes == 0 {
        return None;
    }
    let file = open_regular(path).ok()?;
    let len = file.metadata().ok()?.len();
    if len <= part_bytes {
        return None;
    }
    let name = path.display().to_string();
    let mut cuts: Vec<u64> = (1..len.div_ceil(part_bytes))
        .into_par_iter()
        .filter_map(|k| cut(&file, k * part_bytes, len, part_bytes).ok().flatten())
        .collect();
    cuts.push(0);
    cuts.push(len);
    cuts.sort_unstable();
    cuts.dedup();
    if cuts.len() <= 2 {
        return None;
    }
    let ranges: Vec<(u64, u64)> = cuts
        .windows(2)
        .filter_map(|w| match *w {
            [start, end] => Some((start, end)),
            _ => None,
        })
        .collect();
    let scans: Vec<(S, Scan)> = ranges
        .into_par_iter()
        .map(|(start, end)| {
            let mut state = init();
            let mut reader = Range {
                file: &file,
                at: start,
                end,
            };
            let mut emit = |t: &mut TopicLines| topic(&mut state, t);
            let found = scan(
                &mut reader,
                start == 0,
                &name,
                layout,
                Mode::Grouped,
                &mut emit,
            );
            (state, found)
        })
        .collect();
    if scans.iter().any(|(_, s)| s.interleaved) {
        return None;
    }
    let mut base = 0;
    let mut errors: Vec<Diagnostic> = Vec::new();
    let mut seen: HashSet<&[u8]> = HashSet::new();
    let mut split = false;
    for (_, found) in &scans {
        for d in &found.errors {
            if errors.len() < MAX_ERRORS {
                let mut d = d.clone();
                d.line = d.line.map(|l| l + base);
                errors.push(d);
            }
        }
        if errors.len() >= MAX_ERRORS || found.fatal {
            break;
        }
        for id in 0..found.topics.len() {
            split |= !seen.insert(found.topics.get(id as u32));
        }
        base += found.lines;
    }
    if !errors.is_empty() {
        return Some((Vec::new(), RunRead { errors }));
    }
    if split {
        return None;
    }
    let mut base = 0;
    let mut parts = Vec::with_capacity(scans.len());
    for (state, found) in scans {
        parts.push(Part {
            state,
            line_base: base,
        });
        base += found.lines;
    }
    Some((parts, RunRead::default()))
}

/// Bytes `at..end` of a file, read by position (the parts share one open
/// file).
struct Range<'a> {
    file: &'a File,
    at: u64,
    end: u64,
}

impl Read for Range<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let want = usize::try_from(self.end.saturating_sub(self.at))
            .unwrap_or(usize::MAX)
            .min(buf.len());
        let Some(buf) = buf.get_mut(..want) else {
            return Ok(0);
        };
        if buf.is_empty() {
            return Ok(0);
        }
        let n = read_at(self.file, buf, self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], at: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, at)
}

#[cfg(windows)]
fn read_at(file: &File, buf: &mut [u8], at: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, at)
}

/// Where a part should begin near `at`: the first line start at or after
/// `at`, moved past the lines of the first topic met there (blank and
/// comment lines go with it). `None` when no other topic begins within
/// `limit` bytes, or the file ends first: no cut near `at`.
fn cut(file: &File, at: u64, len: u64, limit: u64) -> io::Result<Option<u64>> {
    const STEP: usize = 64 << 10;
    // The window starts one byte early: a line end there makes `at` a
    // line start.
    let origin = at - 1;
    let mut window: Vec<u8> = Vec::new();
    let mut line_start: Option<usize> = None;
    let mut first: Option<Vec<u8>> = None;
    let mut scanned = 0;
    loop {
        let from = origin + window.len() as u64;
        if from >= len || window.len() as u64 > limit {
            return Ok(None);
        }
        let grow = usize::try_from((len - from).min(STEP as u64)).unwrap_or(STEP);
        let old = window.len();
        window.resize(old + grow, 0);
        let n = read_at(file, window.get_mut(old..).unwrap_or_default(), from)?;
        window.truncate(old + n);
        if n == 0 {
            return Ok(None);
        }
        // Walk the complete lines seen so far.
        while let Some(nl) = memchr::memchr(b'\n', window.get(scanned..).unwrap_or_default()) {
            let end = scanned + nl;
            match line_start {
                None => line_start = Some(end + 1),
                Some(start) => {
                    let line = window.get(start..end).unwrap_or_default();
                    let mut fields: [&[u8]; 1] = [&[]];
                    let count = split_fields(line, &mut fields);
                    if !is_skipped(count, fields[0]) {
                        match &first {
                            None => first = Some(fields[0].to_vec()),
                            Some(t) if t.as_slice() != fields[0] => {
                                return Ok(Some(origin + start as u64));
                            }
                            Some(_) => {}
                        }
                    }
                    line_start = Some(end + 1);
                }
            }
            scanned = end + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::run::read_run;
    use crate::retrieval::test_files::named;

    /// (topic, line numbers) per topic, and the errors' lines, read whole.
    type Seen = (Vec<(String, Vec<usize>)>, Vec<Option<usize>>);

    fn whole(path: &Path) -> Seen {
        let seen = std::cell::RefCell::new(Vec::new());
        let read = read_run(
            path,
            Layout::Document,
            |t| {
                seen.borrow_mut()
                    .push((t.topic_text(), t.lines.iter().map(|l| l.line).collect()))
            },
            || seen.borrow_mut().clear(),
        );
        (
            seen.into_inner(),
            read.errors.iter().map(|d| d.line).collect(),
        )
    }

    fn in_parts(path: &Path, bytes: u64) -> Option<Seen> {
        let (parts, read) = read_run_in_parts(
            path,
            Layout::Document,
            bytes,
            Vec::new,
            |v: &mut Vec<(String, Vec<usize>)>, t| {
                v.push((t.topic_text(), t.lines.iter().map(|l| l.line).collect()))
            },
        )?;
        let mut all = Vec::new();
        for p in parts {
            for (topic, lines) in p.state {
                all.push((topic, lines.iter().map(|l| l + p.line_base).collect()));
            }
        }
        Some((all, read.errors.iter().map(|d| d.line).collect()))
    }

    fn run(topics: usize, docs: usize) -> String {
        let mut s = String::new();
        for t in 0..topics {
            if t % 3 == 0 {
                s.push_str("# a comment\n\n");
            }
            for d in 0..docs {
                s.push_str(&format!(
                    "T-{t} Q0 D-{} {} {}.5 tag\r\n",
                    d * 7 % 11,
                    d + 1,
                    d
                ));
            }
        }
        s
    }

    #[test]
    fn parts_read_as_the_whole_file() {
        let text = run(40, 9);
        let f = named("parts-run", text.as_bytes());
        let want = whole(f.path());
        assert_eq!(want.0.len(), 40);
        for bytes in [50, 97, 200, 333, 1000, 4096] {
            let got = in_parts(f.path(), bytes).expect("read in parts");
            assert_eq!(got, want, "{bytes}");
        }
        // Short files and compressed ones are read whole.
        assert!(in_parts(f.path(), text.len() as u64).is_none());
        let gz = named("parts-run.gz", text.as_bytes());
        assert!(in_parts(gz.path(), 64).is_none());
    }

    #[test]
    fn interleaved_topics_are_read_whole() {
        let mut text = run(10, 5);
        text.push_str("T-2 Q0 D-99 9 0.1 tag\n");
        let f = named("parts-interleaved", text.as_bytes());
        for bytes in [40, 100, 300] {
            assert!(in_parts(f.path(), bytes).is_none(), "{bytes}");
        }
    }

    #[test]
    fn errors_are_the_first_twenty_in_file_order() {
        let mut text = String::new();
        for t in 0..30 {
            text.push_str(&format!("T-{t} Q0 D-1 1 2.0 x\nT-{t} Q0 D-2 two 1 x\n"));
        }
        let f = named("parts-errors", text.as_bytes());
        let want = whole(f.path());
        assert_eq!(want.1.len(), 20);
        assert_eq!(want.1[0], Some(2));
        for bytes in [30, 64, 500] {
            let got = in_parts(f.path(), bytes).expect("read in parts");
            assert_eq!(got.1, want.1, "{bytes}");
        }
        // An over-long line stops reading: nothing after it is reported.
        let mut text = String::from("A Q0 d 1 x t\n");
        text.push_str(&"x".repeat(crate::retrieval::input::MAX_LINE + 10));
        text.push('\n');
        for t in ["B", "C", "D", "E"] {
            text.push_str(&format!("{t} Q0 d 1 y t\n"));
        }
        let f = named("parts-long", text.as_bytes());
        let want = whole(f.path());
        assert_eq!(want.1, vec![Some(1), Some(2)]);
        let got = in_parts(f.path(), 4096).expect("read in parts");
        assert_eq!(got.1, want.1);
    }

    #[test]
    fn a_byte_order_mark_inside_the_file_is_kept() {
        // A BOM at a line start further in is part of the topic id, as in
        // the whole reading; only the file's first line loses one.
        let text = "\u{feff}A Q0 d 1 1 t\nA Q0 e 2 0.5 t\n\u{feff}B Q0 d 1 1 t\nB Q0 e 2 1 t\n";
        let f = named("parts-bom", text.as_bytes());
        let want = whole(f.path());
        assert_eq!(want.0[0].0, "A");
        assert_eq!(want.0[1].0, "\u{feff}B");
        assert_eq!(in_parts(f.path(), 20), Some(want));
    }
}
