//! A broker as the simulation's idle fast-forward (`sim::fast_forward`) sees it: its state written
//! out as numbers, to compare one period with the next, and the times it can move.
//!
//! While nothing happens in a cluster but follower long-polls that find nothing (each fetch
//! parked, expired, answered empty, sent again) and ISR checks that find everyone caught up,
//! each broker goes through the same states period after period, only later. What changes from
//! one period to the next is a set of clocks (when a fetch left, when a follower last fetched,
//! the fetch purgatory's timer) and counters nobody can observe (fetch sessions, operation slots,
//! the schedule's sequence numbers, the fetch purgatory's purge count).

use super::broker::Broker;
use super::partition::IsrState;

impl Broker {
    /// Appends to `shape` what must be the same from one period to the next: times absolute
    /// where they must stay, the fetch timer relative to its own clock. The clocks that may go
    /// either way are [`Self::visit_clocks`] and [`Self::fetch_timer_clock_ms`]. Returns `None` when this broker is certain to do
    /// something of its own later, so its state cannot repeat: an ISR change in flight, or an ISR
    /// member behind its leader's log end, whom an ISR check will shrink at a time of its own
    /// (a member at the log end is caught up however long ago it fetched, as in Kafka).
    pub fn idle_shape(&self, shape: &mut Vec<u64>) -> Option<()> {
        let m = &self.metrics;
        shape.extend([
            u64::from(self.running),
            u64::from(self.fetching_paused),
            self.broker_epoch,
            m.produce_expires,
            m.isr_shrinks,
            m.isr_expands,
        ]);
        if !self.running {
            return Some(());
        }
        for (tp, p) in &self.partitions {
            if p.isr_state != IsrState::Committed {
                return None;
            }
            let log_end = p.log_end_offset();
            shape.extend([
                u64::from(tp.topic),
                u64::from(tp.partition),
                p.leader.map_or(0, |b| u64::from(b.0) + 1),
                u64::from(p.leader_epoch),
                u64::from(p.partition_epoch),
                p.high_watermark,
                log_end,
                p.isr.len() as u64,
            ]);
            shape.extend(p.isr.iter().map(|b| u64::from(b.0)));
            if !p.is_leader() {
                continue;
            }
            for (b, r) in p.remote_replicas.iter() {
                if p.isr.contains(&b) && b != p.local && r.log_end_offset != Some(log_end) {
                    return None;
                }
                shape.extend([
                    u64::from(b.0),
                    r.log_end_offset.map_or(0, |o| o + 1),
                    r.last_fetch_leader_log_end_offset,
                    r.broker_epoch.map_or(0, |e| e + 1),
                ]);
            }
        }
        for (leader, f) in self.fetchers.iter() {
            shape.extend([u64::from(leader.0), u64::from(f.in_flight.is_some())]);
            for (tp, fp) in &f.partitions {
                shape.extend([
                    u64::from(tp.topic),
                    u64::from(tp.partition),
                    u64::from(fp.leader_epoch),
                    fp.delayed_until_ms,
                ]);
            }
        }
        let produce = &self.produce_purgatory;
        shape.extend([
            produce.purgatory_size() as u64,
            produce.num_delayed_operations() as u64,
            produce.estimated_total_operations(),
        ]);
        produce.relative_timer_shape(0, shape);
        // The fetch timer relative to its own clock, which either stays (a leader nobody fetches
        // from) or moves with the parked fetches ([`Self::fetch_timer_clock_ms`]).
        let fetch = &self.fetch_purgatory;
        fetch.relative_timer_shape(fetch.timer_current_time_ms(), shape);
        Some(())
    }

    /// The fetch purgatory timer's clock: read twice a period apart, it stayed (nothing parked
    /// here, the timer stays where it is) or moved by the period (the timer moves with the
    /// parked fetches, see [`Self::delay_parked_fetches`]).
    pub fn fetch_timer_clock_ms(&self) -> u64 {
        self.fetch_purgatory.timer_current_time_ms()
    }

    /// Each clock that a period of idle long-polls may move, in a fixed order: when each of this
    /// follower's fetches left, and, at a leader, when each follower last fetched and was last
    /// caught up. Read twice a period apart, each either stayed or moved by the period.
    pub fn visit_clocks(&mut self, visit: &mut impl FnMut(&mut u64)) {
        if !self.running {
            return;
        }
        for p in self.partitions.values_mut() {
            if p.is_leader() {
                for (_, r) in p.remote_replicas.iter_mut() {
                    // Never stays never.
                    let times = [&mut r.last_caught_up_time_ms, &mut r.last_fetch_time_ms];
                    for ms in times.into_iter().flatten() {
                        visit(ms);
                    }
                }
            }
        }
        for (_, f) in self.fetchers.iter_mut() {
            visit(&mut f.last_sent_ms);
        }
    }

    /// Moves the fetch purgatory `delta_ms` later: its timer, and each parked fetch's creation.
    pub fn delay_parked_fetches(&mut self, delta_ms: u64) {
        self.fetch_purgatory
            .shift_by(delta_ms, |op| op.created_ms += delta_ms);
    }
}

impl Broker {
    /// The earliest time after `now_ms` at which this idle broker does something of its own:
    /// a produce purgatory's timer bucket or purge poll, a bucket of a fetch purgatory timer
    /// that stays (`fetch_timer_stays`), a fetch partition's back-off ending.
    pub fn idle_horizon_ms(&self, now_ms: u64, fetch_timer_stays: bool) -> Option<u64> {
        if !self.running {
            return None;
        }
        let produce = self.produce_purgatory.next_wake_ms(now_ms);
        let fetch = fetch_timer_stays
            .then(|| self.fetch_purgatory.next_wake_ms(now_ms))
            .flatten();
        let backoffs = self
            .fetchers
            .iter()
            .flat_map(|(_, f)| f.partitions.iter().map(|(_, fp)| fp.delayed_until_ms))
            .filter(|&t| t > now_ms);
        [produce, fetch].into_iter().flatten().chain(backoffs).min()
    }
}
