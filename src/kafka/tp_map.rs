//! A map keyed by topic-partition: what a `BTreeMap<TopicPartition, V>` gave (lookups, and
//! iteration in topic-then-partition order), as a table indexed by topic and then partition
//! number. The partitions a broker hosts are one (the fetch and produce paths and the
//! purgatories' hooks look them up dozens of times per simulated millisecond; here a lookup is
//! two indexes instead of a tree search), the controller's partition records another (and the
//! .wasm carries no tree code for either).

use std::iter::{Flatten, Map};
use std::ops::Index;
use std::slice;

use super::partition::Partition;
use super::TopicPartition;

/// The partitions one broker hosts.
pub type HostedPartitions = TopicPartitionMap<Partition>;

type Slot<V> = Option<(TopicPartition, V)>;
type Iter<'a, V> = Map<
    Flatten<Flatten<slice::Iter<'a, Vec<Slot<V>>>>>,
    fn(&'a (TopicPartition, V)) -> (&'a TopicPartition, &'a V),
>;
type IterMut<'a, V> = Map<
    Flatten<Flatten<slice::IterMut<'a, Vec<Slot<V>>>>>,
    fn(&'a mut (TopicPartition, V)) -> (&'a TopicPartition, &'a mut V),
>;

#[derive(Clone, Debug)]
pub struct TopicPartitionMap<V> {
    /// `by_topic[topic][partition]`; `None` where the map has no such key.
    by_topic: Vec<Vec<Slot<V>>>,
}

impl<V> Default for TopicPartitionMap<V> {
    fn default() -> Self {
        TopicPartitionMap {
            by_topic: Vec::new(),
        }
    }
}

impl<V> TopicPartitionMap<V> {
    pub fn insert(&mut self, tp: TopicPartition, value: V) -> Option<V> {
        let (topic, index) = (tp.topic as usize, tp.partition as usize);
        if self.by_topic.len() <= topic {
            self.by_topic.resize_with(topic + 1, Vec::new);
        }
        let slots = &mut self.by_topic[topic];
        if slots.len() <= index {
            slots.resize_with(index + 1, || None);
        }
        slots[index].replace((tp, value)).map(|(_, v)| v)
    }

    pub fn get(&self, tp: &TopicPartition) -> Option<&V> {
        let slot = self
            .by_topic
            .get(tp.topic as usize)?
            .get(tp.partition as usize)?;
        slot.as_ref().map(|(_, p)| p)
    }

    pub fn get_mut(&mut self, tp: &TopicPartition) -> Option<&mut V> {
        let slot = self
            .by_topic
            .get_mut(tp.topic as usize)?
            .get_mut(tp.partition as usize)?;
        slot.as_mut().map(|(_, p)| p)
    }

    /// In topic-partition order, as a `BTreeMap` iterates.
    pub fn iter(&self) -> Iter<'_, V> {
        self.by_topic
            .iter()
            .flatten()
            .flatten()
            .map(|(tp, p)| (tp, p))
    }

    /// In topic-partition order.
    pub fn iter_mut(&mut self) -> IterMut<'_, V> {
        self.by_topic
            .iter_mut()
            .flatten()
            .flatten()
            .map(|(tp, p)| (&*tp, p))
    }

    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.iter().map(|(_, p)| p)
    }

    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut V> {
        self.iter_mut().map(|(_, p)| p)
    }
}

impl<V> Index<&TopicPartition> for TopicPartitionMap<V> {
    type Output = V;

    fn index(&self, tp: &TopicPartition) -> &V {
        self.get(tp).expect("a topic-partition in the map")
    }
}

impl<'a, V> IntoIterator for &'a TopicPartitionMap<V> {
    type Item = (&'a TopicPartition, &'a V);
    type IntoIter = Iter<'a, V>;

    fn into_iter(self) -> Iter<'a, V> {
        self.iter()
    }
}

impl<'a, V> IntoIterator for &'a mut TopicPartitionMap<V> {
    type Item = (&'a TopicPartition, &'a mut V);
    type IntoIter = IterMut<'a, V>;

    fn into_iter(self) -> IterMut<'a, V> {
        self.iter_mut()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kafka::BrokerId;

    fn tp(topic: u32, partition: u32) -> TopicPartition {
        TopicPartition { topic, partition }
    }

    #[test]
    fn iterates_in_topic_partition_order_and_skips_gaps() {
        let keys = [tp(1, 2), tp(0, 3), tp(1, 0), tp(0, 0)];
        let mut hosted = HostedPartitions::default();
        for k in keys {
            hosted.insert(k, Partition::initial(k, BrokerId(0), vec![BrokerId(0)]));
        }
        let mut sorted = keys.to_vec();
        sorted.sort();
        let order: Vec<TopicPartition> = hosted.iter().map(|(&k, _)| k).collect();
        assert_eq!(order, sorted, "every hosted partition once, in order");
        assert!(hosted.get(&tp(0, 1)).is_none() && hosted.get(&tp(2, 0)).is_none());
        assert_eq!(hosted[&tp(1, 2)].tp, tp(1, 2));
    }
}
