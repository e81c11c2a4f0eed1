//! `validate --task prior-art|passage`: checks text-retrieval run files the
//! way the 2009 submission system did, before they are submitted, and says
//! file by file what the scorer will reject, drop or ignore.
//!
//! Errors (the scorer rejects the run, or the task refuses it): a line of
//! the wrong layout or column count, a rank or score that is not a number,
//! more lines (prior art, [`PRIOR_ART_LINES`]) or distinct documents
//! (passage, [`PASSAGE_DOCUMENTS`]) for one topic than the task takes, a
//! file that cannot be read (a corrupt compressed stream, an archive not
//! holding exactly one regular file, a special file). Warnings (the run is
//! scored): a document or passage listed again, ranks not increasing in
//! the file's order within a topic, a topic unknown to the qrels, a topic
//! whose lines are not contiguous, heading passages (removed before
//! scoring).
//!
//! Invariant: a file is streamed, never held: memory holds one topic's
//! distinct documents (and passages) and the list of topic names. When a
//! topic's lines are not contiguous the file is read again, a batch of
//! topics at a time, each topic held from its first line to its last and a
//! batch's open topics holding at most [`BATCH_LINES`] lines (a topic alone
//! aside); the report is the same as from one reading.

use super::evaluate::{EvaluateError, read_qrels};
use super::input::{for_each_line, run_name, text, with_reader};
use super::qrels::Qrels;
use super::report::{Settings, Task};
use super::run::{IdMap, Interner, Layout, Parsed, parse_line, same_bytes};
use super::xpath::is_heading;
use crate::diagnostics::{Diagnostic, FileDiagnostics};
use crate::inputs::{collect_files, display_paths};
use crate::report::table::Table;
use crate::report::validation::plural;
pub use crate::report::validation::{FileStatus, Summary};
use rayon::prelude::*;
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::collections::hash_map::Entry;
use std::path::{Path, PathBuf};

/// Lines a prior-art run may hold for one topic (the 2009 task's limit).
pub const PRIOR_ART_LINES: usize = 1000;
/// Distinct documents a passage run may name for one topic (the 2012
/// task's limit).
pub const PASSAGE_DOCUMENTS: usize = 100;
/// Distinct passages of one topic remembered to find duplicates; past it
/// the topic's later duplicates are not looked for (a warning says so), so
/// one huge topic cannot make memory grow without bound.
pub const TRACKED_PASSAGES: usize = 1 << 20;

/// What `validate` says about one run file.
#[derive(Clone, Debug, Serialize)]
pub struct FileReport {
    pub file: String,
    /// The run's name, as the scoring commands name it.
    pub run: String,
    pub status: FileStatus,
    /// Run lines read (blank and comment lines aside, malformed ones counted).
    pub lines: usize,
    /// Distinct topics of the well-formed lines.
    pub topics: usize,
    /// Errors and warnings found (more than listed when the list was cut).
    pub errors: usize,
    pub warnings: usize,
    /// `"diagnostics"` and `"diagnostic_list"` in the JSON, both objects,
    /// as in every command's JSON.
    #[serde(flatten, serialize_with = "crate::diagnostics::objects_and_list")]
    pub diagnostics: Vec<Diagnostic>,
}

/// What the files were checked against.
#[derive(Clone, Debug, Serialize)]
pub struct ValidateSettings {
    /// The qrels whose topics the runs' topics are checked against.
    pub qrels: Option<String>,
    /// The prior-art limit, lines a topic.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_lines_per_topic: Option<usize>,
    /// The passage limit, distinct documents a topic.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_documents_per_topic: Option<usize>,
}

/// The whole output of `validate --task prior-art|passage` (its JSON form
/// with `--format json`).
#[derive(Clone, Debug, Serialize)]
pub struct ValidateReport {
    /// Always `"validate"`.
    pub task: &'static str,
    /// The clefeval version that wrote the report.
    pub version: &'static str,
    /// The task the runs were checked for.
    pub checked_task: Task,
    pub settings: ValidateSettings,
    pub files: Vec<FileReport>,
    pub summary: Summary,
}

/// Checks every run named by `paths` (files, or folders of them) for
/// `task`, against the topics of `qrels` when given. `Err` when the qrels
/// cannot be read or the paths hold no file.
pub fn validate(
    task: Task,
    qrels: Option<&Path>,
    paths: &[PathBuf],
) -> Result<ValidateReport, EvaluateError> {
    let judged = match qrels {
        Some(path) => Some(read_qrels(&Settings::new(task), path)?),
        None => None,
    };
    let files = files_to_check(paths)?;
    let files: Vec<FileReport> = files
        .par_iter()
        .map(|path| check_file(path, task, judged.as_ref()))
        .collect();
    let summary = Summary::count(files.iter().map(|f| f.status));
    Ok(ValidateReport {
        task: "validate",
        version: env!("CARGO_PKG_VERSION"),
        checked_task: task,
        settings: ValidateSettings {
            qrels: qrels.map(|p| p.display().to_string()),
            max_lines_per_topic: (task == Task::PriorArt).then_some(PRIOR_ART_LINES),
            max_documents_per_topic: (task == Task::Passage).then_some(PASSAGE_DOCUMENTS),
        },
        files,
        summary,
    })
}

/// The files named by `paths`: a file as it is, a folder's files (every
/// name, hidden ones aside), sorted; or why there are none.
pub fn files_to_check(paths: &[PathBuf]) -> Result<Vec<PathBuf>, EvaluateError> {
    let (files, problems) = collect_files(paths, &[]);
    if let Some(problem) = problems.into_iter().next() {
        return Err(EvaluateError(problem));
    }
    if files.is_empty() {
        return Err(EvaluateError(Diagnostic::error(
            display_paths(paths),
            None,
            "no run file in the given folders",
        )));
    }
    Ok(files)
}

/// Checks one run file.
pub fn check_file(path: &Path, task: Task, qrels: Option<&Qrels>) -> FileReport {
    check_in_batches(path, task, qrels, BATCH_LINES)
}

/// Checks one run file, holding at most about `budget` lines' state when
/// its topics are not contiguous.
fn check_in_batches(path: &Path, task: Task, qrels: Option<&Qrels>, budget: usize) -> FileReport {
    let name = path.display().to_string();
    // A path that is no regular file is refused by the first pass, which
    // reads nothing then.
    let first = read_pass(path, task, qrels, None);
    let (lines, topics) = (first.lines, first.spans.len());
    let diagnostics = if first.interleaved {
        // Read again, a batch of topics at a time; the first batch
        // also reports the lines of no topic (malformed lines, I/O).
        let mut diagnostics = FileDiagnostics::new(&name);
        let batch_of = batches(&first.spans, budget);
        let count = batch_of.iter().max().map_or(0, |&b| b + 1);
        for batch in 0..count {
            let plan = Plan {
                spans: &first.spans,
                batch_of: &batch_of,
                batch,
            };
            diagnostics.absorb(read_pass(path, task, qrels, Some(&plan)).diagnostics);
        }
        diagnostics
    } else {
        first.diagnostics
    };
    let (errors, warnings) = (diagnostics.errors(), diagnostics.warnings());
    FileReport {
        file: name,
        run: run_name(path),
        status: FileStatus::of(errors, warnings),
        lines,
        topics,
        errors,
        warnings,
        diagnostics: diagnostics.finish(),
    }
}

/// Where a topic's lines are in the file.
#[derive(Clone, Copy, Debug)]
struct Span {
    first: usize,
    last: usize,
    /// Well-formed lines of the topic.
    lines: usize,
}

/// Lines of the topics held at once when a run whose topics are not
/// contiguous is read again: topics are read in batches such that the
/// lines of a batch's topics open at one point of the file (first line
/// read, last not yet) are at most this many, unless one topic alone has
/// more. A topic's state is some tens of bytes a line.
pub const BATCH_LINES: usize = 1 << 20;

/// The batch of each topic (by id, the order of first lines): a topic goes
/// to the first batch whose open topics at its first line leave room for
/// its lines.
fn batches(spans: &[Span], budget: usize) -> Vec<usize> {
    let mut open: Vec<Batch> = Vec::new();
    let mut batch_of = Vec::with_capacity(spans.len());
    for span in spans {
        let b = open
            .iter_mut()
            .position(|batch| batch.has_room(span, budget))
            .unwrap_or(open.len());
        if b == open.len() {
            open.push(Batch::default());
        }
        if let Some(batch) = open.get_mut(b) {
            batch.open.push(Reverse((span.last, span.lines)));
            batch.held += span.lines;
        }
        batch_of.push(b);
    }
    batch_of
}

/// The topics of a batch open at the current first line.
#[derive(Default)]
struct Batch {
    /// (last line, lines) of each open topic, the earliest end first.
    open: BinaryHeap<Reverse<(usize, usize)>>,
    /// Their lines.
    held: usize,
}

impl Batch {
    /// Closes the topics ended before `span` begins; true when the batch
    /// holds nothing then, or room for `span`'s lines.
    fn has_room(&mut self, span: &Span, budget: usize) -> bool {
        while let Some(&Reverse((last, lines))) = self.open.peek() {
            if last >= span.first {
                break;
            }
            self.open.pop();
            self.held -= lines;
        }
        self.held == 0 || self.held + span.lines <= budget
    }
}

/// A reading of a run whose topics are not contiguous: the topics of one
/// batch are checked, each held from its first line to its last.
struct Plan<'a> {
    spans: &'a [Span],
    batch_of: &'a [usize],
    batch: usize,
}

/// The outcome of one reading of a file.
struct Checked {
    diagnostics: FileDiagnostics,
    /// Run lines (well-formed or not).
    lines: usize,
    /// Every topic, by id.
    spans: Vec<Span>,
    /// A topic came back after another began (first reading only): the
    /// checks stopped there, the spans are complete.
    interleaved: bool,
}

/// What is known of one topic while its lines are read.
#[derive(Default)]
struct TopicState {
    /// Run lines of the topic so far.
    lines: usize,
    /// The rank and line number of the topic's previous line.
    previous: Option<(f64, usize)>,
    /// Distinct documents, and the line each first appeared on.
    docs: Interner,
    doc_lines: Vec<usize>,
    /// Distinct normalized XPaths, and each passage's first line.
    xpaths: Interner,
    passages: IdMap<usize>,
    /// Over the task's limit: reported, no more duplicates looked for.
    over_limit: bool,
    /// Past [`TRACKED_PASSAGES`]: no more duplicates looked for.
    untracked: bool,
    /// The topic came back after other topics (said once, where it first
    /// does).
    came_back: bool,
}

impl TopicState {
    /// Checks one well-formed line of the topic.
    fn check(
        &mut self,
        task: Task,
        line: &Parsed<'_>,
        xpath: &[u8],
        number: usize,
        out: &mut FileDiagnostics,
    ) {
        self.lines += 1;
        if let Some((rank, at)) = self.previous {
            if line.rank < rank {
                out.warning(
                    Some(number),
                    format!(
                        "rank {} is below the rank {rank} of line {at}, the topic's \
                         previous line: lines are ranked by the rank column, not by \
                         their order in the file",
                        line.rank
                    ),
                );
            } else if line.rank == rank {
                out.warning(
                    Some(number),
                    format!(
                        "rank {rank} repeats the rank of line {at}, the topic's previous \
                         line: tied lines are ranked in file order"
                    ),
                );
            }
        }
        self.previous = Some((line.rank, number));
        match task {
            Task::PriorArt => self.check_document(line.topic, line.doc, number, out),
            Task::Passage => self.check_passage(line.topic, line.doc, xpath, number, out),
        }
    }

    fn check_document(
        &mut self,
        topic: &[u8],
        doc: &[u8],
        number: usize,
        out: &mut FileDiagnostics,
    ) {
        if self.lines == PRIOR_ART_LINES + 1 {
            out.error(
                Some(number),
                format!(
                    "topic `{}` has more than {PRIOR_ART_LINES} lines (this is its {}): \
                     the prior-art task takes at most {PRIOR_ART_LINES} a topic",
                    text(topic),
                    ordinal(self.lines)
                ),
            );
            self.over_limit = true;
        }
        if self.over_limit {
            return;
        }
        let (id, new) = self.docs.intern(doc);
        if new {
            self.doc_lines.push(number);
        } else {
            out.warning(
                Some(number),
                format!(
                    "document `{}` is listed again for topic `{}` (first at line {}): \
                     only one of its lines is scored",
                    text(doc),
                    text(topic),
                    self.first_line(id)
                ),
            );
        }
    }

    fn check_passage(
        &mut self,
        topic: &[u8],
        doc: &[u8],
        xpath: &[u8],
        number: usize,
        out: &mut FileDiagnostics,
    ) {
        let heading = is_heading(xpath);
        if heading {
            out.warning(
                Some(number),
                format!(
                    "heading passage `{}` of `{}`: heading lines are removed before \
                     scoring (kept with --keep-headings)",
                    text(xpath),
                    text(doc)
                ),
            );
        }
        if self.over_limit {
            return;
        }
        let (id, new) = self.docs.intern(doc);
        if new {
            self.doc_lines.push(number);
            if self.docs.len() > PASSAGE_DOCUMENTS {
                out.error(
                    Some(number),
                    format!(
                        "topic `{}` has more than {PASSAGE_DOCUMENTS} documents (`{}` is \
                         its {}): the passage task takes at most {PASSAGE_DOCUMENTS} a topic",
                        text(topic),
                        text(doc),
                        ordinal(self.docs.len())
                    ),
                );
                self.over_limit = true;
                return;
            }
        }
        if heading || self.untracked {
            return;
        }
        if self.passages.len() >= TRACKED_PASSAGES {
            out.warning(
                Some(number),
                format!(
                    "topic `{}` has more than {TRACKED_PASSAGES} distinct passages: \
                     its later lines are not checked for duplicates",
                    text(topic)
                ),
            );
            self.untracked = true;
            return;
        }
        let (x, _) = self.xpaths.intern(xpath);
        match self.passages.entry((u64::from(id) << 32) | u64::from(x)) {
            Entry::Vacant(slot) => {
                slot.insert(number);
            }
            Entry::Occupied(first) => out.warning(
                Some(number),
                format!(
                    "passage `{}` `{}` is listed again for topic `{}` (first at line {}): \
                     only one of its lines is scored",
                    text(doc),
                    text(xpath),
                    text(topic),
                    first.get()
                ),
            ),
        }
    }

    fn first_line(&self, doc: u32) -> usize {
        self.doc_lines.get(doc as usize).copied().unwrap_or(0)
    }
}

/// One reading of the run at `path`. Without a plan (the first reading)
/// only the current topic is held, and a topic that comes back stops the
/// checks (the spans are still gathered). With one, the plan's batch of
/// topics is checked, each topic held until its last line.
fn read_pass(path: &Path, task: Task, qrels: Option<&Qrels>, plan: Option<&Plan<'_>>) -> Checked {
    let mut reading = Reading {
        task,
        layout: match task {
            Task::PriorArt => Layout::Document,
            Task::Passage => Layout::Passage,
        },
        qrels,
        plan,
        out: FileDiagnostics::new(&path.display().to_string()),
        topics: Interner::default(),
        spans: Vec::new(),
        current: None,
        current_topic: Vec::new(),
        state: None,
        parked: IdMap::default(),
        interleaved: false,
        lines: 0,
        physical: 0,
        xpath: Vec::new(),
    };
    let outcome = with_reader(path, |reader| {
        for_each_line(reader, |number, line| {
            reading.line(number, line);
            true
        })
    });
    let mut out = reading.out;
    if plan.is_none_or(|p| p.batch == 0) {
        let physical = reading.physical;
        match outcome {
            Err(d) => out.error(None, d.message),
            Ok(Err((Some(number), message))) => out.error(Some(number), message),
            Ok(Err((None, message))) if physical == 0 => {
                out.error(None, format!("unreadable: {message}"))
            }
            Ok(Err((None, message))) => {
                out.error(None, format!("unreadable after line {physical}: {message}"))
            }
            Ok(Ok(())) => {}
        }
        if reading.lines == 0 && out.errors() == 0 {
            out.warning(None, "no run line: every topic would score 0");
        }
    }
    Checked {
        diagnostics: out,
        lines: reading.lines,
        spans: reading.spans,
        interleaved: reading.interleaved,
    }
}

/// The state of one reading of a run.
struct Reading<'a> {
    task: Task,
    layout: Layout,
    qrels: Option<&'a Qrels>,
    plan: Option<&'a Plan<'a>>,
    out: FileDiagnostics,
    /// Every topic seen, numbered in the order of first lines.
    topics: Interner,
    spans: Vec<Span>,
    /// The topic of the previous well-formed line, and its bytes.
    current: Option<u32>,
    current_topic: Vec<u8>,
    /// The state of `current` when it is checked in this reading.
    state: Option<TopicState>,
    /// Topics of the batch left for others before their last line.
    parked: IdMap<TopicState>,
    interleaved: bool,
    lines: usize,
    /// The last physical line read.
    physical: usize,
    xpath: Vec<u8>,
}

impl Reading<'_> {
    fn line(&mut self, number: usize, text_line: &[u8]) {
        self.physical = number;
        let parsed = match parse_line(self.layout, text_line, &mut self.xpath) {
            Ok(Some(parsed)) => parsed,
            Ok(None) => return,
            Err(message) => {
                self.lines += 1;
                if !self.interleaved && self.plan.is_none_or(|p| p.batch == 0) {
                    self.out.error(Some(number), message);
                }
                return;
            }
        };
        self.lines += 1;
        // Most lines continue the previous line's topic: compared, not hashed.
        let (id, new) = match self.current {
            Some(c) if same_bytes(&self.current_topic, parsed.topic) => (c, false),
            _ => {
                self.current_topic.clear();
                self.current_topic.extend_from_slice(parsed.topic);
                self.topics.intern(parsed.topic)
            }
        };
        let checked = self
            .plan
            .is_none_or(|p| p.batch_of.get(id as usize) == Some(&p.batch));
        if new {
            self.spans.push(Span {
                first: number,
                last: number,
                lines: 0,
            });
            if checked
                && !self.interleaved
                && self
                    .qrels
                    .is_some_and(|q| q.topic_index(parsed.topic).is_none())
            {
                self.out.warning(
                    Some(number),
                    format!(
                        "topic `{}` is not in the qrels: its lines are not scored",
                        text(parsed.topic)
                    ),
                );
            }
        }
        if let Some(span) = self.spans.get_mut(id as usize) {
            span.last = number;
            span.lines += 1;
        }
        if self.current != Some(id) {
            if !new && self.plan.is_none() {
                self.interleaved = true;
            }
            self.switch(id, new, checked, number, parsed.topic);
        }
        if self.interleaved {
            return;
        }
        if let Some(state) = self.state.as_mut() {
            state.check(self.task, &parsed, &self.xpath, number, &mut self.out);
        }
    }

    /// The line `number` begins a block of topic `id` (`new` when it is the
    /// topic's first line, `checked` when this reading checks it).
    fn switch(&mut self, id: u32, new: bool, checked: bool, number: usize, topic: &[u8]) {
        let left = self.current.replace(id);
        let held = self.state.take();
        if self.interleaved {
            return;
        }
        if let (Some(c), Some(state), Some(plan)) = (left, held, self.plan)
            && plan.spans.get(c as usize).is_some_and(|s| s.last > number)
        {
            self.parked.insert(u64::from(c), state);
        }
        if !checked {
            return;
        }
        let mut state = if new {
            TopicState::default()
        } else {
            self.parked.remove(&u64::from(id)).unwrap_or_default()
        };
        if !new && !state.came_back {
            state.came_back = true;
            let at = state.previous.map_or(0, |(_, at)| at);
            self.out.warning(
                Some(number),
                format!(
                    "topic `{}` comes back here after other topics (its previous line is \
                     line {at}): a topic's lines should be contiguous",
                    text(topic)
                ),
            );
        }
        self.state = Some(state);
    }
}

impl ValidateReport {
    /// The text output: diagnostic lines, a summary line per file, a total.
    pub fn table(&self) -> String {
        let mut out = String::new();
        for file in &self.files {
            for d in &file.diagnostics {
                out.push_str(&d.to_string());
                out.push('\n');
            }
            out.push_str(&format!(
                "{}: {}: {}, {}\n",
                file.file,
                file.status.describe(file.errors, file.warnings),
                plural(file.lines, "line"),
                plural(file.topics, "topic")
            ));
        }
        out.push_str(&self.summary.line());
        out
    }

    /// One CSV row per file.
    pub fn csv(&self) -> String {
        let mut table = Table::new([
            "file", "run", "status", "errors", "warnings", "lines", "topics",
        ]);
        for file in &self.files {
            table.row([
                file.file.clone(),
                file.run.clone(),
                file.status.name().to_string(),
                file.errors.to_string(),
                file.warnings.to_string(),
                file.lines.to_string(),
                file.topics.to_string(),
            ]);
        }
        table.to_csv()
    }
}

/// `1st`, `2nd`, `3rd`, `11th`, `101st`, …
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::MAX_PER_FILE;
    use crate::retrieval::test_files::file;

    fn span(first: usize, last: usize, lines: usize) -> Span {
        Span { first, last, lines }
    }

    #[test]
    fn batches_hold_open_topics_within_the_budget() {
        // Contiguous topics never overlap: one batch whatever their size.
        let contiguous = [span(1, 5, 5), span(6, 20, 15), span(21, 21, 1)];
        assert_eq!(batches(&contiguous, 4), [0, 0, 0]);
        // Three topics open together, 4 lines each: two fit in 8.
        let woven = [
            span(1, 12, 4),
            span(2, 11, 4),
            span(3, 10, 4),
            span(13, 14, 2),
        ];
        assert_eq!(batches(&woven, 8), [0, 0, 1, 0]);
        assert_eq!(batches(&woven, 4), [0, 1, 2, 0]);
        // A topic larger than the budget gets a batch of its own.
        assert_eq!(batches(&[span(1, 9, 9), span(2, 3, 2)], 4), [0, 1]);
    }

    #[test]
    fn reading_in_batches_reports_as_reading_once() {
        // Topics woven line by line, with duplicates across blocks, rank
        // trouble, a malformed line and an unknown topic: every batch size
        // gives the report of one batch.
        let mut text = String::new();
        for i in 1..=6 {
            for t in ["A", "B", "C"] {
                text += &format!("{t} Q0 D{} {} 1\n", i % 4, 7 - i);
            }
            if i == 3 {
                text += "B Q0 D9 x 1\n";
            }
        }
        let f = file(&text);
        let one = check_in_batches(f.path(), Task::PriorArt, None, usize::MAX);
        assert_eq!(one.errors, 1);
        // Per topic: 5 rank decreases, 2 duplicates, and the line where it
        // first comes back.
        assert_eq!(one.warnings, 3 * (5 + 2 + 1));
        for budget in [1, 2, 6, 12] {
            let batched = check_in_batches(f.path(), Task::PriorArt, None, budget);
            assert_eq!(batched.diagnostics, one.diagnostics, "budget {budget}");
            assert_eq!(
                (batched.errors, batched.warnings),
                (one.errors, one.warnings)
            );
        }
    }

    #[test]
    fn ordinals() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 101, 111, 1001]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "101st", "111th",
                "1001st"
            ]
        );
    }

    #[test]
    fn batches_list_the_first_findings_by_line_and_count_all() {
        // Three woven topics, every line a tie with the topic's previous
        // one: 3 × 599 ties and 3 comebacks, more than are listed.
        let mut text = String::new();
        for i in 0..600 {
            for t in ["A", "B", "C"] {
                text += &format!("{t} Q0 D{i} 1 1\n");
            }
        }
        let f = file(&text);
        let one = check_in_batches(f.path(), Task::PriorArt, None, usize::MAX);
        let three = check_in_batches(f.path(), Task::PriorArt, None, 1);
        assert_eq!(one.warnings, 3 * 599 + 3);
        assert_eq!(one.diagnostics.len(), MAX_PER_FILE + 1);
        assert_eq!(three.diagnostics, one.diagnostics);
        assert_eq!(three.warnings, one.warnings);
        assert_eq!(
            one.diagnostics.last().map(|d| d.message.as_str()),
            Some("800 more diagnostics not listed (errors: 0, warnings: 800)")
        );
    }

    #[test]
    fn passages_past_the_tracked_number_are_not_remembered() {
        let mut out = FileDiagnostics::new("run");
        let mut state = TopicState::default();
        for key in 0..TRACKED_PASSAGES as u64 {
            state.passages.insert(key, 1);
        }
        state.check_passage(b"T", b"D", b"/p", 7, &mut out);
        state.check_passage(b"T", b"D", b"/p", 8, &mut out);
        assert_eq!(state.passages.len(), TRACKED_PASSAGES);
        assert_eq!(
            out.finish(),
            [Diagnostic::warning(
                "run",
                Some(7),
                "topic `T` has more than 1048576 distinct passages: its later lines are not \
                 checked for duplicates"
            )]
        );
    }
}
