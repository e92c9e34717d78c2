//! Training games: othel plays itself from varied openings at a shallow depth, with random moves
//! now and then, until few squares are empty; from there it plays perfectly, solving every
//! position. Every position of the perfect ending is labelled with its exact score; every earlier
//! position with the exact score the game reached at the solve point (the outcome of that
//! position under the rest of the game, as Logistello's training used game results).

use super::records::GameRecord;
use crate::eval::{DISC, Evaluate};
use crate::rules::{Move, Position};
use crate::search::{Limits, Searcher};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::sync::atomic::AtomicBool;

/// How the training games are played.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    /// Search depth of the moves before the solve point.
    pub depth: u32,
    /// Solve exactly from this many empty squares.
    pub solve_empties: u32,
    /// Uniformly random moves at the start of a game without an opening.
    pub random_opening: u32,
    /// Chance of a random move at each ply before `random_until`.
    pub epsilon: f64,
    /// No random moves after this many plies.
    pub random_until: u32,
    /// Seed of game `i`: `seed + i`.
    pub seed: u64,
}

/// Plays training game number `index` from `opening` (moves from the start position) and returns
/// its record; [`GameRecord::samples`] labels its positions.
pub fn play_game<P: Evaluate>(
    searcher: &Searcher,
    config: &SelfPlay,
    opening: &[Move],
    index: u64,
) -> GameRecord {
    let mut rng = StdRng::seed_from_u64(
        config
            .seed
            .wrapping_add(index)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    let stop = AtomicBool::new(false);
    // A game depends on its number alone, not on what the table kept from the games before.
    searcher.clear();
    let mut pos = P::start();
    let mut moves = Vec::new();
    for &mv in opening {
        match pos.try_play(mv) {
            Ok(next) => pos = next,
            Err(_) => break,
        }
        moves.push(mv);
    }
    // Without an opening, a few random moves make the games differ.
    if opening.is_empty() {
        while (moves.len() as u32) < config.random_opening && !pos.is_game_over() {
            let mv = random_move(&pos, &mut rng);
            pos = pos.play_unchecked(mv);
            moves.push(mv);
        }
    }
    let opening_plies = moves.len() as u32;
    let mut scores = Vec::new();
    let limits = Limits::depth(config.depth);
    while !pos.is_game_over() && pos.empty_count() > config.solve_empties {
        if pos.must_pass() {
            pos = pos.play_pass_unchecked();
            continue;
        }
        let legal = pos.legal_moves();
        let ply = moves.len() as u32;
        // Every position is searched, also where the move is random or forced: its score labels
        // it (data/README.md).
        let (best, score) = if legal.len() == 1 {
            // The searcher answers a forced move without searching: search the reply instead.
            let child = pos.play_unchecked(legal[0]);
            let reply = searcher.search(&child, &limits, &stop, &mut |_| {});
            (legal[0], -reply.score)
        } else {
            let result = searcher.search(&pos, &limits, &stop, &mut |_| {});
            (result.best.unwrap_or(legal[0]), result.score)
        };
        scores.push(discs(score));
        let mv = if legal.len() > 1 && ply < config.random_until && rng.random_bool(config.epsilon)
        {
            legal[rng.random_range(0..legal.len())]
        } else {
            best
        };
        pos = pos.play_unchecked(mv);
        moves.push(mv);
    }
    // The perfect ending: every move by an exact solve.
    let solve_ply = moves.len() as u32;
    let exact = Limits {
        exact: true,
        ..Limits::default()
    };
    while !pos.is_game_over() {
        if pos.must_pass() {
            pos = pos.play_pass_unchecked();
            continue;
        }
        let result = searcher.search(&pos, &exact, &stop, &mut |_| {});
        let Some(mv) = result.best else { break };
        pos = pos.play_unchecked(mv);
        moves.push(mv);
    }
    let margin = pos.black_final_score();
    GameRecord {
        index,
        opening: opening_plies,
        solve_ply,
        margin,
        moves,
        scores,
    }
}

/// A score in centi-discs rounded to whole discs.
fn discs(centi_discs: i32) -> i32 {
    (centi_discs as f64 / DISC as f64).round() as i32
}

fn random_move<P: Position>(pos: &P, rng: &mut StdRng) -> Move {
    let moves = pos.legal_moves();
    moves[rng.random_range(0..moves.len())]
}
