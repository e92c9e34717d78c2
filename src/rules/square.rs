//! Squares and moves, and their notation: a square is its column letter and row number, `a1` at the
//! top left with rows counted downwards; `pass` and `swap` are moves too. Input is case-insensitive,
//! output lowercase.

use std::fmt;
use std::str::FromStr;

/// The largest side any variant allows (Lehto 19×19).
pub const MAX_SIZE: usize = 19;

/// A square, by column and row (both from 0; `a1` is column 0, row 0).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Square {
    /// Row first, so that the derived order is square order (a1, b1, …, a2, …).
    row: u8,
    col: u8,
}

impl Square {
    /// The square in `col` and `row` (from 0), if both are below [`MAX_SIZE`].
    pub fn new(col: usize, row: usize) -> Option<Square> {
        (col < MAX_SIZE && row < MAX_SIZE).then_some(Square {
            row: row as u8,
            col: col as u8,
        })
    }

    /// The square at bit `index` of a board of side `size`.
    pub fn from_index(index: usize, size: usize) -> Square {
        Square {
            row: (index / size) as u8,
            col: (index % size) as u8,
        }
    }

    /// Its column, from 0.
    pub fn col(self) -> usize {
        self.col as usize
    }

    /// Its row, from 0.
    pub fn row(self) -> usize {
        self.row as usize
    }

    /// Its bit index on a board of side `size`, or `None` when the square is off that board.
    pub fn index(self, size: usize) -> Option<usize> {
        (self.col() < size && self.row() < size).then(|| self.row() * size + self.col())
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col) as char, self.row + 1)
    }
}

/// Why a square or move could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SquareError {
    /// Not a letter followed by a row number, nor `pass` or `swap`.
    Malformed(String),
    /// A well-formed square beyond the largest board.
    OutOfRange(String),
}

impl fmt::Display for SquareError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SquareError::Malformed(s) => write!(f, "'{s}' is not a square or move"),
            SquareError::OutOfRange(s) => {
                write!(f, "'{s}' is off every board (columns a-s, rows 1-19)")
            }
        }
    }
}

impl std::error::Error for SquareError {}

impl FromStr for Square {
    type Err = SquareError;
    fn from_str(s: &str) -> Result<Square, SquareError> {
        let malformed = || SquareError::Malformed(s.to_string());
        let mut chars = s.chars();
        let letter = chars.next().ok_or_else(malformed)?;
        if !letter.is_ascii_alphabetic() {
            return Err(malformed());
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(malformed());
        }
        let row: usize = digits.parse().map_err(|_| malformed())?;
        let col = (letter.to_ascii_lowercase() as u8 - b'a') as usize;
        if row == 0 {
            return Err(malformed());
        }
        Square::new(col, row - 1).ok_or_else(|| SquareError::OutOfRange(s.to_string()))
    }
}

/// A move: a disc placed on a square, a pass (Othello, when the player has no placement), or a swap
/// of colours (Lehto, as the second move of a game).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Move {
    /// Place a disc on the square.
    Place(Square),
    /// Pass the turn.
    Pass,
    /// Trade colours with the opponent.
    Swap,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Move::Place(sq) => sq.fmt(f),
            Move::Pass => f.write_str("pass"),
            Move::Swap => f.write_str("swap"),
        }
    }
}

impl FromStr for Move {
    type Err = SquareError;
    fn from_str(s: &str) -> Result<Move, SquareError> {
        match s.to_ascii_lowercase().as_str() {
            "pass" | "pa" | "ps" | "--" => Ok(Move::Pass),
            "swap" => Ok(Move::Swap),
            _ => s.parse().map(Move::Place),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_read_any_case_and_print_lowercase() {
        let sq: Square = "F5".parse().unwrap();
        assert_eq!((sq.col(), sq.row()), (5, 4));
        assert_eq!(sq.to_string(), "f5");
        assert_eq!(sq.index(8), Some(37));
        assert_eq!(Square::from_index(37, 8), sq);
        let far: Square = "s19".parse().unwrap();
        assert_eq!(far.index(19), Some(360));
        assert_eq!(far.index(17), None);
    }

    #[test]
    fn malformed_squares_are_errors() {
        for bad in ["", "f", "5f", "f0", "f123", "é5", "f-1", "t1", "a20", "z9"] {
            assert!(bad.parse::<Square>().is_err(), "{bad} parsed");
        }
        assert!(matches!(
            "t1".parse::<Square>(),
            Err(SquareError::OutOfRange(_))
        ));
    }

    #[test]
    fn moves_include_pass_and_swap() {
        assert_eq!("PASS".parse::<Move>(), Ok(Move::Pass));
        assert_eq!("PA".parse::<Move>(), Ok(Move::Pass));
        assert_eq!("Swap".parse::<Move>(), Ok(Move::Swap));
        assert_eq!(Move::Swap.to_string(), "swap");
        assert!("passes".parse::<Move>().is_err());
    }
}
