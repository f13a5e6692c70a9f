//! The slab of held operations: every operation from `try_complete_else_watch` until it is both
//! completed and off every watch list. Ids are generational, so an id kept after its operation
//! left never reaches a newer one, and a watch list entry whose generation is stale is a
//! tombstone. Generations sit in their own array: the purge's compaction checks thousands of
//! them and should not pull whole operations into the cache to do it.

use crate::timer::TimerHandle;

use super::watchers::Memberships;
use super::OpId;

pub(super) struct Held<O> {
    pub op: O,
    pub completed: bool,
    /// The live timer entry; `None` before the timer, after cancel, or after it fired.
    pub timer: Option<TimerHandle>,
    /// How many watch lists still count this op. A completed op is released when this is 0.
    pub watch_count: u32,
    /// When its timeout fires, and the order it entered the purgatory: ops due in the same
    /// millisecond expire in the order they were scheduled (the wheel's bucket order differs).
    pub expires_at_ms: u64,
    pub seq: u64,
    /// The lists it is on (for the purge, which takes a completed op off all of them).
    pub memberships: Memberships,
}

impl<O> Held<O> {
    pub fn new(op: O, seq: u64) -> Self {
        Held {
            op,
            completed: false,
            timer: None,
            watch_count: 0,
            expires_at_ms: 0,
            seq,
            memberships: Memberships::default(),
        }
    }
}

/// The generation of a slot that was released `u32::MAX` times; no id carries it.
const RETIRED: u32 = u32::MAX;

pub(super) struct Slab<O> {
    generations: Vec<u32>,
    held: Vec<Option<Held<O>>>,
    /// Released slots, reused last-in first-out (the most recently touched memory first).
    free: Vec<u32>,
}

impl<O> Slab<O> {
    pub fn new() -> Self {
        Slab {
            generations: Vec::new(),
            held: Vec::new(),
            free: Vec::new(),
        }
    }

    pub fn insert(&mut self, held: Held<O>) -> OpId {
        match self.free.pop() {
            Some(slot) => {
                self.held[slot as usize] = Some(held);
                OpId {
                    slot,
                    generation: self.generations[slot as usize],
                }
            }
            None => {
                let slot = u32::try_from(self.held.len()).expect("at most u32::MAX operations");
                self.held.push(Some(held));
                self.generations.push(0);
                OpId {
                    slot,
                    generation: 0,
                }
            }
        }
    }

    /// Drops the operation and makes its id (and every watch entry holding it) stale. A slot
    /// whose generation reaches `RETIRED` is never reused, so an id never aliases a later one
    /// and a matching generation always means the slot is held.
    pub fn release(&mut self, id: OpId) {
        let slot = id.slot as usize;
        debug_assert_eq!(self.generations[slot], id.generation);
        self.held[slot] = None;
        self.generations[slot] += 1;
        if self.generations[slot] != RETIRED {
            self.free.push(id.slot);
        }
    }

    /// Whether `id` is still held (a watch entry holding it is not a tombstone). Reads only the
    /// generations.
    pub fn is_held(&self, id: OpId) -> bool {
        self.generations.get(id.slot as usize) == Some(&id.generation)
    }

    pub fn get(&self, id: OpId) -> Option<&Held<O>> {
        if self.generations.get(id.slot as usize) != Some(&id.generation) {
            return None;
        }
        self.held[id.slot as usize].as_ref()
    }

    pub fn get_mut(&mut self, id: OpId) -> Option<&mut Held<O>> {
        if self.generations.get(id.slot as usize) != Some(&id.generation) {
            return None;
        }
        self.held[id.slot as usize].as_mut()
    }

    /// Held operations in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (OpId, &Held<O>)> {
        self.held.iter().enumerate().filter_map(|(slot, held)| {
            let id = OpId {
                slot: slot as u32,
                generation: self.generations[slot],
            };
            held.as_ref().map(|held| (id, held))
        })
    }
}
