//! The partitions one broker hosts, by topic-partition: what `BTreeMap<TopicPartition, Partition>`
//! gave (lookups, and iteration in topic-then-partition order), as a table indexed by topic and
//! then partition number. The fetch and produce paths and the purgatories' hooks look partitions
//! up dozens of times per simulated millisecond; here a lookup is two indexes instead of a tree
//! search.

use std::iter::{Flatten, Map};
use std::ops::Index;
use std::slice;

use super::partition::Partition;
use super::TopicPartition;

type Slot = Option<(TopicPartition, Partition)>;
type Iter<'a> = Map<
    Flatten<Flatten<slice::Iter<'a, Vec<Slot>>>>,
    fn(&'a (TopicPartition, Partition)) -> (&'a TopicPartition, &'a Partition),
>;
type IterMut<'a> = Map<
    Flatten<Flatten<slice::IterMut<'a, Vec<Slot>>>>,
    fn(&'a mut (TopicPartition, Partition)) -> (&'a TopicPartition, &'a mut Partition),
>;

#[derive(Clone, Debug, Default)]
pub struct HostedPartitions {
    /// `by_topic[topic][partition]`; `None` where this broker hosts no replica.
    by_topic: Vec<Vec<Slot>>,
}

impl HostedPartitions {
    pub fn insert(&mut self, tp: TopicPartition, partition: Partition) -> Option<Partition> {
        let (topic, index) = (tp.topic as usize, tp.partition as usize);
        if self.by_topic.len() <= topic {
            self.by_topic.resize_with(topic + 1, Vec::new);
        }
        let slots = &mut self.by_topic[topic];
        if slots.len() <= index {
            slots.resize_with(index + 1, || None);
        }
        slots[index].replace((tp, partition)).map(|(_, p)| p)
    }

    pub fn get(&self, tp: &TopicPartition) -> Option<&Partition> {
        let slot = self
            .by_topic
            .get(tp.topic as usize)?
            .get(tp.partition as usize)?;
        slot.as_ref().map(|(_, p)| p)
    }

    pub fn get_mut(&mut self, tp: &TopicPartition) -> Option<&mut Partition> {
        let slot = self
            .by_topic
            .get_mut(tp.topic as usize)?
            .get_mut(tp.partition as usize)?;
        slot.as_mut().map(|(_, p)| p)
    }

    /// In topic-partition order, as a `BTreeMap` iterates.
    pub fn iter(&self) -> Iter<'_> {
        self.by_topic
            .iter()
            .flatten()
            .flatten()
            .map(|(tp, p)| (tp, p))
    }

    /// In topic-partition order.
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        self.by_topic
            .iter_mut()
            .flatten()
            .flatten()
            .map(|(tp, p)| (&*tp, p))
    }

    pub fn values(&self) -> impl Iterator<Item = &Partition> {
        self.iter().map(|(_, p)| p)
    }

    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut Partition> {
        self.iter_mut().map(|(_, p)| p)
    }
}

impl Index<&TopicPartition> for HostedPartitions {
    type Output = Partition;

    fn index(&self, tp: &TopicPartition) -> &Partition {
        self.get(tp).expect("a partition this broker hosts")
    }
}

impl<'a> IntoIterator for &'a HostedPartitions {
    type Item = (&'a TopicPartition, &'a Partition);
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut HostedPartitions {
    type Item = (&'a TopicPartition, &'a mut Partition);
    type IntoIter = IterMut<'a>;

    fn into_iter(self) -> IterMut<'a> {
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
