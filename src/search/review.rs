//! Reviewing a game: what each move played cost against the best move, as the search sees it (to a
//! fixed depth in the midgame, exactly near the end), and each side's total, as Edax's and
//! Egaroucid's game analyses and NBoard's review show them.
//!
//! Each position of the game is searched twice at most: once over every move for the best, and,
//! when the move played was another, once over that move alone ([`Limits::searchmoves`]), to the
//! same depth, so that the two scores compare.

use super::{Limits, Precision, Searcher};
use crate::eval::Evaluate;
use crate::rules::{BoardKind, Color, Game, Move, Variant};
use std::sync::atomic::AtomicBool;

/// How deep a review looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewDepth {
    /// The midgame search's depth in plies.
    pub depth: u32,
    /// Positions with at most this many empty squares are solved exactly.
    pub exact_from: u32,
}

impl ReviewDepth {
    /// The default on a board: about a tenth of a second to a second a position on two cores
    /// (measured on self-play games), the exact solves from where they take about as long.
    /// Othello 8×8 reaches depth 16 in about 0.1 s and solves 20 empty squares in moments; 16×16
    /// takes about a second at depth 12 late in the game, and solves 18 empty squares in 0.8 s, 20
    /// in 2.6 s, 22 in 13 s. Othel Lehto, whose every empty
    /// square is a move, reaches depth 5 on 9×9 in about 0.4 s and solves 13 empty squares in
    /// 0.8 s, 15 in 7 s.
    pub fn default_for(kind: BoardKind) -> ReviewDepth {
        match kind.variant() {
            Variant::Othello => ReviewDepth {
                depth: match kind.size() {
                    0..=10 => 16,
                    11..=12 => 14,
                    _ => 10,
                },
                exact_from: if kind.size() <= 10 { 20 } else { 18 },
            },
            Variant::Lehto => ReviewDepth {
                depth: match kind.size() {
                    0..=7 => 6,
                    8..=9 => 4,
                    _ => 3,
                },
                exact_from: 12,
            },
        }
    }
}

/// What the search says of one move played.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The only legal move: nothing to choose, nothing lost.
    Forced,
    /// Searched.
    Scored {
        /// The move played's score, in centi-discs from the mover's view.
        played: i32,
        /// The best move (the move played when nothing was better).
        best: Move,
        /// Its score.
        best_score: i32,
        /// The depth searched (the empty squares when exact).
        depth: u32,
        /// Whether both scores are exact or depth-limited.
        precision: Precision,
    },
}

/// One move of a game, reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// Its number in the game, from 1 (passes count).
    pub ply: usize,
    /// Who played it.
    pub color: Color,
    /// The move.
    pub played: Move,
    /// What it was worth.
    pub verdict: Verdict,
}

impl MoveReview {
    /// What the move gave away against the best one, in centi-discs (never negative).
    pub fn loss(&self) -> i32 {
        match self.verdict {
            Verdict::Forced => 0,
            Verdict::Scored {
                played, best_score, ..
            } => (best_score - played).max(0),
        }
    }
}

/// Searches the position before a move, `pos`, and scores the move `played` (a legal move; not a
/// pass) against the best one. Returns `None` when stopped.
pub fn review_move<P: Evaluate>(
    searcher: &Searcher,
    pos: &P,
    played: Move,
    depth: ReviewDepth,
    stop: &AtomicBool,
) -> Option<Verdict> {
    let legal = pos.legal_moves();
    if legal.len() == 1 {
        return Some(Verdict::Forced);
    }
    let exact = pos.empty_count() <= depth.exact_from;
    let limits = Limits {
        depth: (!exact).then_some(depth.depth),
        exact,
        ..Limits::default()
    };
    let best = searcher.search(pos, &limits, stop, &mut |_| {});
    let best_move = best.best?;
    if best.stopped.is_some() {
        return None;
    }
    let (best_move, best_score, played_score) = if best_move == played {
        (played, best.score, best.score)
    } else {
        let alone = Limits {
            searchmoves: vec![played],
            ..limits
        };
        let result = searcher.search(pos, &alone, stop, &mut |_| {});
        if result.stopped.is_some() {
            return None;
        }
        // A depth-limited search may see the move played better alone than it saw its best
        // (another order, another table): then it is the best as far as the review can tell.
        if result.score > best.score {
            (played, result.score, result.score)
        } else {
            (best_move, best.score, result.score)
        }
    };
    Some(Verdict::Scored {
        played: played_score,
        best: best_move,
        best_score,
        depth: best.depth,
        precision: best.precision,
    })
}

/// Reviews every move of `game` but the passes, in order, calling `on_move` after each; stops
/// early (returning false) when `stop` is set.
pub fn review_game<P: Evaluate>(
    searcher: &Searcher,
    game: &Game<P>,
    depth: ReviewDepth,
    stop: &AtomicBool,
    on_move: &mut dyn FnMut(&MoveReview),
) -> bool {
    for (i, (&played, pos)) in game.moves().iter().zip(game.positions()).enumerate() {
        if played == Move::Pass {
            continue;
        }
        let Some(verdict) = review_move(searcher, pos, played, depth, stop) else {
            return false;
        };
        on_move(&MoveReview {
            ply: i + 1,
            color: pos.side_to_move(),
            played,
            verdict,
        });
    }
    true
}

/// One side's moves over a game: how many, what they lost in all, how many lost at least a
/// threshold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideTotals {
    /// Moves reviewed (forced ones included).
    pub moves: u32,
    /// Their losses summed, in centi-discs.
    pub loss: i32,
    /// Moves that lost at least the mistake threshold.
    pub mistakes: u32,
}

impl SideTotals {
    /// Counts one more move that lost `loss` centi-discs; `mistake`: whether that is a mistake.
    pub fn add(&mut self, loss: i32, mistake: bool) {
        self.moves += 1;
        self.loss += loss;
        self.mistakes += u32::from(mistake);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::DISC;
    use crate::rules::geometry::Size6;
    use crate::rules::{Othello, Position};

    fn searcher() -> Searcher {
        Searcher::new(1, 16).expect("a searcher of 16 MB")
    }

    /// The exact score of `pos`'s best move, and of each move, by a plain full search.
    fn exact_scores(searcher: &Searcher, pos: &Othello<Size6>) -> Vec<(Move, i32)> {
        let stop = AtomicBool::new(false);
        pos.legal_moves()
            .into_iter()
            .map(|mv| {
                let child = pos.play_unchecked(mv);
                let limits = Limits {
                    exact: true,
                    ..Limits::default()
                };
                let score = if child.is_game_over() {
                    -child.final_score() * DISC
                } else {
                    -searcher.search(&child, &limits, &stop, &mut |_| {}).score
                };
                (mv, score)
            })
            .collect()
    }

    #[test]
    fn an_exact_review_scores_each_move_as_a_solve_of_its_child_does() {
        // A 6×6 game of moves chosen by a fixed rule (so that some lose), whose positions from
        // 20 empty squares on are solved in moments.
        let mut game = Game::new(Othello::<Size6>::start());
        let mut i = 0;
        while !game.position().is_game_over() {
            let legal = game.position().legal_moves();
            game.play(legal[(i * 7 + 3) % legal.len()]).unwrap();
            i += 1;
        }
        let placed = game.moves().iter().filter(|m| **m != Move::Pass).count();
        let reviewer = searcher();
        let checker = searcher();
        let depth = ReviewDepth {
            depth: 4,
            exact_from: 20,
        };
        let stop = AtomicBool::new(false);
        let mut reviewed = Vec::new();
        assert!(review_game(&reviewer, &game, depth, &stop, &mut |r| {
            reviewed.push(r.clone())
        }));
        assert_eq!(reviewed.len(), placed);
        let mut mistakes = 0;
        for review in &reviewed {
            let pos = &game.positions()[review.ply - 1];
            assert_eq!(review.played, game.moves()[review.ply - 1]);
            if pos.empty_count() > depth.exact_from {
                let Verdict::Scored { precision, .. } = review.verdict else {
                    assert_eq!(pos.legal_moves().len(), 1, "ply {}", review.ply);
                    continue;
                };
                assert_eq!(precision, Precision::Depth, "ply {}", review.ply);
                continue;
            }
            let scores = exact_scores(&checker, pos);
            let best = scores.iter().map(|s| s.1).max().unwrap();
            let played = scores.iter().find(|s| s.0 == review.played).unwrap().1;
            match &review.verdict {
                Verdict::Forced => assert_eq!(scores.len(), 1, "ply {}", review.ply),
                Verdict::Scored {
                    played: p,
                    best: b,
                    best_score,
                    precision,
                    ..
                } => {
                    assert_eq!(*precision, Precision::Exact);
                    assert_eq!((*p, *best_score), (played, best), "ply {}", review.ply);
                    let b_score = scores.iter().find(|s| s.0 == *b).unwrap().1;
                    assert_eq!(b_score, best, "ply {}", review.ply);
                    assert_eq!(review.loss(), best - played);
                    mistakes += usize::from(review.loss() > 0);
                }
            }
        }
        // The game has moves that lose something, or the test would show nothing.
        assert!(mistakes > 0);
    }

    #[test]
    fn totals_add_up_and_no_move_loses_less_than_nothing() {
        let mut totals = SideTotals::default();
        totals.add(0, false);
        totals.add(300, true);
        assert_eq!(
            totals,
            SideTotals {
                moves: 2,
                loss: 300,
                mistakes: 1
            }
        );
        let review = MoveReview {
            ply: 1,
            color: Color::Black,
            played: Move::Pass,
            verdict: Verdict::Scored {
                played: 120,
                best: Move::Pass,
                best_score: 100,
                depth: 4,
                precision: Precision::Depth,
            },
        };
        assert_eq!(review.loss(), 0);
    }
}
