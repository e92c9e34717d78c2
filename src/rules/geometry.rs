//! Board sizes as types. Each size is a zero-sized type that names its [`Bits`] width and carries the
//! masks the move generators need as constants, so that code generic over a [`Geometry`] compiles to
//! straight-line code for each size.

use super::bits::{Bits, Wide};
use std::fmt::Debug;
use std::hash::Hash;

/// A square board of a fixed side.
pub trait Geometry: Copy + Eq + Hash + Debug + Default + Send + Sync + 'static {
    /// The bit set wide enough for the board.
    type Bits: Bits;
    /// The side of the board.
    const SIZE: usize;
    /// Every square of the board.
    const ALL: Self::Bits;
    /// Every square not in the first or last column: what a horizontal or diagonal step may land on
    /// without wrapping round to the next row.
    const INNER_COLUMNS: Self::Bits;
    /// The number of squares.
    const SQUARES: usize = Self::SIZE * Self::SIZE;
}

/// Which squares a mask holds.
#[derive(Clone, Copy)]
enum MaskKind {
    All,
    InnerColumns,
}

/// The mask as 64-bit words, lowest first (enough words for a 19×19 board).
const fn mask_words(size: usize, kind: MaskKind) -> [u64; 6] {
    let mut words = [0u64; 6];
    let mut index = 0;
    while index < size * size {
        let col = index % size;
        let keep = match kind {
            MaskKind::All => true,
            MaskKind::InnerColumns => col != 0 && col != size - 1,
        };
        if keep {
            words[index / 64] |= 1 << (index % 64);
        }
        index += 1;
    }
    words
}

const fn to_u64(words: [u64; 6]) -> u64 {
    words[0]
}

const fn to_u128(words: [u64; 6]) -> u128 {
    words[0] as u128 | (words[1] as u128) << 64
}

const fn to_wide<const W: usize>(words: [u64; 6]) -> Wide<W> {
    let mut out = [0u64; W];
    let mut i = 0;
    while i < W {
        out[i] = words[i];
        i += 1;
    }
    Wide(out)
}

macro_rules! geometry {
    ($(#[$doc:meta])* $name:ident, $size:expr, $bits:ty, $convert:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
        pub struct $name;
        impl Geometry for $name {
            type Bits = $bits;
            const SIZE: usize = $size;
            const ALL: $bits = $convert(mask_words($size, MaskKind::All));
            const INNER_COLUMNS: $bits = $convert(mask_words($size, MaskKind::InnerColumns));
        }
    };
}

geometry!(/// 4×4.
    Size4, 4, u64, to_u64);
geometry!(/// 5×5.
    Size5, 5, u64, to_u64);
geometry!(/// 6×6.
    Size6, 6, u64, to_u64);
geometry!(/// 7×7.
    Size7, 7, u64, to_u64);
geometry!(/// 8×8, the board that matters most.
    Size8, 8, u64, to_u64);
geometry!(/// 9×9.
    Size9, 9, u128, to_u128);
geometry!(/// 10×10.
    Size10, 10, u128, to_u128);
geometry!(/// 11×11.
    Size11, 11, u128, to_u128);
geometry!(/// 12×12.
    Size12, 12, Wide<3>, to_wide::<3>);
geometry!(/// 13×13.
    Size13, 13, Wide<3>, to_wide::<3>);
geometry!(/// 14×14.
    Size14, 14, Wide<4>, to_wide::<4>);
geometry!(/// 15×15.
    Size15, 15, Wide<4>, to_wide::<4>);
geometry!(/// 16×16.
    Size16, 16, Wide<4>, to_wide::<4>);
geometry!(/// 17×17.
    Size17, 17, Wide<5>, to_wide::<5>);
geometry!(/// 19×19.
    Size19, 19, Wide<6>, to_wide::<6>);

/// The squares next to any square of `bits` (in the 8 directions), `bits` itself left out.
#[inline(always)]
pub fn neighbours<G: Geometry>(bits: G::Bits) -> G::Bits {
    let n = G::SIZE as u32;
    // Steps that change the column may not start from the edge column they would wrap across.
    let not_last_col = G::INNER_COLUMNS | first_column::<G>();
    let not_first_col = G::INNER_COLUMNS | last_column::<G>();
    let east = bits & not_last_col;
    let west = bits & not_first_col;
    let spread = bits.shl(n)
        | bits.shr(n)
        | east.shl(1)
        | east.shl(n + 1)
        | east.shr(n - 1)
        | west.shr(1)
        | west.shr(n + 1)
        | west.shl(n - 1);
    spread & G::ALL & !bits
}

/// The squares of column a.
#[inline(always)]
pub fn first_column<G: Geometry>() -> G::Bits {
    let mut col = G::Bits::ZERO;
    for row in 0..G::SIZE {
        col |= G::Bits::bit(row * G::SIZE);
    }
    col
}

/// The squares of the last column.
#[inline(always)]
pub fn last_column<G: Geometry>() -> G::Bits {
    first_column::<G>().shl(G::SIZE as u32 - 1)
}

/// Row and column of a bit index on a board of side `size`.
#[inline(always)]
pub fn coords(index: usize, size: usize) -> (usize, usize) {
    (index / size, index % size)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<G: Geometry>() {
        assert_eq!(G::ALL.count() as usize, G::SQUARES);
        assert!(G::SQUARES <= <G::Bits as Bits>::CAPACITY);
        assert_eq!(G::INNER_COLUMNS.count() as usize, G::SIZE * (G::SIZE - 2));
        for sq in G::ALL.squares() {
            let col = sq % G::SIZE;
            assert_eq!(G::INNER_COLUMNS.has(sq), col != 0 && col != G::SIZE - 1);
        }
    }

    fn check_neighbours<G: Geometry>() {
        let n = G::SIZE as isize;
        for sq in G::ALL.squares() {
            let (r, c) = (sq as isize / n, sq as isize % n);
            let mut expected = G::Bits::ZERO;
            for dr in -1..=1 {
                for dc in -1..=1 {
                    let (rr, cc) = (r + dr, c + dc);
                    if (dr, dc) != (0, 0) && (0..n).contains(&rr) && (0..n).contains(&cc) {
                        expected |= G::Bits::bit((rr * n + cc) as usize);
                    }
                }
            }
            assert_eq!(neighbours::<G>(G::Bits::bit(sq)), expected, "square {sq}");
        }
    }

    #[test]
    fn neighbours_stay_on_the_board() {
        check_neighbours::<Size4>();
        check_neighbours::<Size8>();
        check_neighbours::<Size9>();
        check_neighbours::<Size12>();
        check_neighbours::<Size19>();
    }

    #[test]
    fn masks_hold_the_right_squares_for_every_size() {
        check::<Size4>();
        check::<Size5>();
        check::<Size6>();
        check::<Size7>();
        check::<Size8>();
        check::<Size9>();
        check::<Size10>();
        check::<Size11>();
        check::<Size12>();
        check::<Size13>();
        check::<Size14>();
        check::<Size15>();
        check::<Size16>();
        check::<Size17>();
        check::<Size19>();
    }
}
