//! Negascout (principal variation search) for the midgame, in centi-discs, and the exact endgame
//! solver, in discs. Both share the transposition table and, high in the tree, split their nodes
//! between threads the young-brothers-wait way: the first child alone, the others in parallel with
//! rayon, a cut-off in one aborting its siblings.

use super::control::{Abort, Shared, Worker};
use super::endgame8::{self, Frame};
use super::endgame8_table;
use super::moves::{
    Child, NO_MOVE, PASS, SWAP, children, drop_mirror_twins, maybe_mirror_twins, sort_children,
};
use super::tt::{
    DEPTH_END, DEPTH_SELECTIVE, Entry, TranspositionTable, endgame_cost, endgame_depth,
};
use crate::eval::{DISC, Evaluate};
use crate::rules::{Bits, Position};
use rayon::prelude::*;
use std::sync::atomic::{AtomicI32, AtomicU64, AtomicUsize, Ordering::Relaxed};

/// Above any score.
pub const INFINITY: i32 = 1_000_000;

/// Midgame nodes with at least this many plies left are split between threads.
const MIDGAME_SPLIT_DEPTH: i32 = 4;
/// Endgame nodes with at least this many empty squares are split between threads.
const ENDGAME_SPLIT_EMPTIES: u32 = 13;
/// Endgame nodes with fewer empty squares skip the table and the sorting. Only on boards without
/// the 8×8 layout: those with it go to `endgame8_table` from its `MAX_EMPTIES` down.
const ENDGAME_SHALLOW: u32 = 7;
const _: () = assert!(ENDGAME_SHALLOW as usize <= endgame8::MAX_EMPTIES);

/// Which search a node belongs to: the window's unit and what the children are searched with.
#[derive(Clone, Copy)]
enum Kind {
    Midgame(i32),
    Endgame,
}

/// Whether a stored entry settles the node in the window (alpha, beta): its exact score, or a
/// bound beyond the window.
pub(super) fn probe_cut(entry: &Entry, alpha: i32, beta: i32) -> Option<i32> {
    if entry.lower >= beta || entry.is_exact() {
        Some(entry.lower)
    } else if entry.upper <= alpha {
        Some(entry.upper)
    } else {
        None
    }
}

/// What a node's own entry settles in an endgame pass of selectivity `level`, both endgame layers'
/// probe cut: the entry must hold in that pass (see [`Entry::settles_endgame`]) and its bounds,
/// in discs, reach beyond the window (alpha, beta) in discs.
#[inline(always)]
pub(super) fn endgame_probe_cut(entry: &Entry, level: u8, alpha: i32, beta: i32) -> Option<i32> {
    if entry.settles_endgame(level) {
        probe_cut(&entry.in_units(DISC), alpha, beta)
    } else {
        None
    }
}

/// Searches one child with the null window above `alpha`, and again with the full window when it
/// fails high inside (alpha, beta). The score is from the parent's view.
fn scout<P: Evaluate>(w: &mut Worker, child: &P, kind: Kind, alpha: i32, beta: i32) -> i32 {
    let mut score = -search_child(w, child, kind, -alpha - 1, -alpha);
    if score > alpha && score < beta && !w.should_stop() {
        score = -search_child(w, child, kind, -beta, -alpha);
    }
    score
}

fn search_child<P: Evaluate>(w: &mut Worker, child: &P, kind: Kind, alpha: i32, beta: i32) -> i32 {
    match kind {
        Kind::Midgame(depth) => midgame(w, child, depth - 1, alpha, beta),
        Kind::Endgame => endgame(w, child, alpha, beta),
    }
}

/// Searches the children of a node (PVS), splitting them between threads when the node is high
/// enough; returns the best score and move, `alpha` and `beta` in the node's unit. The children
/// come with their keys, in any order: each is searched once it is the best-keyed of those left
/// (the first of them, so that a sorted list keeps its order), and a node cut off by one of its
/// first children sorts no others. `searched`: the score and move of a child searched already,
/// which the others must beat.
fn search_children<P: Evaluate>(
    w: &mut Worker,
    kids: &mut [Child<P>],
    kind: Kind,
    alpha: i32,
    beta: i32,
    split: bool,
    searched: Option<(i32, u16)>,
) -> (i32, u16) {
    let mut best = searched.unwrap_or((-INFINITY, NO_MOVE));
    let mut alpha = alpha.max(best.0);
    let first = usize::from(searched.is_none());
    for i in 0..kids.len() {
        if split && i == first && kids.len() - i > 1 {
            // The rest in parallel: in order, as a lone thread would take them.
            kids[i..].sort_by_key(|c| std::cmp::Reverse(c.key));
            return split_rest(w, &kids[i..], kind, alpha, beta, best);
        }
        // The first of the best-keyed left, so that ties keep their move order.
        let mut pick = i;
        for j in i + 1..kids.len() {
            if kids[j].key > kids[pick].key {
                pick = j;
            }
        }
        kids[i..=pick].rotate_right(1);
        let kid = &kids[i];
        let score = if i == 0 && searched.is_none() {
            -search_child(w, &kid.pos, kind, -beta, -alpha)
        } else {
            scout(w, &kid.pos, kind, alpha, beta)
        };
        if w.should_stop() {
            return best;
        }
        if score > best.0 {
            best = (score, kid.code);
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

/// The young brothers: every child but the first, searched in parallel against a shared alpha
/// (see [`share_out`]).
fn split_rest<P: Evaluate>(
    w: &mut Worker,
    kids: &[Child<P>],
    kind: Kind,
    alpha: i32,
    beta: i32,
    best: (i32, u16),
) -> (i32, u16) {
    let (scores, helpers_nodes) = share_out(
        w.shared,
        w.abort,
        kids.len(),
        alpha,
        beta,
        |worker, i, a| Some(scout(worker, &kids[i].pos, kind, a, beta)),
    );
    w.add_helpers_nodes(helpers_nodes);
    kids.iter()
        .zip(scores)
        .filter_map(|(kid, score)| Some((score?, kid.code)))
        .fold(best, |b, c| if c.0 > b.0 { c } else { b })
}

/// Searches `count` siblings side by side, under the split point `parent`: each thread takes the
/// next one in order from a shared counter, so that they are started best-looking first, as a
/// lone thread would search them (splitting the list in halves, as `par_iter` does, set the
/// second thread on the worst-looking half: on FFO #40–#49 with 2 threads, 7% more nodes than on
/// 1 thread). `search(worker, i, alpha)` scores sibling `i` against the shared alpha of the
/// moment (starting at `alpha`), or declines it with `None`; a score of `beta` or more raises
/// the split point's flag, so that the others give up. Each sibling's score, `None` for those
/// declined or not searched to the end; and the nodes the siblings took, all threads together.
pub(super) fn share_out(
    shared: &Shared,
    parent: Option<&Abort>,
    count: usize,
    alpha: i32,
    beta: i32,
    search: impl Fn(&mut Worker, usize, i32) -> Option<i32> + Sync,
) -> (Vec<Option<i32>>, u64) {
    const UNSCORED: i32 = i32::MIN;
    let abort = Abort::new(parent);
    let shared_alpha = AtomicI32::new(alpha);
    let scores: Vec<AtomicI32> = (0..count).map(|_| AtomicI32::new(UNSCORED)).collect();
    let next = AtomicUsize::new(0);
    let nodes = AtomicU64::new(0);
    let tasks = rayon::current_num_threads().min(count);
    (0..tasks).into_par_iter().for_each(|_| {
        let mut worker = Worker::new(shared, Some(&abort));
        loop {
            if abort.raised() || shared.stopped() {
                break;
            }
            let i = next.fetch_add(1, Relaxed);
            if i >= count {
                break;
            }
            let Some(score) = search(&mut worker, i, shared_alpha.load(Relaxed)) else {
                continue;
            };
            if worker.should_stop() {
                break;
            }
            scores[i].store(score, Relaxed);
            shared_alpha.fetch_max(score, Relaxed);
            if score >= beta {
                abort.raise();
            }
        }
        nodes.fetch_add(worker.counted(), Relaxed);
    });
    let scores = scores
        .into_iter()
        .map(|s| Some(s.into_inner()).filter(|&s| s != UNSCORED))
        .collect();
    (scores, nodes.into_inner())
}

/// The midgame search: the score in centi-discs of `pos` searched `depth` plies deep, exact when
/// the game's end is within reach.
pub fn midgame<P: Evaluate>(w: &mut Worker, pos: &P, depth: i32, alpha: i32, beta: i32) -> i32 {
    w.count_node();
    if w.should_stop() {
        return 0;
    }
    let empties = pos.empty_count();
    if depth >= empties as i32 {
        return endgame_in_centidiscs(w, pos, alpha, beta);
    }
    if depth <= 0 {
        return pos.evaluate();
    }
    // Nodes one ply above the leaves go through the table and the ordering like the others. A
    // dedicated last ply (each child evaluated in move order, no table, no list: Egaroucid's
    // idea) took 54% more nodes and more time to depth 13 on 64 midgame positions (4.97 M
    // nodes in 1.21-1.44 s against 7.64 M in 1.40-1.57 s), and 23% more with the children
    // still ordered (1.59-1.66 s): the table's move and cut-offs pay for its probe there.
    // Tried (forty-second session; depth-14 searches of 64 positions of the held-out
    // games-055000, `othel bench --depth 14 --positions`, 8.04 M nodes as it is): the enhanced
    // transposition cut-off of the endgame here too, a child's entry of depth − 1 plies or more
    // proving the node worth beta before any child is searched, 7.94 M nodes from 2 plies on,
    // 7.99 M from 3, 8.00 M from 4: 1% fewer nodes for a probe of every child's bucket, not
    // worth it. Late move reductions (null-window nodes of 3 plies or more searching their
    // fourth and later children one ply shallower, again in full when one beats alpha): 7.70 M
    // nodes, −4%; from the fifth child 8.26 M; from the fifth child at 4 plies or more
    // 9.36 M. The first against none at 40 ms a move (XOT openings, seed 28, one thread each,
    // SPRT (0, 20)): H0 after 756 games, 303–131–322, −8.7 Elo [−31.2, +13.8]. ProbCut and the
    // table leave them little to save, for a search that is less sure.
    // A forced move searched at the node's own depth rather than one ply less (the chess
    // engines' single-reply extension; sixty-first session): 4% more nodes in `othel bench
    // --depth 14` (751,969 against 723,605), and against none at 40 ms a move (XOT openings,
    // seed 43, one thread each, SPRT (0, 20)): H0 after 1,982 games, 832–334–816, +2.8 Elo
    // [−11.1, +16.7]. Not kept.
    let key = pos.key();
    let mut hash_move = NO_MOVE;
    if let Some(entry) = w.shared.tt.probe(key) {
        hash_move = entry.best;
        if (entry.depth as i32 >= depth || entry.depth == DEPTH_END)
            && let Some(score) = probe_cut(&entry, alpha, beta)
        {
            return score;
        }
    }
    if beta == alpha + 1
        && depth >= MPC_MIDGAME_MIN_DEPTH
        && w.shared.midgame_probcut
        && let Some(score) = midgame_probcut(w, pos, depth, alpha)
    {
        return score;
    }
    let kind = Kind::Midgame(depth);
    let split = w.shared.parallel && depth >= MIDGAME_SPLIT_DEPTH;
    // The table's move is searched before the other children are made: when it cuts off, as it
    // mostly does where it exists, they are never made, keyed or sorted (the same nodes; 5.79 M
    // a second against 5.63 M in `othel bench --depth 20`). Not near a symmetric start, whose
    // mirror-image children are dropped first.
    let mut searched = None;
    if let Some(child) = legal_child(pos, hash_move)
        && !maybe_mirror_twins(pos)
    {
        let score = -search_child(w, &child, kind, -beta, -alpha);
        if w.should_stop() {
            return score;
        }
        if score >= beta {
            let entry = Entry::from_search(score, alpha, beta, table_depth(depth), hash_move, 0);
            w.shared.tt.store(key, entry);
            return score;
        }
        searched = Some((score, hash_move));
    }
    let mut kids = children(pos, hash_move, || w.tick());
    if searched.is_some() {
        kids.retain(|kid| kid.code != hash_move);
    } else {
        drop_mirror_twins(pos, &mut kids);
        if kids.is_empty() {
            return if pos.must_pass() {
                -midgame(w, &pos.play_pass_unchecked(), depth, -beta, -alpha)
            } else {
                pos.final_score() * DISC
            };
        }
    }
    // The children will look themselves up in the table (those with a ply or more to go): ask
    // for their buckets now, so that the cache misses overlap (`othel bench --depth 20`, the
    // same nodes: 6.66 M a second against 5.79 M, medians of eight runs).
    if depth >= 2 {
        for kid in &kids {
            w.shared.tt.prefetch(kid.pos.key());
        }
    }
    let (score, best) = search_children(w, &mut kids, kind, alpha, beta, split, searched);
    if !w.should_stop() {
        let entry = Entry::from_search(score, alpha, beta, table_depth(depth), best, 0);
        w.shared.tt.store(key, entry);
    }
    score
}

/// The depth a midgame entry is stored with.
fn table_depth(depth: i32) -> u8 {
    depth.min(DEPTH_SELECTIVE as i32) as u8
}

/// The child that the move `code` leads to, if it is legal in `pos` (a table's move may be any
/// code, from another position with the same key).
fn legal_child<P: Position>(pos: &P, code: u16) -> Option<P> {
    match code {
        NO_MOVE | PASS => None,
        SWAP => pos.can_swap().then(|| pos.play_swap_unchecked()),
        index => {
            let index = index as usize;
            (index < pos.size() * pos.size() && pos.placements().has(index))
                .then(|| pos.play_index_unchecked(index))
        }
    }
}

/// Null-window midgame nodes with at least this many plies left try a probable cut-off.
pub(super) const MPC_MIDGAME_MIN_DEPTH: i32 = 3;

/// How many σ beyond the window the shallow search must land. First chosen by matches at 4 s +
/// 0.05 s a move on one thread over XOT openings (t = 1.0 scored 60.5% against 1.5 over 100
/// games, 59% against 2.0, 58.8% against 0.7 over 120; t = 1.5 80% against no ProbCut at all);
/// then measured again with the trained weights of 2026-11-26 over XOT openings: t = 0.7 against
/// 1.0 scored +23.0 Elo [+2.9, +43.0] at 40 ms a move (1,000 games) but −16.5 [−48.1, +15.1] at
/// 150 ms (400 games), and t = 1.4 against 1.0 −69.9 [−110.0, −29.6] at 40 ms (262 games): the
/// best margin grows with the time, and 1.0 stays.
const MPC_MIDGAME_T: f32 = 1.0;

/// The shallow depth whose search predicts a `depth`-ply one: about half as deep, of the same
/// parity (scores swing with the side to move at the leaves, by about 3 discs on 8×8).
fn mpc_shallow_depth(depth: i32) -> i32 {
    (depth / 4) * 2 + (depth & 1)
}

/// ProbCut in the midgame (Buro's idea, which Edax and Egaroucid use at every depth): a null-window
/// search at the shallow depth that lands t·σ beyond the window is taken as the deep search's
/// answer (σ: [`Evaluate::probcut_sigma`] for the depth and its [`mpc_shallow_depth`]). Returns
/// the window bound so claimed.
fn midgame_probcut<P: Evaluate>(w: &mut Worker, pos: &P, depth: i32, alpha: i32) -> Option<i32> {
    let shallow = mpc_shallow_depth(depth);
    let sigma = P::probcut_sigma(depth, pos.empty_count())?;
    let margin = (MPC_MIDGAME_T * sigma as f32) as i32;
    let beta = alpha + 1;
    shallow_cut(w, pos, shallow, Some(beta + margin), Some(alpha - margin)).map(|cut| match cut {
        Cut::High => beta,
        Cut::Low => alpha,
    })
}

/// Which side of its window a shallow search proved a position to lie on.
enum Cut {
    High,
    Low,
}

/// The test both ProbCuts make: a null-window search `shallow` plies deep proving the position
/// worth at least `high`, else at most `low` (centi-discs; a bound left out is not tried).
fn shallow_cut<P: Evaluate>(
    w: &mut Worker,
    pos: &P,
    shallow: i32,
    high: Option<i32>,
    low: Option<i32>,
) -> Option<Cut> {
    if let Some(high) = high
        && midgame(w, pos, shallow, high - 1, high) >= high
    {
        return Some(Cut::High);
    }
    if let Some(low) = low
        && midgame(w, pos, shallow, low, low + 1) <= low
    {
        return Some(Cut::Low);
    }
    None
}

/// The exact endgame score in centi-discs, for a window in centi-discs.
fn endgame_in_centidiscs<P: Evaluate>(w: &mut Worker, pos: &P, alpha: i32, beta: i32) -> i32 {
    // The disc window that decides the same: floor(alpha) and ceil(beta).
    let alpha_discs = alpha.div_euclid(DISC);
    let beta_discs = -(-beta).div_euclid(DISC);
    endgame(w, pos, alpha_discs, beta_discs) * DISC
}

/// The exact endgame solver: the final disc difference of `pos` under perfect play, from the view
/// of the player to move, as a fail-soft score in the window (alpha, beta) in discs.
pub fn endgame<P: Evaluate>(w: &mut Worker, pos: &P, alpha: i32, beta: i32) -> i32 {
    w.count_node();
    if w.should_stop() {
        return 0;
    }
    let empties = pos.empty_count();
    if empties == 0 {
        return pos.final_score();
    }
    if empties <= endgame8_table::MAX_EMPTIES
        && let Some(board) = pos.as_board8()
        && let Some(frame) = Frame::of(board.board)
    {
        let evaluate = |p, o| pos.with_board8(p, o).map(|q| q.evaluate());
        return endgame8_table::solve(
            w,
            board.player,
            board.opponent,
            frame,
            alpha,
            beta,
            &evaluate,
        );
    }
    if empties <= ENDGAME_SHALLOW {
        return endgame_shallow(w, pos, alpha, beta);
    }
    if let Some(bound) = stability_cutoff(pos, empties, alpha) {
        return bound;
    }
    let counted_before = w.counted();
    let key = pos.key();
    let level = w.shared.selectivity.load(Relaxed);
    let selective = level > 0 && empties >= MPC_MIN_EMPTIES;
    let mut hash_move = NO_MOVE;
    if let Some(entry) = w.shared.tt.probe(key) {
        // Only an endgame search's move goes first. A midgame entry's comes from a shallow
        // search (a sort, a ProbCut test, an earlier IID of a parent), and put first it kept the
        // node from its own IID and from sorting every child by a shallow search: ignoring it
        // took 16% fewer nodes on FFO #40–#49 and 18% fewer on #50–#54 (1 thread).
        if entry.is_endgame() {
            hash_move = entry.best;
        }
        if let Some(score) = endgame_probe_cut(&entry, level, alpha, beta) {
            return score;
        }
    }
    if selective && let Some(score) = probcut(w, pos, empties, level, alpha, beta) {
        return score;
    }
    if hash_move == NO_MOVE && empties >= ENDGAME_IID_EMPTIES {
        // Internal iterative deepening: a shallow midgame search finds a move to try first.
        let depth = iid_depth(empties);
        midgame(w, pos, depth, -INFINITY, INFINITY);
        hash_move = w.shared.tt.probe(key).map_or(NO_MOVE, |e| e.best);
    }
    // Sorted below, once the enhanced transposition cut-off did not settle the node.
    let mut kids = children(pos, hash_move, || w.tick());
    drop_mirror_twins(pos, &mut kids);
    if empties > ENDGAME_SHALLOW + 1 {
        // The children will look themselves up (and the enhanced transposition cut-off first):
        // ask for all their buckets now, so that the cache misses overlap.
        for kid in &kids {
            w.shared.tt.prefetch(kid.pos.key());
        }
    }
    if empties >= ENDGAME_ETC_EMPTIES
        && let Some(score) = enhanced_transposition_cutoff(
            w.shared.tt,
            kids.iter().map(|kid| kid.pos.key()),
            beta,
            level,
        )
    {
        return score;
    }
    let store = |w: &mut Worker, score: i32, best: u16| {
        let depth = endgame_depth(selective, level);
        let (score, alpha, beta) = (score * DISC, alpha * DISC, beta * DISC);
        let cost = endgame_cost(w.counted() - counted_before);
        let entry = Entry::from_search(score, alpha, beta, depth, best, cost);
        w.shared.tt.store(key, entry);
    };
    // The table's move first, before the others are sorted: when it cuts off, they are never
    // sorted by shallow searches (FFO #40–#49, 1 thread: 509.3 M nodes in 23.7 s against
    // 510.4 M in 26.7 s). Searched before the enhanced transposition cut-off is looked for, it
    // took 527.3 M nodes in 24.8 s.
    let mut searched = None;
    if let Some(i) = kids.iter().position(|kid| kid.code == hash_move) {
        let child = kids.remove(i).pos;
        let score = -endgame(w, &child, -beta, -alpha);
        if w.should_stop() {
            return score;
        }
        if score >= beta {
            store(w, score, hash_move);
            return score;
        }
        searched = Some((score, hash_move));
    }
    // Sorted only once the enhanced transposition cut-off did not settle the node: a node it
    // settles spends no shallow searches on its children (1–3% less time).
    if empties >= ENDGAME_SORT_EMPTIES && kids.len() > 2 {
        sort_by_shallow_search(w, &mut kids, hash_move, empties);
    } else if kids.len() > 2 {
        prefer_odd_quadrants(pos, &mut kids, hash_move);
    }
    if kids.is_empty() && searched.is_none() {
        return if pos.must_pass() {
            -endgame(w, &pos.play_pass_unchecked(), -beta, -alpha)
        } else {
            pos.final_score()
        };
    }
    let split = w.shared.parallel && empties >= ENDGAME_SPLIT_EMPTIES;
    let (score, best) = search_children(w, &mut kids, Kind::Endgame, alpha, beta, split, searched);
    if !w.should_stop() {
        store(w, score, best);
    }
    score
}

/// Endgame nodes with at least this many empty squares try a probable cut-off in selective passes
/// (from 9 rather than 12: 4% fewer nodes on FFO #40–#49).
pub(super) const MPC_MIN_EMPTIES: u32 = 9;

/// The selective passes of the endgame: level L (1 to 4) trusts a shallow search to predict the
/// exact score within `SELECTIVITY_T[L] × σ`, σ being the spread of the shallow search's error.
pub const SELECTIVITY_T: [f32; 5] = [0.0, 1.1, 1.5, 2.0, 2.6];

// The table keeps selective results at depths DEPTH_SELECTIVE + level, below DEPTH_END.
const _: () = assert!(DEPTH_SELECTIVE as usize + SELECTIVITY_T.len() - 1 < DEPTH_END as usize);

/// How sure a pass of each level is, in percent: roughly the normal law's two-sided confidence
/// at t, with the labels Edax gives the same t values.
pub const SELECTIVITY_PERCENT: [u8; 5] = [100, 73, 87, 95, 98];

/// The standard deviation, in discs, of (shallow search − exact score) for the shallow depths
/// 0, 2 and 4 (measured with the trained 8×8 evaluation on 150 self-play positions at each of 10,
/// 12, …, 22 empty squares: 6.6–8.3, 5.9–6.7 and 5.1–5.9; it barely depends on the empties).
/// With the weights of the seventh session (`scripts/probcut-sigma.py --endgame --empties 10-24`
/// on 447 positions of the held-out games-055000): 6.8, 5.9 and 5.3, a few percent less; not
/// changed, the node counts of the FFO positions not measured with them.
/// With the fish and kite weights (`builtin-1a10ebb6`, fifty-seventh session, the same script
/// on 1,188 positions): 6.08, 5.56 and 4.87, 12% below the 7.0, 6.3 and 5.5 used until then
/// and now in their place: FFO #40–#59 (1 thread, 1 GB) in 15.38 G nodes instead of 15.56 G;
/// 0.9 and 0.8 times the old values took 15.32 G and 15.41 G.
pub(super) const MPC_SIGMA: [f32; 3] = [6.08, 5.56, 4.87];

/// Multi-ProbCut in the endgame (Buro's idea, as Edax and Egaroucid use it in their selective
/// passes before the exact one): a shallow search far enough outside the window, by t·σ, is
/// taken to mean the exact score lies outside it too. Returns the window bound so claimed.
fn probcut<P: Evaluate>(
    w: &mut Worker,
    pos: &P,
    empties: u32,
    level: u8,
    alpha: i32,
    beta: i32,
) -> Option<i32> {
    let shallow = match empties {
        0..=15 => 0,
        16..=21 => 1,
        _ => 2,
    };
    let margin = (SELECTIVITY_T[level as usize] * MPC_SIGMA[shallow] * DISC as f32) as i32;
    let depth = 2 * shallow as i32;
    // Bounds beyond the whole board cannot be proved: not tried.
    let top = (pos.size() * pos.size()) as i32 * DISC;
    let high = Some(beta * DISC + margin).filter(|&high| high < top);
    let low = Some(alpha * DISC - margin).filter(|&low| low > -top);
    shallow_cut(w, pos, depth, high, low).map(|cut| match cut {
        Cut::High => beta,
        Cut::Low => alpha,
    })
}

/// Endgame nodes with at least this many empty squares and no hash move search for one first
/// (with the children sorted by the evaluation from 12 empties, searching from 20 rather than 17
/// took 1% fewer nodes).
const ENDGAME_IID_EMPTIES: u32 = 20;

/// The depth of that search: 4 plies at 20 empties, one more every 2 empties (one ply more than
/// before midgame entries' moves stopped going first: 4% fewer nodes on FFO #40–#49 and #50–#54,
/// 17% fewer on the 6×6 start, 1 thread).
fn iid_depth(empties: u32) -> i32 {
    (empties as i32 - 11) / 2
}

/// Endgame nodes with at least this many empty squares order their children by a shallow search
/// (from 12 rather than 16 since the last empties are searched fastest first: 16% fewer nodes on
/// FFO #40–#49 for the same time; from 10, or one ply deeper, cost more time than it saved).
const ENDGAME_SORT_EMPTIES: u32 = 12;

/// The depth of the shallow searches that sort an endgame node's children: 0 up to 17 empties, one
/// ply more every 4 empties (from 18 rather than 20 once midgame entries' moves stopped going
/// first: 4–7% fewer nodes and 2–6% less time on FFO #40–#49, #50–#54 and the 6×6 start).
/// Deeper still, (empties − 13) / 3, took 6.6% fewer nodes on FFO #40–#49 and 6.2% fewer on #54
/// but 3% more time on both (1 thread, side by side); (empties − 14) / 2, 5.5% fewer nodes and 6%
/// more time: the evaluations cost more than the nodes they save. Deeper only from 22 empties,
/// (empties − 13) / 3 there: 0.3% more nodes on #40–#49 and 0.4% fewer on #53 + #54. With the
/// evaluation in AVX-512 lanes (fifty-fourth session, FFO #40–#59, 1 thread, 1 GB, two runs side
/// by side): (empties − 13) / 3 took 1.0% fewer nodes (15.17 G against 15.33 G) and 17% more
/// time (604 s against 518 s).
fn sort_depth(empties: u32) -> i32 {
    (empties as i32 - 14).max(0) / 4
}

/// Orders the children of a deep endgame node by a shallow midgame search of each (to
/// [`sort_depth`]), with the cheap fastest-first key still weighing in (as in Edax and Egaroucid,
/// which sort by shallow searches and mobility together). The key
/// counts fifteen times its value, a reply 2.4 discs: on FFO #40–#59 (1 thread, 1 GB table),
/// 14.69 G nodes against 14.85 G with twenty times and 14.84 G with twelve (forty-ninth
/// session, weights `builtin-5a83177a`); ten times took 2% more nodes than twenty on FFO
/// #40–#49, and twenty-five 4% more (ten times took 22% fewer than the cheap key alone on FFO
/// #40–#44). Measured again with the weights `builtin-45f92870` (seventy patterns, fifty-fourth
/// session, same setting): fifteen 15.33 G, twelve 15.45 G, twenty 15.41 G. A weight of its own
/// where the sort searches a ply or more (from 18 empties; sixty-third session, 1 thread, 1 GB):
/// 4 took 1.5% fewer nodes on FFO #40–#49 (501.7 M against 509.3 M) but 2.1% more on #50–#54
/// (5.55 G against 5.44 G); 0, 8 and 25 took 506.8 M, 504.0 M and 523.8 M on #40–#49.
/// The shallow searches have the whole window: within the node's window widened by 8 or 16
/// discs they took as long (within 1% on FFO #40–#49 and #53, 1 thread, side by side).
/// A child with an endgame entry from an earlier pass keyed by its bounds (their middle, or the
/// one it has) instead of a shallow search: 1% more nodes on FFO #40–#49 and the same time; by
/// entries with both bounds only: no change.
/// The sorts' own nodes are few: 3.4% of FFO #40–#49's (17.4 M of 515.0 M, 1 thread; 6.8 M of
/// them at nodes of 13 empty squares), while 97% of the nodes lie below nodes of 13. Skipping
/// the sort at null-window nodes that an earlier pass's entry says will fail low (where the
/// children's order cannot change the work, if the entry is right) took 0.7% more nodes.
fn sort_by_shallow_search<P: Evaluate>(
    w: &mut Worker,
    kids: &mut [Child<P>],
    hash_move: u16,
    empties: u32,
) {
    let depth = sort_depth(empties);
    for kid in kids.iter_mut() {
        if kid.code != hash_move {
            let score = -midgame(w, &kid.pos, depth, -INFINITY, INFINITY);
            kid.key = score + 15 * kid.key;
        }
    }
    sort_children(kids);
}

/// Endgame nodes with at least this many empty squares look up their children before searching.
const ENDGAME_ETC_EMPTIES: u32 = 10;

/// Enhanced transposition cut-off, for both endgame layers: a child (by its key) whose stored
/// score is at most -beta already proves the node worth at least beta, before any child is
/// searched. The child's entry must hold in a pass of selectivity `level`: a result to the end,
/// or a selective pass's as sure or surer. Scores in discs.
#[inline(always)]
pub(super) fn enhanced_transposition_cutoff(
    tt: &TranspositionTable,
    child_keys: impl IntoIterator<Item = u64>,
    beta: i32,
    level: u8,
) -> Option<i32> {
    child_keys
        .into_iter()
        .filter_map(|key| tt.probe(key))
        .filter_map(|entry| entry.parent_lower_bound_in_discs(level))
        .find(|&bound| bound >= beta)
}

/// The stability cut-off: when the opponent's stable discs leave the player at most `alpha`, the
/// node fails low without a search. Counting them costs, so only when alpha is high for the
/// number of empty squares: from 2·empties − 2, as in the bitboard solver (0.3% fewer nodes on
/// FFO #40–#49 than from 2·empties + 4).
#[inline]
fn stability_cutoff<P: Position>(pos: &P, empties: u32, alpha: i32) -> Option<i32> {
    if alpha < 2 * empties as i32 - 2 {
        return None;
    }
    let squares = (pos.size() * pos.size()) as i32;
    let bound = squares - 2 * pos.opponent_stable_discs()? as i32;
    (bound <= alpha).then_some(bound)
}

/// The quadrants (bits 0–3) holding an odd number of empty squares.
#[inline]
fn odd_quadrants<P: Position>(pos: &P) -> u32 {
    let size = pos.size();
    let mut odd = 0u32;
    for sq in pos.empties().squares() {
        odd ^= 1 << quadrant(sq, size);
    }
    odd
}

/// How much a move into a quadrant with an odd number of empty squares gains in the ordering of
/// the endgame nodes below the shallow-search sort (about half a reply of mobility; 3% fewer
/// nodes on FFO #40–#44 than without).
const ENDGAME_PARITY_BONUS: i32 = 10;

/// Parity ordering (as in Edax and Egaroucid): the cheap key plus a bonus for moves into
/// quadrants with an odd number of empty squares, the hash move still first.
fn prefer_odd_quadrants<P: Position>(pos: &P, kids: &mut [Child<P>], hash_move: u16) {
    let size = pos.size();
    let odd = odd_quadrants(pos);
    for kid in kids.iter_mut() {
        let index = kid.code as usize;
        if kid.code != hash_move && index < size * size && odd >> quadrant(index, size) & 1 == 1 {
            kid.key += ENDGAME_PARITY_BONUS;
        }
    }
    sort_children(kids);
}

/// Which quadrant of the board a square is in (0–3).
#[inline(always)]
fn quadrant(index: usize, size: usize) -> u32 {
    let (row, col) = (index / size, index % size);
    ((row >= size / 2) as u32) << 1 | (col >= size / 2) as u32
}

/// The last few empty squares: no table; moves in quadrants with an odd number of empty squares
/// first (parity: the player who moves last in a region tends to gain there).
fn endgame_shallow<P: Position>(w: &mut Worker, pos: &P, alpha: i32, beta: i32) -> i32 {
    let empties = pos.empties();
    if empties.count() == 1 && !pos.can_swap() {
        return pos.score_last_empty(empties.lowest());
    }
    if empties.count() >= 4
        && let Some(bound) = stability_cutoff(pos, empties.count(), alpha)
    {
        return bound;
    }
    let placements = pos.placements();
    if placements.is_empty() && !pos.can_swap() {
        if pos.must_pass() {
            w.count_node();
            return -endgame_shallow(w, &pos.play_pass_unchecked(), -beta, -alpha);
        }
        return pos.final_score();
    }
    let mut alpha = alpha;
    let mut best = -INFINITY;
    let size = pos.size();
    let odd_quadrants = odd_quadrants(pos);
    let last = empties.count() == 2;
    'passes: for odd_pass in [true, false] {
        for index in placements.squares() {
            if (odd_quadrants >> quadrant(index, size) & 1 == 1) != odd_pass {
                continue;
            }
            let child = pos.play_index_unchecked(index);
            w.count_node();
            let score = if last {
                w.count_node();
                -child.score_last_empty((empties & !P::Bits::bit(index)).lowest())
            } else {
                -endgame_shallow(w, &child, -beta, -alpha)
            };
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break 'passes;
                    }
                }
            }
        }
    }
    if pos.can_swap() && best < beta {
        let score = -endgame_shallow(w, &pos.play_swap_unchecked(), -beta, -alpha);
        best = best.max(score);
    }
    best
}

/// The code of the move that leads from `pos` to the stored best reply, for building the principal
/// variation out of the table.
pub fn hash_move<P: Position>(w: &Worker, pos: &P) -> u16 {
    if pos.placements().is_empty() && !pos.can_swap() {
        return if pos.must_pass() { PASS } else { NO_MOVE };
    }
    w.shared.tt.probe(pos.key()).map_or(NO_MOVE, |e| e.best)
}
