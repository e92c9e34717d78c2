//! Moves as the search keeps them (a `u16` code per move, small enough for the transposition
//! table) and the ordered list of a node's children.

use crate::eval::Evaluate;
use crate::rules::Position;
use crate::rules::symmetry::is_mirror_image;
use crate::rules::{Bits, Move, Square};

/// The code of "no move".
pub const NO_MOVE: u16 = u16::MAX;
/// The code of a pass.
pub const PASS: u16 = u16::MAX - 1;
/// The code of a swap.
pub const SWAP: u16 = u16::MAX - 2;

/// The move a code stands for on a board of side `size`.
pub fn decode(code: u16, size: usize) -> Option<Move> {
    match code {
        NO_MOVE => None,
        PASS => Some(Move::Pass),
        SWAP => Some(Move::Swap),
        index => Some(Move::Place(Square::from_index(index as usize, size))),
    }
}

/// A child of a node: the position after the move, the move's code and its ordering key.
#[derive(Clone, Copy, Debug)]
pub struct Child<P> {
    /// The position after the move.
    pub pos: P,
    /// The move.
    pub code: u16,
    /// Higher is searched first.
    pub key: i32,
}

/// Sorts children by their keys, highest first.
pub fn sort_children<P>(kids: &mut [Child<P>]) {
    kids.sort_unstable_by_key(|c| std::cmp::Reverse(c.key));
}

/// The children reached by placements and swap (not a pass), in move order, each with its key
/// (higher: searched first), `first`'s (a hash move) the highest. `stop` is asked after each child
/// (see [`Worker::tick`]): once it says yes, the list is cut short (the search is ending and will
/// not use it).
///
/// [`Worker::tick`]: super::control::Worker::tick
pub fn children<P: Evaluate>(pos: &P, first: u16, mut stop: impl FnMut() -> bool) -> Vec<Child<P>> {
    let placements = pos.placements();
    let mut out = Vec::with_capacity(placements.count() as usize + 1);
    for index in placements.squares() {
        if stop() {
            break;
        }
        let child = pos.play_index_unchecked(index);
        out.push(Child {
            pos: child,
            code: index as u16,
            key: child.order_key(),
        });
    }
    if pos.can_swap() {
        let child = pos.play_swap_unchecked();
        out.push(Child {
            pos: child,
            code: SWAP,
            key: child.order_key(),
        });
    }
    for c in out.iter_mut() {
        if c.code == first {
            c.key = i32::MAX;
        }
    }
    out
}

/// Nodes with at least this many empty squares fewer than the board's squares (the first plies
/// of a game) look for children that are mirror images of each other.
const MIRROR_PLIES_EMPTIES: u32 = 10;

/// Whether some children of `pos` may be mirror images of each other (see
/// [`drop_mirror_twins`]).
pub fn maybe_mirror_twins<P: Position>(pos: &P) -> bool {
    let squares = (pos.size() * pos.size()) as u32;
    pos.empty_count() + MIRROR_PLIES_EMPTIES >= squares && is_mirror_image(pos, pos)
}

/// Drops the children that are mirror images of an earlier one (they have the same score), when
/// the node is near the start and is itself symmetric (otherwise no two children are images of
/// each other, but for coincidences not worth their cost). From the 6×6 start, the four first
/// moves are one.
pub fn drop_mirror_twins<P: Position>(pos: &P, kids: &mut Vec<Child<P>>) {
    if !maybe_mirror_twins(pos) {
        return;
    }
    let mut kept: Vec<Child<P>> = Vec::with_capacity(kids.len());
    for kid in kids.drain(..) {
        if !kept.iter().any(|k| is_mirror_image(&k.pos, &kid.pos)) {
            kept.push(kid);
        }
    }
    *kids = kept;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Lehto;
    use crate::rules::geometry::Size19;

    #[test]
    fn making_children_stops_when_asked() {
        // 361 children of the empty 19x19 Lehto board take tens of milliseconds to make and
        // order: a search past its deadline must be able to leave in the middle.
        let pos = Lehto::<Size19>::start();
        assert_eq!(children(&pos, NO_MOVE, || false).len(), 361);
        let mut asked = 0;
        let cut = children(&pos, NO_MOVE, || {
            asked += 1;
            asked > 3
        });
        assert_eq!(cut.len(), 3);
    }
}
