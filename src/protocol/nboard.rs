//! The NBoard protocol, version 2 (version 1 accepted): what the NBoard GUI and the tools built on
//! it speak (the specification is instructions/Protocol.htm in the NTest repository).
//!
//! As in the engine's own protocol, a reader thread only reads lines; the [`NboardEngine`] on the
//! main thread handles them in order and runs searches on a thread of their own. Commands that
//! arrive during a search wait for it, except `ping`, which stops it (and everything queued before
//! the ping) before answering `pong`, and `quit`, which exits at once. Lines it does not
//! understand are ignored, as the protocol asks, and logged to stderr.

use super::book_choice::BookChoice;
use super::output::Output;
use super::session::{Session, new_session};
use crate::rules::ggf::GgfRecord;
use crate::rules::{BoardKind, Color, Move};
use crate::search::{Clock, Limits, Precision, Report, Searcher};
use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum NboardCommand {
    /// `nboard N`: the protocol version.
    Nboard(u32),
    /// `set depth N`
    SetDepth(u32),
    /// `set game GGF`
    SetGame(String),
    /// `set contempt N`: draws are worth N centi-discs to black.
    SetContempt(i32),
    /// `move MV[/EVAL[/TIME]]`, or a bare move (version 1).
    Move {
        /// The move.
        mv: Move,
        /// The seconds it took, if given.
        seconds: Option<f64>,
    },
    /// `hint N`
    Hint(usize),
    /// `go`
    Go,
    /// `ping N`
    Ping(String),
    /// `learn`
    Learn,
    /// `analyze`
    Analyze,
    /// `quit`
    Quit,
}

/// Reads one line; `Err` says why it is not understood.
pub fn parse(line: &str) -> Result<NboardCommand, String> {
    let mut words = line.split_whitespace();
    let word = words.next().unwrap_or("");
    let rest: Vec<&str> = words.collect();
    let number = |what: &str| -> Result<i64, String> {
        match rest.as_slice() {
            [n] => n
                .parse::<i64>()
                .map_err(|_| format!("{what} takes a whole number: '{line}'")),
            _ => Err(format!("{what} takes one number: '{line}'")),
        }
    };
    let command = match word {
        "nboard" => NboardCommand::Nboard(number("nboard")?.clamp(0, 1000) as u32),
        "set" => match rest.first().copied() {
            Some("depth") => match rest.get(1).map(|d| d.parse::<u32>()) {
                Some(Ok(d)) if rest.len() == 2 && (1..=64).contains(&d) => {
                    NboardCommand::SetDepth(d)
                }
                _ => return Err(format!("set depth takes a depth from 1 to 64: '{line}'")),
            },
            Some("contempt") => match rest.get(1).map(|c| c.parse::<f64>()) {
                Some(Ok(c)) if rest.len() == 2 && c.is_finite() && c.abs() <= 6400.0 => {
                    NboardCommand::SetContempt(c.round() as i32)
                }
                _ => return Err(format!("set contempt takes centi-discs: '{line}'")),
            },
            Some("game") => {
                let ggf = line.trim_start()["set".len()..].trim_start()["game".len()..].trim();
                NboardCommand::SetGame(ggf.to_string())
            }
            _ => return Err(format!("unknown setting: '{line}'")),
        },
        "move" => match rest.as_slice() {
            [annotated] => annotated_move(annotated)?,
            _ => return Err(format!("move takes one move: '{line}'")),
        },
        "hint" => NboardCommand::Hint(number("hint")?.clamp(1, 64) as usize),
        "go" if rest.is_empty() => NboardCommand::Go,
        "ping" => match rest.as_slice() {
            [n] => NboardCommand::Ping(n.to_string()),
            _ => return Err(format!("ping takes one number: '{line}'")),
        },
        "learn" if rest.is_empty() => NboardCommand::Learn,
        "analyze" if rest.is_empty() => NboardCommand::Analyze,
        "quit" => NboardCommand::Quit,
        // Version 1 sends a bare move.
        _ if rest.is_empty() && word.len() == 2 => annotated_move(word)?,
        _ => return Err(format!("unknown command: '{line}'")),
    };
    Ok(command)
}

/// `F5`, `F5/1.25` or `F5/1.25/0.3` (an empty eval allowed: `F5//0.3`).
fn annotated_move(text: &str) -> Result<NboardCommand, String> {
    let mut parts = text.split('/');
    let mv = parts
        .next()
        .unwrap_or("")
        .parse::<Move>()
        .map_err(|e| format!("bad move '{text}': {e}"))?;
    let _eval = parts.next();
    let seconds = match parts.next() {
        None | Some("") => None,
        Some(t) => Some(
            t.parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .ok_or_else(|| format!("bad time in '{text}'"))?,
        ),
    };
    if parts.next().is_some() {
        return Err(format!("bad move '{text}'"));
    }
    Ok(NboardCommand::Move { mv, seconds })
}

/// A principal variation as NBoard wants it: moves run together, black's in capitals and white's
/// in small letters (`F5d6C3`), a pass as `PA`.
pub fn pv_text(pv: &[Move], first: Color) -> String {
    let mut out = String::new();
    let mut mover = first;
    for mv in pv {
        let text = match mv {
            Move::Pass => "pa".to_string(),
            other => other.to_string(),
        };
        match mover {
            Color::Black => out.push_str(&text.to_ascii_uppercase()),
            Color::White => out.push_str(&text),
        }
        mover = mover.opposite();
    }
    out
}

/// A score in centi-discs as NBoard shows it: discs with two decimals.
fn eval_text(centidiscs: i32) -> String {
    format!("{:.2}", centidiscs as f64 / 100.0)
}

/// The depth field: plies, `100%` when exact, `100%W` when win/loss/draw only, `24@87%` for a
/// selective pass to the end.
fn depth_text(report: &Report) -> String {
    match report.precision {
        Precision::Depth => report.depth.to_string(),
        Precision::Exact => "100%".to_string(),
        Precision::WinLossDraw => "100%W".to_string(),
        Precision::Selective(percent) => format!("{}@{percent}%", report.depth),
    }
}

/// A game clock read from a GGF `TI` property: main time and increment, in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameClock {
    /// Main time.
    pub main: f64,
    /// Added per move.
    pub increment: f64,
}

/// Reads `TI[15:00]`, `TI[1:00:00]`, `TI[5:00/10]` or GGS's `TI[05:00//02:00]` (main time,
/// increment, extension; the extension is added to the main time).
pub fn parse_clock(text: &str) -> Option<GameClock> {
    fn seconds(t: &str) -> Option<f64> {
        let mut total = 0.0;
        for part in t.split(':') {
            let v: f64 = part.trim().parse().ok()?;
            if !v.is_finite() || v < 0.0 {
                return None;
            }
            total = total * 60.0 + v;
        }
        Some(total)
    }
    let mut fields = text.split('/');
    let main = seconds(fields.next()?)?;
    let increment = match fields.next() {
        None | Some("") => 0.0,
        Some(t) => seconds(t)?,
    };
    let extension = match fields.next() {
        None | Some("") => 0.0,
        Some(t) => seconds(t)?,
    };
    (main + extension > 0.0).then_some(GameClock {
        main: main + extension,
        increment,
    })
}

/// What the reader and the search thread send the engine's loop.
enum Message {
    Line(String),
    SearchDone,
    EndOfInput,
}

/// The NBoard engine: the game, its clock, the depth and the searcher.
pub struct NboardEngine {
    out: Arc<Output>,
    session: Box<dyn Session>,
    /// Seconds each move of the game took, by the colour that made it.
    move_times: Vec<(Color, f64)>,
    clock: Option<GameClock>,
    /// The midgame depth (`set depth` or the command line); `None`: by time (see
    /// [`Limits::playing`]).
    depth: Option<u32>,
    contempt: i32,
    searcher: Arc<Searcher>,
    book: BookChoice,
    stop: Arc<AtomicBool>,
    /// The seconds the last `go` searched (written by its thread), to learn from the record
    /// what a move costs outside the search.
    searched: Arc<std::sync::Mutex<Option<f64>>>,
    /// What a move has been seen to cost outside the search.
    move_overhead: Option<Duration>,
    /// When the input ended (the GUI has gone): searches may run until a grace after it.
    input_end: Arc<super::InputEnd>,
    search: Option<JoinHandle<()>>,
    pending: VecDeque<String>,
    to_loop: mpsc::Sender<Message>,
}

/// Runs NBoard mode on `input` until `quit` or the end of input; `first` is a line already read.
pub fn run(
    first: Option<String>,
    input: impl BufRead + Send + 'static,
    out: Arc<Output>,
    searcher: Searcher,
    depth: Option<u32>,
    book: BookChoice,
) -> i32 {
    let (sender, receiver) = mpsc::channel();
    let reader_sender = sender.clone();
    let reader = std::thread::Builder::new()
        .name("othel-reader".into())
        .spawn(move || {
            let mut input = input;
            while let Some(line) = super::read_line(&mut input) {
                if line.split_whitespace().next() == Some("quit") {
                    std::process::exit(0);
                }
                if reader_sender.send(Message::Line(line)).is_err() {
                    return;
                }
            }
            let _ = reader_sender.send(Message::EndOfInput);
        });
    if let Err(e) = reader {
        log::error!("cannot start the input reader: {e}");
        return 1;
    }
    let mut engine = NboardEngine {
        out,
        session: new_session(BoardKind::default()),
        move_times: Vec::new(),
        clock: None,
        depth,
        contempt: 0,
        searcher: Arc::new(searcher),
        book,
        stop: Arc::new(AtomicBool::new(false)),
        searched: Arc::new(std::sync::Mutex::new(None)),
        move_overhead: None,
        input_end: Arc::new(super::InputEnd::default()),
        search: None,
        pending: VecDeque::new(),
        to_loop: sender,
    };
    if let Some(line) = first {
        engine.receive(line);
    }
    for message in receiver {
        match message {
            Message::Line(line) => engine.receive(line),
            Message::SearchDone => engine.search_done(),
            Message::EndOfInput => {
                // The GUI has gone: the running search and the queued ones get a grace, then
                // stop (a move is still written).
                engine.input_end.mark();
                let input_end = Arc::clone(&engine.input_end);
                let stop = Arc::clone(&engine.stop);
                let _ = std::thread::Builder::new()
                    .name("othel-input-end".into())
                    .spawn(move || input_end.ended(&stop));
                engine.finish_all();
                return 0;
            }
        }
    }
    0
}

impl NboardEngine {
    fn busy(&self) -> bool {
        self.search.is_some()
    }

    /// A line from the GUI: handled now, or queued behind the running search.
    fn receive(&mut self, line: String) {
        let is_ping = line.split_whitespace().next() == Some("ping");
        if is_ping {
            // Everything before the ping is done (its searches stopped at once) before the pong.
            self.stop_all();
            self.handle(&line);
        } else if self.busy() {
            self.pending.push_back(line);
        } else {
            self.handle(&line);
        }
    }

    /// The search thread has finished: join it and go on with the queued lines.
    fn search_done(&mut self) {
        if let Some(handle) = self.search.take() {
            let _ = handle.join();
        }
        while !self.busy() {
            let Some(line) = self.pending.pop_front() else {
                break;
            };
            self.handle(&line);
        }
    }

    /// Stops the running search and every queued one, handling the queued lines in order.
    fn stop_all(&mut self) {
        loop {
            if let Some(handle) = self.search.take() {
                self.stop.store(true, Relaxed);
                let _ = handle.join();
            }
            match self.pending.pop_front() {
                Some(line) => self.handle(&line),
                None => break,
            }
        }
    }

    /// End of input: the running search and the queued lines finish (searches stopped).
    fn finish_all(&mut self) {
        loop {
            if let Some(handle) = self.search.take() {
                let _ = handle.join();
            }
            match self.pending.pop_front() {
                Some(line) => self.handle(&line),
                None if self.busy() => continue,
                None => break,
            }
        }
    }

    fn handle(&mut self, line: &str) {
        let command = match parse(line) {
            Ok(c) => c,
            Err(e) => {
                // A line that is no command is ignored, as the protocol asks; a command of the
                // protocol with bad arguments (`move zz`) is shown, as an illegal move is.
                const KNOWN: &[&str] = &[
                    "nboard", "set", "move", "hint", "go", "ping", "learn", "analyze", "quit",
                ];
                let word = line.split_whitespace().next().unwrap_or("");
                if KNOWN.contains(&word) {
                    self.complain(&e);
                } else {
                    log::warn!("nboard: ignored: {e}");
                }
                return;
            }
        };
        match command {
            NboardCommand::Nboard(version) => {
                if !(1..=2).contains(&version) {
                    log::warn!("nboard: protocol version {version}; speaking version 2");
                }
            }
            NboardCommand::SetDepth(depth) => {
                self.depth = Some(depth);
                self.out.line("set myname othel");
            }
            NboardCommand::SetContempt(c) => self.contempt = c,
            NboardCommand::SetGame(ggf) => self.set_game(&ggf),
            NboardCommand::Move { mv, seconds } => {
                let side = self.session.side_to_move();
                // A placement by the other colour means a pass was left out.
                let implicit_pass = mv != Move::Pass && self.session.must_pass();
                let played = if implicit_pass {
                    self.session.play(Move::Pass).and_then(|_| {
                        self.session.play(mv).inspect_err(|_| {
                            self.session.undo();
                        })
                    })
                } else {
                    self.session.play(mv)
                };
                match played {
                    Ok(()) => {
                        if implicit_pass {
                            self.move_times.push((side, 0.0));
                        }
                        let mover = if implicit_pass { side.opposite() } else { side };
                        self.move_times.push((mover, seconds.unwrap_or(0.0)));
                    }
                    Err(e) => self.complain(&format!("{e}: '{line}'")),
                }
            }
            NboardCommand::Hint(n) => self.hint(n),
            NboardCommand::Go => self.go(),
            NboardCommand::Ping(n) => {
                super::ready_for_search(self.session.as_ref(), &self.searcher);
                self.out.line(format!("pong {n}"));
            }
            NboardCommand::Learn => self.learn(),
            NboardCommand::Analyze => self.analyze(),
            NboardCommand::Quit => std::process::exit(0),
        }
    }

    /// Bad input the protocol has no error reply for: logged, and shown in the GUI's status line.
    fn complain(&self, message: &str) {
        log::error!("nboard: {message}");
        self.out.line(format!("status error: {message}"));
    }

    fn set_game(&mut self, ggf: &str) {
        let record = match ggf.parse::<GgfRecord>() {
            Ok(r) => r,
            Err(e) => return self.complain(&format!("{e}: 'set game {ggf}'")),
        };
        let mut session = new_session(record.kind());
        if let Err(e) = session.set_ggf(&record) {
            return self.complain(&format!("{e}: 'set game {ggf}'"));
        }
        self.book.follow_kind(session.kind());
        self.session = session;
        self.move_times = record
            .moves
            .iter()
            .map(|m| (m.color, m.seconds.unwrap_or(0.0)))
            .collect();
        self.clock = record
            .properties
            .iter()
            .find(|(k, _)| k == "TI")
            .and_then(|(_, v)| parse_clock(v));
    }

    /// The clock of the side to move, when the game has one.
    fn side_clock(&self) -> Option<Clock> {
        let clock = self.clock?;
        let side = self.session.side_to_move();
        let (used, moves) = self
            .move_times
            .iter()
            .filter(|(c, _)| *c == side)
            .fold((0.0, 0), |(t, n), (_, s)| (t + s, n + 1));
        let left = (clock.main + clock.increment * moves as f64 - used).max(0.0);
        Some(Clock {
            time_left: Duration::from_secs_f64(left),
            increment: Duration::from_secs_f64(clock.increment),
            moves_to_go: None,
            move_overhead: self.move_overhead,
        })
    }

    fn go(&mut self) {
        if self.session.is_over() {
            return self.complain("go: the game is over");
        }
        let mover = self.session.side_to_move();
        let view = self.view();
        if let Some(m) = self.book.choose(self.session.as_ref()) {
            // A book move is answered at once.
            self.out.line(view.book_line(&m, mover));
            self.out.line(format!(
                "=== {}/{}/0.00",
                pv_text(&[m.mv], Color::Black),
                eval_text(m.score)
            ));
            return;
        }
        // The engine's last move as the record charged it, against what its search took.
        let searched = self.searched.lock().ok().and_then(|mut s| s.take());
        let charged = self
            .move_times
            .iter()
            .rev()
            .find(|(c, _)| *c == mover)
            .map(|(_, s)| *s);
        if let (Some(searched), Some(charged)) = (searched, charged) {
            let outside = Duration::from_secs_f64((charged - searched).clamp(0.0, 1.0));
            self.move_overhead = Some(crate::search::limits::track_overhead(
                self.move_overhead,
                outside,
            ));
        }
        let size = self.session.kind().size();
        let limits = Limits::playing(self.depth, self.session.empties(), size, self.side_clock());
        let searched = Arc::clone(&self.searched);
        self.start_search(move |session, searcher, stop, out, readied| {
            out.line("status othel is thinking");
            let started = Instant::now();
            let mut on_report = |r: &Report| out.line(view.search_line(r, mover));
            let result = session.search(searcher, &limits, stop, &mut on_report);
            let seconds = started.elapsed().as_secs_f64();
            if let Ok(mut slot) = searched.lock() {
                *slot = Some((result.time + readied).as_secs_f64());
            }
            out.line(format!("nodestats {} {seconds:.2}", result.nodes));
            let Some(best) = result.best else { return };
            let mv = pv_text(&[best], Color::Black);
            out.line(format!(
                "=== {mv}/{}/{seconds:.2}",
                view.shown_eval(result.score, result.precision, mover)
            ));
        });
    }

    fn hint(&mut self, n: usize) {
        if self.session.is_over() {
            return self.complain("hint: the game is over");
        }
        let size = self.session.kind().size();
        let mut limits = Limits::playing(self.depth, self.session.empties(), size, None);
        limits.multipv = n.min(self.session.legal_moves().len()).max(1);
        let mover = self.session.side_to_move();
        let view = self.view();
        for m in self.book.moves(self.session.as_ref()).iter().take(n) {
            self.out.line(view.book_line(m, mover));
        }
        self.start_search(move |session, searcher, stop, out, _| {
            out.line("status othel is analysing");
            let mut on_report = |r: &Report| out.line(view.search_line(r, mover));
            session.search(searcher, &limits, stop, &mut on_report);
            out.line("status");
        });
    }

    /// `analysis MOVES EVAL` for every position of the game, from the last to the first.
    fn analyze(&mut self) {
        let depth = self.depth;
        let view = self.view();
        self.start_search(move |session, searcher, stop, out, _| {
            out.line("status othel is analysing the game");
            let mut position = session.boxed_clone();
            loop {
                if stop.load(Relaxed) {
                    break;
                }
                let mover = position.side_to_move();
                let eval = if position.is_over() {
                    let margin = position.black_margin() * 100;
                    let score = if mover == Color::Black {
                        margin
                    } else {
                        -margin
                    };
                    view.shown_eval(score, Precision::Exact, mover)
                } else {
                    let size = position.kind().size();
                    let limits = Limits::playing(depth, position.empties(), size, None);
                    let result = position.search(searcher, &limits, stop, &mut |_| {});
                    if result.stopped.is_some() {
                        break;
                    }
                    view.shown_eval(result.score, result.precision, mover)
                };
                out.line(format!("analysis {} {eval}", position.moves_made()));
                if position.undo().is_none() {
                    break;
                }
            }
            out.line("status");
        });
    }

    /// `learn`: the game's opening goes into the book (saved when the book is a file).
    fn learn(&mut self) {
        /// Plies of a game that learning adds.
        const LEARN_PLIES: usize = 24;
        /// The depth of new book positions when no depth was set.
        const LEARN_DEPTH: u32 = 12;
        match &mut self.book.book {
            Some(book) => {
                let book = Arc::make_mut(book);
                let new = self.session.learn(
                    book,
                    &self.searcher,
                    self.depth.unwrap_or(LEARN_DEPTH),
                    LEARN_PLIES,
                );
                log::info!("nboard: learned the game ({new} new positions)");
                if let Some(path) = &self.book.file
                    && let Err(e) = book.save(std::path::Path::new(path))
                {
                    self.complain(&format!("learn: {e}"));
                }
            }
            None => log::info!("nboard: learn: no book is in use"),
        }
        self.out.line("learned");
    }

    /// What a search thread needs to format its lines.
    fn view(&self) -> EvalView {
        EvalView {
            contempt: self.contempt,
        }
    }

    fn start_search(
        &mut self,
        job: impl FnOnce(&dyn Session, &Searcher, &AtomicBool, &Output, Duration) + Send + 'static,
    ) {
        let session = self.session.boxed_clone();
        let searcher = Arc::clone(&self.searcher);
        let stop = Arc::clone(&self.stop);
        let out = Arc::clone(&self.out);
        let done = self.to_loop.clone();
        self.input_end.start_search(&self.stop);
        let spawned = std::thread::Builder::new()
            .name("othel-nboard-search".into())
            .spawn(move || {
                // The search's clock starts once it is ready, `ping` or not; the job gets the
                // time that took.
                let readied = super::ready_before_clock(session.as_ref(), &searcher);
                job(session.as_ref(), &searcher, &stop, &out, readied);
                let _ = done.send(Message::SearchDone);
            });
        match spawned {
            Ok(handle) => self.search = Some(handle),
            Err(e) => self.complain(&format!("cannot start a search thread: {e}")),
        }
    }
}

/// The formatting a search thread shares with the engine (a copy of the contempt).
#[derive(Clone, Copy)]
struct EvalView {
    contempt: i32,
}

impl EvalView {
    fn shown_eval(&self, score: i32, precision: Precision, mover: Color) -> String {
        let proven = matches!(precision, Precision::Exact | Precision::WinLossDraw);
        if proven && score == 0 && self.contempt != 0 {
            let to_mover = match mover {
                Color::Black => self.contempt,
                Color::White => -self.contempt,
            };
            return eval_text(to_mover);
        }
        eval_text(score)
    }

    /// `book PV EVAL GAMES DEPTH` for a book move.
    fn book_line(&self, m: &crate::book::BookMove, mover: Color) -> String {
        format!(
            "book {} {} {} {}",
            pv_text(&[m.mv], mover),
            eval_text(m.score),
            m.count,
            if m.exact {
                "100%".to_string()
            } else {
                m.depth.to_string()
            }
        )
    }

    fn search_line(&self, r: &Report, mover: Color) -> String {
        format!(
            "search {} {} 0 {}",
            pv_text(&r.pv, mover),
            self.shown_eval(r.score, r.precision, mover),
            depth_text(r)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Square;

    #[test]
    fn commands_parse() {
        assert_eq!(parse("nboard 2"), Ok(NboardCommand::Nboard(2)));
        assert_eq!(parse("set depth 6"), Ok(NboardCommand::SetDepth(6)));
        assert_eq!(
            parse("set contempt -150"),
            Ok(NboardCommand::SetContempt(-150))
        );
        assert_eq!(
            parse("set game (;GM[Othello];)"),
            Ok(NboardCommand::SetGame("(;GM[Othello];)".into()))
        );
        let f5 = Move::Place(Square::new(5, 4).unwrap());
        assert_eq!(
            parse("move F5/1.25/0.3"),
            Ok(NboardCommand::Move {
                mv: f5,
                seconds: Some(0.3)
            })
        );
        assert_eq!(
            parse("move f5"),
            Ok(NboardCommand::Move {
                mv: f5,
                seconds: None
            })
        );
        assert_eq!(
            parse("move PA//1.5"),
            Ok(NboardCommand::Move {
                mv: Move::Pass,
                seconds: Some(1.5)
            })
        );
        assert_eq!(
            parse("F5"),
            Ok(NboardCommand::Move {
                mv: f5,
                seconds: None
            })
        );
        assert_eq!(parse("hint 3"), Ok(NboardCommand::Hint(3)));
        assert_eq!(parse("ping 17"), Ok(NboardCommand::Ping("17".into())));
        for bad in [
            "",
            "frobnicate",
            "set depth",
            "set depth 0",
            "set depth x",
            "move",
            "move z9",
            "move f5/1/-2",
            "hint",
            "hint x",
            "set bogus 1",
        ] {
            assert!(parse(bad).is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn pvs_alternate_case_by_colour() {
        let pv: Vec<Move> = ["f5", "d6", "c3", "pass"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        assert_eq!(pv_text(&pv, Color::Black), "F5d6C3pa");
        assert_eq!(pv_text(&pv, Color::White), "f5D6c3PA");
    }

    #[test]
    fn clocks_read_ggf_and_ggs_forms() {
        let c = |main, increment| Some(GameClock { main, increment });
        assert_eq!(parse_clock("15:00"), c(900.0, 0.0));
        assert_eq!(parse_clock("1:00:00"), c(3600.0, 0.0));
        assert_eq!(parse_clock("5:00/10"), c(300.0, 10.0));
        assert_eq!(parse_clock("05:00//02:00"), c(420.0, 0.0));
        assert_eq!(parse_clock("0"), None);
        assert_eq!(parse_clock("soon"), None);
    }
}
