//! The cluster metadata the controller publishes and every broker caches: partition records
//! (leader, epochs, ISR) and broker registrations (fenced or not, broker epoch).

use std::collections::BTreeMap;

use serde::Serialize;

use super::TopicPartition;
use crate::sim::action::BrokerId;

/// One partition's record in the metadata log (KRaft `PartitionRecord` / `PartitionChangeRecord`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PartitionRecord {
    pub tp: TopicPartition,
    pub assignment: Vec<BrokerId>,
    pub leader: Option<BrokerId>,
    pub leader_epoch: u32,
    /// Sorted.
    pub isr: Vec<BrokerId>,
    pub partition_epoch: u32,
}

/// One broker's registration (KRaft `BrokerRegistration`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BrokerRegistration {
    pub fenced: bool,
    /// Changes each time the broker process starts.
    pub broker_epoch: u64,
}

/// The registrations as a broker's metadata cache holds them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct BrokerRegistry {
    pub brokers: BTreeMap<BrokerId, BrokerRegistration>,
}

impl BrokerRegistry {
    pub fn new(brokers: u32) -> Self {
        let reg = BrokerRegistration {
            fenced: false,
            broker_epoch: 0,
        };
        BrokerRegistry {
            // Inserted one by one: `collect` would compile a sort for this type (see `crate::sort`).
            brokers: (0..brokers).fold(BTreeMap::new(), |mut map, b| {
                map.insert(BrokerId(b), reg);
                map
            }),
        }
    }

    pub fn is_fenced(&self, broker: BrokerId) -> bool {
        self.brokers.get(&broker).is_none_or(|r| r.fenced)
    }

    /// Kafka: `Partition.isReplicaIsrEligible` (KAFKA-15021) / `isBrokerEpochIsrEligible`: not
    /// fenced, and the broker epoch its fetches carry is known and is the registered one; a
    /// replica that has not fetched from this leader yet is not eligible. Controlled shutdown is
    /// not modelled.
    pub fn is_isr_eligible(&self, broker: BrokerId, fetched_broker_epoch: Option<u64>) -> bool {
        match self.brokers.get(&broker) {
            None => false,
            Some(r) => !r.fenced && fetched_broker_epoch == Some(r.broker_epoch),
        }
    }
}

/// What the controller publishes in one step; every broker applies it `network_delay_ms` later.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MetadataDelta {
    pub partitions: Vec<PartitionRecord>,
    pub brokers: Vec<(BrokerId, BrokerRegistration)>,
}

impl MetadataDelta {
    pub fn is_empty(&self) -> bool {
        self.partitions.is_empty() && self.brokers.is_empty()
    }
}
