//! Colours, variants and the board sizes each variant allows.

use std::fmt;
use std::str::FromStr;

/// A disc colour; black moves first in both variants.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Moves first; `X` (or `*` in GGF).
    Black,
    /// `O`.
    White,
}

impl Color {
    /// The other colour.
    pub fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `black` or `white`.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// The board-string letter: `X` or `O`.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }
}

/// The game played.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Variant {
    /// Othello / Reversi, on even sides from 4 to 16.
    Othello,
    /// Othel Lehto, the palindrome game, on odd sides from 5 to 19.
    Lehto,
}

impl Variant {
    /// The side used when none is given.
    pub fn default_size(self) -> usize {
        match self {
            Variant::Othello => 8,
            Variant::Lehto => 9,
        }
    }

    /// Whether the variant is played on a board of side `size`.
    pub fn allows_size(self, size: usize) -> bool {
        match self {
            Variant::Othello => (4..=16).contains(&size) && size.is_multiple_of(2),
            Variant::Lehto => (5..=19).contains(&size) && !size.is_multiple_of(2),
        }
    }

    /// The variant played on a board of side `size`: even sides are Othello, odd sides Lehto.
    pub fn for_size(size: usize) -> Option<Variant> {
        [Variant::Othello, Variant::Lehto]
            .into_iter()
            .find(|v| v.allows_size(size))
    }

    /// The lowercase name used in options and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Othello => "othello",
            Variant::Lehto => "lehto",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that is not known.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "unknown variant '{}' (othello or lehto)", self.0)
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        match s.to_ascii_lowercase().as_str() {
            "othello" | "reversi" => Ok(Variant::Othello),
            "lehto" | "othel-lehto" | "othellehto" => Ok(Variant::Lehto),
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}

/// A variant together with a board size it allows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BoardKind {
    variant: Variant,
    size: usize,
}

/// A size the variant is not played on.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BadSize {
    /// The variant asked for.
    pub variant: Variant,
    /// The size asked for.
    pub size: usize,
}

impl fmt::Display for BadSize {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let allowed = match self.variant {
            Variant::Othello => "even sides from 4 to 16",
            Variant::Lehto => "odd sides from 5 to 19",
        };
        write!(
            f,
            "{} is not played on a {}x{} board ({allowed})",
            self.variant, self.size, self.size
        )
    }
}

impl std::error::Error for BadSize {}

impl BoardKind {
    /// The variant on a board of side `size`, if it is played there.
    pub fn new(variant: Variant, size: usize) -> Result<BoardKind, BadSize> {
        if variant.allows_size(size) {
            Ok(BoardKind { variant, size })
        } else {
            Err(BadSize { variant, size })
        }
    }

    /// The variant on its default board.
    pub fn default_for(variant: Variant) -> BoardKind {
        BoardKind {
            variant,
            size: variant.default_size(),
        }
    }

    /// The game.
    pub fn variant(self) -> Variant {
        self.variant
    }

    /// The side of the board.
    pub fn size(self) -> usize {
        self.size
    }
}

impl Default for BoardKind {
    fn default() -> Self {
        BoardKind::default_for(Variant::Othello)
    }
}

impl fmt::Display for BoardKind {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} {}x{}", self.variant, self.size, self.size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_follow_the_variants() {
        let othello: Vec<usize> = (0..30)
            .filter(|&s| Variant::Othello.allows_size(s))
            .collect();
        assert_eq!(othello, [4, 6, 8, 10, 12, 14, 16]);
        let lehto: Vec<usize> = (0..30).filter(|&s| Variant::Lehto.allows_size(s)).collect();
        assert_eq!(lehto, [5, 7, 9, 11, 13, 15, 17, 19]);
        assert_eq!(Variant::for_size(9), Some(Variant::Lehto));
        assert_eq!(Variant::for_size(3), None);
        assert!(BoardKind::new(Variant::Lehto, 8).is_err());
        assert_eq!("Lehto".parse::<Variant>(), Ok(Variant::Lehto));
    }
}
