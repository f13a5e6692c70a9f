//! The entry slab (Kafka: the `TimerTaskEntry` objects) and the intrusive bucket lists.
//!
//! Entries live in a `Vec` of generational slots with a free list, so a handle is an index plus
//! a generation and a stale handle can never reach a newer entry. Each live entry is linked into
//! exactly one bucket through `prev`/`next` slot indices, which makes append and unlink O(1).

use super::wheel::{Bucket, BucketId};
use super::TimerHandle;

/// The "no entry" link, Kafka's sentinel node. Never a valid slot index.
pub(super) const NIL: u32 = u32::MAX;

/// Kafka: `TimerTaskEntry`.
#[derive(Clone, Debug)]
pub(super) struct Entry<T> {
    pub task: T,
    pub expiration_ms: u64,
    /// The bucket the entry is linked into (stale only while a flush is re-inserting it).
    pub bucket: BucketId,
    pub prev: u32,
    pub next: u32,
}

#[derive(Clone, Debug)]
struct Slot<T> {
    generation: u32,
    entry: Option<Entry<T>>,
}

#[derive(Clone, Debug)]
pub(super) struct Entries<T> {
    slots: Vec<Slot<T>>,
    /// Freed slot indices, reused last-in first-out.
    free: Vec<u32>,
    /// Kafka: `taskCounter`.
    live: usize,
}

impl<T> Entries<T> {
    pub fn new() -> Entries<T> {
        Entries {
            slots: Vec::new(),
            free: Vec::new(),
            live: 0,
        }
    }

    pub fn live(&self) -> usize {
        self.live
    }

    /// Stores a new, not yet linked entry and returns its handle.
    pub fn insert(&mut self, task: T, expiration_ms: u64, bucket: BucketId) -> TimerHandle {
        let entry = Entry {
            task,
            expiration_ms,
            bucket,
            prev: NIL,
            next: NIL,
        };
        let slot = match self.free.pop() {
            Some(slot) => slot,
            None => {
                let slot = u32::try_from(self.slots.len())
                    .ok()
                    .filter(|&slot| slot != NIL)
                    .expect("more than u32::MAX - 1 timer entries");
                self.slots.push(Slot {
                    generation: 0,
                    entry: None,
                });
                slot
            }
        };
        let cell = &mut self.slots[slot as usize];
        debug_assert!(cell.entry.is_none());
        cell.entry = Some(entry);
        self.live += 1;
        TimerHandle {
            slot,
            generation: cell.generation,
        }
    }

    /// Frees an unlinked entry and returns its (now stale) handle and its task.
    pub fn remove(&mut self, slot: u32) -> (TimerHandle, T) {
        let cell = &mut self.slots[slot as usize];
        let entry = cell.entry.take().expect("removing a free timer slot");
        let handle = TimerHandle {
            slot,
            generation: cell.generation,
        };
        // A slot whose generation would wrap is retired instead of reused, so that no handle
        // can ever alias a later entry.
        if let Some(next) = cell.generation.checked_add(1) {
            cell.generation = next;
            self.free.push(slot);
        }
        self.live -= 1;
        (handle, entry.task)
    }

    /// The slot of a live entry; `None` for a stale handle.
    pub fn slot_of(&self, handle: TimerHandle) -> Option<u32> {
        let cell = self.slots.get(handle.slot as usize)?;
        (cell.generation == handle.generation && cell.entry.is_some()).then_some(handle.slot)
    }

    pub fn get(&self, handle: TimerHandle) -> Option<&Entry<T>> {
        self.slot_of(handle).map(|slot| self.entry(slot))
    }

    pub fn get_mut(&mut self, handle: TimerHandle) -> Option<&mut Entry<T>> {
        let slot = self.slot_of(handle)?;
        Some(self.entry_mut(slot))
    }

    pub fn entry(&self, slot: u32) -> &Entry<T> {
        self.slots[slot as usize]
            .entry
            .as_ref()
            .expect("timer list links to a free slot")
    }

    fn entry_mut(&mut self, slot: u32) -> &mut Entry<T> {
        self.slots[slot as usize]
            .entry
            .as_mut()
            .expect("timer list links to a free slot")
    }

    pub fn handle(&self, slot: u32) -> TimerHandle {
        TimerHandle {
            slot,
            generation: self.slots[slot as usize].generation,
        }
    }

    /// Every live entry with its slot, in slot order (for views and invariant checks).
    pub fn iter(&self) -> impl Iterator<Item = (u32, &Entry<T>)> {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(slot, cell)| cell.entry.as_ref().map(|entry| (slot as u32, entry)))
    }

    /// Kafka: `TimerTaskList.add`. Appends `slot` at the tail of `bucket` (whose id is `id`).
    pub fn push_back(&mut self, bucket: &mut Bucket, id: BucketId, slot: u32) {
        let old_tail = bucket.tail;
        let entry = self.entry_mut(slot);
        entry.bucket = id;
        entry.prev = old_tail;
        entry.next = NIL;
        if old_tail == NIL {
            bucket.head = slot;
        } else {
            self.entry_mut(old_tail).next = slot;
        }
        bucket.tail = slot;
        bucket.len += 1;
    }

    /// Kafka: `TimerTaskList.remove`. Unlinks `slot` from `bucket` in O(1).
    pub fn unlink(&mut self, bucket: &mut Bucket, slot: u32) {
        let (prev, next) = {
            let entry = self.entry(slot);
            (entry.prev, entry.next)
        };
        if prev == NIL {
            debug_assert_eq!(bucket.head, slot);
            bucket.head = next;
        } else {
            self.entry_mut(prev).next = next;
        }
        if next == NIL {
            debug_assert_eq!(bucket.tail, slot);
            bucket.tail = prev;
        } else {
            self.entry_mut(next).prev = prev;
        }
        let entry = self.entry_mut(slot);
        entry.prev = NIL;
        entry.next = NIL;
        bucket.len -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const B: BucketId = BucketId { level: 0, index: 0 };

    fn list(entries: &Entries<char>, bucket: &Bucket) -> Vec<char> {
        let mut out = Vec::new();
        let mut cursor = bucket.head;
        while cursor != NIL {
            out.push(entries.entry(cursor).task);
            cursor = entries.entry(cursor).next;
        }
        out
    }

    #[test]
    fn push_back_and_unlink_keep_list_order() {
        let mut entries = Entries::new();
        let mut bucket = Bucket {
            head: NIL,
            tail: NIL,
            len: 0,
            expiration_ms: None,
            queued: false,
        };
        let handles: Vec<_> = "abcd".chars().map(|c| entries.insert(c, 5, B)).collect();
        for handle in &handles {
            entries.push_back(&mut bucket, B, handle.slot);
        }
        assert_eq!(list(&entries, &bucket), vec!['a', 'b', 'c', 'd']);
        entries.unlink(&mut bucket, handles[1].slot); // middle
        entries.unlink(&mut bucket, handles[0].slot); // head
        entries.unlink(&mut bucket, handles[3].slot); // tail
        assert_eq!(list(&entries, &bucket), vec!['c']);
        assert_eq!((bucket.head, bucket.tail, bucket.len), (2, 2, 1));
        entries.unlink(&mut bucket, handles[2].slot);
        assert_eq!((bucket.head, bucket.tail, bucket.len), (NIL, NIL, 0));
    }

    #[test]
    fn freed_slot_is_reused_with_a_new_generation() {
        let mut entries = Entries::new();
        let first = entries.insert('a', 1, B);
        assert_eq!(entries.remove(first.slot), (first, 'a'));
        assert_eq!(entries.slot_of(first), None);
        let second = entries.insert('b', 1, B);
        assert_eq!(second.slot, first.slot);
        assert_ne!(second.generation, first.generation);
        assert_eq!(entries.get(first).map(|e| e.task), None);
        assert_eq!(entries.get(second).map(|e| e.task), Some('b'));
        assert_eq!(entries.live(), 1);
    }

    #[test]
    fn a_slot_at_the_last_generation_is_retired() {
        let mut entries = Entries::new();
        let handle = entries.insert('a', 1, B);
        entries.slots[0].generation = u32::MAX;
        let handle = TimerHandle {
            generation: u32::MAX,
            ..handle
        };
        entries.remove(handle.slot);
        let next = entries.insert('b', 1, B);
        assert_eq!(next.slot, 1);
        assert_eq!(entries.slot_of(handle), None);
    }
}
