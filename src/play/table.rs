//! The game on the table in `othel play`: the board, who plays each colour, the clocks, the moves
//! taken back (for redo), the last move and the discs it flipped, and how the game ended. Knows
//! nothing of the screen or of the engine's thread.

use crate::protocol::session::{Session, new_session};
use crate::rules::ggf::GgfRecord;
use crate::rules::notation::ObfLine;
use crate::rules::{BoardKind, Color, Move};
use std::time::{Duration, Instant};

/// Who plays a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PlayerKind {
    /// A person at the keyboard.
    Human,
    /// othel.
    Engine,
}

impl PlayerKind {
    /// For the screen.
    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Human => "human",
            PlayerKind::Engine => "engine",
        }
    }
}

/// A time control: minutes each and seconds added after each move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClockSetting {
    /// Time each side starts with.
    pub base: Duration,
    /// Added after each of a side's moves.
    pub increment: Duration,
}

impl std::str::FromStr for ClockSetting {
    type Err = String;
    fn from_str(s: &str) -> Result<ClockSetting, String> {
        let bad = || format!("'{s}' is not MINUTES[+SECONDS], e.g. 5 or 3+2");
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        let minutes: f64 = base.trim().parse().map_err(|_| bad())?;
        let seconds: f64 = inc.trim().parse().map_err(|_| bad())?;
        let valid = minutes > 0.0 && minutes <= 600.0 && (0.0..=600.0).contains(&seconds);
        if !valid {
            return Err(bad());
        }
        Ok(ClockSetting {
            base: Duration::from_secs_f64(minutes * 60.0),
            increment: Duration::from_secs_f64(seconds),
        })
    }
}

/// A square's content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Empty.
    Empty,
    /// A disc of this colour.
    Disc(Color),
}

/// The last move: who played it, what, and which discs turned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LastMove {
    /// Who played it.
    pub color: Color,
    /// The move.
    pub mv: Move,
    /// The squares (indices) whose discs it turned.
    pub flipped: Vec<usize>,
}

/// How the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Played to the end: black's final margin (empties to the winner).
    Finished(i32),
    /// This colour's clock reached zero: it lost.
    Flagged(Color),
}

impl Outcome {
    /// For the screen: `black wins by 12`, `a draw`, `white lost on time: black wins`.
    pub fn describe(self) -> String {
        match self {
            Outcome::Finished(0) => "a draw".into(),
            Outcome::Finished(m) if m > 0 => format!("black wins by {m}"),
            Outcome::Finished(m) => format!("white wins by {}", -m),
            Outcome::Flagged(c) => {
                format!("{} lost on time: {} wins", c.name(), c.opposite().name())
            }
        }
    }
}

fn slot(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// The game being played.
pub struct Table {
    session: Box<dyn Session>,
    players: [PlayerKind; 2],
    clock: Option<ClockSetting>,
    left: [Duration; 2],
    turn_started: Instant,
    redo: Vec<Move>,
    last: Option<LastMove>,
    flagged: Option<Color>,
}

impl Table {
    /// A new game of `kind`.
    pub fn new(kind: BoardKind, players: [PlayerKind; 2], clock: Option<ClockSetting>) -> Table {
        let base = clock.map_or(Duration::ZERO, |c| c.base);
        Table {
            session: new_session(kind),
            players,
            clock,
            left: [base; 2],
            turn_started: Instant::now(),
            redo: Vec::new(),
            last: None,
            flagged: None,
        }
    }

    /// The game, for searches and diagrams.
    pub fn session(&self) -> &dyn Session {
        self.session.as_ref()
    }

    /// The variant and size.
    pub fn kind(&self) -> BoardKind {
        self.session.kind()
    }

    /// The board side.
    pub fn size(&self) -> usize {
        self.kind().size()
    }

    /// Who plays `color`.
    pub fn player(&self, color: Color) -> PlayerKind {
        self.players[slot(color)]
    }

    /// The colour to move.
    pub fn to_move(&self) -> Color {
        self.session.side_to_move()
    }

    /// Whether it is the engine's turn in a game still going.
    pub fn engine_to_move(&self) -> bool {
        self.outcome().is_none() && self.player(self.to_move()) == PlayerKind::Engine
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(c) = self.flagged {
            return Some(Outcome::Flagged(c));
        }
        self.session
            .is_over()
            .then(|| Outcome::Finished(self.session.black_margin()))
    }

    /// Every square's content, row by row from a1.
    pub fn cells(&self) -> Vec<Cell> {
        cells_of(self.session.as_ref())
    }

    /// The squares (indices) where the side to move may place a disc.
    pub fn playable(&self) -> Vec<usize> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let size = self.size();
        self.session
            .legal_moves()
            .into_iter()
            .filter_map(|m| match m {
                Move::Place(sq) => sq.index(size),
                _ => None,
            })
            .collect()
    }

    /// The legal moves.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.session.legal_moves()
    }

    /// Whether the side to move has no move but to pass.
    pub fn must_pass(&self) -> bool {
        self.outcome().is_none() && self.session.must_pass()
    }

    /// Whether `swap` is a legal move now (Lehto's second move).
    pub fn swap_offered(&self) -> bool {
        self.outcome().is_none() && self.session.legal_moves().contains(&Move::Swap)
    }

    /// The last move and the discs it turned.
    pub fn last(&self) -> Option<&LastMove> {
        self.last.as_ref()
    }

    /// Discs of each colour (black, white).
    pub fn counts(&self) -> (usize, usize) {
        let cells = self.cells();
        let count = |c| cells.iter().filter(|&&x| x == Cell::Disc(c)).count();
        (count(Color::Black), count(Color::White))
    }

    /// Moves played (passes count).
    pub fn moves_made(&self) -> usize {
        self.session.moves_made()
    }

    /// The time left on `color`'s clock now (running for the side to move), when there is a
    /// clock.
    pub fn time_left(&self, color: Color) -> Option<Duration> {
        self.clock?;
        let mut left = self.left[slot(color)];
        if color == self.to_move() && self.outcome().is_none() {
            left = left.saturating_sub(self.turn_started.elapsed());
        }
        Some(left)
    }

    /// The clock of the side to move as the search takes it.
    pub fn search_clock(&self) -> Option<crate::search::Clock> {
        self.search_clock_of(self.to_move())
    }

    /// The clock of `color` as a search budgets it, when the game has clocks.
    pub fn search_clock_of(&self, color: Color) -> Option<crate::search::Clock> {
        let clock = self.clock?;
        Some(crate::search::Clock {
            time_left: self.time_left(color)?,
            increment: clock.increment,
            ..crate::search::Clock::default()
        })
    }

    /// Ends the game when the side to move's clock has run out; true when it did now.
    pub fn check_flag(&mut self) -> bool {
        if self.outcome().is_some() {
            return false;
        }
        let mover = self.to_move();
        if self.time_left(mover) == Some(Duration::ZERO) {
            self.left[slot(mover)] = Duration::ZERO;
            self.flagged = Some(mover);
            return true;
        }
        false
    }

    /// Plays a move of the side to move; the clock of the side that moved stops (with its
    /// increment) and the other's starts.
    pub fn play(&mut self, mv: Move) -> Result<(), String> {
        if let Some(outcome) = self.outcome() {
            return Err(format!("the game is over: {}", outcome.describe()));
        }
        if self.check_flag() {
            return Err(Outcome::Flagged(self.to_move()).describe());
        }
        let mover = self.to_move();
        let before = self.cells();
        self.session.play(mv).map_err(|e| e.to_string())?;
        self.follow_swap(mv);
        if let Some(clock) = self.clock {
            let i = slot(mover);
            self.left[i] =
                self.left[i].saturating_sub(self.turn_started.elapsed()) + clock.increment;
        }
        self.turn_started = Instant::now();
        self.last = Some(LastMove {
            color: mover,
            mv,
            flipped: turned(&before, &self.cells(), mv, self.size()),
        });
        self.redo.clear();
        Ok(())
    }

    /// Whether a human has a move to make now (where undo and redo stop).
    fn human_has_a_move(&self) -> bool {
        self.player(self.to_move()) == PlayerKind::Human && !self.session.must_pass()
    }

    /// Lehto's swap, played or taken back: the players trade colours (the colour to move stays,
    /// so the turn goes to the one who made the first move).
    fn follow_swap(&mut self, mv: Move) {
        if mv == Move::Swap {
            self.players.swap(0, 1);
        }
    }

    /// Takes back moves: one, or against the engine as many as bring the turn back to a human
    /// (passes with them). Returns how many; none when there is nothing to take back.
    pub fn undo(&mut self) -> usize {
        let mut taken = Vec::new();
        while let Some(mv) = self.session.undo() {
            taken.push(mv);
            self.follow_swap(mv);
            if self.human_has_a_move() {
                break;
            }
        }
        if taken.is_empty() {
            return 0;
        }
        let n = taken.len();
        self.redo.extend(taken);
        self.flagged = None;
        self.after_jump();
        n
    }

    /// Plays again the moves the last undo took back, as far as the next human turn. Returns how
    /// many.
    pub fn redo(&mut self) -> usize {
        let mut n = 0;
        while let Some(mv) = self.redo.pop() {
            if self.session.play(mv).is_err() {
                self.redo.clear();
                break;
            }
            self.follow_swap(mv);
            n += 1;
            if self.human_has_a_move() {
                break;
            }
        }
        self.after_jump();
        n
    }

    /// Whether a redo would play anything.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// After the position changed by more than a move: the last move is recomputed and the
    /// clock of the side to move restarts.
    fn after_jump(&mut self) {
        self.turn_started = Instant::now();
        self.last = last_move_of(self.session.as_ref());
    }

    /// A new game of the same kind, players and clock.
    pub fn new_game(&mut self) {
        *self = Table::new(self.kind(), self.players, self.clock);
    }

    /// The humans take the other colour and the engine the other.
    pub fn switch_sides(&mut self) {
        self.players.swap(0, 1);
        self.turn_started = Instant::now();
    }

    /// The game as GGF text.
    pub fn to_ggf(&self) -> String {
        let name = |c| {
            match self.player(c) {
                PlayerKind::Human => "human",
                PlayerKind::Engine => "othel",
            }
            .to_string()
        };
        let mut properties = vec![
            ("PC".to_string(), "othel play".to_string()),
            ("PB".to_string(), name(Color::Black)),
            ("PW".to_string(), name(Color::White)),
        ];
        if let Some(Outcome::Flagged(c)) = self.outcome() {
            // The whole board to the winner, as `othel match` writes a time forfeit.
            let board = (self.size() * self.size()) as i32;
            let black_margin = if c == Color::Black { -board } else { board };
            properties.push(("RE".to_string(), format!("{black_margin:+}.000:t")));
        }
        format!("{}\n", self.session.record(properties))
    }

    /// Replaces the game by a GGF record's (of any variant and size); on an error nothing changes.
    pub fn load_ggf(&mut self, text: &str) -> Result<(), String> {
        let record: GgfRecord = text
            .trim()
            .parse()
            .map_err(|e: crate::rules::ggf::GgfError| e.to_string())?;
        let mut session = new_session(record.kind());
        session.set_ggf(&record).map_err(|e| e.to_string())?;
        let base = self.clock.map_or(Duration::ZERO, |c| c.base);
        self.session = session;
        self.left = [base; 2];
        self.redo.clear();
        self.flagged = None;
        self.after_jump();
        Ok(())
    }

    /// Plays moves one after another, stopping at the first that cannot be played.
    pub fn play_all(&mut self, moves: &[Move]) -> Result<(), String> {
        for &mv in moves {
            self.play(mv)?;
        }
        Ok(())
    }
}

/// The cells of a session's position, read from its board string by the notation's parser.
fn cells_of(session: &dyn Session) -> Vec<Cell> {
    let squares = session
        .board_string()
        .parse::<ObfLine>()
        .map(|line| line.setup.squares().to_vec())
        .unwrap_or_default();
    squares
        .into_iter()
        .map(|c| c.map_or(Cell::Empty, Cell::Disc))
        .collect()
}

/// The squares a move turned: those holding a disc before and a disc of the other colour after
/// (the placed square is new, so not among them).
fn turned(before: &[Cell], after: &[Cell], mv: Move, size: usize) -> Vec<usize> {
    let placed = match mv {
        Move::Place(sq) => sq.index(size),
        _ => None,
    };
    before
        .iter()
        .zip(after)
        .enumerate()
        .filter(|&(i, (b, a))| Some(i) != placed && *b != Cell::Empty && b != a)
        .map(|(i, _)| i)
        .collect()
}

/// The last move of a session's game and what it turned, found by taking it back on a copy.
fn last_move_of(session: &dyn Session) -> Option<LastMove> {
    let mut copy = session.boxed_clone();
    let after = cells_of(session);
    let mv = copy.undo()?;
    let color = copy.side_to_move();
    let before = cells_of(copy.as_ref());
    let size = session.kind().size();
    Some(LastMove {
        color,
        mv,
        flipped: turned(&before, &after, mv, size),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    fn six() -> BoardKind {
        BoardKind::new(Variant::Othello, 6).unwrap()
    }

    #[test]
    fn a_move_records_what_it_turned_and_undo_redo_walk_the_game() {
        let mut table = Table::new(six(), [PlayerKind::Human; 2], None);
        assert_eq!(table.counts(), (2, 2));
        assert_eq!(table.playable().len(), 4);
        table.play(mv("c2")).unwrap();
        let last = table.last().unwrap().clone();
        assert_eq!((last.color, last.mv), (Color::Black, mv("c2")));
        // c2 turns c3 (index 2*6+2 = 14).
        assert_eq!(last.flipped, vec![14]);
        assert_eq!(table.counts(), (4, 1));
        assert!(table.play(mv("a1")).is_err());
        assert_eq!(table.counts(), (4, 1));
        table.play(mv("d2")).unwrap();
        // Two humans: undo takes back one move at a time.
        assert_eq!(table.undo(), 1);
        assert_eq!(table.last().unwrap().mv, mv("c2"));
        assert_eq!(table.last().unwrap().flipped, vec![14]);
        assert_eq!(table.redo(), 1);
        assert_eq!(table.last().unwrap().mv, mv("d2"));
        assert!(!table.can_redo());
        // A new move forgets what could be redone.
        table.undo();
        table.play(mv("b4")).unwrap();
        assert!(!table.can_redo());
    }

    #[test]
    fn against_the_engine_undo_goes_back_to_the_human() {
        let mut table = Table::new(six(), [PlayerKind::Human, PlayerKind::Engine], None);
        table.play(mv("c2")).unwrap();
        table.play(mv("d2")).unwrap();
        assert_eq!(table.undo(), 2);
        assert_eq!(table.moves_made(), 0);
        assert_eq!(table.to_move(), Color::Black);
        assert_eq!(table.redo(), 2);
        assert_eq!(table.moves_made(), 2);
        assert_eq!(table.undo(), 2);
        assert_eq!(table.undo(), 0);
    }

    #[test]
    fn a_clock_runs_for_the_side_to_move_and_flags_at_zero() {
        let clock = ClockSetting {
            base: Duration::from_millis(40),
            increment: Duration::from_secs(1),
        };
        let mut table = Table::new(six(), [PlayerKind::Human; 2], Some(clock));
        table.play(mv("c2")).unwrap();
        // Black moved at once: its time plus the increment.
        assert!(table.time_left(Color::Black).unwrap() > Duration::from_secs(1));
        std::thread::sleep(Duration::from_millis(60));
        assert_eq!(table.time_left(Color::White), Some(Duration::ZERO));
        assert!(table.check_flag());
        assert_eq!(table.outcome(), Some(Outcome::Flagged(Color::White)));
        assert!(table.play(mv("d2")).is_err());
        assert_eq!(
            table.outcome().unwrap().describe(),
            "white lost on time: black wins"
        );
        assert!(table.to_ggf().contains("RE[+36.000:t]"));
    }

    #[test]
    fn games_save_and_load_as_ggf() {
        let mut table = Table::new(six(), [PlayerKind::Human; 2], None);
        table.play_all(&[mv("c2"), mv("d2")]).unwrap();
        let text = table.to_ggf();
        let mut other = Table::new(BoardKind::default(), [PlayerKind::Human; 2], None);
        other.load_ggf(&text).unwrap();
        assert_eq!(other.kind(), six());
        assert_eq!(other.cells(), table.cells());
        assert_eq!(other.last(), table.last());
        assert!(other.load_ggf("(;GM[Othello]garbage").is_err());
        assert_eq!(other.cells(), table.cells());
    }

    #[test]
    fn a_lehto_swap_trades_the_players_colours() {
        let nine = BoardKind::new(Variant::Lehto, 9).unwrap();
        let mut table = Table::new(nine, [PlayerKind::Engine, PlayerKind::Human], None);
        table.play(mv("e5")).unwrap();
        assert!(table.swap_offered());
        table.play(Move::Swap).unwrap();
        // The human owns black's disc now; white (the engine) is to move.
        assert_eq!(table.player(Color::Black), PlayerKind::Human);
        assert_eq!(table.to_move(), Color::White);
        assert!(table.engine_to_move());
        assert_eq!(table.undo(), 1);
        assert_eq!(table.player(Color::White), PlayerKind::Human);
        assert!(table.swap_offered());
    }

    #[test]
    fn clock_settings_read() {
        let c: ClockSetting = "3+2".parse().unwrap();
        assert_eq!(
            (c.base, c.increment),
            (Duration::from_secs(180), Duration::from_secs(2))
        );
        assert_eq!(
            "0.5".parse::<ClockSetting>().unwrap().base,
            Duration::from_secs(30)
        );
        for bad in ["", "x", "0", "-1", "3+", "3+x", "100000"] {
            assert!(bad.parse::<ClockSetting>().is_err(), "{bad}");
        }
    }
}
