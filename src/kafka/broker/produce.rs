//! The produce path: Kafka's `ReplicaManager.appendRecords` (acks validation, append to the
//! local log, `delayedProduceRequestRequired`, the deferred purgatory action) and the response
//! (`KafkaApis.sendResponseCallback`). A request that must wait for the ISR goes to the produce
//! purgatory as a `DelayedProduce` (`delayed_produce.rs`).

use super::delayed_produce::ProducePartitionStatus;
use super::{hw_rules, Broker};
use crate::kafka::errors::ErrorCode;
use crate::kafka::messages::{Ctx, ProduceCall};
use crate::kafka::partition::LeaderHwChange;
use crate::kafka::reasons;
use crate::kafka::requests::{RequestIdx, RequestLog};
use crate::kafka::trace::{Event, EventId, PartitionOutcome};
use crate::kafka::TopicPartition;

impl Broker {
    /// Kafka: `ReplicaManager.appendRecords` and what `KafkaApis` does around it.
    pub fn handle_produce(&mut self, call: &ProduceCall, cause: Option<EventId>, ctx: &mut Ctx) {
        if call.partitions.is_empty() {
            // Kafka: `KafkaApis.handleProduceRequest` filtered every partition out as unknown,
            // and answers without calling `appendRecords` (so without checking acks either).
            self.send_produce_response(call.request, cause, ctx);
            return;
        }
        if !matches!(call.acks, -1..=1) {
            // Kafka: `isValidRequiredAcks` fails: every partition INVALID_REQUIRED_ACKS, nothing
            // appended.
            let statuses = call
                .partitions
                .iter()
                .map(|&(slot, tp, _)| {
                    self.reject(
                        call.request,
                        slot,
                        tp,
                        ErrorCode::InvalidRequiredAcks,
                        reasons::INVALID_ACKS,
                        cause,
                        ctx,
                    )
                })
                .collect::<Vec<_>>();
            record_statuses(ctx.requests, call.request, &statuses);
            self.send_produce_response(call.request, cause, ctx);
            return;
        }
        // One list reused by every request: a waiting request keeps its statuses in the op.
        let mut statuses = std::mem::take(&mut self.produce_statuses);
        statuses.clear();
        let mut deferred = std::mem::take(&mut self.deferred_actions);
        for &(slot, tp, count) in &call.partitions {
            match self.append_to_local_log(call.request, slot, tp, count, call.acks, cause, ctx) {
                Ok((status, change, appended)) => {
                    statuses.push(status);
                    deferred.push((tp, change, appended));
                }
                Err(status) => statuses.push(status),
            }
        }
        let failed = statuses.iter().filter(|s| s.error.is_error()).count();
        // Kafka: `delayedProduceRequestRequired`.
        if call.acks == -1 && !statuses.is_empty() && failed < statuses.len() {
            self.add_delayed_produce(call, &mut statuses, cause, ctx);
        } else {
            let broker = self.id;
            let request = ctx.request_id(call.request);
            let id = ctx.emit(cause, || Event::ProduceAnsweredAtOnce {
                request,
                broker,
                acks: call.acks,
            });
            record_statuses(ctx.requests, call.request, &statuses);
            self.send_produce_response(call.request, id, ctx);
        }
        // Kafka: `addCompletePurgatoryAction`, drained by `tryCompleteActions` after the request
        // handler: INCREASED wakes produce and fetch waiters, SAME wakes only fetches.
        for (tp, change, appended) in deferred.drain(..) {
            match change {
                LeaderHwChange::Increased => self.complete_delayed_requests(&[tp], appended, ctx),
                LeaderHwChange::Same => self.check_and_complete_fetch(tp, appended, ctx),
            }
        }
        self.deferred_actions = deferred;
        self.produce_statuses = statuses;
    }

    /// Kafka: `appendToLocalLog` for one partition, then `buildProducePartitionStatus`.
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    fn append_to_local_log(
        &mut self,
        request: RequestIdx,
        slot: usize,
        tp: TopicPartition,
        count: u64,
        acks: i64,
        cause: Option<EventId>,
        ctx: &mut Ctx,
    ) -> Result<(ProducePartitionStatus, LeaderHwChange, Option<EventId>), ProducePartitionStatus>
    {
        let Some(p) = self.partitions.get_mut(&tp) else {
            // `getPartitionOrException`: the topic exists but this broker hosts no replica.
            let why = reasons::NO_REPLICA;
            return Err(self.reject(
                request,
                slot,
                tp,
                ErrorCode::NotLeaderOrFollower,
                why,
                cause,
                ctx,
            ));
        };
        let hw_before = p.high_watermark;
        let rules = hw_rules(&self.registry, ctx);
        let appended = p.append_records_to_leader(count, acks, Some(request), &rules);
        let (batch, change) = match appended {
            Ok(ok) => ok,
            Err(error) => {
                let why = match error {
                    ErrorCode::NotEnoughReplicas => reasons::UNDER_MIN_ISR,
                    _ => reasons::NOT_LEADER,
                };
                return Err(self.reject(request, slot, tp, error, why, cause, ctx));
            }
        };
        let answer = &mut ctx.requests.partitions_mut(request)[slot];
        answer.base_offset = batch.base_offset as i64;
        answer.leader_epoch = batch.leader_epoch;
        let p = &self.partitions[&tp];
        let (broker, name, request_id) = (self.id, ctx.tp_name(tp), ctx.request_id(request));
        let (leader_epoch, log_end_offset) = (p.leader_epoch, p.log_end_offset());
        let id = ctx.emit(cause, || Event::RecordsAppended {
            broker,
            tp: name.clone(),
            request: Some(request_id),
            base_offset: batch.base_offset,
            last_offset: batch.end_offset() - 1,
            log_end_offset,
            leader_epoch,
            hw_change: change,
        });
        if change == LeaderHwChange::Increased {
            // The append itself moved the HW (e.g. the ISR is the leader alone).
            let (from, to, bound) = (hw_before, p.high_watermark, self.hw_bound(tp, ctx));
            ctx.emit(id, || Event::HighWatermarkAdvanced {
                broker,
                tp: name,
                from,
                to,
                bound,
            });
        }
        let status = ProducePartitionStatus {
            slot,
            tp,
            required_offset: batch.end_offset(),
            base_offset: batch.base_offset as i64,
            error: ErrorCode::None,
            acks_pending: false,
        };
        Ok((status, change, id))
    }

    #[allow(clippy::too_many_arguments)]
    fn reject(
        &self,
        request: RequestIdx,
        slot: usize,
        tp: TopicPartition,
        error: ErrorCode,
        reason: &str,
        cause: Option<EventId>,
        ctx: &mut Ctx,
    ) -> ProducePartitionStatus {
        let (broker, name, request_id) = (self.id, ctx.tp_name(tp), ctx.request_id(request));
        ctx.emit(cause, || Event::ProducePartitionRejected {
            request: request_id,
            broker,
            tp: name,
            error: error.name(),
            reason: reason.to_string(),
        });
        ProducePartitionStatus {
            slot,
            tp,
            required_offset: 0,
            base_offset: -1,
            error,
            acks_pending: false,
        }
    }

    /// Kafka: `KafkaApis.sendResponseCallback`: a response for acks 1 and -1; for acks 0 none,
    /// and a closed connection if any partition failed. The partition statuses are already in
    /// the request's record ([`record_statuses`]).
    pub(super) fn send_produce_response(
        &self,
        request: RequestIdx,
        cause: Option<EventId>,
        ctx: &mut Ctx,
    ) {
        let now = ctx.now_ms;
        let broker = self.id;
        if ctx.requests.get(request).acks == 0 {
            let failed = ctx
                .requests
                .partitions(request)
                .iter()
                .any(|p| p.error.is_some_and(|e| e.is_error()));
            if failed {
                ctx.close_connection(request, broker, reasons::ACKS0_FAILED, cause);
            }
            return;
        }
        let latency_ms = now - ctx.requests.get(request).received_ms;
        ctx.requests.respond(request, now);
        if ctx.trace.enabled() {
            let record = ctx.requests.get(request);
            let partitions = ctx
                .requests
                .partitions(request)
                .iter()
                .map(|p| PartitionOutcome {
                    tp: format!("{}-{}", p.topic, p.partition).into(),
                    error: p.error.map_or("NONE", |e| e.name()),
                    base_offset: p.base_offset,
                })
                .collect();
            let request_id = record.id.to_string();
            let client_gone = record.client_gave_up;
            ctx.emit(cause, || Event::ProduceResponseSent {
                request: request_id,
                broker,
                latency_ms,
                partitions,
                client_gone,
            });
        }
    }
}

/// Writes each partition's status into the request's record, where its response reads it.
pub(super) fn record_statuses(
    requests: &mut RequestLog,
    request: RequestIdx,
    statuses: &[ProducePartitionStatus],
) {
    let partitions = requests.partitions_mut(request);
    for s in statuses {
        partitions[s.slot].error = Some(s.error);
    }
}
