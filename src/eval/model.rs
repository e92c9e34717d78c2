//! The trained pattern evaluation: the weights of a board size laid over its pattern instances,
//! ready to score positions. The shipped weights are embedded in the binary; a weights file can be
//! installed instead before the first evaluation (for training the next generation).

use super::lanes::{self, LaneInstance, Lanes};
use super::patterns::{Group, Instance, Source, instances, patterns, pow3};
use super::weights::{SCALARS, Weights, WeightsError, layout, phase_of};
use crate::rules::Bits;
use crate::rules::bits::{Wide, from_squares};
use crate::rules::geometry::Geometry;
use std::any::Any;
use std::sync::OnceLock;

/// One placed pattern, flattened for the evaluation loop.
#[derive(Clone, Copy, Debug)]
struct Placed<B> {
    mask: B,
    /// Start of its bits-to-base-3 table in [`Model::ternary`].
    table: u32,
    /// Start of its pattern's weights within a phase.
    offset: u32,
    group: u8,
}

/// A board size's patterns and trained weights, over the bit sets `B` of that board.
#[derive(Debug)]
pub struct Model<B> {
    size: usize,
    phases: usize,
    phase_shift: u32,
    stride: usize,
    /// The placed patterns, those read from the discs first, then those read from the moves
    /// (from `moves_from` on).
    placed: Vec<Placed<B>>,
    moves_from: usize,
    ternary: Vec<u16>,
    values: Vec<i16>,
    /// The placed patterns laid out for AVX-512 (boards of up to 64 squares, on a CPU that has
    /// it), which [`Model::evaluate`] then sums instead of its scalar loop.
    lanes: Option<Lanes>,
}

/// What the trained evaluation reads of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inputs<B> {
    /// The discs of the side to move.
    pub player: B,
    /// The discs of its opponent.
    pub opponent: B,
    /// The empty squares.
    pub empties: u32,
    /// The count weighed beside the patterns for the side to move (Othello: its mobility; Lehto:
    /// its capture squares).
    pub my_moves: u32,
    /// The same count for the opponent.
    pub their_moves: u32,
    /// The squares where the side to move and where its opponent can play, which the patterns
    /// of [`Source::Moves`] read (empty on the boards without such patterns).
    pub move_sets: [B; 2],
}

/// The feature values of one position: a weight index per pattern instance and the scalars.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// For each instance, the index of its weight within a phase.
    pub indices: Vec<u32>,
    /// The scalar features ([`SCALARS`] of them).
    pub scalars: [i32; SCALARS],
}

/// The scalar features: the mobility of each side, a constant and the parity of the empty
/// squares.
#[inline(always)]
pub fn scalars(my_moves: u32, their_moves: u32, empties: u32) -> [i32; SCALARS] {
    [my_moves as i32, their_moves as i32, 1, (empties & 1) as i32]
}

impl<B: Bits> Model<B> {
    /// Lays `weights` over the patterns of their board.
    pub fn new(weights: Weights) -> Result<Model<B>, WeightsError> {
        if weights.size * weights.size > B::CAPACITY {
            return Err(WeightsError::UnsupportedSize(weights.size));
        }
        let list = patterns(weights.size);
        let (offsets, stride) = layout(&list);
        if weights.stride() != stride || weights.values.len() != stride * weights.phases {
            return Err(WeightsError::Shape {
                expected: stride,
                found: weights.stride(),
            });
        }
        let mut ternary = Vec::new();
        let mut starts: std::collections::HashMap<Vec<u16>, usize> = Default::default();
        let mut placed = Vec::new();
        let mut from_moves = Vec::new();
        for Instance {
            pattern,
            squares,
            ternary: table,
        } in instances(weights.size, &list)
        {
            // Instances with the same table share it.
            let start = *starts.entry(table).or_insert_with_key(|table| {
                ternary.extend_from_slice(table);
                ternary.len() - table.len()
            });
            let group = Group::ALL
                .iter()
                .position(|g| *g == list[pattern].group)
                .unwrap_or(0);
            let p = Placed {
                mask: from_squares(squares),
                table: start as u32,
                offset: offsets[pattern] as u32,
                group: group as u8,
            };
            match list[pattern].source {
                Source::Discs => placed.push(p),
                Source::Moves => from_moves.push(p),
            }
        }
        let moves_from = placed.len();
        placed.extend(from_moves);
        check_layout(&placed, &ternary, stride)?;
        let lanes = lanes_of(&placed, moves_from, &ternary);
        Ok(Model {
            size: weights.size,
            phases: weights.phases,
            phase_shift: weights.phase_shift(),
            stride,
            placed,
            moves_from,
            ternary,
            values: weights.values,
            lanes,
        })
    }

    /// The board side.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Where each pattern instance's table starts within a phase, in the order of
    /// [`Features::indices`].
    pub fn instance_starts(&self) -> Vec<u32> {
        self.placed.iter().map(|p| p.offset).collect()
    }

    /// The features of a position.
    pub fn features(&self, inputs: &Inputs<B>) -> Features {
        Features {
            indices: self
                .runs(inputs)
                .into_iter()
                .flat_map(|(placed, ones, twos)| {
                    placed
                        .iter()
                        .map(move |p| p.offset + self.index(p, ones, twos))
                })
                .collect(),
            scalars: scalars(inputs.my_moves, inputs.their_moves, inputs.empties),
        }
    }

    /// The placed patterns in their two runs, each with the disjoint sets its squares' digits 1
    /// and 2 are read from: those read from the discs, then those read from the moves (a square
    /// both sides can play reads as 1). Disjoint sets keep every index within its pattern's
    /// weights (see `check_layout`).
    #[inline(always)]
    fn runs(&self, inputs: &Inputs<B>) -> [(&[Placed<B>], B, B); 2] {
        let (by_discs, by_moves) = self.placed.split_at(self.moves_from);
        let [mine, theirs] = inputs.move_sets;
        [
            (by_discs, inputs.player, inputs.opponent & !inputs.player),
            (by_moves, mine, theirs & !mine),
        ]
    }

    /// The index of the placed pattern `p`, each square's digit 1 in `ones`, 2 in `twos`, else
    /// 0 (the sets disjoint, as [`Model::runs`] gives them).
    #[inline(always)]
    fn index(&self, p: &Placed<B>, ones: B, twos: B) -> u32 {
        let t = &self.ternary[p.table as usize..];
        t[ones.gather(p.mask) as usize] as u32 + 2 * t[twos.gather(p.mask) as usize] as u32
    }

    #[inline(always)]
    fn phase_values(&self, empties: u32) -> &[i16] {
        let phase = phase_of(empties as usize, self.phase_shift, self.phases);
        &self.values[phase * self.stride..(phase + 1) * self.stride]
    }

    /// The score in centi-discs from the view of `player`, to move.
    ///
    /// Each index is found from scratch: sixteen instances at a time in AVX-512 lanes where the
    /// build has them ([`Lanes`]; on 8×8 about 64 ns a position in `othel bench` against 92 ns, 12%
    /// more nodes a second in its depth-16 search, 10% less time on FFO #40–#49), else by two
    /// extractions and two table reads an instance (about 50 ns a position when the weights are in
    /// cache, 80 ns in an endgame search, when the 8×8 patterns were fewer). Finding the
    /// children's indices from their parent's instead (as Edax and Egaroucid update theirs move by
    /// move), for the endgame's sort at 13–17 empty squares, took 2.4% more time on FFO #40–#49:
    /// the updates, square by square through the instances holding each, cost as much as the
    /// extractions they replace, and the weights' reads remain. Looking up again only the
    /// instances a move changed saved nothing either (+1%), nor did evaluating a node's children
    /// side by side with their weights prefetched (+2.5%), nor putting the weights in huge pages
    /// (−1% and +3% in two runs: noise). Nor did adding each child's move to its parent's indices
    /// (colours swapped) in packed 16-bit lanes, twelve word additions a changed square: the same
    /// evaluations, 0.8% more time on FFO #40–#49 and 3.5% more on #56. What an evaluation costs
    /// in the search is its weights' reads, not its index arithmetic. Its accuracy is what the
    /// sort buys: leaving out the 2×5 corners for the sort took 10% more nodes and 4% more time.
    /// Nor did weights of 8 bits (units of 12 centi-discs, half the memory) read any faster: the
    /// same time per node on FFO #40–#49, and 4.5% more nodes.
    #[inline]
    pub fn evaluate(&self, inputs: &Inputs<B>) -> i32 {
        let w = self.phase_values(inputs.empties);
        if let Some(lanes) = &self.lanes {
            let [(_, ones, twos), (_, mine, theirs)] = self.runs(inputs);
            // SAFETY: `check_layout` proved every instance's weights to end before the phase's
            // scalars, so the value after each lies within `w` too; the lanes were made from the
            // same placed patterns.
            let patterns = unsafe {
                lanes.sum(
                    w,
                    [ones.low64(), twos.low64()],
                    [mine.low64(), theirs.low64()],
                )
            };
            return patterns + self.scalar_terms(w, inputs).iter().sum::<i32>();
        }
        let [discs, moves] = self.runs(inputs);
        self.sum_of(discs, w)
            + self.sum_of(moves, w)
            + self.scalar_terms(w, inputs).iter().sum::<i32>()
    }

    /// The weights, in the phase's values `w`, of the configurations of a run of placed patterns
    /// (see [`Model::runs`]), as [`Model::index`] finds them.
    #[inline(always)]
    fn sum_of(&self, (placed, ones, twos): (&[Placed<B>], B, B), w: &[i16]) -> i32 {
        let ternary = self.ternary.as_ptr();
        let mut sum = 0;
        for p in placed {
            // SAFETY: `check_layout` proved, when the model was made, that the pattern's table
            // (2^n entries from `p.table`, n the squares of its mask) lies within `ternary`, that
            // an extraction by the mask (below 2^n) indexes it, and that for disjoint sets (as
            // `runs` gives them) the index `t[ones] + 2·t[twos]` is below 3^n, its weights lying
            // within the phase's `stride` values of `w` from `p.offset`. Unchecked, an
            // evaluation took 22% less time.
            unsafe {
                let t = ternary.add(p.table as usize);
                let index = *t.add(ones.gather(p.mask) as usize) as usize
                    + 2 * *t.add(twos.gather(p.mask) as usize) as usize;
                sum += *w.get_unchecked(p.offset as usize + index) as i32;
            }
        }
        sum
    }

    /// Each scalar feature times its weight in the phase's values `w`, in the order of
    /// [`scalars`].
    #[inline(always)]
    fn scalar_terms(&self, w: &[i16], inputs: &Inputs<B>) -> [i32; SCALARS] {
        let s = scalars(inputs.my_moves, inputs.their_moves, inputs.empties);
        let base = self.stride - SCALARS;
        std::array::from_fn(|k| w[base + k] as i32 * s[k])
    }

    /// The evaluation split by pattern group, then mobility (the mobility patterns' and the
    /// counts' terms), then the constant with the parity (their sum is [`Model::evaluate`]).
    pub fn parts(&self, inputs: &Inputs<B>) -> [i32; 6] {
        let w = self.phase_values(inputs.empties);
        let mut out = [0; 6];
        for (placed, ones, twos) in self.runs(inputs) {
            for p in placed {
                out[p.group as usize] += w[(p.offset + self.index(p, ones, twos)) as usize] as i32;
            }
        }
        let terms = self.scalar_terms(w, inputs);
        out[4] += terms[0] + terms[1];
        out[5] = terms[2..].iter().sum();
        out
    }
}

/// The lanes of the placed patterns (the first `moves_from` read from the discs, the rest from
/// the moves), each digit's square found from its bit's worth in the pattern's table; none on
/// boards of more than 64 squares or without AVX-512.
fn lanes_of<B: Bits>(placed: &[Placed<B>], moves_from: usize, ternary: &[u16]) -> Option<Lanes> {
    if B::CAPACITY > 64 || !lanes::AVAILABLE {
        return None;
    }
    let instances: Vec<LaneInstance> = placed
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let squares: Vec<usize> = p.mask.squares().collect();
            let mut digits = vec![0u8; squares.len()];
            for (j, &square) in squares.iter().enumerate() {
                let worth = ternary[p.table as usize + (1 << j)] as usize;
                let digit = (0..squares.len()).position(|k| pow3(k) == worth)?;
                digits[digit] = square as u8 + if i < moves_from { 0 } else { 64 };
            }
            Some(LaneInstance {
                digits,
                offset: p.offset,
            })
        })
        .collect::<Option<_>>()?;
    Lanes::new(&instances)
}

/// Checks what [`Model::evaluate`]'s unchecked indexing relies on, for every placed pattern of n
/// squares: its bits-to-base-3 table has its 2^n entries within `ternary`; each square's bit is
/// worth a distinct power of 3 below 3^n and every entry is the sum of its bits' worths (so two
/// disjoint sets of bits give `t[a] + 2·t[b]` < 3^n); and its 3^n weights end before the
/// scalars of a phase of `stride` values.
fn check_layout<B: Bits>(
    placed: &[Placed<B>],
    ternary: &[u16],
    stride: usize,
) -> Result<(), WeightsError> {
    let bad = || WeightsError::Corrupt("pattern layout");
    for p in placed {
        let n = p.mask.count() as usize;
        let start = p.table as usize;
        let t = ternary.get(start..start + (1 << n)).ok_or_else(bad)?;
        let worth: Vec<usize> = (0..n).map(|j| t[1 << j] as usize).collect();
        let mut powers = worth.clone();
        powers.sort_unstable();
        if powers != (0..n).map(pow3).collect::<Vec<_>>() {
            return Err(bad());
        }
        let additive = (0..1usize << n).all(|bits| {
            let sum: usize = (0..n)
                .filter(|j| bits >> j & 1 == 1)
                .map(|j| worth[j])
                .sum();
            t[bits] as usize == sum
        });
        if !additive || p.offset as usize + pow3(n) > stride - SCALARS {
            return Err(bad());
        }
    }
    Ok(())
}

/// The weights shipped with othel, by board side.
fn embedded(size: usize) -> Option<&'static [u8]> {
    match size {
        6 => Some(include_bytes!("../../weights/othello-6.weights")),
        8 => Some(include_bytes!("../../weights/othello-8.weights")),
        9 => Some(include_bytes!("../../weights/lehto-9.weights")),
        10 => Some(include_bytes!("../../weights/othello-10.weights")),
        12 => Some(include_bytes!("../../weights/othello-12.weights")),
        14 => Some(include_bytes!("../../weights/othello-14.weights")),
        16 => Some(include_bytes!("../../weights/othello-16.weights")),
        _ => None,
    }
}

/// The weights shipped with othel for a board side, read.
pub fn embedded_weights(size: usize) -> Option<Weights> {
    Weights::from_bytes(embedded(size)?).ok()
}

static MODEL_6: OnceLock<Option<Model<u64>>> = OnceLock::new();
static MODEL_8: OnceLock<Option<Model<u64>>> = OnceLock::new();
static MODEL_9: OnceLock<Option<Model<u128>>> = OnceLock::new();
static MODEL_10: OnceLock<Option<Model<u128>>> = OnceLock::new();
static MODEL_12: OnceLock<Option<Model<Wide<3>>>> = OnceLock::new();
static MODEL_14: OnceLock<Option<Model<Wide<4>>>> = OnceLock::new();
static MODEL_16: OnceLock<Option<Model<Wide<4>>>> = OnceLock::new();

/// The model slot of a board side, if its bit sets are `B` (each size's slot has its board's
/// type; asked with another, there is none). Inlined with a constant size, the match and the
/// type check fold away.
#[inline(always)]
fn slot<B: Bits>(size: usize) -> Option<&'static OnceLock<Option<Model<B>>>> {
    let any: &'static dyn Any = match size {
        6 => &MODEL_6,
        8 => &MODEL_8,
        9 => &MODEL_9,
        10 => &MODEL_10,
        12 => &MODEL_12,
        14 => &MODEL_14,
        16 => &MODEL_16,
        _ => return None,
    };
    any.downcast_ref()
}

/// The pattern evaluation of a board side whose bit sets are `B`, when it has trained weights.
#[inline]
pub fn model<B: Bits>(size: usize) -> Option<&'static Model<B>> {
    slot::<B>(size)?
        .get_or_init(|| {
            let bytes = embedded(size)?;
            match Weights::from_bytes(bytes).and_then(Model::new) {
                Ok(model) => Some(model),
                Err(e) => {
                    log::error!("embedded {size}x{size} weights unusable: {e}");
                    None
                }
            }
        })
        .as_ref()
}

/// The pattern evaluation of the board `G`, when it has trained weights.
#[inline(always)]
pub fn trained<G: Geometry>() -> Option<&'static Model<G::Bits>> {
    model::<G::Bits>(G::SIZE)
}

/// Why weights could not be installed.
#[derive(Debug)]
pub enum InstallError {
    /// The file is bad.
    Weights(WeightsError),
    /// An evaluation of that size already ran with other weights.
    AlreadyInUse(usize),
}

impl std::fmt::Display for InstallError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            InstallError::Weights(e) => e.fmt(f),
            InstallError::AlreadyInUse(n) => {
                write!(f, "the {n}x{n} evaluation is already in use")
            }
        }
    }
}

impl std::error::Error for InstallError {}

/// Puts `weights` in their size's slot, whose bit sets are `B`.
fn install_in<B: Bits>(weights: Weights) -> Result<(), InstallError> {
    let size = weights.size;
    let slot = slot::<B>(size).ok_or(InstallError::Weights(WeightsError::UnsupportedSize(size)))?;
    let model = Model::new(weights).map_err(InstallError::Weights)?;
    slot.set(Some(model))
        .map_err(|_| InstallError::AlreadyInUse(size))
}

/// The FNV-1a hash of the weights file installed by [`install`], by board side.
static INSTALLED: std::sync::Mutex<Vec<(usize, u32)>> = std::sync::Mutex::new(Vec::new());

fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// Names the weights that evaluate a board side, for the records of games they played:
/// `builtin-HASH` or `file-HASH` (the file's FNV-1a hash), `hand` where there are none.
pub fn weights_id(size: usize) -> String {
    let installed = INSTALLED
        .lock()
        .ok()
        .and_then(|list| list.iter().find(|(s, _)| *s == size).map(|(_, h)| *h));
    match (installed, embedded(size)) {
        (Some(hash), _) => format!("file-{hash:08x}"),
        (None, Some(bytes)) => format!("builtin-{:08x}", fnv1a(bytes)),
        (None, None) => "hand".into(),
    }
}

/// Uses `weights` instead of the embedded ones (before any evaluation of that size).
pub fn install(weights: Weights) -> Result<(), InstallError> {
    let size = weights.size;
    let hash = fnv1a(&weights.to_bytes());
    match size {
        6 | 8 => install_in::<u64>(weights)?,
        9 | 10 => install_in::<u128>(weights)?,
        12 => install_in::<Wide<3>>(weights)?,
        14 | 16 => install_in::<Wide<4>>(weights)?,
        _ => return Err(InstallError::Weights(WeightsError::UnsupportedSize(size))),
    }
    if let Ok(mut list) = INSTALLED.lock() {
        list.push((size, hash));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::patterns::placements;

    fn xorshift(x: &mut u64) -> u64 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    /// Weights where every value differs, so that any index mix-up shows.
    fn distinct(size: usize) -> Weights {
        distinct_with(size, crate::eval::weights::phase_shift(size))
    }

    fn distinct_with(size: usize, shift: u32) -> Weights {
        let mut w = Weights::zero_with(size, shift).unwrap();
        let mut x = 7;
        for v in w.values.iter_mut() {
            *v = (xorshift(&mut x) % 2001) as i16 - 1000;
        }
        w
    }

    /// The evaluation by its definition: walk each placed pattern's squares in the pattern's
    /// order, each square's digit read from the discs or from the move sets as the pattern says.
    fn by_definition<B: Bits>(
        w: &Weights,
        player: B,
        opponent: B,
        my_moves: u32,
        their_moves: u32,
        move_sets: [B; 2],
    ) -> i32 {
        let n = w.size;
        let list = patterns(n);
        let (offsets, stride) = layout(&list);
        let empties = n * n - (player | opponent).count() as usize;
        let phase = (empties >> w.phase_shift()).min(w.phases - 1);
        let values = &w.values[phase * stride..(phase + 1) * stride];
        let mut sum = 0;
        for (p, pattern) in list.iter().enumerate() {
            let (ones, twos) = match pattern.source {
                Source::Discs => (player, opponent),
                Source::Moves => (move_sets[0], move_sets[1]),
            };
            for squares in placements(n, pattern) {
                let index: usize = squares
                    .iter()
                    .enumerate()
                    .map(|(k, &s)| {
                        let digit = if ones.has(s) {
                            1
                        } else if twos.has(s) {
                            2
                        } else {
                            0
                        };
                        digit * pow3(k)
                    })
                    .sum();
                sum += values[offsets[p] + index] as i32;
            }
        }
        let base = stride - SCALARS;
        sum + values[base] as i32 * my_moves as i32
            + values[base + 1] as i32 * their_moves as i32
            + values[base + 2] as i32
            + values[base + 3] as i32 * (empties % 2) as i32
    }

    fn follows_the_definition<B: Bits>(size: usize) {
        follows_the_definition_with::<B>(distinct(size));
    }

    fn follows_the_definition_with<B: Bits>(w: Weights) {
        let size = w.size;
        let model = Model::<B>::new(w.clone()).unwrap();
        // The scalar loop, where the model would sum in lanes.
        let mut scalar = Model::<B>::new(w.clone()).unwrap();
        scalar.lanes = None;
        let mut x = 12345;
        for _ in 0..300 {
            // Random discs, sparse or dense.
            let dense = xorshift(&mut x).is_multiple_of(2);
            let (mut player, mut opponent) = (B::ZERO, B::ZERO);
            for sq in 0..size * size {
                let r = xorshift(&mut x) % 4;
                if r == 0 || (dense && r == 1) {
                    player |= B::bit(sq);
                } else if r == 2 || (dense && r == 3) {
                    opponent |= B::bit(sq);
                }
            }
            let empties = size as u32 * size as u32 - (player | opponent).count();
            let (m, t) = (xorshift(&mut x) as u32 % 20, xorshift(&mut x) as u32 % 20);
            // Move sets that overlap (squares both sides can play) as well as not.
            let (mut mine, mut theirs) = (B::ZERO, B::ZERO);
            for sq in 0..size * size {
                match xorshift(&mut x) % 5 {
                    0 => mine |= B::bit(sq),
                    1 => theirs |= B::bit(sq),
                    2 => {
                        mine |= B::bit(sq);
                        theirs |= B::bit(sq);
                    }
                    _ => {}
                }
            }
            let sets = [mine, theirs];
            let expected = by_definition(&w, player, opponent, m, t, sets);
            let inputs = Inputs {
                player,
                opponent,
                empties,
                my_moves: m,
                their_moves: t,
                move_sets: sets,
            };
            assert_eq!(model.evaluate(&inputs), expected);
            assert_eq!(scalar.evaluate(&inputs), expected);
            assert_eq!(model.parts(&inputs).iter().sum::<i32>(), expected);
        }
    }

    #[test]
    fn the_fast_evaluation_follows_the_definition() {
        follows_the_definition::<u64>(6);
        follows_the_definition::<u64>(8);
        follows_the_definition::<u128>(9);
        follows_the_definition::<u128>(10);
        follows_the_definition::<Wide<3>>(12);
        // Phases of 2 and 8 empty counts on 8×8.
        follows_the_definition_with::<u64>(distinct_with(8, 1));
        follows_the_definition_with::<u64>(distinct_with(8, 3));
    }

    #[test]
    fn boards_of_up_to_64_squares_sum_in_lanes_where_the_build_has_avx512() {
        if !lanes::AVAILABLE {
            println!("skipped in part: this build has no AVX-512 (VBMI, VNNI), so no lanes");
        }
        for size in [6, 8] {
            let model = Model::<u64>::new(distinct(size)).unwrap();
            assert_eq!(model.lanes.is_some(), lanes::AVAILABLE);
        }
        assert!(Model::<u128>::new(distinct(10)).unwrap().lanes.is_none());
    }

    #[test]
    fn a_model_needs_bit_sets_that_hold_its_board() {
        assert!(matches!(
            Model::<u64>::new(Weights::zero(10).unwrap()),
            Err(WeightsError::UnsupportedSize(10))
        ));
        // Each size's slot has its board's bit sets.
        assert!(slot::<u64>(8).is_some());
        assert!(slot::<u128>(8).is_none());
        assert!(slot::<u128>(9).is_some());
        assert!(slot::<u128>(10).is_some());
        assert!(slot::<Wide<3>>(12).is_some());
    }

    #[test]
    fn the_layout_check_refuses_tables_the_unchecked_loop_could_overrun() {
        let model = Model::<u64>::new(distinct(8)).unwrap();
        let (placed, stride) = (&model.placed, model.stride);
        assert!(check_layout(placed, &model.ternary, stride).is_ok());
        // A table cut short, an entry that is not the sum of its bits' worths, a worth repeated,
        // and weights running into the scalars.
        let short = &model.ternary[..model.ternary.len() - 1];
        assert!(check_layout(placed, short, stride).is_err());
        let mut ternary = model.ternary.clone();
        ternary[placed[0].table as usize + 3] += 1;
        assert!(check_layout(placed, &ternary, stride).is_err());
        let mut ternary = model.ternary.clone();
        ternary[placed[0].table as usize + 2] = 1;
        assert!(check_layout(placed, &ternary, stride).is_err());
        let mut moved = placed.clone();
        let last = moved.iter().map(|p| p.offset).max().unwrap();
        moved[0].offset = last + 1;
        assert!(check_layout(&moved, &model.ternary, stride).is_err());
    }
}
