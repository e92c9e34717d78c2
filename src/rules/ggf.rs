//! GGF game records, as GGS, NBoard and the engines that talk to them write them:
//! `(;GM[Othello]PC[…]PB[…]PW[…]RE[+4.000]TY[8]BO[8 -------- … *]B[f5]W[d6/1.5/0.02]…;)`.
//! `BO` gives the size and start position (`*` black, `O` white, `-` empty, then the colour to move);
//! `PA` is a pass; Lehto games say `GM[Lehto]` and may hold a `swap`.

use super::game::Game;
use super::notation::{NotationError, Setup, color_of};
use super::position::{IllegalMove, Position};
use super::square::Move;
use super::variant::{BoardKind, Color, Variant};
use std::fmt;
use std::str::FromStr;

/// Why a GGF record could not be read or played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum GgfError {
    /// The record does not start with `(;`.
    MissingStart,
    /// The record does not end with `;)`.
    MissingEnd,
    /// A property that is not `KEY[value]`.
    BadProperty(String),
    /// A `GM` other than Othello or Lehto.
    UnknownGame(String),
    /// Neither `BO` nor `TY` gives the board.
    MissingBoard,
    /// A `BO` or `TY` that cannot be read.
    BadBoard(String),
    /// A move value that cannot be read.
    BadMove(String),
    /// A move by the colour not to move.
    WrongColor {
        /// Which move, from 1.
        ply: usize,
        /// The colour the record gives.
        found: Color,
    },
    /// An illegal move.
    Illegal {
        /// Which move, from 1.
        ply: usize,
        /// The move and why.
        error: IllegalMove,
    },
    /// The board is not of the kind asked for.
    Notation(NotationError),
}

impl fmt::Display for GgfError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            GgfError::MissingStart => f.write_str("a GGF record starts with '(;'"),
            GgfError::MissingEnd => f.write_str("the GGF record does not end with ';)'"),
            GgfError::BadProperty(s) => write!(f, "bad GGF property near '{s}'"),
            GgfError::UnknownGame(s) => write!(f, "unknown game GM[{s}] (Othello or Lehto)"),
            GgfError::MissingBoard => f.write_str("the GGF record has neither BO[] nor TY[]"),
            GgfError::BadBoard(s) => write!(f, "bad GGF board '{s}'"),
            GgfError::BadMove(s) => write!(f, "bad GGF move '{s}'"),
            GgfError::WrongColor { ply, found } => write!(
                f,
                "move {ply} is played by {}, who is not to move",
                found.name()
            ),
            GgfError::Illegal { ply, error } => write!(f, "move {ply}: {error}"),
            GgfError::Notation(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GgfError {}

impl From<NotationError> for GgfError {
    fn from(e: NotationError) -> Self {
        GgfError::Notation(e)
    }
}

/// One move of a record, with the evaluation and seconds that may annotate it.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfMove {
    /// Who played it.
    pub color: Color,
    /// The move.
    pub mv: Move,
    /// The evaluation given with it (`f5/1.25`), if any.
    pub eval: Option<f64>,
    /// The seconds it took (`f5/1.25/0.3`), if given.
    pub seconds: Option<f64>,
}

/// A GGF record: its other properties in order, the start position and the moves.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfRecord {
    /// Properties other than `GM`, `BO`, `TY`, `B` and `W`, in the order read.
    pub properties: Vec<(String, String)>,
    /// The start position.
    pub start: Setup,
    /// The moves.
    pub moves: Vec<GgfMove>,
}

/// Splits `KEY[value]KEY[value]…` into pairs, undoing `\` escapes.
fn properties(body: &str) -> Result<Vec<(String, String)>, GgfError> {
    let mut out = Vec::new();
    let mut chars = body.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut key = String::new();
        while let Some(&(_, c)) = chars.peek() {
            if c == '[' {
                break;
            }
            if !c.is_ascii_alphabetic() {
                return Err(GgfError::BadProperty(
                    body[start..].chars().take(20).collect(),
                ));
            }
            key.push(c);
            chars.next();
        }
        if key.is_empty() || chars.next().is_none() {
            return Err(GgfError::BadProperty(
                body[start..].chars().take(20).collect(),
            ));
        }
        let mut value = String::new();
        let mut closed = false;
        while let Some((_, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((_, escaped)) = chars.next() {
                        value.push(escaped);
                    }
                }
                ']' => {
                    closed = true;
                    break;
                }
                _ => value.push(c),
            }
        }
        if !closed {
            return Err(GgfError::BadProperty(
                body[start..].chars().take(20).collect(),
            ));
        }
        out.push((key.to_ascii_uppercase(), value));
    }
    Ok(out)
}

/// Reads `BO[8 ---…--- *]`: the size, the squares (spaces between rows allowed), the colour.
fn board_of(value: &str) -> Result<Setup, GgfError> {
    let bad = || GgfError::BadBoard(value.to_string());
    let mut words: Vec<&str> = value.split_whitespace().collect();
    if words.len() < 3 {
        return Err(bad());
    }
    let size: usize = words.remove(0).parse().map_err(|_| bad())?;
    let to_move = color_of(words.pop().ok_or_else(bad)?)?;
    let setup = Setup::from_squares(&words.concat(), to_move)?;
    if setup.kind().size() != size {
        return Err(bad());
    }
    Ok(setup)
}

fn move_of(value: &str, color: Color) -> Result<GgfMove, GgfError> {
    let bad = || GgfError::BadMove(value.to_string());
    let mut parts = value.split('/');
    let mv: Move = parts
        .next()
        .unwrap_or("")
        .trim()
        .parse()
        .map_err(|_| bad())?;
    let mut number = || -> Result<Option<f64>, GgfError> {
        match parts.next().map(str::trim) {
            None | Some("") => Ok(None),
            Some(s) => s.parse().map(Some).map_err(|_| bad()),
        }
    };
    let eval = number()?;
    let seconds = number()?;
    Ok(GgfMove {
        color,
        mv,
        eval,
        seconds,
    })
}

impl FromStr for GgfRecord {
    type Err = GgfError;
    fn from_str(s: &str) -> Result<GgfRecord, GgfError> {
        let s = s.trim();
        let body = s.strip_prefix("(;").ok_or(GgfError::MissingStart)?;
        let body = body.strip_suffix(";)").ok_or(GgfError::MissingEnd)?;
        let mut game = Variant::Othello;
        let mut board = None;
        let mut type_size = None;
        let mut moves = Vec::new();
        let mut others = Vec::new();
        for (key, value) in properties(body)? {
            match key.as_str() {
                "GM" => {
                    game = match value.trim().to_ascii_lowercase().as_str() {
                        "othello" | "reversi" => Variant::Othello,
                        "lehto" | "othel lehto" | "othellehto" => Variant::Lehto,
                        _ => return Err(GgfError::UnknownGame(value)),
                    }
                }
                "BO" => board = Some(board_of(&value)?),
                "TY" => {
                    let digits: String = value
                        .trim()
                        .trim_start_matches(|c: char| c.is_ascii_alphabetic())
                        .chars()
                        .take_while(char::is_ascii_digit)
                        .collect();
                    type_size = Some(
                        digits
                            .parse::<usize>()
                            .map_err(|_| GgfError::BadBoard(value.clone()))?,
                    );
                    others.push((key, value));
                }
                "B" => moves.push(move_of(&value, Color::Black)?),
                "W" => moves.push(move_of(&value, Color::White)?),
                _ => others.push((key, value)),
            }
        }
        let start = match board {
            Some(setup) => setup,
            None => {
                let size = type_size.ok_or(GgfError::MissingBoard)?;
                let kind = BoardKind::new(game, size).map_err(NotationError::from)?;
                crate::with_position_type!(kind, P => Setup::from_position(&P::start()))
            }
        };
        if start.kind().variant() != game {
            return Err(GgfError::UnknownGame(format!(
                "{game} on a {0}x{0} board",
                start.kind().size()
            )));
        }
        Ok(GgfRecord {
            properties: others,
            start,
            moves,
        })
    }
}

impl GgfRecord {
    /// The record of a game, with the given extra properties (`PB`, `PW`, `PC`, …). `RE` is added
    /// when the game is over.
    pub fn from_game<P: Position>(game: &Game<P>, properties: Vec<(String, String)>) -> Self {
        let mut properties = properties;
        let size = game.position().size();
        properties.push(("TY".into(), size.to_string()));
        let end = game.position();
        if end.is_game_over() {
            let score = end.final_score();
            let black_margin = match end.side_to_move() {
                Color::Black => score,
                Color::White => -score,
            };
            properties.push(("RE".into(), format!("{black_margin:+}.000")));
        }
        let moves = game
            .moves()
            .iter()
            .zip(game.positions())
            .map(|(&mv, before)| GgfMove {
                color: before.side_to_move(),
                mv,
                eval: None,
                seconds: None,
            })
            .collect();
        GgfRecord {
            properties,
            start: Setup::from_position(game.start()),
            moves,
        }
    }

    /// The variant and size.
    pub fn kind(&self) -> BoardKind {
        self.start.kind()
    }

    /// Replays the record as a game of `P`, checking every move and its colour (passes may be left
    /// out).
    pub fn to_game<P: Position>(&self) -> Result<Game<P>, GgfError> {
        let mut game = Game::new(self.start.to_position::<P>()?);
        for (i, m) in self.moves.iter().enumerate() {
            let ply = i + 1;
            let pos = game.position();
            let implicit_pass = matches!(m.mv, Move::Place(_)) && pos.must_pass();
            let mover = if implicit_pass {
                pos.side_to_move().opposite()
            } else {
                pos.side_to_move()
            };
            if m.color != mover {
                return Err(GgfError::WrongColor {
                    ply,
                    found: m.color,
                });
            }
            game.play_with_implicit_pass(m.mv)
                .map_err(|error| GgfError::Illegal { ply, error })?;
        }
        Ok(game)
    }
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace(']', "\\]")
}

impl fmt::Display for GgfRecord {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let game = match self.kind().variant() {
            Variant::Othello => "Othello",
            Variant::Lehto => "Lehto",
        };
        write!(f, "(;GM[{game}]")?;
        for (key, value) in &self.properties {
            write!(f, "{key}[{}]", escape(value))?;
        }
        let squares: String = self
            .start
            .squares_string()
            .chars()
            .map(|c| if c == 'X' { '*' } else { c })
            .collect();
        let to_move = match self.start.side_to_move() {
            Color::Black => '*',
            Color::White => 'O',
        };
        write!(f, "BO[{} {squares} {to_move}]", self.kind().size())?;
        for m in &self.moves {
            let key = if m.color == Color::Black { 'B' } else { 'W' };
            let mv = match m.mv {
                Move::Pass => "PA".to_string(),
                other => other.to_string(),
            };
            write!(f, "{key}[{mv}")?;
            match (m.eval, m.seconds) {
                (None, None) => {}
                (Some(e), None) => write!(f, "/{e:.2}")?,
                // Milliseconds: an engine that budgets its clock from these times (NBoard's
                // `set game`) must not see 40 quick moves as 0.00 s each.
                (e, Some(t)) => write!(
                    f,
                    "/{}/{t:.3}",
                    e.map(|e| format!("{e:.2}")).unwrap_or_default()
                )?,
            }
            f.write_str("]")?;
        }
        f.write_str(";)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Othello;
    use crate::rules::geometry::Size8;

    #[test]
    fn an_nboard_record_reads_and_replays() {
        let text = "(;GM[Othello]PC[NBoard]DT[2014-02-14]PB[me]PW[you]RE[?]TI[5:00]TY[8]\
                    BO[8 ---------------------------O*------*O--------------------------- *]\
                    B[F5//1.25]W[d6/-0.5/0.3]B[c3];)";
        let record: GgfRecord = text.parse().unwrap();
        assert_eq!(record.moves.len(), 3);
        assert_eq!(record.moves[1].eval, Some(-0.5));
        assert_eq!(record.moves[1].seconds, Some(0.3));
        assert_eq!(record.moves[0].seconds, Some(1.25));
        let game = record.to_game::<Othello<Size8>>().unwrap();
        assert_eq!(game.transcript(), "f5d6c3");
    }

    #[test]
    fn broken_records_are_errors() {
        let board = "BO[8 ---------------------------O*------*O--------------------------- *]";
        let cases = [
            "GM[Othello];)".to_string(),
            format!("(;GM[Othello]{board}B[f5]"),
            format!("(;GM[Go]{board};)"),
            "(;GM[Othello]PB[x;)".to_string(),
            format!("(;GM[Othello]{board}B[z9];)"),
            format!("(;GM[Othello]{board}W[f5];)"),
            format!("(;GM[Othello]{board}B[a1];)"),
            "(;GM[Othello]BO[8 --- *];)".to_string(),
            "(;GM[Othello]PB[x];)".to_string(),
            "(;GM[Lehto]TY[8];)".to_string(),
        ];
        for text in cases {
            let result = text
                .parse::<GgfRecord>()
                .and_then(|r| r.to_game::<Othello<Size8>>());
            assert!(result.is_err(), "{text} was accepted");
        }
    }
}
