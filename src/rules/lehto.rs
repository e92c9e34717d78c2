//! Othel Lehto, the palindrome game, on every odd board from 5×5 to 19×19.
//!
//! The board starts empty; any empty square is a placement; the second move of a game may be `swap`
//! (the players trade colours; the board and the colour to move stay as they are). A placement flips
//! in waves:
//! 1. the first wave is the placed square;
//! 2. for each square of the wave and each of the four lines through it, the maximal run of
//!    occupied squares containing it (bounded by empty squares or the edge) is a palindrome when it
//!    has two or more stones and its colours read the same both ways; every opponent stone of such a
//!    run is marked;
//! 3. all squares of a wave are judged against the board as it stood when the wave began; then
//!    the marked stones flip to the mover's colour at once and form the next wave, until a wave marks
//!    nothing.
//!
//! The game ends when the board is full; the score is the disc difference.

use super::bits::Bits;
use super::geometry::{
    Geometry, Size5, Size7, Size9, Size11, Size13, Size15, Size17, Size19, coords,
};
use super::position::{BadDiscs, IllegalReason, Position, side_relative};
use super::variant::{Color, Variant};

/// The sizes Lehto is played on.
pub trait LehtoGeometry: Geometry {}

impl LehtoGeometry for Size5 {}
impl LehtoGeometry for Size7 {}
impl LehtoGeometry for Size9 {}
impl LehtoGeometry for Size11 {}
impl LehtoGeometry for Size13 {}
impl LehtoGeometry for Size15 {}
impl LehtoGeometry for Size17 {}
impl LehtoGeometry for Size19 {}

/// The four lines through a square, as (row step, column step).
const LINES: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// Calls `on_run` with each maximal run of two or more occupied squares through `index` (one per
/// line, bounded by empty squares or the edge), its squares in order along the line.
#[inline(always)]
fn runs_through<G: Geometry>(occupied: G::Bits, index: usize, mut on_run: impl FnMut(&[usize])) {
    let size = G::SIZE as isize;
    let (row, col) = coords(index, G::SIZE);
    let (row, col) = (row as isize, col as isize);
    for (dr, dc) in LINES {
        // How many squares the line reaches from `index` backwards (sign −1) and forwards (+1):
        // the walks below then test no edges.
        let reach = |sign: isize| {
            let rows = match dr * sign {
                0 => isize::MAX,
                d if d > 0 => size - 1 - row,
                _ => row,
            };
            let cols = match dc * sign {
                0 => isize::MAX,
                d if d > 0 => size - 1 - col,
                _ => col,
            };
            rows.min(cols)
        };
        let step = dr * size + dc;
        // Walk back to the first stone of the run, then read it forwards.
        let (back, ahead) = (reach(-1), reach(1));
        let mut start = index as isize;
        let mut behind = 0;
        while behind < back && occupied.has((start - step) as usize) {
            start -= step;
            behind += 1;
        }
        let mut run = [0usize; 19];
        let mut len = 0;
        let mut sq = start;
        while len <= (behind + ahead) as usize && occupied.has(sq as usize) {
            run[len] = sq as usize;
            len += 1;
            sq += step;
        }
        if len >= 2 {
            on_run(&run[..len]);
        }
    }
}

/// Whether a run's colours read the same both ways (`mine` tells one colour from the other).
#[inline(always)]
fn is_palindrome(run: &[usize], mine: impl Fn(usize) -> bool) -> bool {
    let len = run.len();
    (0..len / 2).all(|i| mine(run[i]) == mine(run[len - 1 - i]))
}

/// The stones of `of` in a run.
#[inline(always)]
fn stones_in<B: Bits>(run: &[usize], of: B) -> B {
    run.iter()
        .filter(|&&sq| of.has(sq))
        .fold(B::ZERO, |acc, &sq| acc | B::bit(sq))
}

/// The opponent stones in palindromic runs through `index` (judged on `player`/`opponent`).
fn palindrome_marks<G: Geometry>(player: G::Bits, opponent: G::Bits, index: usize) -> G::Bits {
    let mut marks = G::Bits::ZERO;
    runs_through::<G>(player | opponent, index, |run| {
        if is_palindrome(run, |sq| player.has(sq)) {
            marks |= stones_in(run, opponent);
        }
    });
    marks
}

/// Plays out the cascade of a placement by `player` on the empty square `index`, handing each
/// wave's flips to `on_wave`; returns every opponent stone flipped.
#[inline]
fn cascade<G: Geometry>(
    player: G::Bits,
    opponent: G::Bits,
    index: usize,
    mut on_wave: impl FnMut(G::Bits),
) -> G::Bits {
    let mut player = player | G::Bits::bit(index);
    let mut opponent = opponent;
    let mut wave = G::Bits::bit(index);
    let mut flipped = G::Bits::ZERO;
    loop {
        // Every square of the wave is judged on the board as it stood when the wave began.
        let mut marked = G::Bits::ZERO;
        for sq in wave.squares() {
            marked |= palindrome_marks::<G>(player, opponent, sq);
        }
        if marked.is_empty() {
            return flipped;
        }
        on_wave(marked);
        player |= marked;
        opponent ^= marked;
        flipped |= marked;
        wave = marked;
    }
}

/// The opponent stones that a placement by `player` on the empty square `index` flips, over every
/// wave of the cascade.
pub fn lehto_flips<G: Geometry>(player: G::Bits, opponent: G::Bits, index: usize) -> G::Bits {
    cascade::<G>(player, opponent, index, |_| {})
}

/// The stones the first wave of a placement on the empty square `index` would mark (the cascade
/// after it left out), if `player` made it and if `opponent` did: a cheap measure of the square
/// for the evaluation, both from one walk along the runs through it.
pub fn first_waves<G: Geometry>(
    player: G::Bits,
    opponent: G::Bits,
    index: usize,
) -> (G::Bits, G::Bits) {
    let (mut by_player, mut by_opponent) = (G::Bits::ZERO, G::Bits::ZERO);
    runs_through::<G>(player | opponent | G::Bits::bit(index), index, |run| {
        // The runs are the same whoever places; only the placed stone's colour differs.
        if is_palindrome(run, |sq| sq == index || player.has(sq)) {
            by_player |= stones_in(run, opponent);
        }
        if is_palindrome(run, |sq| sq != index && player.has(sq)) {
            by_opponent |= stones_in(run, player);
        }
    });
    (by_player, by_opponent)
}

/// The flips of each wave of a placement, in order (for diagnostics and tests).
pub fn lehto_waves<G: Geometry>(player: G::Bits, opponent: G::Bits, index: usize) -> Vec<G::Bits> {
    let mut waves = Vec::new();
    cascade::<G>(player, opponent, index, |wave| waves.push(wave));
    waves
}

/// A Lehto position on the board `G`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Lehto<G: LehtoGeometry> {
    player: G::Bits,
    opponent: G::Bits,
    to_move: Color,
    swap_allowed: bool,
}

impl<G: LehtoGeometry> Lehto<G> {
    /// The position after a placement on `index` that flips `flips`.
    #[inline]
    pub fn with_flips(&self, index: usize, flips: G::Bits) -> Self {
        let first_move = (self.player | self.opponent).is_empty();
        Lehto {
            player: self.opponent ^ flips,
            opponent: self.player | flips | G::Bits::bit(index),
            to_move: self.to_move.opposite(),
            swap_allowed: first_move,
        }
    }

    /// The opponent stones a placement on `index` would flip.
    #[inline]
    pub fn flips(&self, index: usize) -> G::Bits {
        lehto_flips::<G>(self.player, self.opponent, index)
    }
}

impl<G: LehtoGeometry> Position for Lehto<G> {
    type Bits = G::Bits;
    type Geometry = G;
    const VARIANT: Variant = Variant::Lehto;

    fn start() -> Self {
        Lehto {
            player: G::Bits::ZERO,
            opponent: G::Bits::ZERO,
            to_move: Color::Black,
            swap_allowed: false,
        }
    }

    /// A board with a single stone, of the colour not to move, is taken as the position right after
    /// the first move, where `swap` is allowed (a board string cannot tell whether a swap was made).
    fn from_discs(black: G::Bits, white: G::Bits, to_move: Color) -> Result<Self, BadDiscs> {
        let (player, opponent) = side_relative::<G>(black, white, to_move)?;
        Ok(Lehto {
            player,
            opponent,
            to_move,
            swap_allowed: player.is_empty() && opponent.count() == 1,
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
        self.empties()
    }
    fn must_pass(&self) -> bool {
        false
    }
    fn can_swap(&self) -> bool {
        self.swap_allowed
    }
    fn is_game_over(&self) -> bool {
        self.empties().is_empty()
    }
    #[inline]
    fn play_index_unchecked(&self, index: usize) -> Self {
        self.with_flips(index, self.flips(index))
    }
    /// Lehto has no pass; this plays the swap, its only non-placement move.
    fn play_pass_unchecked(&self) -> Self {
        self.play_swap_unchecked()
    }
    /// The players trade colours: the board and the colour to move stay, and the turn goes to the
    /// player who made the first move, who now owns that colour. Seen from the colour to move, only
    /// the right to swap changes.
    fn play_swap_unchecked(&self) -> Self {
        Lehto {
            swap_allowed: false,
            ..*self
        }
    }
    fn final_score(&self) -> i32 {
        self.player.count() as i32 - self.opponent.count() as i32
    }
    fn placement_error(&self, _index: usize) -> IllegalReason {
        IllegalReason::Occupied
    }
}
