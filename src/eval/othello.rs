//! The baseline Othello evaluation, for every board size: mobility, potential mobility, corners,
//! X- and C-squares beside empty corners, edge-anchored stable discs and parity, weighted by the
//! game's phase (the share of empty squares).

use super::{DISC, Evaluate, Term, phased};
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

impl<G: OthelloGeometry> Evaluate for Othello<G> {
    type Terms = [Term; 8];

    fn terms(&self) -> [Term; 8] {
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
