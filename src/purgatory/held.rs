//! The slab of held operations: every operation from `try_complete_else_watch` until it is both
//! completed and off every watch list. Ids are generational, so an id kept after its operation
//! left never reaches a newer one, and a watch list entry whose generation is stale is a
//! tombstone.
//!
//! A slot keeps its generation next to the operation and everything a completion reads or
//! writes (completed flag, watch count, memberships, and the op's timer entry): a completion
//! comes at a random moment for a random operation among a million, and each separate array it
//! touched would be one more cache miss. The slab is therefore also the timer's entry store
//! ([`EntryStore`]): an operation's timer entry (its bucket, expiration and scheduling order) sits
//! in its slot, as Kafka's `TimerTaskEntry` hangs off its `DelayedOperation`, and the handle of
//! that entry is the operation's own slot and generation (an operation goes on the timer once at
//! most). A cancel then writes into the slot the completion has just read.
//!
//! The generations are also copied into an array of their own, which only `is_held` reads: the
//! purge's compaction checks millions of watch entries in a row, and reading four bytes per
//! entry instead of a whole slot makes that walk about sixteen times less memory.

use crate::plumbing::hot;
use crate::plumbing::next_fit::{NextFit, RETIRED};
use crate::timer::{BucketRef, EntryStore, TimerHandle};

use super::watchers::Memberships;
use super::{OpId, Timeout};

#[derive(Clone)]
pub(super) struct Held<O> {
    pub op: O,
    pub completed: bool,
    /// The bucket of its live timer entry; `None` before the timer, after a cancel, or after it
    /// fired.
    timer: Option<BucketRef>,
    /// When its timer entry is due, and the order in which it was scheduled (set when it goes on
    /// the timer).
    expiration_ms: u64,
    seq: u64,
    /// How many watch lists still count this op. A completed op is released when this is 0.
    pub watch_count: u32,
    /// The lists it is on, each of which counts its entry as garbage once it completes.
    pub memberships: Memberships,
}

impl<O> Held<O> {
    pub fn new(op: O) -> Self {
        Held {
            op,
            completed: false,
            timer: None,
            expiration_ms: 0,
            seq: 0,
            watch_count: 0,
            memberships: Memberships::default(),
        }
    }
}

#[derive(Clone)]
struct Slot<O> {
    generation: u32,
    held: Option<Held<O>>,
}

#[derive(Clone)]
pub(super) struct Slab<O> {
    slots: Vec<Slot<O>>,
    /// `slots[i].generation`, for `is_held`.
    generations: Vec<u32>,
    next_fit: NextFit,
    /// Operations with a live timer entry (Kafka: the timer's `taskCounter`).
    timed: usize,
}

impl<O> Slab<O> {
    pub fn new() -> Self {
        Slab {
            slots: Vec::new(),
            generations: Vec::new(),
            next_fit: NextFit::default(),
            timed: 0,
        }
    }

    /// Stores a new operation in the next free slot at or after the cursor, or a new slot
    /// (see [`NextFit`]): operations created close in time sit close in memory, and with one
    /// timeout they expire, and are purged, in that same order.
    pub fn insert(&mut self, op: O) -> OpId {
        let slots = &self.slots;
        let found = self.next_fit.place(slots.len(), |slot| {
            let entry = hot::at(slots, slot);
            entry.held.is_none() && entry.generation != RETIRED
        });
        let slot = match found {
            Some(slot) => slot,
            None => {
                self.slots.push(Slot {
                    generation: 0,
                    held: None,
                });
                self.generations.push(0);
                self.slots.len() - 1
            }
        };
        let slot = u32::try_from(slot).expect("at most u32::MAX operations");
        let entry = hot::at_mut(&mut self.slots, slot as usize);
        // Built where it stays: a `Held` moved in whole is a memory copy call in the .wasm.
        entry.held = Some(Held::new(op));
        OpId {
            slot,
            generation: entry.generation,
        }
    }

    /// Drops the operation and makes its id (and every watch entry holding it) stale. A slot
    /// whose generation reaches `RETIRED` is never reused, so an id never aliases a later one
    /// and a matching generation always means the slot is held.
    #[inline(always)]
    pub fn release(&mut self, id: OpId) {
        let entry = hot::at_mut(&mut self.slots, id.slot as usize);
        debug_assert_eq!(entry.generation, id.generation);
        debug_assert!(
            entry.held.as_ref().is_some_and(|h| h.timer.is_none()),
            "a released operation has no live timer entry"
        );
        // Dropped in place: for an operation without drop glue, a write alone.
        entry.held = None;
        entry.generation += 1;
        *hot::at_mut(&mut self.generations, id.slot as usize) = entry.generation;
        self.next_fit.released(entry.generation);
    }

    /// Whether `id` is still held (a watch entry holding it is not a tombstone). Reads only the
    /// generations' copy: a matching generation means the slot is held (see `release`).
    #[inline(always)]
    pub fn is_held(&self, id: OpId) -> bool {
        hot::get(&self.generations, id.slot as usize) == Some(&id.generation)
    }

    #[inline(always)]
    pub fn get(&self, id: OpId) -> Option<&Held<O>> {
        let entry = hot::get(&self.slots, id.slot as usize)?;
        if entry.generation != id.generation {
            return None;
        }
        entry.held.as_ref()
    }

    #[inline(always)]
    pub fn get_mut(&mut self, id: OpId) -> Option<&mut Held<O>> {
        let entry = hot::get_mut(&mut self.slots, id.slot as usize)?;
        if entry.generation != id.generation {
            return None;
        }
        entry.held.as_mut()
    }

    /// Asks for `id`'s slot, which the caller will read soon ([`crate::plumbing::prefetch::touch`]).
    #[inline(always)]
    pub fn touch(&self, id: OpId) {
        if let Some(slot) = hot::get(&self.slots, id.slot as usize) {
            crate::plumbing::prefetch::touch(slot);
        }
    }

    /// `touch`, and also the copy of the slot's generation, which a `release` writes.
    #[inline(always)]
    pub fn touch_for_release(&self, id: OpId) {
        self.touch(id);
        if let Some(generation) = hot::get(&self.generations, id.slot as usize) {
            crate::plumbing::prefetch::touch(generation);
        }
    }

    /// Held operations in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (OpId, &Held<O>)> {
        self.slots.iter().enumerate().filter_map(|(slot, entry)| {
            let id = OpId {
                slot: slot as u32,
                generation: entry.generation,
            };
            entry.held.as_ref().map(|held| (id, held))
        })
    }
}

impl<O> Slab<O> {
    /// Each operation waiting on the timer, in slot order: its entry's expiration and order,
    /// and the operation.
    pub fn timed_iter(&self) -> impl Iterator<Item = (u64, u64, &O)> {
        self.slots
            .iter()
            .filter_map(|slot| slot.held.as_ref().filter(|h| h.timer.is_some()))
            .map(|h| (h.expiration_ms, h.seq, &h.op))
    }

    /// Each operation waiting on the timer, mutably, in slot order.
    pub fn timed_ops_mut(&mut self) -> impl Iterator<Item = &mut O> {
        self.slots
            .iter_mut()
            .filter_map(|slot| slot.held.as_mut().filter(|h| h.timer.is_some()))
            .map(|h| &mut h.op)
    }

    /// The held op in `slot` whose timer entry is live.
    #[inline(always)]
    fn timed(&self, slot: u32) -> &Held<O> {
        let held = hot::at(&self.slots, slot as usize).held.as_ref();
        hot::expect(held.filter(|h| h.timer.is_some()), "a live timer entry")
    }

    #[inline(always)]
    fn timed_mut(&mut self, slot: u32) -> &mut Held<O> {
        let held = hot::at_mut(&mut self.slots, slot as usize).held.as_mut();
        hot::expect(held.filter(|h| h.timer.is_some()), "a live timer entry")
    }

    /// Ends the live timer entry in `slot` (a cancel or an expiry).
    #[inline(always)]
    fn untime(&mut self, slot: u32) -> &mut Held<O> {
        self.timed -= 1;
        let held = self.timed_mut(slot);
        held.timer = None;
        held
    }
}

/// The operations' timer entries, kept in their slots (see the module's documentation).
impl<O> EntryStore for Slab<O> {
    type Task = Timeout;

    fn live(&self) -> usize {
        self.timed
    }

    fn insert(&mut self, task: Timeout, expiration_ms: u64, bucket: BucketRef) -> TimerHandle {
        let held = self
            .get_mut(task.op)
            .expect("an operation goes on the timer while held");
        debug_assert!(held.timer.is_none(), "an operation goes on the timer once");
        held.timer = Some(bucket);
        held.expiration_ms = expiration_ms;
        held.seq = task.seq;
        self.timed += 1;
        TimerHandle::new(task.op.slot, task.op.generation)
    }

    #[inline(always)]
    fn slot_of(&self, handle: TimerHandle) -> Option<u32> {
        let id = OpId {
            slot: handle.slot(),
            generation: handle.generation(),
        };
        self.get(id)
            .is_some_and(|h| h.timer.is_some())
            .then_some(id.slot)
    }

    #[inline(always)]
    fn bucket_of(&self, slot: u32) -> BucketRef {
        hot::expect(self.timed(slot).timer, "timed")
    }

    #[inline(always)]
    fn set_bucket(&mut self, slot: u32, bucket: BucketRef) {
        self.timed_mut(slot).timer = Some(bucket);
    }

    #[inline(always)]
    fn expiration_ms(&self, slot: u32) -> u64 {
        self.timed(slot).expiration_ms
    }

    fn delay_expiration(&mut self, slot: u32, delta_ms: u64) {
        self.timed_mut(slot).expiration_ms += delta_ms;
    }

    #[inline(always)]
    fn cancel(&mut self, handle: TimerHandle) {
        self.untime(handle.slot());
    }

    fn remove(&mut self, slot: u32) -> (TimerHandle, Timeout) {
        let seq = self.untime(slot).seq;
        let op = OpId {
            slot,
            generation: self.slots[slot as usize].generation,
        };
        let task = Timeout { op, seq };
        (TimerHandle::new(op.slot, op.generation), task)
    }

    fn count_live(&self) -> usize {
        self.iter().filter(|(_, h)| h.timer.is_some()).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(slab: &mut Slab<char>, ops: &str) -> Vec<OpId> {
        ops.chars().map(|op| slab.insert(op)).collect()
    }

    #[test]
    fn released_slots_are_reused_in_memory_order_from_the_cursor() {
        let mut slab = Slab::new();
        let first = ids(&mut slab, "abcdefgh");
        for &id in first.iter().rev() {
            slab.release(id);
        }
        assert!(first.iter().all(|&id| !slab.is_held(id)));
        let again = ids(&mut slab, "ijk");
        let slots: Vec<u32> = again.iter().map(|id| id.slot).collect();
        assert_eq!(slots, vec![0, 1, 2], "next fit, not last freed first");
        assert!(again.iter().all(|id| id.generation == 1));
    }

    #[test]
    fn a_small_operation_s_slot_stays_small() {
        // Everything a completion reads and writes, its timer entry included, for an 8-byte
        // operation: the memberships are 16 inline bytes without a pointer, the timer bucket 4
        // (with a niche for `None`). 64 bytes, where the slot (48) and the timer's own record
        // (8) and body (24) took 80 in three arrays.
        assert_eq!(std::mem::size_of::<Slot<u64>>(), 64);
    }

    #[test]
    fn the_slab_grows_rather_than_search_when_few_slots_are_free() {
        let mut slab = Slab::new();
        let first = ids(&mut slab, "abcdefgh");
        slab.release(first[3]);
        slab.release(first[6]);
        // 2 of 8 free is not more than a quarter: a new slot.
        assert_eq!(ids(&mut slab, "x")[0].slot, 8);
        slab.release(first[0]);
        // 3 of 9: the search finds slot 0 first.
        assert_eq!(ids(&mut slab, "y")[0].slot, 0);
    }
}
