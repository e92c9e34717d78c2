//! The memory of a large table: zeroed, aligned to a cache line at least (so that a bucket of
//! 64 bytes is one line, which a plain `Vec` does not promise: the allocator's header put every
//! bucket across two lines), and from 2 MB up aligned to 2 MB and marked for the kernel's
//! transparent huge pages, as chess engines allocate their hash tables (Stockfish's
//! `aligned_large_pages_alloc`): a table of 64 MB probed at random then costs a few TLB entries
//! instead of a page walk per probe.
//!
//! On Linux a large table is an anonymous mapping of its own, which the kernel fills with zero
//! pages as they are first touched: a table costs memory only for the part the searches reach, so
//! the default table made before any option arrives (and replaced by `setoption hash=1`) costs
//! nothing, and the process stays within its hash size and the little else it needs. Clearing it
//! (a new game after a search) writes its zeros, touching every page once.

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ops::Deref;
use std::ptr::NonNull;

/// Large enough for huge pages, and their size.
const HUGE_PAGE: usize = 2 * 1024 * 1024;

/// The smallest alignment: a cache line.
const LINE: usize = 64;

/// A fixed-length array of `T` in memory of its own, zeroed.
pub struct TableMemory<T> {
    ptr: NonNull<T>,
    len: usize,
    source: Source,
}

/// Where the memory came from, so that it goes back there.
enum Source {
    /// The global allocator, with this layout.
    Heap(Layout),
    /// A mapping: its start and length (the table lies inside, aligned).
    #[cfg(target_os = "linux")]
    Mapped {
        start: *mut libc::c_void,
        len: usize,
    },
}

// SAFETY: the memory is owned, like a `Box<[T]>`'s; sharing it is sharing `&[T]`.
unsafe impl<T: Send> Send for TableMemory<T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for TableMemory<T> {}

impl<T> TableMemory<T> {
    /// `len` values of `T`, every byte zero; `None` when the memory cannot be had.
    ///
    /// # Safety
    /// All-zero bytes must be a valid `T` (as for atomics and integers).
    pub unsafe fn zeroed(len: usize) -> Option<TableMemory<T>> {
        let size = len.checked_mul(std::mem::size_of::<T>())?.max(1);
        #[cfg(target_os = "linux")]
        if size >= HUGE_PAGE && std::mem::align_of::<T>() <= HUGE_PAGE {
            return Self::mapped(len, size);
        }
        let align = if size >= HUGE_PAGE { HUGE_PAGE } else { LINE }.max(std::mem::align_of::<T>());
        let layout = Layout::from_size_align(size, align).ok()?;
        // SAFETY: the layout's size is not zero.
        let raw = unsafe { alloc_zeroed(layout) };
        let ptr = NonNull::new(raw)?;
        Some(TableMemory {
            ptr: ptr.cast(),
            len,
            source: Source::Heap(layout),
        })
    }

    /// `len` values of `size` bytes in all, in an anonymous mapping aligned to a huge page: zero
    /// pages the kernel supplies as they are touched.
    #[cfg(target_os = "linux")]
    fn mapped(len: usize, size: usize) -> Option<TableMemory<T>> {
        let mapped_len = size.checked_add(HUGE_PAGE)?;
        // SAFETY: a fresh private anonymous mapping; no existing memory is affected.
        let start = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                mapped_len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if start == libc::MAP_FAILED {
            return None;
        }
        let offset = (HUGE_PAGE - start as usize % HUGE_PAGE) % HUGE_PAGE;
        // SAFETY: offset < HUGE_PAGE, so the table's `size` bytes lie inside the mapping.
        let raw = unsafe { start.cast::<u8>().add(offset) };
        // Asked before the pages are first touched, so that they fault in as huge pages. Only
        // advice: where the kernel has none, the table works as before.
        // SAFETY: the range is inside the mapping.
        unsafe { libc::madvise(raw.cast(), size, libc::MADV_HUGEPAGE) };
        Some(TableMemory {
            ptr: NonNull::new(raw)?.cast(),
            len,
            source: Source::Mapped {
                start,
                len: mapped_len,
            },
        })
    }

    /// Sets every byte to zero again, by writing them: the pages stay (or, never touched, become)
    /// resident, so that the searches after a `newgame` do not pay for faulting them in. Handing
    /// them back instead (`MADV_DONTNEED`) left the first search of every game to fault in and
    /// zero its huge pages again: on 64 MB, 30 ms of a 40 ms move.
    ///
    /// # Safety
    /// As for [`TableMemory::zeroed`]: all-zero bytes must be a valid `T`. No reference into the
    /// values may be used meanwhile by another thread except through atomics.
    pub unsafe fn reset(&self) {
        let size = self.len * std::mem::size_of::<T>();
        // SAFETY: `len` values of T, which may be all zeros (the caller's promise).
        unsafe { std::ptr::write_bytes(self.ptr.as_ptr().cast::<u8>(), 0, size) }
    }
}

impl<T> Deref for TableMemory<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `len` zeroed values of T, valid by `zeroed`'s contract, live until drop.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> Drop for TableMemory<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this layout; the values are dropped first.
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(
                self.ptr.as_ptr(),
                self.len,
            ));
            match self.source {
                Source::Heap(layout) => dealloc(self.ptr.as_ptr().cast(), layout),
                #[cfg(target_os = "linux")]
                Source::Mapped { start, len } => {
                    libc::munmap(start, len);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

    #[test]
    fn memory_is_zeroed_aligned_and_usable() {
        for len in [1, 3, 1000, 300_000] {
            // SAFETY: zero is a valid AtomicU64.
            let memory = unsafe { TableMemory::<AtomicU64>::zeroed(len) }.expect("memory");
            assert_eq!(memory.len(), len);
            let address = memory.as_ptr() as usize;
            assert_eq!(address % LINE, 0);
            if len * 8 >= HUGE_PAGE {
                assert_eq!(address % HUGE_PAGE, 0);
            }
            assert!(memory.iter().all(|x| x.load(Relaxed) == 0));
            memory[0].store(5, Relaxed);
            memory[len - 1].store(7, Relaxed);
            assert_eq!(memory[len - 1].load(Relaxed), 7);
            // SAFETY: zero is a valid AtomicU64; nothing else uses the memory.
            unsafe { memory.reset() };
            assert!(memory.iter().all(|x| x.load(Relaxed) == 0));
            memory[len / 2].store(9, Relaxed);
            assert_eq!(memory[len / 2].load(Relaxed), 9);
        }
    }

    #[test]
    fn memory_beyond_the_machine_is_refused() {
        // SAFETY: zero is a valid AtomicU64.
        assert!(unsafe { TableMemory::<AtomicU64>::zeroed(usize::MAX / 4) }.is_none());
        // SAFETY: as above.
        assert!(unsafe { TableMemory::<AtomicU64>::zeroed(1 << 56) }.is_none());
    }
}
