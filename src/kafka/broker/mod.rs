//! One broker process: the partitions it hosts, its produce and fetch purgatories, its replica
//! fetchers and its metadata cache, with metadata application, ISR expiration and the
//! AlterPartition answer. Its children hold the rest of what a broker does: `produce` (Kafka's
//! `appendRecords` and the produce response), `delayed_produce` (a `DelayedProduce` in the produce
//! purgatory) and `serve_fetch` (a follower's fetch at the leader, and `DelayedFetch`). The
//! follower's own fetch loop is `kafka::follower`; the messages and the handlers' context are
//! `kafka::messages`.

mod delayed_produce;
mod produce;
mod serve_fetch;

pub use delayed_produce::{DelayedProduce, ProducePartitionStatus};
pub use serve_fetch::DelayedFetch;

use super::config::Config;
use super::controller::AlterPartitionError;
use super::follower::fetchers::Fetchers;
use super::messages::{Ctx, Outgoing};
use super::metadata::{BrokerRegistry, MetadataDelta, PartitionRecord};
use super::partition::{AlterPartitionProposal, HwBound, HwRules, IsrState, LeaderHwChange};
use super::tp_map::HostedPartitions;
use super::{BrokerId, TopicPartition};
use crate::kafka::trace::{Event, EventId};
use crate::purgatory::Purgatory;
use delayed_produce::ProduceDone;

/// The high-watermark rule's inputs at this broker, now.
pub fn hw_rules<'a>(registry: &'a BrokerRegistry, ctx: &Ctx) -> HwRules<'a> {
    HwRules {
        now_ms: ctx.now_ms,
        lag_time_max_ms: ctx.config.replica_lag_time_max_ms,
        min_insync_replicas: ctx.config.min_insync_replicas,
        registry,
    }
}

/// Counters the page plots (Kafka's meters of the same names).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct BrokerMetrics {
    /// `DelayedProduceMetrics.ExpiresPerSec`, partitions counted.
    pub produce_expires: u64,
    pub isr_shrinks: u64,
    pub isr_expands: u64,
}

#[derive(Clone)]
pub struct Broker {
    pub id: BrokerId,
    pub running: bool,
    /// `pause_follower`: fetchers send no new fetch.
    pub fetching_paused: bool,
    /// Changes at each restart (Kafka: the broker epoch from registration).
    pub broker_epoch: u64,
    pub partitions: HostedPartitions,
    pub produce_purgatory: Purgatory<TopicPartition, DelayedProduce>,
    pub fetch_purgatory: Purgatory<TopicPartition, DelayedFetch>,
    pub fetchers: Fetchers,
    pub registry: BrokerRegistry,
    pub metrics: BrokerMetrics,
    next_fetch_session: u64,
    /// The watch keys of the operation being added to a purgatory. Most produces and fetches
    /// wait, so one buffer refilled for each saves a list allocation per request; the purgatory
    /// copies the keys it needs.
    watch_keys: Vec<TopicPartition>,
    /// The purgatory actions a produce request's appends leave for after its handler (Kafka:
    /// `addCompletePurgatoryAction`), in one list reused by every request.
    deferred_actions: Vec<(TopicPartition, LeaderHwChange, Option<EventId>)>,
    /// What a produce purgatory call completed or expired, in one list reused by every call
    /// (most calls complete a request, so a fresh list would be an allocation each).
    produce_done: Vec<ProduceDone>,
    /// The partition statuses of the produce request being handled, in one list reused by every
    /// request.
    produce_statuses: Vec<ProducePartitionStatus>,
}

/// Kafka: `fetch.purgatory.purge.interval.requests`.
const FETCH_PURGE_INTERVAL: u64 = 1_000;

/// A process's empty produce purgatory, its clock at `now_ms` (its start).
fn produce_purgatory(config: &Config, now_ms: u64) -> Purgatory<TopicPartition, DelayedProduce> {
    let purge_interval = config.producer_purgatory_purge_interval_requests;
    Purgatory::new("Produce", purge_interval, now_ms)
}

/// A process's empty fetch purgatory, its clock at `now_ms` (its start).
fn fetch_purgatory(now_ms: u64) -> Purgatory<TopicPartition, DelayedFetch> {
    Purgatory::new("Fetch", FETCH_PURGE_INTERVAL, now_ms)
}

impl Broker {
    pub fn new(id: BrokerId, config: &Config, partitions: HostedPartitions) -> Self {
        Broker {
            id,
            running: true,
            fetching_paused: false,
            broker_epoch: 0,
            partitions,
            produce_purgatory: produce_purgatory(config, 0),
            fetch_purgatory: fetch_purgatory(0),
            fetchers: Fetchers::default(),
            registry: BrokerRegistry::new(config.brokers),
            metrics: BrokerMetrics::default(),
            next_fetch_session: 0,
            watch_keys: Vec::new(),
            deferred_actions: Vec::new(),
            produce_done: Vec::new(),
            produce_statuses: Vec::new(),
        }
    }

    pub fn new_fetch_session(&mut self) -> u64 {
        self.next_fetch_session += 1;
        self.next_fetch_session
    }

    /// The earliest time either purgatory's reaper has work.
    pub fn next_reaper_wake_ms(&self, now_ms: u64) -> Option<u64> {
        let a = self.produce_purgatory.next_wake_ms(now_ms);
        let b = self.fetch_purgatory.next_wake_ms(now_ms);
        match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The first half of both purgatories' reaper step at `now_ms`: the wheels advance and hand
    /// back what is due, which then runs one timeout at a time, each at its own place in the
    /// millisecond ([`Self::next_due_timeout`], [`Self::run_next_due_timeout`]).
    pub fn collect_due_timeouts(&mut self, now_ms: u64) {
        self.produce_purgatory.collect_due(now_ms);
        self.fetch_purgatory.collect_due(now_ms);
    }

    /// The order (the simulation's schedule sequence when its operation was added) of the first
    /// collected timeout that has not run yet, in either purgatory.
    pub fn next_due_timeout(&self) -> Option<u64> {
        let a = self.produce_purgatory.next_due_order();
        let b = self.fetch_purgatory.next_due_order();
        match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Runs the first collected timeout of either purgatory (Kafka: the expiration executor
    /// running a `DelayedOperation`).
    pub fn run_next_due_timeout(&mut self, ctx: &mut Ctx) {
        let produce = self.produce_purgatory.next_due_order();
        let fetch = self.fetch_purgatory.next_due_order();
        match (produce, fetch) {
            (Some(p), Some(f)) if f < p => self.run_next_due_fetch(ctx),
            (Some(_), _) => self.run_next_due_produce(ctx),
            (None, Some(_)) => self.run_next_due_fetch(ctx),
            (None, None) => {}
        }
    }

    /// The second half of the reaper step of each purgatory whose own reaper woke now: a purge
    /// where enough completed operations linger. One broker wake serves both purgatories, but
    /// each keeps its own reaper's rhythm (Kafka runs a reaper thread per purgatory), so a fetch
    /// timeout never moves the produce reaper's 200 ms poll.
    pub fn reaper_purge_step(&mut self, ctx: &mut Ctx) {
        self.produce_purge_step(ctx);
        if self.fetch_purgatory.reaper_woke_at(ctx.now_ms) {
            self.fetch_purgatory.purge_step(ctx.now_ms);
        }
    }

    /// Check-and-complete on the Produce purgatory, then the Fetch one, for each key: Kafka's
    /// order after an append that moved the HW (`ReplicaManager.addCompletePurgatoryAction`) and
    /// when this broker stops leading a partition
    /// (`completeDelayedOperationsWhenNotPartitionLeader`). An HW moved by anything else goes
    /// through [`Self::try_complete_delayed_requests`], which runs them the other way round.
    pub fn complete_delayed_requests(
        &mut self,
        keys: &[TopicPartition],
        cause: Option<EventId>,
        ctx: &mut Ctx,
    ) {
        for &key in keys {
            self.check_and_complete_produce(key, cause, ctx);
            self.check_and_complete_fetch(key, cause, ctx);
        }
    }

    /// Kafka: `Partition.tryCompleteDelayedRequests` (`DelayedOperations.checkAndCompleteAll`):
    /// check-and-complete on the Fetch purgatory, then the Produce one, as after an HW moved by a
    /// follower's fetch, a committed ISR change or `makeLeader` (docs/kafka-semantics.md b.9).
    fn try_complete_delayed_requests(
        &mut self,
        key: TopicPartition,
        cause: Option<EventId>,
        ctx: &mut Ctx,
    ) {
        self.check_and_complete_fetch(key, cause, ctx);
        self.check_and_complete_produce(key, cause, ctx);
    }

    /// Kafka: `maybeIncrementLeaderHW`, and when the HW moved, `tryCompleteDelayedRequests` on
    /// that key. Returns whether it moved.
    pub fn maybe_increment_hw_and_complete(
        &mut self,
        tp: TopicPartition,
        cause: Option<EventId>,
        ctx: &mut Ctx,
    ) -> bool {
        let rules = hw_rules(&self.registry, ctx);
        let Some(p) = self.partitions.get_mut(&tp) else {
            return false;
        };
        let Some(moved) = p.maybe_increment_leader_hw(&rules) else {
            return false;
        };
        let (broker, name) = (self.id, ctx.tp_name(tp));
        // What bounds the candidate does not depend on the HW itself, so reading it after the
        // move gives the same answer; only the trace wants it.
        let bound = || p.high_watermark_candidate(&rules).1;
        let id = ctx.emit(cause, || Event::HighWatermarkAdvanced {
            broker,
            tp: name,
            from: moved.from,
            to: moved.to,
            bound: bound(),
        });
        self.try_complete_delayed_requests(tp, id, ctx);
        true
    }

    /// What holds a partition's HW where it is (for narration).
    pub fn hw_bound(&self, tp: TopicPartition, ctx: &Ctx) -> HwBound {
        self.partitions[&tp]
            .high_watermark_candidate(&hw_rules(&self.registry, ctx))
            .1
    }

    /// The `isr-expiration` task (Kafka: `ReplicaManager.maybeShrinkIsr`, every lag/2).
    pub fn on_isr_expiration(&mut self, ctx: &mut Ctx) {
        let lag = ctx.config.replica_lag_time_max_ms;
        for (&tp, p) in self.partitions.iter_mut() {
            let Some(proposal) = p.maybe_shrink_isr(ctx.now_ms, lag) else {
                continue;
            };
            let out_of_sync = match &p.isr_state {
                super::partition::IsrState::PendingShrink { out_of_sync } => out_of_sync.clone(),
                _ => Vec::new(),
            };
            let (broker, name, proposed_isr) = (self.id, ctx.tp_name(tp), proposal.new_isr.clone());
            let id = ctx.emit(None, || Event::IsrShrinkProposed {
                broker,
                tp: name,
                out_of_sync,
                proposed_isr,
            });
            ctx.send(
                Outgoing::AlterPartition {
                    leader: self.id,
                    proposal,
                },
                id,
            );
        }
    }

    /// Kafka: the `submitAlterPartition` callback / `handleAlterPartitionUpdate`.
    pub fn on_alter_partition_result(
        &mut self,
        proposal: &AlterPartitionProposal,
        result: Result<PartitionRecord, AlterPartitionError>,
        ctx: &mut Ctx,
    ) {
        let tp = proposal.tp;
        let Some(p) = self.partitions.get_mut(&tp) else {
            return;
        };
        if !p.awaits(proposal) {
            return; // The state was replaced meanwhile (leader change, newer metadata): ignore.
        }
        let (broker, name) = (self.id, ctx.tp_name(tp));
        match result {
            Ok(record) => {
                let grew = record.isr.len() > p.isr.len();
                p.commit_isr(record.isr.clone(), record.partition_epoch);
                if grew {
                    self.metrics.isr_expands += 1;
                } else {
                    self.metrics.isr_shrinks += 1;
                }
                let cause = ctx.emit(None, || Event::IsrChangeCommitted {
                    broker,
                    tp: name,
                    isr: record.isr,
                    partition_epoch: record.partition_epoch,
                });
                self.maybe_increment_hw_and_complete(tp, cause, ctx);
            }
            Err(error) => {
                // Kafka: INELIGIBLE_REPLICA and OPERATION_NOT_ATTEMPTED revert to the committed
                // state; the other known errors leave it pending until new metadata arrives.
                if error == AlterPartitionError::IneligibleReplica {
                    p.revert_pending_isr();
                }
                ctx.emit(None, || Event::IsrChangeRejected {
                    broker,
                    tp: name,
                    error,
                });
            }
        }
    }

    /// Kafka: `ReplicaManager.applyDelta`: registrations into the cache, then
    /// `makeLeader` / `makeFollower` for each hosted partition, then the fetchers follow.
    pub fn apply_metadata(&mut self, delta: &MetadataDelta, cause: Option<EventId>, ctx: &mut Ctx) {
        for &(broker, reg) in &delta.brokers {
            self.registry.insert(broker, reg);
        }
        for record in &delta.partitions {
            if record.assignment.contains(&self.id) {
                self.apply_partition_record(record, cause, ctx);
            }
        }
        self.sync_fetchers(cause, ctx);
    }

    fn apply_partition_record(
        &mut self,
        record: &PartitionRecord,
        cause: Option<EventId>,
        ctx: &mut Ctx,
    ) {
        let tp = record.tp;
        let Some(p) = self.partitions.get_mut(&tp) else {
            return;
        };
        if record.partition_epoch < p.partition_epoch && record.leader_epoch <= p.leader_epoch {
            return; // Kafka skips a record older than what it has.
        }
        let (broker, name) = (self.id, ctx.tp_name(tp));
        if record.leader == Some(self.id) {
            // Our own committed AlterPartition coming back (same leader epoch, a partition epoch
            // the response already gave us): Kafka's `makeLeader` still stores the committed ISR
            // (b.12), which drops an ISR change proposed since the response (its answer is then
            // ignored, and the controller's record of it arrives as metadata later). Said in the
            // trace only when it drops one; otherwise nothing changes.
            let echo = p.is_leader()
                && record.leader_epoch == p.leader_epoch
                && record.partition_epoch <= p.partition_epoch;
            if echo && p.isr_state == IsrState::Committed && p.isr == record.isr {
                return;
            }
            let dropped_proposal = p.pending_proposal();
            let new_epoch = p.make_leader(
                record.leader_epoch,
                record.isr.clone(),
                record.partition_epoch,
                ctx.now_ms,
            );
            let start = p.leader_epoch_start_offset.unwrap_or(0);
            let id = if new_epoch {
                let id = ctx.emit(cause, || Event::BecameLeader {
                    broker,
                    tp: name,
                    leader_epoch: record.leader_epoch,
                    isr: record.isr.clone(),
                    leader_epoch_start_offset: start,
                });
                self.note_lost_acknowledged(tp, id, ctx);
                id
            } else {
                ctx.emit(cause, || Event::IsrUpdated {
                    broker,
                    tp: name,
                    isr: record.isr.clone(),
                    partition_epoch: record.partition_epoch,
                    dropped_proposal,
                })
            };
            self.maybe_increment_hw_and_complete(tp, id, ctx);
        } else {
            let was_leader = p.is_leader();
            let changed = p.make_follower(
                record.leader,
                record.leader_epoch,
                record.isr.clone(),
                record.partition_epoch,
            );
            if !changed {
                return;
            }
            let id = ctx.emit(cause, || Event::BecameFollower {
                broker,
                tp: name,
                leader: record.leader,
                leader_epoch: record.leader_epoch,
            });
            if was_leader {
                // Kafka: `completeDelayedOperationsWhenNotPartitionLeader`: waiting produce
                // requests see "not leader" in tryComplete and answer NOT_LEADER_OR_FOLLOWER now.
                self.complete_delayed_requests(&[tp], id, ctx);
            }
        }
    }
}

impl Broker {
    /// Now that this broker leads `tp`, its log is the partition's: acknowledged records it
    /// lacks are lost, each said once in the trace (the result lists them too).
    fn note_lost_acknowledged(&self, tp: TopicPartition, cause: Option<EventId>, ctx: &mut Ctx) {
        let p = &self.partitions[&tp];
        let (leader, leader_epoch, log) = (self.id, p.leader_epoch, &p.log);
        let names: &[std::rc::Rc<str>] = ctx.topic_names;
        let topic = &names[tp.topic as usize];
        let lost = ctx
            .requests
            .note_lost(
                (topic, tp.partition),
                |base, count, epoch| log.holds(base, count, epoch),
                (ctx.now_ms, leader, leader_epoch),
            )
            .to_vec();
        if lost.is_empty() || !ctx.trace.enabled() {
            return;
        }
        let events: Vec<Event> = lost
            .iter()
            .map(|l| Event::AcknowledgedRecordsLost {
                request: ctx.requests.get(l.request).id.to_string(),
                tp: ctx.tp_name(tp),
                first_offset: l.first_offset,
                last_offset: l.last_offset,
                acks: ctx.requests.get(l.request).acks,
                acknowledged_by: l.acknowledged_by,
                acknowledged_epoch: l.acknowledged_epoch,
                leader,
                leader_epoch,
                leader_log_end_offset: log.log_end_offset(),
            })
            .collect();
        for event in events {
            ctx.emit(cause, || event);
        }
    }

    /// The process stops. Logs and high watermarks stay on disk; everything in memory (the
    /// purgatories, the fetchers, what it knew as leader) is gone.
    pub fn crash(&mut self, now_ms: u64, config: &Config) {
        self.running = false;
        self.fetching_paused = false;
        self.produce_purgatory = produce_purgatory(config, now_ms);
        self.fetch_purgatory = fetch_purgatory(now_ms);
        self.fetchers.clear();
        for p in self.partitions.values_mut() {
            p.remote_replicas.clear();
        }
    }

    /// The process starts again with its logs, loads the metadata the controller has published
    /// (as a broker replays the metadata log at startup) and follows every partition's leader.
    /// Where the metadata still names this broker as leader, it waits for the controller to
    /// process its registration instead of leading with a stale state.
    pub fn restart(
        &mut self,
        broker_epoch: u64,
        registry: BrokerRegistry,
        records: &[PartitionRecord],
        cause: Option<EventId>,
        ctx: &mut Ctx,
    ) {
        self.running = true;
        self.broker_epoch = broker_epoch;
        self.registry = registry;
        self.produce_purgatory = produce_purgatory(ctx.config, ctx.now_ms);
        self.fetch_purgatory = fetch_purgatory(ctx.now_ms);
        for record in records {
            let Some(p) = self.partitions.get_mut(&record.tp) else {
                continue;
            };
            let leader = record.leader.filter(|&l| l != self.id);
            p.leader = None; // not leading until the controller says so again
            p.make_follower(
                leader,
                record.leader_epoch,
                record.isr.clone(),
                record.partition_epoch,
            );
        }
        self.sync_fetchers(cause, ctx);
    }
}
