//! What the threads of one search share (table, stop flag, node count, deadline) and what each
//! keeps for itself (a batched node counter and the chain of split points it works under).

use super::tt::TranspositionTable;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Why a search ended before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// Someone set the stop flag.
    User,
    /// The time ran out.
    Timeout,
    /// The node limit was reached.
    Nodes,
}

/// Nodes counted locally before they are added to the shared count (and limits checked), at
/// most: with a deadline, each worker checks the clock about every [`CHECK_EVERY`], counting
/// fewer nodes between checks where nodes are slow (a 19×19 Lehto node costs what a thousand
/// 8×8 ones do).
const FLUSH_EVERY: u64 = 1024;

/// How often a worker looks at the clock when the search has a deadline.
const CHECK_EVERY: std::time::Duration = std::time::Duration::from_micros(500);

/// What a pondering search waits for: the move it predicted was played (the front end's
/// `ponderhit`). From then on its clock runs, as a search started then would.
#[derive(Debug, Default)]
pub struct PonderHit(OnceLock<Instant>);

impl PonderHit {
    /// Not hit yet.
    pub fn new() -> PonderHit {
        PonderHit::default()
    }

    /// Marks the hit, now; returns false (and changes nothing) if it was hit before.
    pub fn hit(&self) -> bool {
        self.0.set(Instant::now()).is_ok()
    }

    /// When it was hit, if it was.
    pub fn when(&self) -> Option<Instant> {
        self.0.get().copied()
    }
}

/// When the clock stops a search: `hard` after its start, or for a pondering search `hard` after
/// the ponder hit (until then, never).
pub struct Deadline<'a> {
    /// When the search started.
    pub started: Instant,
    /// The time it may take; `None`: no deadline.
    pub hard: Option<Duration>,
    /// The hit a pondering search waits for.
    pub ponder: Option<&'a PonderHit>,
}

impl Deadline<'_> {
    /// No deadline (for searches set up by hand in tests).
    #[cfg(test)]
    pub fn none() -> Deadline<'static> {
        Deadline {
            started: Instant::now(),
            hard: None,
            ponder: None,
        }
    }

    /// Whether the search has a deadline, or will have one once its ponder hit comes.
    #[inline(always)]
    pub fn is_timed(&self) -> bool {
        self.hard.is_some()
    }

    /// The moment the search must stop, if it is known yet.
    #[inline]
    pub fn at(&self) -> Option<Instant> {
        let hard = self.hard?;
        match self.ponder {
            None => Some(self.started + hard),
            Some(hit) => hit.when().map(|t| t + hard),
        }
    }

    /// The time the clock has run: since the start, or since the ponder hit (`None` before it).
    pub fn charged(&self) -> Option<Duration> {
        match self.ponder {
            None => Some(self.started.elapsed()),
            Some(hit) => hit.when().map(|t| t.elapsed()),
        }
    }
}

/// The state every thread of one search sees.
pub struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a TranspositionTable,
    /// Set to end the search: by the user, or here when a limit is reached.
    pub stop: &'a AtomicBool,
    /// Nodes searched so far (flushed in batches).
    pub nodes: AtomicU64,
    /// Stop at this many nodes.
    pub node_limit: u64,
    /// When the clock stops the search.
    pub deadline: Deadline<'a>,
    /// Why a limit stopped the search (the user's stop leaves it empty).
    pub limit_hit: std::sync::Mutex<Option<StopReason>>,
    /// Whether nodes may be shared out between threads.
    pub parallel: bool,
    /// The selectivity level of the endgame pass under way (0: exact; see
    /// `alphabeta::Selectivity`).
    pub selectivity: std::sync::atomic::AtomicU8,
    /// Whether depth-limited midgame nodes may cut off by ProbCut.
    pub midgame_probcut: bool,
    /// Nodes between two checks of the limits, as the workers last tuned it (see
    /// [`FLUSH_EVERY`]); new workers start from it.
    pub flush_every: AtomicU64,
}

impl<'a> Shared<'a> {
    /// Whether the search must end.
    #[inline(always)]
    pub fn stopped(&self) -> bool {
        self.stop.load(Relaxed)
    }

    fn limit_reached(&self, reason: StopReason) {
        if let Ok(mut hit) = self.limit_hit.lock() {
            hit.get_or_insert(reason);
        }
        self.stop.store(true, Relaxed);
    }
}

/// A flag raised at a split point when one of its children cut off, so that the siblings still
/// being searched on other threads give up; each thread checks the whole chain above it.
pub struct Abort<'a> {
    flag: AtomicBool,
    parent: Option<&'a Abort<'a>>,
}

impl<'a> Abort<'a> {
    /// A new flag under `parent`.
    pub fn new(parent: Option<&'a Abort<'a>>) -> Abort<'a> {
        Abort {
            flag: AtomicBool::new(false),
            parent,
        }
    }

    /// Raises this flag.
    pub fn raise(&self) {
        self.flag.store(true, Relaxed);
    }

    /// Whether this flag or one above it is raised.
    #[inline]
    pub fn raised(&self) -> bool {
        let mut link = Some(self);
        while let Some(a) = link {
            if a.flag.load(Relaxed) {
                return true;
            }
            link = a.parent;
        }
        false
    }
}

/// One thread's view of a search.
pub struct Worker<'s, 'a> {
    /// The shared state.
    pub shared: &'s Shared<'a>,
    /// The split point this worker searches under, if any.
    pub abort: Option<&'s Abort<'s>>,
    /// Nodes counted and not yet flushed.
    unflushed: u64,
    /// Nodes counted before the unflushed ones: those this worker flushed, and those its split
    /// points' helpers took (with `unflushed`, every node it has counted: the difference of two
    /// readings of [`Worker::counted`] is the size of the subtree searched between them, what an
    /// endgame result cost for the table's replacement).
    earlier_nodes: u64,
    /// Nodes between flushes.
    flush_every: u64,
    /// Steps of work counted by [`Worker::tick`] since the clock was last looked at.
    ticks: u64,
    /// When the limits were last checked (with a deadline only).
    last_check: Option<Instant>,
}

impl<'s, 'a> Worker<'s, 'a> {
    /// A worker under the split point `abort` (or at the top).
    pub fn new(shared: &'s Shared<'a>, abort: Option<&'s Abort<'s>>) -> Self {
        Worker {
            shared,
            abort,
            unflushed: 0,
            earlier_nodes: 0,
            flush_every: shared.flush_every.load(Relaxed).clamp(1, FLUSH_EVERY),
            ticks: 0,
            last_check: shared.deadline.is_timed().then(Instant::now),
        }
    }

    /// Counts a node; every so often adds the batch to the shared count and checks the limits.
    #[inline(always)]
    pub fn count_node(&mut self) {
        self.unflushed += 1;
        if self.unflushed >= self.flush_every {
            self.flush();
        }
    }

    /// Counts `n` nodes searched without the worker (see [`Worker::count_node`]).
    #[inline(always)]
    pub fn count_nodes(&mut self, n: u64) {
        self.unflushed += n;
        if self.unflushed >= self.flush_every {
            self.flush();
        }
    }

    /// Nodes that other threads took (and counted) for a subtree of this worker's, the siblings
    /// of a split point: part of that subtree's size as [`Worker::counted`] tells it.
    pub fn add_helpers_nodes(&mut self, nodes: u64) {
        self.earlier_nodes += nodes;
    }

    /// Every node this worker has counted so far.
    #[inline(always)]
    pub fn counted(&self) -> u64 {
        self.earlier_nodes + self.unflushed
    }

    /// A step of work inside a node that is not a node (making a child, on boards where that is
    /// slow: 360 children of a 19×19 Lehto node take tens of milliseconds): counted towards the
    /// next look at the clock, not as a node. Returns whether the search must stop.
    #[inline(always)]
    pub fn tick(&mut self) -> bool {
        if self.last_check.is_some() {
            self.ticks += 1;
            if self.ticks >= self.flush_every {
                self.ticks = 0;
                self.check_time();
            }
        }
        self.should_stop()
    }

    /// Adds the local count to the shared one and checks the node and time limits.
    pub fn flush(&mut self) {
        let total = self.shared.nodes.fetch_add(self.unflushed, Relaxed) + self.unflushed;
        self.earlier_nodes += self.unflushed;
        self.unflushed = 0;
        if total >= self.shared.node_limit {
            self.shared.limit_reached(StopReason::Nodes);
        }
        self.check_time();
    }

    /// Checks the deadline, and tunes how many nodes go between two checks (also while a
    /// pondering search waits for its hit, whose deadline is not known yet).
    fn check_time(&mut self) {
        if self.shared.deadline.is_timed() {
            let now = Instant::now();
            if self
                .shared
                .deadline
                .at()
                .is_some_and(|deadline| now >= deadline)
            {
                self.shared.limit_reached(StopReason::Timeout);
            }
            // Tune the batch so that the clock is looked at about every CHECK_EVERY.
            if let Some(last) = self.last_check.replace(now) {
                let since = now.saturating_duration_since(last);
                let tuned = if since > CHECK_EVERY * 2 {
                    (self.flush_every / 2).max(1)
                } else if since < CHECK_EVERY / 2 {
                    (self.flush_every * 2).min(FLUSH_EVERY)
                } else {
                    self.flush_every
                };
                if tuned != self.flush_every {
                    self.flush_every = tuned;
                    self.shared.flush_every.store(tuned, Relaxed);
                }
            }
        }
    }

    /// Whether this worker must give up: the search is stopped or a split point above it cut off.
    #[inline(always)]
    pub fn should_stop(&self) -> bool {
        self.shared.stopped() || self.abort.is_some_and(Abort::raised)
    }
}

impl Drop for Worker<'_, '_> {
    /// Workers of split points are short-lived: each hands in its count, and checks the limits,
    /// when it ends.
    fn drop(&mut self) {
        if self.unflushed > 0 {
            self.flush();
        }
    }
}
