//! Static evaluation: a score for a position without search, in centi-discs (1/100 of a disc) from
//! the view of the player to move. Boards with trained weights (see `weights/`) use the pattern
//! evaluation (on the larger boards and Lehto's as a correction of the hand-weighted baseline);
//! the others use the baseline alone.

mod lanes;
mod lehto;
pub mod model;
mod othello;
pub mod patterns;
pub mod weights;

use crate::rules::Position;
use crate::rules::geometry::Geometry;

/// One named term of an evaluation, for display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    /// What it measures.
    pub name: &'static str,
    /// Its contribution, in centi-discs.
    pub value: i32,
}

/// Up to `N` terms (an evaluation whose number of terms depends on the board).
#[derive(Clone, Copy, Debug)]
pub struct TermList<const N: usize> {
    terms: [Term; N],
    len: usize,
}

impl<const N: usize> TermList<N> {
    /// The first `len` of `terms`.
    pub fn new(terms: [Term; N], len: usize) -> Self {
        TermList {
            terms,
            len: len.min(N),
        }
    }
}

impl<const N: usize> AsRef<[Term]> for TermList<N> {
    fn as_ref(&self) -> &[Term] {
        &self.terms[..self.len]
    }
}

/// Centi-discs per disc.
pub const DISC: i32 = 100;

/// A position the search can evaluate.
pub trait Evaluate: Position {
    /// The terms as the evaluation computes them (a fixed array: no allocation per leaf).
    type Terms: AsRef<[Term]>;

    /// The evaluation's terms; their sum is [`Evaluate::evaluate`].
    fn terms(&self) -> Self::Terms;

    /// The static evaluation in centi-discs from the side to move's view.
    fn evaluate(&self) -> i32 {
        self.terms().as_ref().iter().map(|t| t.value).sum()
    }

    /// The part of [`Evaluate::evaluate`] that trained weights do not learn but correct: what a
    /// fit takes away from its labels before fitting. 0 where the weights are the whole
    /// evaluation.
    fn untrained_part(&self) -> i32 {
        0
    }

    /// What the trained pattern evaluation reads of the position: the discs, the empties, the
    /// two counts it weighs beside its patterns (Othello: the mobilities; Lehto: the capture
    /// squares) and, for its patterns read from the moves, where each side can play.
    fn pattern_inputs(&self) -> model::Inputs<Self::Bits>;

    /// A cheap score of the position reached by a move, from the view of the player who made it,
    /// used to order moves (higher first).
    fn order_key(&self) -> i32;

    /// The spread (standard deviation, centi-discs) of a `depth`-ply search's score around the
    /// score of the shallower search that ProbCut predicts it by (`alphabeta::midgame_probcut`),
    /// as measured on this evaluation, at a node with `empties` empty squares; `None` where it was
    /// never measured (whatever the arguments), and the midgame search then prunes nothing by
    /// ProbCut.
    fn probcut_sigma(_depth: i32, _empties: u32) -> Option<i32> {
        None
    }
}

/// The positions of `games` games of uniformly random moves on `P`'s board, the same every run:
/// what `othel bench` times the evaluation on and the evaluation's tests check it on.
pub fn random_positions<P: Position>(games: u64) -> Vec<P> {
    let mut out = Vec::new();
    for game in 0..games {
        let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ (game + 1).wrapping_mul(0x2545_F491_4F6C_DD1D);
        let mut pos = P::start();
        while !pos.is_game_over() {
            if pos.must_pass() {
                pos = pos.play_pass_unchecked();
                continue;
            }
            out.push(pos);
            let moves = pos.legal_moves();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            pos = pos.play_unchecked(moves[(x % moves.len() as u64) as usize]);
        }
    }
    out
}

/// Keeps a heuristic score of the board `G` inside the range of final scores.
#[inline(always)]
pub(crate) fn clamp_to_scores<G: Geometry>(score: i32) -> i32 {
    let bound = (G::SQUARES as i32 - 1) * DISC;
    score.clamp(-bound, bound)
}

/// Interpolates between an opening weight and an endgame weight by the share of empty squares.
#[inline(always)]
pub(crate) fn phased(opening: i32, endgame: i32, empties: i32, squares: i32) -> i32 {
    (opening * empties + endgame * (squares - empties)) / squares
}

/// Checks an evaluation of `pos` as every board's tests do: its terms sum to it, it is within the
/// board's scores, and each of the 8 symmetric images of the position evaluates the same.
/// Returns the evaluation.
#[cfg(test)]
pub(crate) fn check_terms_and_symmetry<P: Evaluate>(pos: &P) -> i32 {
    use crate::rules::notation::Setup;
    use crate::rules::symmetry::Symmetry;
    let score = pos.evaluate();
    let terms: i32 = pos.terms().as_ref().iter().map(|t| t.value).sum();
    assert_eq!(terms, score);
    assert!(score.abs() < (pos.size() * pos.size()) as i32 * DISC);
    let setup = Setup::from_position(pos);
    for sym in Symmetry::all() {
        let image: P = setup.transformed(sym).to_position().unwrap();
        assert_eq!(image.evaluate(), score, "{sym:?} of {setup}");
    }
    score
}
