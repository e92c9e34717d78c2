//! The transposition table, shared by every search thread without locks.
//!
//! Each entry is two atomic words: the data, and the key XOR the data. A reader that sees a torn
//! entry (one word from one writer, one from another) finds that the XOR no longer gives its key and
//! treats the entry as a miss — the "lockless hashing" of Hyatt and Mann, as chess engines use it.
//! An entry keeps a lower and an upper bound of its position's score. Entries sit in buckets of
//! four; a store merges with or replaces the same key's entry, else the least valuable entry
//! (older searches first, then shallower).

use super::table_memory::TableMemory;
use crate::eval::DISC;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// What a search result says of the true score, in its window (alpha, beta).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true score is at least the result (it failed high: result >= beta).
    Lower,
    /// The true score is at most the result (it failed low: result <= alpha).
    Upper,
    /// The result is the true score.
    Exact,
}

/// The depth recorded for scores searched to the end of the game.
pub const DEPTH_END: u8 = 255;

/// Depth-limited entries are recorded with at most this depth; above it up to [`DEPTH_END`] lie
/// the endgame results of selective passes, `DEPTH_SELECTIVE + level` (see
/// `alphabeta::Selectivity`).
pub const DEPTH_SELECTIVE: u8 = 250;

/// A stored lower bound this low means none is known.
pub const NO_LOWER: i32 = -(1 << 16);
/// A stored upper bound this high means none is known.
pub const NO_UPPER: i32 = (1 << 16) - 1;

/// A probed entry: what the searches of one position at one depth proved of its score, as a lower
/// and an upper bound (both kept, as Edax and Egaroucid keep them: a null-window search that
/// fails high and one that fails low on the same position, common in the endgame's exact pass,
/// together pin it down, where one bound a slot would keep only the last).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// The true score is at least this (centi-discs; [`NO_LOWER`] or below when unknown).
    pub lower: i32,
    /// The true score is at most this (centi-discs; [`NO_UPPER`] or above when unknown).
    pub upper: i32,
    /// The depth searched, or [`DEPTH_END`].
    pub depth: u8,
    /// The best move found, encoded by the search (`u16::MAX` for none).
    pub best: u16,
    /// What an endgame result cost ([`endgame_cost`]), for replacement; 0 for a depth-limited one
    /// (ranked by its depth).
    pub cost: u8,
}

/// Scores are stored in 17 bits, far beyond any final score in centi-discs (361 squares).
const SCORE_BITS: u32 = 17;
const SCORE_MASK: u64 = (1 << SCORE_BITS) - 1;
/// Move codes are stored in 9 bits: squares up to 508, and the three special codes on top.
const BEST_BITS: u32 = 9;
const BEST_SPECIAL: u16 = (1 << BEST_BITS) - 3;
/// Generations in 6 bits, costs in 7 (saturated: they only rank entries for replacement).
const GENERATION_MASK: u8 = 0x3f;
const COST_MAX: u8 = 0x7f;

impl Entry {
    /// The entry a search result makes: `score` found in the window (alpha, beta).
    pub fn from_search(score: i32, alpha: i32, beta: i32, depth: u8, best: u16, cost: u8) -> Entry {
        let (lower, upper) = match bound_of(score, alpha, beta) {
            Bound::Lower => (score, NO_UPPER),
            Bound::Upper => (NO_LOWER, score),
            Bound::Exact => (score, score),
        };
        Entry {
            lower,
            upper,
            depth,
            best,
            cost,
        }
    }

    /// Whether the entry is an endgame search's (to the end, or a selective pass's), not a
    /// depth-limited one's.
    pub fn is_endgame(&self) -> bool {
        self.depth > DEPTH_SELECTIVE
    }

    /// Whether the entry's bounds hold in an endgame search of selectivity `level` (0 for the
    /// exact one): a result to the end always, a selective pass's from that level or a surer one.
    pub fn settles_endgame(&self, level: u8) -> bool {
        self.depth == DEPTH_END || (level > 0 && self.depth >= DEPTH_SELECTIVE + level)
    }

    /// What this entry, a child's, proves of its parent in an endgame pass of selectivity
    /// `level`: the parent is worth at least the child's upper bound negated, in discs (`None`
    /// when the entry does not hold in that pass). The enhanced transposition cut-off's test.
    pub fn parent_lower_bound_in_discs(&self, level: u8) -> Option<i32> {
        self.settles_endgame(level)
            .then(|| -self.in_units(DISC).upper)
    }

    /// Whether the score is known exactly.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    /// The bounds divided by `unit` (centi-discs to discs), unknown ones staying unknown.
    pub fn in_units(&self, unit: i32) -> Entry {
        let scale = |v: i32, none: i32| if v == none { none } else { v.div_euclid(unit) };
        Entry {
            lower: scale(self.lower, NO_LOWER),
            upper: if self.upper == NO_UPPER {
                NO_UPPER
            } else {
                -(-self.upper).div_euclid(unit)
            },
            ..*self
        }
    }

    /// How much search the entry stands for: its depth, or its cost when an endgame result.
    fn work(&self) -> i32 {
        if self.is_endgame() {
            self.cost as i32
        } else {
            self.depth as i32
        }
    }

    fn pack(self, generation: u8) -> u64 {
        // Bounds are saturated towards "unknown": a stored bound is never stronger than the real one.
        let lower = self.lower.clamp(NO_LOWER, NO_UPPER - 1);
        let upper = self.upper.clamp(NO_LOWER + 1, NO_UPPER);
        let best = if self.best >= u16::MAX - 2 {
            BEST_SPECIAL + (self.best - (u16::MAX - 2))
        } else {
            self.best.min(BEST_SPECIAL - 1)
        };
        (lower as u32 as u64 & SCORE_MASK)
            | (upper as u32 as u64 & SCORE_MASK) << SCORE_BITS
            | (self.depth as u64) << 34
            | (best as u64) << 42
            | ((generation & GENERATION_MASK) as u64) << 51
            | (self.cost.min(COST_MAX) as u64) << 57
    }

    fn unpack(data: u64) -> Option<(Entry, u8)> {
        let depth = (data >> 34) as u8;
        if depth == 0 {
            return None;
        }
        // Sign-extend the 17-bit bounds.
        let field =
            |shift: u32| ((data >> shift) as u32 as i32) << (32 - SCORE_BITS) >> (32 - SCORE_BITS);
        let best = ((data >> 42) as u16) & ((1 << BEST_BITS) - 1);
        let entry = Entry {
            lower: field(0),
            upper: field(SCORE_BITS),
            depth,
            best: if best >= BEST_SPECIAL {
                u16::MAX - 2 + (best - BEST_SPECIAL)
            } else {
                best
            },
            cost: (data >> 57) as u8,
        };
        Some((entry, ((data >> 51) as u8) & GENERATION_MASK))
    }
}

/// The depth an endgame entry is stored with: a selective pass's level, or the end (below
/// `MPC_MIN_EMPTIES` nothing is cut selectively, so `selective` is false and the score exact).
pub fn endgame_depth(selective: bool, level: u8) -> u8 {
    if selective {
        DEPTH_SELECTIVE + level
    } else {
        DEPTH_END
    }
}

/// What an endgame result cost, as the table ranks it for replacement: half the bit length of the
/// number of nodes its search took (a unit is a factor of four in nodes). Edax's idea, a hash
/// entry keeping its search's cost. Ranked by empty squares instead, an entry of 24 empties whose
/// search ended at once (its first move cut off, settled by the table) outranked one of 20 that
/// took a million nodes. FFO #53 and #54 on 1 thread with 64 MB: 5.66 G nodes ranked by
/// empties, 5.19 G by this (5.36 G by the whole bit length, 5.24 G by a quarter or three
/// quarters of it, 5.39 G by its mean with the empties). The nodes of a split subtree are those
/// of all the threads.
pub fn endgame_cost(nodes: u64) -> u8 {
    ((64 - nodes.leading_zeros()) / 2).clamp(1, u32::from(COST_MAX)) as u8
}

/// The bound a score makes in the window (alpha, beta).
pub fn bound_of(score: i32, alpha: i32, beta: i32) -> Bound {
    if score >= beta {
        Bound::Lower
    } else if score > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// An entry's two words (all zero: empty).
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 4;

/// A store gives way when every entry of its bucket stands for more than this much more work
/// (units of [`endgame_cost`], or plies searched; 8 less per search since it was stored; these
/// figures are from when endgame results were ranked by their empty squares, on about the same
/// scale: margins of 2 and 4 with the costs change FFO #53 and #54 by 0.1%). Replacing
/// them anyway cost dearly in long endgame solves, where the entries of 8 to 12 empty squares,
/// stored by the hundred million, flushed out those of 14 to 20 that took thousands of times
/// longer to find: FFO #54 on 1 thread with 64 MB took 5.04 G nodes, against 2.66 G dropping the
/// store beyond a margin of 3, 3.12 G beyond 0 and 4.91 G beyond 8 (and 3.21 G with a 1 GB
/// table, always replacing). FFO #40–#49: 727.6 M → 709.1 M nodes; a midgame search of depth 24
/// in a 1 MB table took 0.4% more.
/// A dropped entry kept in a spare slot instead (the last of each bucket taking whatever the other
/// three turn away, as chess engines keep an always-replace slot beside depth-preferred ones):
/// 0.3% more nodes on FFO #40–#49 and 1.5% more on #53 and #54 (5.27 G against 5.19 G; 1 thread,
/// 64 MB, forty-first session).
const KEEP_MARGIN: i32 = 3;

/// A table of buckets indexed by the keys' high bits, of any number of buckets, so that it uses
/// all the memory it is given (a power of two would leave up to half of it unused).
pub struct TranspositionTable {
    slots: TableMemory<Slot>,
    buckets: usize,
    generation: AtomicU64,
    /// Whether anything was stored since the table was made or cleared (else it is all zeros).
    used: AtomicBool,
    /// Whether every page of the table has been touched (by [`TranspositionTable::make_resident`]
    /// or a clear that wrote its zeros).
    resident: AtomicBool,
}

impl TranspositionTable {
    /// A table of at most `megabytes` MB (at least one bucket); `None` when the memory cannot be
    /// had.
    pub fn new(megabytes: usize) -> Option<TranspositionTable> {
        let bytes = megabytes.max(1).checked_mul(1024 * 1024)?;
        let buckets = (bytes / (BUCKET * std::mem::size_of::<Slot>())).max(1);
        // SAFETY: a Slot of two zero atomics is an empty one.
        let slots = unsafe { TableMemory::zeroed(buckets.checked_mul(BUCKET)?) }?;
        Some(TranspositionTable {
            slots,
            buckets,
            generation: AtomicU64::new(0),
            used: AtomicBool::new(false),
            resident: AtomicBool::new(false),
        })
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    /// Forgets everything. A table nothing was stored in since it was made or cleared is left as
    /// it is: its zeros need no writing, and its memory stays untouched (a `newgame` before
    /// `setoption hash=1` costs nothing).
    pub fn clear(&self) {
        if self.used.swap(false, Relaxed) {
            // SAFETY: a Slot of two zero atomics is an empty one; the slots are only ever used
            // through their atomics.
            unsafe { self.slots.reset() };
            self.resident.store(true, Relaxed);
        }
    }

    /// Faults in every page of a table nothing was stored in yet, so that the first search does
    /// not pay for it: a fresh process's first search at 50 ms a move reached depth 2 or 3
    /// instead of 13, its time spent on the kernel zeroing 64 MB as the probes first reached each
    /// page. Called when a front end says a search is coming (`isready`, `newgame`, NBoard's
    /// `ping`, GTP's `clear_board`), as chess engines make their hash on UCI's `isready`. A table
    /// searches have used is left alone (its entries stay; its clear writes every page).
    pub fn make_resident(&self) {
        if self.used.load(Relaxed) || self.resident.swap(true, Relaxed) {
            return;
        }
        // An atomic store is never elided, unlike a load or an add of zero, which map the
        // kernel's shared zero page and leave the first write to fault again. A search that
        // started meanwhile at worst loses an entry (its check word no longer matches its key).
        let per_page = (4096 / std::mem::size_of::<Slot>()).max(1);
        for slot in self.slots.iter().step_by(per_page) {
            slot.check.store(0, Relaxed);
        }
    }

    /// Marks the start of a new search, so that older entries are replaced first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    fn generation(&self) -> u8 {
        (self.generation.load(Relaxed) & 0x3f) as u8
    }

    fn bucket(&self, key: u64) -> &[Slot] {
        // The key times the bucket count, high half: uniform over the buckets, whatever their
        // number (the multiply-shift reduction chess engines use).
        let index = ((key as u128 * self.buckets as u128) >> 64) as usize;
        let start = index * BUCKET;
        &self.slots[start..start + BUCKET]
    }

    /// Starts loading the bucket of `key` into the cache, so that several probes can wait for
    /// memory at once (the children's probes of the enhanced transposition cut-off). Asked for as
    /// non-temporal (`_MM_HINT_NTA`, to keep the buckets from pushing the evaluation's weights out
    /// of the level-2 cache), FFO #40–#49 took 0.3% more time and #56 0.9% less: noise.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot = self.bucket(key).as_ptr();
            // SAFETY: prefetching is only a hint and never faults; the pointer is in bounds.
            unsafe {
                core::arch::x86_64::_mm_prefetch(slot as *const i8, core::arch::x86_64::_MM_HINT_T0)
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for slot in self.bucket(key) {
            let data = slot.data.load(Relaxed);
            if slot.check.load(Relaxed) ^ data == key {
                return Entry::unpack(data).map(|(e, _)| e);
            }
        }
        None
    }

    /// Stores an entry for `key`. Over the key's own entry: merged with it when both are of the
    /// same depth (the bounds of both hold), kept out when that one is deeper and of this search
    /// or solved to the end, else replacing it. Otherwise over the bucket's least valuable entry,
    /// unless even that one stands for more than [`KEEP_MARGIN`] units of work above the new
    /// entry's: then the new entry is dropped.
    #[inline]
    pub fn store(&self, key: u64, entry: Entry) {
        debug_assert!(entry.depth > 0, "depth 0 marks an empty slot");
        if !self.used.load(Relaxed) {
            self.used.store(true, Relaxed);
        }
        let generation = self.generation();
        let bucket = self.bucket(key);
        let mut victim = &bucket[0];
        let mut victim_value = i32::MAX;
        let mut entry = entry;
        for slot in bucket {
            let data = slot.data.load(Relaxed);
            if slot.check.load(Relaxed) ^ data == key {
                if let Some((old, old_gen)) = Entry::unpack(data) {
                    // Keep a deeper result of the same search, and a result searched to the end
                    // over any depth-limited one.
                    if old.depth > entry.depth && (old_gen == generation || old.depth == DEPTH_END)
                    {
                        return;
                    }
                    if old.depth == entry.depth {
                        entry = merged(old, entry);
                    }
                }
                victim = slot;
                victim_value = i32::MIN;
                break;
            }
            let value = match Entry::unpack(data) {
                None => i32::MIN,
                Some((old, old_gen)) => {
                    let age = (generation.wrapping_sub(old_gen) & GENERATION_MASK) as i32;
                    old.work() - 8 * age
                }
            };
            if value < victim_value {
                victim_value = value;
                victim = slot;
            }
        }
        if victim_value > entry.work() + KEEP_MARGIN {
            return;
        }
        let data = entry.pack(generation);
        victim.data.store(data, Relaxed);
        victim.check.store(key ^ data, Relaxed);
    }
}

/// Two results of the same position at the same depth: the bounds of both, and the newer best
/// move unless the newer search only failed low (its best move is then a guess) and the older one
/// had one. Bounds that contradict each other (depth-limited and selective searches are not
/// consistent from one window to another) give way to the newer ones.
fn merged(old: Entry, new: Entry) -> Entry {
    let (lower, upper) = (old.lower.max(new.lower), old.upper.min(new.upper));
    let failed_low = new.lower <= NO_LOWER && new.upper < NO_UPPER;
    let best = if (failed_low || new.best == u16::MAX) && old.best != u16::MAX {
        old.best
    } else {
        new.best
    };
    if lower > upper {
        return Entry { best, ..new };
    }
    Entry {
        lower,
        upper,
        best,
        ..new
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An entry of `score` in the window (alpha, beta).
    fn result(score: i32, alpha: i32, beta: i32, depth: u8, cost: u8) -> Entry {
        Entry::from_search(score, alpha, beta, depth, u16::MAX, cost)
    }

    #[test]
    fn a_table_beyond_the_machine_is_refused_not_fatal() {
        assert!(TranspositionTable::new(usize::MAX).is_none());
        assert!(TranspositionTable::new(1 << 40).is_none());
        assert!(TranspositionTable::new(1).is_some());
    }

    /// The fraction of the table's 4 KB pages that are resident (Linux's `mincore`).
    #[cfg(target_os = "linux")]
    fn resident_fraction(tt: &TranspositionTable) -> f64 {
        const PAGE: usize = 4096;
        let start = tt.slots.as_ptr() as usize;
        let aligned = start - start % PAGE;
        let len = tt.bytes() + (start - aligned);
        let pages = len.div_ceil(PAGE);
        let mut status = vec![0u8; pages];
        // SAFETY: the range lies within the table's own mapping (a multiple of the page size
        // around it); the vector holds a byte per page.
        let rc = unsafe { libc::mincore(aligned as *mut libc::c_void, len, status.as_mut_ptr()) };
        assert_eq!(rc, 0, "mincore failed");
        status.iter().filter(|&&b| b & 1 == 1).count() as f64 / pages as f64
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn make_resident_faults_in_a_fresh_table_and_keeps_a_used_one() {
        let fresh = TranspositionTable::new(16).expect("a 16 MB table");
        assert!(resident_fraction(&fresh) < 0.5, "untouched until asked");
        fresh.make_resident();
        assert!(
            resident_fraction(&fresh) > 0.99,
            "every page after make_resident"
        );
        assert_eq!(fresh.probe(0xdead_beef), None, "still empty");

        let used = TranspositionTable::new(16).expect("a 16 MB table");
        let entry = result(150, -100, 200, 9, 30);
        used.store(0xdead_beef, entry);
        used.make_resident();
        assert_eq!(used.probe(0xdead_beef), Some(entry), "entries stay");
        used.clear();
        assert!(resident_fraction(&used) > 0.99, "a clear writes every page");
        assert_eq!(used.probe(0xdead_beef), None);
    }

    #[test]
    fn entries_round_trip_and_misses_are_misses() {
        let tt = TranspositionTable::new(1).expect("a small table");
        assert!(tt.bytes() <= 1024 * 1024);
        let entry = Entry {
            lower: -3150,
            upper: 2800,
            depth: 12,
            best: 37,
            cost: 20,
        };
        tt.store(0xdead_beef, entry);
        assert_eq!(tt.probe(0xdead_beef), Some(entry));
        assert_eq!(tt.probe(0xdead_beee), None);
        tt.clear();
        assert_eq!(tt.probe(0xdead_beef), None);
    }

    #[test]
    fn fields_round_trip_at_their_limits() {
        let tt = TranspositionTable::new(1).expect("a small table");
        // The largest board: 361 squares, scores of ±36100 centi-discs, move codes up to 360.
        for (lower, upper) in [
            (-36_100, 36_100),
            (NO_LOWER, -36_100),
            (36_100, NO_UPPER),
            (0, 0),
        ] {
            for best in [0, 360, u16::MAX, u16::MAX - 1, u16::MAX - 2] {
                for (depth, cost) in [(1, 0), (DEPTH_SELECTIVE, 127), (DEPTH_END, 60)] {
                    let entry = Entry {
                        lower,
                        upper,
                        depth,
                        best,
                        cost,
                    };
                    tt.store(42, entry);
                    tt.store(43, entry);
                    assert_eq!(tt.probe(42), Some(entry));
                    tt.clear();
                }
            }
        }
        // A cost beyond what 7 bits hold is kept as 127: it only ranks entries.
        let costly = Entry {
            cost: 200,
            ..result(0, -1, 1, DEPTH_END, 0)
        };
        tt.store(7, costly);
        assert_eq!(tt.probe(7).map(|e| e.cost), Some(127));
    }

    #[test]
    fn an_endgame_cost_is_half_the_bit_length_of_its_nodes() {
        assert_eq!(endgame_cost(0), 1);
        assert_eq!(endgame_cost(3), 1);
        assert_eq!(endgame_cost(4), 1);
        assert_eq!(endgame_cost(8), 2);
        assert_eq!(endgame_cost(1_000_000), 10);
        assert_eq!(endgame_cost(4_000_000), 11);
        assert_eq!(endgame_cost(u64::MAX), 32);
    }

    #[test]
    fn a_result_keeps_what_its_window_proved() {
        let high = result(500, 100, 200, 5, 30);
        assert_eq!((high.lower, high.upper), (500, NO_UPPER));
        let low = result(-500, 100, 200, 5, 30);
        assert_eq!((low.lower, low.upper), (NO_LOWER, -500));
        let exact = result(150, 100, 200, 5, 30);
        assert!(exact.is_exact());
        // In discs, the unknown bounds stay unknown, the others are rounded outwards.
        let discs = Entry {
            lower: 250,
            upper: NO_UPPER,
            ..high
        }
        .in_units(100);
        assert_eq!((discs.lower, discs.upper), (2, NO_UPPER));
    }

    #[test]
    fn bounds_of_the_same_depth_are_merged() {
        let tt = TranspositionTable::new(1).expect("a small table");
        let key = 0x1234_5678;
        let fail_high = Entry {
            best: 9,
            ..result(4, 2, 3, DEPTH_END, 20)
        };
        tt.store(key, fail_high);
        let fail_low = Entry {
            best: 11,
            ..result(8, 8, 9, DEPTH_END, 20)
        };
        tt.store(key, fail_low);
        let both = tt.probe(key).expect("stored");
        assert_eq!((both.lower, both.upper), (4, 8), "both bounds kept");
        assert_eq!(
            both.best, 9,
            "a failed-low search keeps the earlier best move"
        );
        // Depth-limited bounds that contradict each other give way to the newer; a solved
        // entry is not replaced by them.
        let other = key + 1;
        tt.store(other, result(50, 40, 60, 10, 20));
        tt.store(other, result(70, 60, 61, 10, 20));
        assert_eq!(
            tt.probe(other).map(|e| (e.lower, e.upper)),
            Some((70, NO_UPPER))
        );
        tt.store(other, result(30, 30, 31, 10, 20));
        assert_eq!(
            tt.probe(other).map(|e| (e.lower, e.upper)),
            Some((NO_LOWER, 30))
        );
        tt.store(key, result(30, 30, 31, 10, 20));
        assert_eq!(tt.probe(key), Some(both));
    }

    #[test]
    fn a_table_uses_the_memory_it_is_given_and_every_key_has_a_bucket() {
        let tt = TranspositionTable::new(100).expect("a 100 MB table");
        assert!(
            tt.bytes() <= 100 << 20 && tt.bytes() > 99 << 20,
            "{}",
            tt.bytes()
        );
        let entry = Entry {
            best: 2,
            ..result(1, 0, 2, 3, 40)
        };
        for key in [1, u64::MAX, u64::MAX / 3, 1 << 63] {
            tt.store(key, entry);
            assert_eq!(tt.probe(key), Some(entry), "{key:#x}");
        }
    }

    #[test]
    fn a_full_bucket_keeps_the_deepest_entries() {
        let tt = TranspositionTable::new(1).expect("a small table");
        // Keys this close share their high bits, hence their bucket.
        let stride = 1u64;
        for i in 0..5u64 {
            tt.store(
                7 + i * stride,
                result(i as i32, -1, 100, (10 + i) as u8, 30),
            );
        }
        assert_eq!(tt.probe(7), None, "the shallowest entry made room");
        assert_eq!(tt.probe(7 + 4 * stride).map(|e| e.depth), Some(14));
    }

    #[test]
    fn a_bucket_of_much_deeper_entries_drops_a_shallow_store() {
        let tt = TranspositionTable::new(1).expect("a small table");
        // Keys this close share their high bits, hence their bucket.
        let stride = 1u64;
        let solved = |cost: u8| result(0, -1, 1, DEPTH_END, cost);
        for i in 0..4u64 {
            tt.store(3 + i * stride, solved(20 + i as u8));
        }
        tt.store(3 + 4 * stride, solved(16));
        assert_eq!(tt.probe(3 + 4 * stride), None, "costs of 20 and more kept");
        assert!(tt.probe(3).is_some());
        tt.store(3 + 5 * stride, solved(17));
        assert_eq!(tt.probe(3 + 5 * stride).map(|e| e.cost), Some(17));
        assert_eq!(
            tt.probe(3),
            None,
            "within the margin, the least valuable made room"
        );
        // The key's own entry is always updated, however deep its neighbours.
        let own = Entry {
            best: 5,
            ..solved(17)
        };
        tt.store(3 + 5 * stride, own);
        assert_eq!(tt.probe(3 + 5 * stride), Some(own));
    }
}
