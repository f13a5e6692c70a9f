//! The entry slab (Kafka: the `TimerTaskEntry` objects).
//!
//! A handle is a slot index plus a generation, so a stale handle can never reach a newer entry.
//! Each slot is split in two: a small record (generation and bucket) that a cancel, a liveness
//! check or a `locate` reads, and the body (task and expiration) that only an insert, a flush and
//! an expiry touch. The records of a million entries fit in the cache where the bodies would
//! not, so a cancel, which comes at a random moment for a random entry, costs one cache hit
//! instead of a miss. A cancelled entry's body stays where it is until its slot is reused.

use super::wheel::BucketId;
use super::TimerHandle;
use crate::next_fit::{NextFit, RETIRED};

/// The bucket field of a free slot.
const FREE: u32 = u32::MAX;

/// Bits of a packed bucket id that hold the bucket's index (the rest hold the level).
const INDEX_BITS: u32 = 26;
/// The largest wheel size a packed bucket id can hold.
pub(super) const MAX_WHEEL_SIZE: usize = 1 << INDEX_BITS;

fn pack(id: BucketId) -> u32 {
    debug_assert!(id.level < 64 && (id.index as usize) < MAX_WHEEL_SIZE);
    id.level << INDEX_BITS | id.index
}

fn unpack(packed: u32) -> BucketId {
    BucketId {
        level: packed >> INDEX_BITS,
        index: packed & ((1 << INDEX_BITS) - 1),
    }
}

/// Kafka: `TimerTaskEntry`, without the list links (a bucket holds handles instead).
#[derive(Clone, Debug)]
pub(super) struct Entry<T> {
    pub task: T,
    pub expiration_ms: u64,
}

#[derive(Clone, Copy, Debug)]
struct Record {
    generation: u32,
    /// The packed bucket the entry sits in (stale only while a flush re-inserts it), or `FREE`.
    bucket: u32,
}

#[derive(Clone, Debug)]
pub(super) struct Entries<T> {
    records: Vec<Record>,
    bodies: Vec<Option<Entry<T>>>,
    next_fit: NextFit,
    /// Kafka: `taskCounter`.
    live: usize,
}

impl<T> Entries<T> {
    pub fn new() -> Entries<T> {
        Entries {
            records: Vec::new(),
            bodies: Vec::new(),
            next_fit: NextFit::default(),
            live: 0,
        }
    }

    pub fn live(&self) -> usize {
        self.live
    }

    /// Stores a new entry in the next free slot, or a new slot (see [`NextFit`]: entries added
    /// close in time sit close in memory, so a bucket's flush, which visits them in the order
    /// they were added, walks forwards), and returns its handle; the caller puts the handle in
    /// `bucket`.
    pub fn insert(&mut self, task: T, expiration_ms: u64, bucket: BucketId) -> TimerHandle {
        let records = &self.records;
        let found = self.next_fit.place(records.len(), |slot| {
            records[slot].bucket == FREE && records[slot].generation != RETIRED
        });
        let slot = match found {
            Some(slot) => slot,
            None => {
                self.records.push(Record {
                    generation: 0,
                    bucket: FREE,
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
        record.bucket = pack(bucket);
        self.live += 1;
        TimerHandle::new(slot, record.generation)
    }

    /// Frees a live entry, leaving its body in place. Only writes its record: nothing is read
    /// from a slot that may be anywhere in a million (the caller has checked that it is live).
    pub fn cancel(&mut self, handle: TimerHandle) {
        debug_assert!(self.slot_of(handle).is_some(), "cancelling a stale handle");
        self.free_record(handle);
    }

    /// Frees a live entry and returns its (now stale) handle and its body.
    pub fn remove(&mut self, slot: u32) -> (TimerHandle, Entry<T>) {
        let handle = self.handle(slot);
        let entry = self.bodies[slot as usize]
            .take()
            .expect("a live entry has a body");
        self.free_record(handle);
        (handle, entry)
    }

    /// Frees the live entry `handle` names, by a write alone. A slot whose generation reaches
    /// `RETIRED` is never reused.
    fn free_record(&mut self, handle: TimerHandle) {
        let generation = handle.generation + 1;
        self.records[handle.slot() as usize] = Record {
            generation,
            bucket: FREE,
        };
        self.next_fit.released(generation);
        self.live -= 1;
    }

    fn handle(&self, slot: u32) -> TimerHandle {
        TimerHandle::new(slot, self.records[slot as usize].generation)
    }

    /// Asks the CPU to start loading `handle`'s record, which a cancel will read and write soon.
    #[inline]
    pub fn prefetch_record(&self, handle: TimerHandle) {
        if let Some(record) = self.records.get(handle.slot() as usize) {
            crate::prefetch::prefetch(record);
        }
    }

    /// The slot of a live entry; `None` for a stale handle.
    pub fn slot_of(&self, handle: TimerHandle) -> Option<u32> {
        let record = self.records.get(handle.slot() as usize)?;
        (record.generation == handle.generation && record.bucket != FREE).then_some(handle.slot())
    }

    pub fn bucket_of(&self, slot: u32) -> BucketId {
        unpack(self.records[slot as usize].bucket)
    }

    pub fn set_bucket(&mut self, slot: u32, bucket: BucketId) {
        self.records[slot as usize].bucket = pack(bucket);
    }

    pub fn get(&self, handle: TimerHandle) -> Option<&Entry<T>> {
        self.slot_of(handle).map(|slot| self.entry(slot))
    }

    pub fn get_mut(&mut self, handle: TimerHandle) -> Option<&mut Entry<T>> {
        let slot = self.slot_of(handle)?;
        self.bodies[slot as usize].as_mut()
    }

    pub fn entry(&self, slot: u32) -> &Entry<T> {
        self.bodies[slot as usize]
            .as_ref()
            .expect("a live entry has a body")
    }

    /// Every live entry with its handle, in slot order (for views and invariant checks).
    pub fn iter(&self) -> impl Iterator<Item = (TimerHandle, &Entry<T>)> {
        (0..self.records.len() as u32)
            .filter(move |&slot| self.records[slot as usize].bucket != FREE)
            .map(move |slot| (self.handle(slot), self.entry(slot)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const B: BucketId = BucketId { level: 0, index: 0 };

    #[test]
    fn freed_slot_is_reused_with_a_new_generation() {
        let mut entries = Entries::new();
        let first = entries.insert('a', 1, B);
        let (handle, entry) = entries.remove(first.slot());
        assert_eq!((handle, entry.task), (first, 'a'));
        assert_eq!(entries.slot_of(first), None);
        let second = entries.insert('b', 1, B);
        assert_eq!(second.slot(), first.slot());
        assert_ne!(second.generation, first.generation);
        assert_eq!(entries.get(first).map(|e| e.task), None);
        assert_eq!(entries.get(second).map(|e| e.task), Some('b'));
        assert_eq!(entries.live(), 1);
    }

    #[test]
    fn a_cancelled_entry_is_stale_and_its_slot_reused() {
        let mut entries = Entries::new();
        let bucket = BucketId {
            level: 3,
            index: 17,
        };
        let first = entries.insert('a', 1, bucket);
        entries.cancel(first);
        assert_eq!((entries.slot_of(first), entries.live()), (None, 0));
        let second = entries.insert('b', 2, B);
        assert_eq!(
            (second.slot(), entries.bucket_of(second.slot())),
            (first.slot(), B)
        );
        assert_eq!(entries.get(second).map(|e| e.task), Some('b'));
    }

    #[test]
    fn bucket_ids_pack_and_unpack() {
        for id in [
            B,
            BucketId {
                level: 62,
                index: 0,
            },
            BucketId {
                level: 5,
                index: (MAX_WHEEL_SIZE - 1) as u32,
            },
        ] {
            assert_eq!(unpack(pack(id)), id);
            assert_ne!(pack(id), FREE);
        }
    }

    #[test]
    fn a_slot_reaching_the_last_generation_is_retired() {
        let mut entries = Entries::new();
        let handle = entries.insert('a', 1, B);
        entries.records[0].generation = RETIRED - 1;
        let handle = TimerHandle::new(handle.slot(), RETIRED - 1);
        entries.remove(handle.slot());
        let next = entries.insert('b', 1, B);
        assert_eq!(next.slot(), 1);
        assert_eq!(entries.slot_of(handle), None);
    }
}
