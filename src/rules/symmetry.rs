//! The eight symmetries of the square board (rotations and reflections), under which every rule
//! and every score is unchanged.

use super::bits::Bits;
use super::position::Position;

/// One of the eight symmetries, as a number from 0 (identity) to 7.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Symmetry(u8);

impl Symmetry {
    /// All eight.
    pub fn all() -> impl Iterator<Item = Symmetry> {
        (0..8).map(Symmetry)
    }

    /// Where square (`row`, `col`) goes on a board of side `size`: bit 0 mirrors the columns, bit 1
    /// the rows, bit 2 swaps rows and columns.
    pub fn apply(self, row: usize, col: usize, size: usize) -> (usize, usize) {
        let last = size - 1;
        let col = if self.0 & 1 != 0 { last - col } else { col };
        let row = if self.0 & 2 != 0 { last - row } else { row };
        if self.0 & 4 != 0 {
            (col, row)
        } else {
            (row, col)
        }
    }

    /// Where bit `index` goes on a board of side `size`.
    pub fn apply_index(self, index: usize, size: usize) -> usize {
        let (row, col) = self.apply(index / size, index % size, size);
        row * size + col
    }
}

/// Whether `b` is `a` under one of the seven symmetries other than the identity (same discs
/// moved, same side to move, same swap right): then both have the same score.
pub fn is_mirror_image<P: Position>(a: &P, b: &P) -> bool {
    if a.side_to_move() != b.side_to_move()
        || a.can_swap() != b.can_swap()
        || a.player().count() != b.player().count()
        || a.opponent().count() != b.opponent().count()
    {
        return false;
    }
    let size = a.size();
    Symmetry::all().skip(1).any(|sym| {
        let maps =
            |from: P::Bits, to: P::Bits| from.squares().all(|i| to.has(sym.apply_index(i, size)));
        maps(a.player(), b.player()) && maps(a.opponent(), b.opponent())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::{Size6, Size8};
    use crate::rules::{Othello, Square};

    #[test]
    fn first_moves_are_mirror_images_and_later_ones_mostly_not() {
        let start = Othello::<Size8>::start();
        let children: Vec<_> = start
            .legal_moves()
            .into_iter()
            .map(|m| start.play_unchecked(m))
            .collect();
        assert_eq!(children.len(), 4);
        for (i, a) in children.iter().enumerate() {
            for (j, b) in children.iter().enumerate() {
                // Each is the image of the others, not of itself (after f5, no symmetry is left).
                assert_eq!(is_mirror_image(a, b), i != j);
            }
        }
        assert!(!is_mirror_image(&start, &children[0]));
        // The replies to f5 are the three different openings (perpendicular, parallel, diagonal).
        let square = Square::new(5, 4).expect("a square");
        let pos = start.play_unchecked(crate::rules::Move::Place(square));
        let replies: Vec<_> = pos
            .legal_moves()
            .into_iter()
            .map(|m| pos.play_unchecked(m))
            .collect();
        assert_eq!(replies.len(), 3);
        for (i, a) in replies.iter().enumerate() {
            for b in &replies[i + 1..] {
                assert!(!is_mirror_image(a, b));
            }
        }
        // A position is its own image when it is symmetric (the 6×6 start is).
        let six = Othello::<Size6>::start();
        assert!(is_mirror_image(&six, &six));
    }

    #[test]
    fn the_eight_symmetries_are_distinct_permutations() {
        let size = 5;
        let mut images = Vec::new();
        for sym in Symmetry::all() {
            let image: Vec<usize> = (0..size * size).map(|i| sym.apply_index(i, size)).collect();
            let mut sorted = image.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..size * size).collect::<Vec<_>>());
            assert!(!images.contains(&image));
            images.push(image);
        }
    }
}
