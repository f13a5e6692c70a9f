//! The hierarchy of timing wheels and the delay queue of their buckets (Kafka: `SystemTimer`
//! with its `TimingWheel`s and `DelayQueue`), over an [`EntryStore`] that keeps the entries.

use super::delay_queue::DelayQueue;
use super::store::{self, BucketRef, EntryStore};
use super::wheel::{Bucket, BucketId, Placement, TimingWheel};
use super::{AddResult, Fired, TimerHandle, DEFAULT_TICK_MS, DEFAULT_WHEEL_SIZE};
use crate::plumbing::hot;

/// The hierarchy of wheels and the delay queue of their buckets: a timer without storage of its
/// own. Each operation takes the [`EntryStore`] that keeps the entries, always the same one.
#[derive(Clone, Debug)]
pub(crate) struct Wheels {
    /// Level 0 is the finest wheel; level k + 1 is level k's overflow wheel.
    pub(super) levels: Vec<TimingWheel>,
    pub(super) delay_queue: DelayQueue,
    /// The last expiration placed in a bucket, and that bucket. Entries added in one millisecond
    /// with one delay, and entries cascading out of one bucket, mostly share their expiration;
    /// while no wheel's clock moves, the same expiration lands in the same bucket, whose
    /// expiration is already set (nothing to offer), so the walk up the levels can be skipped.
    /// Forgotten before every flush, the only time a clock moves or a bucket is emptied.
    last_placement: Option<(u64, BucketId)>,
    /// The coarsest level an entry went into since [`Self::forget_placed_levels`] (for the idle
    /// fast-forward: see [`Self::interval_in_use_ms`]).
    top_placed_level: u32,
}

impl Wheels {
    /// Kafka's defaults: tick_ms 1, wheel_size 20.
    pub fn new(start_ms: u64) -> Self {
        Self::with_wheel(DEFAULT_TICK_MS, DEFAULT_WHEEL_SIZE, start_ms)
    }

    /// Wheels whose finest level has `wheel_size` buckets of `tick_ms` each, starting at
    /// `start_ms` rounded down to a multiple of `tick_ms`.
    pub fn with_wheel(tick_ms: u64, wheel_size: usize, start_ms: u64) -> Self {
        assert!(tick_ms >= 1, "tick_ms must be at least 1");
        // With one bucket a level holds nothing and its overflow wheel has the same tick, so
        // the hierarchy would never end.
        assert!(wheel_size >= 2, "wheel_size must be at least 2");
        assert!(
            wheel_size <= store::MAX_WHEEL_SIZE,
            "wheel_size must be at most {}",
            store::MAX_WHEEL_SIZE
        );
        Wheels {
            levels: vec![TimingWheel::new(tick_ms, wheel_size, start_ms)],
            delay_queue: DelayQueue::default(),
            last_placement: None,
            top_placed_level: 0,
        }
    }

    /// Kafka: `SystemTimer.add`. Expiration = `now_ms + delay_ms`, where `now_ms` is the caller's
    /// clock; the wheels' own current times lag it and move only when a bucket expires.
    ///
    /// A zero delay is `Expired` at once even when the wheels lag (where Kafka would park the
    /// task in an already-due bucket until the reaper's next poll). Panics if `now_ms` is behind
    /// the finest wheel's current time (the caller's clock went backwards) or the expiration
    /// overflows u64.
    pub fn add<S: EntryStore>(
        &mut self,
        store: &mut S,
        now_ms: u64,
        delay_ms: u64,
        task: S::Task,
    ) -> AddResult<S::Task> {
        let wheel_time_ms = self.current_time_ms();
        assert!(
            now_ms >= wheel_time_ms,
            "timer add at {now_ms} ms is behind the timer's clock at {wheel_time_ms} ms"
        );
        let expiration_ms = now_ms
            .checked_add(delay_ms)
            .expect("timer expiration overflows u64");
        if delay_ms == 0 {
            return AddResult::Expired(task);
        }
        match self.target_bucket(expiration_ms) {
            None => AddResult::Expired(task),
            Some(bucket) => {
                let handle = store.insert(task, expiration_ms, BucketRef::new(bucket));
                self.link(store, handle, bucket);
                AddResult::Scheduled(handle)
            }
        }
    }

    /// Kafka: `TimerTask.cancel`. O(1): frees the entry; the bucket's flush skips the stale
    /// handle. Returns whether the entry was still live (false for a stale handle). Cancelled
    /// entries never fire. The bucket stays queued even if it is now empty, and is later
    /// flushed as a no-op, as in Kafka.
    #[inline(always)]
    pub fn cancel<S: EntryStore>(&mut self, store: &mut S, handle: TimerHandle) -> bool {
        if store.slot_of(handle).is_none() {
            return false;
        }
        store.cancel(handle);
        true
    }

    /// Earliest expiration among buckets waiting in the delay queue (possibly a bucket emptied
    /// by cancels; Kafka flushes those as no-ops too). `None` when the queue is empty.
    ///
    /// Because the wheels lag the caller's clock, this can be earlier than the caller's `now`;
    /// advancing to `max(now, next)` is then correct, and advancing to the earlier value is
    /// harmless.
    #[inline(always)]
    pub fn next_expiration_ms(&self) -> Option<u64> {
        self.delay_queue.peek_expiration_ms()
    }

    /// Kafka: `SystemTimer.advanceClock` without the blocking poll. While the delay queue's head
    /// bucket has expiration <= `now_ms`: pop it, advance the wheels to its expiration, flush
    /// it, and re-insert each entry, which either cascades into a finer bucket or is passed to
    /// `on_expired` because it is now due. Buckets go in order of (expiration, offer order);
    /// within a bucket, entries go in insertion order. Returns whether any bucket was processed.
    pub fn advance_clock<S: EntryStore>(
        &mut self,
        store: &mut S,
        now_ms: u64,
        mut on_expired: impl FnMut(Fired<S::Task>),
    ) -> bool {
        let mut processed = false;
        while let Some(queued) = self.delay_queue.pop_due(now_ms) {
            processed = true;
            self.last_placement = None;
            self.advance_wheels(queued.expiration_ms);
            self.flush(store, queued.bucket, queued.expiration_ms, &mut on_expired);
        }
        processed
    }

    /// Where a live entry sits now: (level index, bucket index). Level 0 is the finest wheel.
    pub fn locate<S: EntryStore>(&self, store: &S, handle: TimerHandle) -> Option<(usize, usize)> {
        let slot = store.slot_of(handle)?;
        let id = store.bucket_of(slot).id();
        Some((id.level as usize, id.index as usize))
    }

    /// The finest wheel's current time (Kafka: `TimingWheel.currentTimeMs` of the first level).
    /// It lags the caller's clock and moves only when a bucket expires.
    #[inline(always)]
    pub fn current_time_ms(&self) -> u64 {
        hot::at(&self.levels, 0).current_time_ms
    }

    /// How many wheel levels exist so far (overflow wheels are created on demand).
    pub fn level_count(&self) -> usize {
        self.levels.len()
    }

    /// How many levels, from the finest, a move in time must keep as they are: up to the
    /// coarsest one with a bucket set (queued). The levels above hold nothing; each one's clock
    /// is the finest level's rounded down to its own tick, as Kafka's `advanceClock` leaves it.
    /// (An overflow wheel stays once made: a timer idle for minutes that is handed a short
    /// timeout builds levels it will not use again.)
    fn busy_levels(&self) -> usize {
        self.levels
            .iter()
            .rposition(|wheel| wheel.buckets.iter().any(|b| b.expiration_ms.is_some()))
            .map_or(1, |top| top + 1)
    }

    /// The span of the coarsest level in use: one with a bucket set now ([`Self::busy_levels`]),
    /// or one an entry went into since [`Self::forget_placed_levels`]. A caller that watches the
    /// wheels repeat over a stretch and then moves them by a multiple of this span (see
    /// [`Self::shift_by`]) reads it at both ends of the stretch: a stretch that used a coarser
    /// level than the one before did not repeat it.
    pub fn interval_in_use_ms(&self) -> u128 {
        let levels = self.busy_levels().max(self.top_placed_level as usize + 1);
        self.levels[levels - 1].interval_ms
    }

    /// Starts a new record of the levels entries go into (see [`Self::interval_in_use_ms`]).
    pub fn forget_placed_levels(&mut self) {
        self.top_placed_level = 0;
    }

    /// Moves the wheels `delta_ms` later: the levels in use ([`Self::busy_levels`]) with their
    /// clocks, bucket expirations, queued buckets and live entries; the clocks of the empty
    /// levels above, as the finest clock's advance would have set them. These are then exactly
    /// the wheels that the same adds and advances, each `delta_ms` later, would have built, since
    /// `delta_ms` must be a multiple of the span of the coarsest level in use (asserted; see
    /// [`Self::interval_in_use_ms`]): each expiration keeps its bucket index at every level. For a caller that skips a stretch of time
    /// in which the same things happen over and over (the simulation's idle fast-forward).
    pub fn shift_by<S: EntryStore>(&mut self, store: &mut S, delta_ms: u64) {
        let busy = self.busy_levels();
        assert_eq!(
            u128::from(delta_ms) % self.levels[busy - 1].interval_ms,
            0,
            "a shift must keep every entry in its bucket"
        );
        for wheel in &mut self.levels[..busy] {
            wheel.current_time_ms += delta_ms;
            for bucket in &mut wheel.buckets {
                if let Some(expiration_ms) = &mut bucket.expiration_ms {
                    *expiration_ms += delta_ms;
                }
                for &handle in &bucket.handles {
                    if let Some(slot) = store.slot_of(handle) {
                        store.delay_expiration(slot, delta_ms);
                    }
                }
            }
        }
        let finest_ms = self.current_time_ms();
        for wheel in &mut self.levels[busy..] {
            wheel.current_time_ms = finest_ms - finest_ms % wheel.tick_ms;
        }
        self.delay_queue.delay_all(delta_ms);
        self.last_placement = None;
    }

    /// Every time the wheels hold, relative to `origin_ms` and in a fixed order (each level's
    /// clock; each queued bucket's level, index and expiration; each live entry's expiration,
    /// bucket by bucket): two timers that differ only by a move in time (see [`Self::shift_by`])
    /// give the same list from origins that differ by as much.
    pub fn relative_shape<S: EntryStore>(&self, store: &S, origin_ms: u64, out: &mut Vec<u64>) {
        let rel = |t: u64| t.wrapping_sub(origin_ms);
        out.push(self.levels.len() as u64);
        // The levels above those in use hold nothing, and their clocks follow the finest one's.
        for wheel in &self.levels[..self.busy_levels()] {
            out.push(rel(wheel.current_time_ms));
            for (index, bucket) in wheel.buckets.iter().enumerate() {
                let Some(expiration_ms) = bucket.expiration_ms else {
                    continue;
                };
                out.extend([index as u64, rel(expiration_ms), u64::from(bucket.queued)]);
                for &handle in &bucket.handles {
                    if let Some(slot) = store.slot_of(handle) {
                        out.push(rel(store.expiration_ms(slot)));
                    }
                }
            }
        }
    }

    /// Kafka: `TimingWheel.add` without the append. Walks up the levels, creating overflow
    /// wheels as needed, until one holds `expiration_ms`; sets that bucket's expiration and
    /// offers it to the delay queue if the value changed. `None` means already expired.
    #[inline(always)]
    fn target_bucket(&mut self, expiration_ms: u64) -> Option<BucketId> {
        match self.last_placement {
            Some((last_ms, id)) if last_ms == expiration_ms => return Some(id),
            _ => {}
        }
        let mut level = 0;
        loop {
            match hot::at(&self.levels, level).placement(expiration_ms) {
                Placement::Expired => return None,
                Placement::Overflow => {
                    if level + 1 == self.levels.len() {
                        let overflow = self.levels[level].overflow_wheel();
                        self.levels.push(overflow);
                    }
                    level += 1;
                }
                Placement::Bucket {
                    index,
                    expiration_ms: bucket_expiration_ms,
                } => {
                    let id = BucketId {
                        level: level as u32,
                        index: index as u32,
                    };
                    let bucket = self.bucket_mut(id);
                    if bucket.set_expiration(bucket_expiration_ms) {
                        bucket.queued = true;
                        self.delay_queue.offer(bucket_expiration_ms, id);
                    }
                    self.last_placement = Some((expiration_ms, id));
                    self.top_placed_level = self.top_placed_level.max(id.level);
                    return Some(id);
                }
            }
        }
    }

    /// Kafka: `TimerTaskList.add`: appends a live entry's handle to bucket `id`, which its entry
    /// already names.
    #[inline(always)]
    fn link<S: EntryStore>(&mut self, store: &S, handle: TimerHandle, id: BucketId) {
        debug_assert_eq!(store.bucket_of(handle.slot()).id(), id);
        hot::push(&mut self.bucket_mut(id).handles, handle);
    }

    #[inline(always)]
    fn bucket_mut(&mut self, id: BucketId) -> &mut Bucket {
        let wheel = hot::at_mut(&mut self.levels, id.level as usize);
        hot::at_mut(&mut wheel.buckets, id.index as usize)
    }

    /// Kafka: `TimingWheel.advanceClock`, which recurses into the overflow wheel with the new
    /// current time whenever a level moves.
    fn advance_wheels(&mut self, time_ms: u64) {
        let mut time_ms = time_ms;
        for wheel in &mut self.levels {
            if !wheel.advance_clock(time_ms) {
                break;
            }
            time_ms = wheel.current_time_ms;
        }
    }

    /// Kafka: `TimerTaskList.flush(addTimerTaskEntry)`. Detaches the bucket's list, resets its
    /// expiration to unset, and re-inserts each live entry in list order (stale handles of
    /// cancelled entries are skipped).
    fn flush<S: EntryStore, F: FnMut(Fired<S::Task>)>(
        &mut self,
        store: &mut S,
        id: BucketId,
        expiration_ms: u64,
        on_expired: &mut F,
    ) {
        let bucket = self.bucket_mut(id);
        assert!(
            bucket.queued,
            "a bucket popped from the delay queue was not queued"
        );
        assert_eq!(
            bucket.expiration_ms,
            Some(expiration_ms),
            "a queued bucket's expiration changed"
        );
        let handles = bucket.take_list();
        for &handle in &handles {
            if let Some(slot) = store.slot_of(handle) {
                self.reinsert(store, handle, slot, on_expired);
            }
        }
        // A re-insert never targets the bucket being flushed (its whole range is now due at its
        // own level), so the storage can go back to it.
        self.bucket_mut(id).recycle(handles);
    }

    /// Kafka: `SystemTimer.addTimerTaskEntry` for an entry coming out of a flushed bucket.
    fn reinsert<S: EntryStore, F: FnMut(Fired<S::Task>)>(
        &mut self,
        store: &mut S,
        handle: TimerHandle,
        slot: u32,
        on_expired: &mut F,
    ) {
        let expiration_ms = store.expiration_ms(slot);
        match self.target_bucket(expiration_ms) {
            Some(id) => {
                store.set_bucket(slot, BucketRef::new(id));
                self.link(store, handle, id);
            }
            None => {
                let (handle, task) = store.remove(slot);
                on_expired(Fired {
                    handle,
                    expiration_ms,
                    task,
                });
            }
        }
    }
}
