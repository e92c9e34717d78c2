//! `othel play`: the game for people, in a terminal. A full-screen board (`tui`) when stdout is a
//! terminal, a line-oriented game (`plain`) otherwise or with `--plain`; both drive the same
//! [`Play`]: the game on the table, the engine thinking in the background, its level and book.

pub mod command;
pub mod levels;
pub mod plain;
pub mod table;
pub mod thinker;
pub mod tui;

use crate::cli::{CliError, EngineArgs};
use crate::protocol::book_choice::{BookChoice, BookSetting};
use crate::rules::{Color, Move, Variant};
use crate::search::{Limits, Searcher};
use command::Input;
use levels::{MAX_LEVEL, Strength};
use std::io::IsTerminal;
use std::time::Duration;
use table::{ClockSetting, PlayerKind, Table};
use thinker::{Purpose, Thinker, Thought};

/// The options of `othel play`.
#[derive(clap::Args, Debug, Clone)]
pub struct PlayArgs {
    /// othello or lehto (default: othello, or what --size implies).
    #[arg(long)]
    pub variant: Option<Variant>,
    /// The side of the board (default: 8 for Othello, 9 for Lehto).
    #[arg(long)]
    pub size: Option<usize>,
    /// Who plays black.
    #[arg(long, value_enum, default_value = "human")]
    pub black: PlayerKind,
    /// Who plays white.
    #[arg(long, value_enum, default_value = "engine")]
    pub white: PlayerKind,
    /// The engine's level, 1 (a beginner beats it) to 10 (full strength).
    #[arg(long, default_value_t = 5, value_parser = level_arg)]
    pub level: u32,
    /// Instead of a level: this many milliseconds a move at full strength.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// A clock for each side: MINUTES[+SECONDS added a move], e.g. 5 or 3+2. A side whose clock
    /// reaches zero loses.
    #[arg(long)]
    pub clock: Option<ClockSetting>,
    /// The engine's opening book: on (the built-in one, from level 5), off, or a book file.
    #[arg(long, default_value = "on")]
    pub book: String,
    /// The engine thinks on your time too, about the reply it expects (a stronger engine at
    /// the same level or clock; it answers at once when you play that reply).
    #[arg(long)]
    pub ponder: bool,
    /// A line-oriented game even on a terminal (a board diagram after each move, moves read
    /// from stdin): for scripts and screen readers.
    #[arg(long)]
    pub plain: bool,
    /// The search's resources.
    #[command(flatten)]
    pub engine: EngineArgs,
}

fn level_arg(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if (1..=MAX_LEVEL).contains(&n) => Ok(n),
        _ => Err(format!("a whole number from 1 to {MAX_LEVEL}")),
    }
}

/// Runs `othel play`.
pub fn run(args: PlayArgs) -> Result<(), CliError> {
    let (kind, _) = crate::cli::PositionArgs {
        variant: args.variant,
        size: args.size,
        board: None,
    }
    .resolve()?;
    let strength = match args.movetime {
        Some(0) => return Err(CliError::Conflict("--movetime must be at least 1".into())),
        Some(ms) => Strength::MoveTime(Duration::from_millis(ms)),
        None => Strength::Level(args.level),
    };
    let mut book = BookChoice::default();
    book.load(BookSetting::parse(&args.book), kind)
        .map_err(|e| CliError::Book(format!("book {e}")))?;
    let searcher = Searcher::new(args.engine.threads_or_cores(), args.engine.hash)
        .map_err(CliError::Searcher)?;
    let play = Play {
        table: Table::new(kind, [args.black, args.white], args.clock),
        strength,
        book,
        thinker: Thinker::new(searcher),
        hint: None,
        ponders: args.ponder,
    };
    let color = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    if args.plain || !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        let stdin = std::io::stdin();
        plain::run(play, stdin.lock(), std::io::stdout()).map_err(CliError::Terminal)
    } else {
        tui::run(play, color).map_err(CliError::Terminal)
    }
}

/// What a command did, for the screen.
pub enum Reply {
    /// Lines to show.
    Said(Vec<String>),
    /// The player leaves.
    Quit,
}

/// The game being played with the engine beside it.
pub struct Play {
    /// The game.
    pub table: Table,
    /// How strongly the engine plays.
    pub strength: Strength,
    book: BookChoice,
    thinker: Thinker,
    /// The last hint, for the position it was asked in.
    pub hint: Option<Thought>,
    /// Whether the engine thinks on the human's time (`--ponder`).
    pub ponders: bool,
}

impl Play {
    /// Whether the engine is thinking, and why.
    pub fn thinking(&self) -> Option<Purpose> {
        self.thinker.busy()
    }

    /// Moves the game on by what needs no human: a forced pass, a flag falling, the engine's
    /// move (started; with `block`, waited for). Returns what happened; at most one move is
    /// played, so that the caller can show each.
    pub fn step(&mut self, block: bool) -> Vec<String> {
        let mut said = Vec::new();
        if self.table.outcome().is_some() {
            return said;
        }
        if self.table.check_flag() {
            self.thinker.cancel();
            if let Some(outcome) = self.table.outcome() {
                said.push(format!("game over: {}", outcome.describe()));
            }
            return said;
        }
        if self.table.must_pass() {
            let mover = self.table.to_move();
            if self.table.play(Move::Pass).is_ok() {
                said.push(format!("{} has no move and passes", mover.name()));
                said.extend(self.game_over_line());
            }
            return said;
        }
        if !self.table.engine_to_move() {
            return said;
        }
        if matches!(
            self.thinker.busy(),
            Some(Purpose::Hint | Purpose::Ponder(_))
        ) {
            self.thinker.cancel();
        }
        if self.thinker.busy().is_none() {
            if self.strength.uses_book()
                && let Some(book_move) = self.book.choose(self.table.session())
            {
                return self.engine_plays(book_move.mv, Some(book_move.score), "book");
            }
            let legal = self.table.legal_moves();
            let limits = self.strength.limits(
                self.table.session().empties(),
                self.table.size(),
                legal.len(),
                self.table.search_clock(),
            );
            self.thinker
                .start(self.table.session().boxed_clone(), limits, Purpose::Move);
        }
        let thought = if block {
            self.thinker.wait()
        } else {
            self.thinker.poll()
        };
        match thought {
            // (A pondering search whose reply came is the move's search.)
            Some(t) if t.purpose != Purpose::Hint => {
                let legal = self.table.legal_moves();
                let Some(best) = t.best.or_else(|| legal.first().copied()) else {
                    return said;
                };
                let mv = self.strength.choose(best, &t.scores, &legal);
                let score = if mv == best {
                    Some(t.score)
                } else {
                    t.scores.iter().find(|&&(m, _)| m == mv).map(|&(_, s)| s)
                };
                let said = self.engine_plays(mv, score, &how_found(&t));
                if mv == best {
                    self.start_pondering(t.ponder);
                }
                said
            }
            _ => said,
        }
    }

    /// With `--ponder`, starts thinking on the human's time about the position after the reply
    /// `predicted` (the one the engine's last search expects), as the engine will search it: its
    /// level, its clock. Not when the book would answer there, nor when no human is to move.
    fn start_pondering(&mut self, predicted: Option<Move>) {
        let Some(predicted) = predicted else { return };
        if !self.ponders
            || self.table.outcome().is_some()
            || self.table.engine_to_move()
            || self.table.must_pass()
            || !self.table.legal_moves().contains(&predicted)
        {
            return;
        }
        let mut session = self.table.session().boxed_clone();
        if session.play(predicted).is_err() || session.is_over() || session.must_pass() {
            return;
        }
        if self.strength.uses_book() && self.book.choose(session.as_ref()).is_some() {
            return;
        }
        let engine = session.side_to_move();
        let clock = self.table.search_clock_of(engine);
        let moves = session.legal_moves().len();
        let limits = self
            .strength
            .limits(session.empties(), self.table.size(), moves, clock);
        self.thinker.ponder(session, limits, predicted);
    }

    fn engine_plays(&mut self, mv: Move, score: Option<i32>, how: &str) -> Vec<String> {
        let mover = self.table.to_move();
        let mut said = Vec::new();
        match self.table.play(mv) {
            Ok(()) => {
                let score = score.map_or(String::new(), |s| format!(" {}", format_discs(s)));
                said.push(format!("{} plays {mv}{score} ({how})", mover.name()));
                self.hint = None;
                said.extend(self.game_over_line());
            }
            Err(e) => said.push(format!("error: the engine's move {mv}: {e}")),
        }
        said
    }

    fn game_over_line(&self) -> Option<String> {
        self.table
            .outcome()
            .map(|o| format!("game over: {}", o.describe()))
    }

    /// A hint has come in, or a key stopped it: what to say of it.
    pub fn take_hint(&mut self, thought: Thought) -> Vec<String> {
        let mut said = Vec::new();
        if let Some(best) = thought.best {
            let mut line = format!(
                "hint: {best} {} ({})",
                format_discs(thought.score),
                how_found(&thought)
            );
            if thought.scores.len() > 1 {
                let all: Vec<String> = thought
                    .scores
                    .iter()
                    .map(|(m, s)| format!("{m} {}", format_discs(*s)))
                    .collect();
                line.push_str(&format!("; every move: {}", all.join(", ")));
            }
            said.push(line);
        }
        self.hint = Some(thought);
        said
    }

    /// Polls the background search: a finished hint, or the engine's move (non-blocking).
    pub fn poll_hint(&mut self) -> Vec<String> {
        if self.thinker.busy() != Some(Purpose::Hint) {
            return Vec::new();
        }
        match self.thinker.poll() {
            Some(t) => self.take_hint(t),
            None => Vec::new(),
        }
    }

    /// Waits for a hint under way and shows it; with `stop`, stops it first and shows what it
    /// had found (the search answers within milliseconds of the stop).
    pub fn finish_hint(&mut self, stop: bool) -> Vec<String> {
        if self.thinker.busy() != Some(Purpose::Hint) {
            return Vec::new();
        }
        if stop {
            self.thinker.stop();
        }
        self.thinker
            .wait()
            .map_or_else(Vec::new, |t| self.take_hint(t))
    }

    /// Does what a player typed.
    pub fn handle(&mut self, input: Input) -> Result<Reply, String> {
        let said = |lines: Vec<String>| Ok(Reply::Said(lines));
        match input {
            Input::Play(mv) => {
                if let Some(outcome) = self.table.outcome() {
                    return Err(format!(
                        "the game is over ({}): new starts another",
                        outcome.describe()
                    ));
                }
                if self.table.engine_to_move() {
                    return Err(format!(
                        "it is the engine's turn ({}): wait for its move",
                        self.table.to_move().name()
                    ));
                }
                self.finish_hint(true);
                let mover = self.table.to_move();
                self.table.play(mv)?;
                match self.thinker.pondering() {
                    // The reply it pondered on: its search goes on, as the move's.
                    Some(predicted) if predicted == mv => self.thinker.ponder_hit(),
                    Some(_) => self.thinker.cancel(),
                    None => {}
                }
                self.hint = None;
                let mut lines = vec![format!("{} plays {mv}", mover.name())];
                lines.extend(self.game_over_line());
                said(lines)
            }
            Input::Hint => {
                if self.table.outcome().is_some() {
                    return Err("the game is over".into());
                }
                if self.table.engine_to_move() {
                    return Err("it is the engine's turn".into());
                }
                // Full strength for twice a move's usual time, every move scored.
                let legal = self.table.legal_moves();
                let size = self.table.size();
                let strength =
                    Strength::MoveTime(crate::search::limits::default_move_time(size) * 2);
                let limits = Limits {
                    multipv: legal.len().clamp(1, crate::protocol::command::MAX_MULTIPV),
                    ..strength.limits(self.table.session().empties(), size, legal.len(), None)
                };
                self.thinker
                    .start(self.table.session().boxed_clone(), limits, Purpose::Hint);
                said(vec!["thinking of a hint".into()])
            }
            Input::Undo | Input::Redo => {
                self.thinker.cancel();
                self.hint = None;
                let (n, done, nothing) = if input == Input::Undo {
                    (self.table.undo(), "took back", "take back")
                } else {
                    (self.table.redo(), "played again", "play again")
                };
                match n {
                    0 => Err(format!("there is no move to {nothing}")),
                    n => said(vec![format!("{done} {n} move{}", plural(n))]),
                }
            }
            Input::New => {
                self.thinker.cancel();
                self.hint = None;
                self.table.new_game();
                said(vec![format!("a new game of {}", self.table.kind())])
            }
            Input::Switch => {
                self.thinker.cancel();
                self.hint = None;
                self.table.switch_sides();
                said(vec![format!(
                    "black: {}, white: {}",
                    self.table.player(Color::Black).name(),
                    self.table.player(Color::White).name()
                )])
            }
            Input::Level(n) => {
                self.strength = Strength::Level(n);
                said(vec![format!(
                    "the engine plays at {}",
                    self.strength.describe()
                )])
            }
            Input::Save(path) => {
                std::fs::write(&path, self.table.to_ggf())
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                said(vec![format!("saved the game to {}", path.display())])
            }
            Input::Load(path) => {
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                self.thinker.cancel();
                self.table
                    .load_ggf(&text)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                self.hint = None;
                self.book.follow_kind(self.table.kind());
                said(vec![format!(
                    "loaded {} ({}, {} moves)",
                    path.display(),
                    self.table.kind(),
                    self.table.moves_made()
                )])
            }
            Input::Board | Input::Help => said(Vec::new()),
            Input::Quit => Ok(Reply::Quit),
        }
    }
}

/// `exact` or `depth D`.
fn how_found(thought: &Thought) -> String {
    if thought.exact {
        "exact".to_string()
    } else {
        format!("depth {}", thought.depth)
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A score in centi-discs as discs with a sign: `+2.50`.
pub fn format_discs(centi: i32) -> String {
    format!("{:+.2}", centi as f64 / crate::eval::DISC as f64)
}

/// A clock reading: `4:59.2`, or `59.2` under a minute.
pub fn format_clock(left: Duration) -> String {
    let tenths = left.as_millis() / 100;
    let (minutes, rest) = (tenths / 600, tenths % 600);
    if minutes > 0 {
        format!("{minutes}:{:02}.{}", rest / 10, rest % 10)
    } else {
        format!("{}.{}", rest / 10, rest % 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::BoardKind;

    /// A human (black) against the engine (white) at 60 ms a move, pondering or not, no book.
    fn game(ponders: bool) -> Play {
        let searcher = Searcher::new(1, 4).expect("a searcher");
        Play {
            table: Table::new(
                BoardKind::default(),
                [PlayerKind::Human, PlayerKind::Engine],
                None,
            ),
            strength: Strength::MoveTime(Duration::from_millis(60)),
            book: BookChoice::default(),
            thinker: Thinker::new(searcher),
            hint: None,
            ponders,
        }
    }

    fn human_plays(play: &mut Play, mv: Move) {
        assert!(matches!(play.handle(Input::Play(mv)), Ok(Reply::Said(_))));
    }

    fn engine_plays(play: &mut Play) {
        let said = play.step(true);
        assert!(
            said.iter().any(|l| l.starts_with("white plays ")),
            "{said:?}"
        );
    }

    #[test]
    fn the_engine_ponders_on_the_reply_it_expects_and_plays_on_from_there() {
        let mut play = game(true);
        human_plays(&mut play, "f5".parse().expect("a move"));
        engine_plays(&mut play);
        // The human's turn: the engine thinks about the reply it expects, a legal one.
        let predicted = play.thinker.pondering().expect("pondering");
        assert!(play.table.legal_moves().contains(&predicted));
        assert_eq!(play.thinking(), Some(Purpose::Ponder(predicted)));
        // That reply: the pondering search is the move's, and answers.
        human_plays(&mut play, predicted);
        assert_eq!(play.thinking(), Some(Purpose::Move));
        engine_plays(&mut play);
        // Another reply: the pondering is dropped, and the engine searches anew.
        let predicted = play.thinker.pondering().expect("pondering again");
        let other = play
            .table
            .legal_moves()
            .into_iter()
            .find(|&mv| mv != predicted)
            .expect("another move");
        human_plays(&mut play, other);
        assert_eq!(play.thinking(), None);
        engine_plays(&mut play);
        // A hint replaces the pondering; undo ends it.
        assert!(play.thinker.pondering().is_some());
        assert!(matches!(play.handle(Input::Hint), Ok(Reply::Said(_))));
        assert_eq!(play.thinking(), Some(Purpose::Hint));
        assert!(!play.finish_hint(true).is_empty());
        engine_plays_after(&mut play);
        assert!(play.thinker.pondering().is_some());
        let _ = play.handle(Input::Undo);
        assert_eq!(play.thinking(), None);
    }

    /// The human plays its first legal move, then the engine replies.
    fn engine_plays_after(play: &mut Play) {
        let mv = play.table.legal_moves()[0];
        human_plays(play, mv);
        engine_plays(play);
    }

    #[test]
    fn without_ponder_the_engine_waits_for_the_human() {
        let mut play = game(false);
        human_plays(&mut play, "f5".parse().expect("a move"));
        engine_plays(&mut play);
        assert_eq!(play.thinking(), None);
    }
}
