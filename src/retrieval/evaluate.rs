//! One evaluation from files: read the qrels and groups, read and score
//! every run topic by topic, gather the means. Gold data that cannot be
//! read stops the evaluation ([`EvaluateError`]); a run with a malformed
//! line is rejected with its diagnostics while the others are scored.

use super::groups::{Group, read_groups};
use super::input::text;
use super::measures;
use super::order::rank_topic;
use super::parts::{PART_BYTES, read_run_in_parts};
use super::passage::{passage_average_precision, passage_precision};
use super::qrels::{Qrels, TopicQrels, read_document_qrels, read_passage_qrels};
use super::report::{
    Asked, Duplicate, Evaluation, RunResult, RunScores, Settings, ShardTopics, Summary, Task,
    TopicRow, TopicStatus,
};
use super::run::{Layout, TopicLines, read_run};
pub use super::settings::{Measure, PRES_DEPTHS, RANKS, measure_list};
use crate::diagnostics::Diagnostic;
use crate::inputs::{Run, Shard};
use indicatif::ProgressBar;
use rayon::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::path::Path;

/// The command cannot run: unreadable qrels or groups, or two runs with
/// one name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvaluateError(pub Diagnostic);

/// An error about a path itself (a folder or a FIFO given as the qrels, a
/// file that does not open) reads `PATH: MESSAGE`, as every command words
/// it; one at a line of the file reads as its diagnostic,
/// `PATH:LINE: error: MESSAGE`.
impl fmt::Display for EvaluateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = &self.0;
        match d.line {
            Some(_) => d.fmt(f),
            None => write!(f, "{}: {}", d.file, d.message),
        }
    }
}

impl std::error::Error for EvaluateError {}

/// Reads the qrels of the task.
pub fn read_qrels(settings: &Settings, path: &Path) -> Result<Qrels, EvaluateError> {
    match settings.task {
        Task::PriorArt => read_document_qrels(path),
        Task::Passage => read_passage_qrels(path),
    }
    .map_err(EvaluateError)
}

/// What each qrels topic needs for scoring at the minimum relevance.
#[derive(Clone, Debug, Default)]
struct Judged {
    /// Relevant documents (n).
    relevant: usize,
    /// Grades of the relevant documents, descending.
    ideal: Vec<i64>,
}

fn judge(qrels: &Qrels, min_grade: i64) -> Vec<Judged> {
    qrels
        .topics
        .iter()
        .map(|t| {
            let mut ideal: Vec<i64> = t
                .docs
                .iter()
                .map(|d| d.grade)
                .filter(|&g| g >= min_grade)
                .collect();
            ideal.sort_unstable_by(|a, b| b.cmp(a));
            Judged {
                relevant: ideal.len(),
                ideal,
            }
        })
        .collect()
}

/// Scores every run at `runs` against the qrels and groups files.
pub fn evaluate(
    settings: &Settings,
    qrels: &Path,
    groups: Option<&Path>,
    runs: &[Run],
) -> Result<Evaluation, EvaluateError> {
    evaluate_shard(settings, qrels, groups, runs, None, &ProgressBar::hidden())
}

/// [`evaluate`], with `shard` only the topics of that part
/// ([`Topics::of`]); every run file is still read whole. `progress` is
/// given the number of run files before the first is read and advances by
/// one as each is scored.
pub fn evaluate_shard(
    settings: &Settings,
    qrels: &Path,
    groups: Option<&Path>,
    runs: &[Run],
    shard: Option<Shard>,
    progress: &ProgressBar,
) -> Result<Evaluation, EvaluateError> {
    let q = read_qrels(settings, qrels)?;
    let g = match groups {
        Some(path) => read_groups(path).map_err(EvaluateError)?,
        None => Vec::new(),
    };
    let mut names: HashMap<&str, &Path> = HashMap::new();
    for run in runs {
        if let Some(other) = names.insert(&run.name, &run.path) {
            return Err(EvaluateError(Diagnostic::error(
                run.path.display().to_string(),
                None,
                format!(
                    "run name `{}` is also the name of {}; name them apart with --run NAME=PATH",
                    run.name,
                    other.display()
                ),
            )));
        }
    }
    let topics = Topics::of(&q, shard);
    progress.set_length(runs.len() as u64);
    progress.reset_eta();
    let evaluation = evaluate_in_parts(settings, &q, &g, runs, &topics, PART_BYTES, progress);
    progress.finish_and_clear();
    Ok(evaluation)
}

/// Scores every run against qrels and groups already read.
pub fn evaluate_loaded(
    settings: &Settings,
    qrels: &Qrels,
    groups: &[Group],
    runs: &[Run],
) -> Evaluation {
    let topics = Topics::of(qrels, None);
    let hidden = ProgressBar::hidden();
    evaluate_in_parts(settings, qrels, groups, runs, &topics, PART_BYTES, &hidden)
}

/// The topics an evaluation scores: every topic, or those of one part.
#[derive(Clone, Debug)]
struct Topics {
    /// The part, absent for the whole.
    shard: Option<Shard>,
    /// Per qrels topic (by index), whether this part holds it.
    held: Vec<bool>,
}

impl Topics {
    /// The qrels topics of `shard` ([`Shard::topics`]), every topic the
    /// same cost: what a topic costs is ranking and scoring its run lines,
    /// which the gold data does not know (its judged documents say
    /// little of it), so the topics are dealt in name order one to each
    /// part in turn. A topic the run has and the qrels lack (listed as
    /// unknown, its duplicates found) is part 1's.
    fn of(qrels: &Qrels, shard: Option<Shard>) -> Topics {
        let held = match shard {
            None => vec![true; qrels.topics.len()],
            Some(shard) => {
                let mine = shard.topics(qrels.topics.iter().map(|t| (t.topic.as_str(), 1)));
                (qrels.topics.iter())
                    .map(|t| mine.contains(&t.topic))
                    .collect()
            }
        };
        Topics { shard, held }
    }

    /// Whether this part holds the topic at qrels index `index` (`None`:
    /// a topic the qrels lack).
    fn hold(&self, index: Option<usize>) -> bool {
        match index {
            Some(i) => self.held.get(i).copied().unwrap_or(false),
            None => self.shard.is_none_or(|s| s.index == 1),
        }
    }

    /// What the part's result records of its topics and groups; `None`
    /// for the whole.
    fn recorded(&self, qrels: &Qrels, groups: &[Group]) -> Option<ShardTopics> {
        let shard = self.shard?;
        let topics: Vec<(String, usize)> = (qrels.topics.iter().enumerate())
            .filter(|&(i, _)| self.hold(Some(i)))
            .map(|(i, t)| (t.topic.clone(), i))
            .collect();
        let held = |topic: &str| self.hold(qrels.topic_index(topic.as_bytes()));
        let groups = (groups.iter())
            .map(|g| {
                let members = (g.topics.iter().enumerate())
                    .filter(|(_, t)| qrels.topic_index(t.as_bytes()).is_some() && held(t))
                    .map(|(i, t)| (t.clone(), i))
                    .collect();
                (g.name.clone(), members)
            })
            .collect();
        Some(ShardTopics {
            shard,
            topics,
            groups,
            asked: Asked::default(),
        })
    }
}

/// [`evaluate_loaded`] for `topics`, reading each plain run in parts of
/// about `part_bytes` (the result does not depend on it); `progress`
/// advances by one as each run is scored.
fn evaluate_in_parts(
    settings: &Settings,
    qrels: &Qrels,
    groups: &[Group],
    runs: &[Run],
    topics: &Topics,
    part_bytes: u64,
    progress: &ProgressBar,
) -> Evaluation {
    let list = measure_list(settings);
    let judged = judge(qrels, settings.min_relevance.max(1));
    let scoring = Scoring {
        settings,
        list: &list,
        qrels,
        judged: &judged,
        topics,
    };
    let results = runs
        .par_iter()
        .map(|run| {
            let result = evaluate_run(&scoring, groups, run, part_bytes);
            progress.inc(1);
            result
        })
        .collect();
    Evaluation {
        settings: settings.clone(),
        measures: list.iter().map(|m| m.name(settings)).collect(),
        runs: results,
        inputs: Vec::new(),
        shard: topics.recorded(qrels, groups),
        skipped: Vec::new(),
    }
}

/// What scoring one topic of a run reads: the settings, the measures, the
/// gold data and the topics scored.
struct Scoring<'a> {
    settings: &'a Settings,
    list: &'a [Measure],
    qrels: &'a Qrels,
    judged: &'a [Judged],
    topics: &'a Topics,
}

/// The per-topic outcomes gathered while a run is read.
#[derive(Default)]
struct Gathered {
    rows: HashMap<usize, TopicRow>,
    unknown: Vec<String>,
    duplicates: Vec<Duplicate>,
    headings: Vec<usize>,
}

impl Gathered {
    /// Adds the outcomes of a later part of the file whose line numbers
    /// start after `line_base` lines.
    fn append(&mut self, part: Gathered, line_base: usize) {
        self.rows.extend(part.rows);
        self.unknown.extend(part.unknown);
        self.duplicates
            .extend(part.duplicates.into_iter().map(|d| Duplicate {
                line: d.line + line_base,
                ..d
            }));
        self.headings
            .extend(part.headings.into_iter().map(|l| l + line_base));
    }
}

fn evaluate_run(scoring: &Scoring, groups: &[Group], run: &Run, part_bytes: u64) -> RunResult {
    let path = run.path.as_path();
    let Scoring {
        settings,
        list,
        qrels,
        judged,
        topics: held,
    } = *scoring;
    let passage = settings.task == Task::Passage;
    let layout = if passage {
        Layout::Passage
    } else {
        Layout::Document
    };
    let in_parts = read_run_in_parts(path, layout, part_bytes, Gathered::default, |g, t| {
        gather(scoring, t, g)
    });
    let (gathered, read) = match in_parts {
        Some((parts, read)) => {
            let mut all = Gathered::default();
            for part in parts {
                all.append(part.state, part.line_base);
            }
            (all, read)
        }
        None => {
            let gathered = RefCell::new(Gathered::default());
            let read = read_run(
                path,
                layout,
                |t| gather(scoring, t, &mut gathered.borrow_mut()),
                || *gathered.borrow_mut() = Gathered::default(),
            );
            (gathered.into_inner(), read)
        }
    };
    let mut result = RunResult {
        run: run.name.clone(),
        file: path.display().to_string(),
        diagnostics: read.errors,
        scores: None,
    };
    if !result.diagnostics.is_empty() {
        return result;
    }
    let Gathered {
        mut rows,
        unknown,
        mut duplicates,
        mut headings,
    } = gathered;
    let mut topics = Vec::new();
    let mut left_out = Vec::new();
    let mut missing = Vec::new();
    for (i, (t, j)) in qrels.topics.iter().zip(judged).enumerate() {
        if !held.hold(Some(i)) {
            continue;
        }
        if j.relevant == 0 {
            left_out.push(t.topic.clone());
            continue;
        }
        let row = rows.remove(&i).unwrap_or_else(|| {
            missing.push(t.topic.clone());
            TopicRow {
                topic: t.topic.clone(),
                status: TopicStatus::Missing,
                num_ret: 0,
                num_rel: j.relevant,
                num_rel_ret: 0,
                values: vec![0.0; list.len()],
            }
        });
        topics.push(row);
    }
    let (all, group_summaries) = summaries(&topics, groups, list.len());
    duplicates.sort_by_key(|d| d.line);
    headings.sort_unstable();
    result.scores = Some(RunScores {
        all,
        groups: group_summaries,
        left_out,
        missing,
        unknown,
        duplicates,
        headings_removed: passage.then_some(headings),
        topics,
    });
    result
}

/// The means over every topic row (in their order) and over each group's
/// rows (in the order of its members; a member with no row, left out or
/// not in the qrels, is skipped): the sums are added in that order, which
/// a merge of parts keeps to write the same bits.
pub(super) fn summaries(
    topics: &[TopicRow],
    groups: &[Group],
    measures: usize,
) -> (Summary, Vec<(String, Summary)>) {
    let index: HashMap<&str, &TopicRow> = topics.iter().map(|r| (r.topic.as_str(), r)).collect();
    let all = summary(&mut topics.iter(), measures);
    let groups = groups
        .iter()
        .map(|g| {
            let mut members = g
                .topics
                .iter()
                .filter_map(|t| index.get(t.as_str()).copied());
            (g.name.clone(), summary(&mut members, measures))
        })
        .collect();
    (all, groups)
}

fn summary(rows: &mut dyn Iterator<Item = &TopicRow>, measures: usize) -> Summary {
    let mut s = Summary {
        num_q: 0,
        num_ret: 0,
        num_rel: 0,
        num_rel_ret: 0,
        means: vec![None; measures],
    };
    let mut sums = vec![0.0; measures];
    for row in rows {
        s.num_q += 1;
        s.num_ret += row.num_ret;
        s.num_rel += row.num_rel;
        s.num_rel_ret += row.num_rel_ret;
        for (sum, v) in sums.iter_mut().zip(&row.values) {
            *sum += v;
        }
    }
    if s.num_q > 0 {
        let q = s.num_q as f64;
        s.means = sums.iter().map(|sum| Some(sum / q)).collect();
    }
    s
}

/// Ranks one topic of the run, records its duplicates and headings, and
/// scores it when the qrels have relevant documents for it.
/// A topic of another part is skipped before it is ranked.
fn gather(scoring: &Scoring, t: &mut TopicLines, out: &mut Gathered) {
    let Scoring {
        settings,
        list,
        qrels,
        judged,
        topics,
    } = *scoring;
    let index = qrels.topic_index(&t.topic);
    if !topics.hold(index) {
        return;
    }
    let passage = settings.task == Task::Passage;
    let ranking = rank_topic(
        t,
        settings.order,
        settings.cutoff,
        passage,
        settings.keep_headings,
    );
    let topic = t.topic_text();
    out.duplicates
        .extend(ranking.duplicates.iter().map(|line| Duplicate {
            topic: topic.clone(),
            doc: text(t.docs.get(line.doc)),
            xpath: passage.then(|| text(t.xpaths.get(line.xpath))),
            line: line.line,
        }));
    out.headings.extend_from_slice(&ranking.headings);
    let Some(i) = index else {
        out.unknown.push(topic);
        return;
    };
    let (Some(tq), Some(j)) = (qrels.topics.get(i), judged.get(i)) else {
        return;
    };
    if j.relevant == 0 {
        return;
    }
    let min_grade = settings.min_relevance.max(1);
    let gains: Vec<i64> = ranking
        .docs
        .iter()
        .map(|&d| {
            tq.doc(t.docs.get(d))
                .map(|jd| jd.grade)
                .filter(|&g| g >= min_grade)
                .unwrap_or(0)
        })
        .collect();
    let (map_d, precision_d) = if passage {
        passage_scores(
            tq,
            t,
            &ranking.docs,
            &ranking.passages,
            &gains,
            min_grade,
            j.relevant,
        )
    } else {
        (0.0, 0.0)
    };
    let n = j.relevant;
    let values = list
        .iter()
        .map(|m| match *m {
            Measure::PrecisionAt(k) => measures::precision_at(&gains, k),
            Measure::RecallAt(k) => measures::recall_at(&gains, k, n),
            Measure::Precision => measures::precision(&gains),
            Measure::Recall => measures::recall(&gains, n),
            Measure::Map => measures::average_precision(&gains, n),
            Measure::Pres(depth) => measures::pres(&gains, n, depth),
            Measure::Ndcg => measures::ndcg(&gains, &j.ideal, settings.cutoff, settings.ndcg_base),
            Measure::MapD => map_d,
            Measure::PrecisionD => precision_d,
        })
        .collect();
    out.rows.insert(
        i,
        TopicRow {
            topic,
            status: TopicStatus::Ok,
            num_ret: gains.len(),
            num_rel: n,
            num_rel_ret: gains.iter().filter(|&&g| g > 0).count(),
            values,
        },
    );
}

/// MAP(D) and Precision(D) of a topic: the means of AP(D) and
/// Precision(D) over its `n` relevant documents, 0 for those not in the
/// cut list.
fn passage_scores(
    tq: &TopicQrels,
    t: &TopicLines,
    docs: &[u32],
    passages: &[(u32, u32)],
    gains: &[i64],
    min_grade: i64,
    n: usize,
) -> (f64, f64) {
    let mut ap = 0.0;
    let mut precision = 0.0;
    let mut marks: Vec<bool> = Vec::new();
    for group in passages.chunk_by(|a, b| a.0 == b.0) {
        let Some(&(position, _)) = group.first() else {
            continue;
        };
        let p = position as usize;
        if gains.get(p).is_none_or(|&g| g <= 0) {
            continue;
        }
        let Some(judgement) = docs.get(p).and_then(|&d| tq.doc(t.docs.get(d))) else {
            continue;
        };
        marks.clear();
        marks.extend(group.iter().map(|&(_, x)| {
            judgement
                .passages
                .get(t.xpaths.get(x))
                .is_some_and(|&g| g >= min_grade)
        }));
        ap += passage_average_precision(&marks, judgement.relevant_passages(min_grade));
        precision += passage_precision(&marks);
    }
    (ap / n as f64, precision / n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retrieval::report::write_trec;
    use crate::retrieval::test_files::{hand, named};

    #[test]
    fn a_malformed_run_is_rejected_and_the_others_scored() {
        let bad = named("bad-PAC", b"H-1 Q0 EP-1 1 2.0 t\nH-1 Q0 EP-2 two 1.0 t\n");
        let corrupt = named("corrupt-PAC.gz", b"\x1f\x8b\x08\x00garbage");
        let runs = Run::each(&[hand("hand-doc"), bad.path().into(), corrupt.path().into()]);
        let settings = Settings::new(Task::PriorArt);
        let e = evaluate(
            &settings,
            &hand("qrels.txt"),
            Some(&hand("groups.txt")),
            &runs,
        )
        .unwrap();
        assert_eq!(e.runs.len(), 3);
        let ok = e.runs[0].scores.as_ref().unwrap();
        assert_eq!(ok.left_out, vec!["H-3"]);
        assert_eq!(ok.missing, vec!["H-4"]);
        assert_eq!(ok.unknown, vec!["H-5"]);
        let map = e.measures.iter().position(|m| m == "MAP@100").unwrap();
        assert!((ok.all.means[map].unwrap() - 71.0 / 180.0).abs() < 1e-12);
        assert_eq!(e.runs[1].run, "bad-PAC");
        assert!(e.runs[1].scores.is_none());
        assert_eq!(e.runs[1].diagnostics.len(), 1);
        assert_eq!(e.runs[1].diagnostics[0].line, Some(2));
        assert!(e.runs[1].diagnostics[0].message.contains("rank `two`"));
        assert_eq!(e.runs[2].run, "corrupt-PAC");
        assert!(e.runs[2].scores.is_none());
        assert!(!e.runs[2].diagnostics.is_empty());
        let json = serde_json::to_value(&e).unwrap();
        assert_eq!(json["runs"][1]["status"], "rejected");
        assert_eq!(json["task"], "prior-art");
    }

    #[test]
    fn gold_errors_and_run_names() {
        let settings = Settings::new(Task::PriorArt);
        let runs = [Run::at(hand("hand-doc"))];
        let e = evaluate(&settings, &hand("no-such-qrels"), None, &runs).unwrap_err();
        assert!(e.to_string().contains("no-such-qrels"));
        let same = named("hand-doc.gz", b"");
        let runs = Run::each(&[hand("hand-doc"), same.path().into()]);
        let e = evaluate(&settings, &hand("qrels.txt"), None, &runs).unwrap_err();
        assert!(e.to_string().contains("hand-doc"), "{e}");
    }

    #[test]
    fn measure_names_follow_the_settings() {
        let mut s = Settings::new(Task::Passage);
        s.cutoff = 50;
        s.ndcg_base = 2;
        s.ranks = vec![3, 10];
        let names: Vec<String> = measure_list(&s).iter().map(|m| m.name(&s)).collect();
        let want = [
            "P@5",
            "P@10",
            "P@20",
            "P@100",
            "P@3",
            "R@5",
            "R@10",
            "R@20",
            "R@100",
            "R@3",
            "Precision",
            "Recall",
            "MAP@50",
            "PRES@20",
            "PRES@100",
            "PRES@50",
            "nDCG@50/b2",
            "MAP(D)",
            "Precision(D)",
        ];
        assert_eq!(names, want);
    }

    #[test]
    fn trec_layout() {
        let settings = Settings::new(Task::PriorArt);
        let e = evaluate(
            &settings,
            &hand("qrels.txt"),
            Some(&hand("groups.txt")),
            &[Run::at(hand("hand-doc"))],
        )
        .unwrap();
        let mut out = Vec::new();
        write_trec(&e, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "runid\tall\thand-doc");
        assert!(lines.contains(&"P@5\tH-1\t0.2"));
        assert!(lines.contains(&"PRES@100\tH-1\t0.6475"));
        assert!(lines.contains(&"num_q\tall\t3"));
        assert!(lines.contains(&"num_q\tall:EN\t2"));
        // Missing topics are in the means but print no rows.
        assert!(!lines.iter().any(|l| l.contains("\tH-4\t")));
        assert!(lines.iter().all(|l| l.split('\t').count() == 3));
    }

    #[test]
    fn reading_in_parts_changes_nothing() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("goldens/passage");
        for (task, dir, keep_headings) in [
            (Task::Passage, "passage", false),
            (Task::Passage, "passage", true),
            (Task::PriorArt, "doc", false),
        ] {
            let dir = root.join(dir);
            let mut settings = Settings::new(task);
            settings.keep_headings = keep_headings;
            let qrels = read_qrels(&settings, &dir.join("qrels.txt")).unwrap();
            let groups = read_groups(&dir.join("groups.txt")).unwrap();
            let mut runs: Vec<std::path::PathBuf> = std::fs::read_dir(dir.join("runs"))
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            runs.sort();
            let all = Topics::of(&qrels, None);
            let none = ProgressBar::hidden();
            let runs = Run::each(&runs);
            let whole = evaluate_in_parts(&settings, &qrels, &groups, &runs, &all, u64::MAX, &none);
            assert!(whole.runs.iter().all(|r| r.scores.is_some()));
            let layout = if task == Task::Passage {
                Layout::Passage
            } else {
                Layout::Document
            };
            for bytes in [700, 2000, 5000] {
                // The runs are really cut at these sizes, but for the one
                // whose topics interleave, read whole.
                let cut: Vec<bool> = runs
                    .iter()
                    .map(|run| {
                        read_run_in_parts(&run.path, layout, bytes, || (), |_, _| ())
                            .is_some_and(|(parts, read)| parts.len() > 1 && read.errors.is_empty())
                    })
                    .collect();
                let mixed = runs.iter().map(|r| r.path.ends_with("lab3-rerank-PAC"));
                assert!(cut.iter().zip(mixed).all(|(&c, m)| c != m), "{cut:?}");
                let cut = evaluate_in_parts(&settings, &qrels, &groups, &runs, &all, bytes, &none);
                assert_eq!(cut, whole, "{dir:?} {bytes}");
            }
        }
    }
}
