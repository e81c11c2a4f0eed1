//! What stops one pair's search at one level before it has proved its
//! result: a wall-clock deadline, a budget of search work, or both.
//!
//! A [`Clock`] is a small `Copy` handle passed by value to every part that
//! runs long (the search, the greedy dive, the local search, the
//! relaxation's steps, the ned table). Each part [`Clock::spend`]s units of
//! work where the work happens and stops once [`Clock::expired`]:
//!
//! - one unit per search node (where the search checks its limits);
//! - one unit per greedy-dive step (one variable given a partner);
//! - one unit per local-search candidate batch (one gold node's swap and
//!   move candidates scanned);
//! - ⌈cells / 64⌉ units per relaxation step (its inner cells: what one
//!   outer solve, subgradient and step touch), and as much for the copy
//!   of the root's relaxation a search node's restricted one starts from;
//! - ⌈n₂ / 64⌉ units per ned-table row (one gold node against every
//!   submitted node);
//! - one unit per mapping the enumeration lists without a search node (an
//!   orbit's or a free completion's).
//!
//! Work, not seconds: a result cut by a work budget is the same on every
//! machine and at every load, as the count depends only on the two graphs
//! and the settings. The count is an [`AtomicU64`] with relaxed ordering so
//! that the handle stays `Send + Sync` for the label searches split over
//! threads; a finite budget is meant for one-thread searches, where the
//! count (and so the cut) is deterministic. Without a work limit `spend`
//! returns at once and nothing is counted.
//!
//! Every clock also stops once [`interrupt`] was called (the command got
//! SIGINT or SIGTERM): the running searches end at their next check, cut,
//! and say so ([`CutBy::Interrupted`]).
//!
//! A clock may carry a [`Watch`]: the search writes its best size and its
//! proven bound there when either changes (rare events, never per search
//! node), for a progress display to read from another thread.

use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Instant;

/// Set once by [`interrupt`]: every clock has expired from then on.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Stops every search of the process, running or to come, at its next
/// check of its clock: each ends as if its limit were reached, with
/// [`CutBy::Interrupted`]. There is no way back: meant for a command that
/// was asked to stop.
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::Relaxed);
}

/// True once [`interrupt`] was called.
#[inline]
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// Which limit cut a result that is not exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CutBy {
    /// The work budget (`--budget`): the same cut on every machine.
    Budget,
    /// The wall-clock limit (`--time-limit`).
    Time,
    /// The command was interrupted ([`interrupt`]).
    Interrupted,
}

impl CutBy {
    /// The name used in tables and JSON.
    pub fn name(self) -> &'static str {
        match self {
            CutBy::Budget => "budget",
            CutBy::Time => "time",
            CutBy::Interrupted => "interrupted",
        }
    }
}

/// One search's progress as a display shows it: the best size found so
/// far and the proven upper bound, each 0 until the search sets it. Written
/// only when they change, read from any thread.
#[derive(Debug, Default)]
pub struct Watch {
    best: AtomicU32,
    bound: AtomicU32,
}

impl Watch {
    /// The best size found so far.
    pub fn best(&self) -> u32 {
        self.best.load(Ordering::Relaxed)
    }

    /// The proven upper bound so far.
    pub fn bound(&self) -> u32 {
        self.bound.load(Ordering::Relaxed)
    }

    /// Shows `best` as the best size found.
    pub(crate) fn set_best(&self, best: u32) {
        self.best.store(best, Ordering::Relaxed);
    }

    /// Shows `bound` as the proven upper bound.
    pub(crate) fn set_bound(&self, bound: u32) {
        self.bound.store(bound, Ordering::Relaxed);
    }
}

/// A budget of search work: the units spent so far and the limit.
#[derive(Debug)]
pub(crate) struct Work {
    used: AtomicU64,
    limit: u64,
}

impl Work {
    /// A budget of `limit` units, none spent.
    pub fn new(limit: u64) -> Self {
        Self {
            used: AtomicU64::new(0),
            limit,
        }
    }

    /// Units spent so far.
    pub fn used(&self) -> u64 {
        self.used.load(Ordering::Relaxed)
    }

    /// True once the units spent reach the limit.
    #[inline]
    fn spent(&self) -> bool {
        self.used() >= self.limit
    }
}

/// The limits of one search: a deadline and a work budget, each optional
/// (both absent: the search runs to its end).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Clock<'a> {
    deadline: Option<Instant>,
    work: Option<&'a Work>,
    watch: Option<&'a Watch>,
}

impl<'a> Clock<'a> {
    /// No limit at all.
    pub fn unlimited() -> Self {
        Self::default()
    }

    /// A wall-clock deadline only (none: no limit).
    pub fn with_deadline(deadline: Option<Instant>) -> Self {
        Self {
            deadline,
            work: None,
            watch: None,
        }
    }

    /// This clock with the work budget `work` as well (none: no work limit).
    pub fn with_work(self, work: Option<&'a Work>) -> Self {
        Self { work, ..self }
    }

    /// This clock with the progress display `watch` as well (none: nothing
    /// shown).
    pub fn with_watch(self, watch: Option<&'a Watch>) -> Self {
        Self { watch, ..self }
    }

    /// Shows `best` as the best size found (nothing without a watch).
    #[inline]
    pub fn show_best(&self, best: u32) {
        if let Some(watch) = self.watch {
            watch.set_best(best);
        }
    }

    /// Shows `bound` as the proven upper bound (nothing without a watch).
    #[inline]
    pub fn show_bound(&self, bound: u32) {
        if let Some(watch) = self.watch {
            watch.set_bound(bound);
        }
    }

    /// True when a work budget is set: the search must then run on one
    /// thread, so that the count, and the cut, is the same on every run.
    pub fn counts_work(&self) -> bool {
        self.work.is_some()
    }

    /// Counts `units` of work (nothing without a work budget).
    #[inline]
    pub fn spend(&self, units: u64) {
        if let Some(work) = self.work {
            work.used.fetch_add(units, Ordering::Relaxed);
        }
    }

    /// True once the deadline has passed, the work budget is spent or the
    /// command was interrupted.
    #[inline]
    pub fn expired(&self) -> bool {
        self.work.is_some_and(Work::spent)
            || interrupted()
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// True when the work budget (not the deadline) is spent: a cut that
    /// every machine makes at the same place.
    pub fn cut_by_work(&self) -> bool {
        self.work.is_some_and(Work::spent)
    }

    /// Which limit cut a result of this clock that is not exact, asked
    /// once the search has ended: the work budget when spent (that cut
    /// falls at the same place on every run, whatever came after it), else
    /// the interruption when there was one, else the deadline.
    pub fn cut_by(&self) -> CutBy {
        if self.cut_by_work() {
            CutBy::Budget
        } else if interrupted() {
            CutBy::Interrupted
        } else {
            CutBy::Time
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Clock, CutBy, Watch, Work};
    use std::time::{Duration, Instant};

    #[test]
    fn unlimited_never_expires_and_counts_nothing() {
        let clock = Clock::unlimited();
        clock.spend(u64::MAX);
        assert!(!clock.expired());
        assert!(!clock.cut_by_work());
        assert!(!Clock::with_deadline(None).expired());
    }

    #[test]
    fn work_expires_at_its_limit() {
        let work = Work::new(10);
        let clock = Clock::unlimited().with_work(Some(&work));
        let copy = clock;
        clock.spend(4);
        copy.spend(5);
        assert_eq!(work.used(), 9);
        assert!(!clock.expired());
        copy.spend(1);
        assert!(clock.expired() && clock.cut_by_work());
        assert_eq!(work.used(), 10);
    }

    #[test]
    fn deadline_expires_without_work_cut() {
        let past = Clock::with_deadline(Some(Instant::now()));
        assert!(past.expired());
        assert!(!past.cut_by_work());
        let work = Work::new(1);
        let far = Clock::with_deadline(Some(Instant::now() + Duration::from_secs(3600)));
        let far = far.with_work(Some(&work));
        assert!(!far.expired());
        far.spend(1);
        assert!(far.expired() && far.cut_by_work());
        assert_eq!(far.cut_by(), CutBy::Budget);
        assert_eq!(past.cut_by(), CutBy::Time);
    }

    #[test]
    fn watch_shows_what_the_search_sets() {
        let watch = Watch::default();
        let clock = Clock::unlimited().with_watch(Some(&watch));
        assert_eq!((watch.best(), watch.bound()), (0, 0));
        clock.show_bound(61);
        clock.show_best(59);
        assert_eq!((watch.best(), watch.bound()), (59, 61));
        // Without a watch nothing is stored anywhere.
        Clock::unlimited().show_best(7);
        assert_eq!(watch.best(), 59);
    }
}
