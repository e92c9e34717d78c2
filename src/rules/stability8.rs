//! Stable discs on the 8×8 layout of [`super::kernel8`], fast enough for the endgame solver's
//! stability cut-off at every node of four or more empty squares.
//!
//! Three steps, as strong programs do it (Edax's `get_stability` is the model for the idea):
//! - the edges come from a table of every edge pattern, solved once for each board side (8, 6
//!   and 4, the boards the layout holds): an edge disc can only flip along its edge, so the
//!   table is exact there;
//! - a disc whose four lines are full can never flip;
//! - a disc inside the edges whose every line is full or has a stable neighbour of its colour on
//!   one side is stable, grown to a fixpoint from the first two.
//!
//! The same answer as the generic [`super::othello::stable_discs`] grows from the corners alone,
//! except that the edge table may find more stable edge discs (a test checks that it finds every
//! one the generic code finds, and a random-game test that none of them ever flips).

use std::sync::LazyLock;

use super::geometry::Size8;
use super::othello::grow_stable;

const COLUMN_A: u64 = 0x0101_0101_0101_0101;
const NOT_A: u64 = !COLUMN_A;
const NOT_H: u64 = !(COLUMN_A << 7);
const ROW_1: u64 = 0xFF;

/// The stable discs of `discs` on an 8×8-layout board whose squares are `board` (the whole 8×8,
/// or a smaller board in its top-left corner); `occupied` holds the discs of both colours. The
/// squares outside the board count as full and as stable walls, so its lines end at its edge.
#[inline]
pub fn stable_discs8(discs: u64, occupied: u64, board: u64) -> u64 {
    let walls = !board;
    let occupied = occupied | walls;
    let (full_h, full_v, full_d9, full_d7) = full_lines(occupied);
    let all_full = full_h & full_v & full_d9 & full_d7;
    let others = occupied & !discs & board;
    let edges = match board {
        u64::MAX => Some((edge_stable::<8>(discs, others), INSIDE_8)),
        BOARD_6 => Some((edge_stable::<6>(discs, others), INSIDE_6)),
        BOARD_4 => Some((edge_stable::<4>(discs, others), INSIDE_4)),
        _ => None,
    };
    let Some((edges, inner)) = edges else {
        return grow_stable::<Size8>(
            discs,
            [full_h, full_v, full_d9, full_d7],
            discs & all_full | walls,
        );
    };
    let seed = discs & (all_full | edges);
    if seed == 0 {
        // Growing needs a stable neighbour on the board to start from (the edge discs are all
        // settled above, and an inner disc only neighbours edge discs and other inner ones).
        return 0;
    }
    grow_inner(discs & inner, [full_h, full_v, full_d9, full_d7], seed)
}

/// Grows the stable discs `stable` into `candidates`, squares of the board's inside (not on its
/// edges, whose discs the edge table settles): a candidate whose every line is full or has a
/// stable neighbour on one side is stable. As the inside's squares are a row and a column away
/// from the board's end, their neighbours are one step away in the layout, and no shift needs
/// masking against wrapping round a row (Edax's loop has this shape).
#[inline(always)]
fn grow_inner(candidates: u64, full: [u64; 4], stable: u64) -> u64 {
    let [full_h, full_v, full_d9, full_d7] = full;
    let mut stable = stable;
    loop {
        let next = stable
            | candidates
                & scalar(full_h | stable << 1 | stable >> 1)
                & scalar(full_v | stable << 8 | stable >> 8)
                & scalar(full_d9 | stable << 9 | stable >> 9)
                & scalar(full_d7 | stable << 7 | stable >> 7);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// `x`, unchanged, through a general register the compiler cannot see into: growing the stable
/// discs with each line's term passed through it keeps the loop on scalar registers. Otherwise
/// LLVM packs the four lines' terms into one vector and ANDs its lanes together in every round, a
/// chain twice as long; scalar, FFO #40–#49 took 1.5% less time (1 thread, side by side).
#[inline(always)]
fn scalar(x: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        let mut x = x;
        // SAFETY: the assembly is only a comment naming the register: it reads and writes no
        // memory, leaves the register and the flags as they were, and uses no stack.
        unsafe {
            core::arch::asm!(
                "/* {0} */",
                inout(reg) x,
                options(pure, nomem, nostack, preserves_flags)
            )
        };
        x
    }
    #[cfg(not(target_arch = "x86_64"))]
    x
}

/// The squares of `occupied` whose line is full, in the four directions: horizontal, vertical,
/// the diagonal of step 9 (a1–h8 in the layout's order) and that of step 7.
#[inline(always)]
fn full_lines(occupied: u64) -> (u64, u64, u64, u64) {
    // A row is full when its eight bits are: AND them down onto column a, then spread back.
    let mut row = occupied & occupied >> 4;
    row &= row >> 2;
    row &= row >> 1;
    let full_h = (row & COLUMN_A) * 0xFF;
    let mut col = occupied & occupied >> 32;
    col &= col >> 16;
    col &= col >> 8;
    let full_v = (col & ROW_1) * COLUMN_A;
    // Diagonals: every empty square floods its diagonal both ways, in steps of 1, 2 and 4 squares
    // (a square may only receive from a square 1, 2 or 4 columns away on the right side).
    let empty = !occupied;
    let full_d9 = occupied & !flood(empty, 9, COLUMNS_FROM, COLUMNS_UP_TO);
    let full_d7 = occupied & !flood(empty, 7, COLUMNS_UP_TO, COLUMNS_FROM);
    (full_h, full_v, full_d9, full_d7)
}

/// The columns from b, c and e on: the squares a shift of 1, 2 or 4 columns right may reach.
const COLUMNS_FROM: [u64; 3] = [NOT_A, 0xFCFC_FCFC_FCFC_FCFC, 0xF0F0_F0F0_F0F0_F0F0];
/// The columns up to g, f and d: the squares a shift of 1, 2 or 4 columns left may reach.
const COLUMNS_UP_TO: [u64; 3] = [NOT_H, 0x3F3F_3F3F_3F3F_3F3F, 0x0F0F_0F0F_0F0F_0F0F];

/// Spreads `seeds` along the lines of step `step` both ways, as far as the board goes: upward in
/// shifts of 1, 2 and 4 steps kept to the squares of `up` (the columns those shifts reach
/// without wrapping round a row), downward likewise within `down`.
#[inline(always)]
fn flood(seeds: u64, step: u32, up: [u64; 3], down: [u64; 3]) -> u64 {
    let mut fwd = seeds;
    fwd |= fwd << step & up[0];
    fwd |= fwd << (2 * step) & up[1];
    fwd |= fwd << (4 * step) & up[2];
    let mut back = seeds;
    back |= back >> step & down[0];
    back |= back >> (2 * step) & down[1];
    back |= back >> (4 * step) & down[2];
    fwd | back
}

/// The squares of the 6×6 and 4×4 boards in the top-left corner of the 8×8 layout.
const BOARD_6: u64 = 0x3F * 0x0101_0101_0101;
const BOARD_4: u64 = 0x0F * 0x0101_0101;

/// The squares of the 8×8, 6×6 and 4×4 boards that are on none of their edges.
const INSIDE_8: u64 = 0x007E_7E7E_7E7E_7E00;
const INSIDE_6: u64 = 0x1E * 0x0001_0101_0100;
const INSIDE_4: u64 = 0x06 * 0x0001_0100;

/// The stable discs of `discs` on the four edges of the N×N board in the top-left corner of the
/// layout (N = 4, 6 or 8), `others` being the other colour's discs.
#[inline(always)]
fn edge_stable<const N: u32>(discs: u64, others: u64) -> u64 {
    let table = match N {
        8 => &*EDGE_8,
        6 => &*EDGE_6,
        _ => &*EDGE_4,
    };
    let last = N - 1;
    let row = |x: u64, r: u32| (x >> (8 * r)) as u8;
    let top = table.get(row(discs, 0), row(others, 0)) as u64;
    let bottom = (table.get(row(discs, last), row(others, last)) as u64) << (8 * last);
    let left = table.get(column_byte(discs), column_byte(others));
    let right = table.get(column_byte(discs >> last), column_byte(others >> last));
    top | bottom | COLUMN_OF_BYTE[left as usize] | COLUMN_OF_BYTE[right as usize] << last
}

/// Column a's eight squares as a byte (the square of row r at bit r).
#[inline(always)]
fn column_byte(x: u64) -> u8 {
    // Each bit 8r lands on bit 56 + r; no two partial products meet, so nothing carries.
    ((x & COLUMN_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// The inverse of [`column_byte`]: bit r of the byte on row r of column a.
static COLUMN_OF_BYTE: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut row = 0;
        while row < 8 {
            if byte >> row & 1 == 1 {
                table[byte] |= 1u64 << (8 * row);
            }
            row += 1;
        }
        byte += 1;
    }
    table
};

/// For every line of `len` squares (one colour's discs, the other's): the first colour's discs
/// that no sequence of placements on the line can flip.
struct EdgeTable {
    len: u32,
    stable: Box<[u8]>,
}

impl EdgeTable {
    /// The entry of a line; squares beyond the line's length are ignored.
    #[inline(always)]
    fn get(&self, discs: u8, others: u8) -> u8 {
        let mask = ((1u32 << self.len) - 1) as u8;
        self.stable[((discs & mask) as usize) << self.len | (others & mask) as usize]
    }

    /// Solved from the full lines down: a disc is stable when it is one now and stays stable
    /// after every placement either colour could make on the line. A placement off the line may
    /// fill any empty square of it, flipping nothing along it, so every empty square may be
    /// filled by either colour, flipping what it brackets on the line.
    fn build(len: u32) -> EdgeTable {
        let lines = 1u32 << len;
        let index = |d: u32, o: u32| (d << len | o) as usize;
        let mut stable = vec![0u8; (lines * lines) as usize].into_boxed_slice();
        // Lines with more discs first: every placement leads to a line already solved.
        for filled in (0..=len).rev() {
            for discs in 0..lines {
                for others in 0..lines {
                    if discs & others != 0 || (discs | others).count_ones() != filled {
                        continue;
                    }
                    let mut kept = discs as u8;
                    let empty = (lines - 1) & !(discs | others);
                    for sq in (0..len).filter(|sq| empty >> sq & 1 == 1) {
                        // The first colour places, then the other.
                        let f = line_flips(discs, others, sq, len);
                        kept &= stable[index(discs | f | 1 << sq, others & !f)];
                        let f = line_flips(others, discs, sq, len);
                        kept &= stable[index(discs & !f, others | f | 1 << sq)];
                    }
                    stable[index(discs, others)] = kept;
                }
            }
        }
        EdgeTable { len, stable }
    }
}

/// The discs of `others` that a placement of `mover` on square `sq` of a line of `len` squares
/// brackets.
fn line_flips(mover: u32, others: u32, sq: u32, len: u32) -> u32 {
    let mut flips = 0;
    for dir in [-1i32, 1] {
        let mut run = 0;
        let mut at = sq as i32 + dir;
        while (0..len as i32).contains(&at) && others >> at & 1 == 1 {
            run |= 1 << at;
            at += dir;
        }
        if (0..len as i32).contains(&at) && mover >> at & 1 == 1 {
            flips |= run;
        }
    }
    flips
}

static EDGE_8: LazyLock<EdgeTable> = LazyLock::new(|| EdgeTable::build(8));
static EDGE_6: LazyLock<EdgeTable> = LazyLock::new(|| EdgeTable::build(6));
static EDGE_4: LazyLock<EdgeTable> = LazyLock::new(|| EdgeTable::build(4));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::othello::stable_discs;

    fn xorshift(x: &mut u64) -> u64 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    /// The generic full lines, square by square.
    fn full_lines_slowly(occupied: u64) -> [u64; 4] {
        let mut out = [0u64; 4];
        for (d, (dr, dc)) in [(0, 1), (1, 0), (1, 1), (1, -1)].into_iter().enumerate() {
            for sq in 0..64 {
                let (r, c) = (sq / 8, sq % 8);
                let mut full = occupied >> sq & 1 == 1;
                for sign in [-1, 1] {
                    let (mut rr, mut cc) = (r + sign * dr, c + sign * dc);
                    while (0..8).contains(&rr) && (0..8).contains(&cc) {
                        full &= occupied >> (rr * 8 + cc) & 1 == 1;
                        (rr, cc) = (rr + sign * dr, cc + sign * dc);
                    }
                }
                if full {
                    out[d] |= 1 << sq;
                }
            }
        }
        out
    }

    #[test]
    fn full_lines_match_a_square_by_square_walk() {
        let mut x = 0x1234_5678_9ABC_DEF1u64;
        for _ in 0..20_000 {
            // Mostly full boards, so that full lines are common.
            let occupied = !(xorshift(&mut x) & xorshift(&mut x) & xorshift(&mut x));
            let (h, v, d9, d7) = full_lines(occupied);
            assert_eq!([h, v, d9, d7], full_lines_slowly(occupied), "{occupied:#x}");
        }
    }

    #[test]
    fn column_bytes_round_trip() {
        for byte in 0..=255u8 {
            let column = COLUMN_OF_BYTE[byte as usize];
            assert_eq!(column_byte(column), byte);
            assert_eq!(
                column_byte(column | NOT_A),
                byte,
                "other columns are ignored"
            );
        }
    }

    #[test]
    fn edge_table_knows_the_plain_cases() {
        let table = &*EDGE_8;
        // A full line: everything stands.
        assert_eq!(table.get(0b1010_1010, 0b0101_0101), 0b1010_1010);
        // Corners always stand; so does a run from a corner.
        assert_eq!(table.get(0b0000_0111, 0), 0b0000_0111);
        assert_eq!(table.get(0b1000_0001, 0), 0b1000_0001);
        // A lone disc off the corners can be bracketed.
        assert_eq!(table.get(0b0001_0000, 0), 0);
        // X O X X X X X . (a to h): an O on h brackets c..g against the O on b, so only the
        // corner X stands; the O on b has no empty neighbour and can never be bracketed.
        assert_eq!(table.get(0b0111_1101, 0b0000_0010), 0b0000_0001);
        assert_eq!(table.get(0b0000_0010, 0b0111_1101), 0b0000_0010);
    }

    #[test]
    fn edge_stable_discs_never_flip_in_random_play_along_the_line() {
        for (table, len) in [(&*EDGE_8, 8), (&*EDGE_6, 6), (&*EDGE_4, 4)] {
            let full = (1u32 << len) - 1;
            let mut x = 0xFEED_FACE_CAFE_BEEFu64;
            for _ in 0..20_000 {
                let filled = xorshift(&mut x) as u32 & full;
                let discs = filled & xorshift(&mut x) as u32;
                let others = filled & !discs;
                let stable = table.get(discs as u8, others as u8) as u32;
                assert_eq!(stable & !discs, 0);
                let (mut d, mut o) = (discs, others);
                while d | o != full {
                    let empty: Vec<u32> = (0..len).filter(|s| (d | o) >> s & 1 == 0).collect();
                    let sq = empty[(xorshift(&mut x) % empty.len() as u64) as usize];
                    if xorshift(&mut x) & 1 == 0 {
                        let f = line_flips(d, o, sq, len);
                        (d, o) = (d | f | 1 << sq, o & !f);
                    } else {
                        let f = line_flips(o, d, sq, len);
                        (d, o) = (d & !f, o | f | 1 << sq);
                    }
                    assert_eq!(d & stable, stable, "{len}: {discs:08b} {others:08b}");
                }
            }
        }
    }

    /// Growing into the inside only finds what growing over the whole board from the same seed
    /// finds (no edge disc beyond the edge table's, no neighbour lost to a shift that wraps).
    #[test]
    fn growing_inside_finds_what_growing_everywhere_finds() {
        let mut x = 0x5EED_0F57_AB1E_D15Cu64;
        for (board, inside) in [(!0, INSIDE_8), (BOARD_6, INSIDE_6), (BOARD_4, INSIDE_4)] {
            for _ in 0..20_000 {
                let occupied = !(xorshift(&mut x) & xorshift(&mut x)) & board;
                let discs = occupied & xorshift(&mut x);
                let walls = !board;
                let (h, v, d9, d7) = full_lines(occupied | walls);
                let edges = match board {
                    BOARD_6 => edge_stable::<6>(discs, occupied & !discs),
                    BOARD_4 => edge_stable::<4>(discs, occupied & !discs),
                    _ => edge_stable::<8>(discs, occupied & !discs),
                };
                let seed = discs & (h & v & d9 & d7 | edges);
                let everywhere = grow_stable::<Size8>(discs, [h, v, d9, d7], seed | walls);
                assert_eq!(
                    stable_discs8(discs, occupied, board),
                    everywhere & board,
                    "{discs:#x} {occupied:#x} on {board:#x}"
                );
                assert_eq!(inside & !board, 0);
            }
        }
    }

    #[test]
    fn at_least_the_generic_stable_discs_on_random_positions() {
        let mut x = 0x0DDB_A11C_AFE5_EED5u64;
        for _ in 0..20_000 {
            let occupied = !(xorshift(&mut x) & xorshift(&mut x));
            let discs = occupied & xorshift(&mut x);
            let generic = stable_discs::<Size8>(discs, occupied);
            let fast = stable_discs8(discs, occupied, !0);
            assert_eq!(fast & generic, generic, "{discs:#x} {occupied:#x}");
            assert_eq!(fast & !discs, 0);
        }
    }

    /// Random positions of the `side`×`side` board in the corner of the layout: the fast stable
    /// discs hold the generic ones, and only discs of the colour asked.
    fn at_least_the_generic_ones_in_the_corner<G: crate::rules::Geometry<Bits = u64>>(side: u32) {
        let squares = side * side;
        // Square (r, c) of the board: bit side·r + c there, 8r + c in the 8×8 layout.
        let to_layout = |bits: u64| {
            (0..squares)
                .filter(|sq| bits >> sq & 1 == 1)
                .fold(0u64, |acc, sq| acc | 1 << (sq / side * 8 + sq % side))
        };
        let all = (1u64 << squares) - 1;
        let board = to_layout(all);
        assert_eq!(board, if side == 6 { BOARD_6 } else { BOARD_4 });
        let mut x = 0x600D_5EED_0F6A_6A6Au64;
        for _ in 0..20_000 {
            let occupied = !(xorshift(&mut x) & xorshift(&mut x)) & all;
            let discs = occupied & xorshift(&mut x);
            let generic = to_layout(stable_discs::<G>(discs, occupied));
            let fast = stable_discs8(to_layout(discs), to_layout(occupied), board);
            assert_eq!(fast & generic, generic, "{side}: {discs:#x} {occupied:#x}");
            assert_eq!(fast & !to_layout(discs), 0);
        }
    }

    #[test]
    fn the_6x6_and_4x4_boards_in_the_corner_hold_the_generic_stable_discs() {
        use crate::rules::geometry::{Size4, Size6};
        at_least_the_generic_ones_in_the_corner::<Size6>(6);
        at_least_the_generic_ones_in_the_corner::<Size4>(4);
    }
}
