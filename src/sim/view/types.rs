//! The snapshot's shapes: plain serializable structs, one per thing the page draws.

use serde::Serialize;

use crate::kafka::partition::IsrState;
use crate::kafka::trace::TpName;
use crate::kafka::BrokerId;

#[derive(Clone, Debug, Serialize)]
pub struct Snapshot {
    pub now_ms: u64,
    pub next_event_ms: Option<u64>,
    pub network_delay_ms: u64,
    pub brokers: Vec<BrokerView>,
    pub controller: ControllerView,
    pub in_flight: Vec<MessageView>,
    pub in_flight_total: usize,
    pub requests: Vec<RequestView>,
    pub requests_total: usize,
    pub requests_waiting: usize,
    /// Kafka's `UnderReplicatedPartitions`, summed over leaders: committed ISR smaller than the
    /// assignment.
    pub under_replicated_partitions: usize,
    /// Partitions whose committed ISR is below `min.insync.replicas` (`UnderMinIsrPartitionCount`).
    pub under_min_isr_partitions: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct BrokerView {
    pub id: BrokerId,
    pub running: bool,
    pub fetching_paused: bool,
    /// As the controller sees it.
    pub fenced: bool,
    pub broker_epoch: u64,
    /// `fetching`, `paused`, `crashed`, `fenced` (a crashed broker is also fenced, later) or
    /// `registering` (restarted, its registration not accepted yet: it answers no request, and
    /// fetches only from partitions another broker leads).
    pub state: &'static str,
    pub partitions: Vec<ReplicaView>,
    pub produce_purgatory: PurgatoryView,
    pub fetch_purgatory: PurgatoryGaugesView,
    pub produce_expires: u64,
    pub isr_shrinks: u64,
    pub isr_expands: u64,
}

/// One replica of one partition, as the broker hosting it sees it.
#[derive(Clone, Debug, Serialize)]
pub struct ReplicaView {
    pub tp: TpName,
    pub topic: String,
    pub partition: u32,
    pub is_leader: bool,
    pub leader: Option<BrokerId>,
    pub leader_epoch: u32,
    pub partition_epoch: u32,
    pub assignment: Vec<BrokerId>,
    /// The committed ISR.
    pub isr: Vec<BrokerId>,
    /// The ISR the HW is computed with (committed + pending expand, or the old set while a shrink
    /// is pending): Kafka's `maximalIsr`.
    pub maximal_isr: Vec<BrokerId>,
    pub isr_state: IsrState,
    pub log_end_offset: u64,
    pub high_watermark: u64,
    /// What the leader knows of each follower (empty on a follower).
    pub followers: Vec<FollowerView>,
}

#[derive(Clone, Debug, Serialize)]
pub struct FollowerView {
    pub broker: BrokerId,
    pub log_end_offset: Option<u64>,
    /// `None`: never (see `kafka::replica::ReplicaState`).
    pub last_caught_up_time_ms: Option<u64>,
    pub last_fetch_time_ms: Option<u64>,
}

/// The gauges and the estimate against the purge interval.
#[derive(Clone, Debug, Serialize)]
pub struct PurgatoryGaugesView {
    pub purgatory_size: usize,
    pub num_delayed_operations: usize,
    pub estimated_total_operations: u64,
    pub purge_interval: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct PurgatoryView {
    #[serde(flatten)]
    pub gauges: PurgatoryGaugesView,
    /// The first keys' watch lists (capped), then what the others hold.
    pub watch_lists: Vec<WatchListView>,
    pub watch_lists_left_out: WatchListsLeftOut,
    /// Waiting ones first (oldest first), then completed-but-not-purged ones.
    pub operations: Vec<OperationView>,
    pub operations_total: usize,
    pub timer: TimerSummary,
}

/// The watch lists past the cap: how many, the entries they hold (and how many of those are
/// completed, not purged), and their first and last keys.
#[derive(Clone, Debug, Default, Serialize)]
pub struct WatchListsLeftOut {
    pub lists: usize,
    pub entries: usize,
    pub completed: usize,
    pub first_key: Option<TpName>,
    pub last_key: Option<TpName>,
}

#[derive(Clone, Debug, Serialize)]
pub struct WatchListView {
    pub key: TpName,
    /// FIFO order, capped.
    pub entries: Vec<WatchEntryView>,
    pub total: usize,
    pub completed: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct WatchEntryView {
    pub op: String,
    pub request: Option<String>,
    pub completed: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct OperationView {
    pub op: String,
    pub request: String,
    pub created_ms: u64,
    pub timeout_ms: u64,
    pub expires_at_ms: u64,
    pub completed: bool,
    /// `(level, bucket)` on the wheel, while on the timer.
    pub timer_slot: Option<(usize, usize)>,
    pub partitions: Vec<OperationPartitionView>,
}

#[derive(Clone, Debug, Serialize)]
pub struct OperationPartitionView {
    pub tp: TpName,
    pub required_offset: u64,
    /// The leader's HW now, the value `tryComplete` compares with `required_offset`.
    pub high_watermark: Option<u64>,
    pub acks_pending: bool,
    pub error: &'static str,
}

#[derive(Clone, Debug, Serialize)]
pub struct TimerSummary {
    pub size: usize,
    pub next_expiration_ms: Option<u64>,
    pub levels: Vec<LevelSummary>,
}

#[derive(Clone, Debug, Serialize)]
pub struct LevelSummary {
    pub tick_ms: u64,
    pub wheel_size: usize,
    pub interval_ms: u64,
    pub current_time_ms: u64,
    pub buckets: Vec<BucketSummary>,
}

#[derive(Clone, Debug, Serialize)]
pub struct BucketSummary {
    pub index: usize,
    pub expiration_ms: Option<u64>,
    pub count: usize,
    /// The first entries' operation ids (`slot.generation`), capped.
    pub ops: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ControllerView {
    pub fenced: Vec<BrokerId>,
    pub partitions: Vec<ControllerPartitionView>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ControllerPartitionView {
    pub tp: TpName,
    pub leader: Option<BrokerId>,
    pub leader_epoch: u32,
    pub isr: Vec<BrokerId>,
    pub partition_epoch: u32,
}

/// A message between brokers, on its way.
#[derive(Clone, Debug, Serialize)]
pub struct MessageView {
    /// `fetch`, `fetch_response`, `alter_partition` or `metadata`.
    pub kind: &'static str,
    pub from: Option<BrokerId>,
    pub to: Option<BrokerId>,
    pub sent_ms: u64,
    pub arrives_ms: u64,
    pub label: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct RequestView {
    pub id: String,
    pub broker: BrokerId,
    pub acks: i64,
    pub timeout_ms: u64,
    pub received_ms: u64,
    pub responded_ms: Option<u64>,
    pub connection_closed: bool,
    /// When the producer gave up on it (its own `request.timeout.ms`), if it did.
    pub client_timed_out_ms: Option<u64>,
    /// The producer still waits for its answer.
    pub waiting: bool,
    /// When acknowledged records of it were lost (a new leader's log lacked them), if they were.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lost_ms: Option<u64>,
    /// One per partition: `(tp, error name or null, base_offset)`.
    pub partitions: Vec<(String, Option<&'static str>, i64)>,
}
