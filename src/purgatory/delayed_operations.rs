//! `Purgatory<K, O>`: operations waiting on watch keys and on the timer.

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, DefaultHasher, Hash};

use serde::Serialize;

use crate::timer::{AddResult, Timer, TimerHandle};

/// Identifies an operation while it is held (waiting, or completed but still on a watch list).
/// Generational, so an id kept after the operation left the purgatory never aliases a new one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct OpId {
    pub slot: u32,
    pub generation: u32,
}

/// How an operation came to complete (the page's code-path view shows which).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Completion {
    /// `tryCompleteElseWatch`, the check before watching (Kafka step 2a).
    FirstTry,
    /// `tryCompleteElseWatch`, the check after watching (step 2c): the op stays on its watch
    /// lists as garbage.
    SecondTry,
    /// `checkAndComplete` on one of its keys.
    CheckAndComplete,
    /// The timer fired first: `onComplete`, then `onExpiration`.
    Expired,
}

/// What `try_complete_else_watch` did with a new operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Watched {
    CompletedOnFirstTry,
    CompletedOnSecondTry,
    /// Watched on every key and placed on the timer.
    Waiting,
}

/// The domain's side of a delayed operation (Kafka's `DelayedOperation` subclass methods).
pub trait Hooks<O> {
    /// Kafka: `tryComplete` without its final `forceComplete`: bring the operation's state up to
    /// date and say whether it may complete now.
    fn try_complete(&mut self, id: OpId, op: &mut O) -> bool;
    /// Kafka: `onComplete`. Runs exactly once per operation, whichever path completes it.
    fn on_complete(&mut self, id: OpId, op: &mut O, how: Completion);
    /// Kafka: `onExpiration`, run after `on_complete` when the timer completed the operation.
    fn on_expiration(&mut self, id: OpId, op: &mut O);
}

struct Held<K, O> {
    op: O,
    completed: bool,
    /// The live timer entry; `None` before the timer, after cancel, or after it fired.
    timer: Option<TimerHandle>,
    /// How many watch lists still hold this op. A completed op is dropped when this reaches 0.
    watch_count: u32,
    /// When its timeout fires, and the order it entered the purgatory: ops due in the same
    /// millisecond expire in the order they were scheduled (the wheel's bucket order differs).
    expires_at_ms: u64,
    seq: u64,
    /// The keys it was watched on (for the purge); the first apart, so that the usual
    /// single-key operation costs no allocation.
    first_key: Option<K>,
    other_keys: Vec<K>,
}

struct Slot<K, O> {
    generation: u32,
    held: Option<Held<K, O>>,
}

/// One watch list for the page: the key and its operations in FIFO order, each with whether it
/// has already completed (garbage awaiting a lazy removal or a purge).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WatcherView<K> {
    pub key: K,
    pub operations: Vec<(OpId, bool)>,
}

/// Kafka's `DelayedOperationPurgatory`: watch lists per key, a timing wheel for timeouts, and the
/// estimated-count purge of completed operations.
pub struct Purgatory<K, O> {
    name: &'static str,
    slots: Vec<Slot<K, O>>,
    /// Operations that completed while still on some watch list (what a purge must clean).
    garbage: Vec<OpId>,
    free_slots: Vec<u32>,
    /// Watch lists by key. Looked up by key only, never iterated in an order that reaches any
    /// output (the view and the purge sort keys first), and hashed with fixed keys, so the
    /// model stays deterministic.
    watchers: HashMap<K, VecDeque<OpId>, FixedHasher>,
    /// Sum of all watch list lengths: Kafka's `PurgatorySize` gauge.
    watched_entries: usize,
    timer: Timer<OpId>,
    /// Kafka: `estimatedTotalOperations`, incremented once per watched op, reset by a purge.
    estimated_total_operations: u64,
    purge_interval: u64,
    /// Time of the reaper's last step, from which its 200 ms poll counts.
    last_reaper_step_ms: u64,
    expired_scratch: Vec<OpId>,
    next_seq: u64,
}

/// Kafka: the reaper thread loops on `advanceClock(200L)`.
pub const REAPER_POLL_MS: u64 = 200;

/// SipHash with fixed keys (`DefaultHasher::new`): no per-process random seed.
type FixedHasher = BuildHasherDefault<DefaultHasher>;

impl<K: Ord + Hash + Clone, O> Purgatory<K, O> {
    pub fn new(name: &'static str, purge_interval: u64, start_ms: u64) -> Self {
        Purgatory {
            name,
            slots: Vec::new(),
            garbage: Vec::new(),
            free_slots: Vec::new(),
            watchers: HashMap::default(),
            watched_entries: 0,
            timer: Timer::new(start_ms),
            estimated_total_operations: 0,
            purge_interval,
            last_reaper_step_ms: start_ms,
            expired_scratch: Vec::new(),
            next_seq: 0,
        }
    }

    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Kafka's `PurgatorySize`: entries on all watch lists, completed ones included.
    pub fn purgatory_size(&self) -> usize {
        self.watched_entries
    }

    /// Kafka's `NumDelayedOperations`: live timer entries.
    pub fn num_delayed_operations(&self) -> usize {
        self.timer.size()
    }

    pub fn estimated_total_operations(&self) -> u64 {
        self.estimated_total_operations
    }

    pub fn purge_interval(&self) -> u64 {
        self.purge_interval
    }

    pub fn timer(&self) -> &Timer<OpId> {
        &self.timer
    }

    /// The operation, while held (waiting, or completed but still watched).
    pub fn get(&self, id: OpId) -> Option<&O> {
        self.held(id).map(|h| &h.op)
    }

    pub fn is_completed(&self, id: OpId) -> Option<bool> {
        self.held(id).map(|h| h.completed)
    }

    /// The timer entry of a waiting operation.
    pub fn timer_handle(&self, id: OpId) -> Option<TimerHandle> {
        self.held(id).and_then(|h| h.timer)
    }

    /// Held operations in slot order, with their completed flag.
    pub fn operations(&self) -> impl Iterator<Item = (OpId, &O, bool)> {
        self.slots.iter().enumerate().filter_map(|(slot, s)| {
            let held = s.held.as_ref()?;
            let id = OpId {
                slot: slot as u32,
                generation: s.generation,
            };
            Some((id, &held.op, held.completed))
        })
    }

    /// Waiting (not completed) operations.
    pub fn waiting(&self) -> impl Iterator<Item = (OpId, &O)> {
        self.operations()
            .filter(|(_, _, done)| !done)
            .map(|(id, op, _)| (id, op))
    }

    /// Length of one key's watch list (completed entries included).
    pub fn watched(&self, key: &K) -> usize {
        self.watchers.get(key).map_or(0, |l| l.len())
    }

    /// The watch lists, by key order.
    pub fn watch_lists(&self) -> Vec<WatcherView<K>> {
        let mut lists: Vec<_> = self.watchers.iter().collect();
        lists.sort_by(|a, b| a.0.cmp(b.0));
        lists
            .into_iter()
            .map(|(key, list)| WatcherView {
                key: key.clone(),
                operations: list
                    .iter()
                    .map(|&id| (id, self.held(id).is_some_and(|h| h.completed)))
                    .collect(),
            })
            .collect()
    }

    /// Kafka: `tryCompleteElseWatch`. Try; if that fails, watch the op on every key, count it once
    /// in the estimate, and try again (an event between the first try and the watch would
    /// otherwise find nobody to wake); if that fails too, start its timeout now.
    pub fn try_complete_else_watch(
        &mut self,
        op: O,
        keys: &[K],
        now_ms: u64,
        delay_ms: u64,
        hooks: &mut impl Hooks<O>,
    ) -> (OpId, Watched) {
        assert!(
            !keys.is_empty(),
            "an operation must be watched on at least one key"
        );
        let id = self.insert(op);
        if self.safe_try_complete(id, Completion::FirstTry, hooks) {
            self.release_if_unwatched(id);
            return (id, Watched::CompletedOnFirstTry);
        }
        for key in keys {
            self.watchers.entry(key.clone()).or_default().push_back(id);
            self.watched_entries += 1;
        }
        let held = self.held_mut(id);
        held.watch_count += keys.len() as u32;
        held.first_key = Some(keys[0].clone());
        held.other_keys = keys[1..].to_vec();
        self.estimated_total_operations += 1;
        if self.safe_try_complete(id, Completion::SecondTry, hooks) {
            return (id, Watched::CompletedOnSecondTry);
        }
        match self.timer.add(now_ms, delay_ms, id) {
            AddResult::Scheduled(handle) => {
                let held = self.held_mut(id);
                held.timer = Some(handle);
                held.expires_at_ms = now_ms + delay_ms;
            }
            // Kafka runs a task whose deadline has already passed on the executor at once.
            AddResult::Expired(id) => self.expire(id, hooks),
        }
        (id, Watched::Waiting)
    }

    /// Kafka: `checkAndComplete`. Walks the key's list in FIFO order, dropping completed ops and
    /// trying the others; removes the key when its list empties. Returns how many this call
    /// completed.
    pub fn check_and_complete(&mut self, key: &K, hooks: &mut impl Hooks<O>) -> usize {
        let Some(mut list) = self.watchers.remove(key) else {
            return 0;
        };
        let mut completed = 0;
        // One pass in FIFO order, rotating the survivors to the back of the same deque.
        for _ in 0..list.len() {
            let id = list.pop_front().expect("counted");
            let already_done = self.held(id).is_some_and(|h| h.completed);
            let done_now =
                !already_done && self.safe_try_complete(id, Completion::CheckAndComplete, hooks);
            completed += usize::from(done_now);
            if already_done || done_now {
                self.unwatch(id);
            } else {
                list.push_back(id);
            }
        }
        if !list.is_empty() {
            self.watchers.insert(key.clone(), list);
        }
        completed
    }

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
    /// is due, then purge if enough completed ops linger. Returns how many entries the purge
    /// removed (0 when it did not run).
    pub fn advance_clock(&mut self, now_ms: u64, hooks: &mut impl Hooks<O>) -> Option<usize> {
        let mut expired = std::mem::take(&mut self.expired_scratch);
        self.timer.advance_clock(now_ms, |_, id| expired.push(id));
        expired.sort_by_key(|&id| {
            let held = self.held(id).expect("a timer entry belongs to a held op");
            (held.expires_at_ms, held.seq)
        });
        for &id in &expired {
            self.held_mut(id).timer = None;
            self.expire(id, hooks);
        }
        expired.clear();
        self.expired_scratch = expired;
        self.last_reaper_step_ms = now_ms;
        self.purge_due().then(|| self.purge())
    }

    fn purge_due(&self) -> bool {
        self.estimated_total_operations
            .saturating_sub(self.timer.size() as u64)
            > self.purge_interval
    }

    /// Kafka: `purgeCompleted` over every watcher list, after resetting the estimate to the number
    /// of delayed operations.
    ///
    /// Kafka walks every watch list; completed entries can only sit on the lists of operations
    /// that completed while still watched elsewhere, which are remembered in `garbage`, so
    /// walking just those lists removes exactly the same entries at a cost proportional to the
    /// garbage rather than to every key.
    fn purge(&mut self) -> usize {
        self.estimated_total_operations = self.timer.size() as u64;
        let mut keys: Vec<K> = Vec::new();
        for id in std::mem::take(&mut self.garbage) {
            if let Some(held) = self.held(id).filter(|h| h.completed) {
                keys.extend(held.first_key.iter().chain(&held.other_keys).cloned());
            }
        }
        keys.sort();
        keys.dedup();
        let mut removed = Vec::new();
        let slots = &self.slots;
        for key in keys {
            let Some(list) = self.watchers.get_mut(&key) else {
                continue;
            };
            list.retain(|&id| {
                let done = slots[id.slot as usize]
                    .held
                    .as_ref()
                    .is_some_and(|h| h.completed);
                if done {
                    removed.push(id);
                }
                !done
            });
            if list.is_empty() {
                self.watchers.remove(&key);
            }
        }
        for &id in &removed {
            self.unwatch(id);
        }
        removed.len()
    }

    /// Kafka: `DelayedOperation.run` on the expiration executor.
    fn expire(&mut self, id: OpId, hooks: &mut impl Hooks<O>) {
        let held = self.held_mut(id);
        if held.completed {
            return;
        }
        held.completed = true;
        hooks.on_complete(id, &mut held.op, Completion::Expired);
        hooks.on_expiration(id, &mut held.op);
        self.note_garbage(id, 0);
        self.release_if_unwatched(id);
    }

    /// Kafka: `safeTryComplete` + the `forceComplete` inside `tryComplete`.
    fn safe_try_complete(&mut self, id: OpId, how: Completion, hooks: &mut impl Hooks<O>) -> bool {
        let held = self.held_mut(id);
        if held.completed || !hooks.try_complete(id, &mut held.op) {
            return false;
        }
        self.force_complete(id, how, hooks)
    }

    /// Kafka: `forceComplete`: first caller wins; cancel the timer entry, then `onComplete`.
    fn force_complete(&mut self, id: OpId, how: Completion, hooks: &mut impl Hooks<O>) -> bool {
        let held = self.held_mut(id);
        if held.completed {
            return false;
        }
        held.completed = true;
        if let Some(handle) = held.timer.take() {
            let cancelled = self.timer.cancel(handle);
            debug_assert_eq!(cancelled, Some(id));
        }
        let held = self.held_mut(id);
        hooks.on_complete(id, &mut held.op, how);
        // A check-and-complete is about to take the op off the list it walks; any other list
        // keeps it as garbage.
        let leaving = usize::from(how == Completion::CheckAndComplete);
        self.note_garbage(id, leaving);
        true
    }

    /// Remembers an op that just completed if it will stay on some watch list.
    fn note_garbage(&mut self, id: OpId, leaving: usize) {
        if self.held_mut(id).watch_count as usize > leaving {
            self.garbage.push(id);
        }
    }

    fn insert(&mut self, op: O) -> OpId {
        self.next_seq += 1;
        let held = Held {
            op,
            completed: false,
            timer: None,
            watch_count: 0,
            expires_at_ms: 0,
            seq: self.next_seq,
            first_key: None,
            other_keys: Vec::new(),
        };
        match self.free_slots.pop() {
            Some(slot) => {
                let s = &mut self.slots[slot as usize];
                s.held = Some(held);
                OpId {
                    slot,
                    generation: s.generation,
                }
            }
            None => {
                self.slots.push(Slot {
                    generation: 0,
                    held: Some(held),
                });
                OpId {
                    slot: (self.slots.len() - 1) as u32,
                    generation: 0,
                }
            }
        }
    }

    fn unwatch(&mut self, id: OpId) {
        self.watched_entries -= 1;
        self.held_mut(id).watch_count -= 1;
        self.release_if_unwatched(id);
    }

    fn release_if_unwatched(&mut self, id: OpId) {
        let held = self.held_mut(id);
        if held.completed && held.watch_count == 0 {
            let slot = &mut self.slots[id.slot as usize];
            slot.held = None;
            slot.generation = slot.generation.wrapping_add(1);
            self.free_slots.push(id.slot);
        }
    }

    fn held(&self, id: OpId) -> Option<&Held<K, O>> {
        let slot = self.slots.get(id.slot as usize)?;
        (slot.generation == id.generation)
            .then_some(slot.held.as_ref())
            .flatten()
    }

    fn held_mut(&mut self, id: OpId) -> &mut Held<K, O> {
        let slot = &mut self.slots[id.slot as usize];
        assert_eq!(
            slot.generation, id.generation,
            "stale operation id in the {} purgatory",
            self.name
        );
        slot.held.as_mut().expect("operation is held")
    }
}
