//! Next-fit placement for generational slabs (the purgatory's held operations, the timer's
//! entries): where a new item goes, and how many released slots can take one.
//!
//! A new item goes in the next free slot at or after a cursor that only moves forwards (wrapping
//! at the end), so items created close in time sit close in memory: with one timeout they leave
//! in about that order too, and the paths that visit them walk memory forwards instead of
//! jumping. The slab grows instead while no more than a quarter of its slots are free, which
//! keeps the search to a few probes per placement on average.
//!
//! Each slab keeps a generation per slot, raised on every release, so that an id kept after its
//! item left never reaches a newer one. A slot whose generation reaches [`RETIRED`] is never
//! reused, so no id ever carries it.

/// The generation of a slot released `u32::MAX` times: never reused, and no id carries it.
pub(crate) const RETIRED: u32 = u32::MAX;

#[derive(Clone, Debug, Default)]
pub(crate) struct NextFit {
    /// Released slots that can be reused (retired ones excluded).
    free: usize,
    /// Where the next search starts.
    cursor: usize,
}

impl NextFit {
    /// Where a new item goes among `len` slots: `None` when the slab should grow by one slot
    /// instead, else the next slot from the cursor for which `is_free` holds (the caller's test:
    /// empty and not retired). The caller then fills that slot.
    #[inline]
    pub fn place(&mut self, len: usize, is_free: impl Fn(usize) -> bool) -> Option<usize> {
        if self.free * 4 <= len {
            return None;
        }
        loop {
            let slot = self.cursor;
            self.cursor = (slot + 1) % len;
            if is_free(slot) {
                self.free -= 1;
                return Some(slot);
            }
        }
    }

    /// A slot was released, its generation raised to `generation`: it can be reused unless it
    /// is now retired.
    #[inline]
    pub fn released(&mut self, generation: u32) {
        if generation != RETIRED {
            self.free += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_while_at_most_a_quarter_is_free_then_searches_from_the_cursor() {
        let mut next_fit = NextFit::default();
        let free = [false, true, false, true, false, false, false, false];
        let is_free = |slot: usize| free[slot];
        next_fit.released(1);
        assert_eq!(next_fit.place(8, is_free), None, "1 of 8 free");
        next_fit.released(1);
        assert_eq!(next_fit.place(8, is_free), None, "2 of 8 free");
        next_fit.released(1);
        assert_eq!(next_fit.place(8, is_free), Some(1));
        // The cursor went on past slot 1, so the search finds 3 next, then wraps to 1 again.
        next_fit.released(1);
        assert_eq!(next_fit.place(8, is_free), Some(3));
        next_fit.released(1);
        next_fit.released(1);
        assert_eq!(next_fit.place(8, is_free), Some(1));
    }

    #[test]
    fn a_retired_slot_is_not_counted_free() {
        let mut next_fit = NextFit::default();
        for _ in 0..4 {
            next_fit.released(RETIRED);
        }
        assert_eq!(next_fit.free, 0);
    }
}
