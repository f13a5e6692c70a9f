//! A watch list's ids in FIFO order: a `Vec` and the index of its front. It does what the lists
//! need of a `VecDeque` (append, drop at the front, walk keeping some in place, compact), in
//! code the size-optimised .wasm inlines: `VecDeque`'s ring arithmetic stayed a call per append
//! and per drop there, about a tenth of Kafka's purgatory workload in the .wasm.
//!
//! Dropped front entries are reclaimed by moving the rest down once they are at least half of
//! the storage, so a drop costs O(1) amortized and the storage is at most twice the entries.

use super::OpId;
use crate::plumbing::hot;

/// Fronts shorter than this are never moved down for (a short list reuses its storage when it
/// empties instead).
const RECLAIM_FROM: usize = 64;

#[derive(Clone, Debug, Default)]
pub(super) struct IdQueue {
    /// `ids[head..]` are the entries, oldest first.
    ids: Vec<OpId>,
    head: usize,
}

impl IdQueue {
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.ids.len() - self.head
    }

    pub fn capacity(&self) -> usize {
        self.ids.capacity()
    }

    #[inline(always)]
    pub fn push_back(&mut self, id: OpId) {
        hot::push(&mut self.ids, id);
    }

    #[inline(always)]
    pub fn front(&self) -> Option<OpId> {
        hot::get(&self.ids, self.head).copied()
    }

    /// Drops the front entry (there must be one).
    #[inline(always)]
    pub fn drop_front(&mut self) {
        debug_assert!(self.len() > 0);
        self.head += 1;
        if self.head == self.ids.len() {
            self.clear();
        } else if self.head >= RECLAIM_FROM && 2 * self.head >= self.ids.len() {
            self.reclaim_front();
        }
    }

    pub fn clear(&mut self) {
        self.ids.clear();
        self.head = 0;
    }

    /// Entry `k` counted from the front, for a walk (see [`IdQueue::keep`]).
    #[inline(always)]
    pub fn get(&self, k: usize) -> OpId {
        *hot::at(&self.ids, self.head + k)
    }

    /// A walk keeps entry `id` as its `kept`-th survivor: survivors are written over the walked
    /// entries in order (`kept` is never ahead of the walk), and [`IdQueue::truncate`] ends the
    /// walk.
    #[inline(always)]
    pub fn keep(&mut self, kept: usize, id: OpId) {
        *hot::at_mut(&mut self.ids, self.head + kept) = id;
    }

    /// Keeps the first `len` entries.
    pub fn truncate(&mut self, len: usize) {
        self.ids.truncate(self.head + len);
        if len == 0 {
            self.clear();
        }
    }

    pub fn retain(&mut self, keep: impl Fn(OpId) -> bool) {
        self.reclaim_front();
        self.ids.retain(|&id| keep(id));
    }

    pub fn iter(&self) -> impl Iterator<Item = &OpId> {
        self.ids[self.head..].iter()
    }

    #[cold]
    fn reclaim_front(&mut self) {
        self.ids.drain(..self.head);
        self.head = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::purgatory::first_id as id;

    fn slots(queue: &IdQueue) -> Vec<u32> {
        queue.iter().map(|id| id.slot).collect()
    }

    /// Operations `0..n` appended in order.
    fn filled(n: u32) -> IdQueue {
        let mut queue = IdQueue::default();
        for slot in 0..n {
            queue.push_back(id(slot));
        }
        queue
    }

    #[test]
    fn fifo_with_drops_at_the_front_and_reclaimed_storage() {
        let mut queue = filled(1000);
        for slot in 0..900 {
            assert_eq!(queue.front(), Some(id(slot)));
            queue.drop_front();
            assert!(queue.ids.len() <= 2 * queue.len().max(RECLAIM_FROM));
        }
        assert_eq!(slots(&queue), (900..1000).collect::<Vec<_>>());
        queue.push_back(id(1000));
        assert_eq!(queue.len(), 101);
        while queue.front().is_some() {
            queue.drop_front();
        }
        assert_eq!((queue.len(), queue.head, queue.ids.len()), (0, 0, 0));
    }

    #[test]
    fn a_walk_keeps_survivors_in_order_in_place() {
        let mut queue = filled(10);
        queue.drop_front();
        let mut kept = 0;
        for k in 0..queue.len() {
            let id = queue.get(k);
            if id.slot % 3 != 0 {
                queue.keep(kept, id);
                kept += 1;
            }
        }
        queue.truncate(kept);
        assert_eq!(slots(&queue), [1, 2, 4, 5, 7, 8]);
        queue.truncate(0);
        assert_eq!((queue.len(), queue.head), (0, 0));
    }

    #[test]
    fn retain_keeps_order_and_forgets_the_dropped_front() {
        let mut queue = filled(6);
        queue.drop_front();
        queue.retain(|id| id.slot != 3);
        assert_eq!(slots(&queue), [1, 2, 4, 5]);
        assert_eq!(queue.head, 0);
    }
}
