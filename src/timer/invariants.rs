//! A full structural check of the timer, for tests and debugging: O(levels x wheel size +
//! entries + queued buckets). It panics with a message naming the first broken invariant.

use super::wheel::{BucketId, TimingWheel};
use super::{EntryStore, Wheels};

impl Wheels {
    /// Panics unless every structural invariant holds:
    /// - each overflow wheel has tick = its parent's interval, and no level's clock is ahead of
    ///   a finer level's clock;
    /// - each live entry a bucket holds names this bucket and appears once, and its expiration
    ///   lies in [bucket expiration, + tick);
    /// - a bucket holding entries has an expiration and is queued; a queued bucket has an
    ///   expiration; each queued bucket is in the delay queue exactly once, with that expiration;
    /// - the entries in buckets are exactly the live entries of `store`, and its `live()` counts
    ///   them.
    pub fn assert_invariants<S: EntryStore>(&self, store: &S) {
        for (level, wheel) in self.levels.iter().enumerate() {
            assert_eq!(
                wheel.current_time_ms % wheel.tick_ms,
                0,
                "level {level} clock"
            );
            if let Some(parent) = level.checked_sub(1).map(|p| &self.levels[p]) {
                assert_eq!(
                    u128::from(wheel.tick_ms),
                    parent.interval_ms,
                    "level {level} tick"
                );
                assert!(
                    wheel.current_time_ms <= parent.current_time_ms,
                    "level {level} clock is ahead of level {}",
                    level - 1
                );
            }
        }
        let mut linked = 0usize;
        let mut queued = 0usize;
        for (level, wheel) in self.levels.iter().enumerate() {
            for index in 0..wheel.wheel_size {
                let id = BucketId {
                    level: level as u32,
                    index: index as u32,
                };
                linked += assert_bucket(store, wheel, id);
                queued += usize::from(wheel.buckets[index].queued);
            }
        }
        assert_eq!(linked, store.live(), "linked entries vs live entries");
        assert_eq!(store.count_live(), store.live(), "store count vs live()");
        self.assert_delay_queue(queued);
    }

    fn assert_delay_queue(&self, queued_buckets: usize) {
        let mut ids = Vec::new();
        for queued in self.delay_queue.iter() {
            let bucket =
                &self.levels[queued.bucket.level as usize].buckets[queued.bucket.index as usize];
            assert!(
                bucket.queued,
                "delay queue holds unqueued bucket {:?}",
                queued.bucket
            );
            assert_eq!(
                bucket.expiration_ms,
                Some(queued.expiration_ms),
                "delay queue key of bucket {:?}",
                queued.bucket
            );
            ids.push(queued.bucket);
        }
        let in_queue = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), in_queue, "a bucket is in the delay queue twice");
        // Distinct, all flagged queued, and as many as the flagged ones: the same set.
        assert_eq!(
            in_queue, queued_buckets,
            "delay queue length vs queued buckets"
        );
    }
}

/// Checks one bucket's handles and returns how many live entries it holds.
fn assert_bucket<S: EntryStore>(store: &S, wheel: &TimingWheel, id: BucketId) -> usize {
    let bucket = &wheel.buckets[id.index as usize];
    assert_eq!(
        bucket.queued,
        bucket.expiration_ms.is_some(),
        "bucket {id:?}: queued iff expiration set"
    );
    let mut live: Vec<u32> = Vec::new();
    for &handle in &bucket.handles {
        let Some(slot) = store.slot_of(handle) else {
            continue; // cancelled; skipped by the flush
        };
        let named = store.bucket_of(slot).id();
        assert_eq!(named, id, "entry {handle:?} names another bucket");
        let bucket_ms = u128::from(bucket.expiration_ms.unwrap_or(0));
        let expiration = u128::from(store.expiration_ms(slot));
        assert!(
            bucket_ms <= expiration && expiration < bucket_ms + u128::from(wheel.tick_ms),
            "entry {handle:?} expiring at {expiration} ms sits in bucket {id:?} for {bucket_ms} ms"
        );
        live.push(handle.slot());
    }
    let count = live.len();
    live.sort_unstable();
    live.dedup();
    assert_eq!(live.len(), count, "bucket {id:?}: an entry is held twice");
    assert!(
        count == 0 || bucket.queued,
        "bucket {id:?}: holds entries but is not queued"
    );
    count
}
