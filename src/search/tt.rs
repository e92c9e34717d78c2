//! The transposition table, shared by every search thread without locks.
//!
//! Each entry is two atomic words: the data, and the key XOR the data. A reader that sees a torn
//! entry (one word from one writer, one from another) finds that the XOR no longer gives its key and
//! treats the entry as a miss — the "lockless hashing" of Hyatt and Mann, as chess engines use it.
//! Entries sit in buckets of four; a store replaces the same key, else the least valuable entry
//! (older searches first, then shallower).

use super::table_memory::TableMemory;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// What a stored score means.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true score is at least the stored one.
    Lower,
    /// The true score is at most the stored one.
    Upper,
    /// The stored score is exact.
    Exact,
}

/// The depth recorded for scores searched to the end of the game.
pub const DEPTH_END: u8 = 255;

/// Depth-limited entries are recorded with at most this depth; above it up to [`DEPTH_END`] lie
/// the endgame results of selective passes, `DEPTH_SELECTIVE + level` (see
/// `alphabeta::Selectivity`).
pub const DEPTH_SELECTIVE: u8 = 250;

/// A probed entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// The score (centi-discs).
    pub score: i32,
    /// The depth searched, or [`DEPTH_END`].
    pub depth: u8,
    /// What the score means.
    pub bound: Bound,
    /// The best move found, encoded by the search (`u16::MAX` for none).
    pub best: u16,
    /// The empty squares of the position (what a result to the end cost, for replacement).
    pub empties: u8,
}

/// Scores are stored in 24 bits (centi-discs, far beyond any final score).
const SCORE_MASK: u64 = (1 << 24) - 1;

impl Entry {
    /// How much search the entry stands for: its depth, or its empties when solved to the end.
    fn work(&self) -> i32 {
        if self.depth > DEPTH_SELECTIVE {
            self.empties as i32
        } else {
            self.depth as i32
        }
    }

    fn pack(self, generation: u8) -> u64 {
        let bound = match self.bound {
            Bound::Lower => 1u64,
            Bound::Upper => 2,
            Bound::Exact => 3,
        };
        (self.score as u32 as u64 & SCORE_MASK)
            | (self.empties as u64) << 24
            | (self.depth as u64) << 32
            | bound << 40
            | ((generation & 0x3f) as u64) << 42
            | (self.best as u64) << 48
    }

    fn unpack(data: u64) -> Option<(Entry, u8)> {
        let bound = match (data >> 40) & 3 {
            1 => Bound::Lower,
            2 => Bound::Upper,
            3 => Bound::Exact,
            _ => return None,
        };
        let entry = Entry {
            // Sign-extend the 24-bit score.
            score: ((data as u32) << 8) as i32 >> 8,
            empties: (data >> 24) as u8,
            depth: (data >> 32) as u8,
            bound,
            best: (data >> 48) as u16,
        };
        Some((entry, ((data >> 42) & 0x3f) as u8))
    }
}

/// An entry's two words (all zero: empty).
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 4;

/// A store gives way when every entry of its bucket stands for more than this much more work
/// (empty squares solved, or plies searched; 8 less per search since it was stored). Replacing
/// them anyway cost dearly in long endgame solves, where the entries of 8 to 12 empty squares,
/// stored by the hundred million, flushed out those of 14 to 20 that took thousands of times
/// longer to find: FFO #54 on 1 thread with 64 MB took 5.04 G nodes, against 2.66 G dropping the
/// store beyond a margin of 3, 3.12 G beyond 0 and 4.91 G beyond 8 (and 3.21 G with a 1 GB
/// table, always replacing). FFO #40–#49: 727.6 M → 709.1 M nodes; a midgame search of depth 24
/// in a 1 MB table took 0.4% more.
const KEEP_MARGIN: i32 = 3;

/// A table of buckets indexed by the keys' high bits, of any number of buckets, so that it uses
/// all the memory it is given (a power of two would leave up to half of it unused).
pub struct TranspositionTable {
    slots: TableMemory<Slot>,
    buckets: usize,
    generation: AtomicU64,
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
        })
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for slot in self.slots.iter() {
            slot.check.store(0, Relaxed);
            slot.data.store(0, Relaxed);
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
    /// memory at once (the children's probes of the enhanced transposition cut-off).
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

    /// Stores an entry for `key`: over the key's own entry (unless that one is deeper and of this
    /// search), else over the bucket's least valuable entry, unless even that one stands for more
    /// than [`KEEP_MARGIN`] units of work above the new entry's: then the new entry is dropped.
    #[inline]
    pub fn store(&self, key: u64, entry: Entry) {
        let generation = self.generation();
        let bucket = self.bucket(key);
        let mut victim = &bucket[0];
        let mut victim_value = i32::MAX;
        for slot in bucket {
            let data = slot.data.load(Relaxed);
            if slot.check.load(Relaxed) ^ data == key {
                // Keep a deeper result of the same search, and a result searched to the end over
                // any depth-limited one.
                if let Some((old, old_gen)) = Entry::unpack(data)
                    && old.depth > entry.depth
                    && (old_gen == generation || old.depth == DEPTH_END)
                {
                    return;
                }
                victim = slot;
                victim_value = i32::MIN;
                break;
            }
            let value = match Entry::unpack(data) {
                None => i32::MIN,
                Some((old, old_gen)) => {
                    let age = (generation.wrapping_sub(old_gen) & 0x3f) as i32;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_beyond_the_machine_is_refused_not_fatal() {
        assert!(TranspositionTable::new(usize::MAX).is_none());
        assert!(TranspositionTable::new(1 << 40).is_none());
        assert!(TranspositionTable::new(1).is_some());
    }

    #[test]
    fn entries_round_trip_and_misses_are_misses() {
        let tt = TranspositionTable::new(1).expect("a small table");
        assert!(tt.bytes() <= 1024 * 1024);
        let entry = Entry {
            score: -3150,
            depth: 12,
            bound: Bound::Upper,
            best: 37,
            empties: 20,
        };
        tt.store(0xdead_beef, entry);
        assert_eq!(tt.probe(0xdead_beef), Some(entry));
        assert_eq!(tt.probe(0xdead_beee), None);
        tt.clear();
        assert_eq!(tt.probe(0xdead_beef), None);
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
            score: 1,
            depth: 3,
            bound: Bound::Exact,
            best: 2,
            empties: 40,
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
            let entry = Entry {
                score: i as i32,
                depth: (10 + i) as u8,
                bound: Bound::Exact,
                best: u16::MAX,
                empties: 30,
            };
            tt.store(7 + i * stride, entry);
        }
        assert_eq!(tt.probe(7), None, "the shallowest entry made room");
        assert_eq!(tt.probe(7 + 4 * stride).map(|e| e.depth), Some(14));
    }

    #[test]
    fn a_bucket_of_much_deeper_entries_drops_a_shallow_store() {
        let tt = TranspositionTable::new(1).expect("a small table");
        // Keys this close share their high bits, hence their bucket.
        let stride = 1u64;
        let solved = |empties: u8| Entry {
            score: 0,
            depth: DEPTH_END,
            bound: Bound::Exact,
            best: u16::MAX,
            empties,
        };
        for i in 0..4u64 {
            tt.store(3 + i * stride, solved(20 + i as u8));
        }
        tt.store(3 + 4 * stride, solved(16));
        assert_eq!(tt.probe(3 + 4 * stride), None, "20 empties and more kept");
        assert!(tt.probe(3).is_some());
        tt.store(3 + 5 * stride, solved(17));
        assert_eq!(tt.probe(3 + 5 * stride).map(|e| e.empties), Some(17));
        assert_eq!(
            tt.probe(3),
            None,
            "within the margin, the least valuable made room"
        );
        // The key's own entry is always updated, however deep its neighbours.
        let own = Entry {
            bound: Bound::Lower,
            ..solved(17)
        };
        tt.store(3 + 5 * stride, own);
        assert_eq!(tt.probe(3 + 5 * stride), Some(own));
    }
}
