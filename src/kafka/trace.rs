//! The causal event trace: every change in the model is one event that names what caused it, so
//! a reader can follow "broker 2's fetch at offset 10 arrived → the HW of t-0 moved 0 → 10 →
//! check_and_complete(t-0) → p1 completed with NONE". The runner prints it as JSON Lines; the
//! page narrates it.

use std::rc::Rc;

use serde::Serialize;

use crate::kafka::controller::{AlterPartitionError, ElectionRefused};
use crate::kafka::partition::{HwBound, LeaderHwChange};
use crate::kafka::BrokerId;
use crate::purgatory::{Completion, OpId};

/// Kafka's label for a partition, `topic-partition`, as events carry it: one shared string per
/// partition, made when the run is set up ([`TpNames`]), so that an event that names partitions
/// (every fetch names each of its partitions) copies a pointer instead of formatting a name.
pub type TpName = Rc<str>;

/// Every partition's [`TpName`], by topic and partition; a copy of a run (a checkpoint) shares it.
#[derive(Clone, Debug, Default)]
pub struct TpNames(Rc<[Vec<TpName>]>);

impl TpNames {
    /// From each topic's name and partition count, in topic order: `name-0`, `name-1`, ...
    pub fn new<'a>(topics: impl IntoIterator<Item = (&'a str, u32)>) -> Self {
        TpNames(
            topics
                .into_iter()
                .map(|(name, partitions)| {
                    (0..partitions)
                        .map(|p| Rc::from(format!("{name}-{p}")))
                        .collect()
                })
                .collect::<Vec<_>>()
                .into(),
        )
    }

    /// The label of a partition of the run (a topic and partition index it was set up with).
    pub fn get(&self, topic: u32, partition: u32) -> TpName {
        Rc::clone(&self.0[topic as usize][partition as usize])
    }
}

/// An event's number in its run, from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct EventId(pub u64);

#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct TraceEvent {
    pub at_ms: u64,
    pub id: EventId,
    /// The event that caused this one; `None` for actions and for periodic tasks.
    pub cause: Option<EventId>,
    #[serde(flatten)]
    pub event: Event,
}

/// A partition's part in a produce request or response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PartitionOutcome {
    pub tp: TpName,
    pub error: &'static str,
    pub base_offset: i64,
}

/// A partition's part in a fetch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FetchPart {
    pub tp: TpName,
    pub fetch_offset: u64,
}

/// A partition's part in a fetch response.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FetchDataPart {
    pub tp: TpName,
    pub error: &'static str,
    pub records: u64,
    pub high_watermark: u64,
    pub log_end_offset: u64,
    /// Set when the follower's log diverges: the end offset it must truncate to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diverging_end_offset: Option<u64>,
}

/// A purgatory's gauges right after the call that emitted the event (Kafka's `PurgatorySize` and
/// `NumDelayedOperations`), so a plot of them can be drawn from the trace alone, exactly, at every
/// change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Gauges {
    pub purgatory_size: usize,
    pub num_delayed_operations: usize,
}

/// A DelayedProduce partition status, as created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProduceStatusPart {
    pub tp: TpName,
    pub required_offset: u64,
    pub error: &'static str,
    pub acks_pending: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    // --- Actions -------------------------------------------------------------------------
    ProduceReceived {
        request: String,
        broker: BrokerId,
        acks: i64,
        timeout_ms: u64,
        partitions: Vec<(TpName, u64)>,
    },
    FollowerPaused {
        broker: BrokerId,
    },
    FollowerResumed {
        broker: BrokerId,
    },
    BrokerCrashed {
        broker: BrokerId,
    },
    BrokerRestarted {
        broker: BrokerId,
        broker_epoch: u64,
    },
    ActionIgnored {
        action: &'static str,
        reason: String,
    },

    // --- Produce path --------------------------------------------------------------------
    /// A partition answered before any append (KafkaApis filtering, acks validation, the
    /// leader check or the pre-append min-ISR check).
    ProducePartitionRejected {
        request: String,
        broker: BrokerId,
        tp: TpName,
        error: &'static str,
        reason: String,
    },
    RecordsAppended {
        broker: BrokerId,
        tp: TpName,
        request: Option<String>,
        base_offset: u64,
        last_offset: u64,
        log_end_offset: u64,
        leader_epoch: u32,
        hw_change: LeaderHwChange,
    },
    /// `delayedProduceRequestRequired` was false: the response goes out at once.
    ProduceAnsweredAtOnce {
        request: String,
        broker: BrokerId,
        acks: i64,
    },
    DelayedProduceCreated {
        request: String,
        broker: BrokerId,
        op: OpId,
        timeout_ms: u64,
        partitions: Vec<ProduceStatusPart>,
    },
    /// `tryCompleteElseWatch` watched the operation after a failed first try.
    OperationWatched {
        broker: BrokerId,
        purgatory: &'static str,
        op: OpId,
        keys: Vec<TpName>,
        estimated_total_operations: u64,
        #[serde(flatten)]
        gauges: Gauges,
    },
    TimerAdded {
        broker: BrokerId,
        purgatory: &'static str,
        op: OpId,
        expires_at_ms: u64,
    },
    CheckAndComplete {
        broker: BrokerId,
        purgatory: &'static str,
        key: TpName,
        completed: usize,
        still_watched: usize,
        #[serde(flatten)]
        gauges: Gauges,
    },
    OperationCompleted {
        broker: BrokerId,
        purgatory: &'static str,
        op: OpId,
        request: Option<String>,
        how: Completion,
        #[serde(flatten)]
        gauges: Gauges,
    },
    /// Kafka's `onExpiration` (ExpiresPerSec marked for the partitions still pending).
    OperationExpired {
        broker: BrokerId,
        purgatory: &'static str,
        op: OpId,
        request: Option<String>,
        expired_partitions: Vec<TpName>,
        #[serde(flatten)]
        gauges: Gauges,
    },
    ProduceResponseSent {
        request: String,
        broker: BrokerId,
        latency_ms: u64,
        partitions: Vec<PartitionOutcome>,
        /// The producer gave up on it before (`client_request_timed_out`): the answer goes into
        /// a closed connection and nobody reads it. Written only when true.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        client_gone: bool,
    },
    /// Records a producer was told were written (acks=1 or all, answered NONE) that the new
    /// leader's log does not hold: lost (the old leader truncates them when it follows again).
    AcknowledgedRecordsLost {
        request: String,
        tp: TpName,
        first_offset: u64,
        last_offset: u64,
        acks: i64,
        /// The leader that appended and acknowledged them, in its epoch then.
        acknowledged_by: BrokerId,
        acknowledged_epoch: u32,
        /// The new leader, whose log lacks them, its epoch and its log end offset.
        leader: BrokerId,
        leader_epoch: u32,
        leader_log_end_offset: u64,
    },
    /// acks=0 met an error: no response, the connection is closed; or the broker died.
    ConnectionClosed {
        request: String,
        broker: BrokerId,
        reason: String,
    },
    /// The producer's own `request.timeout.ms` ran out with no answer (edge case 17): it closes
    /// its connection to the broker and fails the request with REQUEST_TIMED_OUT itself. The
    /// broker is not told: its delayed produce waits on, and its answer will go unread.
    ClientRequestTimedOut {
        request: String,
        broker: BrokerId,
        request_timeout_ms: u64,
    },
    Purged {
        broker: BrokerId,
        purgatory: &'static str,
        removed: usize,
        estimated_before: u64,
        #[serde(flatten)]
        gauges: Gauges,
    },

    // --- Replication ---------------------------------------------------------------------
    FetchSent {
        follower: BrokerId,
        leader: BrokerId,
        partitions: Vec<FetchPart>,
    },
    FetchReceived {
        leader: BrokerId,
        follower: BrokerId,
        partitions: Vec<FetchPart>,
    },
    /// What the leader learned of a follower from one fetch offset.
    FollowerStateUpdated {
        leader: BrokerId,
        follower: BrokerId,
        tp: TpName,
        previous_log_end_offset: Option<u64>,
        log_end_offset: u64,
        /// `None`: never caught up (see `ReplicaState::last_caught_up_time_ms`).
        last_caught_up_time_ms: Option<u64>,
    },
    HighWatermarkAdvanced {
        broker: BrokerId,
        tp: TpName,
        from: u64,
        to: u64,
        bound: HwBound,
    },
    /// A follower's progress did not move the HW; `bound` says what holds it.
    HighWatermarkHeld {
        broker: BrokerId,
        tp: TpName,
        high_watermark: u64,
        bound: HwBound,
    },
    /// No operation id: a DelayedFetch's slot in the fetch purgatory is bookkeeping that an
    /// idle stretch's jump does not reproduce (see `src/sim/fast_forward/`), and no later
    /// event names it.
    FetchParked {
        leader: BrokerId,
        follower: BrokerId,
        max_wait_ms: u64,
    },
    FetchResponseSent {
        leader: BrokerId,
        follower: BrokerId,
        partitions: Vec<FetchDataPart>,
    },
    FetchResponseReceived {
        follower: BrokerId,
        leader: BrokerId,
        partitions: Vec<FetchDataPart>,
    },
    FetchFailed {
        follower: BrokerId,
        leader: BrokerId,
        reason: String,
        retry_at_ms: u64,
    },
    LogTruncated {
        broker: BrokerId,
        tp: TpName,
        from: u64,
        to: u64,
    },

    // --- ISR and leadership --------------------------------------------------------------
    IsrShrinkProposed {
        broker: BrokerId,
        tp: TpName,
        out_of_sync: Vec<BrokerId>,
        proposed_isr: Vec<BrokerId>,
    },
    IsrExpandProposed {
        broker: BrokerId,
        tp: TpName,
        replica: BrokerId,
        proposed_isr: Vec<BrokerId>,
    },
    IsrChangeCommitted {
        broker: BrokerId,
        tp: TpName,
        isr: Vec<BrokerId>,
        partition_epoch: u32,
    },
    IsrChangeRejected {
        broker: BrokerId,
        tp: TpName,
        error: AlterPartitionError,
    },
    BrokerFenced {
        broker: BrokerId,
        last_heartbeat_ms: u64,
    },
    BrokerUnfenced {
        broker: BrokerId,
    },
    /// A restarted broker's registration reached the controller while its old registration's
    /// session was still valid: refused (Kafka: `DUPLICATE_BROKER_REGISTRATION`). The broker
    /// sends it again at `retry_at_ms`.
    RegistrationRefused {
        broker: BrokerId,
        retry_at_ms: u64,
    },
    /// The controller's leader-imbalance check moved these partitions' leadership back to their
    /// preferred replicas (`leader_imbalance_check_interval_ms`; Kafka's
    /// `auto.leader.rebalance.enable`).
    PreferredLeadersElected {
        partitions: Vec<TpName>,
        interval_ms: u64,
    },
    /// The controller changed a partition record.
    PartitionChanged {
        tp: TpName,
        leader: Option<BrokerId>,
        leader_epoch: u32,
        isr: Vec<BrokerId>,
        partition_epoch: u32,
    },
    LeaderElectionRefused {
        tp: TpName,
        broker: BrokerId,
        reason: ElectionRefused,
    },
    BecameLeader {
        broker: BrokerId,
        tp: TpName,
        leader_epoch: u32,
        isr: Vec<BrokerId>,
        leader_epoch_start_offset: u64,
    },
    BecameFollower {
        broker: BrokerId,
        tp: TpName,
        leader: Option<BrokerId>,
        leader_epoch: u32,
    },
    IsrUpdated {
        broker: BrokerId,
        tp: TpName,
        isr: Vec<BrokerId>,
        partition_epoch: u32,
        /// The ISR an AlterPartition in flight proposed, dropped by this update (written only
        /// then): the leader's own committed change came back through the metadata log after it
        /// proposed the next one, or the controller changed the partition meanwhile.
        #[serde(skip_serializing_if = "Option::is_none")]
        dropped_proposal: Option<Vec<BrokerId>>,
    },

    // --- Idle stretches (the simulation's, not Kafka's) ----------------------------------
    /// The cluster was found to repeat itself every `period_ms` (follower long-polls that find
    /// nothing, ISR checks that find everyone caught up): the trace leaves those repetitions out
    /// from here until something else happens (`src/sim/fast_forward.rs`).
    IdleStretchBegan {
        period_ms: u64,
    },
    /// Something other than a repetition is about to happen: the stretch that began at
    /// `since_ms` ends, and the trace writes every event again.
    IdleStretchEnded {
        since_ms: u64,
        period_ms: u64,
    },
}

/// Collects events when enabled; costs one branch when not. Muted (during an idle stretch), it
/// records nothing and numbers nothing, as if the repetitions had not happened: a run that
/// simulates them and one that jumps over them write the same trace.
#[derive(Debug, Default)]
pub struct Trace {
    enabled: bool,
    muted: bool,
    next_id: u64,
    events: Vec<TraceEvent>,
}

/// A simulation is cloned between instants (a checkpoint, the playhead's run), after its
/// events were drained; events are never copied (an event's text is large, and the copy code is
/// a few KB of the .wasm), so a clone with events still to drain is a bug.
impl Clone for Trace {
    fn clone(&self) -> Self {
        assert!(
            self.events.is_empty(),
            "a trace cloned before it was drained"
        );
        Trace {
            enabled: self.enabled,
            muted: self.muted,
            next_id: self.next_id,
            events: Vec::new(),
        }
    }
}

impl Trace {
    pub fn new(enabled: bool) -> Self {
        Trace {
            enabled,
            muted: false,
            next_id: 1,
            events: Vec::new(),
        }
    }

    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Mutes or unmutes the trace (see [`Trace`]).
    pub fn set_muted(&mut self, muted: bool) {
        self.muted = muted;
    }

    /// Records the event built by `make` (only called when enabled and not muted) and returns
    /// its id.
    #[inline]
    pub fn emit(
        &mut self,
        at_ms: u64,
        cause: Option<EventId>,
        make: impl FnOnce() -> Event,
    ) -> Option<EventId> {
        if !self.enabled || self.muted {
            return None;
        }
        let id = EventId(self.next_id);
        self.next_id += 1;
        self.events.push(TraceEvent {
            at_ms,
            id,
            cause,
            event: make(),
        });
        Some(id)
    }

    /// Takes the events recorded since the last drain.
    pub fn drain(&mut self) -> Vec<TraceEvent> {
        std::mem::take(&mut self.events)
    }
}

/// A short fingerprint of a trace: FNV-1a (64 bits) over its JSON Lines exactly as `--trace`
/// writes them (each event's JSON and a newline). Two runs with the same hash wrote the same
/// trace; the runner prints it with `--trace-hash` and the page shows it, so two people can check
/// they saw the same run. Not a cryptographic hash: it guards against accidents, not forgery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceHash(u64);

impl Default for TraceHash {
    fn default() -> Self {
        TraceHash(0xcbf2_9ce4_8422_2325)
    }
}

impl TraceHash {
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    pub fn update(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(Self::PRIME);
        }
        self.0 = h;
    }

    /// Adds one event's line.
    pub fn add_event(&mut self, event: &TraceEvent, scratch: &mut Vec<u8>) {
        scratch.clear();
        serde_json::to_writer(&mut *scratch, event).expect("an event always serializes");
        scratch.push(b'\n');
        self.update(scratch);
    }

    /// Sixteen lower-case hex digits.
    pub fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}
