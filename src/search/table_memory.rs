//! The memory of a large table: zeroed, aligned to a cache line at least (so that a bucket of
//! 64 bytes is one line, which a plain `Vec` does not promise: the allocator's header put every
//! bucket across two lines), and from 2 MB up aligned to 2 MB and marked for the kernel's
//! transparent huge pages, as chess engines allocate their hash tables (Stockfish's
//! `aligned_large_pages_alloc`): a table of 64 MB probed at random then costs a few TLB entries
//! instead of a page walk per probe.

use std::alloc::{Layout, alloc, dealloc};
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
    layout: Layout,
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
        let align = if size >= HUGE_PAGE { HUGE_PAGE } else { LINE }.max(std::mem::align_of::<T>());
        let layout = Layout::from_size_align(size, align).ok()?;
        // SAFETY: the layout's size is not zero.
        let raw = unsafe { alloc(layout) };
        let ptr = NonNull::new(raw)?;
        #[cfg(target_os = "linux")]
        if size >= HUGE_PAGE {
            // Asked before the pages are first touched, so that the zeroing below faults them in
            // as huge pages. Only advice: where the kernel has none, the table works as before.
            // SAFETY: the range is the allocation just made.
            unsafe { libc::madvise(raw.cast(), size, libc::MADV_HUGEPAGE) };
        }
        // SAFETY: the allocation holds `size` bytes.
        unsafe { std::ptr::write_bytes(raw, 0, size) };
        Some(TableMemory {
            ptr: ptr.cast(),
            len,
            layout,
        })
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
            dealloc(self.ptr.as_ptr().cast(), self.layout);
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
            memory[len - 1].store(7, Relaxed);
            assert_eq!(memory[len - 1].load(Relaxed), 7);
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
