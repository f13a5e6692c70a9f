//! The idle fast-forward: a cluster in which nothing happens but follower long-polls that find
//! nothing and ISR checks that find everyone caught up goes through the same states period after
//! period, only later. Rather than simulate each round trip of a long stretch of that, the
//! simulation checks that the cluster repeats itself over one period and moves it forward by
//! whole periods at once, to just before the next thing that is not a repetition (an action, a
//! produce timeout, `run_until_ms`).
//!
//! How it stays exact:
//!
//! - **Checked, not assumed.** A probe writes the cluster out (`shape`: everything that must
//!   repeat, with moving times relative to the probe; `clocks`: times that may either stay or
//!   move) and the simulation runs one period normally. If the second reading equals the first,
//!   and each clock stayed or moved by exactly the period, the cluster is periodic: it is
//!   deterministic, and from the same state (up to the move in time) it does the same things.
//! - **The period** is a multiple of the fetch cycle (fetch wait plus a round trip) and of the
//!   span of the coarsest level in use of every moving fetch timer, so the timing wheels land on
//!   the same buckets (see `Wheels::shift_by`). A level that is not in use holds nothing: a
//!   fetch timer idle for minutes that is handed a fetch's wait builds overflow wheels it will
//!   not use again, as Kafka's does, and the period would otherwise grow past a day with them.
//!   Which levels are in use is read at both ends of a period (the coarsest with a bucket set
//!   then, or that an entry went into since the last reading), and must be the same.
//! - **What moves**: the agenda's items, the fetch purgatories' timers and parked fetches, and the
//!   clocks that moved during the check. ISR checks have a period of their own
//!   (`replica.lag.time.max.ms / 2`): each is put at its own next tick after the jump, first in its
//!   millisecond, where it would be (it was scheduled a whole check period before, earlier than
//!   anything else due then, all of which is scheduled at most a fetch wait ahead). So is the
//!   controller's leader balance check, which keeps coming while a partition's preferred replica
//!   is down or out of the ISR: it moves no leader then, which makes it a repetition. Reaper
//!   wakes are recomputed from the moved timers.
//! - **What does not**: counters that only name things or order them (fetch sessions, operation
//!   slots, the schedule's sequence numbers, the fetch purgatory's purge count) keep their values;
//!   only their order matters, which a jump keeps. The work meter counts the work done, so a
//!   jump costs what it touches.
//! - **When**: only while the ISR check period is longer than the fetch wait and the network
//!   delay, and only as far as the caller runs (`fast_forward_idle`'s `until_ms`).
//!
//! The trace, and why it does not depend on the jumps. Probes and checks run at the end of each
//! instant and read only the cluster: not the actions to come (a person's next one is not known
//! in advance) and not how far the caller runs. A check that finds the cluster periodic opens an
//! *idle stretch* in a traced run: an `idle_stretch_began` event, then nothing (the trace is
//! muted, numbering nothing) until an action or a broker's own timer comes due, where
//! `idle_stretch_ended` says what was left out. Whether the run then jumps (far) or simulates each
//! round trip (small steps), the same events are written, numbered alike: the agenda forgets its
//! causes as a stretch begins, and no event names what a jump does not reproduce (operation
//! slots). So the page's sessions, the runner and the tests all jump, and a session advanced by a
//! week in one call writes the trace that one advanced in steps of a frame writes.

use super::queue::{Placed, Scheduled};
use super::Simulation;
use crate::kafka::trace::Event;

use super::meter::{self, MAX_IDLE_PERIOD_MS as MAX_PERIOD_MS};
use reading::classify;

mod reading;

/// After a probe that finds the cluster busy, the next waits this many fetch cycles, then twice
/// as many, up to one period: a busy run pays for few probes, an idle one waits at most a period
/// more.
const FIRST_RETRY_CYCLES: u64 = 4;

#[derive(Clone)]
struct Probe {
    at_ms: u64,
    period_ms: u64,
    shape: Vec<u64>,
    clocks: Vec<u64>,
    /// Each broker's fetch timer clock (see `Broker::fetch_timer_clock_ms`).
    fetch_clocks: Vec<u64>,
}

/// A check that found the cluster periodic, from which a jump can start until the next instant
/// runs: how far depends on the caller's `until_ms`, which the check does not know.
#[derive(Clone)]
struct Confirmed {
    check_ms: u64,
    period_ms: u64,
    /// Which clocks move (in `visit_clocks` order) and which brokers' fetch timers.
    moving: Vec<bool>,
    fetch_moving: Vec<bool>,
}

/// The idle stretch a traced run is in: its repetitions are muted.
#[derive(Clone, Copy)]
struct Stretch {
    since_ms: u64,
    period_ms: u64,
    /// When a broker's own timer may do something other than a repetition.
    horizon_ms: u64,
}

/// The fast-forward's own state, kept by the simulation.
#[derive(Clone)]
pub(super) struct FastForward {
    enabled: bool,
    probe: Option<Probe>,
    next_try_ms: u64,
    retry_ms: u64,
    confirmed: Option<Confirmed>,
    stretch: Option<Stretch>,
    /// The period the last probe attempt read (see `take_probe`).
    last_period_ms: Option<u64>,
    /// What it has done: jumps made and simulated milliseconds skipped.
    pub(super) jumps: u64,
    pub(super) skipped_ms: u64,
}

impl Default for FastForward {
    fn default() -> Self {
        FastForward {
            enabled: true,
            probe: None,
            next_try_ms: 0,
            retry_ms: 0,
            confirmed: None,
            stretch: None,
            last_period_ms: None,
            jumps: 0,
            skipped_ms: 0,
        }
    }
}

impl Simulation {
    /// Turns the jumps on (the default) or off. Off, every round trip is simulated; the results
    /// and the trace are the same either way (tests compare them).
    pub fn set_fast_forward(&mut self, on: bool) {
        self.fast_forward.enabled = on;
        self.fast_forward.confirmed = None;
    }

    /// How many jumps the fast-forward made, and how many simulated milliseconds they skipped.
    pub fn fast_forwarded(&self) -> (u64, u64) {
        (self.fast_forward.jumps, self.fast_forward.skipped_ms)
    }

    /// Called as an instant begins, before its actions: an idle stretch ends when an action or
    /// a broker's own timer comes due (the trace writes every event again from here).
    pub(super) fn idle_instant_begins(&mut self, at_ms: u64) {
        self.fast_forward.confirmed = None;
        let Some(stretch) = self.fast_forward.stretch else {
            return;
        };
        let action_due = self
            .pending_actions
            .front()
            .is_some_and(|a| a.at_ms <= at_ms);
        if at_ms < stretch.horizon_ms && !action_due {
            return;
        }
        self.fast_forward.stretch = None;
        self.trace.set_muted(false);
        self.trace.emit(at_ms, None, || Event::IdleStretchEnded {
            since_ms: stretch.since_ms,
            period_ms: stretch.period_ms,
        });
        // Probing starts afresh, as it would in a run that never jumped.
        let ff = &mut self.fast_forward;
        ff.probe = None;
        ff.retry_ms = 0;
        ff.next_try_ms = at_ms;
    }

    /// Called when an instant has run, everything in it done: probes, or checks a probe whose
    /// period has passed (nothing is scheduled before its end). Looks only at the cluster, never
    /// at the actions to come or at how far the caller runs, so that the trace is the same
    /// whoever drives the run and however far each call goes.
    pub(super) fn idle_instant_ended(&mut self, at_ms: u64) {
        if !self.fast_forward.enabled && !self.trace.enabled() {
            return;
        }
        let Some(next) = self.agenda.next_at_ms() else {
            return; // nothing scheduled at all: the clock jumps by itself
        };
        if let Some(probe) = &self.fast_forward.probe {
            let check_ms = probe.at_ms + probe.period_ms;
            if next > check_ms {
                let probe = self.fast_forward.probe.take().expect("checked");
                self.check_probe(probe, check_ms);
            }
            return;
        }
        if at_ms >= self.fast_forward.next_try_ms {
            self.take_probe(at_ms);
        }
    }

    /// Called between two instants by a caller that will run the simulation up to `until_ms`:
    /// jumps from a confirmed check as far as whole periods go, landing an ISR check period
    /// before the next action, broker timer or `until_ms`.
    pub(super) fn fast_forward_idle(&mut self, until_ms: u64) {
        let Some(c) = self.fast_forward.confirmed.take() else {
            return;
        };
        let action = self.pending_actions.front().map_or(u64::MAX, |a| a.at_ms);
        let horizon = self
            .idle_horizon_ms(c.check_ms, Some(&c.fetch_moving))
            .min(action)
            .min(until_ms.saturating_add(1));
        // The jump lands a whole ISR check period before the horizon, so that the checks it
        // moves come before anything that is not a repetition.
        let room = horizon.saturating_sub(c.check_ms + 1 + self.isr_check_period_ms());
        let delta_ms = room / c.period_ms * c.period_ms;
        if delta_ms == 0 || c.check_ms + delta_ms < self.now_ms {
            self.fast_forward.confirmed = Some(c); // a later call may go further
            return;
        }
        self.jump(c.check_ms, delta_ms, &c.moving, &c.fetch_moving);
        let ff = &mut self.fast_forward;
        ff.probe = None;
        ff.retry_ms = 0;
        ff.next_try_ms = self.now_ms + c.period_ms;
    }

    fn take_probe(&mut self, at_ms: u64) {
        // The period needs the levels the fetch timers used since the last reading. A probe is
        // taken once two readings in a row agree on it: a stretch that began with a timer's
        // one-off use of a coarse level is measured again a few fetch cycles on, rather than
        // watched for the day-long period that level would need.
        let period_ms = self.idle_period_ms();
        self.forget_placed_levels();
        let settled =
            std::mem::replace(&mut self.fast_forward.last_period_ms, period_ms) == period_ms;
        let probe = period_ms.filter(|_| settled).and_then(|period_ms| {
            // Worth it only with room for the check and at least one period to skip before a
            // broker's own timer.
            let horizon = self.idle_horizon_ms(at_ms, None);
            if horizon <= at_ms + 3 * period_ms + self.isr_check_period_ms() {
                return None;
            }
            let (shape, clocks, fetch_clocks) = self.idle_reading(at_ms)?;
            Some(Probe {
                at_ms,
                period_ms,
                shape,
                clocks,
                fetch_clocks,
            })
        });
        match probe {
            Some(probe) => self.fast_forward.probe = Some(probe),
            None => self.back_off(),
        }
    }

    fn back_off(&mut self) {
        let cycle = meter::fetch_cycle_ms(&self.config).max(1);
        let ceiling = self.idle_period_ms().unwrap_or(MAX_PERIOD_MS);
        let ff = &mut self.fast_forward;
        let floor = FIRST_RETRY_CYCLES * cycle;
        ff.retry_ms = (ff.retry_ms * 2).clamp(floor, ceiling.max(floor));
        ff.next_try_ms = self.now_ms + ff.retry_ms;
    }

    /// The cluster is now as it was at `check_ms`: compare with the probe. Repeated or not, the
    /// reading becomes the next probe (so a long idle stretch is checked once a period), unless
    /// the fetch timers' levels in use changed: then probing starts again a few cycles on.
    fn check_probe(&mut self, probe: Probe, check_ms: u64) {
        // The levels the fetch timers used over the period count, so this comes first.
        let period_now = self.idle_period_ms();
        self.forget_placed_levels();
        let Some((shape, clocks, fetch_clocks)) = self.idle_reading(check_ms) else {
            return self.back_off();
        };
        let period = probe.period_ms;
        // A fetch timer that used another level over this period than over the stretch before
        // the probe (the overflow wheels a long-idle timer built for one fetch's wait, and then
        // no more) did not repeat itself: a probe a few fetch cycles on looks for the period
        // its levels now need.
        if period_now != Some(period) {
            return self.back_off();
        }
        let repeated = shape == probe.shape;
        let moving = classify(&probe.clocks, &clocks, period).filter(|_| repeated);
        let fetch_moving = classify(&probe.fetch_clocks, &fetch_clocks, period);
        if let (Some(moving), Some(fetch_moving)) = (moving, fetch_moving) {
            self.idle_confirmed(Confirmed {
                check_ms,
                period_ms: period,
                moving,
                fetch_moving,
            });
        }
        self.fast_forward.probe = Some(Probe {
            at_ms: check_ms,
            period_ms: period,
            shape,
            clocks,
            fetch_clocks,
        });
    }

    /// The cluster repeats itself: a traced run enters an idle stretch (when at least a period
    /// of repetitions lies ahead), and a caller may jump.
    fn idle_confirmed(&mut self, c: Confirmed) {
        let horizon_ms = self.idle_horizon_ms(c.check_ms, Some(&c.fetch_moving));
        let period_ms = c.period_ms;
        if self.fast_forward.stretch.is_none()
            && self.trace.enabled()
            && horizon_ms > c.check_ms + period_ms
        {
            let since_ms = self.now_ms;
            self.trace
                .emit(since_ms, None, || Event::IdleStretchBegan { period_ms });
            self.trace.set_muted(true);
            // What is in flight was sent by events a run that jumps would not number alike.
            self.agenda.forget_causes();
            self.fast_forward.stretch = Some(Stretch {
                since_ms,
                period_ms,
                horizon_ms,
            });
        }
        if self.fast_forward.enabled {
            self.fast_forward.confirmed = Some(c);
        }
    }

    /// Starts each fetch timer's record of the levels it uses afresh: what a period used is read
    /// at its end (see `Wheels::interval_in_use_ms`).
    fn forget_placed_levels(&mut self) {
        for b in &mut self.brokers {
            b.fetch_purgatory.timer_forget_placed_levels();
        }
    }

    /// Whether the controller's pending leader balance check is a repetition: it would move no
    /// leader (a preferred replica that is down or out of the ISR stays so while the cluster is
    /// idle), and its interval is longer than an ISR check period and every other lead, so that
    /// moved to its own next tick it comes first in its millisecond (see `place_checks`).
    fn leader_balance_check_repeats(&self) -> bool {
        let c = &self.config;
        let longest_lead = self
            .isr_check_period_ms()
            .max(c.replica_fetch_wait_max_ms)
            .max(c.network_delay_ms);
        c.leader_imbalance_check_interval_ms > longest_lead && !self.controller.leaders_to_balance()
    }

    fn isr_check_period_ms(&self) -> u64 {
        // As `dispatch` schedules them: a period of 0 would never let time move on.
        self.config.isr_check_every_ms()
    }

    /// The period to look for, if the settings allow a jump ([`meter::idle_period_ms`]). Every
    /// fetch timer's interval in use is its tick times a power of its wheel size, the same for
    /// all, so the largest is a multiple of the others.
    fn idle_period_ms(&self) -> Option<u64> {
        let coarsest = self
            .brokers
            .iter()
            .filter(|b| b.running)
            .map(|b| b.fetch_purgatory.timer_interval_in_use_ms())
            .max()?;
        meter::idle_period_ms(&self.config, coarsest)
    }

    /// The earliest time after `origin_ms` at which a broker's own timer may do something that
    /// is not a repetition ([`crate::kafka::broker::Broker::idle_horizon_ms`]; the fetch timers
    /// that stay count once `fetch_moving` says which move); `u64::MAX` if none will.
    fn idle_horizon_ms(&self, origin_ms: u64, fetch_moving: Option<&[bool]>) -> u64 {
        self.brokers
            .iter()
            .enumerate()
            .filter_map(|(i, b)| {
                let stays = fetch_moving.is_some_and(|m| !m[i]);
                b.idle_horizon_ms(origin_ms, stays)
            })
            .fold(u64::MAX, u64::min)
    }

    /// Moves the cluster, as it was at `from_ms`, `delta_ms` later (a whole number of periods),
    /// and sets the clock there. `moving` says which clocks move (in `visit_clocks` order),
    /// `fetch_moving` which brokers' fetch timers.
    fn jump(&mut self, from_ms: u64, delta_ms: u64, moving: &[bool], fetch_moving: &[bool]) {
        let to_ms = from_ms + delta_ms;
        let isr_check = self.isr_check_period_ms();
        let mut items = self.agenda.take_all();
        let touched = items.len() as u64;
        // Reaper wakes are recomputed below; a producer's deadline for a request it has had its
        // answer to (or lost its connection for) would do nothing when it came.
        items.retain(|item| {
            !matches!(item.what, Scheduled::ReaperWake { .. })
                && !self.stale_client_deadline(&item.what)
        });
        let balance_check = self.config.leader_imbalance_check_interval_ms;
        let mut checks: Vec<Placed> = Vec::new();
        let mut moved: Vec<Placed> = Vec::new();
        for mut item in items {
            // The checks keep their own beat: the next tick after the jump.
            let beat = match item.what {
                Scheduled::IsrExpiration { .. } => isr_check,
                Scheduled::LeaderBalanceCheck => balance_check,
                _ => {
                    item.at_ms += delta_ms;
                    moved.push(item);
                    continue;
                }
            };
            if item.at_ms <= to_ms {
                item.at_ms += (to_ms + 1 - item.at_ms).div_ceil(beat) * beat;
            }
            checks.push(item);
        }
        for (b, _) in self
            .brokers
            .iter_mut()
            .zip(fetch_moving)
            .filter(|(_, &m)| m)
        {
            b.delay_parked_fetches(delta_ms);
        }
        let mut i = 0;
        for b in &mut self.brokers {
            b.visit_clocks(&mut |t| {
                if moving[i] {
                    *t += delta_ms;
                }
                i += 1;
            });
        }
        self.place_checks(&mut checks, &moved);
        for item in moved.into_iter().chain(checks) {
            self.agenda.put_back(item);
        }
        for b in 0..self.brokers.len() {
            self.reaper_wake_ms[b] = None;
        }
        self.now_ms = to_ms;
        for b in 0..self.brokers.len() {
            self.refresh_reaper_wake(crate::kafka::BrokerId(b as u32));
        }
        self.work_done += touched + moving.len() as u64;
        self.fast_forward.jumps += 1;
        self.fast_forward.skipped_ms += delta_ms;
    }

    /// Gives each moved check a place first in its millisecond: before every moved item and
    /// parked fetch's timeout due then (all scheduled after it, see the module's documentation),
    /// the controller's leader balance check (scheduled a whole interval before, longer than an
    /// ISR check period) before the ISR checks, these among themselves in their old order.
    fn place_checks(&self, checks: &mut [Placed], moved: &[Placed]) {
        let isr_check = |c: &Placed| matches!(c.what, Scheduled::IsrExpiration { .. });
        checks.sort_by_key(|c| (c.at_ms, isr_check(c), c.seq));
        let mut start = 0;
        while start < checks.len() {
            let at_ms = checks[start].at_ms;
            let end = start
                + checks[start..]
                    .iter()
                    .take_while(|c| c.at_ms == at_ms)
                    .count();
            let items = moved.iter().filter(|m| m.at_ms == at_ms).map(|m| m.seq);
            let timeouts = self
                .brokers
                .iter()
                .filter(|b| b.running)
                .flat_map(|b| b.fetch_purgatory.timeouts())
                .filter(|t| t.0 == at_ms)
                .map(|t| t.1);
            if let Some(first) = items.chain(timeouts).min() {
                let n = (end - start) as u64;
                let base = first
                    .checked_sub(n)
                    .expect("sequence numbers below the first");
                for (k, check) in checks[start..end].iter_mut().enumerate() {
                    check.seq = base + k as u64;
                }
            }
            start = end;
        }
    }
}
