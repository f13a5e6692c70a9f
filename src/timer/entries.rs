//! A timer's own entry store (Kafka: the `TimerTaskEntry` objects), for tasks that live nowhere
//! else.
//!
//! A handle is a slot index plus a generation, so a stale handle can never reach a newer entry.
//! Each slot is split in two: a small record (generation and bucket) that a cancel, a liveness
//! check or a `locate` reads, and the body (task and expiration) that only an insert, a flush and
//! an expiry touch. The records of a million entries fit in the cache where the bodies would
//! not, so a cancel, which comes at a random moment for a random entry, costs one cache hit
//! instead of a miss. A cancelled entry's body stays where it is until its slot is reused.

use super::store::{BucketRef, EntryStore};
use super::TimerHandle;
use crate::plumbing::next_fit::{NextFit, RETIRED};

/// Kafka: `TimerTaskEntry`, without the list links (a bucket holds handles instead).
#[derive(Clone, Debug)]
pub(super) struct Entry<T> {
    pub task: T,
    pub expiration_ms: u64,
}

#[derive(Clone, Copy, Debug)]
struct Record {
    generation: u32,
    /// The bucket the entry sits in (stale only while a flush re-inserts it); `None` when the
    /// slot is free.
    bucket: Option<BucketRef>,
}

/// A timer's own entry store: a generational slab in two halves.
#[derive(Clone, Debug)]
pub(crate) struct Entries<T> {
    records: Vec<Record>,
    bodies: Vec<Option<Entry<T>>>,
    next_fit: NextFit,
    /// Kafka: `taskCounter`.
    live: usize,
}

impl<T> Default for Entries<T> {
    fn default() -> Self {
        Entries {
            records: Vec::new(),
            bodies: Vec::new(),
            next_fit: NextFit::default(),
            live: 0,
        }
    }
}

impl<T> Entries<T> {
    /// Frees the live entry `handle` names, by a write alone. A slot whose generation reaches
    /// `RETIRED` is never reused.
    fn free_record(&mut self, handle: TimerHandle) {
        let generation = handle.generation() + 1;
        self.records[handle.slot() as usize] = Record {
            generation,
            bucket: None,
        };
        self.next_fit.released(generation);
        self.live -= 1;
    }

    fn handle(&self, slot: u32) -> TimerHandle {
        TimerHandle::new(slot, self.records[slot as usize].generation)
    }

    pub(super) fn get(&self, handle: TimerHandle) -> Option<&Entry<T>> {
        self.slot_of(handle).map(|slot| self.entry(slot))
    }

    pub(super) fn get_mut(&mut self, handle: TimerHandle) -> Option<&mut Entry<T>> {
        let slot = self.slot_of(handle)?;
        self.bodies[slot as usize].as_mut()
    }

    fn entry(&self, slot: u32) -> &Entry<T> {
        self.bodies[slot as usize]
            .as_ref()
            .expect("a live entry has a body")
    }
}

impl<T> EntryStore for Entries<T> {
    type Task = T;

    fn live(&self) -> usize {
        self.live
    }

    /// Stores a new entry in the next free slot, or a new slot (see [`NextFit`]: entries added
    /// close in time sit close in memory, so a bucket's flush, which visits them in the order
    /// they were added, walks forwards), and returns its handle; the caller puts the handle in
    /// `bucket`.
    fn insert(&mut self, task: T, expiration_ms: u64, bucket: BucketRef) -> TimerHandle {
        let records = &self.records;
        let found = self.next_fit.place(records.len(), |slot| {
            records[slot].bucket.is_none() && records[slot].generation != RETIRED
        });
        let slot = match found {
            Some(slot) => slot,
            None => {
                self.records.push(Record {
                    generation: 0,
                    bucket: None,
                });
                self.bodies.push(None);
                self.records.len() - 1
            }
        };
        let slot = u32::try_from(slot)
            .ok()
            .filter(|&slot| slot != u32::MAX)
            .expect("fewer than u32::MAX timer entries");
        self.bodies[slot as usize] = Some(Entry {
            task,
            expiration_ms,
        });
        let record = &mut self.records[slot as usize];
        record.bucket = Some(bucket);
        self.live += 1;
        TimerHandle::new(slot, record.generation)
    }

    fn slot_of(&self, handle: TimerHandle) -> Option<u32> {
        let record = self.records.get(handle.slot() as usize)?;
        (record.generation == handle.generation() && record.bucket.is_some())
            .then_some(handle.slot())
    }

    fn bucket_of(&self, slot: u32) -> BucketRef {
        self.records[slot as usize]
            .bucket
            .expect("a live entry sits in a bucket")
    }

    fn set_bucket(&mut self, slot: u32, bucket: BucketRef) {
        self.records[slot as usize].bucket = Some(bucket);
    }

    fn expiration_ms(&self, slot: u32) -> u64 {
        self.entry(slot).expiration_ms
    }

    fn delay_expiration(&mut self, slot: u32, delta_ms: u64) {
        let entry = self.bodies[slot as usize]
            .as_mut()
            .expect("a live entry has a body");
        entry.expiration_ms += delta_ms;
    }

    /// Frees a live entry, leaving its body in place. Only writes its record: nothing is read
    /// from a slot that may be anywhere in a million (the caller has checked that it is live).
    fn cancel(&mut self, handle: TimerHandle) {
        debug_assert!(self.slot_of(handle).is_some(), "cancelling a stale handle");
        self.free_record(handle);
    }

    fn remove(&mut self, slot: u32) -> (TimerHandle, T) {
        let handle = self.handle(slot);
        let entry = self.bodies[slot as usize]
            .take()
            .expect("a live entry has a body");
        self.free_record(handle);
        (handle, entry.task)
    }

    fn count_live(&self) -> usize {
        self.records.iter().filter(|r| r.bucket.is_some()).count()
    }
}

#[cfg(test)]
mod tests {
    use super::super::wheel::BucketId;
    use super::*;

    fn bucket(level: u32, index: u32) -> BucketRef {
        BucketRef::new(BucketId { level, index })
    }

    #[test]
    fn freed_slot_is_reused_with_a_new_generation() {
        let mut entries = Entries::default();
        let first = entries.insert('a', 1, bucket(0, 0));
        let (handle, task) = entries.remove(first.slot());
        assert_eq!((handle, task), (first, 'a'));
        assert_eq!(entries.slot_of(first), None);
        let second = entries.insert('b', 1, bucket(0, 0));
        assert_eq!(second.slot(), first.slot());
        assert_ne!(second.generation(), first.generation());
        assert_eq!(entries.get(first).map(|e| e.task), None);
        assert_eq!(entries.get(second).map(|e| e.task), Some('b'));
        assert_eq!(entries.live(), 1);
    }

    #[test]
    fn a_cancelled_entry_is_stale_and_its_slot_reused() {
        let mut entries = Entries::default();
        let first = entries.insert('a', 1, bucket(3, 17));
        entries.cancel(first);
        assert_eq!((entries.slot_of(first), entries.live()), (None, 0));
        let second = entries.insert('b', 2, bucket(0, 0));
        assert_eq!(
            (second.slot(), entries.bucket_of(second.slot())),
            (first.slot(), bucket(0, 0))
        );
        assert_eq!(entries.get(second).map(|e| e.task), Some('b'));
    }

    #[test]
    fn a_slot_reaching_the_last_generation_is_retired() {
        let mut entries = Entries::default();
        let handle = entries.insert('a', 1, bucket(0, 0));
        entries.records[0].generation = RETIRED - 1;
        let handle = TimerHandle::new(handle.slot(), RETIRED - 1);
        entries.remove(handle.slot());
        let next = entries.insert('b', 1, bucket(0, 0));
        assert_eq!(next.slot(), 1);
        assert_eq!(entries.slot_of(handle), None);
    }
}
