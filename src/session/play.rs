//! Moving the playhead: playing forward (with breakpoints), one instant forward or back, seeking
//! to any millisecond, and computing a scenario's frontier ahead. Every call that can run long
//! does a bounded amount of work, counted by the simulation's work meter
//! ([`Simulation::work_done`](crate::sim::Simulation::work_done)) so that an instant of a 64-broker
//! cluster counts for what it costs, and a caller that asks for a week gets an answer (and
//! `yielded`) instead of a frozen tab.

use super::breakpoints::Hit;
use super::history::is_notable;
use super::{Advanced, Session};
use crate::kafka::trace::TraceEvent;

/// The most work one `extend` call does, whatever its `max_steps`: about a tenth of a second in
/// the browser, however large the cluster.
pub const MAX_EXTEND_WORK: u64 = 40_000;

/// The furthest one `step` goes through instants at which nothing is traced.
pub const QUIET_STEP_MS: u64 = 60_000;

impl Session {
    /// Runs the frontier's next instant at or before `until_ms` (and the end of the run) and folds
    /// its events into the history, saving a checkpoint when one is due; returns the events, or
    /// `None` when nothing is left by then (the clock then moves to `until_ms`).
    pub(super) fn step_frontier(&mut self, until_ms: u64) -> Option<Vec<TraceEvent>> {
        let until_ms = until_ms.min(self.horizon_ms);
        self.frontier.advance_within(until_ms)?;
        let events = self.frontier.drain_trace();
        self.history.observe(&events);
        self.checkpoints
            .maybe_take(&self.frontier, &self.history.derived);
        Some(events)
    }

    /// Runs the playhead's next instant at or before `until_ms`: the head while it is behind the
    /// frontier (it is dropped when it gets there: both are then the same run), else the
    /// frontier. `None` when nothing is left by then; an empty list when the head only caught up.
    pub(super) fn step_head(&mut self, until_ms: u64) -> Option<Vec<TraceEvent>> {
        let until_ms = until_ms.min(self.horizon_ms);
        let frontier_ms = self.frontier.now_ms();
        if let Some(head) = self.head.as_mut() {
            if head.now_ms() < frontier_ms {
                let stepped = head
                    .advance_within(until_ms.min(frontier_ms))
                    .map(|_| head.drain_trace());
                if head.now_ms() >= frontier_ms {
                    self.head = None;
                }
                return match stepped {
                    Some(events) => Some(events),
                    None if until_ms > frontier_ms => Some(Vec::new()),
                    None => None,
                };
            }
            self.head = None;
        }
        self.step_frontier(until_ms)
    }

    /// Plays forward by `ms` simulated milliseconds (to the end of the run at most), stopping early
    /// where a breakpoint fires, after an instant with a notable event (one that makes a timeline
    /// marker) when `stop_at_notable` (so a story clock can linger on it), or once `max_work`
    /// units of work are done (`yielded`: call again; each instant counts at least one).
    pub fn advance(&mut self, ms: u64, max_work: u64, stop_at_notable: bool) -> Advanced {
        let target = self.now_ms().saturating_add(ms).min(self.horizon_ms);
        let mut stall = self.breakpoints.next_stall(self.sim(), &self.history);
        let mut spent = 0;
        while spent < max_work {
            let limit = stall.as_ref().map_or(target, |s| s.deadline_ms.min(target));
            let before = self.sim().work_done();
            let stepped = self.step_head(limit);
            spent += self.sim().work_done().saturating_sub(before).max(1);
            let Some(events) = stepped else {
                if let Some(s) = stall.take().filter(|s| s.deadline_ms == self.now_ms()) {
                    let hit = self.breakpoints.fire_stall(s);
                    return self.stopped(Some(hit));
                }
                if self.now_ms() >= target {
                    return self.stopped(None);
                }
                continue;
            };
            let hit = self.check_breakpoints(&events);
            let touched = !events.is_empty();
            let notable = stop_at_notable && events.iter().any(is_notable);
            self.recent.push(events);
            if hit.is_some() || notable {
                return Advanced {
                    notable,
                    ..self.stopped(hit)
                };
            }
            if touched && self.breakpoints.spec.hw_stalled_ms.is_some() {
                stall = self.breakpoints.next_stall(self.sim(), &self.history);
            }
        }
        Advanced {
            now_ms: self.now_ms(),
            hit: None,
            yielded: self.now_ms() < target,
            notable: false,
        }
    }

    fn check_breakpoints(&mut self, events: &[TraceEvent]) -> Option<Hit> {
        let min_isr = self.frontier.config().min_insync_replicas as usize;
        self.breakpoints.check(events, min_isr)
    }

    fn stopped(&self, hit: Option<Hit>) -> Advanced {
        Advanced {
            now_ms: self.now_ms(),
            hit,
            yielded: false,
            notable: false,
        }
    }

    /// Runs up to the next instant at which something is traced; returns where the playhead is
    /// then, or `None` when nothing is left before the end of the run.
    pub fn step(&mut self) -> Option<Advanced> {
        let start = self.now_ms();
        loop {
            let next = self.sim().next_event_ms()?;
            if next > self.horizon_ms {
                return None;
            }
            if next > start.saturating_add(QUIET_STEP_MS) {
                // A long quiet stretch (a cluster with every fetcher paused, a live session with
                // nothing to do): one step goes this far at most, never to the end of the world.
                let ms = start + QUIET_STEP_MS - self.now_ms();
                return Some(self.advance(ms, u64::MAX, false));
            }
            let before = self.now_ms();
            let events = self.step_head(next)?;
            // An instant where only internal bookkeeping ran (nothing traced) is not a step: go on
            // to the next traced one, so that `step` and `step_back` walk the same instants.
            if events.is_empty() && self.now_ms() > before {
                continue;
            }
            let hit = self.check_breakpoints(&events);
            self.recent.push(events);
            return Some(self.stopped(hit));
        }
    }

    /// Goes back to the latest earlier instant at which something was traced (or to 0).
    pub fn step_back(&mut self) -> u64 {
        let now = self.now_ms();
        let target = self.instant_before(now).unwrap_or(0);
        self.seek(target)
    }

    /// The latest instant before `end_ms` at which something was traced.
    fn instant_before(&self, end_ms: u64) -> Option<u64> {
        if let Some(t) = self.recent.instant_before(end_ms) {
            return Some(t);
        }
        // Not remembered: replay the stretch before each checkpoint, latest first.
        let mut end = end_ms;
        loop {
            let c = self.checkpoints.starting_before(end)?;
            let mut sim = c.sim.clone();
            let mut latest = None;
            while let Some(t) = sim.advance_within(end - 1) {
                if !sim.drain_trace().is_empty() {
                    latest = Some(t);
                }
            }
            if latest.is_some() || c.from_ms == 0 {
                return latest;
            }
            end = c.from_ms;
        }
    }

    /// Puts the playhead at `at_ms` (at most the frontier): every view then shows exactly the state
    /// at that instant, and the next events taken lead up to it (`reset`). Returns the instant.
    pub fn seek(&mut self, at_ms: u64) -> u64 {
        let target = at_ms.min(self.frontier.now_ms());
        let now = self.now_ms();
        if target == now {
            return now;
        }
        if target > now && !self.checkpoints.shortcut(now, target) {
            // Going forward, so the playhead is behind the frontier: a head exists to run on.
            self.run_head_to(target);
        } else {
            self.replay_head_to(target);
        }
        self.now_ms()
    }

    /// Puts the head at `target` by replaying from the latest checkpoint that covers it; the
    /// events taken next lead up to it.
    pub(super) fn replay_head_to(&mut self, target: u64) {
        self.head = Some(self.checkpoints.to_replay(target).sim.clone());
        self.recent.restart();
        self.run_head_to(target);
    }

    fn run_head_to(&mut self, target: u64) {
        let head = self.head.as_mut().expect("a head behind the frontier");
        while head.advance_within(target).is_some() {
            self.recent.push(head.drain_trace());
        }
        self.breakpoints.sync(head);
        if target >= self.frontier.now_ms() {
            self.head = None;
        }
    }

    /// Computes a scenario's frontier ahead of the playhead, at most `max_steps` instants and
    /// [`MAX_EXTEND_WORK`] units of work; returns whether the run is now computed to its end.
    pub fn extend(&mut self, max_steps: u64) -> bool {
        let until = self.precompute_ms.min(self.horizon_ms);
        if self.frontier.now_ms() >= until {
            return true;
        }
        if self.head.is_none() {
            self.head = Some(self.frontier.clone());
        }
        let budget = self.frontier.work_done().saturating_add(MAX_EXTEND_WORK);
        for _ in 0..max_steps {
            if self.step_frontier(until).is_none() {
                return true;
            }
            if self.frontier.work_done() >= budget {
                break;
            }
        }
        self.frontier.now_ms() >= until
    }
}
