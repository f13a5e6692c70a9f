//! The result document the runner prints (scenario-format.md, "Result"). Field order here is the
//! order in the JSON, so the output is byte-stable.

use std::ops::Deref;
use std::rc::Rc;

use serde::{Serialize, Serializer};

use crate::sim::action::BrokerId;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RunResult {
    pub name: String,
    pub seed: u64,
    pub run_until_ms: u64,
    pub responses: Vec<ResponseResult>,
    pub partitions: Vec<PartitionResult>,
    pub purgatory: PurgatoryGauges,
}

/// One produce action's fate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResponseResult {
    /// Shared with the request log (millions of responses on a long run).
    pub id: Rc<str>,
    pub received_ms: u64,
    /// `None` for acks=0, a request still waiting at the end, or one lost to a crashed broker.
    pub responded_ms: Option<u64>,
    pub connection_closed: bool,
    pub partitions: ResponsePartitions,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PartitionResponseResult {
    /// Shared with the cluster's topic list when the topic exists.
    pub topic: Rc<str>,
    pub partition: i64,
    /// Kafka's error name; `None` when the request was never answered.
    pub error: Option<&'static str>,
    /// The first offset appended, or -1 when nothing was appended.
    pub base_offset: i64,
}

/// A response's partitions, read as a slice and written to JSON as a list. Nearly every produce
/// request names one partition and a long run reports millions of responses, so a single
/// partition is kept inline rather than in a list of its own (an allocation per response, and
/// a third of the document's memory).
#[derive(Clone, Debug)]
pub struct ResponsePartitions(Partitions);

#[derive(Clone, Debug)]
enum Partitions {
    One(PartitionResponseResult),
    /// None, or more than one.
    List(Vec<PartitionResponseResult>),
}

impl FromIterator<PartitionResponseResult> for ResponsePartitions {
    fn from_iter<I: IntoIterator<Item = PartitionResponseResult>>(iter: I) -> Self {
        let mut iter = iter.into_iter();
        let Some(first) = iter.next() else {
            return ResponsePartitions(Partitions::List(Vec::new()));
        };
        let Some(second) = iter.next() else {
            return ResponsePartitions(Partitions::One(first));
        };
        let mut list = vec![first, second];
        list.extend(iter);
        ResponsePartitions(Partitions::List(list))
    }
}

impl Deref for ResponsePartitions {
    type Target = [PartitionResponseResult];

    fn deref(&self) -> &[PartitionResponseResult] {
        match &self.0 {
            Partitions::One(p) => std::slice::from_ref(p),
            Partitions::List(list) => list,
        }
    }
}

/// Equal when the partitions are, however they are stored.
impl PartialEq for ResponsePartitions {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}
impl Eq for ResponsePartitions {}

/// The same JSON list a `Vec` writes.
impl Serialize for ResponsePartitions {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// A partition's state at `run_until_ms`, as its leader (or, with no leader, the controller)
/// sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PartitionResult {
    pub topic: String,
    pub partition: u32,
    pub leader: Option<BrokerId>,
    pub leader_epoch: u32,
    /// The committed ISR, sorted.
    pub isr: Vec<BrokerId>,
    pub high_watermark: u64,
    /// Assignment order.
    pub replicas: Vec<ReplicaResult>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReplicaResult {
    pub broker: BrokerId,
    pub log_end_offset: u64,
}

/// Kafka's `PurgatorySize` and `NumDelayedOperations` gauges of the produce purgatories, summed
/// over the running brokers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PurgatoryGauges {
    pub purgatory_size: u64,
    pub num_delayed_operations: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(partition: i64) -> PartitionResponseResult {
        PartitionResponseResult {
            topic: Rc::from("t"),
            partition,
            error: Some("NONE"),
            base_offset: 0,
        }
    }

    #[test]
    fn response_partitions_read_and_write_like_a_list() {
        for n in 0..3 {
            let list: Vec<_> = (0..n).map(part).collect();
            let partitions: ResponsePartitions = list.iter().cloned().collect();
            assert_eq!(&*partitions, &list[..]);
            assert_eq!(
                serde_json::to_string(&partitions).unwrap(),
                serde_json::to_string(&list).unwrap()
            );
        }
    }
}
