//! Asking for memory before it is needed. A loop over items scattered among millions (a purge, a
//! batch of completions) otherwise waits for each cache miss in turn; asking for the items ahead
//! of their turn keeps several loads in flight at once.
//!
//! Natively that is a prefetch instruction a few items ahead: it retires at once, so the loop
//! goes on while the line comes. Wasm has no prefetch, and a plain load a few items ahead does
//! not do the same: a load holds the processor's reorder window until its data arrives, and with
//! the work of an item or two in between, the window fills and the next miss starts only after
//! this one ends. So in wasm the loop runs in batches, the loads of a whole batch issued back to
//! back before its items run: their misses are in flight together. Measured on Kafka's purgatory
//! workload in Chromium, its completions took 95 ms instead of 250 (natively 78; README: "The
//! .wasm: size and speed").

/// How many items a batch holds in wasm (see the module's comment). On the workload's
/// completions: 250 ms unbatched, 145 at 8, 110 at 16, 95 at 32, 87 at 64 (natively 78).
#[cfg(target_arch = "wasm32")]
const BATCH: usize = 32;

/// Whether a loop in wasm asks for its items' memory in batches (see the module's comment).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum InWasm {
    /// The items' memory is likely cold: the batch's loads overlap their misses.
    Batches,
    /// It is likely in the cache already (a purge of operations that completed moments ago):
    /// the extra loads would only cost, and the loop runs plainly.
    Plain,
}

/// Runs `each` on the items in order, with `ask` (a [`touch`] of the memory an item's turn will
/// read) called ahead of each turn: natively `distance` items ahead; in wasm by batches of
/// [`BATCH`], or not at all (see [`InWasm`]).
#[inline(always)]
pub(crate) fn each_asked_ahead<C, T: Copy>(
    cx: &mut C,
    items: &[T],
    distance: usize,
    in_wasm: InWasm,
    ask: impl Fn(&C, T),
    mut each: impl FnMut(&mut C, T),
) {
    #[cfg(target_arch = "wasm32")]
    {
        let _ = distance;
        if in_wasm == InWasm::Plain {
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
    let _ = in_wasm;
    #[cfg(not(target_arch = "wasm32"))]
    for (i, &item) in items.iter().enumerate() {
        if let Some(&ahead) = crate::hot::get(items, i + distance) {
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
        // SAFETY: both pointers are into `value`, a live reference (its first and last byte),
        // read as bytes that may be padding (`MaybeUninit`), which are never looked at.
        unsafe {
            std::hint::black_box(std::ptr::read_volatile(first.cast::<MaybeUninit<u8>>()));
            std::hint::black_box(std::ptr::read_volatile(last.cast::<MaybeUninit<u8>>()));
        }
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "wasm32")))]
    let _ = last;
}
