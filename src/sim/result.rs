//! The result document the runner prints (scenario-format.md, "Result"). Field order here is the
//! order in the JSON, so the output is byte-stable.

use std::rc::Rc;

use serde::Serialize;

use crate::kafka::small_list::SmallList;
use crate::sim::action::BrokerId;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RunResult {
    pub name: String,
    pub seed: u64,
    pub run_until_ms: u64,
    pub responses: Vec<ResponseResult>,
    pub partitions: Vec<PartitionResult>,
    pub purgatory: PurgatoryGauges,
    /// Acknowledged records that a new leader's log lacked (an optional field, present only
    /// when there are some; this project's addition to the result).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lost_acknowledged: Vec<LostAcknowledged>,
}

impl RunResult {
    /// The result document as the runner prints it: pretty JSON and a newline. The page's copy
    /// is made here too, so a wasm run and a native run compare byte for byte.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("a result always serializes");
        text.push('\n');
        text
    }
}

/// Records a producer was told were written and the partition lost (`acknowledged_records_lost`
/// in the trace).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LostAcknowledged {
    pub id: Rc<str>,
    pub acks: i64,
    pub topic: Rc<str>,
    pub partition: i64,
    pub first_offset: u64,
    pub last_offset: u64,
    /// The leader that acknowledged them, and its epoch then.
    pub acknowledged_by: crate::kafka::BrokerId,
    pub acknowledged_epoch: u32,
    /// When they were lost: the new leader whose log lacks them took over.
    pub lost_ms: u64,
    pub leader: crate::kafka::BrokerId,
    pub leader_epoch: u32,
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
    /// When the producer's own `request.timeout.ms` ran out with no answer and it gave up on the
    /// request (an optional field, present only then; this project's addition to the result).
    /// The broker's side stays in the fields above: the broker still answers at `responded_ms`,
    /// unread.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_timed_out_ms: Option<u64>,
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

/// A response's partitions: nearly always one, kept inline (no allocation per response).
pub type ResponsePartitions = SmallList<PartitionResponseResult>;

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
