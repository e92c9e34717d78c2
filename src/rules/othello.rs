//! Othello / Reversi on every even board from 4×4 to 16×16.
//!
//! A placement must bracket a straight line (8 directions) of opponent discs between the new disc
//! and one of the mover's; every bracketed line flips. A player with no placement passes; the game
//! ends when neither player can place. The 8×8 board has its own kernels ([`super::kernel8`]); the
//! other sizes share the generic shift-based ones here.

use super::bits::Bits;
use super::geometry::{Geometry, Size4, Size6, Size8, Size10, Size12, Size14, Size16, coords};
use super::kernel8::{self, Board8};
use super::position::{BadDiscs, IllegalReason, Position, side_relative};
use super::variant::{Color, Variant};

/// A board size Othello is played on, with its move generator and flip kernel.
pub trait OthelloGeometry: Geometry {
    /// The squares where `player` may place a disc against `opponent`.
    fn moves(player: Self::Bits, opponent: Self::Bits) -> Self::Bits;
    /// The opponent discs that a placement by `player` on `index` flips (empty when it is not a
    /// legal placement).
    fn flips(player: Self::Bits, opponent: Self::Bits, index: usize) -> Self::Bits;
    /// The squares of this board in the 8×8 layout of [`kernel8`], and a set of squares moved
    /// there, when the board plays on the 8×8 kernels.
    fn to_board8(_bits: Self::Bits) -> Option<(u64, u64)> {
        None
    }
    /// The set of squares given in the 8×8 layout, back in this board's own (the inverse of
    /// [`OthelloGeometry::to_board8`], for the boards that have it).
    fn from_board8(_bits: u64) -> Option<Self::Bits> {
        None
    }
}

/// Shifts towards higher indices by `n` when `n > 0`, towards lower ones when `n < 0`.
#[inline(always)]
fn shift<B: Bits>(bits: B, n: i32) -> B {
    if n > 0 {
        bits.shl(n as u32)
    } else {
        bits.shr((-n) as u32)
    }
}

/// Move generation for any size: for each direction, grow runs of opponent discs from the player's
/// discs by repeated shifts, and keep the empty squares just past a run.
#[inline(always)]
pub fn generic_moves<G: Geometry>(player: G::Bits, opponent: G::Bits) -> G::Bits {
    let n = G::SIZE as i32;
    let empty = G::ALL & !(player | opponent);
    let inner = opponent & G::INNER_COLUMNS;
    let mut moves = G::Bits::ZERO;
    for (step, through) in [
        (1, inner),
        (-1, inner),
        (n, opponent),
        (-n, opponent),
        (n + 1, inner),
        (-n - 1, inner),
        (n - 1, inner),
        (-n + 1, inner),
    ] {
        let mut run = shift(player, step) & through;
        for _ in 0..G::SIZE - 3 {
            run |= shift(run, step) & through;
        }
        moves |= shift(run, step) & empty;
    }
    moves
}

/// The eight directions as (row step, column step).
const DIRECTIONS: [(isize, isize); 8] = [
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// Flips for any size, by walking each direction from the placed square.
#[inline]
pub fn generic_flips<G: Geometry>(player: G::Bits, opponent: G::Bits, index: usize) -> G::Bits {
    let size = G::SIZE as isize;
    let (row, col) = coords(index, G::SIZE);
    let mut flips = G::Bits::ZERO;
    for (dr, dc) in DIRECTIONS {
        let mut line = G::Bits::ZERO;
        let (mut r, mut c) = (row as isize + dr, col as isize + dc);
        while (0..size).contains(&r) && (0..size).contains(&c) {
            let sq = (r * size + c) as usize;
            if opponent.has(sq) {
                line |= G::Bits::bit(sq);
            } else {
                if player.has(sq) {
                    flips |= line;
                }
                break;
            }
            r += dr;
            c += dc;
        }
    }
    flips
}

macro_rules! generic_othello_geometry {
    ($($size:ty),*) => {$(
        impl OthelloGeometry for $size {
            #[inline(always)]
            fn moves(player: Self::Bits, opponent: Self::Bits) -> Self::Bits {
                generic_moves::<Self>(player, opponent)
            }
            #[inline(always)]
            fn flips(player: Self::Bits, opponent: Self::Bits, index: usize) -> Self::Bits {
                generic_flips::<Self>(player, opponent, index)
            }
        }
    )*};
}

#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
generic_othello_geometry!(Size10, Size12, Size14, Size16);
#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
generic_othello_geometry!(Size4, Size6, Size10, Size12, Size14, Size16);

/// The small boards (4×4, 6×6) played on the 8×8 kernels: the n×n board sits in the top-left
/// corner of an 8×8 one whose other squares stay empty, so no line of discs runs through them and
/// the 8×8 moves and flips, masked to the small board, are the small board's. Bit deposit and
/// extraction (BMI2) convert between the two layouts.
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
mod embedded {
    use super::kernel8;

    /// The squares of the 8×8 board that the n×n board occupies.
    pub const fn frame(n: usize) -> u64 {
        let mut mask = 0u64;
        let mut r = 0;
        while r < n {
            mask |= ((1u64 << n) - 1) << (8 * r);
            r += 1;
        }
        mask
    }

    #[inline(always)]
    fn deposit(bits: u64, mask: u64) -> u64 {
        // SAFETY: the bmi2 target feature is enabled at compile time (this module's cfg).
        unsafe { core::arch::x86_64::_pdep_u64(bits, mask) }
    }

    #[inline(always)]
    fn extract(bits: u64, mask: u64) -> u64 {
        // SAFETY: as above.
        unsafe { core::arch::x86_64::_pext_u64(bits, mask) }
    }

    /// The frame and `bits` deposited in it.
    #[inline(always)]
    pub fn to_board8<const N: usize>(bits: u64) -> (u64, u64) {
        let f = frame(N);
        (f, deposit(bits, f))
    }

    /// The squares of the frame in `bits`, back in the n×n layout.
    #[inline(always)]
    pub fn from_board8<const N: usize>(bits: u64) -> u64 {
        extract(bits, frame(N))
    }

    #[inline(always)]
    pub fn moves<const N: usize>(player: u64, opponent: u64) -> u64 {
        let f = frame(N);
        extract(kernel8::moves(deposit(player, f), deposit(opponent, f)), f)
    }

    #[inline(always)]
    pub fn flips<const N: usize>(player: u64, opponent: u64, index: usize) -> u64 {
        let f = frame(N);
        let at = index / N * 8 + index % N;
        extract(
            kernel8::flips(deposit(player, f), deposit(opponent, f), at),
            f,
        )
    }
}

macro_rules! embedded_othello_geometry {
    ($($size:ty => $n:expr),*) => {$(
        #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
        impl OthelloGeometry for $size {
            #[inline(always)]
            fn moves(player: u64, opponent: u64) -> u64 {
                embedded::moves::<$n>(player, opponent)
            }
            #[inline(always)]
            fn flips(player: u64, opponent: u64, index: usize) -> u64 {
                embedded::flips::<$n>(player, opponent, index)
            }
            #[inline(always)]
            fn to_board8(bits: u64) -> Option<(u64, u64)> {
                Some(embedded::to_board8::<$n>(bits))
            }
            #[inline(always)]
            fn from_board8(bits: u64) -> Option<u64> {
                Some(embedded::from_board8::<$n>(bits))
            }
        }
    )*};
}

embedded_othello_geometry!(Size4 => 4, Size6 => 6);

impl OthelloGeometry for Size8 {
    #[inline(always)]
    fn moves(player: u64, opponent: u64) -> u64 {
        kernel8::moves(player, opponent)
    }
    #[inline(always)]
    fn flips(player: u64, opponent: u64, index: usize) -> u64 {
        kernel8::flips(player, opponent, index)
    }
    #[inline(always)]
    fn to_board8(bits: u64) -> Option<(u64, u64)> {
        Some((!0, bits))
    }
    #[inline(always)]
    fn from_board8(bits: u64) -> Option<u64> {
        Some(bits)
    }
}

/// Squares (of `occupied`) whose line in the direction `step` holds no empty square. Squares of
/// `up_from` may step by `+step`, squares of `down_from` by `-step` (the others would wrap round to
/// the next row).
#[inline(always)]
fn full_lines<G: Geometry>(
    occupied: G::Bits,
    step: i32,
    up_from: G::Bits,
    down_from: G::Bits,
) -> G::Bits {
    let empty = G::ALL & !occupied;
    // Spread every empty square along its line both ways; what it never reaches is full.
    let mut reach = empty;
    for _ in 1..G::SIZE {
        reach |= (shift(reach & up_from, step) | shift(reach & down_from, -step)) & G::ALL;
    }
    occupied & !reach
}

/// The discs of `discs` that can never flip: in each of the four directions the line is full, or
/// a neighbour along it is the edge or a stable disc of the same colour (grown to a fixpoint from
/// nothing, so the result is a lower bound of the truly stable discs).
pub fn stable_discs<G: Geometry>(discs: G::Bits, occupied: G::Bits) -> G::Bits {
    let n = G::SIZE as i32;
    let first_col = super::geometry::first_column::<G>();
    let last_col = super::geometry::last_column::<G>();
    let (not_first, not_last) = (G::ALL & !first_col, G::ALL & !last_col);
    let full_h = full_lines::<G>(occupied, 1, not_last, not_first);
    let full_v = full_lines::<G>(occupied, n, G::ALL, G::ALL);
    let full_d1 = full_lines::<G>(occupied, n + 1, not_last, not_first);
    let full_d2 = full_lines::<G>(occupied, n - 1, not_first, not_last);
    grow_stable::<G>(discs, [full_h, full_v, full_d1, full_d2], G::Bits::ZERO)
}

/// Grows the stable discs of `discs` from `seed` (discs known stable, and squares standing for
/// stable neighbours of every colour) to a fixpoint: a disc is stable when, in each of the four
/// directions, its line is full (`full`: horizontal, vertical, the diagonals of steps n + 1 and
/// n − 1) or a neighbour along it is the edge or stable. Returns the stable discs of `discs`.
#[inline(always)]
pub(crate) fn grow_stable<G: Geometry>(
    discs: G::Bits,
    full: [G::Bits; 4],
    seed: G::Bits,
) -> G::Bits {
    let [full_h, full_v, full_d1, full_d2] = full;
    let n = G::SIZE as i32;
    let first_col = super::geometry::first_column::<G>();
    let last_col = super::geometry::last_column::<G>();
    let top = G::ALL & !G::ALL.shl(G::SIZE as u32);
    let bottom = G::ALL & !G::ALL.shr(G::SIZE as u32);
    let mut stable = seed;
    loop {
        // A neighbour along the direction is stable, or the square is at that edge.
        let west = (stable & !last_col).shl(1) | first_col;
        let east = (stable & !first_col).shr(1) | last_col;
        let north = stable.shl(n as u32) | top;
        let south = stable.shr(n as u32) | bottom;
        let north_west = (stable & !last_col).shl(n as u32 + 1) | top | first_col;
        let south_east = (stable & !first_col).shr(n as u32 + 1) | bottom | last_col;
        let north_east = (stable & !first_col).shl(n as u32 - 1) | top | last_col;
        let south_west = (stable & !last_col).shr(n as u32 - 1) | bottom | first_col;
        let next = discs
            & (full_h | west | east)
            & (full_v | north | south)
            & (full_d1 | north_west | south_east)
            & (full_d2 | north_east | south_west);
        let next = next | stable;
        if next == stable {
            return stable & discs;
        }
        stable = next;
    }
}

/// An Othello position on the board `G`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Othello<G: OthelloGeometry> {
    player: G::Bits,
    opponent: G::Bits,
    to_move: Color,
}

impl<G: OthelloGeometry> Othello<G> {
    /// The position after a placement on `index` that flips `flips`.
    #[inline(always)]
    pub fn with_flips(&self, index: usize, flips: G::Bits) -> Self {
        Othello {
            player: self.opponent ^ flips,
            opponent: self.player | flips | G::Bits::bit(index),
            to_move: self.to_move.opposite(),
        }
    }

    /// The opponent discs a placement on `index` would flip.
    #[inline(always)]
    pub fn flips(&self, index: usize) -> G::Bits {
        G::flips(self.player, self.opponent, index)
    }

    /// The squares where the opponent could place if it were to move.
    #[inline(always)]
    pub fn opponent_placements(&self) -> G::Bits {
        G::moves(self.opponent, self.player)
    }
}

impl<G: OthelloGeometry> Position for Othello<G> {
    type Bits = G::Bits;
    type Geometry = G;
    const VARIANT: Variant = Variant::Othello;

    fn start() -> Self {
        let n = G::SIZE;
        let h = n / 2;
        let at = |row: usize, col: usize| G::Bits::bit(row * n + col);
        Othello {
            player: at(h - 1, h) | at(h, h - 1),
            opponent: at(h - 1, h - 1) | at(h, h),
            to_move: Color::Black,
        }
    }

    fn from_discs(black: G::Bits, white: G::Bits, to_move: Color) -> Result<Self, BadDiscs> {
        let (player, opponent) = side_relative::<G>(black, white, to_move)?;
        Ok(Othello {
            player,
            opponent,
            to_move,
        })
    }

    #[inline(always)]
    fn player(&self) -> G::Bits {
        self.player
    }
    #[inline(always)]
    fn opponent(&self) -> G::Bits {
        self.opponent
    }
    #[inline(always)]
    fn side_to_move(&self) -> Color {
        self.to_move
    }
    #[inline(always)]
    fn placements(&self) -> G::Bits {
        G::moves(self.player, self.opponent)
    }
    fn must_pass(&self) -> bool {
        self.placements().is_empty() && !self.opponent_placements().is_empty()
    }
    fn is_game_over(&self) -> bool {
        self.placements().is_empty() && self.opponent_placements().is_empty()
    }
    #[inline(always)]
    fn play_index_unchecked(&self, index: usize) -> Self {
        self.with_flips(index, self.flips(index))
    }
    #[inline(always)]
    fn play_pass_unchecked(&self) -> Self {
        Othello {
            player: self.opponent,
            opponent: self.player,
            to_move: self.to_move.opposite(),
        }
    }
    fn final_score(&self) -> i32 {
        let mine = self.player.count() as i32;
        let theirs = self.opponent.count() as i32;
        let empties = G::SQUARES as i32 - mine - theirs;
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => mine - theirs + empties,
            std::cmp::Ordering::Less => mine - theirs - empties,
            std::cmp::Ordering::Equal => 0,
        }
    }
    #[inline(always)]
    fn as_board8(&self) -> Option<Board8> {
        let (board, player) = G::to_board8(self.player)?;
        let (_, opponent) = G::to_board8(self.opponent)?;
        Some(Board8 {
            player,
            opponent,
            board,
        })
    }
    #[inline(always)]
    fn with_board8(&self, player: u64, opponent: u64) -> Option<Self> {
        Some(Othello {
            player: G::from_board8(player)?,
            opponent: G::from_board8(opponent)?,
            to_move: self.to_move,
        })
    }
    fn opponent_stable_discs(&self) -> Option<u32> {
        if let Some(b) = self.as_board8() {
            // The 8×8 layout's own stability (edge table included): faster, and often more.
            let stable =
                super::stability8::stable_discs8(b.opponent, b.player | b.opponent, b.board);
            return Some(stable.count_ones());
        }
        let occupied = self.player | self.opponent;
        Some(stable_discs::<G>(self.opponent, occupied).count())
    }

    /// Counts the flips instead of making the moves: the last empty square is the hottest spot of
    /// an endgame solve.
    #[inline]
    fn score_last_empty(&self, index: usize) -> i32 {
        let squares = G::SQUARES as i32;
        let mine = self.player.count() as i32;
        let flips = G::flips(self.player, self.opponent, index).count() as i32;
        if flips > 0 {
            // Placed: mine + flips + 1 of the full board.
            return 2 * (mine + flips + 1) - squares;
        }
        let theirs_flips = G::flips(self.opponent, self.player, index).count() as i32;
        if theirs_flips > 0 {
            return 2 * (mine - theirs_flips) - squares;
        }
        // Nobody can fill it: the empty square goes to the winner.
        let diff = 2 * mine - (squares - 1);
        match diff.cmp(&0) {
            std::cmp::Ordering::Greater => diff + 1,
            std::cmp::Ordering::Less => diff - 1,
            std::cmp::Ordering::Equal => 0,
        }
    }

    fn placement_error(&self, index: usize) -> IllegalReason {
        if (self.player | self.opponent).has(index) {
            IllegalReason::Occupied
        } else {
            IllegalReason::FlipsNothing
        }
    }
}

#[cfg(test)]
mod small_board_tests {
    use super::*;

    fn check<G: OthelloGeometry<Bits = u64>>() {
        let all = G::ALL;
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..5000 {
            let occupied = (next() | next()) & all;
            let player = occupied & next();
            let opponent = occupied & !player;
            assert_eq!(
                G::moves(player, opponent),
                generic_moves::<G>(player, opponent),
                "{player:x} {opponent:x}"
            );
            for index in 0..G::SQUARES {
                if !occupied.has(index) {
                    assert_eq!(
                        G::flips(player, opponent, index),
                        generic_flips::<G>(player, opponent, index)
                    );
                }
            }
        }
    }

    #[test]
    fn small_boards_agree_with_the_generic_kernels() {
        check::<Size4>();
        check::<Size6>();
    }
}
