//! How strongly the engine plays in `othel play`: ten levels that a person feels, from one a
//! beginner beats (a one-ply search that often plays at random) to the engine at full strength
//! (seconds a move, its book, exact endgames), or a fixed time a move.

use crate::rules::Move;
use crate::search::{Clock, Limits};
use rand::RngExt;
use std::time::Duration;

/// The highest level.
pub const MAX_LEVEL: u32 = 10;

/// What a level does.
struct LevelSpec {
    /// Midgame depth; `None`: as deep as the time allows.
    depth: Option<u32>,
    /// Solve exactly from this many empty squares.
    exact_from: u32,
    /// Play any move within this many discs of the best.
    window: i32,
    /// Chance of a move at random.
    random: f64,
    /// Time a move when `depth` is `None`, as a multiple of the board's default move time.
    time_factor: u32,
    /// Whether the opening book is used.
    book: bool,
}

/// A level searching `depth` plies in the midgame.
const fn level(depth: u32, exact_from: u32, window: i32, random: f64, book: bool) -> LevelSpec {
    LevelSpec {
        depth: Some(depth),
        exact_from,
        window,
        random,
        time_factor: 0,
        book,
    }
}

/// A level searching `time_factor` times the board's default move time, with the book.
const fn timed(time_factor: u32, exact_from: u32) -> LevelSpec {
    LevelSpec {
        depth: None,
        exact_from,
        window: 0,
        random: 0.0,
        time_factor,
        book: true,
    }
}

/// Levels 1 to 10.
const LEVELS: [LevelSpec; MAX_LEVEL as usize] = [
    level(1, 4, 0, 0.5, false),
    level(1, 6, 6, 0.0, false),
    level(2, 8, 3, 0.0, false),
    level(4, 10, 1, 0.0, false),
    level(6, 14, 0, 0.0, true),
    level(8, 16, 0, 0.0, true),
    level(10, 18, 0, 0.0, true),
    level(12, 20, 0, 0.0, true),
    timed(1, 20),
    timed(4, 24),
];

/// How strongly the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// A level from 1 to [`MAX_LEVEL`].
    Level(u32),
    /// This long a move, at full strength.
    MoveTime(Duration),
}

impl Strength {
    fn spec(self) -> Option<&'static LevelSpec> {
        match self {
            Strength::Level(n) => LEVELS.get(n.clamp(1, MAX_LEVEL) as usize - 1),
            Strength::MoveTime(_) => None,
        }
    }

    /// The search for a move with `empties` empty squares on a board of side `size`, within the
    /// engine's clock when there is one; `moves` legal moves (for the levels that pick among the
    /// good ones, which need every move's score).
    pub fn limits(self, empties: u32, size: usize, moves: usize, clock: Option<Clock>) -> Limits {
        let Some(spec) = self.spec() else {
            // A time a move: as a front end without a depth plays, at this time.
            let playing = Limits::playing(None, empties, size, clock);
            let movetime = match self {
                Strength::MoveTime(t) => playing.movetime.map(|_| t),
                Strength::Level(_) => playing.movetime,
            };
            return Limits {
                movetime,
                ..playing
            };
        };
        let exact = empties <= spec.exact_from;
        let movetime = (spec.depth.is_none() && clock.is_none())
            .then(|| crate::search::limits::default_move_time(size) * spec.time_factor.max(1));
        Limits {
            depth: if exact { None } else { spec.depth },
            exact,
            movetime,
            clock,
            multipv: if spec.window > 0 { moves.max(1) } else { 1 },
            ..Limits::default()
        }
    }

    /// Whether the opening book is used.
    pub fn uses_book(self) -> bool {
        self.spec().is_none_or(|s| s.book)
    }

    /// The move to play, from the search's best and the scores (centi-discs) it gave each move:
    /// the best, or at the weakest levels now and then another.
    pub fn choose(self, best: Move, scores: &[(Move, i32)], legal: &[Move]) -> Move {
        let Some(spec) = self.spec() else {
            return best;
        };
        let mut rng = rand::rng();
        if spec.random > 0.0 && !legal.is_empty() && rng.random_bool(spec.random) {
            return legal[rng.random_range(0..legal.len())];
        }
        if spec.window > 0 && !scores.is_empty() {
            let top = scores.iter().map(|&(_, s)| s).max().unwrap_or(0);
            let near: Vec<Move> = scores
                .iter()
                .filter(|&&(_, s)| s >= top - spec.window * crate::eval::DISC)
                .map(|&(m, _)| m)
                .collect();
            if !near.is_empty() {
                return near[rng.random_range(0..near.len())];
            }
        }
        best
    }

    /// For the screen: `level 5` or `1000 ms a move`.
    pub fn describe(self) -> String {
        match self {
            Strength::Level(n) => format!("level {n}"),
            Strength::MoveTime(t) => format!("{} ms a move", t.as_millis()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_in_depth_and_time() {
        let depth = |n| Strength::Level(n).limits(40, 8, 10, None);
        assert_eq!(depth(1).depth, Some(1));
        assert_eq!(depth(8).depth, Some(12));
        assert!(depth(9).depth.is_none() && depth(9).movetime.is_some());
        assert!(depth(10).movetime > depth(9).movetime);
        // Near the end, an exact solve from a depth that grows with the level.
        assert!(Strength::Level(4).limits(10, 8, 3, None).exact);
        assert!(!Strength::Level(4).limits(11, 8, 3, None).exact);
        // The levels that pick among good moves score them all.
        assert_eq!(Strength::Level(2).limits(40, 8, 7, None).multipv, 7);
        assert_eq!(Strength::Level(6).limits(40, 8, 7, None).multipv, 1);
        // A clock bounds the time instead of a fixed move time.
        let clock = Clock {
            time_left: Duration::from_secs(60),
            ..Clock::default()
        };
        let timed = Strength::MoveTime(Duration::from_millis(300)).limits(40, 8, 7, Some(clock));
        assert_eq!((timed.movetime, timed.clock), (None, Some(clock)));
    }

    #[test]
    fn weak_levels_pick_among_near_moves_and_strong_ones_the_best() {
        let [a, b, c]: [Move; 3] = ["a1", "b1", "c1"].map(|s| s.parse().unwrap());
        let scores = [(a, 300), (b, -100), (c, -900)];
        let legal = [a, b, c];
        for _ in 0..50 {
            assert_eq!(Strength::Level(7).choose(a, &scores, &legal), a);
            // Level 3: within 3 discs of the best.
            assert_eq!(Strength::Level(3).choose(a, &scores, &legal), a);
            // Level 2: within 6 discs.
            assert_ne!(Strength::Level(2).choose(a, &scores, &legal), c);
        }
        // Level 1 plays at random half of the time: every move turns up.
        let seen: std::collections::HashSet<Move> = (0..200)
            .map(|_| Strength::Level(1).choose(a, &[], &legal))
            .collect();
        assert_eq!(seen.len(), 3);
    }
}
