//! Training games: othel plays itself from varied openings at a shallow depth, with random moves
//! now and then, until few squares are empty; from there it plays perfectly, solving every
//! position. Every position of the perfect ending is labelled with its exact score; every earlier
//! position with the exact score the game reached at the solve point (the outcome of that
//! position under the rest of the game, as Logistello's training used game results).

use super::records::{GameRecord, RecordHeader};
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
    let mut dice = Dice::for_game(config, index);
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
            let mv = dice.opening_move(&pos.legal_moves());
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
        let mv = dice.random_move(config, ply, &legal).unwrap_or(best);
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

/// The random draws of one training game, made in the order [`play_game`] makes them, so that
/// replaying them on a recorded game tells which of its moves were random ([`random_moves`]).
struct Dice {
    rng: StdRng,
}

impl Dice {
    fn for_game(config: &SelfPlay, index: u64) -> Dice {
        let seed = config
            .seed
            .wrapping_add(index)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        Dice {
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// A move of a random opening, among `legal` (not empty).
    fn opening_move(&mut self, legal: &[Move]) -> Move {
        legal[self.rng.random_range(0..legal.len())]
    }

    /// At `ply` (passes not counted) with the placements `legal`: a random one with the chance
    /// `config.epsilon` while there is a choice before `config.random_until`, else `None` (the
    /// search's move is played).
    fn random_move(&mut self, config: &SelfPlay, ply: u32, legal: &[Move]) -> Option<Move> {
        (legal.len() > 1 && ply < config.random_until && self.rng.random_bool(config.epsilon))
            .then(|| legal[self.rng.random_range(0..legal.len())])
    }
}

impl SelfPlay {
    /// How the games of a games file were played, from its header; `None` when a word it needs
    /// is missing or unreadable, or the chance of a random move is not one.
    pub fn from_header(header: &RecordHeader) -> Option<SelfPlay> {
        fn word<T: std::str::FromStr>(header: &RecordHeader, key: &str) -> Option<T> {
            header.get(key)?.parse().ok()
        }
        let epsilon: f64 = word(header, "epsilon")?;
        Some(SelfPlay {
            depth: word(header, "depth")?,
            solve_empties: word(header, "solve")?,
            random_opening: word(header, "random-opening")?,
            epsilon: (0.0..=1.0).contains(&epsilon).then_some(epsilon)?,
            random_until: word(header, "random-until")?,
            seed: word(header, "seed")?,
        })
    }
}

/// Which moves of a recorded training game (by index into its moves) [`play_game`] drew at
/// random, found by making its draws again: `config` as the game's file says it was played,
/// `from_opening` whether it started from an opening (else from `config.random_opening` random
/// plies). `None` when the draws do not give the recorded moves (a game played otherwise).
pub fn random_moves<P: Position>(
    record: &GameRecord,
    config: &SelfPlay,
    from_opening: bool,
) -> Option<Vec<bool>> {
    let mut dice = Dice::for_game(config, record.index);
    let mut random = vec![false; record.moves.len()];
    let mut pos = P::start();
    for (ply, &mv) in record.moves.iter().enumerate() {
        if pos.must_pass() && mv != Move::Pass {
            pos = pos.play_pass_unchecked();
        }
        if mv == Move::Pass || ply as u32 >= record.solve_ply {
            break;
        }
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return None;
        }
        if ply < record.opening as usize {
            // An opening's own moves draw nothing; a random opening's draw every one.
            if !from_opening && dice.opening_move(&legal) != mv {
                return None;
            }
        } else if let Some(drawn) = dice.random_move(config, ply as u32, &legal) {
            if drawn != mv {
                return None;
            }
            random[ply] = true;
        }
        pos = pos.try_play(mv).ok()?;
    }
    Some(random)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Othello;
    use crate::rules::geometry::Size6;

    type Six = Othello<Size6>;

    fn config(epsilon: f64) -> SelfPlay {
        SelfPlay {
            depth: 1,
            solve_empties: 8,
            random_opening: 2,
            epsilon,
            random_until: 20,
            seed: 5,
        }
    }

    /// The plies at which a game had a choice (more than one placement), by move index.
    fn choices(record: &GameRecord) -> Vec<bool> {
        let mut pos = Six::start();
        record
            .moves
            .iter()
            .map(|&mv| {
                if pos.must_pass() {
                    pos = pos.play_pass_unchecked();
                }
                let choice = pos.legal_moves().len() > 1;
                pos = pos.play_unchecked(mv);
                choice
            })
            .collect()
    }

    #[test]
    fn the_random_moves_of_a_game_are_found_again_from_its_number() {
        let searcher = Searcher::new(1, 1).unwrap();
        let opening: Vec<Move> = ["c5", "e5"].iter().map(|m| m.parse().unwrap()).collect();
        for epsilon in [0.0, 0.3, 1.0] {
            let config = config(epsilon);
            for index in 0..6 {
                for (from_opening, opening) in [(true, &opening[..]), (false, &[][..])] {
                    let record = play_game::<Six>(&searcher, &config, opening, index);
                    let random = random_moves::<Six>(&record, &config, from_opening)
                        .expect("the draws give the recorded moves");
                    assert_eq!(random.len(), record.moves.len());
                    let choices = choices(&record);
                    for (ply, &flag) in random.iter().enumerate() {
                        let drawn_at = ply >= record.opening as usize
                            && ply < config.random_until as usize
                            && choices[ply];
                        match epsilon {
                            0.0 => assert!(!flag),
                            1.0 => assert_eq!(flag, drawn_at, "game {index} ply {ply}"),
                            _ => assert!(!flag || drawn_at),
                        }
                    }
                    if epsilon == 0.3 {
                        // Another game's draws do not give these moves.
                        let other = GameRecord {
                            index: index + 100,
                            ..record.clone()
                        };
                        assert_ne!(
                            random_moves::<Six>(&other, &config, from_opening),
                            Some(random)
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn how_games_were_played_is_read_from_their_header() {
        let header = RecordHeader::new([
            ("depth", "10".to_string()),
            ("solve", "20".to_string()),
            ("epsilon", "0.1".to_string()),
            ("random-until", "30".to_string()),
            ("random-opening", "6".to_string()),
            ("seed", "1".to_string()),
        ]);
        let config = SelfPlay::from_header(&header).unwrap();
        assert_eq!(
            (config.depth, config.solve_empties, config.random_until),
            (10, 20, 30)
        );
        assert_eq!(
            (config.epsilon, config.random_opening, config.seed),
            (0.1, 6, 1)
        );
        let mut partial = header.clone();
        partial.fields.remove("seed");
        assert!(SelfPlay::from_header(&partial).is_none());
        // A chance that is not one (it would make the draws panic) is refused.
        for bad in ["1.5", "-0.1", "NaN", "x"] {
            let mut wrong = header.clone();
            wrong.fields.insert("epsilon".into(), bad.into());
            assert!(SelfPlay::from_header(&wrong).is_none(), "{bad}");
        }
    }
}
