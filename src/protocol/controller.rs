//! The controller: owns the game, the options and the searcher; handles one command at a time and
//! never waits for a search, which runs on a thread of its own and prints its own replies.

use super::book_choice::{BookChoice, BookSetting};
use super::command::{Command, GoParams, MAX_MULTIPV, Start, quote};
use super::output::Output;
use super::session::{Session, new_session};
use crate::rules::ggf::GgfRecord;
use crate::rules::notation::ObfLine;
use crate::rules::{BoardKind, Color, Move, Variant};
use crate::search::limits::track_overhead;
use crate::search::{
    Clock, Limits, MAX_HASH_MB, MAX_THREADS, PonderHit, Report, Searcher, format_score,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::thread::JoinHandle;
use std::time::Duration;

/// The engine's options.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Variant and size.
    pub kind: BoardKind,
    /// Search threads.
    pub threads: usize,
    /// Transposition table, MB.
    pub hash_mb: usize,
    /// Lines `go` scores by default.
    pub multipv: usize,
    /// The opening book.
    pub book: BookSetting,
    /// Book moves within this many discs of the best may be played.
    pub bookrandom: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            kind: BoardKind::default(),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            hash_mb: 64,
            multipv: 1,
            book: BookSetting::On,
            bookrandom: 0,
        }
    }
}

/// Bounds of the numeric options.
const MAX_BOOKRANDOM: usize = 64;

/// The time a search took, written by its thread when it ends.
type SearchTime = Arc<std::sync::Mutex<Option<Duration>>>;

/// What the loop does after a command.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// Exit.
    Quit,
}

/// The state behind the protocol.
pub struct Controller {
    out: Arc<Output>,
    options: Options,
    session: Box<dyn Session>,
    searcher: Arc<Searcher>,
    book: BookChoice,
    stop: Arc<AtomicBool>,
    search: Option<JoinHandle<()>>,
    /// Whether the running job is a search (which obeys the stop flag) rather than a perft.
    job_stops: bool,
    /// Whether the running search is `go infinite` or `go ponder`, which only a `stop` (or for
    /// pondering, a `ponderhit`) ends.
    job_infinite: bool,
    /// The hit the running `go ponder` waits for.
    ponder: Option<Arc<PonderHit>>,
    /// Raised by `go`, lowered by the search thread just before it prints `bestmove`, so that a
    /// command sent after `bestmove` is never taken for one sent during the search.
    searching: Arc<AtomicBool>,
    /// The last clocked search: its colour, the time its clock showed, and (written by the
    /// search thread) the time it took; with the next `go` of that colour, the difference is
    /// what a move costs outside the search.
    last_clocked: Option<(Color, Duration, SearchTime)>,
    /// What a move has been seen to cost outside the search (the largest of the recent ones).
    move_overhead: Option<Duration>,
}

impl Controller {
    /// A controller with the default options, replying on `out`; `stop` is the flag the reader
    /// raises on `stop` and `quit`.
    pub fn new(out: Arc<Output>, stop: Arc<AtomicBool>) -> Result<Controller, String> {
        let options = Options::default();
        let searcher =
            Searcher::new(options.threads, options.hash_mb).map_err(|e| e.to_string())?;
        let mut book = BookChoice::default();
        if let Err(e) = book.load(options.book.clone(), options.kind) {
            log::warn!("book {e}; going on without a book");
        }
        Ok(Controller {
            out,
            session: new_session(options.kind),
            options,
            searcher: Arc::new(searcher),
            book,
            stop,
            search: None,
            job_stops: false,
            job_infinite: false,
            ponder: None,
            last_clocked: None,
            move_overhead: None,
            searching: Arc::new(AtomicBool::new(false)),
        })
    }

    fn searching(&self) -> bool {
        self.searching.load(Relaxed)
    }

    /// Waits for the running search, if any, to finish and print its result.
    pub fn finish_search(&mut self) {
        if let Some(handle) = self.search.take() {
            let _ = handle.join();
        }
    }

    /// The end of input: a `go infinite` can no longer be stopped, so it stops now (its `bestmove`
    /// printed); a bounded search or a perft finishes (`printf 'position startpos\ngo depth 14\n'
    /// | othel` must still answer).
    pub fn end_of_input(&mut self) {
        if self.job_stops && self.job_infinite {
            self.stop.store(true, Relaxed);
        }
        self.finish_search();
    }

    /// Ends a running search so that its `bestmove` is printed; a perft, which does not obey the
    /// stop flag, is left to die with the process.
    fn quit(&mut self) {
        self.stop.store(true, Relaxed);
        if self.job_stops {
            self.finish_search();
        }
    }

    fn error(&self, message: impl AsRef<str>) {
        self.out.line(format!("error {}", message.as_ref()));
    }

    /// Handles one command.
    pub fn handle(&mut self, command: Command, line: &str) -> Flow {
        let busy = self.searching();
        match command {
            Command::Othel => self.identify(),
            Command::IsReady => {
                super::ready_for_search(self.session.as_ref(), &self.searcher);
                self.out.line("readyok");
            }
            Command::Stop => self.stop.store(true, Relaxed),
            Command::PonderHit => self.ponder_hit(),
            Command::Quit => {
                self.quit();
                return Flow::Quit;
            }
            Command::NewGame
            | Command::SetOption(_)
            | Command::Position { .. }
            | Command::Play(_)
            | Command::Undo
            | Command::Go(_)
            | Command::Perft(_)
                if busy =>
            {
                self.error(format!(
                    "a search or perft is running (wait for its result, or send stop): {}",
                    quote(line)
                ))
            }
            Command::NewGame => {
                self.searcher.clear();
                self.session = new_session(self.options.kind);
                super::ready_for_search(self.session.as_ref(), &self.searcher);
            }
            Command::SetOption(pairs) => {
                if let Err(e) = self.set_options(&pairs) {
                    self.error(format!("{e}: {}", quote(line)));
                }
            }
            Command::Position { start, moves } => self.set_position(start, &moves, line),
            Command::Moves => self.moves(),
            Command::Board => self
                .out
                .line(format!("board {}", self.session.board_string())),
            Command::Diagram => self.out.block(&self.session.diagram()),
            Command::Play(mv) => {
                if let Err(e) = self.session.play(mv) {
                    self.error(format!("{e}: {}", quote(line)));
                }
            }
            Command::Undo => {
                if self.session.undo().is_none() {
                    self.error("nothing to undo: the game is at its start");
                }
            }
            Command::Go(params) => self.go(&params),
            Command::Eval => self.eval(),
            Command::Help => {
                for line in super::command::HELP {
                    self.out.line(format!("help {line}"));
                }
            }
            Command::Perft(depth) => self.perft(depth),
        }
        Flow::Continue
    }

    /// `othel`: who the engine is and its options, each with its default (not its current value,
    /// which `setoption` may have changed).
    fn identify(&self) {
        let o = &Options::default();
        let lines = [
            format!("id name othel {}", env!("CARGO_PKG_VERSION")),
            "id author the othel developers".to_string(),
            format!(
                "option name variant type combo default {} values othello lehto",
                o.kind.variant()
            ),
            format!(
                "option name size type spin default {} min 4 max 19",
                o.kind.size()
            ),
            format!(
                "option name threads type spin default {} min 1 max {MAX_THREADS}",
                o.threads
            ),
            format!(
                "option name hash type spin default {} min 1 max {MAX_HASH_MB}",
                o.hash_mb
            ),
            format!(
                "option name multipv type spin default {} min 1 max {MAX_MULTIPV}",
                o.multipv
            ),
            format!("option name book type string default {}", o.book),
            format!(
                "option name bookrandom type spin default {} min 0 max {MAX_BOOKRANDOM}",
                o.bookrandom
            ),
            "othelok".to_string(),
        ];
        for line in lines {
            self.out.line(line);
        }
    }

    /// Applies every pair, or none of them.
    fn set_options(&mut self, pairs: &[(String, String)]) -> Result<(), String> {
        let mut next = self.options.clone();
        let mut size_given = None;
        let mut variant_given = None;
        for (name, value) in pairs {
            let number = |max: usize| -> Result<usize, String> {
                match value.parse::<usize>() {
                    Ok(n) if (1..=max).contains(&n) => Ok(n),
                    _ => Err(format!(
                        "{name} takes a whole number from 1 to {max}: '{value}'"
                    )),
                }
            };
            let result = match name.as_str() {
                "variant" => value
                    .parse::<Variant>()
                    .map(|v| variant_given = Some(v))
                    .map_err(|e| e.to_string()),
                "size" => value
                    .parse::<usize>()
                    .map(|s| size_given = Some(s))
                    .map_err(|_| {
                        format!(
                            "size takes a whole number from 4 to 19 (even: Othello, odd: Lehto): {}",
                            quote(value)
                        )
                    }),
                "threads" => number(MAX_THREADS).map(|n| next.threads = n),
                "hash" => number(MAX_HASH_MB).map(|n| next.hash_mb = n),
                "multipv" => number(MAX_MULTIPV).map(|n| next.multipv = n),
                "book" if !value.is_empty() => {
                    next.book = BookSetting::parse(value);
                    Ok(())
                }
                "bookrandom" => match value.parse::<usize>() {
                    Ok(n) if n <= MAX_BOOKRANDOM => {
                        next.bookrandom = n;
                        Ok(())
                    }
                    _ => Err(format!(
                        "bookrandom takes discs from 0 to {MAX_BOOKRANDOM}: '{value}'"
                    )),
                },
                _ => Err(format!("unknown option '{name}'")),
            };
            result?;
        }
        if variant_given.is_some() || size_given.is_some() {
            let variant = variant_given.unwrap_or(next.kind.variant());
            let size = size_given.unwrap_or(if variant_given.is_some() {
                variant.default_size()
            } else {
                next.kind.size()
            });
            next.kind = BoardKind::new(variant, size).map_err(|e| e.to_string())?;
        }
        if next.threads != self.options.threads || next.hash_mb != self.options.hash_mb {
            let started = std::time::Instant::now();
            let searcher = Searcher::new(next.threads, next.hash_mb).map_err(|e| e.to_string())?;
            self.searcher = Arc::new(searcher);
            // A large table takes seconds to clear: say so, rather than seem to hang.
            let took = started.elapsed();
            if took >= Duration::from_millis(250) {
                self.out.line(format!(
                    "info string hash {} MB and {} threads ready in {:.2} s",
                    next.hash_mb,
                    next.threads,
                    took.as_secs_f64()
                ));
            }
        }
        if next.kind != self.options.kind {
            self.session = new_session(next.kind);
        }
        let book_changed = next.book != self.options.book;
        self.book.window = next.bookrandom as i32 * crate::eval::DISC;
        let kind = next.kind;
        self.options = next;
        if book_changed {
            // A book that cannot be read leaves the engine without one (the other options stay).
            self.book
                .load(self.options.book.clone(), kind)
                .map_err(|e| format!("book {e}; going on without a book"))?;
        } else {
            self.book.follow_kind(kind);
        }
        Ok(())
    }

    fn set_position(&mut self, start: Start, moves: &[Move], line: &str) {
        let result = match start {
            Start::StartPos => {
                let mut session = new_session(self.options.kind);
                session
                    .set(None, moves)
                    .map(|_| session)
                    .map_err(|e| e.to_string())
            }
            Start::Board(text) => match text.parse::<ObfLine>().map(|obf| obf.setup) {
                Ok(setup) => {
                    let mut session = new_session(setup.kind());
                    session
                        .set(Some(&setup), moves)
                        .map(|_| session)
                        .map_err(|e| e.to_string())
                }
                Err(e) => Err(e.to_string()),
            },
            Start::Ggf(text) => match text.parse::<GgfRecord>() {
                Ok(record) => {
                    let mut session = new_session(record.kind());
                    session
                        .set_ggf(&record)
                        .map(|_| session)
                        .map_err(|e| e.to_string())
                }
                Err(e) => Err(e.to_string()),
            },
        };
        match result {
            Ok(session) => {
                self.options.kind = session.kind();
                self.book.follow_kind(session.kind());
                self.session = session;
            }
            Err(e) => self.error(format!("{e}: {}", quote(line))),
        }
    }

    fn moves(&self) {
        let moves = self.session.legal_moves();
        if moves.is_empty() {
            self.out.line("moves none");
        } else {
            let list: Vec<String> = moves.iter().map(Move::to_string).collect();
            self.out.line(format!("moves {}", list.join(" ")));
        }
    }

    fn eval(&self) {
        let terms = self.session.eval_terms();
        let total: i32 = terms.iter().map(|t| t.value).sum();
        let mut text = format!("eval {}", format_score(total));
        for t in terms {
            text.push_str(&format!(
                " {} {}",
                t.name.replace(' ', "_"),
                format_score(t.value)
            ));
        }
        self.out.line(text);
    }

    fn limits(&self, go: &GoParams) -> Limits {
        let ms = Duration::from_millis;
        let (time, inc) = match self.session.side_to_move() {
            Color::Black => (go.btime, go.binc),
            Color::White => (go.wtime, go.winc),
        };
        Limits {
            depth: go.depth,
            nodes: go.nodes,
            movetime: go.movetime.map(ms),
            clock: time.map(|t| Clock {
                time_left: ms(t),
                increment: ms(inc.unwrap_or(0)),
                moves_to_go: go.movestogo,
                move_overhead: self.move_overhead,
            }),
            infinite: go.infinite,
            exact: go.exact,
            wld: go.wld,
            multipv: go.multipv.unwrap_or(self.options.multipv).max(1),
            full_width: go.full_width,
            searchmoves: go.searchmoves.clone(),
        }
    }

    /// Learns what the last move of this colour cost outside its search, from the clock now.
    fn measure_overhead(&mut self, params: &GoParams) {
        let color = self.session.side_to_move();
        let (time, inc) = match color {
            Color::Black => (params.btime, params.binc),
            Color::White => (params.wtime, params.winc),
        };
        let Some(now) = time.map(Duration::from_millis) else {
            return;
        };
        let increment = Duration::from_millis(inc.unwrap_or(0));
        if let Some((last_color, before, took)) = self.last_clocked.take()
            && last_color == color
            && let Some(searched) = took.lock().ok().and_then(|t| *t)
        {
            // The clock fell by (before + increment − now); the search took `searched`.
            let spent = (before + increment).saturating_sub(now);
            self.move_overhead = Some(track_overhead(
                self.move_overhead,
                spent.saturating_sub(searched),
            ));
        }
        let took = Arc::new(std::sync::Mutex::new(None));
        self.last_clocked = Some((color, now, took));
    }

    /// `ponderhit`: the running `go ponder`'s clock starts.
    fn ponder_hit(&mut self) {
        match &self.ponder {
            Some(hit) if self.searching() => {
                if !hit.hit() {
                    self.error("ponderhit: this search's ponderhit came already");
                }
            }
            _ => self.error("ponderhit: no go ponder is running"),
        }
    }

    fn go(&mut self, params: &GoParams) {
        let legal = self.session.legal_moves();
        if let Some(bad) = params.searchmoves.iter().find(|mv| !legal.contains(mv)) {
            self.error(format!("go searchmoves: {bad} is not a legal move here"));
            return;
        }
        self.measure_overhead(params);
        self.ponder = None;
        if self.session.is_over() {
            self.out.line("bestmove none");
            return;
        }
        let limits = self.limits(params);
        let ponder = params.ponder.then(|| Arc::new(PonderHit::new()));
        let stop = Arc::clone(&self.stop);
        let took = self
            .last_clocked
            .as_ref()
            .filter(|_| limits.clock.is_some())
            .map(|(_, _, took)| Arc::clone(took));
        if !(limits.exact || limits.wld || limits.infinite || !limits.searchmoves.is_empty())
            && let Some(book_move) = self.book.choose(self.session.as_ref())
        {
            // A book move is answered at once; when pondering, at the hit.
            let lines = [
                format!(
                    "info depth 0 book score {} pv {}",
                    format_score(book_move.score),
                    book_move.mv
                ),
                format!("bestmove {}", book_move.mv),
            ];
            let Some(hit) = ponder else {
                for line in lines {
                    self.out.line(line);
                }
                return;
            };
            self.ponder = Some(Arc::clone(&hit));
            self.start_job("othel-go", true, move |out| {
                let charged = wait_for_hit(&hit, &stop);
                record_time(took, charged);
                let [info, bestmove] = lines;
                out.line(info);
                bestmove
            });
            self.job_infinite = true;
            return;
        }
        let session = self.session.boxed_clone();
        let searcher = Arc::clone(&self.searcher);
        let infinite = limits.infinite || ponder.is_some();
        self.ponder = ponder.clone();
        self.start_job("othel-go", true, move |out| {
            let multipv = limits.multipv > 1;
            let report_out = Arc::clone(out);
            let mut on_report = move |r: &Report| {
                if multipv {
                    report_out.line(format!("info multipv {} {r}", r.line));
                } else {
                    report_out.line(format!("info {r}"));
                }
            };
            // The search's clock starts once it is ready, `isready` or not.
            let readied = super::ready_before_clock(session.as_ref(), &searcher);
            let hit = ponder.as_deref();
            let result = session.search_or_ponder(&searcher, &limits, &stop, hit, &mut on_report);
            let charged = match hit {
                None => Some(result.time + readied),
                // Its bestmove waits for the hit (or a stop), however soon it finished.
                Some(hit) => wait_for_hit(hit, &stop),
            };
            record_time(took, charged);
            match (result.best, result.ponder) {
                (None, _) => "bestmove none".to_string(),
                (Some(best), Some(ponder)) => format!("bestmove {best} ponder {ponder}"),
                (Some(best), None) => format!("bestmove {best}"),
            }
        });
        self.job_infinite = infinite;
    }

    fn perft(&mut self, depth: u32) {
        self.ponder = None;
        let session = self.session.boxed_clone();
        let threads = self.options.threads;
        self.start_job("othel-perft", false, move |_| {
            session.perft(depth, threads).to_string()
        });
        self.job_infinite = false;
    }

    /// Runs `job` (a search or a perft) on a thread of its own: it may print lines as it goes and
    /// returns its last line, printed once the controller counts it as finished. Meanwhile the
    /// controller goes on answering. `stops`: whether the job obeys the stop flag.
    fn start_job(
        &mut self,
        name: &str,
        stops: bool,
        job: impl FnOnce(&Arc<Output>) -> String + Send + 'static,
    ) {
        self.finish_search();
        self.job_stops = stops;
        self.stop.store(false, Relaxed);
        let out = Arc::clone(&self.out);
        let searching = Arc::clone(&self.searching);
        searching.store(true, Relaxed);
        let spawned = std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                let last = job(&out);
                searching.store(false, Relaxed);
                out.line(last);
            });
        match spawned {
            Ok(handle) => self.search = Some(handle),
            Err(e) => {
                self.searching.store(false, Relaxed);
                self.error(format!("cannot start a thread: {e}"))
            }
        }
    }
}

/// Waits until `hit` comes or `stop` is raised; returns the time since the hit, the time the
/// front end's clock charged to the move (`None` without a hit).
fn wait_for_hit(hit: &PonderHit, stop: &AtomicBool) -> Option<Duration> {
    while hit.when().is_none() && !stop.load(Relaxed) {
        std::thread::sleep(Duration::from_millis(1));
    }
    hit.when().map(|t| t.elapsed())
}

/// Writes what a clocked move took to the slot its `go` left for it.
fn record_time(slot: Option<SearchTime>, took: Option<Duration>) {
    if let Some(slot) = slot
        && let Ok(mut slot) = slot.lock()
    {
        *slot = took;
    }
}
