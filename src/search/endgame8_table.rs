//! The layer of the bitboard endgame above the table-less solver: from a few more empty squares
//! than [`endgame8`](super::endgame8) takes up to [`MAX_EMPTIES`], still straight on `u64`
//! bitboards of the 8×8 layout, but with the transposition table (Edax's "NWS endgame" layer has
//! the same place). Its results are exact (but in the selective passes, whose ProbCut it makes
//! too) and are stored under the same keys and move codes as the generic search's, so that both
//! find them.

use super::alphabeta::{
    MPC_MIN_EMPTIES, MPC_SIGMA, SELECTIVITY_T, endgame_probe_cut, enhanced_transposition_cutoff,
};
use super::control::Worker;
use super::endgame8::{self, Frame};
use super::moves::NO_MOVE;
use super::tt::{Entry, endgame_cost, endgame_depth};
use crate::eval::DISC;
use crate::rules::geometry::{Size8, neighbours};
use crate::rules::kernel8;
use std::mem::MaybeUninit;
use std::ops::ControlFlow::{self, Break, Continue};
use std::sync::atomic::Ordering::Relaxed;

/// The most empty squares this layer takes; above, the generic endgame search.
/// (Up to 12 rather than 11: 3% fewer instructions on FFO #40 and #42, and the same time on a
/// 6×6 position of 28 empty squares; 13 saved 1% more on FFO with the evaluation's sort there,
/// but nodes of 13 empty squares are where threads split. Up to 15, with the evaluation in the
/// keys from 13 (a sixteenth of it; an eighth or a thirty-second took 2–4% more nodes), the
/// moves of midgame entries not put first there (as in the generic search) and the threads
/// splitting there as well: on 1 thread, side by side, FFO #56 took 5.9% less time, but #40–#49
/// 0.7% more, #53 and #58 the same, the 6×6 start 1.5% more and #55 6.4% more (11.7% more
/// nodes).)
pub const MAX_EMPTIES: u32 = 12;

/// Fewer empty squares than this go to the table-less solver.
/// (A table of their own for the nodes of 8 or 9 empty squares, of 4 or 16 MB to stay in the
/// caches, beside the shared one: on FFO #40–#49, 2–8% more nodes and no less time.)
const TABLE_FROM: u32 = 8;

/// Nodes with at least this many empty squares check whether the search must stop.
const STOP_CHECK_FROM: u32 = 10;

/// Nodes with at least this many empty squares look their children up in the table before
/// searching them (below, the children are never stored). On FFO #40 and #42: 1.4% fewer
/// instructions than without, 0.6% fewer than from 10.
const ETC_FROM: u32 = 9;

/// Nodes with at least this many empty squares look their children up before searching the
/// first; below, after it (see `solve_moves`): on FFO #40–#49, 1 thread, after it from 9 and 10
/// took 4% less time than before it everywhere, for 2% more nodes; after it everywhere saved no
/// more time for 4% more nodes. Ordering the children by what those entries say as well (from 11
/// empty squares, a child an earlier pass proved to refute first, one it proved to fail low
/// last) took 0.1% fewer nodes on FFO #40–#49 and #53, and no less time.
const ETC_AT_ONCE_FROM: u32 = 11;

/// The evaluation of a position given in the 8×8 layout (side to move's discs first), in
/// centi-discs, for the selective passes' ProbCut; `None` when the board has none.
pub trait Evaluator: Fn(u64, u64) -> Option<i32> {}
impl<F: Fn(u64, u64) -> Option<i32>> Evaluator for F {}

/// The exact score of the position (`p` to move against `o`), fail-soft in the window
/// (alpha, beta); 0 when the search was stopped. The node itself is not counted.
pub fn solve<E: Evaluator>(
    w: &mut Worker,
    p: u64,
    o: u64,
    frame: &Frame,
    alpha: i32,
    beta: i32,
    evaluate: &E,
) -> i32 {
    let moves = kernel8::moves(p, o) & frame.board();
    solve_moves(w, p, o, moves, frame, alpha, beta, evaluate)
}

/// [`solve`] of a position whose moves `moves` the caller knows already.
#[allow(clippy::too_many_arguments)]
fn solve_moves<E: Evaluator>(
    w: &mut Worker,
    p: u64,
    o: u64,
    moves: u64,
    frame: &Frame,
    alpha: i32,
    beta: i32,
    evaluate: &E,
) -> i32 {
    let empties = frame.board() & !(p | o);
    let count = empties.count_ones();
    if count < TABLE_FROM {
        let mut nodes = 0;
        // (Fewer than 5 empty squares only where the generic search hands a position over.)
        let score = if count > endgame8::BY_SQUARE {
            endgame8::search_moves(p, o, moves, empties, frame, alpha, beta, &mut nodes)
        } else {
            endgame8::search(p, o, frame, alpha, beta, &mut nodes)
        };
        w.count_nodes(nodes);
        return score;
    }
    // Only the larger nodes look at the stop flag (and the split points' flags above them, a
    // chain to walk): the smaller ones' subtrees end in microseconds, and as they never give up,
    // what they return is always a true score.
    let checks_stop = count >= STOP_CHECK_FROM;
    let counted_before = w.counted();
    if checks_stop && w.should_stop() {
        return 0;
    }
    if let Some(bound) = endgame8::stability_cutoff(p, o, count as i32, frame, alpha) {
        return bound;
    }
    let key = frame.key(p, o);
    let tt = w.shared.tt;
    let level = w.shared.selectivity.load(Relaxed);
    let selective = level > 0 && count >= MPC_MIN_EMPTIES;
    let isolated = endgame8::isolated_empties(empties);
    // The children: ordering key (lower first), square, discs of the player then to move and of
    // the other, and the moves of the player then to move (passed down, not generated again).
    let mut list = [MaybeUninit::<(i32, u32, u64, u64, u64)>::uninit(); endgame8::MAX_EMPTIES];
    // With the enhanced transposition cut-off to come, the children are made first and each
    // one's bucket asked for at once; their replies and ordering keys are counted after, so that
    // the cache misses overlap each other and all of that work (asking for each bucket as its
    // child was ordered left the last ones too little time). Below ETC_AT_ONCE_FROM, asking for
    // them only once the node's own entry was read took 0.9% more time on FFO #40–#49 (1 thread,
    // side by side), and not asking at all 10% more.
    let etc = count >= ETC_FROM;
    let mut keys = [0u64; endgame8::MAX_EMPTIES];
    let mut n = 0;
    let mut rest = moves;
    while rest != 0 {
        let sq = rest.trailing_zeros();
        rest &= rest - 1;
        let flipped = kernel8::flips(p, o, sq as usize);
        let (np, no) = (o & !flipped, p | flipped | 1u64 << sq);
        if etc {
            keys[n] = frame.key(np, no);
            tt.prefetch(keys[n]);
        }
        list[n].write((0, sq, np, no, 0));
        n += 1;
    }
    // SAFETY: the first n entries were written just above, and MaybeUninit<T> has T's layout.
    let list = unsafe {
        &mut *(&mut list[..n] as *mut [MaybeUninit<_>] as *mut [(i32, u32, u64, u64, u64)])
    };
    for child in list.iter_mut() {
        let (_, sq, _, no, _) = *child;
        let replies = kernel8::moves(child.2, no) & frame.board();
        child.0 = order_key(no, replies, sq, empties, isolated, frame);
        child.4 = replies;
    }
    // The node's own entry is read only now, after the work above that does not need it: its
    // bucket, asked for by the parent, has had that long to come from memory.
    match own_entry(w, key, level, frame, alpha, beta) {
        Break(score) => return score,
        Continue(Some(hash_square)) => {
            if let Some(child) = list.iter_mut().find(|c| c.1 == hash_square) {
                child.0 = i32::MIN;
            }
        }
        Continue(None) => {}
    }
    if selective && let Some(score) = probcut(w, p, o, frame, level, alpha, beta, evaluate) {
        return score;
    }
    if list.is_empty() {
        if kernel8::moves(o, p) & frame.board() == 0 {
            return frame.final_score(p, o);
        }
        w.count_node();
        return -solve(w, o, p, frame, -beta, -alpha, evaluate);
    }
    let (alpha_in, mut alpha) = (alpha, alpha);
    let mut best = (-i32::MAX, NO_MOVE);
    for i in 0..list.len() {
        // Selection, one child at a time (see `endgame8::search`).
        let mut pick = i;
        for j in i + 1..list.len() {
            if list[j].0 < list[pick].0 {
                pick = j;
            }
        }
        list.swap(i, pick);
        if etc && i == (count < ETC_AT_ONCE_FROM) as usize {
            // Enhanced transposition cut-off: a child already stored as worth at most -beta
            // proves the node worth at least beta. In the smaller nodes, looked for once the
            // first child is searched, by when the children's buckets asked for above have come
            // from memory (looking before it waited for them: 14% of the layer's time).
            let child_keys = keys[..list.len()].iter().copied();
            if let Some(bound) = enhanced_transposition_cutoff(tt, child_keys, beta, level) {
                return bound;
            }
        }
        let (_, sq, np, no, replies) = list[i];
        w.count_node();
        let score = if i == 0 || beta - alpha == 1 {
            -solve_moves(w, np, no, replies, frame, -beta, -alpha, evaluate)
        } else {
            let score = -solve_moves(w, np, no, replies, frame, -alpha - 1, -alpha, evaluate);
            if score > alpha && score < beta {
                -solve_moves(w, np, no, replies, frame, -beta, -alpha, evaluate)
            } else {
                score
            }
        };
        if checks_stop && w.should_stop() {
            return 0;
        }
        if score > best.0 {
            best = (score, frame.code_of(sq));
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    let score = best.0;
    let depth = endgame_depth(selective, level);
    let (in_centidiscs, alpha_in, beta) = (score * DISC, alpha_in * DISC, beta * DISC);
    let cost = endgame_cost(w.counted() - counted_before);
    let entry = Entry::from_search(in_centidiscs, alpha_in, beta, depth, best.1, cost);
    tt.store(key, entry);
    score
}

/// What the node's own table entry says: `Break(score)` when it settles the node in the window
/// (alpha, beta), else `Continue` with the square of its best move, if any.
#[inline(always)]
fn own_entry(
    w: &Worker,
    key: u64,
    level: u8,
    frame: &Frame,
    alpha: i32,
    beta: i32,
) -> ControlFlow<i32, Option<u32>> {
    let Some(entry) = w.shared.tt.probe(key) else {
        return Continue(None);
    };
    if let Some(score) = endgame_probe_cut(&entry, level, alpha, beta) {
        return Break(score);
    }
    Continue(frame.square_of(entry.best))
}

/// ProbCut in the selective passes, as the generic search makes it with a shallow search of
/// depth 0 at these empties: the evaluation far enough beyond the window, by t·σ, is taken to mean
/// the exact score lies beyond it too. Returns the window bound so claimed.
#[allow(clippy::too_many_arguments)]
fn probcut<E: Evaluator>(
    w: &mut Worker,
    p: u64,
    o: u64,
    frame: &Frame,
    level: u8,
    alpha: i32,
    beta: i32,
    evaluate: &E,
) -> Option<i32> {
    let margin = (SELECTIVITY_T[level as usize] * MPC_SIGMA[0] * DISC as f32) as i32;
    let top = frame.squares() * DISC;
    let (high, low) = (beta * DISC + margin, alpha * DISC - margin);
    if high >= top && low <= -top {
        return None;
    }
    w.count_node();
    let score = evaluate(p, o)?;
    if high < top && score >= high {
        return Some(beta);
    }
    if low > -top && score <= low {
        return Some(alpha);
    }
    None
}

/// The fastest-first key of a move (lower is tried first): the opponent's replies, its corners
/// among them and the empty squares beside the mover's discs (its moves to come) count against;
/// taking a corner and moving into an isolated empty square (see
/// [`endgame8::isolated_empties`]) count for.
/// Weights tuned by node counts from the generic search's (16 a reply, 24 taking a corner):
/// 20 and 18 took 4.6% fewer nodes on FFO #40–#49 (709.1 M → 676.6 M) and 8.4% fewer on #52–#53
/// (649.5 M → 594.9 M), the same on the 6×6 start; 20 and 12, 20 and 6, 24 and 12 saved less,
/// and so did changing the other weights by a quarter.
/// Adding the child's evaluation (a sixteenth of it, a reply weighing 3.2 discs as in the generic
/// sort) from 12 empty squares took 3% fewer nodes on FFO #40–#49 and 2.4% fewer on #54, but 2%
/// and 0.4% more time; from 11, 5% fewer nodes and 10% more time.
/// A move into a quadrant holding an odd number of empty squares (Edax's parity) counting 6 for
/// took 0.8% fewer nodes on FFO #40–#49 and no less time; counting 12, 0.2% more nodes.
/// A move to an X-square whose corner is empty (Egaroucid weighs every square by its kind in its
/// endgame ordering) counting 10, 20 or 40 against: 1.0%, 0.8% and 0.0% fewer nodes on FFO
/// #40–#49; with 10 or 15 here and 1 in the fastest-first key below (`endgame8`, where a reply
/// counts 2), 1.1–1.2%: not kept.
#[inline(always)]
fn order_key(no: u64, replies: u64, sq: u32, empties: u64, isolated: u64, frame: &Frame) -> i32 {
    let left = empties & !(1u64 << sq);
    let potential = (neighbours::<Size8>(no) & left).count_ones() as i32;
    20 * replies.count_ones() as i32 + 24 * (replies & frame.corners()).count_ones() as i32
        - 18 * (frame.corners() >> sq & 1) as i32
        + 4 * potential
        - 10 * (isolated >> sq & 1) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluate;
    use crate::rules::geometry::{Size4, Size6, Size8};
    use crate::rules::{Bits, Othello, Position, othello::OthelloGeometry};
    use crate::search::control::Shared;
    use crate::search::endgame8::tests::negamax;
    use crate::search::tt::TranspositionTable;
    use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64};

    /// A random game of board `G` stopped at `empties` empty squares (`None` if it ended first).
    fn random_position<G: OthelloGeometry>(seed: u64, empties: u32) -> Option<Othello<G>> {
        let mut x = 0x2545_F491_4F6C_DD1Du64 ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut pos = Othello::<G>::start();
        while pos.empty_count() > empties {
            if pos.is_game_over() {
                return None;
            }
            let moves = pos.legal_moves();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            pos = pos.play_unchecked(moves[(x % moves.len() as u64) as usize]);
        }
        (!pos.is_game_over()).then_some(pos)
    }

    /// The layer's score of `pos` in the window (alpha, beta) at selectivity `level`, with the
    /// table `tt` kept between calls.
    fn layer<G: OthelloGeometry>(
        tt: &TranspositionTable,
        pos: &Othello<G>,
        alpha: i32,
        beta: i32,
        level: u8,
    ) -> i32 {
        let stop = AtomicBool::new(false);
        let shared = Shared {
            tt,
            stop: &stop,
            nodes: AtomicU64::new(0),
            node_limit: u64::MAX,
            deadline: crate::search::control::Deadline::none(),
            limit_hit: std::sync::Mutex::new(None),
            parallel: false,
            selectivity: AtomicU8::new(level),
            midgame_probcut: false,
            flush_every: AtomicU64::new(1024),
        };
        let mut w = Worker::new(&shared, None);
        let board = pos.as_board8().expect("a board on the 8x8 layout");
        let frame = Frame::of(board.board).expect("a frame for every kernel board");
        let evaluate = |p, o| pos.with_board8(p, o).map(|q| q.evaluate());
        solve(
            &mut w,
            board.player,
            board.opponent,
            frame,
            alpha,
            beta,
            &evaluate,
        )
    }

    /// Random positions of 8 to `MAX_EMPTIES` empty squares solved in several windows, the
    /// table kept from one to the next (so later ones start from stored bounds), against the
    /// plain negamax.
    fn agrees<G: OthelloGeometry>(games: u64, max_empties: u32) {
        let tt = TranspositionTable::new(4).expect("a small table");
        let mut checked = 0;
        for game in 0..games {
            let empties = TABLE_FROM + (game % (max_empties - TABLE_FROM + 1) as u64) as u32;
            let Some(pos) = random_position::<G>(game, empties) else {
                continue;
            };
            let exact = negamax(&pos);
            for (a, b) in [
                (exact, exact + 1),
                (exact - 1, exact),
                (-100, 100),
                (exact - 1, exact + 1),
                (exact - 3, exact + 2),
            ] {
                let s = layer(&tt, &pos, a, b, 0);
                assert!(
                    (s <= a && exact <= s)
                        || (s >= b && exact >= s)
                        || (s > a && s < b && s == exact),
                    "window ({a}, {b}) gave {s}, exact {exact}: {pos:?}"
                );
            }
            checked += 1;
        }
        assert!(checked > games / 2, "only {checked} positions checked");
    }

    #[test]
    fn agrees_with_plain_negamax_on_8x8() {
        agrees::<Size8>(60, 10);
    }

    #[test]
    fn agrees_with_plain_negamax_on_6x6_and_4x4() {
        agrees::<Size6>(60, 10);
        agrees::<Size4>(40, 9);
    }

    /// What the layer stores is found by the generic search under the position's own key, with
    /// the move code of the position's own square indices, and the other way round.
    fn keys_and_codes_match<G: OthelloGeometry>() {
        for game in 0..30 {
            let Some(pos) = random_position::<G>(game, 8) else {
                continue;
            };
            let board = pos.as_board8().expect("a board on the 8x8 layout");
            let frame = Frame::of(board.board).expect("a frame for every kernel board");
            assert_eq!(frame.key(board.player, board.opponent), pos.key());
            for index in pos.placements().squares() {
                let child = pos.play_index_unchecked(index);
                let b = child.as_board8().expect("a board on the 8x8 layout");
                let placed =
                    ((b.player | b.opponent) & !(board.player | board.opponent)).trailing_zeros();
                assert_eq!(frame.code_of(placed), index as u16);
                assert_eq!(frame.square_of(index as u16), Some(placed));
            }
        }
    }

    #[test]
    fn keys_and_move_codes_are_the_generic_search_ones() {
        keys_and_codes_match::<Size8>();
        keys_and_codes_match::<Size6>();
        keys_and_codes_match::<Size4>();
    }

    /// The selective passes cut by the evaluation, so their scores may be wrong; they must still
    /// be scores of the board, and the exact pass after them on the same table must be exact.
    #[test]
    fn selective_passes_leave_the_exact_pass_exact() {
        let tt = TranspositionTable::new(4).expect("a small table");
        for game in 0..40 {
            let Some(pos) = random_position::<Size8>(game, 9 + (game % 3) as u32) else {
                continue;
            };
            let exact = negamax(&pos);
            for level in [1, 2, 3, 4] {
                let s = layer(&tt, &pos, -65, 65, level);
                assert!(s.abs() <= 64, "level {level} gave {s}");
            }
            assert_eq!(layer(&tt, &pos, -65, 65, 0), exact, "{pos:?}");
        }
    }
}
