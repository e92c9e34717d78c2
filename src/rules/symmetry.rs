//! The eight symmetries of the square board (rotations and reflections), under which every rule
//! and every score is unchanged.

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

#[cfg(test)]
mod tests {
    use super::*;

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
