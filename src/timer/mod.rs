//! The hierarchical timing wheel (Kafka's `SystemTimer` + `TimingWheel`), generic over the task
//! type and knowing nothing of Kafka.
//!
//! Levels of wheels are created on demand; each bucket waits in a delay queue keyed by its
//! expiration; when the caller advances the clock, due buckets are flushed and their entries
//! either cascade into finer buckets or are handed back as expired. Everything is deterministic:
//! a slab with generational handles, buckets holding handles in insertion order, and a heap with
//! sequence-number tie-breaks.
//!
//! [`Wheels`] (`wheels.rs`) is the mechanism, over any [`EntryStore`]; [`Timer`] is wheels with
//! their own store ([`Entries`]), for tasks that live nowhere else. One level of the hierarchy is
//! a `TimingWheel` (`wheel.rs`).
//! See docs/kafka-semantics.md section (d) for the rules followed here.

mod delay_queue;
mod entries;
mod invariants;
mod store;
mod view;
mod wheel;
mod wheels;

#[cfg(test)]
mod tests;

use entries::Entries;
pub(crate) use store::{BucketRef, EntryStore};
pub use view::{BucketView, LevelView, TimerView};
pub(crate) use wheels::Wheels;

/// Kafka's `SystemTimer` default tick.
pub const DEFAULT_TICK_MS: u64 = 1;
/// Kafka's `SystemTimer` default wheel size.
pub const DEFAULT_WHEEL_SIZE: usize = 20;

/// A handle to a scheduled entry. Generational, so a stale handle (entry already fired or
/// cancelled) is harmless.
///
/// Serialized as `{"slot": u32, "generation": u32}` rather than one u64, so that it stays an
/// exact JavaScript number however often a slot is reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct TimerHandle {
    slot: u32,
    generation: u32,
}

impl TimerHandle {
    /// The handle of the entry in `slot` at `generation` (an [`EntryStore`] names its entries
    /// so).
    pub(crate) fn new(slot: u32, generation: u32) -> Self {
        TimerHandle { slot, generation }
    }

    /// The entry's slot in its store.
    pub fn slot(self) -> u32 {
        self.slot
    }

    /// Which of the entries this slot has held it names (a slot is reused once its entry fired
    /// or was cancelled, or, in the purgatory, once its operation left).
    pub fn generation(self) -> u32 {
        self.generation
    }
}

/// The outcome of [`Timer::add`].
#[must_use = "an expired task is handed back and must be run by the caller"]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AddResult<T> {
    /// Placed in a bucket; will be passed to `advance_clock`'s callback when due.
    Scheduled(TimerHandle),
    /// Already expired at insertion (Kafka: insert rejected as expired, task run at once). The
    /// task is handed back.
    Expired(T),
}

impl<T> AddResult<T> {
    /// The handle, when the task was scheduled.
    pub fn handle(&self) -> Option<TimerHandle> {
        match self {
            AddResult::Scheduled(handle) => Some(*handle),
            AddResult::Expired(_) => None,
        }
    }
}

/// An entry that came due, as [`Timer::advance_clock`] hands it back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fired<T> {
    /// The entry's handle, stale from now on.
    pub handle: TimerHandle,
    /// When it was due (`now_ms + delay_ms` of its `add`).
    pub expiration_ms: u64,
    pub task: T,
}

/// Kafka: `SystemTimer` with its `TimingWheel` hierarchy and `DelayQueue`, keeping its own
/// entries. Everything but the storage is [`Wheels`].
#[derive(Clone, Debug)]
pub struct Timer<T> {
    wheels: Wheels,
    entries: Entries<T>,
}

impl<T> Timer<T> {
    /// Kafka's defaults: tick_ms 1, wheel_size 20.
    pub fn new(start_ms: u64) -> Self {
        Self::with_wheel(DEFAULT_TICK_MS, DEFAULT_WHEEL_SIZE, start_ms)
    }

    /// A timer whose finest wheel has `wheel_size` buckets of `tick_ms` each, starting at
    /// `start_ms` rounded down to a multiple of `tick_ms`.
    pub fn with_wheel(tick_ms: u64, wheel_size: usize, start_ms: u64) -> Self {
        Timer {
            wheels: Wheels::with_wheel(tick_ms, wheel_size, start_ms),
            entries: Entries::default(),
        }
    }

    /// See [`Wheels::add`].
    pub fn add(&mut self, now_ms: u64, delay_ms: u64, task: T) -> AddResult<T> {
        self.wheels.add(&mut self.entries, now_ms, delay_ms, task)
    }

    /// See [`Wheels::cancel`].
    pub fn cancel(&mut self, handle: TimerHandle) -> bool {
        self.wheels.cancel(&mut self.entries, handle)
    }

    /// Number of live entries (Kafka's `taskCounter` / `NumDelayedOperations`).
    pub fn size(&self) -> usize {
        self.entries.live()
    }

    /// See [`Wheels::next_expiration_ms`].
    pub fn next_expiration_ms(&self) -> Option<u64> {
        self.wheels.next_expiration_ms()
    }

    /// See [`Wheels::advance_clock`].
    pub fn advance_clock(&mut self, now_ms: u64, on_expired: impl FnMut(Fired<T>)) -> bool {
        self.wheels
            .advance_clock(&mut self.entries, now_ms, on_expired)
    }

    /// The expiration time of a live entry.
    pub fn expiration_ms(&self, handle: TimerHandle) -> Option<u64> {
        self.entries.get(handle).map(|entry| entry.expiration_ms)
    }

    /// The task of a live entry.
    pub fn get(&self, handle: TimerHandle) -> Option<&T> {
        self.entries.get(handle).map(|entry| &entry.task)
    }

    /// The task of a live entry, mutably. Changing the task never moves the entry.
    pub fn get_mut(&mut self, handle: TimerHandle) -> Option<&mut T> {
        self.entries.get_mut(handle).map(|entry| &mut entry.task)
    }

    /// See [`Wheels::shift_by`].
    pub fn shift_by(&mut self, delta_ms: u64) {
        self.wheels.shift_by(&mut self.entries, delta_ms);
    }

    /// See [`Wheels::locate`].
    pub fn locate(&self, handle: TimerHandle) -> Option<(usize, usize)> {
        self.wheels.locate(&self.entries, handle)
    }

    /// See [`Wheels::current_time_ms`].
    pub fn current_time_ms(&self) -> u64 {
        self.wheels.current_time_ms()
    }

    /// How many wheel levels exist so far (overflow wheels are created on demand).
    pub fn level_count(&self) -> usize {
        self.wheels.level_count()
    }

    /// For the page's timing-wheel view: every level and its non-empty or still-queued buckets.
    pub fn view(&self) -> TimerView {
        self.wheels.view(&self.entries)
    }

    /// See [`Wheels::assert_invariants`].
    pub fn assert_invariants(&self) {
        self.wheels.assert_invariants(&self.entries);
    }
}
