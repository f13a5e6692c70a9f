//! One level of the hierarchy (Kafka: `TimingWheel`) and its buckets (Kafka: `TimerTaskList`).
//!
//! A level knows only its own geometry and clock. Linking entries into buckets and offering
//! buckets to the delay queue belong to `Wheels`, which owns every level in a `Vec`: Kafka's
//! `overflowWheel` pointer becomes "the next index".

use super::TimerHandle;

/// Where a bucket lives: the level (0 is the finest wheel) and the bucket's index in that level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct BucketId {
    pub level: u32,
    pub index: u32,
}

/// Kafka: `TimerTaskList`. The entries themselves sit in an `EntryStore`; the bucket holds their
/// handles in the order they were added. A cancel only frees the entry: its stale handle stays
/// here until the bucket is flushed, which skips it. Kafka unlinks a cancelled entry from its
/// doubly linked list instead; both are O(1), and this one writes one entry without reading
/// anything (not even the bucket, which keeps no count), and lets a flush read its entries in
/// parallel rather than chasing links.
#[derive(Clone, Debug)]
pub(super) struct Bucket {
    pub handles: Vec<TimerHandle>,
    /// Kafka: `TimerTaskList.expiration`, where `None` is Kafka's -1 ("unset").
    pub expiration_ms: Option<u64>,
    /// Whether the bucket is in the delay queue right now. Kafka does not need this flag; here
    /// it lets us assert that a bucket is never queued twice or re-targeted while queued.
    pub queued: bool,
}

impl Bucket {
    pub const EMPTY: Bucket = Bucket {
        handles: Vec::new(),
        expiration_ms: None,
        queued: false,
    };

    /// Kafka: `TimerTaskList.setExpiration`. Returns whether the value changed, which is exactly
    /// when the bucket must be offered to the delay queue.
    #[inline(always)]
    pub fn set_expiration(&mut self, expiration_ms: u64) -> bool {
        if self.expiration_ms == Some(expiration_ms) {
            return false;
        }
        // Why Kafka's insert rule makes this impossible while the bucket is queued: the wheel's
        // clock only ever moves to the expiration of the delay queue's head, so while this bucket
        // waits in the queue with expiration x, the wheel's current time c stays <= x. An insert
        // targets an expiration in [c + tick, c + interval), a window of fewer than `wheel_size`
        // ticks in which every bucket index occurs at most once, and x lies in [c, c + interval).
        // If x >= c + tick, both are in the same window with the same index, so they are equal;
        // if x == c, the only same-index slot in the window would be c + interval, outside it.
        assert!(
            !self.queued,
            "timer bucket re-targeted from {:?} to {expiration_ms} ms while still queued",
            self.expiration_ms
        );
        self.expiration_ms = Some(expiration_ms);
        true
    }

    /// Kafka: the first half of `TimerTaskList.flush`. Detaches the handles, resets the
    /// expiration to unset and returns them; the caller walks them and may hand the emptied
    /// vector back with `recycle` to keep its capacity.
    pub fn take_list(&mut self) -> Vec<TimerHandle> {
        let handles = std::mem::take(&mut self.handles);
        *self = Bucket::EMPTY;
        handles
    }

    /// Gives a flushed bucket its old storage back, if nothing was added meanwhile.
    pub fn recycle(&mut self, mut handles: Vec<TimerHandle>) {
        if self.handles.is_empty() {
            handles.clear();
            self.handles = handles;
        }
    }
}

/// The outcome of Kafka's `TimingWheel.add` rule for one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Placement {
    /// `expiration < currentTime + tickMs`: due now, the task must run.
    Expired,
    /// Fits this level: bucket `index`, whose expiration becomes `expiration_ms`.
    Bucket { index: usize, expiration_ms: u64 },
    /// Beyond this level's interval: try the overflow wheel.
    Overflow,
}

/// Kafka: `TimingWheel`.
#[derive(Clone, Debug)]
pub(super) struct TimingWheel {
    pub tick_ms: u64,
    pub wheel_size: usize,
    /// `tick_ms * wheel_size`. A `u128` because the top level of a deep hierarchy may span more
    /// than `u64::MAX` ms; such a level holds every possible expiration, so it never gets an
    /// overflow wheel, and every `tick_ms` therefore fits a `u64`.
    pub interval_ms: u128,
    /// `interval_ms - 1` saturated to u64: the furthest ahead of the clock this level holds.
    /// Every distance fits a u64, so placing an entry needs no u128 arithmetic.
    max_ahead_ms: u64,
    /// Always a multiple of `tick_ms`; moves only in `advance_clock`.
    pub current_time_ms: u64,
    pub buckets: Vec<Bucket>,
}

impl TimingWheel {
    pub fn new(tick_ms: u64, wheel_size: usize, start_ms: u64) -> TimingWheel {
        debug_assert!(tick_ms >= 1 && wheel_size >= 2);
        let interval_ms = u128::from(tick_ms) * wheel_size as u128;
        TimingWheel {
            tick_ms,
            wheel_size,
            interval_ms,
            max_ahead_ms: u64::try_from(interval_ms - 1).unwrap_or(u64::MAX),
            current_time_ms: start_ms - start_ms % tick_ms,
            buckets: vec![Bucket::EMPTY; wheel_size],
        }
    }

    /// Kafka: `TimingWheel.addOverflowWheel`: tick = this interval, start = this current time.
    /// Only called after `placement` returned `Overflow`, which implies the interval fits u64.
    pub fn overflow_wheel(&self) -> TimingWheel {
        let tick_ms = u64::try_from(self.interval_ms)
            .expect("an overflow wheel is only needed while the interval fits in u64");
        TimingWheel::new(tick_ms, self.wheel_size, self.current_time_ms)
    }

    /// Kafka: the three-way test in `TimingWheel.add`. Pure: the caller sets the bucket's
    /// expiration and links the entry.
    #[inline(always)]
    pub fn placement(&self, expiration_ms: u64) -> Placement {
        // expiration < current + tick, and expiration < current + interval, as distances.
        let ahead_ms = expiration_ms.checked_sub(self.current_time_ms);
        if ahead_ms.is_none_or(|ahead_ms| ahead_ms < self.tick_ms) {
            Placement::Expired
        } else if ahead_ms.is_some_and(|ahead_ms| ahead_ms <= self.max_ahead_ms) {
            let virtual_id = expiration_ms / self.tick_ms;
            Placement::Bucket {
                index: (virtual_id % self.wheel_size as u64) as usize,
                expiration_ms: virtual_id * self.tick_ms,
            }
        } else {
            Placement::Overflow
        }
    }

    /// Kafka: `TimingWheel.advanceClock` for this level only. Returns whether the clock moved;
    /// the caller then advances the overflow wheel to the new current time, as Kafka recurses.
    pub fn advance_clock(&mut self, time_ms: u64) -> bool {
        if u128::from(time_ms) < u128::from(self.current_time_ms) + u128::from(self.tick_ms) {
            return false;
        }
        self.current_time_ms = time_ms - time_ms % self.tick_ms;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_follows_kafkas_three_way_rule() {
        let wheel = TimingWheel::new(20, 20, 1010);
        assert_eq!(wheel.current_time_ms, 1000);
        assert_eq!(wheel.interval_ms, 400);
        assert_eq!(wheel.placement(1019), Placement::Expired);
        assert_eq!(
            wheel.placement(1020),
            Placement::Bucket {
                index: 11,
                expiration_ms: 1020
            }
        );
        assert_eq!(
            wheel.placement(1399),
            Placement::Bucket {
                index: 9,
                expiration_ms: 1380
            }
        );
        assert_eq!(wheel.placement(1400), Placement::Overflow);
    }

    #[test]
    fn overflow_wheel_takes_parent_interval_and_current_time() {
        let parent = TimingWheel::new(20, 20, 1010);
        let overflow = parent.overflow_wheel();
        assert_eq!(overflow.tick_ms, 400);
        assert_eq!(overflow.interval_ms, 8000);
        // Started at the parent's 1000, rounded down to a multiple of 400.
        assert_eq!(overflow.current_time_ms, 800);
    }

    #[test]
    fn advance_clock_moves_only_by_whole_ticks() {
        let mut wheel = TimingWheel::new(400, 20, 800);
        assert!(!wheel.advance_clock(1199));
        assert_eq!(wheel.current_time_ms, 800);
        assert!(wheel.advance_clock(1250));
        assert_eq!(wheel.current_time_ms, 1200);
    }

    #[test]
    fn a_level_spanning_more_than_u64_takes_every_expiration() {
        let wheel = TimingWheel::new(1 << 62, 8, 0);
        assert!(wheel.interval_ms > u128::from(u64::MAX));
        assert!(matches!(
            wheel.placement(u64::MAX),
            Placement::Bucket {
                index: 3,
                expiration_ms
            } if expiration_ms == 3 << 62
        ));
    }

    #[test]
    #[should_panic(expected = "while still queued")]
    fn retargeting_a_queued_bucket_panics() {
        let mut bucket = Bucket::EMPTY;
        assert!(bucket.set_expiration(40));
        bucket.queued = true;
        assert!(!bucket.set_expiration(40));
        bucket.set_expiration(60);
    }
}
