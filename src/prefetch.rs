//! A hint to the CPU to start loading memory the caller will read soon. A loop over items
//! scattered among millions (a purge, a batch of completions) otherwise waits for each cache miss
//! in turn; asking for the items a few iterations ahead keeps several loads in flight at once.

/// Starts loading the cache lines that hold `value` (its first and last byte: a value of up to
/// 64 bytes that straddles two lines needs both). Only a hint: it reads nothing, changes
/// nothing, and is a no-op off x86-64.
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let first = (value as *const T).cast::<i8>();
        let last = first.wrapping_add(std::mem::size_of::<T>().saturating_sub(1));
        // SAFETY: SSE is part of the x86-64 baseline, and a prefetch neither faults nor reads or
        // writes memory as far as the program can tell (both pointers are into a live value
        // besides).
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(first);
            if (first as usize) / 64 != (last as usize) / 64 {
                _mm_prefetch::<_MM_HINT_T0>(last);
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
