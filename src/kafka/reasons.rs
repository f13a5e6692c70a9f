//! The reasons the trace gives in words: why a partition was refused, a connection closed, a
//! fetch failed or an action ignored. They are part of the runner's trace (English, as the
//! scenario contract has it), and the page words each in the reader's language: every text here
//! has its message in www/says.js's table, which tests/i18n.test.mjs checks against this file.

use super::BrokerId;

pub const INVALID_ACKS: &str = "acks must be -1, 0 or 1";
pub const NO_REPLICA: &str = "this broker hosts no replica of the partition";
pub const UNDER_MIN_ISR: &str = "the committed ISR is smaller than min.insync.replicas";
pub const NOT_LEADER: &str = "this broker is not the partition's leader";
pub const UNKNOWN_PARTITION: &str = "no such topic or partition in the metadata";
pub const ACKS0_FAILED: &str =
    "acks=0 request failed: the broker closes the connection instead of answering";
pub const CRASHED_BEFORE_ANSWER: &str = "the broker crashed before answering";
pub const LEADER_LOST: &str = "connection to the leader lost";

pub fn connection_refused(broker: BrokerId) -> String {
    format!("broker {broker} is down: the connection is refused")
}

pub fn not_registered(broker: BrokerId) -> String {
    format!("broker {broker} is starting: it answers nothing before its registration is accepted")
}

pub fn broker_down(broker: BrokerId) -> String {
    format!("broker {broker} is down")
}

pub fn already_down(broker: BrokerId) -> String {
    format!("broker {broker} is already down")
}

pub fn already_running(broker: BrokerId) -> String {
    format!("broker {broker} is already running")
}

pub fn already_paused(broker: BrokerId) -> String {
    format!("broker {broker} is already paused")
}

pub fn not_paused(broker: BrokerId) -> String {
    format!("broker {broker} is not paused")
}

pub fn no_broker(broker: BrokerId) -> String {
    format!("there is no broker {broker}")
}

pub fn no_partition(topic: &str, partition: i64) -> String {
    format!("there is no partition {topic}-{partition}")
}
