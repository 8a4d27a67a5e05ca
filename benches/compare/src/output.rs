//! The output buffer of the timed rewrite rows, kept from one run to the next (cleared, its
//! room kept) for every rewriter alike.
//!
//! A buffer as large as the document, allocated and freed on every run, made glibc trim the
//! top of the heap and grow it back on every run for some documents (thousands of `brk`
//! calls a second, each run faulting fresh pages in), depending on what else the run happened
//! to allocate: the same work then measured 15-20% apart. Both rewriters write into the same
//! kind of buffer, so keeping it measures their work, not the allocator's trim threshold.

use std::cell::RefCell;

thread_local! {
    static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with the kept buffer, emptied, with room for `room` bytes.
pub fn with_output<R>(room: usize, f: impl FnOnce(&mut Vec<u8>) -> R) -> R {
    OUT.with(|out| {
        let mut out = out.borrow_mut();
        out.clear();
        out.reserve(room);
        f(&mut out)
    })
}
