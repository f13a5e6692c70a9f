//! What a leader knows of its followers (Kafka's `Replica` / `ReplicaState`): only what each
//! follower's fetches told it.

use serde::Serialize;

use super::BrokerId;

/// Kafka: `ReplicaState`, replaced as a whole on each update.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ReplicaState {
    /// The fetch offset of the follower's latest fetch; `None` is Kafka's -1 (unknown), as after
    /// this broker became leader and before the follower fetched from it.
    pub log_end_offset: Option<u64>,
    /// When the follower was last caught up; `None` is never. Kafka resets a follower outside the
    /// ISR to `0L` on the wall clock, 1970: longer ago than `replica.lag.time.max.ms` on any real
    /// broker. The model's clock starts at the cluster's start, so its 0 would be recent (caught
    /// up by time for the run's first 30 s), and `None` says what Kafka's 0 means instead.
    pub last_caught_up_time_ms: Option<u64>,
    /// When the follower last fetched; `None` is never (Kafka's `0L` after a new leader's reset).
    pub last_fetch_time_ms: Option<u64>,
    pub last_fetch_leader_log_end_offset: u64,
    /// The broker epoch (incarnation) the follower's latest fetch carried.
    pub broker_epoch: Option<u64>,
}

impl ReplicaState {
    /// The state at t = 0 in the scenario contract: caught up at 0, log end offset 0.
    pub fn initial() -> Self {
        ReplicaState {
            log_end_offset: Some(0),
            last_caught_up_time_ms: Some(0),
            last_fetch_time_ms: Some(0),
            last_fetch_leader_log_end_offset: 0,
            broker_epoch: None,
        }
    }

    /// Kafka: `Replica.resetReplicaState` when this broker becomes leader of a new epoch.
    /// `newly_leader` distinguishes a fresh leader (the follower's offset becomes unknown) from a
    /// re-elected one (kept).
    pub fn reset(
        &self,
        newly_leader: bool,
        in_isr: bool,
        now_ms: u64,
        leader_log_end_offset: u64,
    ) -> Self {
        // Kafka: `now` in the ISR, else `0L` (never, see `last_caught_up_time_ms`).
        let caught_up = in_isr.then_some(now_ms);
        if newly_leader {
            // A fresh leader knows nothing of the follower yet, not even its broker epoch, so
            // the follower is not ISR-eligible until it fetches (Kafka:
            // `Replica.resetReplicaState(isNewLeader = true)` clears `brokerEpoch`).
            ReplicaState {
                log_end_offset: None,
                last_caught_up_time_ms: caught_up,
                last_fetch_time_ms: None,
                last_fetch_leader_log_end_offset: 0,
                broker_epoch: None,
            }
        } else {
            ReplicaState {
                log_end_offset: self.log_end_offset,
                last_caught_up_time_ms: caught_up,
                last_fetch_time_ms: caught_up,
                last_fetch_leader_log_end_offset: leader_log_end_offset,
                broker_epoch: self.broker_epoch,
            }
        }
    }

    /// Kafka: `ReplicaState.updateFetchStateOrThrow` (the broker-epoch rejection is made by the
    /// caller). The caught-up time moves to now when the fetch reached the leader's log end
    /// offset, or to the previous fetch time when it reached what the leader had then.
    pub fn after_fetch(
        &self,
        fetch_offset: u64,
        now_ms: u64,
        leader_log_end_offset: u64,
        broker_epoch: u64,
    ) -> Self {
        // `None` (never) is below every time, as Kafka's 0L is.
        let last_caught_up_time_ms = if fetch_offset >= leader_log_end_offset {
            self.last_caught_up_time_ms.max(Some(now_ms))
        } else if fetch_offset >= self.last_fetch_leader_log_end_offset {
            self.last_caught_up_time_ms.max(self.last_fetch_time_ms)
        } else {
            self.last_caught_up_time_ms
        };
        ReplicaState {
            log_end_offset: Some(fetch_offset),
            last_caught_up_time_ms,
            last_fetch_time_ms: Some(now_ms),
            last_fetch_leader_log_end_offset: leader_log_end_offset
                .max(self.last_fetch_leader_log_end_offset),
            broker_epoch: Some(broker_epoch),
        }
    }

    /// Kafka: `ReplicaState.isCaughtUp`: at the leader's log end offset, or caught up within the
    /// last `replica.lag.time.max.ms` (inclusive).
    pub fn is_caught_up(
        &self,
        leader_log_end_offset: u64,
        now_ms: u64,
        lag_time_max_ms: u64,
    ) -> bool {
        self.log_end_offset == Some(leader_log_end_offset)
            || self
                .last_caught_up_time_ms
                .is_some_and(|at| now_ms.saturating_sub(at) <= lag_time_max_ms)
    }
}

/// What a leader knows of each follower, in broker order (what a `BTreeMap` keyed by broker
/// gave). A partition has a handful of replicas, and every follower fetch looks its state up
/// and walks them all to move the HW: a sorted list does both faster than a tree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RemoteReplicas(Vec<(BrokerId, ReplicaState)>);

impl RemoteReplicas {
    pub fn get(&self, broker: &BrokerId) -> Option<&ReplicaState> {
        let i = self.position(broker).ok()?;
        Some(&self.0[i].1)
    }

    pub fn get_mut(&mut self, broker: &BrokerId) -> Option<&mut ReplicaState> {
        let i = self.position(broker).ok()?;
        Some(&mut self.0[i].1)
    }

    /// Sets a follower's state, keeping the broker order.
    pub fn insert(&mut self, broker: BrokerId, state: ReplicaState) {
        match self.position(&broker) {
            Ok(i) => self.0[i].1 = state,
            Err(i) => self.0.insert(i, (broker, state)),
        }
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// In broker order.
    pub fn iter(&self) -> impl Iterator<Item = (BrokerId, &ReplicaState)> {
        self.0.iter().map(|(b, s)| (*b, s))
    }

    /// In broker order, mutably.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (BrokerId, &mut ReplicaState)> {
        self.0.iter_mut().map(|(b, s)| (*b, s))
    }

    fn position(&self, broker: &BrokerId) -> Result<usize, usize> {
        self.0.binary_search_by_key(broker, |&(b, _)| b)
    }
}

impl FromIterator<(BrokerId, ReplicaState)> for RemoteReplicas {
    fn from_iter<I: IntoIterator<Item = (BrokerId, ReplicaState)>>(iter: I) -> Self {
        let mut replicas = RemoteReplicas::default();
        for (broker, state) in iter {
            replicas.insert(broker, state);
        }
        replicas
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caught_up_by_equality_however_stale() {
        let r = ReplicaState::initial();
        assert!(r.is_caught_up(0, 1_000_000, 30_000));
        assert!(!r.is_caught_up(10, 30_001, 30_000));
        assert!(
            r.is_caught_up(10, 30_000, 30_000),
            "the lag boundary is inclusive"
        );
    }

    #[test]
    fn fetch_reaching_the_previous_leader_end_counts_from_the_previous_fetch() {
        let r = ReplicaState::initial().after_fetch(0, 100, 0, 1);
        assert_eq!(r.last_caught_up_time_ms, Some(100));
        // The leader appended to 10 before the next fetch; this fetch at 0 reached what the
        // leader had at the previous fetch (0), so the follower was caught up as of time 100.
        let r2 = r.after_fetch(0, 200, 10, 1);
        assert_eq!(r2.last_caught_up_time_ms, Some(100));
        assert_eq!(r2.last_fetch_leader_log_end_offset, 10);
        // A fetch that reaches neither leaves it.
        let r3 = r2.after_fetch(5, 900, 20, 1);
        assert_eq!(r3.last_caught_up_time_ms, Some(100));
    }

    #[test]
    fn a_new_leader_counts_a_follower_outside_the_isr_as_never_caught_up() {
        // Kafka: `resetReplicaState` sets lastCaughtUpTimeMs to 0L on the wall clock (1970), so
        // `isCaughtUp` by time is false at once, not for the run's first replica.lag.time.max.ms.
        let out = ReplicaState::initial().reset(true, false, 12_001, 10);
        assert_eq!(out.last_caught_up_time_ms, None);
        assert!(!out.is_caught_up(20, 12_100, 30_000));
        // A fetch that is behind leaves it never caught up (max with the never-fetched time),
        // one at the leader's end makes it caught up now.
        let behind = out.after_fetch(10, 12_050, 20, 7);
        assert_eq!(behind.last_caught_up_time_ms, None);
        assert!(!behind.is_caught_up(20, 12_060, 30_000));
        let level = behind.after_fetch(20, 12_070, 20, 7);
        assert_eq!(level.last_caught_up_time_ms, Some(12_070));
        // In the ISR it is caught up as of the election.
        let in_isr = ReplicaState::initial().reset(true, true, 12_001, 10);
        assert!(in_isr.is_caught_up(20, 42_001, 30_000));
        assert!(!in_isr.is_caught_up(20, 42_002, 30_000));
    }

    #[test]
    fn remote_replicas_stay_in_broker_order() {
        let state = |leo| ReplicaState {
            log_end_offset: Some(leo),
            ..ReplicaState::initial()
        };
        let mut replicas: RemoteReplicas = [(BrokerId(2), state(2)), (BrokerId(0), state(0))]
            .into_iter()
            .collect();
        replicas.insert(BrokerId(1), state(1));
        replicas.insert(BrokerId(2), state(5));
        let order: Vec<_> = replicas
            .iter()
            .map(|(b, s)| (b.0, s.log_end_offset))
            .collect();
        assert_eq!(order, [(0, Some(0)), (1, Some(1)), (2, Some(5))]);
        assert_eq!(replicas.get(&BrokerId(1)), Some(&state(1)));
        assert!(replicas.get(&BrokerId(3)).is_none());
    }
}
