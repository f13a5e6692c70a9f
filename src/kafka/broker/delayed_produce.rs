//! Kafka's `DelayedProduce`: the request that waits in the produce purgatory until every
//! in-sync replica has its records (`tryComplete`, Case A/B/C), is answered on completion or
//! expiry, and is checked again on each `checkAndComplete` of its partitions' keys.

use serde::Serialize;

use super::produce::record_statuses;
use super::Broker;
use crate::kafka::config::Config;
use crate::kafka::errors::ErrorCode;
use crate::kafka::messages::{Ctx, ProduceCall};
use crate::kafka::reasons;
use crate::kafka::requests::{RequestIdx, RequestLog};
use crate::kafka::small_list::SmallList;
use crate::kafka::tp_map::HostedPartitions;
use crate::kafka::trace::{Event, EventId, Gauges, ProduceStatusPart};
use crate::kafka::TopicPartition;
use crate::purgatory::{Completion, Hooks, OpId, Watched};

/// Kafka: `DelayedProduce.ProducePartitionStatus`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProducePartitionStatus {
    /// Position of this partition in the request (and in its record).
    pub slot: usize,
    pub tp: TopicPartition,
    /// `lastOffset + 1`: the op waits for `HW >= required_offset`.
    pub required_offset: u64,
    pub base_offset: i64,
    /// `REQUEST_TIMED_OUT` as a placeholder while `acks_pending`.
    pub error: ErrorCode,
    pub acks_pending: bool,
}

/// Kafka: `DelayedProduce`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DelayedProduce {
    pub request: RequestIdx,
    pub created_ms: u64,
    pub timeout_ms: u64,
    pub partitions: SmallList<ProducePartitionStatus>,
}

/// What the produce purgatory's hooks report back, in the order it happened.
#[derive(Clone)]
pub(super) enum ProduceDone {
    Completed {
        op: OpId,
        request: RequestIdx,
        how: Completion,
    },
    Expired {
        op: OpId,
        request: RequestIdx,
        pending: Vec<TopicPartition>,
    },
}

struct ProduceHooks<'a> {
    partitions: &'a HostedPartitions,
    /// Where a completed request's partition statuses are written.
    requests: &'a mut RequestLog,
    min_insync_replicas: u32,
    done: Vec<ProduceDone>,
}

impl Hooks<DelayedProduce> for ProduceHooks<'_> {
    /// Kafka: `DelayedProduce.tryComplete` with `ReplicaManager`'s validator (Case A/B/C). A
    /// decided partition is never re-evaluated.
    fn try_complete(&mut self, _id: OpId, op: &mut DelayedProduce) -> bool {
        for status in op.partitions.iter_mut().filter(|s| s.acks_pending) {
            let (has_enough, error) = match self.partitions.get(&status.tp) {
                // Case A: not hosted here, but the topic exists.
                None => (false, ErrorCode::NotLeaderOrFollower),
                // Case B/C.
                Some(p) => p.check_enough_replicas_reach_offset(
                    status.required_offset,
                    self.min_insync_replicas,
                ),
            };
            if error.is_error() || has_enough {
                status.acks_pending = false;
                status.error = error;
            }
        }
        op.partitions.iter().all(|s| !s.acks_pending)
    }

    /// Kafka: `DelayedProduce.onComplete` fixes each partition's status in the response; the
    /// response itself is sent once the purgatory call returns.
    fn on_complete(&mut self, op: OpId, delayed: &mut DelayedProduce, how: Completion) {
        record_statuses(self.requests, delayed.request, &delayed.partitions);
        self.done.push(ProduceDone::Completed {
            op,
            request: delayed.request,
            how,
        });
    }

    fn on_expiration(&mut self, op: OpId, delayed: &mut DelayedProduce) {
        let pending = delayed
            .partitions
            .iter()
            .filter(|s| s.acks_pending)
            .map(|s| s.tp)
            .collect();
        self.done.push(ProduceDone::Expired {
            op,
            request: delayed.request,
            pending,
        });
    }
}

impl Broker {
    fn produce_hooks<'a>(
        partitions: &'a HostedPartitions,
        requests: &'a mut RequestLog,
        config: &Config,
        done: Vec<ProduceDone>,
    ) -> ProduceHooks<'a> {
        ProduceHooks {
            partitions,
            requests,
            min_insync_replicas: config.min_insync_replicas,
            done,
        }
    }

    /// Kafka: `maybeAddDelayedProduce`: a `DelayedProduce` whose appended partitions start
    /// pending with the `REQUEST_TIMED_OUT` placeholder, watched on every partition of the
    /// request (failed ones included).
    pub(super) fn add_delayed_produce(
        &mut self,
        call: &ProduceCall,
        statuses: &mut Vec<ProducePartitionStatus>,
        cause: Option<EventId>,
        ctx: &mut Ctx,
    ) {
        for s in statuses.iter_mut().filter(|s| !s.error.is_error()) {
            s.acks_pending = true;
            s.error = ErrorCode::RequestTimedOut;
        }
        let keys = &mut self.watch_keys;
        keys.clear();
        keys.extend(statuses.iter().map(|s| s.tp));
        keys.sort();
        keys.dedup();
        let op = DelayedProduce {
            request: call.request,
            created_ms: ctx.now_ms,
            timeout_ms: call.timeout_ms,
            partitions: statuses.drain(..).collect(),
        };
        let parts: Vec<ProduceStatusPart> = if ctx.trace.enabled() {
            op.partitions
                .iter()
                .map(|s| ProduceStatusPart {
                    tp: ctx.tp_name(s.tp),
                    required_offset: s.required_offset,
                    error: s.error.name(),
                    acks_pending: s.acks_pending,
                })
                .collect()
        } else {
            Vec::new()
        };
        let order = ctx.timeout_order();
        let mut hooks = Self::produce_hooks(
            &self.partitions,
            ctx.requests,
            ctx.config,
            std::mem::take(&mut self.produce_done),
        );
        let (op_id, watched) = self.produce_purgatory.try_complete_else_watch_ordered(
            op,
            &self.watch_keys,
            ctx.now_ms,
            call.timeout_ms,
            order,
            &mut hooks,
        );
        let done = hooks.done;
        let (broker, request_id) = (self.id, ctx.request_id(call.request));
        let created = ctx.emit(cause, || Event::DelayedProduceCreated {
            request: request_id,
            broker,
            op: op_id,
            timeout_ms: call.timeout_ms,
            partitions: parts,
        });
        let mut last = created;
        if watched != Watched::CompletedOnFirstTry {
            let estimated = self.produce_purgatory.estimated_total_operations();
            let gauges = self.produce_gauges();
            let names = if ctx.trace.enabled() {
                self.watch_keys.iter().map(|&k| ctx.tp_name(k)).collect()
            } else {
                Vec::new()
            };
            last = ctx.emit(created, || Event::OperationWatched {
                broker,
                purgatory: "produce",
                op: op_id,
                keys: names,
                estimated_total_operations: estimated,
                gauges,
            });
        }
        if watched == Watched::Waiting {
            if let Some(expires_at_ms) = self.produce_purgatory.timer_expiration_ms(op_id) {
                ctx.emit(last, || Event::TimerAdded {
                    broker,
                    purgatory: "produce",
                    op: op_id,
                    expires_at_ms,
                });
            }
        }
        self.finish_produce_ops(done, last, ctx);
    }

    /// The produce purgatory's gauges now, for the trace.
    fn produce_gauges(&self) -> Gauges {
        Gauges {
            purgatory_size: self.produce_purgatory.purgatory_size(),
            num_delayed_operations: self.produce_purgatory.num_delayed_operations(),
        }
    }

    /// Kafka: `checkAndComplete` on the Produce purgatory for one key.
    pub fn check_and_complete_produce(
        &mut self,
        key: TopicPartition,
        cause: Option<EventId>,
        ctx: &mut Ctx,
    ) {
        let before = self.produce_purgatory.watched(&key);
        if before == 0 {
            return;
        }
        let mut hooks = Self::produce_hooks(
            &self.partitions,
            ctx.requests,
            ctx.config,
            std::mem::take(&mut self.produce_done),
        );
        let completed = self.produce_purgatory.check_and_complete(&key, &mut hooks);
        let done = hooks.done;
        let (broker, name, still_watched) = (
            self.id,
            ctx.tp_name(key),
            self.produce_purgatory.watched(&key),
        );
        let gauges = self.produce_gauges();
        let id = ctx.emit(cause, || Event::CheckAndComplete {
            broker,
            purgatory: "produce",
            key: name,
            completed,
            still_watched,
            gauges,
        });
        self.finish_produce_ops(done, id, ctx);
    }

    /// Runs the produce purgatory's first due timeout (see [`Broker::run_next_due_timeout`]).
    pub(super) fn run_next_due_produce(&mut self, ctx: &mut Ctx) {
        let mut hooks = Self::produce_hooks(
            &self.partitions,
            ctx.requests,
            ctx.config,
            std::mem::take(&mut self.produce_done),
        );
        self.produce_purgatory.run_next_due(&mut hooks);
        let done = hooks.done;
        self.finish_produce_ops(done, None, ctx);
    }

    /// The produce purgatory's purge, when its reaper step finds enough completed operations
    /// lingering.
    pub(super) fn produce_purge_step(&mut self, ctx: &mut Ctx) {
        if !self.produce_purgatory.reaper_woke_at(ctx.now_ms) {
            return;
        }
        let estimated_before = self.produce_purgatory.estimated_total_operations();
        if let Some(removed) = self.produce_purgatory.purge_step(ctx.now_ms) {
            let (broker, gauges) = (self.id, self.produce_gauges());
            ctx.emit(None, || Event::Purged {
                broker,
                purgatory: "produce",
                removed,
                estimated_before,
                gauges,
            });
        }
    }

    /// Turns completions into responses (Kafka: `onComplete` → `sendResponseCallback`) and
    /// expirations into metrics (`onExpiration` → `ExpiresPerSec`), then keeps the emptied list
    /// for the next purgatory call.
    fn finish_produce_ops(
        &mut self,
        mut done: Vec<ProduceDone>,
        cause: Option<EventId>,
        ctx: &mut Ctx,
    ) {
        let (broker, gauges) = (self.id, self.produce_gauges());
        let mut completed_event = cause;
        for item in done.drain(..) {
            match item {
                ProduceDone::Completed { op, request, how } => {
                    let request_id = ctx.request_id(request);
                    completed_event = ctx.emit(cause, || Event::OperationCompleted {
                        broker,
                        purgatory: "produce",
                        op,
                        request: Some(request_id),
                        how,
                        gauges,
                    });
                    self.send_produce_response(request, completed_event, ctx);
                }
                ProduceDone::Expired {
                    op,
                    request,
                    pending,
                } => {
                    self.metrics.produce_expires += pending.len() as u64;
                    let request_id = ctx.request_id(request);
                    let expired_partitions = if ctx.trace.enabled() {
                        pending.iter().map(|&tp| ctx.tp_name(tp)).collect()
                    } else {
                        Vec::new()
                    };
                    ctx.emit(completed_event, || Event::OperationExpired {
                        broker,
                        purgatory: "produce",
                        op,
                        request: Some(request_id),
                        expired_partitions,
                        gauges,
                    });
                }
            }
        }
        self.produce_done = done;
    }

    /// A crash loses every waiting request: the client sees its connection drop.
    pub fn drop_waiting_produce_requests(&mut self, cause: Option<EventId>, ctx: &mut Ctx) {
        let broker = self.id;
        let requests: Vec<RequestIdx> = self
            .produce_purgatory
            .waiting()
            .map(|(_, op)| op.request)
            .collect();
        for request in requests {
            ctx.close_connection(request, broker, reasons::CRASHED_BEFORE_ANSWER, cause);
        }
    }
}
