//! The engine protocol on stdin/stdout (protocol.md describes it completely), and the NBoard and
//! GTP modes ([`nboard`], [`gtp`]), chosen by a command-line flag or by the first line read.
//!
//! A reader thread only reads and parses lines: every command, and every parse error, goes over
//! a channel to the [`controller::Controller`] on the main thread, so replies keep the order of
//! the commands. The controller never waits for a search (searches run on a thread of their own
//! and never read input), so `stop` and `isready` are handled as soon as they are read; `stop`
//! raises the search's atomic stop flag. The reader raises it too, the moment it reads `stop` or
//! `quit`, so that a running search need not wait for the controller's thread to be scheduled
//! (with every core searching, that took a few milliseconds). On its own that could be
//! overtaken by a `go` still queued before it, which lowers the flag; the controller raises it
//! again when it reaches the command. `quit` is answered in its turn too: the commands before it
//! are answered, a running search ends with its `bestmove`, and the reader reads no further.

pub mod book_choice;
pub mod command;
pub mod controller;
pub mod gtp;
pub mod nboard;
pub mod output;
pub mod session;

use crate::search::Searcher;
use command::{Command, parse};
use controller::{Controller, Flow};
use output::Output;
use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::mpsc;

/// What the reader hands the controller.
enum Message {
    Command(Command, String),
    Error(String),
}

/// Which protocol to speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// Decide by the first line: `nboard N` means NBoard, a GTP command means GTP, anything else
    /// the engine's own protocol.
    #[default]
    Detect,
    /// The engine's own protocol.
    Othel,
    /// NBoard.
    Nboard,
    /// GTP.
    Gtp,
}

/// What the command line sets before the protocol starts.
#[derive(Clone, Debug, Default)]
pub struct Startup {
    /// Which protocol.
    pub mode: Mode,
    /// Search threads (default: the machine's cores).
    pub threads: Option<usize>,
    /// Transposition table MB (default 64).
    pub hash_mb: Option<usize>,
    /// The midgame depth of NBoard's and GTP's moves (NBoard's `set depth` changes it).
    pub depth: Option<u32>,
    /// The opening book: `on` (the built-in one), `off`, or a file.
    pub book: Option<String>,
    /// Book moves within this many discs of the best may be played.
    pub bookrandom: Option<usize>,
}

/// Runs the engine's own protocol on stdin and stdout until `quit` or the end of input. Returns the
/// exit code.
pub fn run() -> i32 {
    run_with(Startup::default())
}

/// Runs the protocol `startup` asks for on stdin and stdout. Returns the exit code.
pub fn run_with(startup: Startup) -> i32 {
    let mut input = std::io::stdin().lock();
    let (mode, first) = match startup.mode {
        Mode::Detect => {
            let first = read_line(&mut input);
            let mode = match &first {
                Some(line) if line.split_whitespace().next() == Some("nboard") => Mode::Nboard,
                Some(line) if gtp::looks_like_gtp(line) => Mode::Gtp,
                _ => Mode::Othel,
            };
            (mode, first)
        }
        mode => (mode, None),
    };
    let out = Arc::new(Output::stdout());
    let threads = startup
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let hash_mb = startup.hash_mb.unwrap_or(64);
    match mode {
        Mode::Nboard | Mode::Gtp => {
            let searcher = match Searcher::new(threads, hash_mb) {
                Ok(s) => s,
                Err(e) => {
                    log::error!("{e}");
                    return 1;
                }
            };
            let mut book = book_choice::BookChoice {
                window: startup.bookrandom.unwrap_or(0) as i32 * crate::eval::DISC,
                ..Default::default()
            };
            let setting = book_choice::BookSetting::parse(startup.book.as_deref().unwrap_or("on"));
            if let Err(e) = book.load(setting, crate::rules::BoardKind::default()) {
                log::error!("book {e}; going on without a book");
            }
            // The reader thread owns the input: stdin's lock cannot move to it.
            drop(input);
            let input = std::io::BufReader::new(std::io::stdin());
            if mode == Mode::Nboard {
                nboard::run(first, input, out, searcher, startup.depth, book)
            } else {
                gtp::run(first, input, &out, searcher, startup.depth, book)
            }
        }
        _ => {
            drop(input);
            run_othel(first, out, startup)
        }
    }
}

/// Readies a search of `session` on `searcher`: decodes the board's evaluation (its weights are
/// decoded at their first use, 70 to 200 ms for 8×8's here) and brings an unused table's pages
/// into memory. The protocols' moments of preparation (`isready`, `newgame`, NBoard's `ping`,
/// GTP's `clear_board`).
pub fn ready_for_search(session: &dyn session::Session, searcher: &Searcher) {
    session.load_evaluation();
    searcher.prepare();
}

/// What a search does before its clock starts, so that its time goes to searching when nothing
/// readied it: [`ready_for_search`], the table only if that takes moments
/// ([`Searcher::prepare_if_quick`]). A piped `position …` then `go movetime 20` ended at depth 2
/// or 3 on a fresh process, its time spent decoding the weights and faulting in the table's
/// pages, and reaches depth 12 so readied.
/// Returns the time it took: the move's, which a front end's clock charges along with the
/// search's own, and not a cost outside the search for the moves to come to keep aside.
pub fn ready_before_clock(
    session: &dyn session::Session,
    searcher: &Searcher,
) -> std::time::Duration {
    let started = std::time::Instant::now();
    session.load_evaluation();
    searcher.prepare_if_quick();
    started.elapsed()
}

/// How long NBoard's and GTP's searches may go on once the input has ended: a GUI that went
/// away leaves no orphan searching for long, and a piped session still gets its quick answers.
pub const INPUT_END_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// When the input ended, for the searches of NBoard and GTP: a search may run until
/// [`INPUT_END_GRACE`] after it. Shared between the reader, which marks it, and the loop.
#[derive(Default)]
pub(crate) struct InputEnd(std::sync::OnceLock<std::time::Instant>);

impl InputEnd {
    /// Marks the end of input (the first mark counts); returns when the grace ends.
    pub(crate) fn mark(&self) -> std::time::Instant {
        *self
            .0
            .get_or_init(|| std::time::Instant::now() + INPUT_END_GRACE)
    }

    /// Marks the end of input, then raises `stop` when the grace has passed (blocks that long).
    pub(crate) fn ended(&self, stop: &AtomicBool) {
        let deadline = self.mark();
        std::thread::sleep(deadline.saturating_duration_since(std::time::Instant::now()));
        stop.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// Lowers `stop` for a new search, unless the grace after the end of input has passed. (If
    /// the raise in [`InputEnd::ended`] comes before this lowering, the clock read after it is
    /// past the deadline, so the flag is raised again.)
    pub(crate) fn start_search(&self, stop: &AtomicBool) {
        stop.store(false, std::sync::atomic::Ordering::SeqCst);
        if self
            .0
            .get()
            .is_some_and(|d| std::time::Instant::now() >= *d)
        {
            stop.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }
}

/// The next non-blank line, trimmed (invalid UTF-8 replaced); `None` at the end of input.
pub(crate) fn read_line(input: &mut impl BufRead) -> Option<String> {
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match input.read_until(b'\n', &mut buffer) {
            Ok(0) => return None,
            Ok(_) => {}
            Err(e) => {
                log::error!("reading input: {e}");
                return None;
            }
        }
        let line = String::from_utf8_lossy(&buffer);
        let line = line.trim();
        if !line.is_empty() {
            log::debug!("<< {line}");
            return Some(line.to_string());
        }
    }
}

/// The engine's own protocol; `first` is a line already read.
fn run_othel(first: Option<String>, out: Arc<Output>, startup: Startup) -> i32 {
    let stop = Arc::new(AtomicBool::new(false));
    let mut controller = match Controller::new(Arc::clone(&out), Arc::clone(&stop)) {
        Ok(c) => c,
        Err(e) => {
            log::error!("{e}");
            return 1;
        }
    };
    let mut settings = Vec::new();
    if let Some(t) = startup.threads {
        settings.push(("threads".to_string(), t.to_string()));
    }
    if let Some(h) = startup.hash_mb {
        settings.push(("hash".to_string(), h.to_string()));
    }
    if let Some(b) = &startup.book {
        settings.push(("book".to_string(), b.clone()));
    }
    if let Some(r) = startup.bookrandom {
        settings.push(("bookrandom".to_string(), r.to_string()));
    }
    if !settings.is_empty() {
        controller.handle(Command::SetOption(settings), "command-line options");
    }
    let (sender, receiver) = mpsc::channel::<Message>();
    let reader_stop = Arc::clone(&stop);
    let reader = std::thread::Builder::new()
        .name("othel-reader".into())
        .spawn(move || {
            let input = std::io::BufReader::new(std::io::stdin());
            read_loop(first, input, &sender, &reader_stop)
        });
    if let Err(e) = reader {
        log::error!("cannot start the input reader: {e}");
        return 1;
    }
    for message in receiver {
        match message {
            Message::Error(e) => out.line(format!("error {e}")),
            Message::Command(command, line) => {
                if controller.handle(command, &line) == Flow::Quit {
                    out.flush();
                    return 0;
                }
            }
        }
    }
    // End of input: a bounded search finishes and prints its result; an infinite one stops.
    controller.end_of_input();
    0
}

fn read_loop(
    first: Option<String>,
    mut input: impl BufRead,
    sender: &mpsc::Sender<Message>,
    stop: &AtomicBool,
) {
    let mut next = first;
    loop {
        let line = match next.take() {
            Some(line) => line,
            None => match read_line(&mut input) {
                Some(line) => line,
                None => return,
            },
        };
        let message = match parse(&line) {
            Ok(Command::Quit) => {
                // The commands before it are still answered in order: the flag only hurries a
                // running search (a `go` still queued lowers it, and the controller raises it again
                // when it reaches the `quit`). Nothing after `quit` is read.
                stop.store(true, Relaxed);
                let _ = sender.send(Message::Command(Command::Quit, line));
                return;
            }
            Ok(Command::Stop) => {
                // At once (see the module's comment); the controller raises it again in turn.
                stop.store(true, Relaxed);
                Message::Command(Command::Stop, line)
            }
            Ok(command) => Message::Command(command, line),
            Err(e) => Message::Error(e.to_string()),
        };
        if sender.send(message).is_err() {
            return;
        }
    }
}
