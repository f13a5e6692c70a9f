//! Replication at the leader: a follower's fetch (Kafka: `ReplicaManager.fetchMessages` →
//! `Partition.updateFollowerFetchState`) and the follower long-poll parked as a `DelayedFetch`.
//! The follower's own loop is `kafka::follower`.

use serde::Serialize;

use super::Broker;
use crate::kafka::errors::ErrorCode;
use crate::kafka::log::EpochEntry;
use crate::kafka::messages::{
    fetch_data_parts, fetch_parts, Ctx, FetchBuffers, FetchPartitionData, FetchPartitionRequest,
    FetchRequest, FetchResponse, Outgoing,
};
use crate::kafka::metadata::BrokerRegistry;
use crate::kafka::tp_map::HostedPartitions;
use crate::kafka::trace::{Event, EventId};
use crate::kafka::{BrokerId, TopicPartition};
use crate::purgatory::{Completion, Hooks, OpId};

/// Kafka: `DelayedFetch`, a follower fetch with nothing to return yet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DelayedFetch {
    pub request: FetchRequest,
    pub created_ms: u64,
}

/// Kafka: `Partition.fetchRecords` / `readFromLog` for one partition of a follower fetch,
/// without touching the follower's state: errors, divergence, or the records from the fetch
/// offset to the log end offset. `stale_incarnation` is [`is_stale_incarnation`] for the whole
/// request. Records read go into a list from `buffers`.
///
/// Inlined into its two callers (the fetch handler and the parked fetch's completion), which run
/// it for every partition of every fetch: a call would copy the whole result out once more.
#[inline(always)]
fn read_partition(
    partitions: &HostedPartitions,
    stale_incarnation: bool,
    part: &FetchPartitionRequest,
    buffers: &mut FetchBuffers,
) -> FetchPartitionData {
    let mut data = FetchPartitionData {
        tp: part.tp,
        error: ErrorCode::None,
        fetch_offset: part.fetch_offset,
        high_watermark: 0,
        log_end_offset: 0,
        batches: Vec::new(),
        diverging: None,
    };
    let Some(p) = partitions.get(&part.tp) else {
        data.error = ErrorCode::NotLeaderOrFollower;
        return data;
    };
    // Kafka: `Partition.getLocalLog` checks the fetch's leader epoch first
    // (`checkCurrentLeaderEpoch`), then that this replica leads: a deposed leader that has
    // learnt of the new epoch answers a fetch at the old one FENCED_LEADER_EPOCH. An error
    // carries no offsets (Kafka's -1, 0 here).
    if part.current_leader_epoch < p.leader_epoch {
        data.error = ErrorCode::FencedLeaderEpoch;
        return data;
    }
    if part.current_leader_epoch > p.leader_epoch {
        data.error = ErrorCode::UnknownLeaderEpoch;
        return data;
    }
    if !p.is_leader() || stale_incarnation {
        data.error = ErrorCode::NotLeaderOrFollower;
        return data;
    }
    data.high_watermark = p.high_watermark;
    data.log_end_offset = p.log_end_offset();
    if let Some(epoch) = part.last_fetched_epoch {
        // Kafka: `validateFetchOffsetAndMaybeGetDivergingEpoch`.
        let end = p.log.end_offset_for_epoch(epoch);
        let diverges = match end {
            None => part.fetch_offset > 0,
            Some(e) => e.epoch < epoch || e.start_offset < part.fetch_offset,
        };
        if diverges {
            data.diverging = Some(end.unwrap_or(EpochEntry {
                epoch: 0,
                start_offset: 0,
            }));
            return data;
        }
    }
    if part.fetch_offset > p.log_end_offset() {
        // Out of range; the follower will truncate to the leader's end.
        data.diverging = Some(EpochEntry {
            epoch: p.leader_epoch,
            start_offset: p.log_end_offset(),
        });
        return data;
    }
    if part.fetch_offset < p.log_end_offset() {
        // Most reads of a parked fetch find nothing: only a read with records takes a list.
        data.batches = buffers.batch_list();
        p.log.read_into(part.fetch_offset, &mut data.batches);
    }
    data
}

/// Kafka: `updateFetchStateOrThrow` rejects a fetch from a stale broker incarnation: an older
/// broker epoch than the registration this leader knows. The same for every partition of the
/// request, so it is decided once per read.
fn is_stale_incarnation(registry: &BrokerRegistry, request: &FetchRequest) -> bool {
    registry
        .get(request.follower)
        .is_some_and(|r| request.broker_epoch < r.broker_epoch)
}

struct FetchHooks<'a, 'c> {
    partitions: &'a HostedPartitions,
    registry: &'a BrokerRegistry,
    /// A completed fetch is answered from `on_complete` itself (Kafka: `DelayedFetch.onComplete`
    /// calls the response callback), naming `cause` as the event that woke it.
    ctx: &'a mut Ctx<'c>,
    cause: Option<EventId>,
    /// Set while `handle_fetch` parks a fetch that has just found nothing to return in any of
    /// its partitions: Kafka's `tryCompleteElseWatch` tries it twice, within the same step, and
    /// both tries would read those same partitions again to the same answer.
    parking_after_empty_read: bool,
}

impl Hooks<DelayedFetch> for FetchHooks<'_, '_> {
    /// Kafka: `DelayedFetch.tryComplete`: complete when a partition lost its leader or epoch,
    /// was truncated below the fetch offset, or has at least `replica.fetch.min.bytes` (1) new.
    fn try_complete(&mut self, _id: OpId, op: &mut DelayedFetch) -> bool {
        if self.parking_after_empty_read {
            return false;
        }
        op.request
            .partitions
            .iter()
            .any(|part| match self.partitions.get(&part.tp) {
                Some(p) if p.is_leader() && p.leader_epoch == part.current_leader_epoch => {
                    p.log_end_offset() != part.fetch_offset
                }
                _ => true,
            })
    }

    /// Kafka: `DelayedFetch.onComplete` reads the logs again (`readFromPurgatory`), which does
    /// not update the follower's state a second time. A completed fetch is never tried again,
    /// so its partition list goes back to the buffers, though the op may linger on other watch
    /// lists.
    fn on_complete(&mut self, _id: OpId, op: &mut DelayedFetch, _how: Completion) {
        let request = &mut op.request;
        let stale_incarnation = is_stale_incarnation(self.registry, request);
        let buffers = &mut *self.ctx.fetch_buffers;
        let mut partitions = buffers.response_list();
        for part in &request.partitions {
            partitions.push(read_partition(
                self.partitions,
                stale_incarnation,
                part,
                buffers,
            ));
        }
        buffers.recycle_request(std::mem::take(&mut request.partitions));
        let response = FetchResponse {
            follower: request.follower,
            leader: request.leader,
            session: request.session,
            partitions,
        };
        send_fetch_response(response, self.cause, self.ctx);
    }

    fn on_expiration(&mut self, _id: OpId, _op: &mut DelayedFetch) {}
}

impl Broker {
    /// Kafka: `ReplicaManager.fetchMessages` for a follower fetch at this (leader) broker.
    pub fn handle_fetch(&mut self, request: FetchRequest, cause: Option<EventId>, ctx: &mut Ctx) {
        let (leader, follower) = (self.id, request.follower);
        let parts = if ctx.trace.enabled() {
            fetch_parts(&request, ctx)
        } else {
            Vec::new()
        };
        let received = ctx.emit(cause, || Event::FetchReceived {
            leader,
            follower,
            partitions: parts,
        });
        let mut answer_now = request.max_wait_ms == 0;
        let mut read = ctx.fetch_buffers.response_list();
        // Updating follower states below changes no registration.
        let stale_incarnation = is_stale_incarnation(&self.registry, &request);
        for part in &request.partitions {
            // Kafka: `Partition.fetchRecords` reads the log (and the HW it will report) before
            // `updateFollowerFetchState`, so an immediate answer carries the HW as it was before
            // this very fetch moved it.
            let data = read_partition(&self.partitions, stale_incarnation, part, ctx.fetch_buffers);
            let usable = !data.error.is_error() && data.diverging.is_none();
            answer_now |= !usable || data.log_end_offset > part.fetch_offset;
            read.push(data);
            if usable {
                self.update_follower_fetch_state(
                    follower,
                    part.tp,
                    part.fetch_offset,
                    request.broker_epoch,
                    received,
                    ctx,
                );
            }
        }
        if answer_now {
            let response = FetchResponse {
                follower,
                leader,
                session: request.session,
                partitions: read,
            };
            ctx.fetch_buffers.recycle_request(request.partitions);
            send_fetch_response(response, received, ctx);
            return;
        }
        // Nothing to return: park it (Kafka: `DelayedFetch` watched on every partition).
        ctx.fetch_buffers.recycle_response(read);
        let keys = &mut self.watch_keys;
        keys.clear();
        keys.extend(request.partitions.iter().map(|p| p.tp));
        let (max_wait_ms, now_ms) = (request.max_wait_ms, ctx.now_ms);
        let op = DelayedFetch {
            request,
            created_ms: now_ms,
        };
        // Neither try completes it, and its timer (max_wait_ms > 0 here) cannot fire before
        // time moves: parking answers nothing.
        let order = ctx.timeout_order();
        let mut hooks = FetchHooks {
            partitions: &self.partitions,
            registry: &self.registry,
            ctx,
            cause: received,
            // Every partition was just read: led here at the fetch's epoch with nothing past its
            // fetch offset (anything else is answered at once above), and updating follower
            // states appends nothing and changes no leadership.
            parking_after_empty_read: true,
        };
        self.fetch_purgatory.try_complete_else_watch_ordered(
            op,
            &self.watch_keys,
            now_ms,
            max_wait_ms,
            order,
            &mut hooks,
        );
        ctx.emit(received, || Event::FetchParked {
            leader,
            follower,
            max_wait_ms,
        });
    }

    /// Kafka: `Partition.updateFollowerFetchState`: record the fetch offset, maybe expand the
    /// ISR, and if the follower's log end offset moved, maybe advance the HW, which wakes waiting
    /// requests synchronously, before the fetch itself is answered.
    fn update_follower_fetch_state(
        &mut self,
        follower: BrokerId,
        tp: TopicPartition,
        fetch_offset: u64,
        broker_epoch: u64,
        cause: Option<EventId>,
        ctx: &mut Ctx,
    ) {
        let Some(p) = self.partitions.get_mut(&tp) else {
            return;
        };
        let Some((before, after)) =
            p.update_follower_fetch_state(follower, fetch_offset, broker_epoch, ctx.now_ms)
        else {
            return;
        };
        let (previous, caught_up) = (before.log_end_offset, after.last_caught_up_time_ms);
        let (leader, name) = (self.id, ctx.tp_name(tp));
        let updated = ctx.emit(cause, || Event::FollowerStateUpdated {
            leader,
            follower,
            tp: name.clone(),
            previous_log_end_offset: previous,
            log_end_offset: fetch_offset,
            last_caught_up_time_ms: caught_up,
        });
        if let Some(proposal) = p.maybe_expand_isr(follower, &self.registry) {
            let proposed_isr = proposal.new_isr.clone();
            let id = ctx.emit(updated, || Event::IsrExpandProposed {
                broker: leader,
                tp: name.clone(),
                replica: follower,
                proposed_isr,
            });
            ctx.send(Outgoing::AlterPartition { leader, proposal }, id);
        }
        if previous == Some(fetch_offset) {
            return;
        }
        if !self.maybe_increment_hw_and_complete(tp, updated, ctx) && ctx.trace.enabled() {
            let high_watermark = self.partitions[&tp].high_watermark;
            let bound = self.hw_bound(tp, ctx);
            ctx.emit(updated, || Event::HighWatermarkHeld {
                broker: leader,
                tp: name,
                high_watermark,
                bound,
            });
        }
    }

    /// Kafka: `checkAndComplete` on the Fetch purgatory for one key.
    pub fn check_and_complete_fetch(
        &mut self,
        key: TopicPartition,
        cause: Option<EventId>,
        ctx: &mut Ctx,
    ) {
        if self.fetch_purgatory.watched(&key) == 0 {
            return;
        }
        let mut hooks = FetchHooks {
            partitions: &self.partitions,
            registry: &self.registry,
            ctx,
            cause,
            parking_after_empty_read: false,
        };
        self.fetch_purgatory.check_and_complete(&key, &mut hooks);
    }

    /// Runs the fetch purgatory's first due timeout: a parked fetch whose `max_wait_ms` ran out
    /// is answered with whatever is there (usually nothing).
    pub(super) fn run_next_due_fetch(&mut self, ctx: &mut Ctx) {
        let mut hooks = FetchHooks {
            partitions: &self.partitions,
            registry: &self.registry,
            ctx,
            cause: None,
            parking_after_empty_read: false,
        };
        self.fetch_purgatory.run_next_due(&mut hooks);
    }
}

/// Answers a follower's fetch (traced as `FetchResponseSent`).
fn send_fetch_response(response: FetchResponse, cause: Option<EventId>, ctx: &mut Ctx) {
    if ctx.trace.enabled() {
        let (leader, follower) = (response.leader, response.follower);
        let partitions = fetch_data_parts(&response, ctx);
        let id = ctx.emit(cause, || Event::FetchResponseSent {
            leader,
            follower,
            partitions,
        });
        return ctx.send(Outgoing::FetchResponse(response), id);
    }
    ctx.send(Outgoing::FetchResponse(response), cause);
}
