//! A plain, serializable snapshot of the wheel for the page's timing-wheel view.
//!
//! It copies every level's geometry and clock and, per level, only the buckets that hold entries
//! or still wait in the delay queue, so its size follows the live entries, not the wheel size.

use super::{EntryStore, TimerHandle, Wheels};

/// The whole hierarchy, finest level first.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TimerView {
    pub levels: Vec<LevelView>,
    /// Live entries, as [`Timer::size`].
    pub size: usize,
    /// The delay queue's head, as [`Timer::next_expiration_ms`].
    pub next_expiration_ms: Option<u64>,
}

/// One wheel (Kafka: `TimingWheel`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LevelView {
    pub tick_ms: u64,
    pub wheel_size: usize,
    /// `tick_ms * wheel_size`, saturated at `u64::MAX` for a top level that spans more.
    pub interval_ms: u64,
    pub current_time_ms: u64,
    /// Buckets that hold entries or are still queued, by ascending index.
    pub buckets: Vec<BucketView>,
}

/// One bucket (Kafka: `TimerTaskList`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct BucketView {
    pub index: usize,
    /// `None` when unset (Kafka's -1): only for a bucket that is neither queued nor holding
    /// entries, which the view leaves out, so in practice always `Some`.
    pub expiration_ms: Option<u64>,
    /// The entries in list order, which is the order they will be re-inserted or fired.
    pub entries: Vec<TimerHandle>,
}

impl Wheels {
    /// For the page's timing-wheel view: every level and its non-empty or still-queued buckets,
    /// with the entries `store` keeps.
    pub fn view<S: EntryStore>(&self, store: &S) -> TimerView {
        let levels = self
            .levels
            .iter()
            .map(|wheel| LevelView {
                tick_ms: wheel.tick_ms,
                wheel_size: wheel.wheel_size,
                interval_ms: u64::try_from(wheel.interval_ms).unwrap_or(u64::MAX),
                current_time_ms: wheel.current_time_ms,
                buckets: wheel
                    .buckets
                    .iter()
                    .enumerate()
                    // A bucket holding live entries is always queued.
                    .filter(|(_, bucket)| bucket.queued)
                    .map(|(index, bucket)| BucketView {
                        index,
                        expiration_ms: bucket.expiration_ms,
                        entries: live_handles(store, &bucket.handles),
                    })
                    .collect(),
            })
            .collect();
        TimerView {
            levels,
            size: store.live(),
            next_expiration_ms: self.next_expiration_ms(),
        }
    }
}

fn live_handles<S: EntryStore>(store: &S, handles: &[TimerHandle]) -> Vec<TimerHandle> {
    handles
        .iter()
        .copied()
        .filter(|&handle| store.slot_of(handle).is_some())
        .collect()
}
