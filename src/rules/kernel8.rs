//! The 8×8 move generator and flip kernel on `u64` bitboards, the hot path of perft and search.
//!
//! Two implementations of each: a portable one (always compiled, the reference the tests compare
//! against) and, when the build targets a CPU with AVX2 (`-C target-cpu=native`, see README.md), a
//! vectorised one that works on four directions at once (its flips use AVX-512's leading-zero count
//! where the CPU has it). [`moves`] and [`flips`] pick the best one the build allows.

/// Every square but those of columns a and h: where a horizontal or diagonal step may land without
/// wrapping to the next row.
const INNER: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// An Othello position of a board that fits in 8×8 bits, in the 8×8 layout: the side to move's
/// discs, the other side's, and the squares that belong to the board (all 64 on 8×8, the n×n
/// top-left corner on a smaller board, whose lines stop at its edge because the squares outside
/// stay empty). Solvers work on it straight with [`moves`] and [`flips`], masking moves to `board`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board8 {
    /// The discs of the player to move.
    pub player: u64,
    /// The discs of the other player.
    pub opponent: u64,
    /// The squares of the board.
    pub board: u64,
}

/// The squares where `p` may place a disc against `o`.
#[inline(always)]
pub fn moves(p: u64, o: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        avx2::moves(p, o)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        moves_portable(p, o)
    }
}

/// The discs of `o` that a placement by `p` on `index` flips.
#[inline(always)]
pub fn flips(p: u64, o: u64, index: usize) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        avx2::flips(p, o, index)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        flips_portable(p, o, index)
    }
}

/// Move generation, one direction pair at a time. Runs of up to six opponent discs are grown with
/// a doubling step (the run so far jumps two squares through pairs of opponent discs), as Edax's
/// `get_moves` does.
#[inline(always)]
pub fn moves_portable(p: u64, o: u64) -> u64 {
    #[inline(always)]
    fn one_direction(p: u64, through: u64, d: u32) -> u64 {
        let mut up = through & (p << d);
        up |= through & (up << d);
        let pairs_up = through & (through << d);
        up |= pairs_up & (up << (2 * d));
        up |= pairs_up & (up << (2 * d));
        let mut down = through & (p >> d);
        down |= through & (down >> d);
        let pairs_down = through & (through >> d);
        down |= pairs_down & (down >> (2 * d));
        down |= pairs_down & (down >> (2 * d));
        (up << d) | (down >> d)
    }
    let inner = o & INNER;
    let candidates = one_direction(p, inner, 1)
        | one_direction(p, o, 8)
        | one_direction(p, inner, 7)
        | one_direction(p, inner, 9);
    candidates & !(p | o)
}

/// The squares from `index` to the board's edge in each direction, the square itself excluded.
/// Directions 0–3 go towards higher indices (+1, +8, +9, +7), 4–7 towards lower ones.
pub static RAYS: [[u64; 8]; 64] = rays();

const fn rays() -> [[u64; 8]; 64] {
    const STEPS: [(i32, i32); 8] = [
        (0, 1),
        (1, 0),
        (1, 1),
        (1, -1),
        (0, -1),
        (-1, 0),
        (-1, -1),
        (-1, 1),
    ];
    let mut table = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = STEPS[d];
            let (mut r, mut c) = (sq as i32 / 8 + dr, sq as i32 % 8 + dc);
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                table[sq][d] |= 1 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            d += 1;
        }
        sq += 1;
    }
    table
}

/// Flips by rays: in a direction towards higher indices the first square of the ray that is not an
/// opponent disc is its lowest set bit; towards lower indices, its highest. When that square holds
/// a player disc, the ray's squares before it flip.
#[inline(always)]
pub fn flips_portable(p: u64, o: u64, index: usize) -> u64 {
    let rays = &RAYS[index];
    let mut flipped = 0;
    for &ray in &rays[..4] {
        let stop = ray & !o;
        let outflank = stop & stop.wrapping_neg() & p;
        flipped |= outflank.wrapping_sub((outflank != 0) as u64) & ray;
    }
    for &ray in &rays[4..] {
        let stop = ray & !o;
        let outflank = (1u64 << 63).checked_shr(stop.leading_zeros()).unwrap_or(0) & p;
        flipped |= (outflank.wrapping_neg() << 1) & ray;
    }
    flipped
}

/// How many discs a placement on `index` flips when it is the last empty square of a full line
/// through it, `p` being the mover's discs and every other square of the board the opponent's:
/// the last empty square of an endgame, where only the mover's discs need be known. Each of the
/// four lines through the square is gathered into a byte (a shift, or a multiplication that
/// stacks a column or diagonal into the top byte) and its count read from a table (Edax's
/// `count_last_flip` idea, written with multiplications rather than per-square functions).
///
/// On a smaller board in the 8×8 layout the squares outside it read as the opponent's; they lie
/// beyond the board's own squares at the ends of each line, past any disc of `p` that could
/// outflank, so they add nothing.
#[inline(always)]
pub fn last_flip_count(p: u64, index: usize) -> u32 {
    let (row, col) = (index / 8, index % 8);
    let [diagonal, anti_diagonal] = DIAGONALS[index];
    let row_bits = (p >> (8 * row)) as u8 as usize;
    let col_bits = ((p >> col) & FILE_A).wrapping_mul(COLUMN_TO_TOP) >> 56;
    let diagonal_bits = (p & diagonal).wrapping_mul(FILE_A) >> 56;
    let anti_diagonal_bits = (p & anti_diagonal).wrapping_mul(FILE_A) >> 56;
    let by_col = &LINE_FLIPS[col];
    (by_col[row_bits]
        + LINE_FLIPS[row][col_bits as usize]
        + by_col[diagonal_bits as usize]
        + by_col[anti_diagonal_bits as usize]) as u32
}

/// Column a.
const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Multiplied with column a's bits, puts the square of row i on bit 56 + i.
const COLUMN_TO_TOP: u64 = 0x0102_0408_1020_4080;

/// The two diagonals through each square (a1–h8 and h1–a8 directions), the square included;
/// multiplied with column a's bits, each lands on the top byte as one bit per column.
static DIAGONALS: [[u64; 2]; 64] = {
    let mut table = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (row, col) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut r = 0;
        while r < 8 {
            let mut c = 0;
            while c < 8 {
                if c - r == col - row {
                    table[sq][0] |= 1 << (r * 8 + c);
                }
                if c + r == col + row {
                    table[sq][1] |= 1 << (r * 8 + c);
                }
                c += 1;
            }
            r += 1;
        }
        sq += 1;
    }
    table
};

/// For a placement at position `i` of a full line of 8 squares whose mover's discs are the byte
/// `b` (the others the opponent's), the discs it flips: on each side, those before the mover's
/// nearest disc.
static LINE_FLIPS: [[u8; 256]; 8] = {
    let mut table = [[0u8; 256]; 8];
    let mut i = 0;
    while i < 8 {
        let mut b = 0;
        while b < 256 {
            let mut flips = 0;
            let mut j = i as i32 - 1;
            while j >= 0 {
                if b >> j & 1 == 1 {
                    flips += i as i32 - 1 - j;
                    break;
                }
                j -= 1;
            }
            let mut j = i + 1;
            while j < 8 {
                if b >> j & 1 == 1 {
                    flips += (j - i - 1) as i32;
                    break;
                }
                j += 1;
            }
            table[i][b] = flips as u8;
            b += 1;
        }
        i += 1;
    }
    table
};

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod avx2 {
    //! AVX2 kernels: the four shift amounts (1, 8, 9, 7) sit in the four lanes of one vector.
    use super::{INNER, RAYS};
    use std::arch::x86_64::*;

    /// Per-lane masks of the squares a run may pass through: horizontal and diagonal runs exclude
    /// columns a and h.
    #[inline(always)]
    fn through_masks(o: u64) -> __m256i {
        // One broadcast and one AND with a constant, not four lanes assembled one by one.
        // SAFETY: AVX2 is enabled for this build (the module is compiled only then).
        unsafe {
            let lanes = _mm256_set_epi64x(INNER as i64, INNER as i64, -1, INNER as i64);
            _mm256_and_si256(_mm256_set1_epi64x(o as i64), lanes)
        }
    }

    /// The four 64-bit lanes ORed together.
    #[inline(always)]
    fn or_lanes(v: __m256i) -> u64 {
        // SAFETY: AVX2 is enabled for this build; register-only intrinsics.
        unsafe {
            let pair = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
            let folded = _mm_or_si128(pair, _mm_unpackhi_epi64(pair, pair));
            _mm_cvtsi128_si64(folded) as u64
        }
    }

    /// Each lane's highest set bit (none in a zero lane), for lanes whose bits all lie on one ray
    /// running towards lower indices by the lane's step (1, 8, 9, 7).
    #[inline(always)]
    fn highest_ray_bit(v: __m256i) -> __m256i {
        // With AVX-512 (CD and VL), a leading-zero count per lane places it: a logical shift by
        // 64 gives 0 for a zero lane (the idea Egaroucid uses for its flips).
        #[cfg(all(target_feature = "avx512cd", target_feature = "avx512vl"))]
        // SAFETY: AVX-512 CD and VL are enabled for this build; register-only intrinsics.
        unsafe {
            _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), _mm256_lzcnt_epi64(v))
        }
        // Without it, erase every bit that lies below another along the ray: the ray's squares
        // are a step apart, and a ray has at most 7, so shifting the bits down by 1, 2 and 4
        // steps covers every distance, in 4 shifts where smearing by bit positions took 7 (the
        // directional eraser of Okuhara's AVX2 flips in Edax and Egaroucid). A bit shifted past
        // the ray's end lands on no square of the ray, so it erases nothing of it.
        #[cfg(not(all(target_feature = "avx512cd", target_feature = "avx512vl")))]
        // SAFETY: AVX2 is enabled for this build; register-only intrinsics.
        unsafe {
            let step = _mm256_set_epi64x(7, 9, 8, 1);
            let mut below = _mm256_srlv_epi64(v, step);
            below = _mm256_or_si256(below, _mm256_srlv_epi64(below, step));
            below = _mm256_or_si256(
                below,
                _mm256_srlv_epi64(below, _mm256_add_epi64(step, step)),
            );
            below = _mm256_or_si256(
                below,
                _mm256_srlv_epi64(below, _mm256_slli_epi64::<2>(step)),
            );
            _mm256_andnot_si256(below, v)
        }
    }

    #[inline(always)]
    pub fn moves(p: u64, o: u64) -> u64 {
        // SAFETY: AVX2 is enabled for this build; every intrinsic works on registers only.
        unsafe {
            let shifts = _mm256_set_epi64x(7, 9, 8, 1);
            let shifts2 = _mm256_add_epi64(shifts, shifts);
            let pv = _mm256_set1_epi64x(p as i64);
            let through = through_masks(o);

            let mut up = _mm256_and_si256(through, _mm256_sllv_epi64(pv, shifts));
            up = _mm256_or_si256(up, _mm256_and_si256(through, _mm256_sllv_epi64(up, shifts)));
            let pairs_up = _mm256_and_si256(through, _mm256_sllv_epi64(through, shifts));
            up = _mm256_or_si256(
                up,
                _mm256_and_si256(pairs_up, _mm256_sllv_epi64(up, shifts2)),
            );
            up = _mm256_or_si256(
                up,
                _mm256_and_si256(pairs_up, _mm256_sllv_epi64(up, shifts2)),
            );

            let mut down = _mm256_and_si256(through, _mm256_srlv_epi64(pv, shifts));
            down = _mm256_or_si256(
                down,
                _mm256_and_si256(through, _mm256_srlv_epi64(down, shifts)),
            );
            let pairs_down = _mm256_and_si256(through, _mm256_srlv_epi64(through, shifts));
            down = _mm256_or_si256(
                down,
                _mm256_and_si256(pairs_down, _mm256_srlv_epi64(down, shifts2)),
            );
            down = _mm256_or_si256(
                down,
                _mm256_and_si256(pairs_down, _mm256_srlv_epi64(down, shifts2)),
            );

            let all = _mm256_or_si256(
                _mm256_sllv_epi64(up, shifts),
                _mm256_srlv_epi64(down, shifts),
            );
            or_lanes(all) & !(p | o)
        }
    }

    #[inline(always)]
    pub fn flips(p: u64, o: u64, index: usize) -> u64 {
        // SAFETY: AVX2 is enabled for this build; `RAYS[index]` is 8 u64s, read as two unaligned
        // 256-bit vectors (index < 64 is checked by the array indexing).
        unsafe {
            let rays = &RAYS[index];
            let ray_up = _mm256_loadu_si256(rays.as_ptr() as *const __m256i);
            let ray_down = _mm256_loadu_si256(rays.as_ptr().add(4) as *const __m256i);
            let pv = _mm256_set1_epi64x(p as i64);
            let ov = _mm256_set1_epi64x(o as i64);
            let zero = _mm256_setzero_si256();

            // Towards higher indices: the lowest non-opponent square of each ray.
            let stop_up = _mm256_andnot_si256(ov, ray_up);
            let first_up = _mm256_and_si256(stop_up, _mm256_sub_epi64(zero, stop_up));
            let outflank_up = _mm256_and_si256(first_up, pv);
            // outflank - 1 where outflank != 0: adding the all-ones "is zero" mask undoes the -1.
            let is_zero = _mm256_cmpeq_epi64(outflank_up, zero);
            let below = _mm256_add_epi64(
                outflank_up,
                _mm256_andnot_si256(is_zero, _mm256_set1_epi64x(-1)),
            );
            let flips_up = _mm256_and_si256(below, ray_up);

            // Towards lower indices: the highest non-opponent square.
            let stop_down = _mm256_andnot_si256(ov, ray_down);
            let top = highest_ray_bit(stop_down);
            let outflank_down = _mm256_and_si256(top, pv);
            let above = _mm256_slli_epi64::<1>(_mm256_sub_epi64(zero, outflank_down));
            let flips_down = _mm256_and_si256(above, ray_down);

            let all = _mm256_or_si256(flips_up, flips_down);
            or_lanes(all)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::geometry::Size8;
    use crate::rules::othello::{generic_flips, generic_moves};

    /// A small deterministic generator, so that the kernel tests need no crate.
    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    fn random_boards() -> Vec<(u64, u64)> {
        let mut state = 0x9e37_79b9_7f4a_7c15;
        (0..20_000)
            .map(|i| {
                let occupied = match i % 4 {
                    0 => xorshift(&mut state),
                    1 => xorshift(&mut state) | xorshift(&mut state),
                    2 => xorshift(&mut state) & xorshift(&mut state),
                    _ => !(xorshift(&mut state) & xorshift(&mut state) & xorshift(&mut state)),
                };
                let p = occupied & xorshift(&mut state);
                (p, occupied & !p)
            })
            .collect()
    }

    #[test]
    fn fast_kernels_agree_with_portable_and_generic_ones() {
        for (p, o) in random_boards() {
            let generic = generic_moves::<Size8>(p, o);
            assert_eq!(moves_portable(p, o), generic, "moves of {p:#x} {o:#x}");
            assert_eq!(moves(p, o), generic, "moves of {p:#x} {o:#x}");
            for index in 0..64 {
                if (p | o) & (1 << index) != 0 {
                    continue;
                }
                let expected = generic_flips::<Size8>(p, o, index);
                assert_eq!(flips_portable(p, o, index), expected, "flips at {index}");
                assert_eq!(flips(p, o, index), expected, "flips at {index}");
                assert_eq!(expected != 0, generic & (1 << index) != 0);
                // The same square as the last empty one, the rest of the board the opponent's.
                let last = !p & !(1 << index);
                assert_eq!(
                    last_flip_count(p, index),
                    generic_flips::<Size8>(p, last, index).count_ones(),
                    "last flips at {index} of {p:#x}"
                );
            }
        }
    }
}
