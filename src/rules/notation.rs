//! Board strings, OBF lines and transcripts.
//!
//! A board string is the N² squares row by row from a1 (`X x * B b` black, `O o W w` white, `- .`
//! empty), whitespace, then the colour to move (`X` or `O`); its length gives the size, and the size
//! the variant (even: Othello, odd: Lehto). It is written with `X`, `O` and `-`. An OBF line is a
//! board string, `;`, then `MOVE:score;` entries. A transcript is moves run together (`f5d6c3`),
//! passes implicit.

use super::bits::Bits;
use super::position::Position;
use super::square::{Move, SquareError};
use super::variant::{BadSize, BoardKind, Color, Variant};
use std::fmt;
use std::str::FromStr;

/// Why a board string, OBF line or transcript could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NotationError {
    /// The text is empty.
    Empty,
    /// A character that is no disc or empty square.
    BadSquareChar(char),
    /// A number of squares that is no allowed board's.
    BadLength(usize),
    /// The colour to move is missing.
    MissingSideToMove,
    /// The colour to move is not `X` or `O`.
    BadSideToMove(String),
    /// Text after the colour to move.
    Trailing(String),
    /// The board is of another size or variant than expected.
    WrongKind {
        /// What the board is.
        found: BoardKind,
        /// What was expected.
        expected: BoardKind,
    },
    /// A move could not be read.
    BadMove(SquareError),
    /// An OBF entry that is not `MOVE:score`.
    BadScoreEntry(String),
    /// A size the variant is not played on.
    BadSize(BadSize),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            NotationError::Empty => f.write_str("empty board string"),
            NotationError::BadSquareChar(c) => {
                write!(
                    f,
                    "'{c}' is not a square (X x * B b black, O o W w white, - . empty)"
                )
            }
            NotationError::BadLength(n) => write!(
                f,
                "{n} squares is no board (4x4 to 16x16 Othello, 5x5 to 19x19 Lehto)"
            ),
            NotationError::MissingSideToMove => {
                f.write_str("the colour to move (X or O) is missing after the squares")
            }
            NotationError::BadSideToMove(s) => {
                write!(f, "'{s}' is not a colour to move (X or O)")
            }
            NotationError::Trailing(s) => write!(f, "unexpected '{s}' after the board"),
            NotationError::WrongKind { found, expected } => {
                write!(f, "the board is {found}, expected {expected}")
            }
            NotationError::BadMove(e) => e.fmt(f),
            NotationError::BadScoreEntry(s) => {
                write!(f, "'{s}' is not a move score such as 'G8:+18'")
            }
            NotationError::BadSize(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for NotationError {}

impl From<SquareError> for NotationError {
    fn from(e: SquareError) -> Self {
        NotationError::BadMove(e)
    }
}

impl From<BadSize> for NotationError {
    fn from(e: BadSize) -> Self {
        NotationError::BadSize(e)
    }
}

/// A board of any size as plain squares: what a board string says, before it becomes a position of
/// a particular type.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    kind: BoardKind,
    squares: Vec<Option<Color>>,
    to_move: Color,
}

fn disc_of(c: char) -> Result<Option<Color>, NotationError> {
    match c {
        'X' | 'x' | '*' | 'B' | 'b' => Ok(Some(Color::Black)),
        'O' | 'o' | 'W' | 'w' => Ok(Some(Color::White)),
        '-' | '.' => Ok(None),
        _ => Err(NotationError::BadSquareChar(c)),
    }
}

/// Reads a colour to move: `X`, `B`, `*` for black, `O`, `W` for white, any case.
pub fn color_of(s: &str) -> Result<Color, NotationError> {
    match s {
        "X" | "x" | "*" | "B" | "b" => Ok(Color::Black),
        "O" | "o" | "W" | "w" => Ok(Color::White),
        _ => Err(NotationError::BadSideToMove(s.to_string())),
    }
}

impl Setup {
    /// Reads the squares alone (no colour to move); the length gives the size.
    pub fn from_squares(squares: &str, to_move: Color) -> Result<Setup, NotationError> {
        let squares = squares
            .chars()
            .map(disc_of)
            .collect::<Result<Vec<_>, _>>()?;
        let n = squares.len();
        let size = (1..=19).find(|s| s * s == n);
        let kind = size
            .and_then(|s| Variant::for_size(s).map(|v| (v, s)))
            .map(|(v, s)| BoardKind::new(v, s))
            .ok_or(NotationError::BadLength(n))??;
        Ok(Setup {
            kind,
            squares,
            to_move,
        })
    }

    /// The setup of a position.
    pub fn from_position<P: Position>(position: &P) -> Setup {
        let size = position.size();
        let (black, white) = (position.black(), position.white());
        let squares = (0..size * size)
            .map(|i| {
                if black.has(i) {
                    Some(Color::Black)
                } else if white.has(i) {
                    Some(Color::White)
                } else {
                    None
                }
            })
            .collect();
        Setup {
            kind: BoardKind::new(P::VARIANT, size).unwrap_or_default(),
            squares,
            to_move: position.side_to_move(),
        }
    }

    /// The position, when the board is of `P`'s kind.
    pub fn to_position<P: Position>(&self) -> Result<P, NotationError> {
        let mut black = P::Bits::ZERO;
        let mut white = P::Bits::ZERO;
        let expected_size = <P::Geometry as super::Geometry>::SIZE;
        if self.kind.variant() != P::VARIANT || self.kind.size() != expected_size {
            return Err(NotationError::WrongKind {
                found: self.kind,
                expected: BoardKind::new(P::VARIANT, expected_size).unwrap_or_default(),
            });
        }
        for (i, square) in self.squares.iter().enumerate() {
            match square {
                Some(Color::Black) => black |= P::Bits::bit(i),
                Some(Color::White) => white |= P::Bits::bit(i),
                None => {}
            }
        }
        // Disjoint and on the board by construction.
        P::from_discs(black, white, self.to_move)
            .map_err(|_| NotationError::BadLength(self.squares.len()))
    }

    /// The variant and size.
    pub fn kind(&self) -> BoardKind {
        self.kind
    }

    /// The colour to move.
    pub fn side_to_move(&self) -> Color {
        self.to_move
    }

    /// The squares, row by row from a1.
    pub fn squares(&self) -> &[Option<Color>] {
        &self.squares
    }

    /// The same board under a symmetry.
    pub fn transformed(&self, symmetry: super::symmetry::Symmetry) -> Setup {
        let size = self.kind.size();
        let mut squares = vec![None; self.squares.len()];
        for (i, square) in self.squares.iter().enumerate() {
            squares[symmetry.apply_index(i, size)] = *square;
        }
        Setup {
            kind: self.kind,
            squares,
            to_move: self.to_move,
        }
    }

    /// The squares alone, written with `X`, `O` and `-`.
    pub fn squares_string(&self) -> String {
        self.squares
            .iter()
            .map(|s| match s {
                Some(c) => c.letter(),
                None => '-',
            })
            .collect()
    }
}

impl FromStr for Setup {
    type Err = NotationError;
    /// Reads a board string: squares, whitespace, colour to move.
    fn from_str(s: &str) -> Result<Setup, NotationError> {
        let mut words = s.split_whitespace();
        let squares = words.next().ok_or(NotationError::Empty)?;
        let to_move = color_of(words.next().ok_or(NotationError::MissingSideToMove)?)?;
        if let Some(extra) = words.next() {
            return Err(NotationError::Trailing(extra.to_string()));
        }
        Setup::from_squares(squares, to_move)
    }
}

impl fmt::Display for Setup {
    /// The board string: squares with `X`, `O`, `-`, a space, the colour to move.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} {}", self.squares_string(), self.to_move.letter())
    }
}

/// The board string of a position.
pub fn board_string<P: Position>(position: &P) -> String {
    Setup::from_position(position).to_string()
}

/// An OBF line: a position and the scores of some of its moves (best first in the FFO files).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ObfLine {
    /// The position.
    pub setup: Setup,
    /// Moves with their exact scores for the side to move.
    pub scores: Vec<(Move, i32)>,
}

impl ObfLine {
    /// The best score listed, if any.
    pub fn best_score(&self) -> Option<i32> {
        self.scores.iter().map(|&(_, s)| s).max()
    }
}

impl FromStr for ObfLine {
    type Err = NotationError;
    /// Reads `<board string>; MOVE:score; …` (the scores are optional, so a plain board string reads
    /// too).
    fn from_str(s: &str) -> Result<ObfLine, NotationError> {
        let mut parts = s.split(';');
        let setup: Setup = parts.next().unwrap_or("").parse()?;
        let mut scores = Vec::new();
        for entry in parts.map(str::trim).filter(|e| !e.is_empty()) {
            let bad = || NotationError::BadScoreEntry(entry.to_string());
            let (mv, score) = entry.split_once(':').ok_or_else(bad)?;
            let mv: Move = mv.trim().parse().map_err(|_| bad())?;
            let score: i32 = score
                .trim()
                .trim_start_matches('+')
                .parse()
                .map_err(|_| bad())?;
            scores.push((mv, score));
        }
        Ok(ObfLine { setup, scores })
    }
}

/// Reads a transcript: moves run together or separated by spaces or commas (`f5d6c3`, `f5 d6`,
/// `e5 swap d4`), `pass`/`pa` allowed but not needed.
pub fn parse_transcript(s: &str) -> Result<Vec<Move>, NotationError> {
    let mut moves = Vec::new();
    let mut rest = s;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
        if rest.is_empty() {
            return Ok(moves);
        }
        let lower = rest.get(..4).map(str::to_ascii_lowercase);
        let (token_len, mv) = match lower.as_deref() {
            Some("pass") => (4, Move::Pass),
            Some("swap") => (4, Move::Swap),
            _ if rest.get(..2).is_some_and(|t| t.eq_ignore_ascii_case("pa")) => (2, Move::Pass),
            _ if rest.starts_with("--") => (2, Move::Pass),
            _ => {
                let first = rest.chars().next().map_or(0, char::len_utf8);
                let digits = rest[first..].bytes().take_while(u8::is_ascii_digit).count();
                let len = first + digits;
                match rest[..len].parse::<Move>() {
                    Ok(mv) => (len, mv),
                    // Name the whole word that is not a move (`moves`), not its first letter.
                    Err(SquareError::Malformed(_)) => {
                        let word = rest
                            .split(|c: char| c.is_whitespace() || c == ',')
                            .next()
                            .unwrap_or(rest);
                        let word: String = word.chars().take(20).collect();
                        return Err(NotationError::BadMove(SquareError::Malformed(word)));
                    }
                    Err(e) => return Err(e.into()),
                }
            }
        };
        moves.push(mv);
        rest = &rest[token_len..];
    }
}

/// Writes a transcript: the moves run together, passes left out.
pub fn write_transcript(moves: &[Move]) -> String {
    moves
        .iter()
        .filter(|m| **m != Move::Pass)
        .map(Move::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::{Size8, Size9};
    use crate::rules::{Lehto, Othello};

    #[test]
    fn the_start_position_round_trips_through_its_board_string() {
        let start = Othello::<Size8>::start();
        let text = board_string(&start);
        assert_eq!(
            text,
            "---------------------------OX------XO--------------------------- X"
        );
        let setup: Setup = text.parse().unwrap();
        assert_eq!(setup.to_position::<Othello<Size8>>().unwrap(), start);
        assert!(setup.to_position::<Lehto<Size9>>().is_err());
    }

    #[test]
    fn every_disc_letter_reads() {
        let text = format!("{}xXbB*oOwW.- o", "-".repeat(64 - 11));
        let setup: Setup = text.parse().unwrap();
        assert_eq!(setup.side_to_move(), Color::White);
        let pos: Othello<Size8> = setup.to_position().unwrap();
        assert_eq!(pos.disc_counts(), (5, 4));
    }

    #[test]
    fn malformed_board_strings_are_errors() {
        let cases = [
            ("", NotationError::Empty),
            ("---- X", NotationError::BadLength(4)),
            (&"-".repeat(64), NotationError::MissingSideToMove),
            (
                &format!("{} Z", "-".repeat(64)),
                NotationError::BadSideToMove("Z".into()),
            ),
            (
                &format!("{}? X", "-".repeat(63)),
                NotationError::BadSquareChar('?'),
            ),
            (
                &format!("{} X extra", "-".repeat(64)),
                NotationError::Trailing("extra".into()),
            ),
            (&format!("{} X", "-".repeat(9)), NotationError::BadLength(9)),
        ];
        for (text, expected) in cases {
            assert_eq!(text.parse::<Setup>(), Err(expected), "{text}");
        }
    }

    #[test]
    fn obf_lines_read_with_their_scores() {
        let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; A4:-22;";
        let obf: ObfLine = line.parse().unwrap();
        assert_eq!(obf.scores.len(), 3);
        assert_eq!(obf.scores[0], ("g8".parse().unwrap(), 18));
        assert_eq!(obf.best_score(), Some(18));
        assert!("---- X; G8".parse::<ObfLine>().is_err());
        let bad = format!("{} X; G8:+x;", "-".repeat(64));
        assert!(matches!(
            bad.parse::<ObfLine>(),
            Err(NotationError::BadScoreEntry(_))
        ));
    }

    #[test]
    fn transcripts_read_in_every_form() {
        let moves = parse_transcript("f5D6c3 d3,c4").unwrap();
        assert_eq!(write_transcript(&moves), "f5d6c3d3c4");
        let long = parse_transcript("a11s19swapPAb2").unwrap();
        assert_eq!(
            long,
            vec![
                Move::Place("a11".parse().unwrap()),
                Move::Place("s19".parse().unwrap()),
                Move::Swap,
                Move::Pass,
                Move::Place("b2".parse().unwrap()),
            ]
        );
        assert!(parse_transcript("f5x").is_err());
        assert!(parse_transcript("f5é6").is_err());
    }
}
