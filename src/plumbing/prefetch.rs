//! Asking for memory before it is needed. A loop over items scattered among millions (a purge, a
//! batch of completions) otherwise waits for each cache miss in turn; asking for the items ahead
//! of their turn keeps several loads in flight at once.
//!
//! Natively that is a prefetch instruction a few items ahead, which retires at once: the loop
//! goes on while the line comes. Wasm has no prefetch, and a plain load a few items ahead did not
//! do the same (measured: no gain). Our reading of why: a load holds the processor's reorder
//! window until its data arrives, and with the work of an item or two in between the window
//! fills, so the next miss starts only after this one ends. So in wasm a loop over cold memory
//! runs in batches, the loads of a whole batch issued back to back before its items run, and
//! their misses are in flight together. On Kafka's purgatory workload in Chromium its
//! completions took about 95 ms a replay instead of 250 (natively 78-96; docs/benchmarks.md: "The .wasm: size
//! and speed"). Natively the same batches, with prefetches, were no faster than prefetching
//! eight ahead.

/// How many items a batch holds in wasm (see the module's comment). On the workload's
/// completions, one interleaved run: 250 ms unbatched, 145 at 8, 110 at 16, 95 at 32, 87 at 64.
#[cfg(target_arch = "wasm32")]
const BATCH: usize = 32;

/// What a loop expects of its items' memory, which decides how it asks for it in wasm.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Memory {
    /// Likely cold (random among millions): in wasm the loop runs in batches whose loads
    /// overlap their misses.
    Cold,
    /// Likely cached already (a purge of operations that completed moments ago): in wasm the
    /// extra loads would only cost, and the loop runs plainly.
    Cached,
}

/// Runs `each` on the items in order, with `ask` (a [`touch`] of the memory an item's turn will
/// read) called ahead of each turn: natively `distance` items ahead; in wasm for a batch of
/// `BATCH` items before they run, or not at all (see [`Memory`]). Either way `each` sees every
/// item once, in order.
#[inline(always)]
pub(crate) fn each_asked_ahead<C, T: Copy>(
    cx: &mut C,
    items: &[T],
    distance: usize,
    memory: Memory,
    ask: impl Fn(&C, T),
    mut each: impl FnMut(&mut C, T),
) {
    #[cfg(target_arch = "wasm32")]
    {
        let _ = distance;
        if memory == Memory::Cached {
            for &item in items {
                each(cx, item);
            }
            return;
        }
        for batch in items.chunks(BATCH) {
            for &item in batch {
                ask(cx, item);
            }
            for &item in batch {
                each(cx, item);
            }
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = memory;
    #[cfg(not(target_arch = "wasm32"))]
    for (i, &item) in items.iter().enumerate() {
        if let Some(&ahead) = crate::plumbing::hot::get(items, i + distance) {
            ask(cx, ahead);
        }
        each(cx, item);
    }
}

/// Starts loading the cache lines that hold `value` (its first and last byte: a value of up to
/// 64 bytes that straddles two lines needs both). On x86-64 a prefetch, which reads nothing as
/// far as the program can tell; in wasm two loads whose bytes are kept from the optimisers (see
/// [`each_asked_ahead`]); elsewhere nothing.
#[inline(always)]
pub(crate) fn touch<T>(value: &T) {
    if std::mem::size_of::<T>() == 0 {
        return; // no byte to ask for
    }
    let first = (value as *const T).cast::<u8>();
    let last = first.wrapping_add(std::mem::size_of::<T>().saturating_sub(1));
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: SSE is part of the x86-64 baseline, and a prefetch neither faults nor reads or
        // writes memory as far as the program can tell (both pointers are into a live value
        // besides).
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(first.cast());
            if (first as usize) / 64 != (last as usize) / 64 {
                _mm_prefetch::<_MM_HINT_T0>(last.cast());
            }
        }
    }
    #[cfg(target_arch = "wasm32")]
    {
        use std::mem::MaybeUninit;
        // SAFETY: both pointers are into `value`, a live reference of at least one byte (its
        // first and last byte), read as bytes that may be padding (`MaybeUninit`), which are
        // never looked at. The volatile reads stay through LLVM; binaryen keeps a load because it
        // may trap, so the module must not be optimised with `--ignore-implicit-traps` (`-tnh`;
        // see scripts/build-wasm.sh).
        unsafe {
            std::hint::black_box(std::ptr::read_volatile(first.cast::<MaybeUninit<u8>>()));
            std::hint::black_box(std::ptr::read_volatile(last.cast::<MaybeUninit<u8>>()));
        }
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "wasm32")))]
    let _ = last;
}
