//! The Othello evaluation: the trained pattern evaluation ([`super::model`]) on the boards that
//! have weights, and otherwise the baseline for every board size: mobility, potential mobility,
//! corners, X- and C-squares beside empty corners, edge-anchored stable discs and parity, weighted
//! by the game's phase (the share of empty squares).

use super::model::{Inputs, trained};
use super::patterns::Group;
use super::{DISC, Evaluate, Term, TermList, clamp_to_scores, phased};
use crate::rules::geometry::{Geometry, neighbours};
use crate::rules::othello::{Othello, OthelloGeometry};
use crate::rules::{Bits, Position};

/// The four corners, the X-squares (diagonally next to a corner) and C-squares (next to a corner on
/// an edge), by corner.
struct CornerSquares<B> {
    corner: [B; 4],
    x: [B; 4],
    c: [B; 4],
}

#[inline(always)]
fn corner_squares<G: Geometry>() -> CornerSquares<G::Bits> {
    let n = G::SIZE;
    let at = |r: usize, c: usize| G::Bits::bit(r * n + c);
    let last = n - 1;
    CornerSquares {
        corner: [at(0, 0), at(0, last), at(last, 0), at(last, last)],
        x: [
            at(1, 1),
            at(1, last - 1),
            at(last - 1, 1),
            at(last - 1, last - 1),
        ],
        c: [
            at(0, 1) | at(1, 0),
            at(0, last - 1) | at(1, last),
            at(last - 1, 0) | at(last, 1),
            at(last, last - 1) | at(last - 1, last),
        ],
    }
}

/// The standard deviation, in centi-discs, of (deep − shallow search) for each depth and its
/// ProbCut shallow depth, on the trained 8×8 evaluation (depths 3 to 12; deeper ones 300 plus 15
/// a ply beyond 12). The first table was measured on 86 self-play positions of 20 to 50 empties.
///
/// Measured again with the weights of the seventh session (`scripts/probcut-sigma.py
/// data/othello-8/d10-s20/games-055000.games --positions 800`, 798 positions of 14–52 empties):
/// 260, 225, 223, 282, 267, 242, 234, 292, 275, 272 for depths 3–12 over all of them, and the
/// spread grows as the board fills, by about 2% an empty square fewer (depth 10: 401 at 14–23
/// empties, 165 at 44–52). Those figures scaled by the empties (3.2 times fewer nodes at depth 12
/// after 10 plies) played even with this table at 40 ms a move: +0.2 Elo [−16.3, +16.7] over
/// 1,465 games (XOT openings, one thread each, ninth session); the table stays.
/// With the weights of the thirty-fifth session (`builtin-bd4b803f`) the same script gave 258,
/// 226, 219, 282, 271, 251, 228, 283, 265, 259 (the table now): in place of the earlier one
/// (373, 328, 255, 332, 290, 258, 232, 315, 263, 301) they took 28% fewer nodes to depth 14 and
/// played +5.5 Elo [−5.1, +16.1] over 3,406 games at 40 ms a move (H0 of an SPRT (0, 20), the
/// forty-sixth session); shipped in the forty-seventh with a refit on twice the data, the two
/// together +16.5 Elo [+3.5, +29.4] against both earlier (H1 after 2,345 games; weights/README.md).
/// With the fish and kite weights (`builtin-1a10ebb6`, fifty-seventh session; the script above,
/// 798 positions, and with `--depth 14 --positions 400 --seed 2`, 390 more): 248, 222, 214, 275,
/// 268, 238, 228, 270, 258, 243 for depths 3–12, and 228 and 252 for depths 13 and 14, well below
/// the 315 and 330 of the rule for deeper ones (a search reaches depth 16 in 40 ms from the
/// tenth ply). That table, with 252 for every depth beyond it, against this one at 40 ms a move:
/// +4.6 Elo [−7.1, +16.3] over 2,769 games (H0 of an SPRT (0, 20), seed 39); not shipped.
const PROBCUT_SIGMA_8X8: [i32; 13] = [0, 0, 0, 258, 226, 219, 282, 271, 251, 228, 283, 265, 259];

/// The spread of midgame ProbCut on a board larger than 8×8, as a plane in the depth and the empty
/// squares: σ = `base` + `per_depth` · depth + `per_empty` · empties centi-discs, at least
/// [`PROBCUT_SIGMA_FLOOR`]. On the boards larger than 8×8 the spread grows as the board fills far
/// more than on 8×8 (12×12, depth 8 against 4: about 700 at 16–25 empties, 160 at 106–115), so
/// one figure a depth would cut too much late in the game or too little early.
struct SigmaPlane {
    base: f32,
    per_depth: f32,
    per_empty: f32,
}

impl SigmaPlane {
    fn sigma(&self, depth: i32, empties: u32) -> i32 {
        let sigma = self.base + self.per_depth * depth as f32 + self.per_empty * empties as f32;
        (sigma as i32).max(PROBCUT_SIGMA_FLOOR)
    }
}

/// The least spread a [`SigmaPlane`] gives.
const PROBCUT_SIGMA_FLOOR: i32 = 100;

/// Each larger board's side and plane: the least-squares fit of `scripts/probcut-sigma.py` (its
/// `fit:` line) to the spreads of full-width searches of its self-play positions, with the
/// seventeenth session's weights, measured in the eighteenth (2026-11-28) by
/// `scripts/probcut-sigma.py GAMES --depth D --empties RANGE --positions N [--cell C]`:
///
/// | board | GAMES | D | RANGE | N | C | positions measured |
/// | --- | --- | --- | --- | --- | --- | --- |
/// | 10×10 | `data/othello-10/d6-s16/games-004000.games` | 8 | 18–90 | 300 | 4 | 296 |
/// | 12×12 | `data/othello-12/d4-s14/games-002000.games` | 8 | 16–130 | 200 | 4 | 199 |
/// | 14×14 | `data/othello-14/d4-s14/games-002000.games` | 7 | 16–180 | 150 | 16 | 148 |
/// | 16×16 | `data/othello-16/d4-s14/games-002000.games` | 7 | 16–240 | 150 | 20 | 149 |
///
/// The spreads fall steeply over the last 30–50 empty squares and little before, so a plane is
/// a first cut: it overstates the spread in the middle of a game (cutting less there than it
/// could) and understates it near the end. Against the same binary without midgame ProbCut, at
/// 100 ms a move, SPRT (0, 40) accepted H1 on each board: 10×10 +164.6 Elo [+74.9, +253.5] after
/// 68 games, 12×12 +236.4 [+118.0, +354.8] after 49, 14×14 +156.3 [+64.3, +248.0] after 64,
/// 16×16 +121.8 [+47.4, +196.1] after 92 (weights/README.md).
const PROBCUT_SIGMA_PLANES: &[(usize, SigmaPlane)] = &[
    (
        10,
        SigmaPlane {
            base: 468.9,
            per_depth: 9.45,
            per_empty: -4.23,
        },
    ),
    (
        12,
        SigmaPlane {
            base: 536.6,
            per_depth: 10.82,
            per_empty: -3.96,
        },
    ),
    (
        14,
        SigmaPlane {
            base: 469.2,
            per_depth: 16.50,
            per_empty: -3.16,
        },
    ),
    (
        16,
        SigmaPlane {
            base: 378.9,
            per_depth: 27.53,
            per_empty: -2.45,
        },
    ),
];

/// Discs that can never flip because they run unbroken along an edge from a corner the player
/// holds (a lower bound of the player's stable discs; cheap enough for every leaf).
fn edge_stable<G: Geometry>(discs: G::Bits) -> u32 {
    let n = G::SIZE as isize;
    let mut stable = G::Bits::ZERO;
    let corners = [(0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)];
    for (r, c) in corners {
        let index = (r * n + c) as usize;
        if !discs.has(index) {
            continue;
        }
        let (dr, dc) = (if r == 0 { 1 } else { -1 }, if c == 0 { 1 } else { -1 });
        for (sr, sc) in [(dr, 0), (0, dc)] {
            let (mut rr, mut cc) = (r, c);
            while (0..n).contains(&rr) && (0..n).contains(&cc) {
                let sq = (rr * n + cc) as usize;
                if !discs.has(sq) {
                    break;
                }
                stable |= G::Bits::bit(sq);
                rr += sr;
                cc += sc;
            }
        }
    }
    stable.count()
}

/// Whether the trained weights of the board `G` are a correction to the baseline rather than the
/// whole evaluation: on the boards larger than 8×8, whose self-play data is too scarce for the
/// patterns alone (the ridge of the fit pulls an unseen configuration to the baseline's view, not
/// to 0).
const fn corrects_baseline<G: Geometry>() -> bool {
    G::SIZE > 8
}

/// What the trained evaluation's terms are called.
const TRAINED_TERMS: [&str; 6] = [
    Group::ALL[0].name(),
    Group::ALL[1].name(),
    Group::ALL[2].name(),
    Group::ALL[3].name(),
    "mobility",
    "constant and parity",
];

impl<G: OthelloGeometry> Othello<G> {
    fn baseline_terms(&self) -> [Term; 8] {
        let squares = G::SQUARES as i32;
        let me = self.player();
        let them = self.opponent();
        let empty = self.empties();
        let empties = empty.count() as i32;
        let w = |opening: i32, endgame: i32| phased(opening, endgame, empties, squares);
        let count = |b: G::Bits| b.count() as i32;

        let mobility = count(self.placements()) - count(self.opponent_placements());
        // Potential mobility: empty squares next to the other side's discs.
        let potential = count(neighbours::<G>(them) & empty) - count(neighbours::<G>(me) & empty);

        let cs = corner_squares::<G>();
        let (mut corners, mut x_squares, mut c_squares) = (0, 0, 0);
        for k in 0..4 {
            corners += count(me & cs.corner[k]) - count(them & cs.corner[k]);
            if !(empty & cs.corner[k]).is_empty() {
                x_squares += count(me & cs.x[k]) - count(them & cs.x[k]);
                c_squares += count(me & cs.c[k]) - count(them & cs.c[k]);
            }
        }
        let stable = edge_stable::<G>(me) as i32 - edge_stable::<G>(them) as i32;
        let discs = count(me) - count(them);
        // The player to move on an odd number of empties expects the last move.
        let parity = if empties % 2 == 1 { 1 } else { -1 };

        [
            Term {
                name: "mobility",
                value: mobility * w(9, 4) * DISC / 10,
            },
            Term {
                name: "potential mobility",
                value: potential * w(4, 2) * DISC / 10,
            },
            Term {
                name: "corners",
                value: corners * w(35, 25) * DISC / 10,
            },
            Term {
                name: "x-squares",
                value: -x_squares * w(25, 5) * DISC / 10,
            },
            Term {
                name: "c-squares",
                value: -c_squares * w(8, 2) * DISC / 10,
            },
            Term {
                name: "stable discs",
                value: stable * w(10, 12) * DISC / 10,
            },
            Term {
                name: "discs",
                value: discs * w(-1, 4) * DISC / 10,
            },
            Term {
                name: "parity",
                value: parity * w(0, 10) * DISC / 10,
            },
        ]
    }
}

impl<G: OthelloGeometry> Evaluate for Othello<G> {
    type Terms = TermList<14>;

    fn terms(&self) -> TermList<14> {
        let mut terms = [Term { name: "", value: 0 }; 14];
        match trained::<G>() {
            Some(model) => {
                let parts = model.parts(&self.pattern_inputs());
                for (k, name) in TRAINED_TERMS.iter().enumerate() {
                    terms[k] = Term {
                        name,
                        value: parts[k],
                    };
                }
                let mut len = TRAINED_TERMS.len();
                if corrects_baseline::<G>() {
                    let baseline = self.baseline_terms();
                    // Beside the baseline's own mobility term.
                    terms[4].name = "mobility correction";
                    terms[len..len + baseline.len()].copy_from_slice(&baseline);
                    len += baseline.len();
                }
                // The sum is clamped as in `evaluate`.
                let total: i32 = terms.iter().map(|t| t.value).sum();
                terms[5].value += clamp_to_scores::<G>(total) - total;
                TermList::new(terms, len)
            }
            None => {
                let baseline = self.baseline_terms();
                terms[..baseline.len()].copy_from_slice(&baseline);
                TermList::new(terms, baseline.len())
            }
        }
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        match trained::<G>() {
            Some(model) => {
                let score = model.evaluate(&self.pattern_inputs());
                clamp_to_scores::<G>(score + self.untrained_part())
            }
            None => self.baseline_terms().iter().map(|t| t.value).sum(),
        }
    }

    #[inline]
    fn untrained_part(&self) -> i32 {
        if corrects_baseline::<G>() {
            self.baseline_terms().iter().map(|t| t.value).sum()
        } else {
            0
        }
    }

    /// The mobilities, and the squares where each side can play.
    #[inline(always)]
    fn pattern_inputs(&self) -> Inputs<G::Bits> {
        let (mine, theirs) = (self.placements(), self.opponent_placements());
        Inputs {
            player: self.player(),
            opponent: self.opponent(),
            empties: self.empty_count(),
            my_moves: mine.count(),
            their_moves: theirs.count(),
            move_sets: [mine, theirs],
        }
    }

    /// Measured on the trained 8×8 evaluation, and used on 6×6 too, whose scores are smaller; on
    /// the larger boards, each board's plane ([`PROBCUT_SIGMA_PLANES`]). Only with trained
    /// weights: the baseline's spreads were never measured.
    fn probcut_sigma(depth: i32, empties: u32) -> Option<i32> {
        trained::<G>()?;
        if G::SIZE <= 8 {
            return Some(
                PROBCUT_SIGMA_8X8
                    .get(depth as usize)
                    .copied()
                    .unwrap_or(300 + 15 * (depth - 12)),
            );
        }
        let (_, plane) = PROBCUT_SIGMA_PLANES
            .iter()
            .find(|(side, _)| *side == G::SIZE)?;
        Some(plane.sigma(depth, empties))
    }

    /// Tried (2026-11-26, eighth session): adding the child's evaluation to this key in midgame
    /// nodes of 2 or more plies cut the nodes of depth-14 searches of 64 self-play positions by
    /// 12.6% (3 or more plies: 8.3%), yet lost at 40 ms a move: −42 Elo over 614 games against
    /// this key alone (XOT openings, one thread each).
    /// Tried again (thirty-second session) only where the sort is cheap beside the subtree: in
    /// midgame nodes of 6 or more plies, the children sorted as the endgame sorts them (a
    /// shallow search, depth 0 below 10 plies and one more every 4, plus twenty times this key)
    /// reached depth 13 on the same 64 positions in the same time (medians of 4: 1.13 s against
    /// 1.13 s) and scored −7.4 Elo [−35.6, +20.9] over 520 games at 40 ms a move against this
    /// key alone (SPRT (0, 20) at LLR −1.66, stopped).
    /// A history heuristic on top (forty-first session: a table by square, depth² added for the
    /// move that cut a midgame node off, each child's share of the node's largest entry times a
    /// weight added to this key): depth-14 searches of 64 positions of the held-out
    /// games-055000 (16 games at plies 16, 22, 28 and 34; `othel bench --depth 14 --positions`)
    /// took 8.04 M nodes without it, 7.96 M (−1%) at a weight of 24 (a reply weighs 16), 9.21 M
    /// at 96, 9.81 M at 320: the replies and corners here already order what a cut-off history
    /// would.
    #[inline]
    fn order_key(&self) -> i32 {
        // After the move the opponent is to move: few replies for it and corners for the mover are
        // good (fastest-first with corner knowledge).
        let replies = self.placements();
        let cs = corner_squares::<G>();
        let corners = cs.corner.iter().fold(G::Bits::ZERO, |acc, c| acc | *c);
        let mover_corners = (self.opponent() & corners).count() as i32;
        let reply_corners = (replies & corners).count() as i32;
        // Empty squares next to the mover's discs: the opponent's moves to come.
        let potential = (neighbours::<G>(self.opponent()) & self.empties()).count() as i32;
        -16 * replies.count() as i32 + 24 * mover_corners - 24 * reply_corners - 4 * potential
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::{Size6, Size8, Size10, Size12, Size14, Size16};

    fn check<G: OthelloGeometry>(trained: bool) {
        assert_eq!(
            super::trained::<G>().is_some(),
            trained,
            "{}x{}",
            G::SIZE,
            G::SIZE
        );
        for pos in crate::eval::random_positions::<Othello<G>>(20) {
            crate::eval::check_terms_and_symmetry(&pos);
        }
    }

    /// The spread ProbCut trusts at `depth` with `empties` empty squares on `G`'s board.
    fn sigma<G: OthelloGeometry>(depth: i32, empties: u32) -> i32 {
        Othello::<G>::probcut_sigma(depth, empties)
            .unwrap_or_else(|| panic!("{0}x{0}: no midgame ProbCut", G::SIZE))
    }

    fn check_larger_board_spreads<G: OthelloGeometry>() {
        let squares = (G::SIZE * G::SIZE) as u32;
        for depth in 3..=20 {
            let (late, early) = (sigma::<G>(depth, 16), sigma::<G>(depth, squares - 8));
            assert!(
                late > early,
                "{0}x{0} depth {depth}: {late} ≤ {early}",
                G::SIZE
            );
            assert!(early >= PROBCUT_SIGMA_FLOOR, "{0}x{0}: {early}", G::SIZE);
            assert!(
                sigma::<G>(depth + 1, 40) >= sigma::<G>(depth, 40),
                "{0}x{0} depth {depth}",
                G::SIZE
            );
        }
    }

    #[test]
    fn every_trained_othello_board_prunes_by_probcut_trusting_more_with_more_empty_squares() {
        // 6×6 and 8×8 share one table by depth.
        assert_eq!(sigma::<Size6>(8, 20), sigma::<Size8>(8, 20));
        assert_eq!(sigma::<Size8>(8, 14), sigma::<Size8>(8, 50));
        check_larger_board_spreads::<Size10>();
        check_larger_board_spreads::<Size12>();
        check_larger_board_spreads::<Size14>();
        check_larger_board_spreads::<Size16>();
    }

    #[test]
    fn the_evaluation_is_the_same_under_every_symmetry_and_sums_its_terms() {
        check::<Size8>(true);
        check::<Size6>(true);
        check::<Size10>(true);
        check::<Size12>(true);
        check::<Size14>(true);
        check::<Size16>(true);
    }
}
