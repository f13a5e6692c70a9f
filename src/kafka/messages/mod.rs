//! The plain messages between brokers and the simulation, and the context a broker's handler
//! runs in: fetch requests and responses, a produce request as it reaches `appendRecords`, what a
//! handler hands back to be delivered later (`Outgoing`), and `Ctx`. No broker logic lives here;
//! the broker (`kafka::broker`), the follower's fetch loop (`kafka::follower`) and the simulation
//! all build and read these.

mod buffers;

use serde::Serialize;

pub use buffers::FetchBuffers;

use super::config::Config;
use super::errors::ErrorCode;
use super::log::{Batch, EpochEntry};
use super::partition::AlterPartitionProposal;
use super::requests::{RequestIdx, RequestLog};
use super::{BrokerId, TopicPartition};
use crate::kafka::trace::{Event, EventId, FetchDataPart, FetchPart, TpName, TpNames, Trace};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FetchPartitionRequest {
    pub tp: TopicPartition,
    pub fetch_offset: u64,
    /// The epoch of the follower's last record, for divergence detection.
    pub last_fetched_epoch: Option<u32>,
    pub current_leader_epoch: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FetchRequest {
    pub follower: BrokerId,
    pub leader: BrokerId,
    /// Matches a response to the fetcher state that sent it.
    pub session: u64,
    pub broker_epoch: u64,
    pub max_wait_ms: u64,
    pub partitions: Vec<FetchPartitionRequest>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FetchPartitionData {
    pub tp: TopicPartition,
    pub error: ErrorCode,
    pub fetch_offset: u64,
    pub high_watermark: u64,
    pub log_end_offset: u64,
    pub batches: Vec<Batch>,
    /// Kafka's `divergingEpoch`: the follower must truncate to this epoch's end offset.
    pub diverging: Option<EpochEntry>,
}

impl FetchPartitionData {
    pub fn records(&self) -> u64 {
        self.batches.iter().map(|b| b.count).sum()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FetchResponse {
    pub follower: BrokerId,
    pub leader: BrokerId,
    pub session: u64,
    pub partitions: Vec<FetchPartitionData>,
}

/// One ProduceRequest as it reaches `appendRecords`: the partitions KafkaApis did not filter out.
#[derive(Clone, Debug)]
pub struct ProduceCall {
    pub request: RequestIdx,
    pub acks: i64,
    pub timeout_ms: u64,
    /// `(slot in the request, partition, record count)`.
    pub partitions: Vec<(usize, TopicPartition, u64)>,
}

/// A message or timer a broker handler asks the simulation to deliver later.
#[derive(Clone, Debug)]
pub enum Outgoing {
    Fetch(FetchRequest),
    FetchResponse(FetchResponse),
    AlterPartition {
        leader: BrokerId,
        proposal: AlterPartitionProposal,
    },
    /// Wake the follower's fetcher for `leader` at `at_ms` (after a back-off).
    FetcherWake {
        follower: BrokerId,
        leader: BrokerId,
        at_ms: u64,
    },
}

/// Everything a handler may touch besides its own broker.
pub struct Ctx<'a> {
    pub now_ms: u64,
    pub config: &'a Config,
    pub topic_names: &'a [std::rc::Rc<str>],
    pub tp_names: &'a TpNames,
    pub outbox: &'a mut Vec<(Outgoing, Option<EventId>)>,
    pub trace: &'a mut Trace,
    pub requests: &'a mut RequestLog,
    pub fetch_buffers: &'a mut FetchBuffers,
    /// The simulation's schedule sequence: the next number a scheduled item would take.
    pub schedule_seq: &'a mut u64,
}

impl Ctx<'_> {
    /// The place in the simulation's schedule of a timeout started now: the timeout counts as
    /// scheduled when its operation is added to a purgatory, so when it comes due it expires
    /// after what was scheduled for that millisecond before it, and before what was scheduled
    /// after it (scenario-format.md, "Timing rules").
    pub fn timeout_order(&mut self) -> u64 {
        let seq = *self.schedule_seq;
        *self.schedule_seq += 1;
        seq
    }

    /// A produce request's id, for a trace event (empty when the trace is off).
    pub fn request_id(&self, request: RequestIdx) -> String {
        if self.trace.enabled() {
            self.requests.get(request).id.to_string()
        } else {
            String::new()
        }
    }

    /// Hands a message or timer to the simulation, with the event that caused it, so the
    /// receiver's events can name their cause across the network.
    pub fn send(&mut self, out: Outgoing, cause: Option<EventId>) {
        self.outbox.push((out, cause));
    }

    pub fn emit(
        &mut self,
        cause: Option<EventId>,
        make: impl FnOnce() -> Event,
    ) -> Option<EventId> {
        self.trace.emit(self.now_ms, cause, make)
    }

    /// The client sees `request`'s connection drop instead of an answer (an acks=0 request that
    /// failed, a broker that crashed before answering); the trace says why.
    pub fn close_connection(
        &mut self,
        request: RequestIdx,
        broker: BrokerId,
        reason: &str,
        cause: Option<EventId>,
    ) {
        let record = self.requests.get_mut(request);
        if record.client_gave_up {
            return; // the producer closed it itself, and nobody sees it drop
        }
        record.connection_closed = true;
        let request_id = self.request_id(request);
        self.emit(cause, || Event::ConnectionClosed {
            request: request_id,
            broker,
            reason: reason.into(),
        });
    }

    /// Kafka's watch-key label, `topic-partition`, for a trace event: a shared name, so naming a
    /// partition costs a reference count, not a string.
    pub fn tp_name(&self, tp: TopicPartition) -> TpName {
        self.tp_names.get(tp.topic, tp.partition)
    }
}

/// A fetch request's partitions, for a trace event.
pub(crate) fn fetch_parts(request: &FetchRequest, ctx: &Ctx) -> Vec<FetchPart> {
    request
        .partitions
        .iter()
        .map(|p| FetchPart {
            tp: ctx.tp_name(p.tp),
            fetch_offset: p.fetch_offset,
        })
        .collect()
}

/// A fetch response's partitions, for a trace event.
pub(crate) fn fetch_data_parts(response: &FetchResponse, ctx: &Ctx) -> Vec<FetchDataPart> {
    response
        .partitions
        .iter()
        .map(|d| FetchDataPart {
            tp: ctx.tp_name(d.tp),
            error: d.error.name(),
            records: d.records(),
            high_watermark: d.high_watermark,
            log_end_offset: d.log_end_offset,
            diverging_end_offset: d.diverging.map(|e| e.start_offset),
        })
        .collect()
}
