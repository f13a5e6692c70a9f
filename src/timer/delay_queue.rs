//! The delay queue of buckets (Kafka: `java.util.concurrent.DelayQueue<TimerTaskList>`).
//!
//! A min-heap keyed by (expiration, offer sequence number). The sequence number breaks ties in
//! the order buckets were offered, so equal expirations always pop in the same order. There is no
//! blocking poll: the caller asks for the next expiration and advances the clock to it.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::wheel::BucketId;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Queued {
    pub expiration_ms: u64,
    pub seq: u64,
    pub bucket: BucketId,
}

#[derive(Clone, Debug, Default)]
pub(super) struct DelayQueue {
    heap: BinaryHeap<Reverse<Queued>>,
    next_seq: u64,
}

impl DelayQueue {
    /// Kafka: `DelayQueue.offer`.
    pub fn offer(&mut self, expiration_ms: u64, bucket: BucketId) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Reverse(Queued {
            expiration_ms,
            seq,
            bucket,
        }));
    }

    /// The head's expiration, if any bucket is queued.
    #[inline(always)]
    pub fn peek_expiration_ms(&self) -> Option<u64> {
        self.heap.peek().map(|Reverse(queued)| queued.expiration_ms)
    }

    /// Kafka: `DelayQueue.poll`: the head, if its expiration is at or before `now_ms`.
    pub fn pop_due(&mut self, now_ms: u64) -> Option<Queued> {
        if self.peek_expiration_ms()? > now_ms {
            return None;
        }
        self.heap.pop().map(|Reverse(queued)| queued)
    }

    /// Every queued bucket due `delta_ms` later, in the same order.
    pub fn delay_all(&mut self, delta_ms: u64) {
        let mut queued = std::mem::take(&mut self.heap).into_vec();
        for Reverse(q) in &mut queued {
            q.expiration_ms += delta_ms;
        }
        self.heap = BinaryHeap::from(queued);
    }

    /// Every queued bucket, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &Queued> {
        self.heap.iter().map(|Reverse(queued)| queued)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bucket(index: u32) -> BucketId {
        BucketId { level: 0, index }
    }

    #[test]
    fn pops_by_expiration_then_offer_order() {
        let mut queue = DelayQueue::default();
        queue.offer(30, bucket(1));
        queue.offer(20, bucket(2));
        queue.offer(30, bucket(0));
        queue.offer(20, bucket(3));
        assert_eq!(queue.peek_expiration_ms(), Some(20));
        assert_eq!(queue.pop_due(19), None);
        let order: Vec<u32> = std::iter::from_fn(|| queue.pop_due(30))
            .map(|queued| queued.bucket.index)
            .collect();
        assert_eq!(order, vec![2, 3, 1, 0]);
        assert_eq!(queue.peek_expiration_ms(), None);
    }
}
