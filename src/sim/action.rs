//! What a person or a scenario file can do to the cluster. The page sends the same values as the
//! scenario's `actions`, so a recorded session replays as a scenario.

use std::rc::Rc;

use serde::Serialize;

use crate::kafka::small_list::SmallList;

pub use crate::kafka::BrokerId;

/// One `{topic, partition, count}` entry of a produce request. The topic and partition are kept
/// as written: a produce to a partition that does not exist is an outcome
/// (`UNKNOWN_TOPIC_OR_PARTITION`), not a file error.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RecordBatchSpec {
    /// An `Rc<str>`, so that a program generating many requests can name a topic without a copy
    /// per request.
    pub topic: Rc<str>,
    pub partition: i64,
    pub count: u32,
}

/// One ProduceRequest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProduceSpec {
    /// Unique within a scenario. Shared with the request log and the result document, which
    /// keep every request's id for the whole run.
    pub id: Rc<str>,
    /// Kafka's `acks` field; anything but -1, 0 and 1 gets `INVALID_REQUIRED_ACKS`.
    pub acks: i64,
    /// Nearly always one batch, kept inline: a program generating many requests allocates no
    /// list per request.
    pub records: SmallList<RecordBatchSpec>,
    /// The request's `timeoutMs`; `None` means the config's `request_timeout_ms`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// The broker the request is sent to; `None` means the current leader of the first listed
    /// partition that exists and has a leader, else broker 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub broker: Option<BrokerId>,
}

impl ProduceSpec {
    /// A request for `count` records to one partition, with the config's timeout, sent to the
    /// partition's leader.
    pub fn one_partition(
        id: impl Into<Rc<str>>,
        acks: i64,
        topic: impl Into<Rc<str>>,
        partition: i64,
        count: u32,
    ) -> Self {
        ProduceSpec {
            id: id.into(),
            acks,
            records: [RecordBatchSpec {
                topic: topic.into(),
                partition,
                count,
            }]
            .into_iter()
            .collect(),
            timeout_ms: None,
            broker: None,
        }
    }
}

/// The contract's actions (scenario-format.md, "Actions").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    Produce(ProduceSpec),
    PauseFollower {
        broker: BrokerId,
    },
    ResumeFollower {
        broker: BrokerId,
    },
    CrashBroker {
        broker: BrokerId,
    },
    RestartBroker {
        broker: BrokerId,
    },
    ElectLeader {
        topic: String,
        partition: i64,
        broker: BrokerId,
    },
}

impl Action {
    /// What applying it costs in the work meter's units: one, plus one per listed partition.
    pub fn work(&self) -> u64 {
        1 + match self {
            Action::Produce(spec) => spec.records.len() as u64,
            _ => 0,
        }
    }
}

/// An action and the simulated millisecond at which it applies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TimedAction {
    pub at_ms: u64,
    #[serde(flatten)]
    pub action: Action,
}
