//! The pattern sum of boards of up to 64 squares (8×8 and 6×6) found sixteen instances at a time
//! with AVX-512, where the binary is built for a CPU that has it (`target-cpu=native` on one with
//! AVX-512 VBMI and VNNI); elsewhere [`Lanes::new`] gives none and the evaluation keeps its
//! scalar loop.
//!
//! Each square's digit (0 empty, 1, 2) is a byte of a 64-byte vector, one for the discs and one
//! for the moves. A byte permutation across the two (`vpermi2b`) lays four digits of each of
//! sixteen instances side by side, a dot product of bytes (`vpdpbusd`) weighs them by 1, 3, 9, 27
//! into that instance's 32-bit lane, and three such blocks of four digits give indices of up to
//! twelve squares; a gather reads the sixteen weights. The scalar loop spends two bit extractions
//! and two table reads on each instance: about 92 ns a position for the 62 instances 8×8 had
//! before its diagonal bands and narrow triangles, against 64 ns in lanes (about 83 ns for the 70
//! of the fifty-third session; 99 ns for the 78 now, which fill five groups of sixteen but read
//! 6.6 MB of tables where the 70 read 5.4).
//! The idea of computing pattern indices in SIMD lanes is Egaroucid's; the layout here is othel's.

/// An instance as the lanes read it (only the AVX-512 build reads its fields).
#[cfg_attr(
    not(all(
        target_arch = "x86_64",
        target_feature = "avx512f",
        target_feature = "avx512bw",
        target_feature = "avx512vbmi",
        target_feature = "avx512vnni"
    )),
    allow(dead_code)
)]
pub struct LaneInstance {
    /// The square of each base-3 digit, least significant first; 64 more when the digit is read
    /// from the moves rather than the discs.
    pub digits: Vec<u8>,
    /// The start of its pattern's weights within a phase.
    pub offset: u32,
}

#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx512f",
    target_feature = "avx512bw",
    target_feature = "avx512vbmi",
    target_feature = "avx512vnni"
))]
mod avx512 {
    use super::LaneInstance;
    use std::arch::x86_64::*;

    /// Whether this build sums the patterns in lanes (see [`Lanes::new`]).
    pub const AVAILABLE: bool = true;

    /// Blocks of four digits: up to twelve squares an instance.
    const BLOCKS: usize = 3;

    /// What a block's digits are worth, lane by lane (`81^b` for block `b`).
    const BLOCK_WORTH: [i32; BLOCKS] = [1, 81, 6561];

    /// Sixteen instances (fewer in the last group).
    #[derive(Clone, Debug)]
    #[repr(C, align(64))]
    struct Group {
        /// For each block, byte `4·lane + k` picks the square (of the discs, or of the moves from
        /// 64 on) of digit `4·block + k` of the lane's instance.
        picks: [[u8; 64]; BLOCKS],
        /// The weights' offsets, lane by lane.
        offsets: [u32; 16],
        /// For each block, the bytes that pick a digit (the others read 0).
        keep: [u64; BLOCKS],
        /// The blocks any lane uses.
        blocks: usize,
        /// The lanes holding an instance.
        lanes: u16,
    }

    /// The instances of a board, in groups of sixteen.
    #[derive(Clone, Debug)]
    pub struct Lanes {
        groups: Vec<Group>,
    }

    impl Lanes {
        /// The lanes of `instances`, or none if one has more than twelve squares.
        pub fn new(instances: &[LaneInstance]) -> Option<Lanes> {
            if instances.iter().any(|i| i.digits.len() > 4 * BLOCKS) {
                return None;
            }
            // The longest together, so that groups of short ones skip a block.
            let mut sorted: Vec<&LaneInstance> = instances.iter().collect();
            sorted.sort_by_key(|i| std::cmp::Reverse(i.digits.len()));
            let groups = sorted
                .chunks(16)
                .map(|chunk| {
                    let mut g = Group {
                        picks: [[0; 64]; BLOCKS],
                        offsets: [0; 16],
                        keep: [0; BLOCKS],
                        blocks: 0,
                        lanes: 0,
                    };
                    for (lane, instance) in chunk.iter().enumerate() {
                        g.offsets[lane] = instance.offset;
                        g.lanes |= 1 << lane;
                        g.blocks = g.blocks.max(instance.digits.len().div_ceil(4));
                        for (k, &square) in instance.digits.iter().enumerate() {
                            let byte = 4 * lane + k % 4;
                            g.picks[k / 4][byte] = square;
                            g.keep[k / 4] |= 1 << byte;
                        }
                    }
                    g
                })
                .collect();
            Some(Lanes { groups })
        }

        /// The sum of the instances' weights in `w` (a phase's values), the digits 1 on `ones`
        /// and 2 on `twos` of the discs (`discs`) and of the moves (`moves`); where both sets
        /// hold a square, it reads 1.
        ///
        /// # Safety
        /// Every instance's weights, `3^n` values from its offset (n its squares), and one value
        /// more lie within `w`: the gather reads 32 bits at each 16-bit weight.
        #[inline(always)]
        pub unsafe fn sum(&self, w: &[i16], discs: [u64; 2], moves: [u64; 2]) -> i32 {
            // SAFETY: the build has the target features (this module's `cfg`); the loads read
            // the groups' own arrays; the gather's addresses lie within `w` by the caller's
            // promise (each lane's index is below `3^n` from its offset, the digits being 0 to
            // 2, and the 32 bits read end one value after it).
            unsafe {
                let ones = _mm512_set1_epi8(1);
                let twos = _mm512_set1_epi8(2);
                let board = |[one, two]: [u64; 2]| {
                    _mm512_mask_mov_epi8(_mm512_maskz_mov_epi8(two, twos), one, ones)
                };
                let (d, m) = (board(discs), board(moves));
                let powers = _mm512_set1_epi32(i32::from_le_bytes([1, 3, 9, 27]));
                let zero = _mm512_setzero_si512();
                let mut total = zero;
                for g in &self.groups {
                    let digits = |b: usize| {
                        let picks = _mm512_loadu_si512(g.picks[b].as_ptr().cast());
                        _mm512_maskz_permutex2var_epi8(g.keep[b], d, picks, m)
                    };
                    let offsets = _mm512_loadu_si512(g.offsets.as_ptr().cast());
                    let mut index = _mm512_dpbusd_epi32(offsets, digits(0), powers);
                    for (b, &worth) in BLOCK_WORTH.iter().enumerate().take(g.blocks).skip(1) {
                        let block = _mm512_dpbusd_epi32(zero, digits(b), powers);
                        let worth = _mm512_set1_epi32(worth);
                        index = _mm512_add_epi32(index, _mm512_mullo_epi32(block, worth));
                    }
                    let read =
                        _mm512_mask_i32gather_epi32::<2>(zero, g.lanes, index, w.as_ptr().cast());
                    // The low 16 bits of each lane, sign extended.
                    let weight = _mm512_srai_epi32::<16>(_mm512_slli_epi32::<16>(read));
                    total = _mm512_add_epi32(total, weight);
                }
                _mm512_reduce_add_epi32(total)
            }
        }
    }
}

#[cfg(not(all(
    target_arch = "x86_64",
    target_feature = "avx512f",
    target_feature = "avx512bw",
    target_feature = "avx512vbmi",
    target_feature = "avx512vnni"
)))]
mod avx512 {
    use super::LaneInstance;

    /// Whether this build sums the patterns in lanes: it has no AVX-512.
    pub const AVAILABLE: bool = false;

    /// Without AVX-512 there are no lanes: the evaluation keeps its scalar loop.
    #[derive(Clone, Debug)]
    pub enum Lanes {}

    impl Lanes {
        /// None: this build has no AVX-512.
        pub fn new(_instances: &[LaneInstance]) -> Option<Lanes> {
            None
        }

        /// Never called: there are no lanes to call it on.
        ///
        /// # Safety
        /// As the AVX-512 build's.
        #[inline(always)]
        pub unsafe fn sum(&self, _w: &[i16], _discs: [u64; 2], _moves: [u64; 2]) -> i32 {
            match *self {}
        }
    }
}

pub use avx512::{AVAILABLE, Lanes};
