//! The cluster metadata the controller publishes and every broker caches: partition records
//! (leader, epochs, ISR) and broker registrations (fenced or not, broker epoch).

use serde::Serialize;

use super::BrokerId;
use super::TopicPartition;

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

/// The registrations as a broker's metadata cache (and the controller) holds them: a table
/// indexed by broker id, which is what a `BTreeMap<BrokerId, _>` gave (lookups, iteration in id
/// order) without a tree's code in the .wasm for this one small map.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BrokerRegistry {
    /// `by_id[broker]`; `None` for an id never registered.
    by_id: Vec<Option<BrokerRegistration>>,
}

impl BrokerRegistry {
    pub fn new(brokers: u32) -> Self {
        let reg = BrokerRegistration {
            fenced: false,
            broker_epoch: 0,
        };
        BrokerRegistry {
            by_id: vec![Some(reg); brokers as usize],
        }
    }

    pub fn get(&self, broker: BrokerId) -> Option<&BrokerRegistration> {
        self.by_id.get(broker.0 as usize)?.as_ref()
    }

    pub fn get_mut(&mut self, broker: BrokerId) -> Option<&mut BrokerRegistration> {
        self.by_id.get_mut(broker.0 as usize)?.as_mut()
    }

    /// Registers `broker`, or replaces its registration.
    pub fn insert(&mut self, broker: BrokerId, reg: BrokerRegistration) {
        let index = broker.0 as usize;
        if self.by_id.len() <= index {
            self.by_id.resize(index + 1, None);
        }
        self.by_id[index] = Some(reg);
    }

    /// The registrations in broker id order.
    pub fn iter(&self) -> impl Iterator<Item = (BrokerId, &BrokerRegistration)> {
        (0u32..)
            .zip(&self.by_id)
            .filter_map(|(id, reg)| Some((BrokerId(id), reg.as_ref()?)))
    }

    pub fn is_fenced(&self, broker: BrokerId) -> bool {
        self.get(broker).is_none_or(|r| r.fenced)
    }

    /// Kafka: `Partition.isReplicaIsrEligible` (KAFKA-15021) / `isBrokerEpochIsrEligible`: not
    /// fenced, and the broker epoch its fetches carry is known and is the registered one; a
    /// replica that has not fetched from this leader yet is not eligible. Controlled shutdown is
    /// not modelled.
    pub fn is_isr_eligible(&self, broker: BrokerId, fetched_broker_epoch: Option<u64>) -> bool {
        match self.get(broker) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn reg(fenced: bool, broker_epoch: u64) -> BrokerRegistration {
        BrokerRegistration {
            fenced,
            broker_epoch,
        }
    }

    #[test]
    fn registry_looks_up_replaces_and_iterates_in_id_order() {
        let mut registry = BrokerRegistry::new(2);
        assert_eq!(registry.get(BrokerId(1)), Some(&reg(false, 0)));
        assert_eq!(registry.get(BrokerId(2)), None, "never registered");
        assert!(
            registry.is_fenced(BrokerId(2)),
            "unknown brokers count as fenced"
        );

        registry.insert(BrokerId(4), reg(true, 7));
        registry.insert(BrokerId(0), reg(false, 3));
        registry.get_mut(BrokerId(1)).unwrap().fenced = true;
        let all: Vec<_> = registry.iter().map(|(id, r)| (id.0, *r)).collect();
        assert_eq!(
            all,
            vec![(0, reg(false, 3)), (1, reg(true, 0)), (4, reg(true, 7))],
            "every registration once, in id order, the gap skipped"
        );
        assert!(registry.is_isr_eligible(BrokerId(0), Some(3)));
        assert!(
            !registry.is_isr_eligible(BrokerId(0), Some(2)),
            "an older epoch"
        );
        assert!(!registry.is_isr_eligible(BrokerId(1), Some(0)), "fenced");
        assert!(
            !registry.is_isr_eligible(BrokerId(3), Some(0)),
            "not registered"
        );
    }
}
