//! One evaluation from files: read the gold flowcharts, pair every run's
//! files with them by stem, score every (run, topic) pair in parallel at
//! the chosen levels, and gather the scores into a [`Report`]. Results are
//! collected in (run, topic) order, so they do not depend on the thread
//! count.
//!
//! While the pairs are scored: a [`Partial`] file, when given, gets one
//! JSON line per finished (run, topic) as it finishes; the progress bar
//! shows the longest-running search past [`LONG`]; once the engine is
//! interrupted ([`mcs::interrupt`]) the pairs not yet started are left
//! unscored.

use super::html;
use super::mcs::{self, Level, Settings, Watch};
use super::measures::triplet_scores;
use super::report::{Report, ReportSettings};
use super::score::{self, Levels, RunScore, TopicScore, TopicStatus};
use super::settings::Requested;
use super::{Flowchart, ParseOptions, formats, read_file};
use crate::diagnostics::{Diagnostic, RejectedRun, every_run_rejected, has_error};
use crate::inputs::{
    InputFiles, Pair, Run, Shard, Skipped, collect_files, digests, distinct_names, none_in,
    pair_by_stem, run_rejection, stem,
};
use crate::report::{progress_bar, with_messages};
use crate::task::{Request, TaskError, settings_from_json, with_threads};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, Instant};

/// The digests of the input files an evaluation names (`inputs` of its
/// JSON): the gold files, then every run's.
pub fn input_digests(gold: &[PathBuf], runs: &[PathBuf]) -> Vec<InputFiles> {
    let limit = Some(super::parse::MAX_FILE_BYTES);
    let extensions = formats::extensions();
    digests(&[
        ("gold", gold, &extensions, limit),
        ("run", runs, &extensions, limit),
    ])
}

/// What to evaluate.
#[derive(Clone, Debug)]
pub struct Options {
    pub gold: Vec<PathBuf>,
    /// The runs, each named; no two of one name.
    pub runs: Vec<Run>,
    /// The levels to score.
    pub levels: Vec<Level>,
    pub settings: Settings,
    pub parse: ParseOptions,
    /// Keep the submitted flowcharts (for the HTML page's drawings); else
    /// each is dropped once scored, so memory does not grow with the pairs.
    pub keep: bool,
    /// Draw a progress bar on stderr while the pairs are scored.
    pub progress: bool,
    /// Score only this part of the topics ([`Shard::topics`], by the size
    /// of each gold flowchart).
    pub shard: Option<Shard>,
}

/// Gold data or a run path that cannot be scored: the command cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError(pub String);

/// What [`evaluate`] found: the report, the notes for stderr (gold
/// warnings, files that pair with nothing) and the flowcharts read (for
/// the drawings of the HTML page).
#[derive(Debug)]
pub struct Evaluation {
    pub report: Report,
    pub notes: Vec<Diagnostic>,
    pub gold: BTreeMap<String, Flowchart>,
    /// Per run: its accepted flowcharts by topic (empty unless `keep`).
    pub submitted: Vec<BTreeMap<String, Flowchart>>,
}

impl Evaluation {
    /// What the HTML page is drawn from.
    pub fn html_input(&self) -> html::Input<'_> {
        html::Input {
            runs: &self.report.runs,
            rejected: &self.report.rejected_runs,
            levels: &self.report.settings.levels,
            settings: &self.report.settings.settings,
            gold: &self.gold,
            submitted: &self.submitted,
        }
    }
}

/// The evaluation of a [`Request`] (the C API's generic entry): its
/// settings checked by [`ReportSettings::new`], the JSON the command writes.
pub fn evaluate_request(request: &Request) -> Result<String, TaskError> {
    let settings = ReportSettings::new(&settings_from_json::<Requested>(&request.settings)?)?;
    let runs = request.runs();
    let run_paths = Run::paths(&runs);
    let named: Vec<&PathBuf> = request.gold.iter().chain(&run_paths).collect();
    request.check(&["qrels", "groups", "pages", "overlays", "worker"], &named)?;
    let options = Options {
        gold: request.gold.clone(),
        runs,
        parse: settings.parse(),
        levels: settings.levels,
        settings: settings.settings,
        keep: false,
        progress: false,
        shard: request.shard()?,
    };
    let report = with_threads(request.threads, || {
        let mut report = evaluate(&options)?.report;
        report.inputs = input_digests(&options.gold, &run_paths);
        Ok::<_, InputError>(report)
    })?
    .map_err(|e| gold_failure(e.0, &options.gold, &options.parse))?;
    Ok(crate::report::to_json(&report))
}

/// An evaluation's error `message`, located at the first error of the
/// first gold file rejected (the gold files read again, only on this
/// path), if one is.
fn gold_failure(message: String, gold: &[PathBuf], options: &ParseOptions) -> TaskError {
    let (files, _) = collect_files(gold, &formats::extensions());
    let rejected = (files.iter())
        .map(|file| formats::read_file(file, options))
        .find(|parsed| parsed.is_rejected());
    TaskError::located(
        message,
        &rejected.map(|p| p.diagnostics).unwrap_or_default(),
    )
}

/// Reads the gold files (any error in them is an [`InputError`]), then
/// scores every run: read the gold, pair each run's files with it (a run
/// with nothing to score is rejected), score the pairs, gather them by run.
pub fn evaluate(options: &Options) -> Result<Evaluation, InputError> {
    evaluate_into(options, None)
}

/// [`evaluate`], writing each (run, topic) to `partial` as it finishes.
pub fn evaluate_into(
    options: &Options,
    partial: Option<&Partial>,
) -> Result<Evaluation, InputError> {
    distinct_names(&options.runs).map_err(InputError)?;
    let Gold {
        files: gold_files,
        flowcharts: gold,
        mut notes,
        skipped: gold_skipped,
    } = read_gold(options)?;
    let mut paired = pair_runs(options, &gold_files, &mut notes);
    every_run_rejected(paired.pairs.len(), &paired.rejected).map_err(InputError)?;
    if let Some(shard) = options.shard {
        // Runs are rejected or not by the whole gold, so every part
        // scores the same runs.
        let mine = shard.topics(
            gold.iter()
                .map(|(topic, f)| (topic.as_str(), f.size() as u64)),
        );
        for pairs in &mut paired.pairs {
            pairs.retain(|p| mine.contains(&p.stem));
        }
    }
    let mut skipped = gold_skipped;
    skipped.append(&mut paired.skipped);
    let scored = score_pairs(options, &gold, &paired, partial);
    let interrupted = mcs::interrupted();
    let (runs, submitted) = gather_runs(options, paired.names, &paired.pairs, scored);
    let settings = ReportSettings {
        levels: options.levels.clone(),
        settings: options.settings.clone(),
        strict: options.parse.strict,
    };
    let report = Report {
        shard: options.shard,
        rejected_runs: paired.rejected,
        skipped_files: skipped,
        interrupted,
        ..Report::whole("flowchart", settings, runs)
    };
    Ok(Evaluation {
        report,
        notes,
        gold,
        submitted,
    })
}

/// The gold data read: the files, their flowcharts by topic, and the notes
/// for stderr (warnings of the gold files).
struct Gold {
    files: Vec<PathBuf>,
    flowcharts: BTreeMap<String, Flowchart>,
    notes: Vec<Diagnostic>,
    /// Files of the gold folders that are no flowchart files.
    skipped: Vec<Skipped>,
}

/// Reads the gold files; a gold file with an error, or none at all, is an
/// [`InputError`].
fn read_gold(options: &Options) -> Result<Gold, InputError> {
    let (gold_files, mut notes, skipped) = formats::listed(&options.gold);
    if let Some(bad) = notes.iter().find(|d| d.is_error()) {
        return Err(InputError(format!("gold data: {bad}")));
    }
    if gold_files.is_empty() {
        return Err(InputError(none_in(
            "--gold",
            &options.gold,
            &formats::flowchart_files(),
        )));
    }
    let mut by_stem: BTreeMap<String, &PathBuf> = BTreeMap::new();
    for path in &gold_files {
        if let Some(first) = by_stem.insert(stem(path), path) {
            return Err(InputError(format!(
                "gold data: two gold files have the stem `{}`: {} and {}; a topic is one file",
                stem(path),
                first.display(),
                path.display()
            )));
        }
    }
    let gold: BTreeMap<String, Flowchart> = gold_files
        .par_iter()
        .map(|path| (stem(path), read_file(path, &options.parse)))
        .collect::<Vec<_>>()
        .into_iter()
        .map(|(stem, parsed)| {
            if parsed.is_rejected() {
                let errors: Vec<String> = parsed
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .map(ToString::to_string)
                    .collect();
                return Err(InputError(format!(
                    "unreadable gold file:\n{}{}",
                    errors.join("\n"),
                    swapped_hint(options)
                )));
            }
            notes.extend(parsed.diagnostics);
            Ok((stem, parsed.flowchart))
        })
        .collect::<Result<_, InputError>>()?;
    Ok(Gold {
        files: gold_files,
        flowcharts: gold,
        notes,
        skipped,
    })
}

/// When the gold cannot be read, a line that says so if a run given reads
/// without an error (the gold and run folders given the other way round),
/// else nothing.
fn swapped_hint(options: &Options) -> String {
    let clean = options.runs.iter().find(|run| {
        let (files, problems) =
            collect_files(std::slice::from_ref(&run.path), &formats::extensions());
        problems.is_empty()
            && !files.is_empty()
            && files
                .iter()
                .all(|f| !has_error(&read_file(f, &options.parse).diagnostics))
    });
    clean.map_or_else(String::new, |run| {
        format!(
            "\nthe gold and run folders look swapped: the run {} reads without an error",
            run.path.display()
        )
    })
}

/// The runs paired with the gold topics: for each run scored, its name and
/// its (topic, file) pairs; the runs rejected with their reasons.
struct PairedRuns {
    names: Vec<String>,
    pairs: Vec<Vec<Pair>>,
    rejected: Vec<RejectedRun>,
    /// The files of the runs scored that were not read.
    skipped: Vec<Skipped>,
}

/// Pairs each run's files with the gold files by stem; the run's problems
/// and files that pair with nothing go to `notes`.
fn pair_runs(options: &Options, gold_files: &[PathBuf], notes: &mut Vec<Diagnostic>) -> PairedRuns {
    let mut paired = PairedRuns {
        names: Vec::new(),
        pairs: Vec::new(),
        rejected: Vec::new(),
        skipped: Vec::new(),
    };
    for Run { name, path: run } in &options.runs {
        let name = name.clone();
        let (files, problems, listed) = formats::listed(std::slice::from_ref(run));
        let (pairs, strays, skipped) = pair_by_stem(gold_files, &files);
        let matched = pairs.iter().filter(|p| p.run.is_some()).count();
        let kind = formats::flowchart_files();
        if let Some(reason) = run_rejection(run, files.len(), matched, &kind, "topic") {
            paired
                .rejected
                .push(RejectedRun::new(name, reason, &problems));
            continue;
        }
        notes.extend(problems);
        // A run's files of one stem reject the topic (`score_topic`),
        // which names them: no warning that one is ignored.
        let doubled: Vec<String> = (pairs.iter())
            .flat_map(|p| &p.also)
            .map(|p| p.display().to_string())
            .collect();
        notes.extend(strays.into_iter().filter(|d| !doubled.contains(&d.file)));
        let mut skipped = [listed, skipped].concat();
        skipped.sort_by(|a, b| a.file.cmp(&b.file));
        paired.skipped.extend(skipped);
        paired.pairs.push(pairs);
        paired.names.push(name);
    }
    paired
}

/// Scores every (run, topic) pair in parallel, in input order (runs, then
/// topics): each score with the submitted flowchart when it is kept for
/// the page. Each score goes to `partial` as it is made.
fn score_pairs(
    options: &Options,
    gold: &BTreeMap<String, Flowchart>,
    paired: &PairedRuns,
    partial: Option<&Partial>,
) -> Vec<(TopicScore, Option<Flowchart>)> {
    let pairs = &paired.pairs;
    let progress = progress_bar(options.progress, "flowcharts");
    progress.set_length(pairs.iter().map(Vec::len).sum::<usize>() as u64);
    let empty = Flowchart::default();
    // Every paired stem is a gold stem.
    let tasks: Vec<_> = paired
        .names
        .iter()
        .zip(pairs)
        .flat_map(|(name, run)| run.iter().map(move |pair| (name.as_str(), pair)))
        .map(|(name, pair)| (name, pair, gold.get(&pair.stem).unwrap_or(&empty)))
        .collect();
    // Largest gold first, one task at a time: the long pairs start early
    // and the threads finish together. Results go back to input order.
    let mut order: Vec<(usize, &(_, _, _))> = tasks.iter().enumerate().collect();
    order.sort_by_key(|&(i, (_, _, gold))| (std::cmp::Reverse(gold.size()), i));
    let running = Running::default();
    let show = |name: &str, topic: &str| {
        let running = &running;
        let what = format!("{name} {topic}");
        move |level: Level| Some(running.start(&what, level))
    };
    let mut scored: Vec<(usize, (TopicScore, Option<Flowchart>))> = with_messages(
        &progress,
        TICK,
        || running.longest(),
        || {
            order
                .par_iter()
                .with_max_len(1)
                .map(|&(i, &(name, pair, gold))| {
                    let watcher = show(name, &pair.stem);
                    let watcher: score::Watcher = if options.progress {
                        &watcher
                    } else {
                        &|_| None
                    };
                    let (topic, read) = score_topic(pair, gold, options, watcher);
                    if let Some(partial) =
                        partial.filter(|_| topic.status != TopicStatus::Interrupted)
                    {
                        partial.write(name, &topic);
                    }
                    progress.inc(1);
                    (i, (topic, read.filter(|_| options.keep)))
                })
                .collect()
        },
    );
    progress.finish_and_clear();
    scored.sort_by_key(|&(i, _)| i);
    scored.into_iter().map(|(_, s)| s).collect()
}

/// The scores gathered by run (with each run's summary), and per run its
/// kept flowcharts by topic.
fn gather_runs(
    options: &Options,
    names: Vec<String>,
    pairs: &[Vec<Pair>],
    scored: Vec<(TopicScore, Option<Flowchart>)>,
) -> (Vec<RunScore>, Vec<BTreeMap<String, Flowchart>>) {
    let mut scored = scored.into_iter();
    let mut submitted = Vec::with_capacity(pairs.len());
    let runs = names
        .into_iter()
        .zip(pairs)
        .map(|(run, p)| {
            let (topics, read): (Vec<TopicScore>, Vec<Option<Flowchart>>) =
                scored.by_ref().take(p.len()).unzip();
            submitted.push(
                topics
                    .iter()
                    .zip(read)
                    .filter_map(|(t, fc)| Some((t.topic.clone(), fc?)))
                    .collect(),
            );
            RunScore {
                run,
                summary: score::summarize(&topics, &options.levels),
                topics,
            }
        })
        .collect();
    (runs, submitted)
}

/// Scores one topic; a missing or rejected submission is distance 1, a
/// pair not started before the engine was interrupted is not scored.
/// Returns the submitted flowchart too when it was accepted. The searches
/// show their progress on the watches `watcher` gives.
fn score_topic(
    pair: &Pair,
    gold: &Flowchart,
    options: &Options,
    watcher: score::Watcher,
) -> (TopicScore, Option<Flowchart>) {
    let topic = pair.stem.as_str();
    let levels = &options.levels;
    let Some(path) = pair.run.as_deref() else {
        let missing = TopicScore {
            topic: topic.to_string(),
            status: TopicStatus::Missing,
            diagnostics: Vec::new(),
            gold_size: gold.size(),
            run_size: None,
            triplets: triplet_scores(gold, None),
            levels: score::missing_levels(levels),
        };
        return (missing, None);
    };
    let mut parsed = read_file(path, &options.parse);
    if !pair.also.is_empty() {
        let others: Vec<String> = pair.also.iter().map(|p| p.display().to_string()).collect();
        parsed.diagnostics.insert(
            0,
            Diagnostic::error(
                path.display().to_string(),
                None,
                format!(
                    "the run has {} files of the topic {topic}: this one and {}; a topic is one file",
                    others.len() + 1,
                    others.join(", ")
                ),
            ),
        );
        parsed.errors += 1;
    }
    let diagnostics = parsed.diagnostics.clone();
    if parsed.is_rejected() {
        let rejected = TopicScore {
            topic: topic.to_string(),
            status: TopicStatus::Rejected,
            diagnostics,
            gold_size: gold.size(),
            run_size: None,
            triplets: triplet_scores(gold, None),
            levels: score::missing_levels(levels),
        };
        return (rejected, None);
    }
    // Not started once interrupted: left unscored.
    let (status, levels) = if mcs::interrupted() {
        (TopicStatus::Interrupted, Levels::default())
    } else {
        let settings = &options.settings;
        let levels = score::score_pair_watched(gold, &parsed.flowchart, levels, settings, watcher);
        (TopicStatus::Ok, levels)
    };
    let scored = TopicScore {
        topic: topic.to_string(),
        status,
        diagnostics,
        gold_size: gold.size(),
        run_size: Some(parsed.flowchart.size()),
        // An interrupted topic is not scored: zeros, as its distance is 1.
        triplets: triplet_scores(
            gold,
            (status == TopicStatus::Ok).then_some(&parsed.flowchart),
        ),
        levels,
    };
    (scored, Some(parsed.flowchart))
}

/// A search runs this long before the progress bar shows it.
pub const LONG: Duration = Duration::from_secs(2);

/// How often the progress bar's message is made again.
const TICK: Duration = Duration::from_millis(250);

/// The searches running, as the progress bar shows them: what each is for
/// (run, topic, level), since when, and its watch. A search's entry dies
/// with its watch.
#[derive(Default)]
struct Running(Mutex<Vec<(String, Instant, Weak<Watch>)>>);

impl Running {
    /// A watch for the search of `what` at `level`, starting now.
    fn start(&self, what: &str, level: Level) -> Arc<Watch> {
        self.start_at(what, level, Instant::now())
    }

    /// A watch for the search of `what` at `level`, started at `since`.
    fn start_at(&self, what: &str, level: Level, since: Instant) -> Arc<Watch> {
        let watch = Arc::new(Watch::default());
        let entry = (
            format!("{what} {}", level.name()),
            since,
            Arc::downgrade(&watch),
        );
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(entry);
        watch
    }

    /// The longest-running search past [`LONG`] (`run topic level: |mcs|
    /// in [best, bound], 12 s`), or nothing; forgets the searches ended.
    fn longest(&self) -> String {
        let mut all = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        all.retain(|(_, _, watch)| watch.strong_count() > 0);
        let Some((what, since, watch)) = all.iter().min_by_key(|(_, since, _)| *since) else {
            return String::new();
        };
        let (Some(watch), elapsed) = (watch.upgrade(), since.elapsed()) else {
            return String::new();
        };
        if elapsed < LONG {
            return String::new();
        }
        let (best, bound) = (watch.best(), watch.bound());
        let bound = if bound == 0 {
            "?".to_string()
        } else {
            bound.to_string()
        };
        format!(
            "{what}: |mcs| in [{best}, {bound}], {} s",
            elapsed.as_secs()
        )
    }
}

/// A file that gets one line per finished (run, topic) as it finishes, in
/// the order they finish (a topic left unscored by an interruption gets
/// none): `{"run": NAME, "topic": TOPIC}` with the topic's
/// JSON as in the report, each line written whole and flushed, so a kill
/// leaves every line before it complete.
pub struct Partial {
    path: PathBuf,
    /// The file, and the first write that failed (no line is written
    /// after it).
    file: Mutex<(File, Option<String>)>,
}

/// One line of a [`Partial`] file.
#[derive(Serialize)]
struct PartialLine<'a> {
    run: &'a str,
    topic: &'a TopicScore,
}

impl Partial {
    /// Creates (or empties) the file at `path`.
    pub fn create(path: &Path) -> Result<Self, InputError> {
        let file = File::create(path)
            .map_err(|e| InputError(format!("cannot write {}: {e}", path.display())))?;
        Ok(Partial {
            path: path.to_path_buf(),
            file: Mutex::new((file, None)),
        })
    }

    /// Appends the line of `run`'s `topic`, whole, and flushes it.
    fn write(&self, run: &str, topic: &TopicScore) {
        let mut guard = self.file.lock().unwrap_or_else(PoisonError::into_inner);
        let (file, failed) = &mut *guard;
        if failed.is_some() {
            return;
        }
        let written = serde_json::to_string(&PartialLine { run, topic })
            .map_err(|e| e.to_string())
            .and_then(|json| {
                file.write_all((json + "\n").as_bytes())
                    .and_then(|()| file.flush())
                    .map_err(|e| e.to_string())
            });
        if let Err(e) = written {
            *failed = Some(format!("cannot write {}: {e}", self.path.display()));
        }
    }

    /// Why a line could not be written, if one could not.
    pub fn failed(&self) -> Option<String> {
        let guard = self.file.lock().unwrap_or_else(PoisonError::into_inner);
        guard.1.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::{Level, Running};
    use std::time::{Duration, Instant};

    /// The progress bar's message: the oldest search still running once
    /// it has run 2 s, with what its watch shows; nothing before that.
    #[test]
    fn the_longest_running_search_is_shown_after_two_seconds() {
        let running = Running::default();
        let ago = |s| {
            Instant::now()
                .checked_sub(Duration::from_secs(s))
                .expect("a clock older than a minute")
        };
        let young = running.start_at("run FC-0003", Level::Basic, ago(1));
        assert_eq!(running.longest(), "");
        let old = running.start_at("run FC-0001", Level::Complete, ago(9));
        let older = running.start_at("run FC-0002", Level::Intermediate, ago(30));
        assert_eq!(
            running.longest(),
            "run FC-0002 intermediate: |mcs| in [0, ?], 30 s"
        );
        drop(older);
        old.set_bound(61);
        old.set_best(59);
        assert_eq!(
            running.longest(),
            "run FC-0001 complete: |mcs| in [59, 61], 9 s"
        );
        drop(old);
        drop(young);
        assert_eq!(running.longest(), "");
        assert!(running.0.lock().expect("not poisoned").is_empty());
    }
}
