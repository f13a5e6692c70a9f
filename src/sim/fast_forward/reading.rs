//! What the idle fast-forward reads of the cluster: the cluster written out as numbers relative
//! to a time (`idle_reading`), to compare one period with the next, and how each clock read twice
//! a period apart moved (`classify`); and, for tests, the whole state with times absolute
//! (`fast_forward_digest`).

use crate::sim::queue::Scheduled;
use crate::sim::Simulation;

impl Simulation {
    /// The cluster's state as numbers, times absolute, for tests that compare a run with the
    /// fast-forward against one without: what `idle_reading` compares (whether or not the cluster
    /// is idle), every clock, the fetch timers' clocks, and the agenda's times and items but for
    /// the reaper wakes (which a jump recomputes).
    #[doc(hidden)]
    pub fn fast_forward_digest(&mut self) -> Vec<u64> {
        let mut out = vec![self.now_ms];
        for (at_ms, _, what) in self.agenda.iter_placed() {
            // A jump drops these (they would do nothing), a run without one keeps them.
            if self.stale_client_deadline(what) {
                continue;
            }
            out.push(at_ms);
            match what {
                Scheduled::ReaperWake { .. } => {
                    out.pop();
                }
                Scheduled::IsrExpiration {
                    broker,
                    incarnation,
                } => out.extend([9, broker.0.into(), *incarnation]),
                other => {
                    if encode_delivery(other, &mut out).is_none() {
                        out.push(8);
                    }
                }
            }
        }
        for b in &self.brokers {
            out.push(b.fetch_timer_clock_ms());
            if b.idle_shape(&mut out).is_none() {
                out.push(u64::MAX);
            }
            for (expiration_ms, _, op) in b.fetch_purgatory.timeouts() {
                out.extend([expiration_ms, op.created_ms, op.request.follower.0.into()]);
            }
            // Every level's clock, those of the levels not in use too (a jump sets them).
            let levels = b.fetch_purgatory.timer_view().levels;
            out.extend(levels.iter().map(|level| level.current_time_ms));
        }
        for b in &mut self.brokers {
            b.visit_clocks(&mut |t| out.push(*t));
        }
        out
    }

    /// The cluster written out at `origin_ms` (see the module's documentation), or `None` if it
    /// is not idle: something other than a fetch, a fetch answer, an ISR check or a reaper wake
    /// scheduled, or a broker that will act on its own.
    pub(super) fn idle_reading(
        &mut self,
        origin_ms: u64,
    ) -> Option<(Vec<u64>, Vec<u64>, Vec<u64>)> {
        if self.timeouts_due || !self.outbox.is_empty() {
            return None;
        }
        let rel = |t: u64| t.wrapping_sub(origin_ms);
        // Not the actions to come: a person's next one is not known in advance.
        let mut shape = vec![self.requests.len() as u64];
        // The agenda's fetches and answers and the parked fetches' timeouts, merged in the order
        // they will run.
        let mut timeline: Vec<(u64, u64, Vec<u64>)> = Vec::new();
        for (at_ms, seq, what) in self.agenda.iter_placed() {
            if matches!(
                what,
                Scheduled::IsrExpiration { .. } | Scheduled::ReaperWake { .. }
            ) || self.stale_client_deadline(what)
            {
                continue;
            }
            if matches!(what, Scheduled::LeaderBalanceCheck) {
                if self.leader_balance_check_repeats() {
                    continue;
                }
                return None;
            }
            let mut item = vec![rel(at_ms)];
            encode_delivery(what, &mut item)?;
            timeline.push((at_ms, seq, item));
        }
        for b in self.brokers.iter().filter(|b| b.running) {
            for (expiration_ms, order, op) in b.fetch_purgatory.timeouts() {
                let r = &op.request;
                let mut item = vec![
                    rel(expiration_ms),
                    3,
                    r.follower.0.into(),
                    r.leader.0.into(),
                ];
                item.push(rel(op.created_ms));
                item.extend(r.partitions.iter().map(|p| p.fetch_offset));
                timeline.push((expiration_ms, order, item));
            }
        }
        timeline.sort_by_key(|t| (t.0, t.1));
        for (_, _, item) in timeline {
            shape.push(item.len() as u64);
            shape.extend(item);
        }
        for b in &self.brokers {
            b.idle_shape(&mut shape)?;
        }
        let mut clocks = Vec::new();
        for b in &mut self.brokers {
            b.visit_clocks(&mut |t| clocks.push(*t));
        }
        let fetch_clocks = self
            .brokers
            .iter()
            .map(|b| b.fetch_timer_clock_ms())
            .collect();
        Some((shape, clocks, fetch_clocks))
    }

    /// A producer's deadline that will find its request no longer waiting (answered, or its
    /// connection dropped) and do nothing: not part of what must repeat. A deadline still to
    /// come for a waiting request keeps the cluster from counting as idle.
    pub(super) fn stale_client_deadline(&self, what: &Scheduled) -> bool {
        matches!(what, Scheduled::ClientDeadline { request }
            if !self.requests.get(*request).client_waiting())
    }
}

/// Appends a fetch or a fetch answer in flight to `out`; `None` for any other item.
fn encode_delivery(what: &Scheduled, out: &mut Vec<u64>) -> Option<()> {
    match what {
        Scheduled::FetchArrives(r) => {
            out.extend([1, r.follower.0.into(), r.leader.0.into(), r.broker_epoch]);
            out.push(r.max_wait_ms);
            for p in &r.partitions {
                out.extend([p.tp.topic.into(), p.tp.partition.into(), p.fetch_offset]);
                out.push(p.last_fetched_epoch.map_or(0, |e| u64::from(e) + 1));
                out.push(p.current_leader_epoch.into());
            }
        }
        Scheduled::FetchResponseArrives(r) => {
            out.extend([2, r.follower.0.into(), r.leader.0.into()]);
            for d in &r.partitions {
                out.extend([d.tp.topic.into(), d.tp.partition.into(), d.fetch_offset]);
                out.extend([d.error as u64, d.high_watermark, d.log_end_offset]);
                out.extend([d.batches.len() as u64, u64::from(d.diverging.is_some())]);
            }
        }
        _ => return None,
    }
    Some(())
}

/// For each clock read twice a period apart: whether it moved by the period (true) or stayed
/// (false); `None` if any did something else.
pub(super) fn classify(before: &[u64], after: &[u64], period_ms: u64) -> Option<Vec<bool>> {
    if before.len() != after.len() {
        return None;
    }
    before
        .iter()
        .zip(after)
        .map(|(&b, &a)| match a.checked_sub(b) {
            Some(0) => Some(false),
            Some(d) if d == period_ms => Some(true),
            _ => None,
        })
        .collect()
}
