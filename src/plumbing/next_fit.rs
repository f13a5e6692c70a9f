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
        for _ in 0..len {
            let slot = self.cursor;
            self.cursor = (slot + 1) % len;
            if is_free(slot) {
                self.free -= 1;
                return Some(slot);
            }
        }
        // Only a caller that released a slot it had not taken can get here: grow rather than
        // search forever.
        debug_assert!(false, "{} slots counted free, none found", self.free);
        self.free = 0;
        None
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

    /// Slots as a caller keeps them: released ones are free until placed again.
    struct Slots {
        next_fit: NextFit,
        free: Vec<bool>,
    }

    impl Slots {
        fn release(&mut self, slot: usize) {
            self.free[slot] = true;
            self.next_fit.released(1);
        }

        fn place(&mut self) -> Option<usize> {
            let free = &self.free;
            let slot = self.next_fit.place(free.len(), |slot| free[slot])?;
            self.free[slot] = false;
            Some(slot)
        }
    }

    #[test]
    fn grows_while_at_most_a_quarter_is_free_then_searches_from_the_cursor() {
        let mut slots = Slots {
            next_fit: NextFit::default(),
            free: vec![false; 8],
        };
        slots.release(5);
        slots.release(1);
        assert_eq!(slots.place(), None, "2 of 8 free: grow");
        slots.release(6);
        assert_eq!(
            slots.place(),
            Some(1),
            "3 of 8: the first free from the cursor"
        );
        slots.release(3);
        slots.release(1);
        // The cursor went on past slot 1: 3, 5 and 6 come before 1 again.
        assert_eq!(slots.place(), Some(3));
        slots.release(3);
        assert_eq!(slots.place(), Some(5));
        slots.release(5);
        assert_eq!(slots.place(), Some(6));
        slots.release(6);
        assert_eq!(slots.place(), Some(1), "wrapped around");
    }

    #[test]
    fn a_count_of_free_slots_that_drifted_neither_hangs_nor_goes_unnoticed() {
        let placed = std::panic::catch_unwind(|| {
            let mut next_fit = NextFit::default();
            for _ in 0..3 {
                next_fit.released(1);
            }
            next_fit.place(8, |_| false)
        });
        if cfg!(debug_assertions) {
            assert!(placed.is_err(), "a debug build stops at the drift");
        } else {
            assert_eq!(placed.ok(), Some(None), "a release build grows instead");
        }
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
