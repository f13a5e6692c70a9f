//! The KRaft controller, reduced to what the produce path feels: broker fencing and unfencing,
//! leader election, and AlterPartition. Kafka: `ReplicationControlManager`,
//! `ClusterControlManager`. Every decision comes back as a [`MetadataDelta`] that the
//! simulation delivers to the brokers.

use serde::Serialize;

use super::metadata::{BrokerRegistry, MetadataDelta, PartitionRecord};
use super::partition::AlterPartitionProposal;
use super::tp_map::TopicPartitionMap;
use super::BrokerId;
use super::TopicPartition;

/// Kafka's AlterPartition error codes that the model can produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum AlterPartitionError {
    /// The proposer is no longer the leader of that epoch.
    FencedLeaderEpoch,
    /// The partition changed since the proposal (e.g. the controller removed a fenced broker).
    InvalidUpdateVersion,
    /// A replica to add is fenced or has re-registered.
    IneligibleReplica,
}

/// Why `elect_leader` did nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ElectionRefused {
    UnknownPartition,
    NotInIsr,
    BrokerFenced,
    /// The broker's process is down (crashed, not yet fenced).
    BrokerDown,
    AlreadyLeader,
}

#[derive(Clone, Debug)]
pub struct Controller {
    pub partitions: TopicPartitionMap<PartitionRecord>,
    pub registry: BrokerRegistry,
}

impl Controller {
    pub fn new(
        registry: BrokerRegistry,
        partitions: impl IntoIterator<Item = PartitionRecord>,
    ) -> Self {
        let mut by_tp = TopicPartitionMap::default();
        for r in partitions {
            by_tp.insert(r.tp, r);
        }
        Controller {
            partitions: by_tp,
            registry,
        }
    }

    /// Kafka: `ReplicationControlManager.handleBrokerFenced`: out of every ISR (never emptying
    /// one), and a new leader wherever it led: the first replica in assignment order that is in
    /// the ISR and not fenced, or none.
    pub fn fence(&mut self, broker: BrokerId) -> MetadataDelta {
        let mut delta = MetadataDelta::default();
        let Some(reg) = self.registry.get_mut(broker) else {
            return delta;
        };
        reg.fenced = true;
        delta.brokers.push((broker, *reg));
        for record in self.partitions.values_mut() {
            let mut changed = false;
            if record.isr.contains(&broker) && record.isr.len() > 1 {
                record.isr.retain(|&b| b != broker);
                changed = true;
            }
            if record.leader == Some(broker) {
                let next = first_eligible_leader(record, &self.registry);
                record.leader = next;
                record.leader_epoch += 1;
                changed = true;
            }
            if changed {
                record.partition_epoch += 1;
                delta.partitions.push(record.clone());
            }
        }
        delta
    }

    /// Kafka: `handleBrokerUnfenced`: leaderless partitions whose ISR holds this broker get it as
    /// leader.
    pub fn unfence(&mut self, broker: BrokerId) -> MetadataDelta {
        let mut delta = MetadataDelta::default();
        let Some(reg) = self.registry.get_mut(broker) else {
            return delta;
        };
        reg.fenced = false;
        delta.brokers.push((broker, *reg));
        for record in self.partitions.values_mut() {
            if record.leader.is_none() && record.isr.contains(&broker) {
                record.leader = first_eligible_leader(record, &self.registry);
                record.leader_epoch += 1;
                record.partition_epoch += 1;
                delta.partitions.push(record.clone());
            }
        }
        delta
    }

    /// Kafka: `ClusterControlManager.registerBroker` for a process with a new incarnation: while
    /// the broker's old registration still has a valid session (it is not fenced), the
    /// registration is refused (`DuplicateBrokerRegistrationException`, checked in Kafka 4.1.1's
    /// bytecode), and the broker retries.
    pub fn may_register(&self, broker: BrokerId) -> bool {
        self.registry.is_fenced(broker)
    }

    /// A restarted broker, its old registration fenced, registers with a new broker epoch and is
    /// unfenced (scenario-format.md, `restart_broker`: "is unfenced when it arrives").
    pub fn register_restart(&mut self, broker: BrokerId, broker_epoch: u64) -> MetadataDelta {
        debug_assert!(
            self.may_register(broker),
            "registration of an unfenced broker"
        );
        if let Some(reg) = self.registry.get_mut(broker) {
            reg.broker_epoch = broker_epoch;
        }
        self.unfence(broker)
    }

    /// Kafka: `ReplicationControlManager.alterPartition`: accept the leader's ISR proposal if it
    /// is for the current leader and partition epochs and adds only eligible replicas.
    pub fn alter_partition(
        &mut self,
        proposal: &AlterPartitionProposal,
    ) -> Result<PartitionRecord, AlterPartitionError> {
        let record = self
            .partitions
            .get_mut(&proposal.tp)
            .ok_or(AlterPartitionError::FencedLeaderEpoch)?;
        if record.leader_epoch != proposal.leader_epoch {
            return Err(AlterPartitionError::FencedLeaderEpoch);
        }
        if record.partition_epoch != proposal.partition_epoch {
            return Err(AlterPartitionError::InvalidUpdateVersion);
        }
        let added_ineligible = proposal
            .new_isr
            .iter()
            .any(|b| !record.isr.contains(b) && self.registry.is_fenced(*b));
        if added_ineligible {
            return Err(AlterPartitionError::IneligibleReplica);
        }
        record.isr = proposal.new_isr.clone();
        record.partition_epoch += 1;
        Ok(record.clone())
    }

    /// The `elect_leader` action: move leadership to a live ISR member and bump the epoch.
    pub fn elect_leader(
        &mut self,
        tp: TopicPartition,
        broker: BrokerId,
    ) -> Result<MetadataDelta, ElectionRefused> {
        let record = self
            .partitions
            .get_mut(&tp)
            .ok_or(ElectionRefused::UnknownPartition)?;
        if !record.isr.contains(&broker) {
            return Err(ElectionRefused::NotInIsr);
        }
        if self.registry.is_fenced(broker) {
            return Err(ElectionRefused::BrokerFenced);
        }
        if record.leader == Some(broker) {
            return Err(ElectionRefused::AlreadyLeader);
        }
        record.leader = Some(broker);
        record.leader_epoch += 1;
        record.partition_epoch += 1;
        Ok(MetadataDelta {
            partitions: vec![record.clone()],
            brokers: vec![],
        })
    }

    /// Kafka: `ReplicationControlManager.arePartitionLeadersImbalanced`: some partition is led by
    /// another replica than its preferred one (the first of its assignment), or by none.
    pub fn leaders_imbalanced(&self) -> bool {
        self.partitions
            .values()
            .any(|r| r.leader != r.assignment.first().copied())
    }

    /// Whether [`Self::balance_leaders`] would move any leader now.
    pub fn leaders_to_balance(&self) -> bool {
        self.partitions
            .values()
            .any(|r| preferred_leader_to_elect(r, &self.registry).is_some())
    }

    /// Kafka: `maybeBalancePartitionLeaders`, a PREFERRED election for every imbalanced
    /// partition: leadership moves back to its preferred replica where that one is in the ISR
    /// and unfenced (`LeaderAcceptor`); elsewhere nothing changes.
    pub fn balance_leaders(&mut self) -> MetadataDelta {
        let mut delta = MetadataDelta::default();
        for record in self.partitions.values_mut() {
            if let Some(preferred) = preferred_leader_to_elect(record, &self.registry) {
                record.leader = Some(preferred);
                record.leader_epoch += 1;
                record.partition_epoch += 1;
                delta.partitions.push(record.clone());
            }
        }
        delta
    }
}

/// The preferred replica (the first assigned) when a PREFERRED election would make it the leader:
/// it is not the leader, and it is in the ISR and unfenced.
fn preferred_leader_to_elect(
    record: &PartitionRecord,
    registry: &BrokerRegistry,
) -> Option<BrokerId> {
    let preferred = *record.assignment.first()?;
    let acceptable = record.isr.contains(&preferred) && !registry.is_fenced(preferred);
    (record.leader != Some(preferred) && acceptable).then_some(preferred)
}

fn first_eligible_leader(record: &PartitionRecord, registry: &BrokerRegistry) -> Option<BrokerId> {
    record
        .assignment
        .iter()
        .copied()
        .find(|b| record.isr.contains(b) && !registry.is_fenced(*b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn controller() -> Controller {
        let tp = TopicPartition {
            topic: 0,
            partition: 0,
        };
        let record = PartitionRecord {
            tp,
            assignment: vec![BrokerId(0), BrokerId(1), BrokerId(2)],
            leader: Some(BrokerId(0)),
            leader_epoch: 0,
            isr: vec![BrokerId(0), BrokerId(1), BrokerId(2)],
            partition_epoch: 0,
        };
        Controller::new(BrokerRegistry::new(3), [record])
    }

    #[test]
    fn fencing_the_leader_elects_the_next_isr_member_and_never_empties_the_isr() {
        let mut c = controller();
        let tp = TopicPartition {
            topic: 0,
            partition: 0,
        };
        c.fence(BrokerId(0));
        assert_eq!(c.partitions[&tp].leader, Some(BrokerId(1)));
        assert_eq!(c.partitions[&tp].leader_epoch, 1);
        c.fence(BrokerId(1));
        c.fence(BrokerId(2));
        let r = &c.partitions[&tp];
        assert_eq!(
            (r.leader, r.isr.clone(), r.leader_epoch),
            (None, vec![BrokerId(2)], 3)
        );
        c.unfence(BrokerId(2));
        assert_eq!(c.partitions[&tp].leader, Some(BrokerId(2)));
    }

    #[test]
    fn alter_partition_checks_epochs_and_eligibility() {
        let mut c = controller();
        let tp = TopicPartition {
            topic: 0,
            partition: 0,
        };
        let shrink = AlterPartitionProposal {
            tp,
            leader_epoch: 0,
            partition_epoch: 0,
            new_isr: vec![BrokerId(0), BrokerId(1)],
        };
        assert_eq!(c.alter_partition(&shrink).unwrap().partition_epoch, 1);
        assert_eq!(
            c.alter_partition(&shrink),
            Err(AlterPartitionError::InvalidUpdateVersion)
        );
        c.fence(BrokerId(2));
        let expand = AlterPartitionProposal {
            tp,
            leader_epoch: 0,
            partition_epoch: 1,
            new_isr: vec![BrokerId(0), BrokerId(1), BrokerId(2)],
        };
        assert_eq!(
            c.alter_partition(&expand),
            Err(AlterPartitionError::IneligibleReplica)
        );
    }
}
