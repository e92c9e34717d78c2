//! Training games: othel plays itself from varied openings at a shallow depth, with random moves
//! now and then, until few squares are empty; from there it plays perfectly, solving every
//! position. Every position of the perfect ending is labelled with its exact score; every earlier
//! position with the exact score the game reached at the solve point (the outcome of that
//! position under the rest of the game, as Logistello's training used game results).

use super::samples::Sample;
use crate::eval::{DISC, Evaluate};
use crate::rules::{Bits, Color, Move, Position};
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
/// its labelled positions.
pub fn play_game<P: Evaluate>(
    searcher: &Searcher,
    config: &SelfPlay,
    opening: &[Move],
    index: u64,
) -> Vec<Sample> {
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
    let mut ply = 0u32;
    for &mv in opening {
        match pos.try_play(mv) {
            Ok(next) => pos = next,
            Err(_) => break,
        }
        ply += 1;
    }
    // Without an opening, a few random moves make the games differ.
    if opening.is_empty() {
        while ply < config.random_opening && !pos.is_game_over() {
            pos = pos.play_unchecked(random_move(&pos, &mut rng));
            ply += 1;
        }
    }
    // Positions before the solve point, with their side to move.
    let mut midgame: Vec<(P, Color)> = Vec::new();
    while !pos.is_game_over() && pos.empty_count() > config.solve_empties {
        let moves = pos.legal_moves();
        let mv = if moves.len() > 1 && ply < config.random_until && rng.random_bool(config.epsilon)
        {
            moves[rng.random_range(0..moves.len())]
        } else if moves.len() == 1 {
            moves[0]
        } else {
            midgame.push((pos, pos.side_to_move()));
            let result = searcher.search(&pos, &Limits::depth(config.depth), &stop, &mut |_| {});
            result.best.unwrap_or(moves[0])
        };
        pos = pos.play_unchecked(mv);
        ply += 1;
    }
    let mut samples = Vec::new();
    // The perfect ending: every position solved.
    let exact = Limits {
        exact: true,
        ..Limits::default()
    };
    let mut outcome: Option<(i32, Color)> = None;
    while !pos.is_game_over() {
        if pos.must_pass() {
            pos = pos.play_pass_unchecked();
            continue;
        }
        let result = searcher.search(&pos, &exact, &stop, &mut |_| {});
        let score = result.score / DISC;
        outcome.get_or_insert((score, pos.side_to_move()));
        samples.push(sample(&pos, score));
        match result.best {
            Some(mv) => pos = pos.play_unchecked(mv),
            None => break,
        }
    }
    let (score, color) = outcome.unwrap_or((pos.final_score(), pos.side_to_move()));
    for (p, side) in midgame {
        let s = if side == color { score } else { -score };
        samples.push(sample(&p, s));
    }
    samples
}

fn sample<P: Position>(pos: &P, score: i32) -> Sample {
    Sample {
        player: pos.player().low64(),
        opponent: pos.opponent().low64(),
        score: score.clamp(-127, 127) as i8,
    }
}

fn random_move<P: Position>(pos: &P, rng: &mut StdRng) -> Move {
    let moves = pos.legal_moves();
    moves[rng.random_range(0..moves.len())]
}
