//! The purgatory's reaper (Kafka: `ExpiredOperationReaper` looping on `advanceClock(200L)`): when
//! it next has work, its step in two halves (collect the due timeouts, run each at its own place
//! in the millisecond), and the purge of completed operations that linger on watch lists.

use std::hash::Hash;

use super::{held_mut, note_garbage, Completion, Hooks, OpId, Purgatory, Timeout};
use crate::plumbing::prefetch::Memory;
use crate::timer::{EntryStore, Fired};

/// Kafka: the reaper thread loops on `advanceClock(200L)`.
const REAPER_POLL_MS: u64 = 200;

/// How many garbage operations ahead the purge asks for a slot: enough loads in flight to hide
/// a memory access behind the work on the ones before it.
const PURGE_PREFETCH_DISTANCE: usize = 16;

impl<K: Ord + Hash + Clone, O> Purgatory<K, O> {
    /// When the reaper next has work: the timer's next bucket, or a purge that is due.
    pub fn next_wake_ms(&self, now_ms: u64) -> Option<u64> {
        let timer = self.timer.next_expiration_ms();
        let purge = self.purge_due().then(|| {
            // The reaper polls for up to 200 ms at a time since its last step; an idle poll ends
            // on that grid, and only then does it look at the purge condition.
            let last = self.last_reaper_step_ms;
            last + REAPER_POLL_MS * now_ms.saturating_sub(last).div_ceil(REAPER_POLL_MS).max(1)
        });
        match (timer, purge) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// One reaper step at `now_ms` (Kafka: `DelayedOperationPurgatory.advanceClock`): expire what
    /// is due, in (expiration, order) order, then purge if enough completed ops linger. Returns
    /// how many entries the purge removed (0 when it did not run). The same as
    /// [`Self::collect_due`], [`Self::run_next_due`] until nothing is due, then
    /// [`Self::purge_step`].
    pub fn advance_clock(&mut self, now_ms: u64, hooks: &mut impl Hooks<O>) -> Option<usize> {
        self.collect_due(now_ms);
        while let Some((_, _, id)) = self.due.pop() {
            self.expire_due(id, hooks);
        }
        self.purge_step(now_ms)
    }

    /// The first half of a reaper step: advance the wheels to `now_ms` (cascading entries into
    /// finer buckets) and take out the timeouts that are due, without running them. They wait,
    /// in (expiration, order) order, for [`Self::run_next_due`]; meanwhile they no longer count
    /// in [`Self::num_delayed_operations`] (Kafka's timer counts a task out when its bucket is
    /// flushed, before the executor runs it). An operation that completes meanwhile is skipped
    /// when its turn comes.
    pub fn collect_due(&mut self, now_ms: u64) {
        if self.next_wake_ms(now_ms).is_some_and(|wake| wake <= now_ms) {
            self.woken_ms = Some(now_ms);
        }
        let mut due = std::mem::take(&mut self.due);
        let before = due.len();
        self.timer
            .advance_clock(&mut self.held, now_ms, |fired: Fired<Timeout>| {
                crate::plumbing::hot::push(
                    &mut due,
                    (fired.expiration_ms, fired.task.seq, fired.task.op),
                );
            });
        if due.len() > before {
            // First at the back, so each run pops one. Entries come out of the wheels roughly
            // in order already; the sort is cheap then.
            due.sort_unstable_by(|a, b| b.cmp(a));
        }
        self.due = due;
    }

    /// The order (see [`Self::try_complete_else_watch_ordered`]) of the first due timeout that
    /// has not run, if any.
    pub fn next_due_order(&self) -> Option<u64> {
        self.due.last().map(|&(_, order, _)| order)
    }

    /// Runs the first due timeout collected by [`Self::collect_due`]: Kafka's
    /// `DelayedOperation.run`, which expires the operation unless it completed meanwhile.
    /// Returns false when nothing was due.
    pub fn run_next_due(&mut self, hooks: &mut impl Hooks<O>) -> bool {
        let Some((_, _, id)) = self.due.pop() else {
            return false;
        };
        self.expire_due(id, hooks);
        true
    }

    /// The second half of a reaper step: purge if enough completed operations linger (Kafka:
    /// `estimatedTotalOperations - numDelayed > purgeInterval`). Returns how many entries the
    /// purge removed, or `None` when it did not run.
    pub fn purge_step(&mut self, now_ms: u64) -> Option<usize> {
        self.last_reaper_step_ms = now_ms;
        self.purge_due().then(|| self.purge())
    }

    /// Whether this purgatory's own reaper woke at `now_ms` (see [`Self::collect_due`]): a caller
    /// that wakes several purgatories together runs [`Self::purge_step`] only for those.
    pub fn reaper_woke_at(&self, now_ms: u64) -> bool {
        self.woken_ms == Some(now_ms)
    }

    fn purge_due(&self) -> bool {
        self.estimated_total_operations
            .saturating_sub(self.held.live() as u64)
            > self.purge_interval
    }

    /// Kafka: `purgeCompleted` over every watcher list, after resetting the estimate to the number
    /// of delayed operations.
    ///
    /// The completed entries are those of operations that completed while still watched: each
    /// list has counted its own as they completed, and the operations are remembered in
    /// `garbage`. Releasing exactly those and taking each list's count off removes the same
    /// entries as Kafka's walk of every list, at a cost proportional to the garbage. Their ids
    /// stay in the lists' storage as tombstones until a walk or a compaction drops them.
    fn purge(&mut self) -> usize {
        self.estimated_total_operations = self.held.live() as u64;
        // Drained and handed back, so its capacity is reused purge after purge.
        let mut garbage = std::mem::take(&mut self.garbage);
        crate::plumbing::prefetch::each_asked_ahead(
            self,
            &garbage,
            PURGE_PREFETCH_DISTANCE,
            // Most of the garbage completed moments ago: in wasm its slots are still cached.
            Memory::Cached,
            |purgatory, id| purgatory.held.touch_for_release(id),
            |purgatory, id| {
                // Not held any more if walks have taken it off all its lists since.
                if let Some(held) = purgatory.held.get(id).filter(|h| h.completed) {
                    let memberships = held.memberships;
                    purgatory.release(id, memberships);
                }
            },
        );
        garbage.clear();
        self.garbage = garbage;
        let held = &self.held;
        self.watchers.purge(|id| held.is_held(id))
    }

    /// A due timeout's turn: the operation may have completed (and even left) since its entry
    /// was taken off the timer.
    fn expire_due(&mut self, id: OpId, hooks: &mut impl Hooks<O>) {
        if self.held.get(id).is_some_and(|h| !h.completed) {
            self.expire(id, hooks);
        }
    }

    /// Kafka: `DelayedOperation.run` on the expiration executor.
    pub(super) fn expire(&mut self, id: OpId, hooks: &mut impl Hooks<O>) {
        let held = held_mut(&mut self.held, id, self.name);
        if held.completed {
            return;
        }
        held.completed = true;
        hooks.on_complete(id, &mut held.op, Completion::Expired);
        hooks.on_expiration(id, &mut held.op);
        note_garbage(&mut self.watchers, &mut self.garbage, id, held, 0);
    }
}
