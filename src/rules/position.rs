//! The interface every variant's position implements. Search, evaluation, notation and perft are
//! written against it once and monomorphised for each board type.

use super::bits::Bits;
use super::geometry::Geometry;
use super::square::{Move, Square};
use super::variant::{Color, Variant};
use std::fmt;
use std::fmt::Debug;
use std::hash::Hash;

/// A move that is not legal in the position it was played in.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct IllegalMove {
    /// The move tried.
    pub mv: Move,
    /// Why it is not legal.
    pub reason: IllegalReason,
}

/// Why a move is illegal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum IllegalReason {
    /// The square is not on this board.
    OffBoard,
    /// The square already holds a disc.
    Occupied,
    /// The placement flips nothing (Othello).
    FlipsNothing,
    /// A pass while a placement is possible, or when the game is over.
    CannotPass,
    /// A swap anywhere but as the second move of a Lehto game.
    CannotSwap,
    /// The game is over.
    GameOver,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let why = match self.reason {
            IllegalReason::OffBoard => "the square is off the board",
            IllegalReason::Occupied => "the square is occupied",
            IllegalReason::FlipsNothing => "it flips no disc",
            IllegalReason::CannotPass => "a pass is only legal when there is no placement to make",
            IllegalReason::CannotSwap => "swap is only legal as the second move of a Lehto game",
            IllegalReason::GameOver => "the game is over",
        };
        write!(f, "illegal move '{}': {why}", self.mv)
    }
}

impl std::error::Error for IllegalMove {}

/// Discs that do not fit a board: overlapping colours or squares off the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BadDiscs;

impl fmt::Display for BadDiscs {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("discs overlap or lie off the board")
    }
}

impl std::error::Error for BadDiscs {}

/// Checks discs for board `G` and orders them side-relative: (player to move, opponent).
pub fn side_relative<G: Geometry>(
    black: G::Bits,
    white: G::Bits,
    to_move: Color,
) -> Result<(G::Bits, G::Bits), BadDiscs> {
    if !(black & white).is_empty() || !((black | white) & !G::ALL).is_empty() {
        return Err(BadDiscs);
    }
    Ok(match to_move {
        Color::Black => (black, white),
        Color::White => (white, black),
    })
}

/// A position of one variant on one board size: the discs, stored side-relative (the player to move
/// and the opponent), and the colour to move.
pub trait Position: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// The bit set of the board.
    type Bits: Bits;
    /// The board size.
    type Geometry: Geometry<Bits = Self::Bits>;
    /// The game this position belongs to.
    const VARIANT: Variant;

    /// The start position of a game.
    fn start() -> Self;
    /// A position from its discs and the colour to move.
    fn from_discs(black: Self::Bits, white: Self::Bits, to_move: Color) -> Result<Self, BadDiscs>;

    /// The discs of the player to move.
    fn player(&self) -> Self::Bits;
    /// The discs of the other player.
    fn opponent(&self) -> Self::Bits;
    /// The colour to move.
    fn side_to_move(&self) -> Color;

    /// The squares where the player to move may place a disc.
    fn placements(&self) -> Self::Bits;
    /// Whether the player to move must pass.
    fn must_pass(&self) -> bool;
    /// Whether `swap` is legal now.
    fn can_swap(&self) -> bool {
        false
    }
    /// Whether the game has ended.
    fn is_game_over(&self) -> bool;

    /// Plays a placement on bit `index`; the caller guarantees it is legal.
    fn play_index_unchecked(&self, index: usize) -> Self;
    /// Passes (or swaps, in Lehto); the caller guarantees it is legal.
    fn play_pass_unchecked(&self) -> Self;
    /// Swaps colours; the caller guarantees it is legal.
    fn play_swap_unchecked(&self) -> Self {
        self.play_pass_unchecked()
    }

    /// The final result from the view of the player to move: the disc difference, with Othello's
    /// empty squares going to the winner.
    fn final_score(&self) -> i32;

    /// [`Position::final_score`] from black's view.
    fn black_final_score(&self) -> i32 {
        match self.side_to_move() {
            Color::Black => self.final_score(),
            Color::White => -self.final_score(),
        }
    }

    /// Why `index` is not a legal placement, when it is not (the index is on the board).
    fn placement_error(&self, index: usize) -> IllegalReason;

    /// The final score, from the view of the player to move, of a position whose only empty
    /// square is `index`: the player places there if it can, else the opponent, else nobody.
    fn score_last_empty(&self, index: usize) -> i32 {
        if self.placements().has(index) {
            -self.play_index_unchecked(index).final_score()
        } else if self.must_pass() {
            // The opponent fills the square; then it is this player's turn on a full board.
            self.play_pass_unchecked()
                .play_index_unchecked(index)
                .final_score()
        } else {
            self.final_score()
        }
    }

    /// The position in the 8×8 layout of the [`kernel8`](super::kernel8) functions, for Othello
    /// boards that play on them (8×8, and 4×4 and 6×6 where the CPU can move bits into place).
    fn as_board8(&self) -> Option<super::kernel8::Board8> {
        None
    }

    /// A position of the same board and side to move with the discs given in the 8×8 layout of
    /// [`Position::as_board8`] (`player` those of the side to move), for the boards that have it.
    fn with_board8(&self, _player: u64, _opponent: u64) -> Option<Self> {
        None
    }

    /// How many of the opponent's discs can never flip, when the variant can tell cheaply
    /// (Othello); the player to move can then score at most squares − 2 × that.
    fn opponent_stable_discs(&self) -> Option<u32> {
        None
    }

    /// The side of the board.
    fn size(&self) -> usize {
        Self::Geometry::SIZE
    }

    /// The black discs.
    fn black(&self) -> Self::Bits {
        match self.side_to_move() {
            Color::Black => self.player(),
            Color::White => self.opponent(),
        }
    }

    /// The white discs.
    fn white(&self) -> Self::Bits {
        match self.side_to_move() {
            Color::Black => self.opponent(),
            Color::White => self.player(),
        }
    }

    /// The empty squares.
    fn empties(&self) -> Self::Bits {
        Self::Geometry::ALL & !(self.player() | self.opponent())
    }

    /// Plays a move, or says why it is illegal.
    fn try_play(&self, mv: Move) -> Result<Self, IllegalMove> {
        let illegal = |reason| IllegalMove { mv, reason };
        if self.is_game_over() {
            return Err(illegal(IllegalReason::GameOver));
        }
        match mv {
            Move::Place(sq) => {
                let index = sq
                    .index(self.size())
                    .ok_or(illegal(IllegalReason::OffBoard))?;
                if self.placements().has(index) {
                    Ok(self.play_index_unchecked(index))
                } else {
                    Err(illegal(self.placement_error(index)))
                }
            }
            Move::Pass if self.must_pass() => Ok(self.play_pass_unchecked()),
            Move::Pass => Err(illegal(IllegalReason::CannotPass)),
            Move::Swap if self.can_swap() => Ok(self.play_swap_unchecked()),
            Move::Swap => Err(illegal(IllegalReason::CannotSwap)),
        }
    }

    /// Plays a move that the caller knows to be legal; panics if it is not. For moves that came from
    /// outside, use [`Position::try_play`].
    fn play(&self, mv: Move) -> Self {
        match self.try_play(mv) {
            Ok(next) => next,
            Err(e) => panic!("{e}"),
        }
    }

    /// Plays a move without checking it.
    fn play_unchecked(&self, mv: Move) -> Self {
        match mv {
            Move::Place(sq) => match sq.index(self.size()) {
                Some(index) => self.play_index_unchecked(index),
                None => *self,
            },
            Move::Pass => self.play_pass_unchecked(),
            Move::Swap => self.play_swap_unchecked(),
        }
    }

    /// Every legal move in square order (then `swap`); `[pass]` when the player must pass; empty when
    /// the game is over.
    fn legal_moves(&self) -> Vec<Move> {
        let size = self.size();
        let mut moves: Vec<Move> = self
            .placements()
            .squares()
            .map(|index| Move::Place(Square::from_index(index, size)))
            .collect();
        if self.can_swap() {
            moves.push(Move::Swap);
        }
        if self.must_pass() {
            moves.push(Move::Pass);
        }
        moves
    }

    /// A 64-bit hash of the position as the search sees it (discs of each side and the right to
    /// swap; not the colour, which does not change the game from the mover's view).
    fn key(&self) -> u64 {
        // The right to swap changes the key by a constant with bits everywhere.
        let swap = (self.can_swap() as u64).wrapping_mul(0x5851_f42d_4c95_7f2d);
        Self::Bits::pair_key(self.player(), self.opponent()) ^ swap
    }

    /// The number of empty squares.
    fn empty_count(&self) -> u32 {
        self.empties().count()
    }

    /// Black's and white's disc counts.
    fn disc_counts(&self) -> (u32, u32) {
        (self.black().count(), self.white().count())
    }
}
