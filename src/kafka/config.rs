//! Cluster configuration: the broker and producer settings the model reads, with Kafka's own
//! defaults (docs/kafka-semantics.md section e) and the scenario contract's defaults for the model-only
//! delays.

use serde::Serialize;

/// Every setting the model reads. Field names follow the scenario file's `config` object.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Config {
    /// Number of brokers, numbered `0 .. brokers`.
    pub brokers: u32,
    /// Kafka: `min.insync.replicas` (broker and topic default 1).
    pub min_insync_replicas: u32,
    /// Kafka: `replica.lag.time.max.ms`.
    pub replica_lag_time_max_ms: u64,
    /// Kafka: `replica.fetch.wait.max.ms`, the follower DelayedFetch timeout.
    pub replica_fetch_wait_max_ms: u64,
    /// One-way delay of every message between two brokers (model-only).
    pub network_delay_ms: u64,
    /// Time from an AlterPartition proposal to its commit at the leader (model-only).
    pub alter_partition_delay_ms: u64,
    /// Kafka: `broker.session.timeout.ms`.
    pub broker_session_timeout_ms: u64,
    /// Kafka: `broker.heartbeat.interval.ms`.
    pub broker_heartbeat_interval_ms: u64,
    /// Kafka: `producer.purgatory.purge.interval.requests`.
    pub producer_purgatory_purge_interval_requests: u64,
    /// Producer `request.timeout.ms`, sent as the ProduceRequest `timeoutMs`.
    pub request_timeout_ms: u64,
    /// Kafka: `leader.imbalance.check.interval.seconds`, in ms, with
    /// `auto.leader.rebalance.enable`: 0 (the default) is off, the scenario contract's rule that
    /// leadership does not move back by itself. Kafka ships it on, at 300,000 ms: the controller
    /// then moves each partition's leadership back to its preferred replica (the first of its
    /// assignment) when that one is in the ISR and unfenced, checking that long after a partition
    /// first leads elsewhere. Written only when set.
    #[serde(skip_serializing_if = "is_zero")]
    pub leader_imbalance_check_interval_ms: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Default for Config {
    fn default() -> Self {
        Config {
            brokers: 3,
            min_insync_replicas: 1,
            replica_lag_time_max_ms: 30_000,
            replica_fetch_wait_max_ms: 500,
            network_delay_ms: 1,
            alter_partition_delay_ms: 10,
            broker_session_timeout_ms: 9_000,
            broker_heartbeat_interval_ms: 2_000,
            producer_purgatory_purge_interval_requests: 1_000,
            request_timeout_ms: 30_000,
            leader_imbalance_check_interval_ms: 0,
        }
    }
}

impl Config {
    /// Kafka: the `isr-expiration` task runs every `replica.lag.time.max.ms / 2`
    /// (`ReplicaManager.startup`).
    pub fn isr_expiration_period_ms(&self) -> u64 {
        self.replica_lag_time_max_ms / 2
    }

    /// How often the `isr-expiration` task runs in the model: its period, and every millisecond
    /// where the period is 0 (a lag time under 2 ms; Kafka's scheduler would spin). Phases keep
    /// the period itself: a beat every instant has none (`scenario::phases`).
    pub fn isr_check_every_ms(&self) -> u64 {
        self.isr_expiration_period_ms().max(1)
    }

    /// How often a broker heart-beats: `broker_heartbeat_interval_ms`, which the scenario reader
    /// keeps above 0 (at least every millisecond, whatever built the config).
    pub fn heartbeat_every_ms(&self) -> u64 {
        self.broker_heartbeat_interval_ms.max(1)
    }

    /// Kafka: `replica.fetch.backoff.ms`, the pause a follower takes after a failed fetch. Not
    /// part of the scenario contract, so it stays at Kafka's default.
    pub fn replica_fetch_backoff_ms(&self) -> u64 {
        1_000
    }

    /// Kafka: `replica.socket.timeout.ms`. Not part of the scenario contract and read by nothing
    /// the model does but the start check below, so it stays at Kafka's default.
    pub fn replica_socket_timeout_ms(&self) -> u64 {
        30_000
    }

    /// What a Kafka broker refuses to start with, of the settings the model reads
    /// (`KafkaConfig.validateValues`, Kafka 3.7-4.1): `replica.fetch.wait.max.ms` above
    /// `replica.lag.time.max.ms` ("to prevent frequent changes in ISR") or above
    /// `replica.socket.timeout.ms`. The bound it breaks, or `None`.
    pub fn start_refusal(&self) -> Option<StartBound> {
        let lag = StartBound {
            max_fetch_wait_ms: self.replica_lag_time_max_ms,
            name: "replica_lag_time_max_ms",
        };
        let socket = StartBound {
            max_fetch_wait_ms: self.replica_socket_timeout_ms(),
            name: "replica.socket.timeout.ms",
        };
        let bound = if lag.max_fetch_wait_ms <= socket.max_fetch_wait_ms {
            lag
        } else {
            socket
        };
        (self.replica_fetch_wait_max_ms > bound.max_fetch_wait_ms).then_some(bound)
    }
}

/// The largest `replica.fetch.wait.max.ms` a broker starts with, and the setting that sets it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartBound {
    pub max_fetch_wait_ms: u64,
    pub name: &'static str,
}

/// One topic of the cluster, as the scenario declares it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TopicSpec {
    pub name: String,
    pub partitions: u32,
    pub replication_factor: u32,
}

/// The most replica states the topics may hold together (the sum over topics of partitions x
/// replication factor², as each replica's broker keeps the state of every replica of the
/// partition): what one topic at the contract's maxima (1,024 partitions, 64 replicas) holds,
/// about 100 MB. More topics than that would take memory without bound, so the scenario reader
/// refuses them at `topics`.
pub const MAX_REPLICA_STATES: u64 = 1024 * 64 * 64;

/// Partitions x replication factor², summed over the topics: the replica states the brokers keep.
pub fn replica_states(topics: &[TopicSpec]) -> u64 {
    topics
        .iter()
        .map(|t| u64::from(t.partitions) * u64::from(t.replication_factor).pow(2))
        .fold(0, u64::saturating_add)
}
