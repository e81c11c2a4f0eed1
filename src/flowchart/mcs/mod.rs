//! The exact maximum-common-subgraph distance of
//! `docs/flowchart-distance.md`.
//!
//! [`maximum_common_subgraph`] takes a gold and a submitted [`Flowchart`],
//! a [`Level`] and the [`Settings`] switches, and returns the size of a
//! maximum common subgraph (with the mapping and, at the complete level, the
//! label costs); [`distance`] turns a size into the union or max distance.
//! The levels of one pair share the intermediate maximum: [`typed_maximum`]
//! once, then [`maximum_common_subgraph_with`] per level.
//!
//! Every result is exact unless a limit cut the search (the work budget, the
//! time limit or an interruption): the result then says so, which limit it
//! was, and carries the proven upper bound. The search is sequential per
//! pair, so a result depends only on its two flowcharts (node and edge order
//! as read), never on the thread count.
//!
//! The leaves every part imports:
//! - `settings`: [`Level`], [`Settings`], [`Tuning`], [`Stats`];
//! - `result`: [`Mcs`], [`LabelCosts`], [`distance`];
//! - `graph`: the compact graph the search runs on;
//! - [`labels`]: label normalization and ned;
//! - `lap`: the assignment solver with dual potentials;
//! - `clock`: the deadline and work budget that stop a search.
//!
//! The parts above them:
//! - `solve`: the level driver (the shared intermediate maximum, the
//!   maximum at a level, the complete level's label costs);
//! - `search`: the branch and bound (closed-form node term, incremental
//!   upper bound, assignment bound, greedy incumbent with local search and
//!   neighbourhood improvement, twin pruning);
//! - `lagrange`: the edge-split relaxation (the LP bound that proves most
//!   maxima at the root; its reduced costs bound every search node, and
//!   restricted to a search node's mapped pairs it bounds that node);
//! - `local`: the relaxation's inner assignments restricted by the mapped
//!   pairs.

mod clock;
mod graph;
pub mod labels;
mod lagrange;
mod lap;
mod local;
mod mapping;
mod result;
mod search;
mod settings;
mod solve;
mod swaps;

use crate::flowchart::Flowchart;
pub use clock::{CutBy, Watch, interrupt, interrupted};
pub use result::{LabelCosts, Mcs, distance, histogram_bin};
pub use settings::{DEFAULT_BUDGET, Denominator, Level, Settings, Stats, Tuning};
pub use solve::TypedMaximum;

/// The intermediate level's search of `gold` and `run`, for
/// [`maximum_common_subgraph_with`] at any level.
pub fn typed_maximum(gold: &Flowchart, run: &Flowchart, settings: &Settings) -> TypedMaximum {
    solve::typed_maximum(gold, run, settings, Tuning::default(), true, None)
}

/// [`typed_maximum`] for the given levels only: without the complete
/// level, the relaxation stops at its proof instead of sharpening the
/// reduced costs for the label searches (same results, less work). The
/// search shows its best size and bound on `watch` when given.
pub fn typed_maximum_for(
    gold: &Flowchart,
    run: &Flowchart,
    settings: &Settings,
    levels: &[Level],
    watch: Option<&Watch>,
) -> TypedMaximum {
    let labels = levels.contains(&Level::Complete);
    solve::typed_maximum(gold, run, settings, Tuning::default(), labels, watch)
}

/// |mcs| of `gold` and `run` at `level`.
///
/// Ties: the reported mapping is the first one of greatest size found in the
/// search's fixed order (at the complete level, of least label cost); the
/// order depends only on the two flowcharts, never on threads.
pub fn maximum_common_subgraph(
    gold: &Flowchart,
    run: &Flowchart,
    level: Level,
    settings: &Settings,
) -> Mcs {
    maximum_common_subgraph_tuned(gold, run, level, settings, Tuning::default())
}

/// [`maximum_common_subgraph`] of a pair whose [`typed_maximum`] is known:
/// the levels of one pair share it (same results, less work).
pub fn maximum_common_subgraph_with(
    gold: &Flowchart,
    run: &Flowchart,
    level: Level,
    settings: &Settings,
    typed: &TypedMaximum,
) -> Mcs {
    maximum_common_subgraph_watched(gold, run, level, settings, typed, None)
}

/// [`maximum_common_subgraph_with`], showing the search's best size and
/// bound on `watch` when given.
pub fn maximum_common_subgraph_watched(
    gold: &Flowchart,
    run: &Flowchart,
    level: Level,
    settings: &Settings,
    typed: &TypedMaximum,
    watch: Option<&Watch>,
) -> Mcs {
    let tuning = Tuning::default();
    solve::solve(gold, run, level, settings, tuning, (Some(typed), watch))
}

/// [`maximum_common_subgraph`] with search ingredients switched off (benches).
pub fn maximum_common_subgraph_tuned(
    gold: &Flowchart,
    run: &Flowchart,
    level: Level,
    settings: &Settings,
    tuning: Tuning,
) -> Mcs {
    // The basic level without an incumbent searches from scratch.
    let labels = level == Level::Complete;
    let typed = (level != Level::Basic || tuning.incumbent)
        .then(|| solve::typed_maximum(gold, run, settings, tuning, labels, None));
    solve::solve(gold, run, level, settings, tuning, (typed.as_ref(), None))
}
