//! What a leader knows of one follower (Kafka's `Replica` / `ReplicaState`): only what that
//! follower's fetches told it.

use serde::Serialize;

/// Kafka: `ReplicaState`, replaced as a whole on each update.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ReplicaState {
    /// The fetch offset of the follower's latest fetch; `None` is Kafka's -1 (unknown), as after
    /// this broker became leader and before the follower fetched from it.
    pub log_end_offset: Option<u64>,
    pub last_caught_up_time_ms: u64,
    pub last_fetch_time_ms: u64,
    pub last_fetch_leader_log_end_offset: u64,
    /// The broker epoch (incarnation) the follower's latest fetch carried.
    pub broker_epoch: Option<u64>,
}

impl ReplicaState {
    /// The state at t = 0 in the scenario contract: caught up at 0, log end offset 0.
    pub fn initial() -> Self {
        ReplicaState {
            log_end_offset: Some(0),
            last_caught_up_time_ms: 0,
            last_fetch_time_ms: 0,
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
        let caught_up = if in_isr { now_ms } else { 0 };
        if newly_leader {
            // A fresh leader knows nothing of the follower yet, not even its broker epoch, so
            // the follower is not ISR-eligible until it fetches (Kafka:
            // `Replica.resetReplicaState(isNewLeader = true)` clears `brokerEpoch`).
            ReplicaState {
                log_end_offset: None,
                last_caught_up_time_ms: caught_up,
                last_fetch_time_ms: 0,
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
        let last_caught_up_time_ms = if fetch_offset >= leader_log_end_offset {
            self.last_caught_up_time_ms.max(now_ms)
        } else if fetch_offset >= self.last_fetch_leader_log_end_offset {
            self.last_caught_up_time_ms.max(self.last_fetch_time_ms)
        } else {
            self.last_caught_up_time_ms
        };
        ReplicaState {
            log_end_offset: Some(fetch_offset),
            last_caught_up_time_ms,
            last_fetch_time_ms: now_ms,
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
            || now_ms.saturating_sub(self.last_caught_up_time_ms) <= lag_time_max_ms
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
        assert_eq!(r.last_caught_up_time_ms, 100);
        // The leader appended to 10 before the next fetch; this fetch at 0 reached what the
        // leader had at the previous fetch (0), so the follower was caught up as of time 100.
        let r2 = r.after_fetch(0, 200, 10, 1);
        assert_eq!(r2.last_caught_up_time_ms, 100);
        assert_eq!(r2.last_fetch_leader_log_end_offset, 10);
        // A fetch that reaches neither leaves it.
        let r3 = r2.after_fetch(5, 900, 20, 1);
        assert_eq!(r3.last_caught_up_time_ms, 100);
    }
}
