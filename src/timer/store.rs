//! Where a timer's entries live (Kafka: the `TimerTaskEntry` objects).
//!
//! The wheels ([`super::Wheels`]) hold only handles in their buckets; everything else about an
//! entry (its task, its expiration, the bucket it sits in, whether it is live) is kept by an
//! [`EntryStore`]. A [`super::Timer`] keeps its own ([`super::Entries`]); a user whose tasks
//! already sit in a table of their own can keep the entries there instead, next to the task, as
//! Kafka's `TimerTaskEntry` hangs off its `TimerTask`: the purgatory does, so that cancelling an
//! operation's timeout writes into the operation's own slot, which the completion has in the
//! cache already.

use std::num::NonZeroU32;

use super::wheel::BucketId;
use super::TimerHandle;

/// The bucket an entry sits in, as a store keeps it: four bytes, and an `Option` of it too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BucketRef(NonZeroU32);

/// Bits of a bucket reference that hold the bucket's index (the rest hold the level).
const INDEX_BITS: u32 = 26;
/// The largest wheel size a bucket reference can hold.
pub(super) const MAX_WHEEL_SIZE: usize = 1 << INDEX_BITS;

impl BucketRef {
    #[inline(always)]
    pub(super) fn new(id: BucketId) -> Self {
        debug_assert!(id.level < 64 && (id.index as usize) < MAX_WHEEL_SIZE);
        let packed = (id.level << INDEX_BITS | id.index) + 1;
        BucketRef(NonZeroU32::new(packed).expect("plus one"))
    }

    #[inline(always)]
    pub(super) fn id(self) -> BucketId {
        let packed = self.0.get() - 1;
        BucketId {
            level: packed >> INDEX_BITS,
            index: packed & ((1 << INDEX_BITS) - 1),
        }
    }
}

/// A table of timer entries, each named by a [`TimerHandle`] (a slot and a generation, so that a
/// handle kept after its entry fired or was cancelled is stale, never another entry's).
pub(crate) trait EntryStore {
    /// What an entry carries, handed back when it fires.
    type Task;

    /// Live entries (Kafka: `taskCounter`).
    fn live(&self) -> usize;

    /// Stores `task` as a live entry due at `expiration_ms` in `bucket`, and returns its handle.
    fn insert(&mut self, task: Self::Task, expiration_ms: u64, bucket: BucketRef) -> TimerHandle;

    /// The slot of a live entry; `None` for a stale handle.
    fn slot_of(&self, handle: TimerHandle) -> Option<u32>;

    /// The bucket of the live entry in `slot`.
    fn bucket_of(&self, slot: u32) -> BucketRef;

    /// Moves the live entry in `slot` to `bucket` (a cascade).
    fn set_bucket(&mut self, slot: u32, bucket: BucketRef);

    /// When the live entry in `slot` is due.
    fn expiration_ms(&self, slot: u32) -> u64;

    /// Makes the live entry in `slot` due `delta_ms` later (the whole timer moving in time, see
    /// `Wheels::shift_by`).
    fn delay_expiration(&mut self, slot: u32, delta_ms: u64);

    /// Frees the live entry `handle` names; it never fires.
    fn cancel(&mut self, handle: TimerHandle);

    /// Frees the live entry in `slot` because it is due, and returns its handle and task.
    fn remove(&mut self, slot: u32) -> (TimerHandle, Self::Task);

    /// The live entries, counted the slow way, slot by slot (for invariant checks).
    fn count_live(&self) -> usize;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_refs_round_trip() {
        for id in [
            BucketId { level: 0, index: 0 },
            BucketId {
                level: 62,
                index: 0,
            },
            BucketId {
                level: 5,
                index: (MAX_WHEEL_SIZE - 1) as u32,
            },
        ] {
            assert_eq!(BucketRef::new(id).id(), id);
        }
        assert_eq!(std::mem::size_of::<Option<BucketRef>>(), 4);
    }
}
