//! The search: iterative deepening over the midgame negascout, the exact endgame solver at the end,
//! a shared transposition table and a rayon pool of worker threads.
//!
//! [`Searcher::search`] runs one search to its [`Limits`], calls back with a [`Report`] after every
//! finished iteration and returns a [`SearchResult`]. It never reads input: it stops when its limits
//! say so or when the caller sets the stop flag.

pub mod alphabeta;
pub mod control;
pub mod endgame8;
pub mod endgame8_table;
pub mod limits;
pub mod moves;
pub mod review;
mod table_memory;
pub mod tt;

use crate::eval::{DISC, Evaluate};
use crate::rules::Move;
use crate::rules::symmetry::is_mirror_image;
use alphabeta::{INFINITY, SELECTIVITY_PERCENT, endgame, hash_move, midgame};
pub use control::PonderHit;
use control::{Deadline, Shared, StopReason, Worker};
pub use limits::{Clock, Limits};
use moves::decode;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};
use tt::TranspositionTable;

/// How far a reported score can be trusted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// A heuristic score from a depth-limited search.
    Depth,
    /// The exact final disc difference.
    Exact,
    /// Exact as win (> 0), draw (0) or loss (< 0) only.
    WinLossDraw,
    /// A search to the end that trusted shallow searches to cut off, sure of its result at
    /// about this percentage (73, 87, 95 or 98); the passes before an exact search.
    Selective(u8),
}

/// One finished iteration (or, with multipv, one of its lines).
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Plies searched (the empties when exact).
    pub depth: u32,
    /// Exact, win/loss/draw, or heuristic.
    pub precision: Precision,
    /// Which line, from 1 (multipv).
    pub line: usize,
    /// The score in centi-discs from the side to move's view.
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time so far.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// The score is only a lower bound: an iteration stopped once it had proved this move better
    /// than the last finished one's best, and the move is played.
    pub lower_bound: bool,
}

impl Report {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let secs = self.time.as_secs_f64();
        if secs > 0.0 {
            (self.nodes as f64 / secs) as u64
        } else {
            0
        }
    }
}

/// A score that is an evaluation, in discs, always with two decimals (`+1.00`).
pub fn format_score(centidiscs: i32) -> String {
    format!("{:+.2}", centidiscs as f64 / DISC as f64)
}

/// A score of the given precision in discs: exact and win/loss/draw scores as whole discs (`+4`,
/// `+1`/`+0`/`-1`), evaluations always with two decimals (`+1.00`), so that a whole number is
/// never mistaken for a solved result.
pub fn format_score_of(centidiscs: i32, precision: Precision) -> String {
    match precision {
        Precision::Exact | Precision::WinLossDraw => format!("{:+}", centidiscs / DISC),
        Precision::Depth | Precision::Selective(_) => format_score(centidiscs),
    }
}

impl fmt::Display for Report {
    /// `depth D [exact|wld] score S [lowerbound] nodes N time MS nps N pv M …`
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "depth {}", self.depth)?;
        match self.precision {
            Precision::Depth => {}
            Precision::Exact => f.write_str(" exact")?,
            Precision::WinLossDraw => f.write_str(" wld")?,
            Precision::Selective(percent) => write!(f, " selective {percent}")?,
        }
        write!(
            f,
            " score {}{} nodes {} time {} nps {} pv",
            format_score_of(self.score, self.precision),
            if self.lower_bound { " lowerbound" } else { "" },
            self.nodes,
            self.time.as_millis(),
            self.nps()
        )?;
        for mv in &self.pv {
            write!(f, " {mv}")?;
        }
        Ok(())
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play; `None` when the game is over.
    pub best: Option<Move>,
    /// The expected reply, when known.
    pub ponder: Option<Move>,
    /// The score of the best move in centi-discs from the side to move's view.
    pub score: i32,
    /// The depth of the last finished iteration.
    pub depth: u32,
    /// How far the score can be trusted.
    pub precision: Precision,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
    /// Why the search stopped early, if it did.
    pub stopped: Option<StopReason>,
}

/// A root move and what the last iteration said of it.
#[derive(Clone, Debug)]
struct RootMove<P> {
    mv: Move,
    child: P,
    score: i32,
}

/// Searches positions: owns the transposition table and the thread pool.
pub struct Searcher {
    tt: TranspositionTable,
    pool: Option<rayon::ThreadPool>,
    threads: usize,
}

/// Why a searcher could not be made.
#[derive(Debug)]
pub enum SearcherError {
    /// A thread count outside 1 to [`MAX_THREADS`].
    ThreadCount(usize),
    /// A table size outside 1 to [`MAX_HASH_MB`] MB.
    HashSize(usize),
    /// The thread pool could not start.
    Threads(String),
    /// The transposition table's memory (in MB) could not be had.
    Memory(usize),
}

impl fmt::Display for SearcherError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SearcherError::ThreadCount(n) => {
                write!(f, "threads must be from 1 to {MAX_THREADS}, not {n}")
            }
            SearcherError::HashSize(n) => {
                write!(f, "hash must be from 1 to {MAX_HASH_MB} MB, not {n}")
            }
            SearcherError::Threads(e) => write!(f, "cannot start the search threads: {e}"),
            SearcherError::Memory(mb) => {
                write!(
                    f,
                    "cannot allocate a hash table of {mb} MB: try a smaller hash"
                )
            }
        }
    }
}

impl std::error::Error for SearcherError {}

/// The most search threads any entry point takes (more than any machine othel runs on has cores;
/// a mistyped 100000 would bring the machine to a halt).
pub const MAX_THREADS: usize = 256;

/// The largest transposition table, in MB.
pub const MAX_HASH_MB: usize = 65536;

impl Searcher {
    /// A searcher with `threads` workers (1: no pool) and a table of `hash_mb` MB; counts outside
    /// 1 to [`MAX_THREADS`] and sizes outside 1 to [`MAX_HASH_MB`] are refused.
    pub fn new(threads: usize, hash_mb: usize) -> Result<Searcher, SearcherError> {
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(SearcherError::ThreadCount(threads));
        }
        if !(1..=MAX_HASH_MB).contains(&hash_mb) {
            return Err(SearcherError::HashSize(hash_mb));
        }
        let pool = if threads > 1 {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .thread_name(|i| format!("othel-search-{i}"))
                    .build()
                    .map_err(|e| SearcherError::Threads(e.to_string()))?,
            )
        } else {
            None
        };
        Ok(Searcher {
            tt: TranspositionTable::new(hash_mb).ok_or(SearcherError::Memory(hash_mb))?,
            pool,
            threads,
        })
    }

    /// The number of worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Forgets what earlier searches stored.
    pub fn clear(&self) {
        self.tt.clear();
    }

    /// Makes the table's memory resident, ready for a search (see
    /// [`TranspositionTable::make_resident`]).
    pub fn prepare(&self) {
        self.tt.make_resident();
    }

    /// [`Searcher::prepare`] when the table is at most `QUICK_PREPARE_BYTES` (64 MB), which takes
    /// moments; a larger one is brought in by the search as it goes.
    pub fn prepare_if_quick(&self) {
        if self.tt.bytes() <= QUICK_PREPARE_BYTES {
            self.prepare();
        }
    }

    /// Searches `pos` to `limits`, calling `on_report` after each iteration; ends early when
    /// `stop` is set.
    pub fn search<P: Evaluate>(
        &self,
        pos: &P,
        limits: &Limits,
        stop: &AtomicBool,
        on_report: &mut (dyn FnMut(&Report) + Send),
    ) -> SearchResult {
        self.search_or_ponder(pos, limits, stop, None, on_report)
    }

    /// [`Searcher::search`], or with `ponder`, ponders `pos`, the position after the move the
    /// opponent is predicted to play: searches it to `limits`, but with no time limit until the
    /// hit says the prediction came true; from then on the clock runs as for a search started at
    /// that moment, whose head start is the pondering done. The caller sets `stop` when the
    /// opponent played another move. Depth and node limits, and the end of the game, end it at
    /// any time.
    pub fn search_or_ponder<P: Evaluate>(
        &self,
        pos: &P,
        limits: &Limits,
        stop: &AtomicBool,
        ponder: Option<&PonderHit>,
        on_report: &mut (dyn FnMut(&Report) + Send),
    ) -> SearchResult {
        match &self.pool {
            Some(pool) => pool.install(|| self.run(pos, limits, stop, ponder, on_report)),
            None => self.run(pos, limits, stop, ponder, on_report),
        }
    }

    fn run<P: Evaluate>(
        &self,
        pos: &P,
        limits: &Limits,
        stop: &AtomicBool,
        ponder: Option<&PonderHit>,
        on_report: &mut (dyn FnMut(&Report) + Send),
    ) -> SearchResult {
        let started = Instant::now();
        self.tt.new_search();
        let empties = pos.empty_count();
        let budget = limits::budget(limits, empties);
        let deadline = Deadline {
            started,
            hard: budget.map(|b| b.hard),
            ponder,
        };
        let shared = Shared {
            tt: &self.tt,
            stop,
            nodes: AtomicU64::new(0),
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline,
            limit_hit: std::sync::Mutex::new(None),
            parallel: self.threads > 1,
            selectivity: std::sync::atomic::AtomicU8::new(0),
            midgame_probcut: P::probcut_sigma(alphabeta::MPC_MIDGAME_MIN_DEPTH, 0).is_some()
                && !limits.full_width,
            // With a deadline, the first workers look at the clock soon; they tune it from there.
            flush_every: AtomicU64::new(if budget.is_some() { 1 } else { 1024 }),
        };
        let size = pos.size();
        let mut result = SearchResult {
            best: None,
            ponder: None,
            score: 0,
            depth: 0,
            precision: Precision::Depth,
            pv: Vec::new(),
            nodes: 0,
            time: Duration::ZERO,
            stopped: None,
        };

        let mut legal = pos.legal_moves();
        let restricted = !limits.searchmoves.is_empty();
        if restricted {
            legal.retain(|mv| limits.searchmoves.contains(mv));
        }
        let want_exact = limits.exact || limits.wld;
        // No time at all (a clock all but empty): the move whose position evaluates best, at
        // once (its info line says `time 0` on 8×8); with more than NO_TIME_CHOICES moves the
        // first legal one, without even making the others (on 19×19 Lehto that alone takes
        // milliseconds).
        // (A pondering search has time until its hit, and stops at once after it.)
        let no_time =
            budget.is_some_and(|b| b.hard.is_zero()) && !limits.infinite && ponder.is_none();
        if no_time && (legal.len() > NO_TIME_CHOICES || want_exact) {
            legal.truncate(1);
        }
        let mut roots: Vec<RootMove<P>> = legal
            .into_iter()
            .map(|mv| RootMove {
                mv,
                child: pos.play_unchecked(mv),
                score: -INFINITY,
            })
            .collect();
        if roots.is_empty() {
            if !restricted {
                result.score = pos.final_score() * DISC;
                result.precision = Precision::Exact;
            }
            return result;
        }
        if ((roots.len() == 1 && !restricted) || no_time) && !limits.infinite && !want_exact {
            // A forced move (or a pass) is answered at once, and so is any move with no time
            // (but a move the caller chose alone is searched: it asks for its score).
            let scores: Vec<i32> = roots.iter().map(|r| -r.child.evaluate()).collect();
            let best = (1..roots.len()).fold(0, |b, i| if scores[i] > scores[b] { i } else { b });
            let chosen = &roots[best];
            result.best = Some(chosen.mv);
            result.score = scores[best];
            result.pv = vec![chosen.mv];
            result.time = started.elapsed();
            on_report(&Report {
                depth: 0,
                precision: Precision::Depth,
                line: 1,
                score: result.score,
                nodes: 0,
                time: result.time,
                pv: result.pv.clone(),
                lower_bound: false,
            });
            return result;
        }
        // Best-looking moves first for the first iteration.
        roots.sort_by_key(|r| -r.child.order_key());

        let timed = budget.is_some() && limits.depth.is_none() && limits.nodes.is_none();
        // The last midgame iteration before the search goes on to the end of the game (it goes
        // there anyway once its depth reaches the end). When asked to solve, depth
        // min(empties, 12) / 2 + 2, which fills the table for the exact search: FFO #40–#49 on
        // one thread took 515.0 M nodes so, against 522.6 M with a cap of 8 instead of 12,
        // 525.6 M with 14 and 538.7 M with 20 (forty-fifth session). After TIMED_SOLVE_DEPTH
        // when bounded by time alone, on the board that rule was measured on, near the end.
        let solve_after = if want_exact {
            Some(empties.min(12) / 2 + 2)
        } else if timed && size == 8 && empties <= TIMED_SOLVE_EMPTIES {
            Some(TIMED_SOLVE_DEPTH)
        } else {
            None
        };
        let max_depth = limits.depth.unwrap_or(u32::MAX);
        let multipv = limits.multipv.max(1).min(roots.len());
        let mut previous_best: Option<Move> = None;
        let mut depth = 0;
        'iterations: loop {
            depth += 1;
            let exact_now = depth >= empties || solve_after.is_some_and(|d| depth > d);
            let precision = if !exact_now {
                Precision::Depth
            } else if limits.wld && !limits.exact {
                Precision::WinLossDraw
            } else {
                Precision::Exact
            };
            // Before an exact search of many empty squares, selective passes of rising
            // confidence fill the table with good moves and narrow the window (see
            // `alphabeta::probcut`); each is reported as it finishes.
            let levels: &[u8] = if !exact_now || empties < SELECTIVE_PASSES_EMPTIES {
                &[0]
            } else if size == 6 {
                &SELECTIVE_PASSES_6X6
            } else {
                &SELECTIVE_PASSES
            };
            let mut done = false;
            for &level in levels {
                shared.selectivity.store(level, Relaxed);
                let (searched, reported) = if level > 0 {
                    let percent = SELECTIVITY_PERCENT[level as usize];
                    (Precision::Exact, Precision::Selective(percent))
                } else {
                    (precision, precision)
                };
                let outcome = {
                    let mut worker = Worker::new(&shared, None);
                    let guess = result.best.map(|_| result.score);
                    let pass = RootPass {
                        depth,
                        precision: searched,
                        multipv,
                        guess,
                        prepares_exact: want_exact,
                    };
                    search_root(&mut worker, &mut roots, &pass)
                };
                done = outcome == Pass::Finished;
                // The depth a pass reports, and to which its principal variation runs.
                let report_depth = if exact_now { empties } else { depth };
                if shared.stopped() && result.best.is_some() {
                    if outcome == Pass::StoppedAfterABetterMove {
                        // The unfinished iteration (or endgame pass) proved another move better
                        // than the last one's best (as chess engines keep a stopped iteration's
                        // new best move): it is played, its score a lower bound.
                        let best = &roots[0];
                        log::debug!(
                            "depth {depth} stopped: {:?} proved better than {:?}",
                            best.mv,
                            result.best
                        );
                        result.best = Some(best.mv);
                        result.score = if reported == Precision::WinLossDraw {
                            best.score.signum() * DISC
                        } else {
                            best.score
                        };
                        result.pv =
                            principal_variation(&shared, best.mv, &best.child, size, report_depth);
                        result.ponder = result.pv.get(1).copied();
                        // Its own line, so that the last one before `bestmove` is the move's.
                        on_report(&Report {
                            depth: report_depth,
                            precision: reported,
                            line: 1,
                            score: result.score,
                            nodes: shared.nodes.load(Relaxed),
                            time: started.elapsed(),
                            pv: result.pv.clone(),
                            lower_bound: true,
                        });
                    }
                    break 'iterations;
                }
                if !done {
                    // Stopped in the first iteration: the best-looking move, scored by the
                    // evaluation.
                    let first = &mut roots[0];
                    first.score = -first.child.evaluate();
                }
                // A finished iteration (or the first one, however far it got).
                let nodes = shared.nodes.load(Relaxed);
                // A win/loss/draw search knows only the sign (its bounds are disc counts):
                // reported as +1, 0 or -1 disc.
                let shown = |score: i32| {
                    if reported == Precision::WinLossDraw {
                        score.signum() * DISC
                    } else {
                        score
                    }
                };
                let best = &roots[0];
                result.best = Some(best.mv);
                result.score = shown(best.score);
                result.depth = report_depth;
                result.precision = reported;
                result.pv = principal_variation(&shared, best.mv, &best.child, size, report_depth);
                result.ponder = result.pv.get(1).copied();
                // A stopped first iteration leaves moves it never reached unscored: not reported.
                let scored = roots
                    .iter()
                    .take(multipv)
                    .enumerate()
                    .filter(|(line, r)| *line == 0 || r.score > -INFINITY);
                for (line, root) in scored {
                    on_report(&Report {
                        depth: report_depth,
                        precision: reported,
                        line: line + 1,
                        score: shown(root.score),
                        nodes,
                        time: started.elapsed(),
                        pv: principal_variation(&shared, root.mv, &root.child, size, report_depth),
                        lower_bound: false,
                    });
                }
                if !done {
                    break;
                }
            }
            let best = &roots[0];
            if !done || exact_now || depth >= max_depth {
                break;
            }
            if let Some(b) = budget
                && !b.spend_all
                && let Some(charged) = shared.deadline.charged()
            {
                // The next iteration takes a few times longer than this one: don't start what
                // cannot finish. An unsettled best move earns more time. The time so far stands
                // for the next iteration's, added to the time charged to the clock: the same
                // when the clock ran from the start, and once a pondering search's hit came, the
                // pondering done counts towards the next iteration but not against the clock
                // (before the hit, nothing stops the iterations but their limits).
                let unsettled = previous_best.is_some_and(|m| m != best.mv);
                let soft = if unsettled { b.soft * 2 } else { b.soft };
                if started.elapsed() + charged > soft.min(b.hard) {
                    break;
                }
            }
            previous_best = Some(best.mv);
        }
        result.nodes = shared.nodes.load(std::sync::atomic::Ordering::Relaxed);
        result.time = started.elapsed();
        result.stopped = if shared.stopped() {
            Some(
                shared
                    .limit_hit
                    .lock()
                    .ok()
                    .and_then(|h| *h)
                    .unwrap_or(StopReason::User),
            )
        } else {
            None
        };
        result
    }
}

/// The largest table a search brings into memory before its clock starts
/// ([`Searcher::prepare_if_quick`]): 64 MB, the default, takes tens of milliseconds; 1 GB took
/// 2.7 s and 4 GB 8.6 s (`setoption hash=N`, `isready`), which a search must not add to a clock.
const QUICK_PREPARE_BYTES: usize = 64 << 20;

/// A search bounded by time alone (`movetime`, a clock) on 8×8 with at most this many empty
/// squares stops deepening its midgame iterations after depth [`TIMED_SOLVE_DEPTH`] and goes on
/// to the end: the endgame's selective passes, then the exact search, as far as the time allows
/// (a stopped pass leaves the last finished one's move, as ever); Edax's levels and NTest's depths
/// likewise solve, selectively first, from a number of empties well beyond their midgame depth's
/// reach. At 19–24 empties and 65 ms a move (1 thread), on
/// 560 positions whose every move was solved exactly (160 from games against NTest, 400 from the
/// held-out self-play games-055000), the moves played lost 5 game points (a win turned into a
/// draw counts half) and 0.40 discs a move, against 11 points and 0.48 discs when the midgame
/// iterations went on until the time ran out (they reach depth 15–17 there, which the end lies
/// beyond); NTest at depth 14 (win/loss/draw solves from about 21 empties, taking up to 0.7 s)
/// lost none of the 160 of its games. Solving from 22 empties instead lost 9 points; after depth
/// 11 or 13, 5 and 6; a win/loss/draw solve instead of the exact one, as many points and 0.70
/// discs a move (`scripts/endgame-choices.py`). Matches are in weights/README.md (tenth session).
const TIMED_SOLVE_EMPTIES: u32 = 24;

/// The midgame depth a timed search reaches before it solves (see [`TIMED_SOLVE_EMPTIES`]).
const TIMED_SOLVE_DEPTH: u32 = 12;

/// With no time at all, the most moves whose positions are all evaluated to choose one; with
/// more, the first legal move is played.
const NO_TIME_CHOICES: usize = 64;

/// Exact searches of at least this many empty squares are preceded by selective passes.
const SELECTIVE_PASSES_EMPTIES: u32 = 18;

/// The selectivity levels of those passes, then the exact search (level 0).
/// A fifth pass at 99% (t = 3.3, Edax's last selective level) before the exact one: on 1 thread
/// FFO #40–#49 took 1% fewer nodes (582.5 M → 576.4 M), but #50–#57 7.8% more (16.49 G →
/// 17.78 G; #54 3.24 G → 3.80 G, #55 8.77 G → 9.31 G): the exact pass gains less from it than the
/// pass costs.
/// Only the 95% and 98% passes (levels 2, 4, then exact; forty-first session, 1 thread, 64 MB,
/// side by side): FFO #40–#59 in 16.24 G nodes against 16.41 G, −1%, within the scatter of
/// positions (#42 and #46 16–17% more, #53 and #57 14% fewer). On #55 the four passes take 9.4%
/// of the nodes (0.68 G of 7.21 G) and the exact one the rest, so no schedule of passes can take
/// much from the total.
const SELECTIVE_PASSES: [u8; 5] = [1, 2, 3, 4, 0];

/// On 6×6 the passes of levels 3 and 4 cost more than they save: they often end on a wrong score
/// (the 95% pass said −2 where the others and the exact search said 0 or −4, on three positions of
/// 26 to 30 empty squares), and the exact search took 12% to 43% fewer nodes without them. On
/// 8×8 (FFO #40–#49) it took 6% more.
const SELECTIVE_PASSES_6X6: [u8; 3] = [1, 2, 0];

/// One pass over the root moves.
struct RootPass {
    /// The depth of a midgame pass.
    depth: u32,
    /// Midgame, exact or win/loss/draw.
    precision: Precision,
    /// How many moves get exact scores.
    multipv: usize,
    /// The score of the last pass, for the aspiration window.
    guess: Option<i32>,
    /// Whether the search goes on to an exact (or win/loss/draw) solve, which this midgame pass
    /// prepares.
    prepares_exact: bool,
}

/// How a pass over the root moves ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pass {
    /// Every move searched: the roots sorted best first, with their scores.
    Finished,
    /// Stopped: the roots as they were.
    Stopped,
    /// Stopped after the first move got its score in the window and a later one proved better:
    /// that one first, its score the bound it proved.
    StoppedAfterABetterMove,
}

/// Searches every root move as `pass` says (to its depth, or exactly), sorting them best first.
/// The first `multipv` moves get exact scores; the others are only known to be worse.
fn search_root<P: Evaluate>(w: &mut Worker, roots: &mut [RootMove<P>], pass: &RootPass) -> Pass {
    let &RootPass {
        depth,
        precision,
        multipv,
        guess,
        prepares_exact,
    } = pass;
    // Aspiration: a window around the last score, widened when the score falls outside it (in
    // exact searches ±1 disc around the last one: on even boards, whose scores are even, that
    // only asks whether the selective passes' score is exact. On FFO #40–#49, ±2 took 19% fewer
    // nodes than the full window, and ±1 5% fewer again, once the last empties were searched
    // fastest first). An odd score there, a selective pass's ProbCut bound, is no final score
    // and the window fails low or high for certain; a window of ±2 around it, holding the two
    // even scores beside it, took 4.7% more nodes on the 6×6 start than failing and widening.
    let (mut low, mut high) = match guess {
        Some(g) if depth >= 4 && precision == Precision::Depth && multipv == 1 => (g - 60, g + 60),
        Some(g) if precision == Precision::Exact && multipv == 1 => {
            let g = (g + DISC / 2).div_euclid(DISC);
            ((g - 1) * DISC, (g + 1) * DISC)
        }
        _ => (-INFINITY, INFINITY),
    };
    if precision == Precision::WinLossDraw {
        (low, high) = (-DISC, DISC);
    }
    // Root moves leading to mirror images of an earlier one's position share its score unsearched.
    let twins: Vec<Option<usize>> = roots
        .iter()
        .enumerate()
        .map(|(i, r)| {
            roots[..i]
                .iter()
                .position(|e| is_mirror_image(&e.child, &r.child))
        })
        .collect();
    // A root move's score (in the root's view) in the window (a, b).
    let search_move = |w: &mut Worker, child: &P, a: i32, b: i32| match precision {
        Precision::Depth => -midgame(w, child, depth as i32 - 1, -b, -a),
        _ => {
            let (a, b) = (a.div_euclid(DISC), -(-b).div_euclid(DISC));
            -endgame(w, child, -b, -a) * DISC
        }
    };
    // The moves after the first are shared out between the threads, each taking the next one
    // (the nodes below split as well): they all have to be proved worse than the first, or found
    // better, so searching them side by side wastes little, where splitting only inside each
    // one's tree searched siblings of cut-offs for nothing. With 2 threads: FFO #55, 3.5% fewer
    // nodes and 6% less time (two runs each); `othel bench --depth 22`, 5% less time.
    let split_root = w.shared.parallel && multipv == 1 && roots.len() > 2;
    let widen = precision != Precision::WinLossDraw;
    // In a midgame iteration, a move at `high` or more ends the pass at once: the window is
    // widened and every move searched again, so the others' null windows above the move's bound
    // would be spent for nothing (`othel bench`: 8.5% fewer nodes). Not in the endgame's passes,
    // where those searches fill the table for the passes that follow: breaking off there took
    // 15% more nodes on FFO #55 and 5% more on #56, for 5% fewer on #40–#49 and 6% fewer on #54
    // (1 thread). Nor in the midgame iterations before an exact solve, which prepare its table
    // and root order: breaking there took 3.4% fewer nodes on FFO #40–#49 but 4.9% more on
    // #40–#59 (#55: 9.36 G -> 10.58 G nodes; 1 thread).
    let breaks_on_fail_high = precision == Precision::Depth && !prepares_exact;
    loop {
        // The score that ends the pass (INFINITY, above every score, when it does not break off).
        let beta = if breaks_on_fail_high { high } else { INFINITY };
        // Whether a move proved better than the first is worth playing if the pass stops. In a
        // midgame iteration, only when the first's score lies inside the window. In the
        // endgame's passes also when it fell below it: its true score is then at most that
        // bound, so a move proved above it is better all the same, and those passes (too slow to
        // finish in a timed search's last few moves) most need it. Never when the first's score
        // is a lower bound (at or above the window): it proves nothing.
        let first_settled = move |first: i32| {
            multipv == 1 && first < high && (first > low || precision != Precision::Depth)
        };
        // What a null window above `alpha` proves: a score at least one unit up, a disc in the
        // endgame's passes (their scores are whole discs).
        let proved_step = if precision == Precision::Depth {
            1
        } else {
            DISC
        };
        let fails_high = |score: i32| score >= beta;
        let scores = if split_root {
            let first = search_move(w, &roots[0].child, low, high);
            if w.should_stop() {
                return Pass::Stopped;
            }
            if fails_high(first) {
                vec![first]
            } else {
                let rest = search_rest_in_parallel(
                    w.shared,
                    roots,
                    &twins,
                    first,
                    (low, high, beta, proved_step),
                    &search_move,
                );
                match rest {
                    Ok(all) => all,
                    Err(Some((k, bound))) if first_settled(first) => {
                        return play_first(roots, k, bound);
                    }
                    Err(_) => return Pass::Stopped,
                }
            }
        } else {
            let mut alpha = low;
            let mut scores: Vec<i32> = Vec::with_capacity(roots.len());
            // A move after the first that a finished null window proved better than the first's
            // score in the window, with that bound: worth playing if the search stops now.
            let mut better: Option<(usize, i32)> = None;
            for (i, root) in roots.iter().enumerate() {
                let search = |w: &mut Worker, a: i32, b: i32| search_move(w, &root.child, a, b);
                let score = if let Some(j) = twins[i] {
                    // The same true score: the earlier one's bound holds for this one too.
                    scores[j]
                } else if i < multipv {
                    search(w, low, high)
                } else {
                    let s = search(w, alpha, alpha + 1);
                    let proved = !w.should_stop() && s > alpha;
                    if proved {
                        better = Some((i, alpha + proved_step));
                    }
                    if proved && s < high {
                        search(w, alpha, high)
                    } else {
                        s
                    }
                };
                if w.should_stop() {
                    if let Some((k, bound)) = better
                        && first_settled(scores[0])
                    {
                        return play_first(roots, k, bound);
                    }
                    // Keep what is known: moves searched so far, in their order.
                    return Pass::Stopped;
                }
                scores.push(score);
                if fails_high(score) {
                    break;
                }
                if i + 1 >= multipv {
                    // alpha: the multipv-th best so far, the bar for the moves that follow.
                    let mut best: Vec<i32> = scores.clone();
                    best.sort_unstable_by(|a, b| b.cmp(a));
                    alpha = alpha.max(best[multipv - 1]);
                }
            }
            scores
        };
        let best = scores.iter().copied().max().unwrap_or(-INFINITY);
        if widen && best <= low && low > -INFINITY {
            low = (low - 4 * (high - low)).max(-INFINITY);
            continue;
        }
        if widen && best >= high && high < INFINITY {
            high = (high + 4 * (high - low)).min(INFINITY);
            continue;
        }
        for (root, score) in roots.iter_mut().zip(scores) {
            root.score = score;
        }
        roots.sort_by_key(|r| -r.score);
        return Pass::Finished;
    }
}

/// Puts root move `k`, proved at least `bound`, first (the others keep their order).
fn play_first<P>(roots: &mut [RootMove<P>], k: usize, bound: i32) -> Pass {
    roots[..=k].rotate_right(1);
    roots[0].score = bound;
    Pass::StoppedAfterABetterMove
}

/// The root moves after the first (of `roots`, whose first scored `first`; `twins` their
/// mirror-image twins among the earlier moves) searched side by side
/// ([`alphabeta::share_out`]): each a null window above the shared alpha (from `low`), then the
/// window up to `high` when it fails high; a move at `beta` or more ends the others (those not
/// finished score -INFINITY). Every root move's score in order; when the search was stopped,
/// the root move that a finished null window proved better than all before it, if one did, with
/// the bound it proved.
fn search_rest_in_parallel<P: Evaluate>(
    shared: &Shared,
    roots: &[RootMove<P>],
    twins: &[Option<usize>],
    first: i32,
    (low, high, beta, proved_step): (i32, i32, i32, i32),
    search: &(impl Fn(&mut Worker, &P, i32, i32) -> i32 + Sync),
) -> Result<Vec<i32>, Option<(usize, i32)>> {
    let rest = &roots[1..];
    // The highest bound proved above the shared alpha, and its move.
    let better = std::sync::Mutex::new(None::<(usize, i32)>);
    let (scores, _) =
        alphabeta::share_out(shared, None, rest.len(), low.max(first), beta, |w, i, a| {
            if twins[i + 1].is_some() {
                return None;
            }
            let score = search(w, &rest[i].child, a, a + 1);
            if score > a
                && !w.should_stop()
                && let Ok(mut proved) = better.lock()
                && proved.is_none_or(|(_, bound)| bound <= a)
            {
                *proved = Some((i + 1, a + proved_step));
            }
            if score > a && score < high && !w.should_stop() {
                Some(search(w, &rest[i].child, a, high))
            } else {
                Some(score)
            }
        });
    if shared.stopped() {
        return Err(better.into_inner().ok().flatten());
    }
    let mut out: Vec<i32> = Vec::with_capacity(roots.len());
    out.push(first);
    for (score, twin) in scores.into_iter().zip(&twins[1..]) {
        // A twin shares the score of the earlier move it mirrors.
        out.push(match *twin {
            Some(j) => out[j],
            None => score.unwrap_or(-INFINITY),
        });
    }
    Ok(out)
}

/// The principal variation: the move, then the best replies stored in the table.
fn principal_variation<P: Evaluate>(
    shared: &Shared,
    first: Move,
    after: &P,
    size: usize,
    depth: u32,
) -> Vec<Move> {
    let worker = Worker::new(shared, None);
    let mut pv = vec![first];
    let mut pos = *after;
    while pv.len() < depth.max(1) as usize {
        let Some(mv) = decode(hash_move(&worker, &pos), size) else {
            break;
        };
        match pos.try_play(mv) {
            Ok(next) => {
                pv.push(mv);
                pos = next;
            }
            Err(_) => break,
        }
    }
    pv
}
