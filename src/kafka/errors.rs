//! Kafka's error codes on the produce and fetch paths, by their protocol names.

use serde::Serialize;

/// The subset of `org.apache.kafka.common.protocol.Errors` the model produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorCode {
    None,
    UnknownTopicOrPartition,
    NotLeaderOrFollower,
    RequestTimedOut,
    NotEnoughReplicas,
    NotEnoughReplicasAfterAppend,
    InvalidRequiredAcks,
    FencedLeaderEpoch,
    UnknownLeaderEpoch,
    KafkaStorageError,
}

impl ErrorCode {
    /// The protocol name, as the result document and the page print it.
    pub fn name(self) -> &'static str {
        match self {
            ErrorCode::None => "NONE",
            ErrorCode::UnknownTopicOrPartition => "UNKNOWN_TOPIC_OR_PARTITION",
            ErrorCode::NotLeaderOrFollower => "NOT_LEADER_OR_FOLLOWER",
            ErrorCode::RequestTimedOut => "REQUEST_TIMED_OUT",
            ErrorCode::NotEnoughReplicas => "NOT_ENOUGH_REPLICAS",
            ErrorCode::NotEnoughReplicasAfterAppend => "NOT_ENOUGH_REPLICAS_AFTER_APPEND",
            ErrorCode::InvalidRequiredAcks => "INVALID_REQUIRED_ACKS",
            ErrorCode::FencedLeaderEpoch => "FENCED_LEADER_EPOCH",
            ErrorCode::UnknownLeaderEpoch => "UNKNOWN_LEADER_EPOCH",
            ErrorCode::KafkaStorageError => "KAFKA_STORAGE_ERROR",
        }
    }

    /// The numeric protocol code.
    pub fn code(self) -> i16 {
        match self {
            ErrorCode::None => 0,
            ErrorCode::UnknownTopicOrPartition => 3,
            ErrorCode::NotLeaderOrFollower => 6,
            ErrorCode::RequestTimedOut => 7,
            ErrorCode::NotEnoughReplicas => 19,
            ErrorCode::NotEnoughReplicasAfterAppend => 20,
            ErrorCode::InvalidRequiredAcks => 21,
            ErrorCode::FencedLeaderEpoch => 74,
            ErrorCode::UnknownLeaderEpoch => 75,
            ErrorCode::KafkaStorageError => 56,
        }
    }

    pub fn is_error(self) -> bool {
        self != ErrorCode::None
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
