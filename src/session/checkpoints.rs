//! Saved states of a session's run, so that going back to an instant replays from the nearest one
//! before it instead of from t = 0. One is taken every [`EVENTS_PER_CHECKPOINT`] trace events (a
//! measure of replay work, unlike simulated time, which can be idle), further apart for a cluster
//! so large that saving a run costs more than that. At most [`MAX_CHECKPOINTS`] are kept, fewer
//! for a cluster so large that they would take more than [`CHECKPOINT_MEMORY`]: past that, the
//! one whose neighbours are closest together goes, so the spacing stays even over the whole run
//! and memory stays bounded however long it gets.

use super::history::Derived;
use super::LoggedAction;
use crate::sim::action::TimedAction;
use crate::sim::Simulation;

/// Trace events between checkpoints, for a cluster of usual size. A seek replays fewer than this
/// many.
pub const EVENTS_PER_CHECKPOINT: u64 = 4_000;
/// Checkpoints kept at most (the first, at t = 0, is always kept).
pub const MAX_CHECKPOINTS: usize = 48;
/// About the most memory the checkpoints of a large cluster may take together, in bytes. A
/// saved run's size grows with its replica states (each replica's broker keeps every replica
/// of the partition), some 30 bytes each; at least 2 checkpoints are kept whatever the size (the
/// first and the latest; a 64-broker topic of 1,024 partitions x 64 replicas takes some 140 MB).
pub const CHECKPOINT_MEMORY: u64 = 256 << 20;

#[derive(Clone)]
pub struct Checkpoint {
    /// The run with every instant before `from_ms` processed and its trace drained.
    pub sim: Simulation,
    /// The first instant the saved run has not processed: 0 for the run as it starts, `t + 1`
    /// for a run saved after instant `t`. Replaying from here to `t'` replays every event of
    /// `[from_ms, t']`.
    pub from_ms: u64,
    /// The history's derivation state at this point (trace events so far, hash, gauges).
    pub derived: Derived,
}

impl Checkpoint {
    pub fn events(&self) -> u64 {
        self.derived.events
    }
}

#[derive(Clone)]
pub struct Checkpoints {
    list: Vec<Checkpoint>,
    /// How many are kept at most, for this cluster's size.
    limit: usize,
    /// Trace events between two checkpoints, for this cluster's size.
    spacing: u64,
}

impl Checkpoints {
    pub fn new(first: Checkpoint) -> Self {
        let states = crate::kafka::config::replica_states(first.sim.topics());
        let size = states * 32 + (64 << 10);
        let limit = (CHECKPOINT_MEMORY / size).clamp(2, MAX_CHECKPOINTS as u64) as usize;
        // A saved run holds every broker's picture of every partition (its metadata). For 64
        // brokers and 1,024 partitions, copying those 65,536 pictures costs as much as replaying
        // some 19,000 events (natively, 2026-12-08). One checkpoint per picture's worth of events
        // keeps saving runs at under a third of the replay's work, however many brokers there are.
        let partitions: u64 = first
            .sim
            .topics()
            .iter()
            .map(|t| u64::from(t.partitions))
            .sum();
        let pictures = u64::from(first.sim.config().brokers) * partitions;
        Checkpoints {
            list: vec![first],
            limit,
            spacing: EVENTS_PER_CHECKPOINT.max(pictures),
        }
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Takes one of `sim` (which just processed instant `sim.now_ms()`) if enough events passed
    /// since the last.
    pub fn maybe_take(&mut self, sim: &Simulation, derived: &Derived) {
        let last = self
            .list
            .last()
            .expect("the first checkpoint is never removed");
        let from_ms = sim.now_ms() + 1;
        if derived.events < last.events() + self.spacing || from_ms <= last.from_ms {
            return;
        }
        self.list.push(Checkpoint {
            sim: sim.clone(),
            from_ms,
            derived: derived.clone(),
        });
        if self.list.len() > self.limit {
            self.thin();
        }
    }

    /// Drops the checkpoint whose removal leaves the smallest gap (in events) between its
    /// neighbours; never the first or the last.
    fn thin(&mut self) {
        let gap = |i: usize| self.list[i + 1].events() - self.list[i - 1].events();
        let victim = (1..self.list.len() - 1).min_by_key(|&i| gap(i));
        if let Some(i) = victim {
            self.list.remove(i);
        }
    }

    /// The latest checkpoint from which a replay to `at_ms` replays instant `at_ms` itself
    /// (its `from_ms` is at or before it). The first one always qualifies.
    pub fn to_replay(&self, at_ms: u64) -> &Checkpoint {
        let i = self.list.partition_point(|c| c.from_ms <= at_ms);
        &self.list[i.saturating_sub(1)]
    }

    /// The latest checkpoint whose `from_ms` is before `end_ms`, if any.
    pub fn starting_before(&self, end_ms: u64) -> Option<&Checkpoint> {
        let i = self.list.partition_point(|c| c.from_ms < end_ms);
        i.checked_sub(1).map(|i| &self.list[i])
    }

    /// Whether replaying from a checkpoint beats running on from a run processed through
    /// `now_ms` to `to_ms`: one starts after `now_ms + 1` and at or before `to_ms`.
    pub fn shortcut(&self, now_ms: u64, to_ms: u64) -> bool {
        self.list
            .iter()
            .any(|c| c.from_ms > now_ms + 1 && c.from_ms <= to_ms)
    }

    /// Removes the checkpoints of states after instant `at_ms` and returns them (an undo puts
    /// them back).
    pub fn split_off_after(&mut self, at_ms: u64) -> Vec<Checkpoint> {
        let keep = self.list.partition_point(|c| c.from_ms <= at_ms + 1).max(1);
        self.list.split_off(keep)
    }

    pub fn extend(&mut self, tail: Vec<Checkpoint>) {
        self.list.extend(tail);
    }

    /// A command at the frontier's next instant `action.at_ms`: every saved run is before it, so
    /// each gets it queued (after the actions already there for that millisecond, as the
    /// session's list has it). Cheaper than [`Self::sync_pending_actions`] for one new action.
    pub fn schedule_action(&mut self, action: &TimedAction) {
        for c in &mut self.list {
            debug_assert!(c.from_ms <= action.at_ms, "a checkpoint after the command");
            c.sim.schedule_action(action.clone());
        }
    }

    /// Gives every saved run the session's actions still to come for it: those at or after its
    /// `from_ms`, in the session's order. A saved run is a copy made when it was taken; a person's
    /// later command (or a fork that drops some, or an undo that brings them back) changes what is
    /// to come, and a replay from the checkpoint must meet exactly that.
    pub fn sync_pending_actions(&mut self, actions: &[LoggedAction]) {
        for c in &mut self.list {
            let later = actions.iter().filter(|a| a.action.at_ms >= c.from_ms);
            c.sim
                .replace_pending_actions(later.map(|a| a.action.clone()));
        }
    }
}
