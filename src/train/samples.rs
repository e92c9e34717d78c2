//! Training samples: a position (side to move first) and its score, and their file form.
//!
//! A samples file is `OTHELTS1`, the board side (u8), then 17-byte records: the discs of the side
//! to move (u64, little-endian), the opponent's (u64), the score in discs from the side to move's
//! view (i8). Boards up to 8×8 only: the larger boards' samples are made from games files.

use crate::rules::Bits;
use crate::rules::bits::from_squares;
use std::fmt;
use std::io::{self, Read, Write};

const MAGIC: &[u8; 8] = b"OTHELTS1";
const RECORD: usize = 17;

/// One labelled position, its discs as the bit sets `B` of its board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sample<B = u64> {
    /// Discs of the side to move.
    pub player: B,
    /// Discs of the other side.
    pub opponent: B,
    /// Final disc difference expected for the side to move.
    pub score: i8,
}

impl Sample {
    /// The sample with its discs in the bit sets `B` of its board.
    pub fn widen<B: Bits>(&self) -> Sample<B> {
        Sample {
            player: from_squares(self.player.squares()),
            opponent: from_squares(self.opponent.squares()),
            score: self.score,
        }
    }
}

impl<B: Bits> Sample<B> {
    /// The sample in 64-bit sets, for a samples file: none for a board of more than 64 squares.
    pub fn narrow(&self) -> Option<Sample> {
        let fits = |b: B| b.squares().all(|sq| sq < 64);
        (fits(self.player) && fits(self.opponent)).then(|| Sample {
            player: self.player.low64(),
            opponent: self.opponent.low64(),
            score: self.score,
        })
    }
}

/// What is wrong with a samples file.
#[derive(Debug)]
pub enum SamplesError {
    /// Reading or writing failed.
    Io(io::Error),
    /// It does not start with the magic bytes.
    NotSamples,
    /// Its board side is not the one asked for.
    WrongSize {
        /// The side asked for.
        expected: usize,
        /// The file's side.
        found: usize,
    },
    /// Its length is not a whole number of records.
    Truncated,
}

impl fmt::Display for SamplesError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            SamplesError::Io(e) => write!(f, "{e}"),
            SamplesError::NotSamples => f.write_str("not an othel samples file (bad magic)"),
            SamplesError::WrongSize { expected, found } => write!(
                f,
                "samples are for the {found}x{found} board, not {expected}x{expected}"
            ),
            SamplesError::Truncated => f.write_str("samples file ends inside a record"),
        }
    }
}

impl std::error::Error for SamplesError {}

impl From<io::Error> for SamplesError {
    fn from(e: io::Error) -> Self {
        SamplesError::Io(e)
    }
}

/// The header of a samples file for board side `size`.
pub fn header(size: usize) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.push(size as u8);
    out
}

/// Writes records (after a header written once).
pub fn write_records(out: &mut impl Write, samples: &[Sample]) -> io::Result<()> {
    let mut buf = Vec::with_capacity(samples.len() * RECORD);
    for s in samples {
        buf.extend(s.player.to_le_bytes());
        buf.extend(s.opponent.to_le_bytes());
        buf.push(s.score as u8);
    }
    out.write_all(&buf)
}

/// Reads a whole samples file for board side `size`.
pub fn read(mut input: impl Read, size: usize) -> Result<Vec<Sample>, SamplesError> {
    let mut bytes = Vec::new();
    input.read_to_end(&mut bytes)?;
    if bytes.len() < 9 || &bytes[..8] != MAGIC {
        return Err(SamplesError::NotSamples);
    }
    if bytes[8] as usize != size {
        return Err(SamplesError::WrongSize {
            expected: size,
            found: bytes[8] as usize,
        });
    }
    let body = &bytes[9..];
    if body.len() % RECORD != 0 {
        return Err(SamplesError::Truncated);
    }
    Ok(body
        .chunks_exact(RECORD)
        .map(|r| {
            let word = |at: usize| {
                let mut w = [0u8; 8];
                w.copy_from_slice(&r[at..at + 8]);
                u64::from_le_bytes(w)
            };
            Sample {
                player: word(0),
                opponent: word(8),
                score: r[16] as i8,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_widen_to_larger_bit_sets_and_narrow_back_when_they_fit() {
        let s = Sample {
            player: 0x8000_0000_0000_0001u64,
            opponent: 0x0000_0010_0800_0000,
            score: -9,
        };
        let wide: Sample<u128> = s.widen();
        assert_eq!(wide.player, 0x8000_0000_0000_0001u128);
        assert_eq!(wide.narrow(), Some(s));
        let beyond = Sample {
            player: 1u128 << 99,
            ..wide
        };
        assert_eq!(beyond.narrow(), None);
    }

    #[test]
    fn samples_survive_the_file_form() {
        let samples = vec![
            Sample {
                player: 0x0000_0008_1000_0000,
                opponent: 0x0000_0010_0800_0000,
                score: -4,
            },
            Sample {
                player: u64::MAX >> 1,
                opponent: 1 << 63,
                score: 64,
            },
        ];
        let mut bytes = header(8);
        write_records(&mut bytes, &samples).unwrap();
        assert_eq!(read(bytes.as_slice(), 8).unwrap(), samples);
        assert!(matches!(
            read(bytes.as_slice(), 6),
            Err(SamplesError::WrongSize { .. })
        ));
        assert!(matches!(
            read(&bytes[..bytes.len() - 1], 8),
            Err(SamplesError::Truncated)
        ));
        assert!(matches!(
            read(&b"garbage!!"[..], 8),
            Err(SamplesError::NotSamples)
        ));
    }
}
