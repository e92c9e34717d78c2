//! GTP, version 2, for Othello on every even board (what Quarry, GoGui-style tools and the GTP
//! modes of Edax and Egaroucid speak). Commands are handled one at a time, in order: GTP has no
//! way to interrupt a `genmove`. A reader thread reads the lines, so that the end of input (the
//! controller went away) stops a running `genmove` within [`super::INPUT_END_GRACE`]. Replies
//! are `=[id] …` or `?[id] …` followed by an empty line; coordinates are a1 at the top left,
//! written in small letters and read in any case.
//!
//! Without `time_settings`, a `genmove` searches for
//! [`crate::search::limits::default_move_time`] (a human pace scaled to the board) unless the
//! command line set a depth; with a clock it plays within the clock.

use super::InputEnd;
use super::book_choice::BookChoice;
use super::output::Output;
use super::session::{Session, new_session};
use crate::rules::{BoardKind, Color, Move, Variant};
use crate::search::{Clock, Limits, Searcher};
use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The commands, as `list_commands` gives them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "set_game",
    "list_games",
    "gogui-rules_game_id",
    "gogui-rules_board",
    "gogui-rules_board_size",
    "gogui-rules_legal_moves",
    "gogui-rules_side_to_move",
    "gogui-rules_final_result",
];

/// A GTP command line: its id, if any, the command's name and its arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct GtpLine {
    /// The numeric id to echo in the reply.
    pub id: Option<u64>,
    /// The command's name.
    pub name: String,
    /// The arguments.
    pub args: Vec<String>,
}

/// Preprocesses a line as GTP asks (control characters dropped, tabs to spaces, `#` comments
/// removed) and splits it; `None` for a line with nothing left.
pub fn parse_line(line: &str) -> Option<GtpLine> {
    let cleaned: String = line
        .split('#')
        .next()
        .unwrap_or("")
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    let mut words = cleaned.split_whitespace();
    let first = words.next()?;
    let (id, name) = match first.parse::<u64>() {
        Ok(id) => (Some(id), words.next().unwrap_or("").to_string()),
        Err(_) => (None, first.to_string()),
    };
    Some(GtpLine {
        id,
        name,
        args: words.map(str::to_string).collect(),
    })
}

/// Whether a line looks like the start of a GTP session (for telling the protocols apart).
pub fn looks_like_gtp(line: &str) -> bool {
    let Some(parsed) = parse_line(line) else {
        return false;
    };
    let name = parsed.name.as_str();
    let only_gtp = COMMANDS.contains(&name) && !matches!(name, "quit" | "undo" | "play");
    // A number alone (or before something that is no GTP command) is a typo, not a GTP id.
    let numbered = parsed.id.is_some() && COMMANDS.contains(&name);
    only_gtp || numbered || (name == "play" && parsed.args.len() == 2)
}

/// A colour argument: `b`, `black`, `w`, `white`, any case.
fn color_arg(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(format!("invalid color '{text}'")),
    }
}

/// The time system of `time_settings` and the clock of `time_left`.
#[derive(Clone, Copy, Debug, Default)]
struct TimeLeft {
    seconds: f64,
    /// Moves to play in that time (byo-yomi stones); 0 for the rest of the game.
    stones: u32,
}

/// The GTP engine's state.
pub struct GtpEngine {
    session: Box<dyn Session>,
    /// How many moves each accepted `play`/`genmove` added (a pass left out makes two), so that
    /// `undo` takes back what the controller sent.
    history: Vec<usize>,
    searcher: Searcher,
    /// The midgame depth set on the command line; `None`: by time.
    depth: Option<u32>,
    book: BookChoice,
    /// `time_settings`: main time, byo-yomi time, byo-yomi stones; `None`: no time limit.
    settings: Option<(f64, f64, u32)>,
    time_left: [Option<TimeLeft>; 2],
    /// The search's stop flag, raised by the reader at the end of input.
    stop: Arc<AtomicBool>,
    /// When the input ended: searches may run until a grace after it.
    input_end: Arc<InputEnd>,
}

/// What handling a command leads to.
enum Outcome {
    Reply(Result<String, String>),
    Quit,
}

/// Runs GTP on `input` until `quit` or the end of input; `first` is a line already read. The end
/// of input stops a running `genmove` (its reply is still written) and ends the loop.
pub fn run(
    first: Option<String>,
    input: impl BufRead + Send + 'static,
    out: &Output,
    searcher: Searcher,
    depth: Option<u32>,
    book: BookChoice,
) -> i32 {
    let mut engine = GtpEngine::new(searcher, depth);
    engine.book = book;
    let (sender, receiver) = std::sync::mpsc::channel::<String>();
    let stop = Arc::clone(&engine.stop);
    let input_end = Arc::clone(&engine.input_end);
    let reader = std::thread::Builder::new()
        .name("othel-reader".into())
        .spawn(move || {
            let mut input = input;
            while let Some(line) = super::read_line(&mut input) {
                if sender.send(line).is_err() {
                    return;
                }
            }
            // The loop ends once it has handled what was sent; a search it runs meanwhile gets
            // the grace.
            drop(sender);
            input_end.ended(&stop);
        });
    if let Err(e) = reader {
        log::error!("cannot start the input reader: {e}");
        return 1;
    }
    for line in first.into_iter().chain(receiver) {
        if let Some(Response { text, quit }) = engine.respond(&line) {
            out.raw(&text);
            if quit {
                return 0;
            }
        }
    }
    0
}

/// The reply to one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// The whole reply, its closing empty line included.
    pub text: String,
    /// Whether the engine ends after it.
    pub quit: bool,
}

impl GtpEngine {
    /// An engine on the 8×8 start position, searching to `depth` (`None`: by time).
    pub fn new(searcher: Searcher, depth: Option<u32>) -> GtpEngine {
        GtpEngine {
            session: new_session(BoardKind::default()),
            history: Vec::new(),
            searcher,
            depth,
            book: BookChoice::default(),
            settings: None,
            time_left: [None, None],
            stop: Arc::new(AtomicBool::new(false)),
            input_end: Arc::new(InputEnd::default()),
        }
    }

    /// Handles one line; `None` for a line with no command (blank, or only a comment).
    pub fn respond(&mut self, line: &str) -> Option<Response> {
        let command = parse_line(line)?;
        let id = command.id.map(|n| n.to_string()).unwrap_or_default();
        let (text, quit) = match self.handle(&command) {
            Outcome::Quit => (format!("={id}\n\n"), true),
            Outcome::Reply(Ok(text)) if text.is_empty() => (format!("={id}\n\n"), false),
            Outcome::Reply(Ok(text)) => (format!("={id} {text}\n\n"), false),
            Outcome::Reply(Err(text)) => {
                log::warn!("gtp: {text}: '{line}'");
                (format!("?{id} {text}\n\n"), false)
            }
        };
        Some(Response { text, quit })
    }

    fn handle(&mut self, command: &GtpLine) -> Outcome {
        let args: Vec<&str> = command.args.iter().map(String::as_str).collect();
        let reply = match (command.name.as_str(), args.as_slice()) {
            ("quit", _) => return Outcome::Quit,
            ("protocol_version", []) => Ok("2".to_string()),
            ("name", []) => Ok("othel".to_string()),
            ("version", []) => Ok(env!("CARGO_PKG_VERSION").to_string()),
            ("known_command", [name]) => Ok(COMMANDS.contains(name).to_string()),
            ("list_commands", []) => Ok(COMMANDS.join("\n")),
            ("boardsize", [size]) => self.boardsize(size),
            ("clear_board", []) => {
                self.session = new_session(self.session.kind());
                self.history.clear();
                super::ready_for_search(self.session.as_ref(), &self.searcher);
                Ok(String::new())
            }
            ("komi", [komi]) => komi
                .parse::<f64>()
                .map(|_| String::new())
                .map_err(|_| "syntax error (komi takes a number)".to_string()),
            ("play", [color, vertex]) => self.play(color, vertex),
            ("genmove", [color]) => self.genmove(color),
            ("undo", []) => self.undo(),
            ("showboard", []) => Ok(format!("\n{}", self.showboard())),
            ("final_score", []) => Ok(self.final_score()),
            ("time_settings", [main, byo, stones]) => self.time_settings(main, byo, stones),
            ("time_left", [color, time, stones]) => self.time_left(color, time, stones),
            ("set_game", [game]) => match game.to_ascii_lowercase().as_str() {
                "othello" | "reversi" => Ok(String::new()),
                _ => Err(format!("unsupported game '{game}' (Othello)")),
            },
            ("list_games", []) => Ok("Othello".to_string()),
            ("gogui-rules_game_id", []) => Ok("Othello".to_string()),
            ("gogui-rules_board", []) => Ok(self.rules_board()),
            ("gogui-rules_board_size", []) => Ok(self.session.kind().size().to_string()),
            ("gogui-rules_legal_moves", []) => Ok(self.rules_legal_moves()),
            ("gogui-rules_side_to_move", []) => Ok(self.session.side_to_move().name().to_string()),
            ("gogui-rules_final_result", []) => Ok(self.rules_final_result()),
            (name, _) if COMMANDS.contains(&name) => Err(format!(
                "syntax error (wrong number of arguments for {name})"
            )),
            _ => Err("unknown command".to_string()),
        };
        Outcome::Reply(reply)
    }

    fn boardsize(&mut self, size: &str) -> Result<String, String> {
        let kind = size
            .parse::<usize>()
            .ok()
            .and_then(|n| BoardKind::new(Variant::Othello, n).ok())
            .ok_or_else(|| {
                "unacceptable size (Othello is played on even boards from 4 to 16)".to_string()
            })?;
        self.session = new_session(kind);
        self.history.clear();
        self.book.follow_kind(kind);
        Ok(String::new())
    }

    /// Plays `mv` for `color`, passing first for the other colour when it has no move (a
    /// controller need not send the pass); the board is unchanged on an error.
    fn play_for(&mut self, color: Color, mv: Move) -> Result<(), String> {
        if self.session.is_over() {
            if mv == Move::Pass {
                // Both sides can only pass once the game is over: a controller may still send
                // one (the other engine's `genmove` answered pass). Nothing changes; `undo` takes
                // back nothing for it.
                self.history.push(0);
                return Ok(());
            }
            return Err("illegal move (the game is over)".to_string());
        }
        let mut added = 0;
        if color != self.session.side_to_move() {
            if !self.session.must_pass() {
                return Err(format!(
                    "illegal move (it is {}'s turn)",
                    self.session.side_to_move().name()
                ));
            }
            if mv == Move::Pass {
                return Err(format!(
                    "illegal move ({} must pass)",
                    color.opposite().name()
                ));
            }
            self.session.play(Move::Pass).map_err(|e| e.to_string())?;
            added += 1;
        }
        if let Err(e) = self.session.play(mv) {
            for _ in 0..added {
                self.session.undo();
            }
            return Err(e.to_string());
        }
        self.history.push(added + 1);
        Ok(())
    }

    fn play(&mut self, color: &str, vertex: &str) -> Result<String, String> {
        let color = color_arg(color)?;
        let mv = vertex
            .parse::<Move>()
            .map_err(|_| format!("invalid vertex '{vertex}'"))?;
        self.play_for(color, mv).map(|_| String::new())
    }

    fn genmove(&mut self, color: &str) -> Result<String, String> {
        let color = color_arg(color)?;
        if self.session.is_over() {
            // A pass, as `play` takes it: `undo` takes back nothing for it.
            self.history.push(0);
            return Ok("pass".to_string());
        }
        if color != self.session.side_to_move() && !self.session.must_pass() {
            return Err(format!(
                "it is {}'s turn",
                self.session.side_to_move().name()
            ));
        }
        if color != self.session.side_to_move() {
            // The other colour passes first; search from the position after its pass.
            self.play_for(color.opposite(), Move::Pass)?;
        }
        let mv = if self.session.must_pass() {
            Move::Pass
        } else if let Some(book_move) = self.book.choose(self.session.as_ref()) {
            book_move.mv
        } else {
            // The search's clock starts once it is ready, `clear_board` or not.
            super::ready_before_clock(self.session.as_ref(), &self.searcher);
            let kind = self.session.kind();
            let limits = Limits::playing(
                self.depth,
                self.session.empties(),
                kind.size(),
                self.clock(color),
            );
            // Lowered for this search (a time limit raises it), unless the input has ended
            // longer ago than the grace.
            self.input_end.start_search(&self.stop);
            let result = self
                .session
                .search(&self.searcher, &limits, &self.stop, &mut |_| {});
            result
                .best
                .ok_or_else(|| "the search found no move".to_string())?
        };
        self.play_for(color, mv)?;
        Ok(mv.to_string())
    }

    /// The clock of `color` from `time_left` or `time_settings`; `None` without a time limit.
    fn clock(&self, color: Color) -> Option<Clock> {
        let (main, byo, stones) = self.settings?;
        if main <= 0.0 && byo > 0.0 && stones == 0 {
            return None;
        }
        let left = self.time_left[color as usize].unwrap_or(if main > 0.0 {
            TimeLeft {
                seconds: main,
                stones: 0,
            }
        } else {
            TimeLeft {
                seconds: byo,
                stones,
            }
        });
        Some(Clock {
            time_left: Duration::from_secs_f64(left.seconds.max(0.0)),
            increment: Duration::ZERO,
            moves_to_go: (left.stones > 0).then_some(left.stones),
            move_overhead: None,
        })
    }

    fn time_settings(&mut self, main: &str, byo: &str, stones: &str) -> Result<String, String> {
        let seconds = |t: &str| {
            t.parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .ok_or_else(|| format!("syntax error (bad time '{t}')"))
        };
        let stones = stones
            .parse::<u32>()
            .map_err(|_| format!("syntax error (bad stones '{stones}')"))?;
        self.settings = Some((seconds(main)?, seconds(byo)?, stones));
        self.time_left = [None, None];
        Ok(String::new())
    }

    fn time_left(&mut self, color: &str, time: &str, stones: &str) -> Result<String, String> {
        let color = color_arg(color)?;
        let seconds = time
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite())
            .ok_or_else(|| format!("syntax error (bad time '{time}')"))?;
        let stones = stones
            .parse::<u32>()
            .map_err(|_| format!("syntax error (bad stones '{stones}')"))?;
        if self.settings.is_none() {
            self.settings = Some((seconds, 0.0, 0));
        }
        self.time_left[color as usize] = Some(TimeLeft { seconds, stones });
        Ok(String::new())
    }

    fn undo(&mut self) -> Result<String, String> {
        let count = self
            .history
            .pop()
            .ok_or_else(|| "cannot undo".to_string())?;
        for _ in 0..count {
            self.session.undo();
        }
        Ok(String::new())
    }

    fn showboard(&self) -> String {
        // A GTP reply ends at an empty line: the diagram has none.
        let diagram = self.session.diagram();
        let lines: Vec<&str> = diagram.lines().filter(|l| !l.trim().is_empty()).collect();
        lines.join("\n")
    }

    fn final_score(&self) -> String {
        match self.session.black_margin() {
            0 => "0".to_string(),
            m if m > 0 => format!("B+{m}"),
            m => format!("W+{}", -m),
        }
    }

    /// The board a row a line from the top, `X` black, `O` white, `.` empty.
    fn rules_board(&self) -> String {
        let text = self.session.board_string();
        let squares = text.split_whitespace().next().unwrap_or("");
        let size = self.session.kind().size();
        let cells: Vec<String> = squares
            .chars()
            .map(|c| if c == '-' { '.' } else { c }.to_string())
            .collect();
        let rows: Vec<String> = cells.chunks(size).map(|row| row.join(" ")).collect();
        format!("\n{}", rows.join("\n"))
    }

    fn rules_legal_moves(&self) -> String {
        let moves = self.session.legal_moves();
        let list: Vec<String> = moves.iter().map(Move::to_string).collect();
        list.join(" ")
    }

    fn rules_final_result(&self) -> String {
        if !self.session.is_over() {
            return "unknown".to_string();
        }
        match self.session.black_margin() {
            0 => "draw".to_string(),
            m if m > 0 => "black".to_string(),
            _ => "white".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_preprocessed_and_split() {
        assert_eq!(
            parse_line("12 play\tB f5 # a comment"),
            Some(GtpLine {
                id: Some(12),
                name: "play".into(),
                args: vec!["B".into(), "f5".into()],
            })
        );
        assert_eq!(parse_line("   # only a comment"), None);
        assert_eq!(parse_line("name\u{7}"), parse_line("name"));
    }

    #[test]
    fn gtp_is_told_from_the_other_protocols() {
        assert!(looks_like_gtp("protocol_version"));
        assert!(looks_like_gtp("1 boardsize 8"));
        assert!(looks_like_gtp("play b f5"));
        assert!(!looks_like_gtp("play f5"));
        assert!(!looks_like_gtp("nboard 2"));
        assert!(!looks_like_gtp("position startpos"));
        assert!(!looks_like_gtp("quit"));
        assert!(looks_like_gtp("7 quit"));
        assert!(!looks_like_gtp("0 "));
        assert!(!looks_like_gtp("12 position startpos"));
    }
}
