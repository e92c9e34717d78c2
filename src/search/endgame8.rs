//! The last few empty squares of an Othello board that plays on the 8×8 kernels (8×8, and 6×6 and
//! 4×4 set in its corner), solved straight on `u64` bitboards: no position type, no table, no
//! move list. From six empty squares up, moves are tried fewest replies first (fastest first);
//! below, and to break ties, moves into isolated empty squares (holes of one square) go first;
//! the last empty square is scored by counting its flips.
//!
//! It gives the same scores as a plain negamax (a test compares them) and is what the table layer
//! above it ([`endgame8_table`](super::endgame8_table)) calls below 8 empty squares.

use std::mem::MaybeUninit;

use crate::rules::kernel8::{self, Board8};
use crate::rules::stability8::stable_discs8;

/// The board's squares and corners.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    board: u64,
    corners: u64,
    squares: i32,
    side: u32,
}

impl Frame {
    /// The frame of the n×n board in the top-left corner of the 8×8 layout.
    const fn of_side(side: usize) -> Frame {
        let mut board = 0u64;
        let mut row = 0;
        while row < side {
            let mut col = 0;
            while col < side {
                board |= 1u64 << (row * 8 + col);
                col += 1;
            }
            row += 1;
        }
        let last = side - 1;
        let corners = 1u64 | 1u64 << last | 1u64 << (last * 8) | 1u64 << (last * 8 + last);
        Frame {
            board,
            corners,
            squares: (side * side) as i32,
            side: side as u32,
        }
    }

    /// The frame of a board given by its squares in the 8×8 layout.
    #[inline(always)]
    pub fn of(board: u64) -> Option<&'static Frame> {
        const FRAMES: [Frame; 3] = [Frame::of_side(4), Frame::of_side(6), Frame::of_side(8)];
        let frame = match board.count_ones() {
            16 => &FRAMES[0],
            36 => &FRAMES[1],
            64 => &FRAMES[2],
            _ => return None,
        };
        (frame.board == board).then_some(frame)
    }

    /// The squares of the board.
    #[inline(always)]
    pub fn board(&self) -> u64 {
        self.board
    }

    /// The number of squares of the board.
    #[inline(always)]
    pub fn squares(&self) -> i32 {
        self.squares
    }

    /// The board's four corners.
    #[inline(always)]
    pub fn corners(&self) -> u64 {
        self.corners
    }

    /// The squares of `bits`, in the board's own layout (row by row, `side` squares a row).
    #[inline(always)]
    fn compress(&self, bits: u64) -> u64 {
        if self.side == 8 {
            return bits;
        }
        #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
        // SAFETY: the bmi2 target feature is enabled at compile time. A bit extraction by the
        // board's squares is the compression (2-3% less time on the 6×6 start than the loop).
        unsafe {
            core::arch::x86_64::_pext_u64(bits, self.board)
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
        {
            let side = self.side;
            let row_mask = (1u64 << side) - 1;
            let mut out = 0;
            for row in 0..side {
                out |= (bits >> (8 * row) & row_mask) << (side * row);
            }
            out
        }
    }

    /// The transposition table's key of the position, `p` to move: the same as the generic
    /// search's key of it (`Position::key`), so that both find each other's entries.
    #[inline(always)]
    pub fn key(&self, p: u64, o: u64) -> u64 {
        crate::rules::bits::pair_key64(self.compress(p), self.compress(o))
    }

    /// The move code (the square's index in the board's own layout) of square `sq`.
    #[inline(always)]
    pub fn code_of(&self, sq: u32) -> u16 {
        let side = self.side;
        ((sq / 8) * side + sq % 8) as u16
    }

    /// The square of a move code, if it is one of the board's squares.
    #[inline(always)]
    pub fn square_of(&self, code: u16) -> Option<u32> {
        let (side, code) = (self.side, code as u32);
        (code < side * side).then(|| (code / side) * 8 + code % side)
    }

    /// The final score of a finished game, from the view of the player owning `p`: the disc
    /// difference, empty squares going to the winner.
    #[inline(always)]
    pub fn final_score(&self, p: u64, o: u64) -> i32 {
        let mine = p.count_ones() as i32;
        let theirs = o.count_ones() as i32;
        let empties = self.squares - mine - theirs;
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => mine - theirs + empties,
            std::cmp::Ordering::Less => mine - theirs - empties,
            std::cmp::Ordering::Equal => 0,
        }
    }
}

/// The most empty squares [`solve`] takes (its move lists are arrays of this size).
pub const MAX_EMPTIES: usize = 32;

/// The exact score of `pos` (side to move's view), fail-soft in the window (alpha, beta); `nodes`
/// counts the positions visited.
pub fn solve(pos: &Board8, frame: &Frame, alpha: i32, beta: i32, nodes: &mut u64) -> i32 {
    debug_assert!(
        (frame.board & !(pos.player | pos.opponent)).count_ones() as usize <= MAX_EMPTIES,
        "endgame8 solves at most {MAX_EMPTIES} empty squares"
    );
    search(pos.player, pos.opponent, frame, alpha, beta, nodes)
}

/// The score of the last empty square `sq`, player `p` to move: every other square is full.
#[inline(always)]
fn last_empty(p: u64, o: u64, sq: usize, frame: &Frame) -> i32 {
    // With one square empty, mine + theirs = squares − 1 before the move.
    // Only the mover's discs matter: every other square of the board is the opponent's.
    let mine = p.count_ones() as i32;
    let flips = kernel8::last_flip_count(p, sq) as i32;
    if flips > 0 {
        return 2 * (mine + flips + 1) - frame.squares;
    }
    let theirs = o.count_ones() as i32;
    let flips = kernel8::last_flip_count(o, sq) as i32;
    if flips > 0 {
        return frame.squares - 2 * (theirs + flips + 1);
    }
    // Nobody can fill it: it goes to the winner (no draw with an odd number of discs).
    if mine > theirs {
        mine - theirs + 1
    } else {
        mine - theirs - 1
    }
}

/// The stability cut-off, as in the generic solver: with 4 or more empty squares and alpha high
/// for their number, the opponent's stable discs may already cap the score at or below alpha.
/// Tried from alpha ≥ 2·empties − 2 (Edax's thresholds for these depths): on FFO #40–#49, 14%
/// fewer nodes than from 2·empties + 4, once the stable discs came from the edge table.
/// From 3 empty squares as well: 7.7% fewer nodes on FFO #40–#49 but no less time (18.13 s
/// against 18.14 s, 1 thread, side by side), the discs counted costing what the nodes cost; with
/// only the full lines' and the edge table's discs at 3, 4.7% fewer nodes and 1–2% more time.
#[inline(always)]
pub(super) fn stability_cutoff(
    p: u64,
    o: u64,
    count: i32,
    frame: &Frame,
    alpha: i32,
) -> Option<i32> {
    if count < 4 || alpha < 2 * count - 2 {
        return None;
    }
    // Count them all, though (squares − alpha) / 2 would prove the cut: stopping there returns a
    // weaker bound, which took 16% more nodes on FFO #40 and #42.
    let bound = frame.squares - 2 * stable_discs8(o, p | o, frame.board).count_ones() as i32;
    (bound <= alpha).then_some(bound)
}

/// The squares around each square of the 8×8 layout.
const NEIGHBOURS: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (row, col) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (r, c) = (row + dr, col + dc);
                if (dr != 0 || dc != 0) && r >= 0 && r < 8 && c >= 0 && c < 8 {
                    table[sq] |= 1u64 << (r * 8 + c);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    table
};

/// At most this many empty squares: moves are found by trying each empty square (a placement is
/// legal when it flips), not by generating them all (as Edax does for its last four).
pub(super) const BY_SQUARE: u32 = 4;

/// The last few empty squares (2 to [`BY_SQUARE`]), `empties` being them; `p`'s moves are among
/// `candidates` (its moves, when the caller knows them; else `empties`).
#[allow(clippy::too_many_arguments)]
fn search_few(
    p: u64,
    o: u64,
    empties: u64,
    candidates: u64,
    frame: &Frame,
    alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    if empties.count_ones() == 2 {
        return solve_two(p, o, empties, frame, alpha, beta, nodes);
    }
    if let Some(bound) = stability_cutoff(p, o, empties.count_ones() as i32, frame, alpha) {
        return bound;
    }
    if let Some(score) = try_squares(p, o, empties, candidates, frame, alpha, beta, nodes) {
        return score;
    }
    match try_squares(o, p, empties, empties, frame, -beta, -alpha, nodes) {
        Some(score) => {
            *nodes += 1;
            -score
        }
        None => frame.final_score(p, o),
    }
}

/// The last two empty squares, `empties`: each placement is scored by the last empty square (a
/// node for the placement, one for the last one), without the loop over square sets of more.
#[inline]
fn solve_two(
    p: u64,
    o: u64,
    empties: u64,
    frame: &Frame,
    alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    let (first, second) = (
        empties.trailing_zeros() as usize,
        63 - empties.leading_zeros() as usize,
    );
    if let Some(score) = two_placements(p, o, first, second, frame, beta, nodes) {
        return score;
    }
    match two_placements(o, p, first, second, frame, -alpha, nodes) {
        Some(score) => {
            *nodes += 1;
            -score
        }
        None => frame.final_score(p, o),
    }
}

/// `p`'s placements on the last two empty squares, `first` then `second`: the best score (fail
/// soft, stopping at `beta`), or `None` when `p` has none.
#[inline(always)]
fn two_placements(
    p: u64,
    o: u64,
    first: usize,
    second: usize,
    frame: &Frame,
    beta: i32,
    nodes: &mut u64,
) -> Option<i32> {
    let mut best = None;
    if NEIGHBOURS[first] & o != 0 {
        let flipped = kernel8::flips(p, o, first);
        if flipped != 0 {
            *nodes += 2;
            let score = -last_empty(o & !flipped, p | flipped | 1u64 << first, second, frame);
            if score >= beta {
                return Some(score);
            }
            best = Some(score);
        }
    }
    if NEIGHBOURS[second] & o != 0 {
        let flipped = kernel8::flips(p, o, second);
        if flipped != 0 {
            *nodes += 2;
            let score = -last_empty(o & !flipped, p | flipped | 1u64 << second, first, frame);
            return Some(best.map_or(score, |b: i32| b.max(score)));
        }
    }
    best
}

/// Plays `p`'s placements among `empties`, isolated squares first: the best score, or `None`
/// when `p` has no placement; they are among `candidates`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn try_squares(
    p: u64,
    o: u64,
    empties: u64,
    candidates: u64,
    frame: &Frame,
    alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> Option<i32> {
    let to_two = empties.count_ones() == 3;
    let first = isolated_empties(empties);
    let mut alpha = alpha;
    let mut best = None;
    for group in [candidates & first, candidates & !first] {
        let mut rest = group;
        while rest != 0 {
            let sq = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if NEIGHBOURS[sq] & o == 0 {
                continue;
            }
            let flipped = kernel8::flips(p, o, sq);
            if flipped == 0 {
                continue;
            }
            *nodes += 1;
            let (np, no, left) = (
                o & !flipped,
                p | flipped | 1u64 << sq,
                empties & !(1u64 << sq),
            );
            let score = if to_two {
                -solve_two(np, no, left, frame, -beta, -alpha, nodes)
            } else {
                -search_few(np, no, left, left, frame, -beta, -alpha, nodes)
            };
            if best.is_none_or(|b| score > b) {
                best = Some(score);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        return best;
                    }
                }
            }
        }
    }
    best
}

/// The empty squares none of whose neighbours is empty: holes of one square, where the player who
/// moves has the last word (Egaroucid tries them first in its last empty squares). In place of
/// quadrants holding an odd number of empty squares (Edax's parity): tried first at 5 empty
/// squares, 4.6% less time on FFO #40–#43 (1 thread); at 3 and 4 as well, 1% less; favoured in
/// the fastest-first keys here and in the table layer, 3% less on FFO #40–#49.
#[inline(always)]
pub(super) fn isolated_empties(empties: u64) -> u64 {
    let h = (empties & 0x7f7f_7f7f_7f7f_7f7f) << 1 | (empties & 0xfefe_fefe_fefe_fefe) >> 1;
    let row = empties | h;
    let around = h | row << 8 | row >> 8;
    empties & !around
}

/// The exact score (see [`solve`]).
pub(super) fn search(p: u64, o: u64, frame: &Frame, alpha: i32, beta: i32, nodes: &mut u64) -> i32 {
    let empties = frame.board & !(p | o);
    if empties.count_ones() == 1 {
        *nodes += 1;
        return last_empty(p, o, empties.trailing_zeros() as usize, frame);
    }
    if empties.count_ones() <= BY_SQUARE {
        return search_few(p, o, empties, empties, frame, alpha, beta, nodes);
    }
    let moves = kernel8::moves(p, o) & frame.board;
    search_moves(p, o, moves, empties, frame, alpha, beta, nodes)
}

/// [`search`] of a position of 5 or more empty squares, `empties`, whose moves `moves` the
/// caller knows already (the parent counted them for its ordering: not generating them twice
/// took 2.6% less time on FFO #40–#43).
#[allow(clippy::too_many_arguments)]
pub(super) fn search_moves(
    p: u64,
    o: u64,
    moves: u64,
    empties: u64,
    frame: &Frame,
    alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    let count = empties.count_ones() as i32;
    if let Some(bound) = stability_cutoff(p, o, count, frame, alpha) {
        return bound;
    }
    if moves == 0 {
        if kernel8::moves(o, p) & frame.board == 0 {
            return frame.final_score(p, o);
        }
        *nodes += 1;
        return -search(o, p, frame, -beta, -alpha, nodes);
    }
    let isolated = isolated_empties(empties);
    if count < FASTEST_FIRST_FROM {
        return search_isolated_first(p, o, moves, empties, isolated, frame, alpha, beta, nodes);
    }
    // Fewest replies first (fastest first, as in Edax and Egaroucid), isolated squares breaking
    // the ties: on FFO #40–#49 (1 thread), 37% fewer nodes than parity alone and 7% less time
    // (from 5 empty squares then). A corner among the replies counts half a reply more (2% fewer
    // nodes; counting it a whole reply more, or preferring moves that take a corner, saved less
    // or cost).
    // The children: ordering key, square, discs of the player then to move and of the other, and
    // the moves of the player then to move.
    // Left uninitialised: zeroing the whole array cost 3% of the solver's instructions.
    let mut list = [MaybeUninit::<(u32, u64, u64, u64)>::uninit(); MAX_EMPTIES];
    // The ordering keys, each with its child's index in the low bits, so that the selection
    // compares and swaps plain integers.
    let mut keys = [0u32; MAX_EMPTIES];
    let mut n = 0;
    let mut rest = moves;
    while rest != 0 {
        let sq = rest.trailing_zeros();
        rest &= rest - 1;
        let flipped = kernel8::flips(p, o, sq as usize);
        let (np, no) = (o & !flipped, p | flipped | 1u64 << sq);
        let replies = kernel8::moves(np, no) & frame.board;
        let key = 2 * replies.count_ones()
            + (replies & frame.corners).count_ones()
            + (isolated >> sq & 1 == 0) as u32;
        list[n].write((sq, np, no, replies));
        keys[n] = key << 5 | n as u32;
        n += 1;
    }
    let mut alpha = alpha;
    let mut best = -i32::MAX;
    for i in 0..n {
        // Selection, one child at a time: most nodes cut off at their first child or two, and
        // the rest need not be sorted.
        let mut pick = i;
        for j in i + 1..n {
            if keys[j] < keys[pick] {
                pick = j;
            }
        }
        keys.swap(i, pick);
        // SAFETY: the key's low bits are the index of a child written above (below n).
        let (sq, np, no, replies) = unsafe { list[(keys[i] & 31) as usize].assume_init() };
        *nodes += 1;
        let left = empties & !(1u64 << sq);
        let score = -search_moves(np, no, replies, left, frame, -beta, -alpha, nodes);
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    return best;
                }
            }
        }
    }
    best
}

/// Nodes with fewer empty squares than this (and 5 or more) try their moves isolated squares
/// first, in square order, without counting each child's replies: on FFO #40–#43 (1 thread), 13%
/// more nodes than fastest first, but 3–5% less time. Trying 6-empty nodes the same way took the
/// same time for 7% more nodes on FFO #40–#49.
const FASTEST_FIRST_FROM: i32 = 6;

/// [`search_moves`] of a node of fewer than [`FASTEST_FIRST_FROM`] empty squares, `isolated`
/// being its isolated ones: its children go straight to the last-squares search.
#[allow(clippy::too_many_arguments)]
fn search_isolated_first(
    p: u64,
    o: u64,
    moves: u64,
    empties: u64,
    isolated: u64,
    frame: &Frame,
    alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    debug_assert_eq!(empties.count_ones(), BY_SQUARE + 1);
    let mut alpha = alpha;
    let mut best = -i32::MAX;
    for group in [moves & isolated, moves & !isolated] {
        let mut rest = group;
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            let flipped = kernel8::flips(p, o, sq as usize);
            let (np, no) = (o & !flipped, p | flipped | 1u64 << sq);
            *nodes += 1;
            let left = empties & !(1u64 << sq);
            let score = -search_few(np, no, left, left, frame, -beta, -alpha, nodes);
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        return best;
                    }
                }
            }
        }
    }
    best
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rules::geometry::{Size4, Size6, Size8};
    use crate::rules::{Bits, Othello, Position, othello::OthelloGeometry};

    /// A plain negamax over the position type, for reference.
    pub(crate) fn negamax<P: Position>(pos: &P) -> i32 {
        if pos.is_game_over() {
            return pos.final_score();
        }
        if pos.must_pass() {
            return -negamax(&pos.play_pass_unchecked());
        }
        pos.placements()
            .squares()
            .map(|i| -negamax(&pos.play_index_unchecked(i)))
            .max()
            .unwrap_or(i32::MIN)
    }

    /// Random games stopped at `empties` empty squares, compared with the plain negamax under
    /// several windows.
    fn agrees<G: OthelloGeometry>(games: u64, empties: u32) {
        let mut checked = 0;
        for game in 0..games {
            let mut x = 0x2545_F491_4F6C_DD1Du64 ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let mut pos = Othello::<G>::start();
            while pos.empty_count() > empties && !pos.is_game_over() {
                let moves = pos.legal_moves();
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                pos = pos.play_unchecked(moves[(x % moves.len() as u64) as usize]);
            }
            if pos.is_game_over() {
                continue;
            }
            let Some(board) = pos.as_board8() else {
                return;
            };
            let frame = Frame::of(board.board).expect("a frame for every kernel board");
            let exact = negamax(&pos);
            let mut nodes = 0;
            assert_eq!(
                solve(&board, frame, -100, 100, &mut nodes),
                exact,
                "{pos:?}"
            );
            for (a, b) in [
                (exact - 1, exact + 1),
                (exact, exact + 1),
                (exact - 1, exact),
            ] {
                let s = solve(&board, frame, a, b, &mut nodes);
                assert!(
                    (s <= a && exact <= s)
                        || (s >= b && exact >= s)
                        || (s > a && s < b && s == exact),
                    "window ({a}, {b}) gave {s}, exact {exact}"
                );
            }
            assert_eq!(board.board.count_ones() as usize, G::SQUARES);
            checked += 1;
        }
        assert!(checked > games / 2, "only {checked} positions checked");
    }

    #[test]
    fn agrees_with_plain_negamax_on_8x8() {
        agrees::<Size8>(200, 8);
    }

    #[test]
    fn agrees_with_plain_negamax_on_6x6_and_4x4() {
        agrees::<Size6>(200, 8);
        agrees::<Size4>(200, 6);
    }
}
