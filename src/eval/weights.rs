//! Trained weights of the pattern evaluation and their file format.
//!
//! A weights file is `OTHELWT1`, the board side (u8), the number of phases (u8), the values per
//! phase (u32, little-endian), then every value (i16, centi-discs) phase after phase as a stream of
//! zigzag varints where a 0 is followed by a varint count of zeros in the run (unseen
//! configurations keep weight 0, so most of a table is runs of zeros).

use super::patterns::{Pattern, patterns, pow3};
use std::fmt;

const MAGIC: &[u8; 8] = b"OTHELWT1";

/// The scalar features after the pattern tables: the mobility of the side to move, the
/// opponent's, a constant, and the parity of the empty squares (1 when their number is odd).
///
/// The parity: with the constant alone, a phase of several empty counts gives positions of odd
/// and even counts the same offset, yet who is likely to move last is worth discs near the end.
/// The 8×8 weights of the twelfth session scored exact 20–23 empty positions 1.24 discs too high
/// for the side to move at even counts and 1.83 too low at odd ones (the test set
/// `data/othello-8/testsets/exact-20-24.samples` split by parity).
pub const SCALARS: usize = 4;

/// The scalars of files written before the parity was added (the first three above); such a
/// file is read with a zero parity weight, the evaluation it had.
const SCALARS_BEFORE_PARITY: usize = 3;

/// What is wrong with a weights file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// It does not start with the magic bytes.
    NotWeights,
    /// It ends before its last value.
    Truncated,
    /// Its board side has no pattern evaluation.
    UnsupportedSize(usize),
    /// Its shape differs from the patterns of its board.
    Shape {
        /// Values per phase the patterns need.
        expected: usize,
        /// Values per phase the file holds.
        found: usize,
    },
    /// Bytes follow the last value, or a run of zeros overflows the table.
    Corrupt(&'static str),
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            WeightsError::NotWeights => f.write_str("not an othel weights file (bad magic)"),
            WeightsError::Truncated => f.write_str("weights file is truncated"),
            WeightsError::UnsupportedSize(n) => {
                write!(f, "no pattern evaluation for the {n}x{n} board")
            }
            WeightsError::Shape { expected, found } => write!(
                f,
                "weights file has {found} values per phase, the patterns need {expected}"
            ),
            WeightsError::Corrupt(what) => write!(f, "corrupt weights file: {what}"),
        }
    }
}

impl std::error::Error for WeightsError {}

/// The weights of every phase for one board size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// The board side.
    pub size: usize,
    /// Game phases (by empty squares).
    pub phases: usize,
    /// `phases × stride` values in centi-discs.
    pub values: Vec<i16>,
}

/// The board sides the pattern evaluation supports: Othello's 6, 8, 10, 12, 14 and 16, Lehto's 9.
pub const SUPPORTED: [usize; 7] = [6, 8, 9, 10, 12, 14, 16];

/// Whether the pattern evaluation supports boards of side `size` (see [`SUPPORTED`]).
pub fn supported(size: usize) -> bool {
    SUPPORTED.contains(&size)
}

/// A phase of a board of side `size` spans 2^shift empty counts: 4 up to 8×8, 8 on the larger
/// boards (whose games are longer and whose data is scarcer).
pub fn phase_shift(size: usize) -> u32 {
    if size <= 8 { 2 } else { 3 }
}

/// Phases of a board of side `size`.
pub fn phase_count(size: usize) -> usize {
    phase_count_with(size, phase_shift(size))
}

/// Phases of a board of side `size` when a phase spans 2^`shift` empty counts.
pub fn phase_count_with(size: usize, shift: u32) -> usize {
    ((size * size - 4) >> shift) + 1
}

/// The phase widths a weights file may have, as shifts: a phase of 2, 4 or 8 empty counts (finer
/// phases need more data; the board's default is [`phase_shift`]).
pub const PHASE_SHIFTS: std::ops::RangeInclusive<u32> = 1..=3;

/// The phase of a position with `empties` empty squares (`shift` and `phases` of its board).
#[inline(always)]
pub fn phase_of(empties: usize, shift: u32, phases: usize) -> usize {
    (empties >> shift).min(phases - 1)
}

/// Where each pattern's table starts in a phase, and the values per phase (the scalars last).
pub fn layout(patterns: &[Pattern]) -> (Vec<usize>, usize) {
    let mut offsets = Vec::with_capacity(patterns.len());
    let mut at = 0;
    for p in patterns {
        offsets.push(at);
        at += pow3(p.squares.len());
    }
    (offsets, at + SCALARS)
}

impl Weights {
    /// All-zero weights for a board of side `size`, with its default phases.
    pub fn zero(size: usize) -> Result<Weights, WeightsError> {
        Weights::zero_with(size, phase_shift(size))
    }

    /// All-zero weights for a board of side `size` whose phases span 2^`shift` empty counts.
    pub fn zero_with(size: usize, shift: u32) -> Result<Weights, WeightsError> {
        if !supported(size) {
            return Err(WeightsError::UnsupportedSize(size));
        }
        if !PHASE_SHIFTS.contains(&shift) {
            return Err(WeightsError::Corrupt("unsupported phase width"));
        }
        let phases = phase_count_with(size, shift);
        let (_, stride) = layout(&patterns(size));
        Ok(Weights {
            size,
            phases,
            values: vec![0; phases * stride],
        })
    }

    /// How many empty counts a phase spans, as a shift (the file keeps the number of phases, from
    /// which it follows).
    pub fn phase_shift(&self) -> u32 {
        PHASE_SHIFTS
            .into_iter()
            .find(|&s| phase_count_with(self.size, s) == self.phases)
            .unwrap_or_else(|| phase_shift(self.size))
    }

    /// The same weights over phases of 2^`shift` empty counts: each new phase takes the values of
    /// the old phase holding its first empty count (a prior for a fit of another phase width).
    pub fn with_phase_shift(&self, shift: u32) -> Result<Weights, WeightsError> {
        let mut out = Weights::zero_with(self.size, shift)?;
        let stride = self.stride();
        let (old_shift, old_phases) = (self.phase_shift(), self.phases);
        for phase in 0..out.phases {
            let from = phase_of(phase << shift, old_shift, old_phases);
            out.values[phase * stride..(phase + 1) * stride]
                .copy_from_slice(&self.values[from * stride..(from + 1) * stride]);
        }
        Ok(out)
    }

    /// Values per phase.
    pub fn stride(&self) -> usize {
        self.values.len() / self.phases.max(1)
    }

    /// The file form.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.push(self.size as u8);
        out.push(self.phases as u8);
        out.extend((self.stride() as u32).to_le_bytes());
        let mut i = 0;
        while i < self.values.len() {
            let v = self.values[i];
            put_varint(&mut out, zigzag(v));
            i += 1;
            if v == 0 {
                let run = self.values[i..].iter().take_while(|&&x| x == 0).count();
                put_varint(&mut out, run as u64);
                i += run;
            }
        }
        out
    }

    /// Reads the file form, checking it against the patterns of its board. A file written
    /// before the parity scalar was added reads with a zero weight for it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsError> {
        Weights::read(bytes, false)
    }

    /// Reads a file fitted for the first patterns of its board, before later ones were added
    /// (the 8×8 weights before its triangle and edge block), laying it over all the patterns
    /// with zero tables for the added ones: what a fit of the larger set can start from as its
    /// prior. A file of the whole set is read as [`Weights::from_bytes`] reads it.
    pub fn from_bytes_of_fewer_patterns(bytes: &[u8]) -> Result<Weights, WeightsError> {
        Weights::read(bytes, true)
    }

    /// Reads the file form laid over every pattern and scalar of its board: a file of the board's
    /// first k patterns (all of them unless `fewer_patterns`), with the scalars of now or of
    /// before the parity, gets zero tables and scalars for what it lacks.
    fn read(bytes: &[u8], fewer_patterns: bool) -> Result<Weights, WeightsError> {
        let (size, phases, stride, mut rest) = header(bytes)?;
        let list = patterns(size);
        let (_, full) = layout(&list);
        let first = if fewer_patterns { 1 } else { list.len() };
        // The values of the file's pattern tables and its scalars. (Tables have at least 3^4
        // values, so no two shapes have the same stride.)
        let shape = (first..=list.len())
            .map(|k| layout(&list[..k]).1 - SCALARS)
            .flat_map(|tables| [SCALARS, SCALARS_BEFORE_PARITY].map(|scalars| (tables, scalars)))
            .find(|&(tables, scalars)| tables + scalars == stride);
        let Some((tables, scalars)) = shape else {
            return Err(WeightsError::Shape {
                expected: full,
                found: stride,
            });
        };
        // Read straight into the whole shape's room and widened in place: the 12×12 values take
        // about 19 MB, which a copy would add to the engine's peak memory.
        let mut values = Vec::with_capacity(phases * full);
        take_values(&mut rest, phases * stride, &mut values)?;
        if stride != full {
            let full_tables = full - SCALARS;
            values.resize(phases * full, 0);
            // The first patterns' tables keep their places in a phase; the added ones' go before
            // the scalars, an added scalar after them. Phase by phase from the last, so that
            // each moves to room no phase still to move holds.
            for phase in (0..phases).rev() {
                let (from, to) = (phase * stride, phase * full);
                values.copy_within(from + tables..from + stride, to + full_tables);
                values[to + full_tables + scalars..to + full].fill(0);
                values.copy_within(from..from + tables, to);
                values[to + tables..to + full_tables].fill(0);
            }
        }
        Ok(Weights {
            size,
            phases,
            values,
        })
    }
}

/// The board side, phases and values per phase of a file form, checked as far as they go, and
/// the bytes of its values.
fn header(bytes: &[u8]) -> Result<(usize, usize, usize, &[u8]), WeightsError> {
    if bytes.len() < 14 {
        return Err(if bytes.starts_with(&MAGIC[..bytes.len().min(8)]) {
            WeightsError::Truncated
        } else {
            WeightsError::NotWeights
        });
    }
    if &bytes[..8] != MAGIC {
        return Err(WeightsError::NotWeights);
    }
    let size = bytes[8] as usize;
    if !supported(size) {
        return Err(WeightsError::UnsupportedSize(size));
    }
    let phases = bytes[9] as usize;
    let stride = u32::from_le_bytes([bytes[10], bytes[11], bytes[12], bytes[13]]) as usize;
    if !PHASE_SHIFTS
        .into_iter()
        .any(|s| phase_count_with(size, s) == phases)
    {
        return Err(WeightsError::Corrupt("wrong number of phases"));
    }
    Ok((size, phases, stride, &bytes[14..]))
}

/// Reads the `total` values of a file form's value bytes, which must hold exactly those, into
/// `values` (empty).
fn take_values(rest: &mut &[u8], total: usize, values: &mut Vec<i16>) -> Result<(), WeightsError> {
    while values.len() < total {
        let v = unzigzag(take_varint(rest)?)?;
        values.push(v);
        if v == 0 {
            let run = take_varint(rest)? as usize;
            if values.len() + run > total {
                return Err(WeightsError::Corrupt("a run of zeros overflows the table"));
            }
            values.resize(values.len() + run, 0);
        }
    }
    if !rest.is_empty() {
        return Err(WeightsError::Corrupt("bytes after the last value"));
    }
    Ok(())
}

fn zigzag(v: i16) -> u64 {
    ((v as i64) << 1 ^ ((v as i64) >> 63)) as u64
}

fn unzigzag(u: u64) -> Result<i16, WeightsError> {
    let v = (u >> 1) as i64 ^ -((u & 1) as i64);
    i16::try_from(v).map_err(|_| WeightsError::Corrupt("a value out of range"))
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn take_varint(rest: &mut &[u8]) -> Result<u64, WeightsError> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let (&byte, tail) = rest.split_first().ok_or(WeightsError::Truncated)?;
        *rest = tail;
        v |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(v);
        }
    }
    Err(WeightsError::Corrupt("a varint longer than 64 bits"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Weights {
        let mut w = Weights::zero(6).unwrap();
        let n = w.values.len();
        for (i, v) in w.values.iter_mut().enumerate() {
            if i % 7 == 0 || i > n - 5 {
                *v = (i as i64 % 65_000 - 32_500) as i16;
            }
        }
        w.values[0] = i16::MIN;
        w.values[1] = i16::MAX;
        w
    }

    #[test]
    fn a_file_of_the_first_patterns_is_a_prior_with_zero_tables_for_the_rest() {
        let list = patterns(8);
        let (_, full) = layout(&list);
        let kept = list.len() - 2;
        let (_, stride) = layout(&list[..kept]);
        let phases = phase_count(8);
        let old = Weights {
            size: 8,
            phases,
            values: (0..phases * stride)
                .map(|i| (i % 1000) as i16 - 500)
                .collect(),
        };
        let bytes = old.to_bytes();
        assert_eq!(
            Weights::from_bytes(&bytes),
            Err(WeightsError::Shape {
                expected: full,
                found: stride
            })
        );
        let wide = Weights::from_bytes_of_fewer_patterns(&bytes).unwrap();
        assert_eq!((wide.size, wide.phases, wide.stride()), (8, phases, full));
        let tables = stride - SCALARS;
        for (new, old) in wide.values.chunks(full).zip(old.values.chunks(stride)) {
            assert_eq!(new[..tables], old[..tables]);
            assert!(new[tables..full - SCALARS].iter().all(|&v| v == 0));
            assert_eq!(new[full - SCALARS..], old[tables..]);
        }
        // A file of the whole set reads as it is; one of no prefix's shape is refused.
        let whole = Weights::zero(8).unwrap();
        assert_eq!(
            Weights::from_bytes_of_fewer_patterns(&whole.to_bytes()),
            Ok(whole)
        );
        let odd = Weights {
            size: 8,
            phases,
            values: vec![1; phases * (stride + 1)],
        };
        assert!(matches!(
            Weights::from_bytes_of_fewer_patterns(&odd.to_bytes()),
            Err(WeightsError::Shape { .. })
        ));
    }

    #[test]
    fn a_file_from_before_the_parity_reads_with_a_zero_parity_weight() {
        for size in SUPPORTED {
            let (_, full) = layout(&patterns(size));
            let stride = full - 1;
            let phases = phase_count(size);
            let old = Weights {
                size,
                phases,
                values: (0..phases * stride)
                    .map(|i| (i % 999) as i16 - 499)
                    .collect(),
            };
            let bytes = old.to_bytes();
            for read in [Weights::from_bytes, Weights::from_bytes_of_fewer_patterns] {
                let new = read(&bytes).unwrap();
                assert_eq!((new.size, new.phases, new.stride()), (size, phases, full));
                for (new, old) in new.values.chunks(full).zip(old.values.chunks(stride)) {
                    assert_eq!(new[..stride], old[..]);
                    assert_eq!(new[stride], 0);
                }
            }
        }
        // Fewer patterns and no parity: both added, in their places.
        let list = patterns(8);
        let (_, full) = layout(&list);
        let (_, prefix) = layout(&list[..list.len() - 2]);
        let stride = prefix - 1;
        let phases = phase_count(8);
        let old = Weights {
            size: 8,
            phases,
            values: (0..phases * stride).map(|i| (i % 7) as i16 + 1).collect(),
        };
        let new = Weights::from_bytes_of_fewer_patterns(&old.to_bytes()).unwrap();
        let tables = prefix - SCALARS;
        for (new, old) in new.values.chunks(full).zip(old.values.chunks(stride)) {
            assert_eq!(new[..tables], old[..tables]);
            assert!(new[tables..full - SCALARS].iter().all(|&v| v == 0));
            assert_eq!(new[full - SCALARS..full - 1], old[tables..]);
            assert_eq!(new[full - 1], 0);
        }
    }

    #[test]
    fn weights_survive_the_file_form() {
        let w = sample();
        assert_eq!(Weights::from_bytes(&w.to_bytes()), Ok(w));
        let zero = Weights::zero(8).unwrap();
        let bytes = zero.to_bytes();
        assert!(
            bytes.len() < 100,
            "runs of zeros are short: {}",
            bytes.len()
        );
        assert_eq!(Weights::from_bytes(&bytes), Ok(zero));
        for size in SUPPORTED.into_iter().filter(|&size| size > 8) {
            let mut w = Weights::zero(size).unwrap();
            assert_eq!(w.phases, phase_count(size));
            let last = w.values.len() - 1;
            w.values[last] = -7;
            assert_eq!(Weights::from_bytes(&w.to_bytes()), Ok(w));
        }
    }

    #[test]
    fn phases_cover_every_empty_count() {
        for size in SUPPORTED {
            let (shift, phases) = (phase_shift(size), phase_count(size));
            // Lehto's positions go down to 0 empties from a full board's worth.
            let most = if size % 2 == 1 {
                size * size
            } else {
                size * size - 4
            };
            let used: std::collections::BTreeSet<usize> =
                (0..=most).map(|e| phase_of(e, shift, phases)).collect();
            assert_eq!(used, (0..phases).collect());
        }
        assert_eq!(phase_count(8), 16);
        assert_eq!(phase_count(10), 13);
    }

    #[test]
    fn a_file_keeps_its_phase_width() {
        // 2, 4 and 8 empty counts a phase: the number of phases tells them apart.
        for shift in PHASE_SHIFTS {
            let mut w = Weights::zero_with(8, shift).unwrap();
            assert_eq!(w.phases, phase_count_with(8, shift));
            let last = w.values.len() - 1;
            w.values[last] = 5;
            let read = Weights::from_bytes(&w.to_bytes()).unwrap();
            assert_eq!(read.phase_shift(), shift);
            assert_eq!(read, w);
        }
        assert!(Weights::zero_with(8, 4).is_err());
        // Another count of phases is refused.
        let mut bytes = Weights::zero(8).unwrap().to_bytes();
        bytes[9] = 20;
        assert_eq!(
            Weights::from_bytes(&bytes),
            Err(WeightsError::Corrupt("wrong number of phases"))
        );
        // Laid over finer phases, each takes the phase holding its first empty count.
        let mut coarse = Weights::zero(8).unwrap();
        let stride = coarse.stride();
        for phase in 0..coarse.phases {
            coarse.values[phase * stride] = phase as i16 + 1;
        }
        let fine = coarse.with_phase_shift(1).unwrap();
        let firsts: Vec<i16> = (0..fine.phases).map(|p| fine.values[p * stride]).collect();
        let expected: Vec<i16> = (0..fine.phases)
            .map(|p| (p / 2).min(15) as i16 + 1)
            .collect();
        assert_eq!(firsts, expected);
    }

    #[test]
    fn damaged_files_are_errors() {
        let bytes = sample().to_bytes();
        assert_eq!(Weights::from_bytes(b"OTHEL"), Err(WeightsError::Truncated));
        assert_eq!(
            Weights::from_bytes(b"hello world, not"),
            Err(WeightsError::NotWeights)
        );
        assert_eq!(
            Weights::from_bytes(&bytes[..bytes.len() - 3]),
            Err(WeightsError::Truncated)
        );
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(
            Weights::from_bytes(&longer),
            Err(WeightsError::Corrupt(_))
        ));
        let mut other_size = bytes.clone();
        other_size[8] = 18;
        assert_eq!(
            Weights::from_bytes(&other_size),
            Err(WeightsError::UnsupportedSize(18))
        );
        let mut shape = bytes;
        shape[10] ^= 1;
        assert!(matches!(
            Weights::from_bytes(&shape),
            Err(WeightsError::Shape { .. })
        ));
    }
}
