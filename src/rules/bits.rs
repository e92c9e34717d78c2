//! Bit sets that hold one bit per square: `u64` for boards up to 64 squares, `u128` up to 128, and
//! [`Wide`] (an array of words) for the larger boards. Bit `row * size + col` is the square in that
//! row and column; bits past the last square are always zero.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares, stored as bits. Every board type is generic over this trait, so that the rules,
/// the search and the evaluation are written once and compiled for each width.
pub trait Bits:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The empty set.
    const ZERO: Self;
    /// How many squares the type can hold.
    const CAPACITY: usize;

    /// The set holding only square `index`.
    fn bit(index: usize) -> Self;
    /// Shifts every square `n` places towards higher indices (`n` < 64); bits pushed past the
    /// capacity are lost.
    fn shl(self, n: u32) -> Self;
    /// Shifts every square `n` places towards lower indices (`n` < 64).
    fn shr(self, n: u32) -> Self;
    /// How many squares are in the set.
    fn count(self) -> u32;
    /// The lowest square in the set; meaningless on the empty set.
    fn lowest(self) -> usize;
    /// The set less its lowest square.
    fn without_lowest(self) -> Self;

    /// A well-mixed 64-bit hash of the set (for transposition tables).
    fn hash64(self) -> u64;

    /// The transposition table's key of a position whose sides hold the disjoint sets `player`
    /// and `opponent`.
    #[inline(always)]
    fn pair_key(player: Self, opponent: Self) -> u64 {
        pair_key_of_hashes(player.hash64(), opponent.hash64())
    }

    /// Squares 0 to 63 of the set (all of it on boards up to 8×8).
    fn low64(self) -> u64;

    /// The squares of the set that are in `mask`, packed into the low bits in ascending order of
    /// square (bit j of the result is the mask's j-th lowest square). The mask holds at most 64
    /// squares.
    fn gather(self, mask: Self) -> u64;

    /// Whether the set is empty.
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }
    /// Whether square `index` is in the set.
    #[inline(always)]
    fn has(self, index: usize) -> bool {
        !(self & Self::bit(index)).is_empty()
    }
    /// The squares of the set, lowest first.
    #[inline(always)]
    fn squares(self) -> SquareIter<Self> {
        SquareIter(self)
    }
}

/// Iterates over the squares of a [`Bits`] set, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct SquareIter<B>(B);

impl<B: Bits> Iterator for SquareIter<B> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            None
        } else {
            let index = self.0.lowest();
            self.0 = self.0.without_lowest();
            Some(index)
        }
    }
}

macro_rules! impl_bits_for_int {
    ($t:ty) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            const CAPACITY: usize = <$t>::BITS as usize;
            #[inline(always)]
            fn bit(index: usize) -> Self {
                1 << index
            }
            #[inline(always)]
            fn shl(self, n: u32) -> Self {
                self << n
            }
            #[inline(always)]
            fn shr(self, n: u32) -> Self {
                self >> n
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn hash64(self) -> u64 {
                let mut h = 0u64;
                for word in 0..(<$t>::BITS / 64) {
                    h = mix(h ^ (self >> (64 * word)) as u64);
                }
                h
            }
            #[inline(always)]
            fn low64(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn gather(self, mask: Self) -> u64 {
                if <$t>::BITS == 64 {
                    // One extraction, no test (the 8×8 evaluation's inner loop).
                    return extract(self as u64, mask as u64);
                }
                gather_words(
                    (0..<$t>::BITS / 64)
                        .map(|word| ((self >> (64 * word)) as u64, (mask >> (64 * word)) as u64)),
                )
            }
            #[inline(always)]
            fn pair_key(player: Self, opponent: Self) -> u64 {
                if <$t>::BITS == 64 {
                    pair_key64(player as u64, opponent as u64)
                } else {
                    pair_key_of_hashes(player.hash64(), opponent.hash64())
                }
            }
        }
    };
}

/// The key of a position of up to 64 squares, `player` and `opponent` being its sides' discs:
/// one side's discs mixed, the other's multiplied by an odd constant (a bijection, so that two
/// positions with the same first side never share a key; with different first sides, the
/// mixed halves differ at random). One mix instead of three: the endgame's table layer computes
/// a key for every child it makes.
#[inline(always)]
pub fn pair_key64(player: u64, opponent: u64) -> u64 {
    mix(player) ^ opponent.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The key of a position of more than 64 squares, from its sides' hashes ([`Bits::hash64`]).
#[inline(always)]
pub fn pair_key_of_hashes(player: u64, opponent: u64) -> u64 {
    mix(player ^ opponent.rotate_left(23))
}

/// A 64-bit finaliser (the one of splitmix64): every input bit reaches every output bit.
#[inline(always)]
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl_bits_for_int!(u64);
impl_bits_for_int!(u128);

/// A bit set of `W` 64-bit words, for boards of more than 128 squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Wide<const W: usize>(pub [u64; W]);

impl<const W: usize> Default for Wide<W> {
    fn default() -> Self {
        Wide([0; W])
    }
}

macro_rules! impl_wide_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $assign_op:tt) => {
        impl<const W: usize> $trait for Wide<W> {
            type Output = Self;
            #[inline(always)]
            fn $method(self, rhs: Self) -> Self {
                let mut out = self.0;
                for (o, r) in out.iter_mut().zip(rhs.0) {
                    *o $assign_op r;
                }
                Wide(out)
            }
        }
        impl<const W: usize> $assign_trait for Wide<W> {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: Self) {
                for (o, r) in self.0.iter_mut().zip(rhs.0) {
                    *o $assign_op r;
                }
            }
        }
    };
}

impl_wide_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
impl_wide_op!(BitOr, bitor, BitOrAssign, bitor_assign, |=);
impl_wide_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^=);

impl<const W: usize> Not for Wide<W> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Wide(self.0.map(|w| !w))
    }
}

impl<const W: usize> Bits for Wide<W> {
    const ZERO: Self = Wide([0; W]);
    const CAPACITY: usize = 64 * W;

    #[inline(always)]
    fn bit(index: usize) -> Self {
        let mut words = [0; W];
        words[index / 64] = 1 << (index % 64);
        Wide(words)
    }
    // Each word takes bits from its neighbour: indexing says that more plainly than iterators.
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        if n == 0 {
            return self;
        }
        let mut out = [0; W];
        out[0] = self.0[0] << n;
        for i in 1..W {
            out[i] = (self.0[i] << n) | (self.0[i - 1] >> (64 - n));
        }
        Wide(out)
    }
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        if n == 0 {
            return self;
        }
        let mut out = [0; W];
        for i in 0..W - 1 {
            out[i] = (self.0[i] >> n) | (self.0[i + 1] << (64 - n));
        }
        out[W - 1] = self.0[W - 1] >> n;
        Wide(out)
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn lowest(self) -> usize {
        for (i, w) in self.0.iter().enumerate() {
            if *w != 0 {
                return i * 64 + w.trailing_zeros() as usize;
            }
        }
        Self::CAPACITY
    }
    #[inline(always)]
    fn hash64(self) -> u64 {
        self.0.iter().fold(0, |h, &w| mix(h ^ w))
    }
    #[inline(always)]
    fn low64(self) -> u64 {
        self.0[0]
    }
    #[inline(always)]
    fn gather(self, mask: Self) -> u64 {
        gather_words(self.0.into_iter().zip(mask.0))
    }
    #[inline(always)]
    fn without_lowest(self) -> Self {
        let mut out = self.0;
        for w in out.iter_mut() {
            if *w != 0 {
                *w &= *w - 1;
                break;
            }
        }
        Wide(out)
    }
}

/// [`Bits::gather`] of a set given as (bits, mask) word pairs, lowest word first: each word's
/// extraction placed above the ones before it.
#[inline(always)]
fn gather_words(words: impl Iterator<Item = (u64, u64)>) -> u64 {
    let mut out = 0;
    let mut shift = 0;
    for (bits, mask) in words {
        if mask != 0 {
            out |= extract(bits, mask) << shift;
            shift += mask.count_ones();
        }
    }
    out
}

/// Gathers the bits of `bits` under `mask` into the low bits, in ascending order.
#[inline(always)]
pub fn extract(bits: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the bmi2 target feature is enabled at compile time.
        unsafe { core::arch::x86_64::_pext_u64(bits, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        extract_portable(bits, mask)
    }
}

/// The portable twin of [`extract`].
pub fn extract_portable(bits: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut k = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if bits & low != 0 {
            out |= 1 << k;
        }
        k += 1;
        mask ^= low;
    }
    out
}

/// Builds the set of the given squares (a helper for tests and for masks built at start-up).
pub fn from_squares<B: Bits>(squares: impl IntoIterator<Item = usize>) -> B {
    squares
        .into_iter()
        .fold(B::ZERO, |acc, sq| acc | B::bit(sq))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_shifts<B: Bits>() {
        for index in 0..B::CAPACITY {
            for n in [1u32, 3, 7, 17, 20, 63] {
                let shifted_up = B::bit(index).shl(n);
                if index + (n as usize) < B::CAPACITY {
                    assert_eq!(shifted_up, B::bit(index + n as usize));
                } else {
                    assert!(shifted_up.is_empty());
                }
                let shifted_down = B::bit(index).shr(n);
                if index >= n as usize {
                    assert_eq!(shifted_down, B::bit(index - n as usize));
                } else {
                    assert!(shifted_down.is_empty());
                }
            }
        }
    }

    #[test]
    fn gathering_packs_the_masked_squares_in_ascending_order() {
        fn check<B: Bits>() {
            let mut x = 0x2545_F491_4F6C_DD1Du64;
            let mut next = || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            };
            for _ in 0..200 {
                // Up to 16 squares anywhere in the set, as the patterns have.
                let mask: Vec<usize> = (0..16).map(|_| next() as usize % B::CAPACITY).collect();
                let mask_bits: B = from_squares(mask.iter().copied());
                let set: B = from_squares((0..B::CAPACITY).filter(|_| next() % 3 == 0));
                let expected = mask_bits
                    .squares()
                    .enumerate()
                    .fold(0u64, |acc, (j, sq)| acc | (set.has(sq) as u64) << j);
                assert_eq!(set.gather(mask_bits), expected);
            }
        }
        check::<u64>();
        check::<u128>();
        check::<Wide<3>>();
        check::<Wide<6>>();
    }

    #[test]
    fn the_fast_extraction_agrees_with_the_portable_one() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..1000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mask = x.rotate_left(17) & x.rotate_right(5);
            assert_eq!(extract(x, mask), extract_portable(x, mask));
        }
    }

    #[test]
    fn shifts_move_every_square_of_every_width() {
        check_shifts::<u64>();
        check_shifts::<u128>();
        check_shifts::<Wide<3>>();
        check_shifts::<Wide<6>>();
    }

    #[test]
    fn iteration_counting_and_membership_agree() {
        let squares = [0usize, 5, 63, 64, 127, 128, 200, 383];
        let set: Wide<6> = from_squares(squares);
        assert_eq!(set.count(), squares.len() as u32);
        assert_eq!(set.squares().collect::<Vec<_>>(), squares);
        for sq in 0..384 {
            assert_eq!(set.has(sq), squares.contains(&sq));
        }
        let small: u128 = from_squares([3, 100]);
        assert_eq!(small.squares().collect::<Vec<_>>(), [3, 100]);
        assert_eq!((!Wide::<2>::ZERO).count(), 128);
    }
}
