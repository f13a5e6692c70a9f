//! `Purgatory<K, O>`: operations waiting on watch keys and on the timer. Here: adding, watching
//! and completing operations; `reaper`: timeouts and purges; `time_shift`: what the simulation's
//! idle fast-forward reads and moves.

use std::hash::Hash;

use serde::Serialize;

use crate::plumbing::prefetch::Memory;
use crate::timer::{AddResult, EntryStore, TimerHandle, TimerView, Wheels};

use super::held::{Held, Slab};
use super::watchers::{ListId, Memberships, Watchers};

mod reaper;
mod time_shift;

/// Identifies an operation while it is held (waiting, or completed but still on a watch list).
/// Generational, so an id kept after the operation left the purgatory never aliases a new one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct OpId {
    pub slot: u32,
    pub generation: u32,
}

/// What a purgatory's timer entry carries: the operation, and its order: where its timeout
/// stands among everything else due in the same millisecond (by default the order in which
/// operations went on the timer; a caller with a schedule of its own passes its place in that
/// schedule). Operations due in one millisecond expire in this order, not in the wheel's bucket
/// order, which a cascade changes. Both are kept in the operation's slot, which is the timer's
/// entry store (see `held.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Timeout {
    pub op: OpId,
    pub seq: u64,
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
    /// `forceComplete` called from outside the purgatory (Kafka's own purgatory benchmark
    /// completes its operations this way, from a completion thread).
    Forced,
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

/// One watch list for the page: the key and its operations in FIFO order, each with whether it
/// has already completed (garbage awaiting a lazy removal or a purge).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WatcherView<K> {
    pub key: K,
    pub operations: Vec<(OpId, bool)>,
}

/// Kafka's `DelayedOperationPurgatory`: watch lists per key, a timing wheel for timeouts, and the
/// estimated-count purge of completed operations.
#[derive(Clone)]
pub struct Purgatory<K, O> {
    name: &'static str,
    held: Slab<O>,
    /// Operations that completed while still on some watch list (what a purge must clean).
    garbage: Vec<OpId>,
    watchers: Watchers<K>,
    /// The timing wheels; the entries are in `held`, one in each timed operation's slot.
    timer: Wheels,
    /// Kafka: `estimatedTotalOperations`, incremented once per watched op, reset by a purge.
    estimated_total_operations: u64,
    purge_interval: u64,
    /// Time of the reaper's last step, from which its 200 ms poll counts.
    last_reaper_step_ms: u64,
    /// The millisecond in which this purgatory's own reaper steps (a bucket of its timer came
    /// due, or its idle poll ended with a purge due), set by [`Self::collect_due`]. A caller
    /// that wakes several purgatories together steps only those (see [`Self::reaper_woke_at`]):
    /// in Kafka each purgatory has its own reaper thread.
    woken_ms: Option<u64>,
    /// Timeouts that the wheels handed back as due and that have not run yet, by (expiration,
    /// order), first at the back. Kafka's reaper hands due tasks to an executor the same way;
    /// here the caller runs each at its own place in the millisecond ([`Self::run_next_due`]).
    due: Vec<(u64, u64, OpId)>,
    /// Numbers the operations in the order they are scheduled on the timer (the default order).
    next_seq: u64,
}

/// How many operations ahead `force_complete_all` asks for a slot.
const COMPLETION_PREFETCH_DISTANCE: usize = 8;

impl<K: Ord + Hash + Clone, O> Purgatory<K, O> {
    pub fn new(name: &'static str, purge_interval: u64, start_ms: u64) -> Self {
        Purgatory {
            name,
            held: Slab::new(),
            garbage: Vec::new(),
            watchers: Watchers::new(),
            timer: Wheels::new(start_ms),
            estimated_total_operations: 0,
            purge_interval,
            last_reaper_step_ms: start_ms,
            woken_ms: None,
            due: Vec::new(),
            next_seq: 0,
        }
    }

    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Kafka's `PurgatorySize`: entries on all watch lists, completed ones included.
    pub fn purgatory_size(&self) -> usize {
        self.watchers.total_live()
    }

    /// Kafka's `NumDelayedOperations`: live timer entries.
    pub fn num_delayed_operations(&self) -> usize {
        self.held.live()
    }

    pub fn estimated_total_operations(&self) -> u64 {
        self.estimated_total_operations
    }

    pub fn purge_interval(&self) -> u64 {
        self.purge_interval
    }

    /// The timing wheels and their entries, for the page.
    pub fn timer_view(&self) -> TimerView {
        self.timer.view(&self.held)
    }

    /// The operation whose timer entry `handle` names, while it is live.
    pub fn timer_op(&self, handle: TimerHandle) -> Option<OpId> {
        self.held.slot_of(handle).map(|slot| OpId {
            slot,
            generation: handle.generation(),
        })
    }

    /// Where a waiting operation's timer entry sits: (level, bucket index).
    pub fn timer_slot(&self, id: OpId) -> Option<(usize, usize)> {
        self.timer.locate(&self.held, self.timer_handle(id)?)
    }

    /// When a waiting operation's timer entry is due.
    pub fn timer_expiration_ms(&self, id: OpId) -> Option<u64> {
        let slot = self
            .held
            .slot_of(TimerHandle::new(id.slot, id.generation))?;
        Some(self.held.expiration_ms(slot))
    }

    /// Panics unless the timing wheels and the operations' entries agree (see
    /// [`Wheels::assert_invariants`]).
    pub fn assert_timer_invariants(&self) {
        self.timer.assert_invariants(&self.held);
    }

    /// The operation, while held (waiting, or completed but still watched).
    pub fn get(&self, id: OpId) -> Option<&O> {
        self.held.get(id).map(|h| &h.op)
    }

    pub fn is_completed(&self, id: OpId) -> Option<bool> {
        self.held.get(id).map(|h| h.completed)
    }

    /// The timer entry of a waiting operation.
    pub fn timer_handle(&self, id: OpId) -> Option<TimerHandle> {
        let handle = TimerHandle::new(id.slot, id.generation);
        self.held.slot_of(handle).map(|_| handle)
    }

    /// Held operations in slot order, with their completed flag.
    pub fn operations(&self) -> impl Iterator<Item = (OpId, &O, bool)> {
        self.held.iter().map(|(id, h)| (id, &h.op, h.completed))
    }

    /// Waiting (not completed) operations.
    pub fn waiting(&self) -> impl Iterator<Item = (OpId, &O)> {
        self.operations()
            .filter(|(_, _, done)| !done)
            .map(|(id, op, _)| (id, op))
    }

    /// Length of one key's watch list (completed entries included).
    pub fn watched(&self, key: &K) -> usize {
        self.watchers.live(key)
    }

    /// The watch lists, by key order.
    pub fn watch_lists(&self) -> Vec<WatcherView<K>> {
        self.watchers
            .lists_by_key()
            .into_iter()
            .map(|(key, entries)| WatcherView {
                key: key.clone(),
                operations: entries
                    .iter()
                    .filter_map(|&id| self.held.get(id).map(|h| (id, h.completed)))
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
        let order = self.next_seq + 1;
        self.try_complete_else_watch_ordered(op, keys, now_ms, delay_ms, order, hooks)
    }

    /// [`Self::try_complete_else_watch`], with the timeout's place among everything due in its
    /// millisecond given by the caller: `order` is compared with the orders of other timeouts
    /// and, by a caller that keeps a schedule of its own, with that schedule's sequence numbers
    /// (see [`Self::next_due_order`]). Orders should grow from one call to the next.
    pub fn try_complete_else_watch_ordered(
        &mut self,
        op: O,
        keys: &[K],
        now_ms: u64,
        delay_ms: u64,
        order: u64,
        hooks: &mut impl Hooks<O>,
    ) -> (OpId, Watched) {
        assert!(
            !keys.is_empty(),
            "an operation must be watched on at least one key"
        );
        let id = self.held.insert(op);
        if self.safe_try_complete(id, Completion::FirstTry, hooks) {
            self.release_if_unwatched(id);
            return (id, Watched::CompletedOnFirstTry);
        }
        let memberships = self.watchers.watch_all(keys, id);
        let held = self.held_mut(id);
        held.watch_count = keys.len() as u32;
        held.memberships = memberships;
        self.estimated_total_operations += 1;
        if self.safe_try_complete(id, Completion::SecondTry, hooks) {
            return (id, Watched::CompletedOnSecondTry);
        }
        self.next_seq = self.next_seq.max(order);
        let timeout = Timeout { op: id, seq: order };
        match self.timer.add(&mut self.held, now_ms, delay_ms, timeout) {
            AddResult::Scheduled(_) => {}
            // Kafka runs a task whose deadline has already passed on the executor at once.
            AddResult::Expired(_) => self.expire(id, hooks),
        }
        (id, Watched::Waiting)
    }

    /// Kafka: `checkAndComplete`. Walks the key's list in FIFO order, dropping completed ops and
    /// trying the others; removes the key when its list empties. Returns how many this call
    /// completed.
    pub fn check_and_complete(&mut self, key: &K, hooks: &mut impl Hooks<O>) -> usize {
        let Some(list) = self.watchers.find(key) else {
            return 0;
        };
        let mut entries = self.watchers.take_entries(list);
        let mut completed = 0;
        // One pass in FIFO order, keeping the survivors in order in place.
        let mut kept = 0;
        for k in 0..entries.len() {
            let id = entries.get(k);
            let Some(held) = self.held.get(id) else {
                continue; // a tombstone left by a purge
            };
            let already_done = held.completed;
            let done_now =
                !already_done && self.safe_try_complete(id, Completion::CheckAndComplete, hooks);
            completed += usize::from(done_now);
            if already_done || done_now {
                self.unwatch(id, list);
            } else {
                entries.keep(kept, id);
                kept += 1;
            }
        }
        entries.truncate(kept);
        self.watchers.finish_walk(list, entries);
        completed
    }

    /// Kafka: `DelayedOperation.forceComplete` called from outside: completes a waiting
    /// operation now (cancelling its timer), leaving it on its watch lists as garbage. Returns
    /// false if it had already completed or is no longer held.
    pub fn force_complete(&mut self, id: OpId, hooks: &mut impl Hooks<O>) -> bool {
        if self.held.get(id).is_none_or(|h| h.completed) {
            return false;
        }
        self.complete(id, Completion::Forced, hooks);
        true
    }

    /// `force_complete` on each of `ids` in turn; returns how many it completed. The same as
    /// calling `force_complete` in a loop, but when many operations are due at once (a
    /// completion queue draining one millisecond), each scattered among a million, it asks for
    /// the slots (which hold their timer entries too) ahead of their turn, so their cache misses
    /// overlap instead of coming one after another (`crate::plumbing::prefetch::each_asked_ahead`).
    pub fn force_complete_all(&mut self, ids: &[OpId], hooks: &mut impl Hooks<O>) -> usize {
        let mut completed = 0;
        crate::plumbing::prefetch::each_asked_ahead(
            self,
            ids,
            COMPLETION_PREFETCH_DISTANCE,
            Memory::Cold,
            |purgatory, id| purgatory.held.touch(id),
            |purgatory, id| completed += usize::from(purgatory.force_complete(id, hooks)),
        );
        completed
    }

    /// Kafka: `safeTryComplete` + the `forceComplete` inside `tryComplete`.
    #[inline(always)]
    fn safe_try_complete(&mut self, id: OpId, how: Completion, hooks: &mut impl Hooks<O>) -> bool {
        let held = self.held_mut(id);
        if held.completed || !hooks.try_complete(id, &mut held.op) {
            return false;
        }
        self.complete(id, how, hooks);
        true
    }

    /// Kafka: `forceComplete` once it has won: cancel the timer entry, then `onComplete`.
    #[inline(always)]
    fn complete(&mut self, id: OpId, how: Completion, hooks: &mut impl Hooks<O>) {
        let handle = TimerHandle::new(id.slot, id.generation);
        let cancelled = self.timer.cancel(&mut self.held, handle);
        // Not on the timer yet when it completes on a try of `try_complete_else_watch`.
        // Its entry is gone too when the wheels have handed it back as due and its turn has
        // not come yet.
        debug_assert!(
            cancelled != matches!(how, Completion::FirstTry | Completion::SecondTry)
                || self.due.iter().any(|&(_, _, due)| due == id),
            "a waiting operation's timer entry is live"
        );
        let held = held_mut(&mut self.held, id, self.name);
        debug_assert!(!held.completed);
        held.completed = true;
        hooks.on_complete(id, &mut held.op, how);
        // A check-and-complete is about to take the op off the list it walks; any other list
        // keeps it as garbage.
        let leaving = usize::from(how == Completion::CheckAndComplete);
        note_garbage(&mut self.watchers, &mut self.garbage, id, held, leaving);
    }

    /// A walk takes a completed op off `list`.
    fn unwatch(&mut self, id: OpId, list: ListId) {
        self.watchers.unwatch(list);
        let held = self.held_mut(id);
        held.watch_count -= 1;
        self.release_if_unwatched(id);
    }

    fn release_if_unwatched(&mut self, id: OpId) {
        let held = self.held_mut(id);
        if held.completed && held.watch_count == 0 {
            let memberships = held.memberships;
            self.release(id, memberships);
        }
    }

    /// The op leaves the purgatory: its slot and its id are free for reuse.
    #[inline(always)]
    fn release(&mut self, id: OpId, memberships: Memberships) {
        self.watchers.forget(memberships);
        self.held.release(id);
    }

    #[inline(always)]
    fn held_mut(&mut self, id: OpId) -> &mut Held<O> {
        held_mut(&mut self.held, id, self.name)
    }
}

/// The held op `id`, which the caller knows is held; taking the slab alone leaves the other
/// fields free to borrow, so a completion looks its slot up once.
#[inline(always)]
fn held_mut<'a, O>(slab: &'a mut Slab<O>, id: OpId, name: &str) -> &'a mut Held<O> {
    match slab.get_mut(id) {
        Some(held) => held,
        None => stale(id, name),
    }
}

#[cold]
#[inline(never)]
fn stale(id: OpId, name: &str) -> ! {
    panic!("stale operation id {id:?} in the {name} purgatory")
}

/// An op has just completed: each of its entries is garbage on its list now (a walk or the purge
/// takes it off), and the op is remembered for the purge if it will stay on some list
/// (`leaving`: the entry that the walk completing it is about to take off).
#[inline(always)]
fn note_garbage<K: Ord + Hash + Clone, O>(
    watchers: &mut Watchers<K>,
    garbage: &mut Vec<OpId>,
    id: OpId,
    held: &Held<O>,
    leaving: usize,
) {
    watchers.mark_garbage(&held.memberships);
    if held.watch_count as usize > leaving {
        crate::plumbing::hot::push(garbage, id);
    }
}
