//! The entry slab (Kafka: the `TimerTaskEntry` objects).
//!
//! Entries live in a `Vec` with a free list, so a handle is an index plus a generation and a
//! stale handle can never reach a newer entry. A bucket holds handles, and a flush, a cancel or a
//! view tells live handles from cancelled ones by the generation, which sits beside the entry
//! (checking it is then reading the entry, which the caller does next anyway).

use super::wheel::BucketId;
use super::TimerHandle;

/// The generation of a slot that was freed `u32::MAX` times; no handle carries it, so a matching
/// generation always means a live entry.
const RETIRED: u32 = u32::MAX;

/// Kafka: `TimerTaskEntry`.
#[derive(Clone, Debug)]
pub(super) struct Entry<T> {
    pub task: T,
    pub expiration_ms: u64,
    /// The bucket the entry sits in (stale only while a flush is re-inserting it).
    pub bucket: BucketId,
}

#[derive(Clone, Debug)]
struct Slot<T> {
    generation: u32,
    entry: Option<Entry<T>>,
}

#[derive(Clone, Debug)]
pub(super) struct Entries<T> {
    slots: Vec<Slot<T>>,
    /// Freed slots that can be reused (retired ones excluded).
    free: usize,
    /// Where the next-fit search for a free slot starts.
    cursor: usize,
    /// Kafka: `taskCounter`.
    live: usize,
}

impl<T> Entries<T> {
    pub fn new() -> Entries<T> {
        Entries {
            slots: Vec::new(),
            free: 0,
            cursor: 0,
            live: 0,
        }
    }

    pub fn live(&self) -> usize {
        self.live
    }

    /// Stores a new entry in the next free slot (see `next_free`) or a new one when fewer than a
    /// quarter are free, and returns its handle; the caller puts the handle in `bucket`.
    pub fn insert(&mut self, task: T, expiration_ms: u64, bucket: BucketId) -> TimerHandle {
        let entry = Entry {
            task,
            expiration_ms,
            bucket,
        };
        let slot = if self.free * 4 <= self.slots.len() {
            let slot = u32::try_from(self.slots.len()).expect("at most u32::MAX timer entries");
            self.slots.push(Slot {
                generation: 0,
                entry: None,
            });
            slot
        } else {
            self.next_free()
        };
        let cell = &mut self.slots[slot as usize];
        cell.entry = Some(entry);
        self.live += 1;
        TimerHandle {
            slot,
            generation: cell.generation,
        }
    }

    /// Next fit, as the purgatory's slab does: entries added close in time sit close in memory,
    /// so a bucket's flush, which visits them in the order they were added, walks forwards.
    fn next_free(&mut self) -> u32 {
        loop {
            let slot = self.cursor;
            self.cursor = (self.cursor + 1) % self.slots.len();
            let cell = &self.slots[slot];
            if cell.entry.is_none() && cell.generation != RETIRED {
                self.free -= 1;
                return slot as u32;
            }
        }
    }

    /// Frees a live entry and returns its (now stale) handle and its task. A slot whose
    /// generation reaches `RETIRED` is never reused.
    pub fn remove(&mut self, slot: u32) -> (TimerHandle, T) {
        let cell = &mut self.slots[slot as usize];
        let entry = cell.entry.take().expect("removing a free timer slot");
        let handle = TimerHandle {
            slot,
            generation: cell.generation,
        };
        cell.generation += 1;
        if cell.generation != RETIRED {
            self.free += 1;
        }
        self.live -= 1;
        (handle, entry.task)
    }

    /// The slot of a live entry; `None` for a stale handle.
    pub fn slot_of(&self, handle: TimerHandle) -> Option<u32> {
        let cell = self.slots.get(handle.slot as usize)?;
        (cell.generation == handle.generation).then_some(handle.slot)
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
            .expect("a live handle names a free slot")
    }

    pub fn entry_mut(&mut self, slot: u32) -> &mut Entry<T> {
        self.slots[slot as usize]
            .entry
            .as_mut()
            .expect("a live handle names a free slot")
    }

    /// Every live entry with its handle, in slot order (for views and invariant checks).
    pub fn iter(&self) -> impl Iterator<Item = (TimerHandle, &Entry<T>)> {
        self.slots.iter().enumerate().filter_map(|(slot, cell)| {
            let handle = TimerHandle {
                slot: slot as u32,
                generation: cell.generation,
            };
            cell.entry.as_ref().map(|entry| (handle, entry))
        })
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
    fn a_slot_reaching_the_last_generation_is_retired() {
        let mut entries = Entries::new();
        let handle = entries.insert('a', 1, B);
        entries.slots[0].generation = RETIRED - 1;
        let handle = TimerHandle {
            generation: RETIRED - 1,
            ..handle
        };
        entries.remove(handle.slot);
        let next = entries.insert('b', 1, B);
        assert_eq!(next.slot, 1);
        assert_eq!(entries.slot_of(handle), None);
    }
}
