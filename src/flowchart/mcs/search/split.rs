//! A long label search split over threads (complete level).
//!
//! The enumeration of every maximum mapping, and less often the search for
//! the least label cost, are the searches that run long on real pairs
//! (up to the `--max-mappings` limit of mappings, tens of search nodes
//! each, on large pairs tens of millions of search nodes). The
//! enumeration's mappings are counted in the order of its depth-first
//! walk, and a cut at `--max-mappings` keeps the first ones; the cost
//! search reports the first cheapest mapping in that order. The walk below
//! a search node depends only on the pairs mapped above it (the
//! enumeration prunes on the target size, never on what it found; see
//! below for the cost search), so it can be cut in pieces that keep that
//! order:
//!
//! - a *task* walks, from a path of decisions from the root: the subtree
//!   at its end (or not), then, at each depth from the deepest up to the
//!   task's first, the partners of that depth's variable not tried yet —
//!   what the one-thread walk does next;
//! - a task that has run `Tuning::split_nodes` search nodes
//!   (2 000 by default) while no work of its thread waits to be
//!   stolen (`rayon_core::current_thread_has_pending_tasks`: another
//!   thread is hungry) hands off at the next search node N: the untried
//!   partners at its shallowest depth that has some, and everything after
//!   them, become a task for the pool (`rayon::Scope::spawn`), and the
//!   thread goes on, as a new task, with the subtree of N and the untried
//!   partners below that depth (the big part of the rest leaves, the
//!   small part stays).
//!
//! The thread's new task comes before the one handed off, and both after
//! the mappings the task found: concatenated in that order the tasks'
//! mappings are the one-thread walk's, mapping for mapping, whatever was
//! split where. So the results (count, the mean summed in that order,
//! histogram, cut) do not depend on the number of threads; only the
//! search-node counts do.
//!
//! The cost search prunes on the best cost found. The tasks share the
//! least one (an atomic); a task prunes on its own best as the one-thread
//! search does, on another task's only when strictly worse (by more than
//! `COST_EPS`), so that a later task's mapping of the same cost never
//! hides an earlier one: each task finds the first cheapest mapping of its
//! part, and the first of those in walk order is the one-thread search's.
//!
//! The enumeration's cut: tasks are finished in any order; the finished
//! tasks from the first on are counted in walk order (a linked list of
//! tasks, a task followed by the two it handed off to). Once they and the
//! first task not finished (still running: its mappings so far) hold
//! `limit` mappings, every other task still running comes after them: the
//! first mapping any of them meets says that the enumeration is cut, and
//! they all stop. (Counting only finished tasks, the later tasks would go
//! on in sparse parts of the tree long after the first ones hold the
//! limit: many times the search nodes of one thread.)

use super::{COST_EPS, Goal, Incumbent, Search, SearchResult, Step};
use crate::flowchart::mcs::clock::Clock;
use crate::flowchart::mcs::mapping::NONE;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// What a task walks: with `subtree`, the search node at the end of
/// `path` and everything below it; then, at each depth j from
/// `path.len() − 1` down to `base`, the partners of the variable of the
/// node at `path[..j]` from the `from[j − base]`-th on (`u32::MAX`:
/// nothing left at that depth).
#[derive(Clone, Debug)]
struct Work {
    path: Vec<Step>,
    subtree: bool,
    base: usize,
    from: Vec<u32>,
}

/// The state of a task inside its copy of the search.
#[derive(Clone)]
pub(super) struct Task {
    shared: Arc<Shared>,
    /// Its place in the walk order (see [`Order`]).
    id: u32,
    /// The decisions from the root to the current search node.
    pub path: Vec<Step>,
    /// Depth at which the task began (its nodes are deeper).
    base: usize,
    /// Search-node count at which to look for hungry threads next.
    check_at: u64,
    /// The two tasks it handed off to, in walk order.
    handoff: Option<[Work; 2]>,
}

/// What the tasks share: their walk order, the cut, the best cost.
pub(super) struct Shared {
    limit: u64,
    /// The size and label cost of the cost search's first mapping (every
    /// task starts from it).
    start: Option<(u32, f64)>,
    /// The least label cost any task has found (`f64` bits).
    best_cost: AtomicU64,
    order: Mutex<Order>,
    /// The first task not finished, and how many mappings it may add
    /// before the limit.
    head: AtomicU32,
    room: AtomicU64,
    /// The first tasks hold `limit` mappings: every task still running
    /// (but the first, when it is not finished) comes after them.
    full: AtomicBool,
    /// A mapping past the limit was met: the enumeration is cut.
    overflow: AtomicBool,
}

/// The tasks in walk order (a linked list) and how far they are counted.
struct Order {
    /// Per task: its results (once finished) and the next task.
    done: Vec<Option<Done>>,
    next: Vec<u32>,
    /// First task not counted yet; mappings of the tasks before it.
    cursor: u32,
    total: u64,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Order> {
        self.order.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers two tasks handed off by `task`, right after it in walk
    /// order; returns their ids.
    fn insert_after(&self, task: u32) -> [u32; 2] {
        let mut o = self.lock();
        let ids = [o.done.len() as u32, o.done.len() as u32 + 1];
        let after = o.next[task as usize];
        o.next[task as usize] = ids[0];
        o.done.extend([None, None]);
        o.next.extend([ids[1], after]);
        ids
    }

    /// `task` finished with `done` (its hand-off, if any, is registered
    /// first).
    fn finish(&self, task: u32, done: Done) {
        let mut o = self.lock();
        o.done[task as usize] = Some(done);
        while let Some(Some(next)) = o.done.get(o.cursor as usize) {
            o.total += next.costs.len() as u64;
            o.cursor = o.next[o.cursor as usize];
            if o.total >= self.limit {
                self.full.store(true, Ordering::Relaxed);
                if o.total > self.limit {
                    self.overflow.store(true, Ordering::Relaxed);
                }
            }
        }
        self.room
            .store(self.limit.saturating_sub(o.total), Ordering::Relaxed);
        self.head.store(o.cursor, Ordering::Release);
    }
}

impl Task {
    /// True when the task is the first not finished and its `found`
    /// mappings fill the limit.
    fn fills(&self, found: u64) -> bool {
        let s = &self.shared;
        s.head.load(Ordering::Acquire) == self.id && found >= s.room.load(Ordering::Relaxed)
    }

    /// Asked for each mapping the task meets (`found` counted before it;
    /// `own`: the task's own count is at the limit): true when the mapping
    /// comes after the first `limit`. Either way the enumeration is cut,
    /// and the tasks past the limit can stop.
    pub fn past_limit(&self, found: u64, own: bool) -> bool {
        let past = self.shared.full.load(Ordering::Relaxed) || self.fills(found);
        if past {
            self.shared.full.store(true, Ordering::Relaxed);
        }
        if past || own {
            self.shared.overflow.store(true, Ordering::Relaxed);
        }
        past
    }

    /// After the task counted its `found`-th mapping: once the first task
    /// not finished fills the limit, every later one is past it.
    pub fn counted(&self, found: u64) {
        if self.fills(found) {
            self.shared.full.store(true, Ordering::Relaxed);
        }
    }

    /// The label cost of the cost search's first mapping (where every
    /// task starts).
    pub fn start_cost(&self) -> f64 {
        self.shared.start.map_or(f64::INFINITY, |(_, cost)| cost)
    }

    /// The least label cost any task has found so far.
    pub fn best_cost(&self) -> f64 {
        f64::from_bits(self.shared.best_cost.load(Ordering::Relaxed))
    }

    /// Tells the other tasks of a mapping of label cost `cost`.
    pub fn offer(&self, cost: f64) {
        let mut old = self.shared.best_cost.load(Ordering::Relaxed);
        while cost < f64::from_bits(old) {
            match self.shared.best_cost.compare_exchange_weak(
                old,
                cost.to_bits(),
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => break,
                Err(now) => old = now,
            }
        }
    }

    /// True when the task has nothing left to tell.
    pub fn cancelled(&self) -> bool {
        self.shared.full.load(Ordering::Relaxed) && self.shared.overflow.load(Ordering::Relaxed)
    }
}

/// One task's results (or all of them, merged in walk order).
#[derive(Default)]
struct Done {
    costs: Vec<(f64, u32)>,
    first: Vec<(u32, u32)>,
    /// Cost search: the task's cheapest mapping, when cheaper than the
    /// first mapping.
    best: Option<(f64, Vec<(u32, u32)>)>,
    truncated: bool,
    timed_out: bool,
    nodes: u64,
}

impl Done {
    /// Appends the next task's results, up to `limit` mappings.
    fn append(&mut self, done: Done, limit: u64) {
        self.nodes += done.nodes;
        if !self.truncated {
            self.timed_out |= done.timed_out;
            let room = (limit - self.costs.len() as u64) as usize;
            if done.costs.len() > room {
                self.costs.extend_from_slice(&done.costs[..room]);
                self.truncated = true;
            } else {
                self.costs.extend_from_slice(&done.costs);
                self.truncated |= done.truncated;
            }
            if self.first.is_empty() {
                self.first = done.first;
            }
            // The one-thread search's rule: a later mapping replaces the
            // best only when cheaper by more than `COST_EPS`.
            if let Some((cost, map)) = done.best
                && self.best.as_ref().is_none_or(|b| cost < b.0 - COST_EPS)
            {
                self.best = Some((cost, map));
            }
        }
    }
}

impl<'g> Search<'g> {
    /// In a task: hands off at this search node (depth `depth`) when the
    /// task has run long enough, its thread has no work waiting to be
    /// stolen and some partner is left untried above; true when it did
    /// (the walk stops).
    pub(super) fn handed_off(&mut self, depth: usize) -> bool {
        let nodes = self.stats.nodes;
        let Some(task) = &mut self.task else {
            return false;
        };
        if task.handoff.is_some() || nodes < task.check_at || depth <= task.base {
            return false;
        }
        task.check_at = nodes + self.tuning.split_nodes;
        if rayon_core::current_thread_has_pending_tasks() != Some(false) {
            return false;
        }
        // From each depth, the next partner to try (or nothing).
        let next = |j: usize| match task.path[j] {
            Step::Map { .. } => self.lists.tried[j] + 1,
            Step::Skip { .. } => u32::MAX,
        };
        let left = |j: usize| {
            let n = next(j);
            n != u32::MAX && (self.induced || (n as usize) < self.lists.listed[j])
        };
        let Some(split) = (task.base..depth).find(|&j| left(j)) else {
            return false;
        };
        let on = Work {
            path: task.path.clone(),
            subtree: true,
            base: split + 1,
            from: (split + 1..depth).map(next).collect(),
        };
        let off = Work {
            path: task.path[..=split].to_vec(),
            subtree: false,
            base: task.base,
            from: (task.base..=split).map(next).collect(),
        };
        task.handoff = Some([on, off]);
        self.limits.stop = true;
        true
    }

    /// Runs the label search `goal` (the enumeration, or the cost search
    /// from `start`) with its walk split over the threads of the current
    /// `rayon` pool as they free up; the same results as [`Search::run`]
    /// (one thread: that search).
    pub fn run_split(
        &mut self,
        goal: Goal,
        start: Option<Incumbent>,
        clock: Clock<'g>,
    ) -> SearchResult {
        let (limit, target) = match goal {
            Goal::Enumerate { limit, target } => (limit, target),
            Goal::Cost { target } => (u64::MAX, target),
            Goal::Max => return self.run(goal, start, clock),
        };
        // Under a work budget the search stays on one thread: split tasks
        // would spend the shared count in an order that depends on timing,
        // and so cut at a different place on every run.
        if rayon::current_num_threads() < 2 || self.tuning.split_nodes == 0 || clock.counts_work() {
            return self.run(goal, start, clock);
        }
        self.reset(goal, None, clock);
        self.init_duals();
        self.root_bound = self.root_bound.min(self.size_bound());
        // Not needed by the walk: the copies stay small.
        let split = self.split.take();
        let start_cost = start.as_ref().map_or(f64::INFINITY, |s| s.cost);
        let shared = Arc::new(Shared {
            limit,
            best_cost: AtomicU64::new(start_cost.to_bits()),
            start: start.as_ref().map(|s| (s.size, s.cost)),
            order: Mutex::new(Order {
                done: vec![None],
                next: vec![NONE],
                cursor: 0,
                total: 0,
            }),
            head: AtomicU32::new(0),
            room: AtomicU64::new(limit),
            full: AtomicBool::new(false),
            overflow: AtomicBool::new(false),
        });
        let copies = Mutex::new(Vec::new());
        let this = &*self;
        // On threads of the pool (the hand-off asks their deques).
        rayon::scope(|scope| {
            let root = Work {
                path: Vec::new(),
                subtree: true,
                base: 0,
                from: Vec::new(),
            };
            this.exec(scope, &copies, &shared, 0, root);
        });
        self.split = split;
        let mut all = Done::default();
        let mut o = shared.lock();
        let mut task = 0;
        while let Some(done) = o.done.get_mut(task as usize).and_then(Option::take) {
            all.append(done, limit);
            task = o.next[task as usize];
        }
        drop(o);
        self.stats.nodes += all.nodes;
        self.limits.timed_out |= all.timed_out;
        let complete = !all.timed_out;
        let mapping = match (all.best, start.map(|s| s.mapping)) {
            (Some((_, map)), _) | (None, Some(map)) => map,
            (None, None) => all.first,
        };
        let size = if mapping.is_empty() { 0 } else { target };
        SearchResult {
            size,
            upper: if complete { size } else { self.root_bound },
            complete,
            mapping,
            costs: all.costs,
            truncated: all.truncated,
        }
    }

    /// Runs task `id` on a copy of the search (from `copies`, or a new
    /// one); when it hands off, the shallow part goes to the pool and
    /// this thread goes on with the deep part.
    fn exec<'s>(
        &'s self,
        scope: &rayon::Scope<'s>,
        copies: &'s Mutex<Vec<Search<'g>>>,
        shared: &'s Arc<Shared>,
        mut id: u32,
        mut work: Work,
    ) {
        let lock = || copies.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            let mut s = lock().pop().unwrap_or_else(|| self.clone());
            let done = s.run_task(shared, id, &work);
            let handoff = s.task.take().and_then(|t| t.handoff);
            lock().push(s);
            let Some([on, off]) = handoff else {
                shared.finish(id, done);
                return;
            };
            let ids = shared.insert_after(id);
            shared.finish(id, done);
            scope.spawn(move |scope| self.exec(scope, copies, shared, ids[1], off));
            (id, work) = (ids[0], on);
        }
    }

    /// Walks `work` from the root state and back to it.
    fn run_task(&mut self, shared: &Arc<Shared>, id: u32, work: &Work) -> Done {
        self.limits.stop = false;
        self.limits.timed_out = false;
        self.late.restart(self.stats.nodes);
        self.best.reset(shared.start);
        let start_cost = self.best.cost;
        let nodes = self.stats.nodes;
        let Work {
            path,
            subtree,
            base,
            from,
        } = work;
        self.task = Some(Task {
            shared: Arc::clone(shared),
            id,
            path: Vec::with_capacity(path.len()),
            base: *base,
            check_at: nodes + self.tuning.split_nodes,
            handoff: None,
        });
        // Where a hand-off resumes the depths not begun yet.
        for (j, &f) in from.iter().enumerate() {
            self.lists.tried[base + j] = f.wrapping_sub(1);
        }
        let mut saved = Vec::with_capacity(path.len());
        for &step in path {
            saved.push(self.state.bound);
            self.descend(step);
        }
        if *subtree {
            self.dfs(path.len());
            // A late probe may have pruned the task's first node itself
            // (`late.rs`): no walk above it is left to unwind.
            self.late.forget_path();
        }
        while let Some(bound) = saved.pop() {
            let j = saved.len();
            self.ascend(path[j]);
            self.state.bound = bound;
            // The state is the node at path[..j].
            let start = j.checked_sub(*base).map_or(u32::MAX, |i| from[i]);
            if start != u32::MAX
                && !self.limits.stop
                && let Some(var) = self.pick_variable()
            {
                self.branch(j, var, start as usize);
            }
        }
        let cheaper = self.best.cost < start_cost;
        let first = std::mem::take(&mut self.best.mapping);
        let (first, best) = match self.goal {
            Goal::Cost { .. } => (Vec::new(), cheaper.then_some((self.best.cost, first))),
            _ => (first, None),
        };
        Done {
            costs: std::mem::take(&mut self.best.costs),
            first,
            best,
            truncated: self.best.truncated,
            timed_out: self.limits.timed_out,
            nodes: self.stats.nodes - nodes,
        }
    }
}
