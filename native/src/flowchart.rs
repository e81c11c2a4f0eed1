//! One flowchart pair scored from two texts: the files' format as the
//! command line reads them (docs/formats.md), the distance of
//! docs/flowchart-distance.md at the chosen levels, every scoring switch of
//! `clefeval flowchart` in [`ClefevalFlowchartOptions`], and the figures
//! of a topic's JSON in [`ClefevalFlowchartScore`]. The scoring is the
//! library's own ([`score::score_pair`]): the same numbers as the command
//! line gives for the same two files and switches.

use crate::status::{ClefevalStatus, Failure, free_string, guard, into_raw, not_null, text};
use engine::flowchart::mcs::{CutBy, DEFAULT_BUDGET, Level, Settings};
use engine::flowchart::score::{self, LevelScore};
use engine::flowchart::settings::{ReportSettings, Requested};
use engine::flowchart::{ParseOptions, Parsed, read_text};
use std::ffi::c_char;
use std::ptr;

/// The basic level: every node compatible with every node.
pub const CLEFEVAL_LEVEL_BASIC: u32 = 1;
/// The intermediate level: nodes compatible when their types are equal.
pub const CLEFEVAL_LEVEL_INTERMEDIATE: u32 = 2;
/// The complete level: labels decide among the maximum subgraphs.
pub const CLEFEVAL_LEVEL_COMPLETE: u32 = 4;
/// The three levels.
pub const CLEFEVAL_LEVEL_ALL: u32 = 7;

/// d = 1 - |mcs| / (|Ft| + |Fs| - |mcs|) (the default).
pub const CLEFEVAL_DENOMINATOR_UNION: u32 = 0;
/// d = 1 - |mcs| / max(|Ft|, |Fs|).
pub const CLEFEVAL_DENOMINATOR_MAX: u32 = 1;

/// How to score a flowchart pair: the switches of `clefeval flowchart`.
/// Start from `clefeval_flowchart_options_default()` and change fields.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClefevalFlowchartOptions {
    /// The levels to score: `CLEFEVAL_LEVEL_*` bits, or'ed (default all).
    pub levels: u32,
    /// `CLEFEVAL_DENOMINATOR_UNION` (default) or `CLEFEVAL_DENOMINATOR_MAX`.
    pub denominator: u32,
    /// Only induced common subgraphs (`--induced`).
    pub induced: bool,
    /// Every edge read as undirected (`--ignore-direction`).
    pub ignore_direction: bool,
    /// An edge is preserved only by an edge of the same type
    /// (`--edge-types`).
    pub edge_types: bool,
    /// Labels compared as written, without normalization
    /// (`--exact-labels`).
    pub exact_labels: bool,
    /// Enumeration of maximum common subgraphs stops after this many
    /// (`--max-mappings`, default 100000).
    pub max_mappings: u64,
    /// Wall-clock limit per level in seconds; 0: none (the default).
    pub time_limit_seconds: f64,
    /// Units of search work per level (`--budget`, default 80000000, about
    /// a minute); 0: no work limit.
    pub budget: u64,
    /// Unknown record kinds are errors (`--strict`).
    pub strict: bool,
}

/// Which limit cut a result that is not exact.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClefevalCutBy {
    /// Exact: no limit cut the search.
    None = 0,
    /// The work budget: the same cut on every machine.
    Budget = 1,
    /// The wall-clock limit.
    Time = 2,
    /// The process's searches were interrupted.
    Interrupted = 3,
}

/// One level of a scored pair.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClefevalLevelScore {
    /// The level was scored (asked for in the options); every other field
    /// is zero when not.
    pub scored: bool,
    /// |mcs|: mapped nodes + preserved edges (the best found when not
    /// exact).
    pub mcs: usize,
    /// The distance (at the complete level with |mcs| - best label cost).
    pub distance: f64,
    /// False when a limit cut the search: the true |mcs| lies in
    /// [`mcs`, `mcs_upper`].
    pub exact: bool,
    /// The proven upper bound on |mcs| (`mcs` when exact).
    pub mcs_upper: usize,
    /// The distance `mcs_upper` gives, the low end of the distance's
    /// interval (`distance` when exact).
    pub distance_lower: f64,
    /// Which limit cut the search (`CLEFEVAL_CUT_BY_NONE` when exact).
    pub cut_by: ClefevalCutBy,
    /// Complete level: least label cost over the maximum common subgraphs.
    pub label_cost_best: f64,
    /// Complete level: mean label cost over those enumerated.
    pub label_cost_mean: f64,
    /// Complete level: per-subgraph mean ned, bins [0,0.1), ..., [0.9,1.0].
    pub histogram: [u64; 10],
    /// Complete level: maximum common subgraphs enumerated.
    pub mappings: u64,
    /// Complete level: how many of them have the best label cost.
    pub best_mappings: u64,
    /// Complete level: the enumeration stopped at `max_mappings` or at the
    /// time limit.
    pub truncated: bool,
}

/// A mapped node: its id in the gold text and in the run text.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClefevalNodePair {
    pub gold: i64,
    pub run: i64,
}

/// A scored flowchart pair. Filled by `clefeval_flowchart_score`; free its
/// arrays and strings with `clefeval_flowchart_score_free`.
#[repr(C)]
#[derive(Debug)]
pub struct ClefevalFlowchartScore {
    /// |Ft|: nodes + edges of the gold flowchart.
    pub gold_size: usize,
    /// |Fs|: nodes + edges of the submitted flowchart.
    pub run_size: usize,
    pub basic: ClefevalLevelScore,
    pub intermediate: ClefevalLevelScore,
    pub complete: ClefevalLevelScore,
    /// The complete level's mapping of least label cost, by gold node
    /// order (NULL when the complete level was not scored or maps nothing).
    pub mapping: *mut ClefevalNodePair,
    /// Pairs in `mapping`.
    pub mapping_len: usize,
    /// The warnings of the two texts, one per line (`run:3: warning: ...`),
    /// or NULL when there are none.
    pub warnings: *mut c_char,
}

/// The default options: every level, the union denominator, no switch on,
/// 100000 mappings, no time limit, the default work budget.
#[unsafe(no_mangle)]
pub extern "C" fn clefeval_flowchart_options_default() -> ClefevalFlowchartOptions {
    let settings = Settings::default();
    ClefevalFlowchartOptions {
        levels: CLEFEVAL_LEVEL_ALL,
        denominator: CLEFEVAL_DENOMINATOR_UNION,
        induced: settings.induced,
        ignore_direction: settings.ignore_direction,
        edge_types: settings.edge_types,
        exact_labels: settings.exact_labels,
        max_mappings: settings.max_mappings,
        time_limit_seconds: 0.0,
        budget: settings.budget.unwrap_or(DEFAULT_BUDGET),
        strict: false,
    }
}

/// Scores the submitted flowchart `run` against the gold flowchart `gold`
/// (both the text of a flowchart file, NUL-terminated UTF-8) with
/// `options` (NULL: the defaults) into `*out`.
///
/// A text with an error (one the command line rejects a file for) fails
/// with `CLEFEVAL_STATUS_PARSE_ERROR`, the message naming `gold` or `run`
/// and the line; warnings do not stop the scoring and are in
/// `out->warnings`. On failure `*out` is left empty (zeros and NULLs), so
/// freeing it is harmless. Safe to call from several threads at once.
///
/// # Safety
/// `gold` and `run` are null or NUL-terminated strings; `options` is null
/// or points to a `ClefevalFlowchartOptions`; `out` is null or points to
/// writable memory for a `ClefevalFlowchartScore`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn clefeval_flowchart_score(
    gold: *const c_char,
    run: *const c_char,
    options: *const ClefevalFlowchartOptions,
    out: *mut ClefevalFlowchartScore,
) -> ClefevalStatus {
    guard(|| {
        not_null(out, "out")?;
        // SAFETY: not null; writable by the caller's contract.
        unsafe { ptr::write(out, ClefevalFlowchartScore::empty()) };
        // SAFETY: null or NUL-terminated by the caller's contract.
        let (gold, run) = unsafe { (text(gold, "gold")?, text(run, "run")?) };
        let options = if options.is_null() {
            clefeval_flowchart_options_default()
        } else {
            // SAFETY: not null; a valid options struct by the contract.
            unsafe { ptr::read(options) }
        };
        let score = score_texts(gold, run, &options)?;
        // SAFETY: as above.
        unsafe { ptr::write(out, score) };
        Ok(())
    })
}

/// Frees what `clefeval_flowchart_score` allocated in `*score` (the
/// mapping and the warnings) and sets those pointers to NULL; the numbers
/// stay. NULL, or a score freed already, is ignored.
///
/// # Safety
/// `score` is null or points to a `ClefevalFlowchartScore` filled by
/// `clefeval_flowchart_score` (or freed by this function since).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn clefeval_flowchart_score_free(score: *mut ClefevalFlowchartScore) {
    // SAFETY: null or a valid score by the caller's contract.
    let Some(score) = (unsafe { score.as_mut() }) else {
        return;
    };
    let mapping = std::mem::replace(&mut score.mapping, ptr::null_mut());
    let len = std::mem::take(&mut score.mapping_len);
    if !mapping.is_null() {
        // SAFETY: made from a boxed slice of `len` pairs in `score_texts`.
        drop(unsafe { Box::from_raw(ptr::slice_from_raw_parts_mut(mapping, len)) });
    }
    // SAFETY: made by `into_raw` or null.
    unsafe { free_string(&mut score.warnings) };
}

impl ClefevalFlowchartScore {
    fn empty() -> Self {
        ClefevalFlowchartScore {
            gold_size: 0,
            run_size: 0,
            basic: ClefevalLevelScore::NOT_SCORED,
            intermediate: ClefevalLevelScore::NOT_SCORED,
            complete: ClefevalLevelScore::NOT_SCORED,
            mapping: ptr::null_mut(),
            mapping_len: 0,
            warnings: ptr::null_mut(),
        }
    }
}

impl ClefevalLevelScore {
    const NOT_SCORED: Self = ClefevalLevelScore {
        scored: false,
        mcs: 0,
        distance: 0.0,
        exact: false,
        mcs_upper: 0,
        distance_lower: 0.0,
        cut_by: ClefevalCutBy::None,
        label_cost_best: 0.0,
        label_cost_mean: 0.0,
        histogram: [0; 10],
        mappings: 0,
        best_mappings: 0,
        truncated: false,
    };

    fn of(score: Option<&LevelScore>) -> Self {
        let Some(s) = score else {
            return Self::NOT_SCORED;
        };
        let complete = s.complete.as_ref();
        ClefevalLevelScore {
            scored: true,
            mcs: s.mcs,
            distance: s.distance,
            exact: s.exact,
            mcs_upper: s.mcs_upper.unwrap_or(s.mcs),
            distance_lower: s.distance_lower.unwrap_or(s.distance),
            cut_by: match s.cut_by {
                None => ClefevalCutBy::None,
                Some(CutBy::Budget) => ClefevalCutBy::Budget,
                Some(CutBy::Time) => ClefevalCutBy::Time,
                Some(CutBy::Interrupted) => ClefevalCutBy::Interrupted,
            },
            label_cost_best: complete.map_or(0.0, |c| c.label_cost_best),
            label_cost_mean: complete.map_or(0.0, |c| c.label_cost_mean),
            histogram: complete.map_or([0; 10], |c| c.histogram),
            mappings: complete.map_or(0, |c| c.mappings),
            best_mappings: complete.map_or(0, |c| c.best_mappings),
            truncated: complete.is_some_and(|c| c.truncated),
        }
    }
}

/// The settings of `options`, checked by the library's one constructor
/// ([`ReportSettings::new`]); what is C's own is read here: the level
/// bits, the denominator's number, 0 for no time limit and no budget.
fn settings(options: &ClefevalFlowchartOptions) -> Result<ReportSettings, Failure> {
    let invalid = |message: String| Failure::new(ClefevalStatus::InvalidOption, message);
    if options.levels == 0 || options.levels & !CLEFEVAL_LEVEL_ALL != 0 {
        return Err(invalid(format!(
            "levels must be CLEFEVAL_LEVEL_* bits (1 to 7), not {}",
            options.levels
        )));
    }
    let bits = [
        CLEFEVAL_LEVEL_BASIC,
        CLEFEVAL_LEVEL_INTERMEDIATE,
        CLEFEVAL_LEVEL_COMPLETE,
    ];
    let levels = (Level::ALL.into_iter().zip(bits))
        .filter(|&(_, bit)| options.levels & bit != 0)
        .map(|(level, _)| level.name().to_string())
        .collect();
    let denominator = match options.denominator {
        CLEFEVAL_DENOMINATOR_UNION => "union",
        CLEFEVAL_DENOMINATOR_MAX => "max",
        other => {
            return Err(invalid(format!(
                "denominator must be CLEFEVAL_DENOMINATOR_UNION (0) or _MAX (1), not {other}"
            )));
        }
    };
    let seconds = options.time_limit_seconds;
    let given = Requested {
        levels,
        denominator: denominator.to_string(),
        induced: options.induced,
        ignore_direction: options.ignore_direction,
        edge_types: options.edge_types,
        exact_labels: options.exact_labels,
        max_mappings: options.max_mappings,
        time_limit: (seconds != 0.0).then_some(seconds),
        budget: (options.budget != 0).then_some(options.budget),
        strict: options.strict,
    };
    ReportSettings::new(&given).map_err(|e| invalid(e.to_string()))
}

/// Reads one text as the file named `name`; its errors fail the call.
fn read(text: &str, name: &str, options: &ParseOptions) -> Result<Parsed, Failure> {
    let parsed = read_text(text.as_bytes(), name, options);
    if !parsed.is_rejected() {
        return Ok(parsed);
    }
    let errors: Vec<_> = parsed.diagnostics.iter().filter(|d| d.is_error()).collect();
    let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
    Err(Failure {
        status: ClefevalStatus::ParseError,
        message: lines.join("\n"),
        line: errors.first().and_then(|d| d.line).unwrap_or(0),
    })
}

/// Reads and scores one pair.
fn score_texts(
    gold: &str,
    run: &str,
    options: &ClefevalFlowchartOptions,
) -> Result<ClefevalFlowchartScore, Failure> {
    let settings = settings(options)?;
    let parse_options = settings.parse();
    let gold = read(gold, "gold", &parse_options)?;
    let run = read(run, "run", &parse_options)?;
    let scored = score::score_pair(
        &gold.flowchart,
        &run.flowchart,
        &settings.levels,
        &settings.settings,
    );
    let warnings: Vec<String> = gold
        .diagnostics
        .iter()
        .chain(&run.diagnostics)
        .map(ToString::to_string)
        .collect();
    let mapping: Box<[ClefevalNodePair]> = scored
        .complete
        .as_ref()
        .and_then(|c| c.complete.as_ref())
        .map(|c| {
            c.mapping
                .iter()
                .map(|&(gold, run)| ClefevalNodePair { gold, run })
                .collect()
        })
        .unwrap_or_default();
    let mapping_len = mapping.len();
    let mapping = if mapping.is_empty() {
        ptr::null_mut()
    } else {
        Box::into_raw(mapping).cast::<ClefevalNodePair>()
    };
    Ok(ClefevalFlowchartScore {
        gold_size: gold.flowchart.size(),
        run_size: run.flowchart.size(),
        basic: ClefevalLevelScore::of(scored.basic.as_ref()),
        intermediate: ClefevalLevelScore::of(scored.intermediate.as_ref()),
        complete: ClefevalLevelScore::of(scored.complete.as_ref()),
        mapping,
        mapping_len,
        warnings: into_raw(
            (!warnings.is_empty())
                .then(|| warnings.join("\n"))
                .as_deref(),
        ),
    })
}
