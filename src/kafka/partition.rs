//! One hosted replica of a topic-partition, as leader or follower (Kafka's `Partition`): the log,
//! the high watermark, the committed and pending ISR, and what the leader knows of each follower.
//! Everything here is pure state transition; the broker decides what to do with the results
//! (which keys to check, what to send).

use serde::Serialize;

use super::errors::ErrorCode;
use super::log::{Batch, Log};
use super::metadata::BrokerRegistry;
use super::replica::{RemoteReplicas, ReplicaState};
use super::BrokerId;
use super::TopicPartition;

/// Kafka: `PartitionState`: committed, or an AlterPartition in flight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum IsrState {
    Committed,
    /// The new replica is already in the maximal ISR.
    PendingExpand {
        replica: BrokerId,
    },
    /// The maximal ISR is still the old, larger set.
    PendingShrink {
        out_of_sync: Vec<BrokerId>,
    },
}

/// Kafka: `LeaderHwChange` after an append.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum LeaderHwChange {
    Increased,
    Same,
}

/// A high watermark move, and which replica (if any) bounded the new value from below the
/// leader's log end offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct HwMove {
    pub from: u64,
    pub to: u64,
}

/// An ISR change the leader asks the controller for (Kafka: `AlterPartition`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AlterPartitionProposal {
    pub tp: TopicPartition,
    pub leader_epoch: u32,
    pub partition_epoch: u32,
    pub new_isr: Vec<BrokerId>,
}

/// Why the high watermark could not pass a value (for the narration).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum HwBound {
    /// Strict min ISR (3.7+): the committed ISR is below the effective minimum, the HW is frozen.
    UnderMinIsr,
    /// A replica of the maximal ISR is behind.
    IsrReplica {
        broker: BrokerId,
        log_end_offset: Option<u64>,
    },
    /// A caught-up, eligible replica outside the ISR is behind (`shouldWaitForReplicaToJoinIsr`).
    CaughtUpReplica {
        broker: BrokerId,
        log_end_offset: Option<u64>,
    },
    /// Nothing holds it below the leader's log end offset.
    LeaderLogEnd,
}

/// What the high-watermark rule reads besides the partition: the time, the two settings, and
/// the broker registrations (for `isReplicaIsrEligible`).
#[derive(Clone, Copy, Debug)]
pub struct HwRules<'a> {
    pub now_ms: u64,
    pub lag_time_max_ms: u64,
    pub min_insync_replicas: u32,
    pub registry: &'a BrokerRegistry,
}

#[derive(Clone, Debug)]
pub struct Partition {
    pub tp: TopicPartition,
    pub local: BrokerId,
    pub assignment: Vec<BrokerId>,
    pub leader: Option<BrokerId>,
    pub leader_epoch: u32,
    pub partition_epoch: u32,
    /// The committed ISR, sorted.
    pub isr: Vec<BrokerId>,
    pub isr_state: IsrState,
    pub log: Log,
    pub high_watermark: u64,
    /// Leader only: what this leader knows of each follower.
    pub remote_replicas: RemoteReplicas,
    /// Leader only: the log end offset when this broker became leader of the current epoch.
    pub leader_epoch_start_offset: Option<u64>,
}

impl Partition {
    /// The state at t = 0 (scenario contract): empty logs, everyone in the ISR, epoch 0.
    pub fn initial(tp: TopicPartition, local: BrokerId, assignment: Vec<BrokerId>) -> Self {
        let leader = assignment[0];
        let mut isr = assignment.clone();
        isr.sort();
        let remote_replicas = if leader == local {
            assignment
                .iter()
                .filter(|&&b| b != local)
                .map(|&b| (b, ReplicaState::initial()))
                .collect()
        } else {
            RemoteReplicas::default()
        };
        let mut log = Log::default();
        log.assign_epoch_start_offset(0);
        Partition {
            tp,
            local,
            assignment,
            leader: Some(leader),
            leader_epoch: 0,
            partition_epoch: 0,
            isr,
            isr_state: IsrState::Committed,
            log,
            high_watermark: 0,
            remote_replicas,
            leader_epoch_start_offset: (leader == local).then_some(0),
        }
    }

    pub fn is_leader(&self) -> bool {
        self.leader == Some(self.local)
    }

    pub fn log_end_offset(&self) -> u64 {
        self.log.log_end_offset()
    }

    /// Kafka (3.7+, KAFKA-15583): `min(min.insync.replicas, replica count)`.
    pub fn effective_min_isr(&self, min_insync_replicas: u32) -> usize {
        (min_insync_replicas as usize).min(self.assignment.len())
    }

    /// Kafka: `Partition.isUnderMinIsr`, on the committed ISR.
    pub fn is_under_min_isr(&self, min_insync_replicas: u32) -> bool {
        self.is_leader() && self.isr.len() < self.effective_min_isr(min_insync_replicas)
    }

    /// Kafka: `PartitionState.maximalIsr`: a pending expand counts at once, a pending shrink only
    /// once committed.
    pub fn maximal_isr(&self) -> Vec<BrokerId> {
        let mut isr = self.isr.clone();
        if let IsrState::PendingExpand { replica } = self.isr_state {
            if !isr.contains(&replica) {
                isr.push(replica);
                isr.sort();
            }
        }
        isr
    }

    /// The ISR an AlterPartition in flight proposes, if one is.
    pub fn pending_proposal(&self) -> Option<Vec<BrokerId>> {
        match &self.isr_state {
            IsrState::Committed => None,
            IsrState::PendingExpand { .. } => Some(self.maximal_isr()),
            IsrState::PendingShrink { out_of_sync } => Some(
                self.isr
                    .iter()
                    .copied()
                    .filter(|b| !out_of_sync.contains(b))
                    .collect(),
            ),
        }
    }

    /// The size of [`Self::maximal_isr`], without building it (every produce completion asks).
    fn maximal_isr_len(&self) -> usize {
        let pending = match self.isr_state {
            IsrState::PendingExpand { replica } => !self.isr.contains(&replica),
            _ => false,
        };
        self.isr.len() + usize::from(pending)
    }

    fn in_maximal_isr(&self, broker: BrokerId) -> bool {
        self.isr.contains(&broker) || self.isr_state == IsrState::PendingExpand { replica: broker }
    }

    /// Kafka: `Partition.isReplicaIsrEligible`: not fenced, not shutting down, and the broker
    /// epoch of its fetches matches the one the metadata holds.
    fn is_replica_isr_eligible(&self, broker: BrokerId, registry: &BrokerRegistry) -> bool {
        let fetched_epoch = self
            .remote_replicas
            .get(&broker)
            .and_then(|r| r.broker_epoch);
        registry.is_isr_eligible(broker, fetched_epoch)
    }

    /// Kafka: `Partition.maybeIncrementLeaderHW`. Returns the move when the HW went up.
    pub fn maybe_increment_leader_hw(&mut self, rules: &HwRules) -> Option<HwMove> {
        let (candidate, _) = self.high_watermark_candidate(rules);
        let candidate = candidate?;
        (candidate > self.high_watermark).then(|| {
            let from = self.high_watermark;
            self.high_watermark = candidate;
            HwMove {
                from,
                to: candidate,
            }
        })
    }

    /// The value the HW would move to now, and what bounds it. `None` when it cannot move at all
    /// (under min ISR, or a replica that holds it back has an unknown log end offset).
    pub fn high_watermark_candidate(&self, rules: &HwRules) -> (Option<u64>, HwBound) {
        if self.is_under_min_isr(rules.min_insync_replicas) {
            return (None, HwBound::UnderMinIsr);
        }
        let leader_end = self.log_end_offset();
        let mut candidate = Some(leader_end);
        let mut bound = HwBound::LeaderLogEnd;
        for (broker, state) in self.remote_replicas.iter() {
            let behind = match (state.log_end_offset, candidate) {
                (_, None) => false,
                (None, Some(_)) => true,
                (Some(leo), Some(c)) => leo < c,
            };
            if !behind {
                continue;
            }
            if self.in_maximal_isr(broker) {
                bound = HwBound::IsrReplica {
                    broker,
                    log_end_offset: state.log_end_offset,
                };
            } else if state.is_caught_up(leader_end, rules.now_ms, rules.lag_time_max_ms)
                && self.is_replica_isr_eligible(broker, rules.registry)
            {
                bound = HwBound::CaughtUpReplica {
                    broker,
                    log_end_offset: state.log_end_offset,
                };
            } else {
                continue;
            }
            candidate = state.log_end_offset;
        }
        (candidate, bound)
    }

    /// Kafka: `Partition.checkEnoughReplicasReachOffset`, the heart of `DelayedProduce`'s
    /// Case B/C: `(has_enough, error)`.
    pub fn check_enough_replicas_reach_offset(
        &self,
        required_offset: u64,
        min_insync_replicas: u32,
    ) -> (bool, ErrorCode) {
        if !self.is_leader() {
            return (false, ErrorCode::NotLeaderOrFollower);
        }
        if self.high_watermark < required_offset {
            return (false, ErrorCode::None);
        }
        if self.effective_min_isr(min_insync_replicas) <= self.maximal_isr_len() {
            (true, ErrorCode::None)
        } else {
            (true, ErrorCode::NotEnoughReplicasAfterAppend)
        }
    }

    /// Kafka: `Partition.appendRecordsToLeader`: the leader check, the pre-append min-ISR check
    /// for acks=-1 on the committed ISR, the append, then `maybeIncrementLeaderHW`.
    pub fn append_records_to_leader(
        &mut self,
        count: u64,
        required_acks: i64,
        origin: Option<u32>,
        rules: &HwRules,
    ) -> Result<(Batch, LeaderHwChange), ErrorCode> {
        if !self.is_leader() {
            return Err(ErrorCode::NotLeaderOrFollower);
        }
        let min_isr = self.effective_min_isr(rules.min_insync_replicas);
        if required_acks == -1 && self.isr.len() < min_isr {
            return Err(ErrorCode::NotEnoughReplicas);
        }
        let batch = self.log.append_as_leader(count, self.leader_epoch, origin);
        let change = match self.maybe_increment_leader_hw(rules) {
            Some(_) => LeaderHwChange::Increased,
            None => LeaderHwChange::Same,
        };
        Ok((batch, change))
    }

    /// Kafka: `Partition.updateFollowerFetchState` after `Replica.updateFetchStateOrThrow`:
    /// record the fetch, then `maybeExpandIsr`, then (if the follower's log end offset moved)
    /// `maybeIncrementLeaderHW`. Returns the follower's state before and after the fetch, or
    /// `None` when it holds no replica of this partition.
    pub fn update_follower_fetch_state(
        &mut self,
        follower: BrokerId,
        fetch_offset: u64,
        broker_epoch: u64,
        now_ms: u64,
    ) -> Option<(ReplicaState, ReplicaState)> {
        let leader_end = self.log_end_offset();
        let state = self.remote_replicas.get_mut(&follower)?;
        let before = *state;
        *state = before.after_fetch(fetch_offset, now_ms, leader_end, broker_epoch);
        Some((before, *state))
    }

    /// Kafka: `Partition.maybeExpandIsr` / `isFollowerInSync` / `prepareIsrExpand`.
    pub fn maybe_expand_isr(
        &mut self,
        follower: BrokerId,
        registry: &BrokerRegistry,
    ) -> Option<AlterPartitionProposal> {
        if !self.is_leader()
            || self.isr_state != IsrState::Committed
            || self.isr.contains(&follower)
        {
            return None;
        }
        let leo = self.remote_replicas.get(&follower)?.log_end_offset?;
        let in_sync = leo >= self.high_watermark
            && self
                .leader_epoch_start_offset
                .is_some_and(|start| leo >= start);
        if !in_sync || !self.is_replica_isr_eligible(follower, registry) {
            return None;
        }
        self.isr_state = IsrState::PendingExpand { replica: follower };
        let mut new_isr = self.isr.clone();
        new_isr.push(follower);
        new_isr.sort();
        Some(self.proposal(new_isr))
    }

    /// Kafka: `Partition.maybeShrinkIsr` / `getOutOfSyncReplicas` / `prepareIsrShrink`.
    pub fn maybe_shrink_isr(
        &mut self,
        now_ms: u64,
        lag_time_max_ms: u64,
    ) -> Option<AlterPartitionProposal> {
        if !self.is_leader() || self.isr_state != IsrState::Committed {
            return None;
        }
        let leader_end = self.log_end_offset();
        let out_of_sync: Vec<BrokerId> = self
            .isr
            .iter()
            .copied()
            .filter(|&b| b != self.local)
            .filter(|b| {
                self.remote_replicas
                    .get(b)
                    .is_none_or(|r| !r.is_caught_up(leader_end, now_ms, lag_time_max_ms))
            })
            .collect();
        if out_of_sync.is_empty() {
            return None;
        }
        let new_isr = self
            .isr
            .iter()
            .copied()
            .filter(|b| !out_of_sync.contains(b))
            .collect();
        self.isr_state = IsrState::PendingShrink { out_of_sync };
        Some(self.proposal(new_isr))
    }

    fn proposal(&self, new_isr: Vec<BrokerId>) -> AlterPartitionProposal {
        AlterPartitionProposal {
            tp: self.tp,
            leader_epoch: self.leader_epoch,
            partition_epoch: self.partition_epoch,
            new_isr,
        }
    }

    /// Whether an AlterPartition answer still belongs to the state that proposed it (Kafka
    /// ignores a response once the partition state has been replaced).
    pub fn awaits(&self, proposal: &AlterPartitionProposal) -> bool {
        self.is_leader()
            && self.isr_state != IsrState::Committed
            && self.leader_epoch == proposal.leader_epoch
            && self.partition_epoch == proposal.partition_epoch
    }

    /// Kafka: `handleAlterPartitionUpdate` on success: commit the new ISR. The caller then runs
    /// `maybe_increment_leader_hw`.
    pub fn commit_isr(&mut self, isr: Vec<BrokerId>, partition_epoch: u32) {
        self.isr = isr;
        self.partition_epoch = partition_epoch;
        self.isr_state = IsrState::Committed;
    }

    /// Kafka: `INELIGIBLE_REPLICA` / `OPERATION_NOT_ATTEMPTED`: back to the last committed state.
    pub fn revert_pending_isr(&mut self) {
        self.isr_state = IsrState::Committed;
    }

    /// Kafka: `Partition.makeLeader` (KRaft: every metadata update for a partition led here).
    /// Returns whether the leader epoch is new. The caller runs `maybe_increment_leader_hw`.
    pub fn make_leader(
        &mut self,
        leader_epoch: u32,
        isr: Vec<BrokerId>,
        partition_epoch: u32,
        now_ms: u64,
    ) -> bool {
        let newly_leader = !self.is_leader();
        let new_epoch = newly_leader || leader_epoch > self.leader_epoch;
        self.leader = Some(self.local);
        self.isr = isr;
        self.isr_state = IsrState::Committed;
        self.partition_epoch = partition_epoch;
        if new_epoch {
            self.leader_epoch = leader_epoch;
            let leader_end = self.log_end_offset();
            self.leader_epoch_start_offset = Some(leader_end);
            self.log.assign_epoch_start_offset(leader_epoch);
            let followers: Vec<BrokerId> = self
                .assignment
                .iter()
                .copied()
                .filter(|&b| b != self.local)
                .collect();
            let previous = std::mem::take(&mut self.remote_replicas);
            for b in followers {
                let old = previous
                    .get(&b)
                    .copied()
                    .unwrap_or_else(ReplicaState::initial);
                let in_isr = self.isr.contains(&b);
                self.remote_replicas
                    .insert(b, old.reset(newly_leader, in_isr, now_ms, leader_end));
            }
        }
        new_epoch
    }

    /// Kafka: `Partition.makeFollower`: forget the followers' states and any pending ISR change.
    /// Returns whether this broker stopped leading or the epoch moved on (then waiting requests
    /// for this partition must be answered at once).
    pub fn make_follower(
        &mut self,
        leader: Option<BrokerId>,
        leader_epoch: u32,
        isr: Vec<BrokerId>,
        partition_epoch: u32,
    ) -> bool {
        let changed =
            self.is_leader() || leader_epoch != self.leader_epoch || leader != self.leader;
        self.leader = leader;
        self.leader_epoch = leader_epoch;
        self.isr = isr;
        self.isr_state = IsrState::Committed;
        self.partition_epoch = partition_epoch;
        self.remote_replicas.clear();
        self.leader_epoch_start_offset = None;
        changed
    }

    /// Follower side of a fetch response: Kafka sets the follower's HW to
    /// `min(leader HW, own log end offset)`.
    pub fn update_follower_high_watermark(&mut self, leader_high_watermark: u64) {
        self.high_watermark = leader_high_watermark.min(self.log_end_offset());
    }

    /// Follower side of a diverging epoch: truncate, and keep the HW within the log.
    pub fn truncate_to(&mut self, offset: u64) {
        self.log.truncate_to(offset);
        self.high_watermark = self.high_watermark.min(self.log_end_offset());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maximal_isr_len_is_the_maximal_isr_size() {
        let tp = TopicPartition {
            topic: 0,
            partition: 0,
        };
        let replicas = vec![BrokerId(0), BrokerId(1), BrokerId(2)];
        let mut p = Partition::initial(tp, BrokerId(0), replicas);
        p.isr = vec![BrokerId(0), BrokerId(1)];
        for state in [
            IsrState::Committed,
            IsrState::PendingExpand {
                replica: BrokerId(2),
            },
            IsrState::PendingExpand {
                replica: BrokerId(1),
            },
            IsrState::PendingShrink {
                out_of_sync: vec![BrokerId(1)],
            },
        ] {
            p.isr_state = state;
            assert_eq!(p.maximal_isr_len(), p.maximal_isr().len());
        }
    }
}
