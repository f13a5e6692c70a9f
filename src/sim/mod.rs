//! The deterministic event loop: one cluster (brokers, controller, network), advanced one
//! simulated millisecond at a time, jumping over idle stretches. Its only inputs are the config,
//! the topics and timed actions; the runner, the tests and the page all drive this same core.
//!
//! - `action`: what a scenario or a person can do;
//! - `setup`: the cluster at t = 0;
//! - `queue`: the agenda of messages in flight and timers;
//! - `dispatch`: what each scheduled item does when it comes due;
//! - `actions`: applying actions;
//! - `report`: builds the result document, whose types are `result`;
//! - `invariants`: the checker tests run after every step;
//! - `meter`: what the work meter charges, and the idle fast-forward's period (the runner's
//!   budget, `scenario::budget`, estimates a run in these units);
//! - `fast_forward`: skipping idle stretches by whole periods, and muting their repetitions in
//!   the trace.

pub mod action;
mod actions;
mod client;
mod dispatch;
mod fast_forward;
pub mod invariants;
pub mod meter;
pub mod phases;
pub mod queue;
mod report;
pub mod result;
mod setup;
pub mod view;

pub use setup::SetupError;

use std::rc::Rc;

use crate::kafka::broker::Broker;
use crate::kafka::config::{Config, TopicSpec};
use crate::kafka::controller::Controller;
use crate::kafka::messages::FetchBuffers;
use crate::kafka::messages::{Ctx, Outgoing};
use crate::kafka::metadata::MetadataDelta;
use crate::kafka::requests::{RequestIdx, RequestLog};
use crate::kafka::trace::{Event, EventId, TpName, TpNames, Trace, TraceEvent};
use crate::kafka::{BrokerId, TopicPartition};
use action::TimedAction;
use queue::{Agenda, Scheduled};
use result::RunResult;

/// What the controller knows of a broker's heartbeats (kept lazily: a running broker's
/// heartbeats at t = 0, H, 2H, ... are implied, not simulated one by one).
#[derive(Clone, Copy, Debug)]
struct HeartbeatState {
    /// When the current process started (its first heartbeat), `None` while crashed.
    alive_since_ms: Option<u64>,
    /// Counts process starts, so a stale session timer is recognised.
    incarnation: u64,
    /// The process whose registration the controller holds: its session is the one that runs
    /// out. A process restarted while that session is still valid is refused until it has run
    /// out (see `Scheduled::RegistrationArrives`), and serves no request before its registration
    /// is accepted ([`Simulation::is_serving`]).
    registered_incarnation: u64,
    /// Set at a crash: when the last heartbeat left.
    last_sent_ms: u64,
    /// Set at the registered process's crash: when the controller's session timer for it runs
    /// out, and the crash's trace event (the cause of the fencing). A restart leaves it running;
    /// an accepted registration ends it.
    session_expiry_ms: Option<u64>,
    crash_event: Option<EventId>,
}

#[derive(Clone)]
pub struct Simulation {
    now_ms: u64,
    seed: u64,
    config: Config,
    /// Where each broker's ISR check and heartbeats fall (scenario-format.md, "Phases").
    phases: phases::Phases,
    topics: Vec<TopicSpec>,
    /// Each topic's name, shared by the request log's answers and the result.
    topic_names: Vec<Rc<str>>,
    /// Every partition's `topic-partition` label, shared by the trace events that name it.
    tp_names: TpNames,
    brokers: Vec<Broker>,
    controller: Controller,
    heartbeats: Vec<HeartbeatState>,
    agenda: Agenda,
    /// When each broker's reaper wake is scheduled, to avoid piling up duplicates.
    reaper_wake_ms: Vec<Option<u64>>,
    /// Whether some broker holds timeouts collected this millisecond that have not run yet.
    timeouts_due: bool,
    /// Brokers whose reaper wake came this millisecond while some of their timeouts were still
    /// to run: their purge check waits for the last of them.
    purge_after_timeouts: Vec<bool>,
    requests: RequestLog,
    /// Actions not applied yet, in (time, file order).
    pending_actions: std::collections::VecDeque<TimedAction>,
    /// Every action applied, with its time: seed + config + this log replays the run.
    action_log: Vec<TimedAction>,
    /// Whether to keep `action_log` (the page does, to export and replay a session; the runner
    /// plays a file that already is the log).
    record_actions: bool,
    /// How many actions have been applied, and the number and reason of the last one the model
    /// ignored (restarting a running broker): what a person's command hears back.
    actions_applied: u64,
    last_ignored: Option<(u64, String)>,
    trace: Trace,
    outbox: Vec<(Outgoing, Option<EventId>)>,
    fetch_buffers: FetchBuffers,
    /// The work meter's weights: partitions in the cluster, and what one partition of a fetch
    /// costs (see [`meter::Weights`]).
    weights: meter::Weights,
    /// The partition list of the produce request being applied, kept for the next one.
    produce_partitions: Vec<(usize, TopicPartition, u64)>,
    /// The producers' deadlines that came due in this millisecond, checked once it has run
    /// (see `client.rs`); empty between steps.
    client_deadlines_due: Vec<(RequestIdx, Option<EventId>)>,
    /// Whether the controller's next leader-imbalance check is on the agenda (only with
    /// `leader_imbalance_check_interval_ms` set).
    leader_balance_check_pending: bool,
    /// The work meter (see [`Simulation::work_done`]).
    work_done: u64,
    /// Whether instant 0 has begun (see `setup::start`).
    started: bool,
    /// The idle fast-forward's probe, stretch and counts (see `fast_forward`).
    fast_forward: fast_forward::FastForward,
}

impl Simulation {
    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn phases(&self) -> &phases::Phases {
        &self.phases
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn topics(&self) -> &[TopicSpec] {
        &self.topics
    }

    pub fn brokers(&self) -> &[Broker] {
        &self.brokers
    }

    pub fn controller(&self) -> &Controller {
        &self.controller
    }

    pub fn requests(&self) -> &RequestLog {
        &self.requests
    }

    pub fn agenda(&self) -> &Agenda {
        &self.agenda
    }

    pub fn action_log(&self) -> &[TimedAction] {
        &self.action_log
    }

    /// Keep (the default) or stop keeping the log of applied actions.
    pub fn set_record_actions(&mut self, on: bool) {
        self.record_actions = on;
    }

    /// Takes the trace events recorded since the last call.
    pub fn drain_trace(&mut self) -> Vec<TraceEvent> {
        self.trace.drain()
    }

    /// Why the model ignored the last action it applied, if it did (a command's answer).
    pub fn last_action_ignored(&self) -> Option<&str> {
        match &self.last_ignored {
            Some((ordinal, reason)) if ordinal + 1 == self.actions_applied => Some(reason),
            _ => None,
        }
    }

    /// Queues an action for `at_ms` (not before now). Actions at one millisecond apply in the
    /// order they were queued.
    pub fn schedule_action(&mut self, action: TimedAction) {
        let at = action.at_ms.max(self.now_ms);
        let action = TimedAction {
            at_ms: at,
            ..action
        };
        // A program queueing a stretch of actions does so in time order: each goes at the end,
        // without searching the queue for its place.
        if self.pending_actions.back().is_none_or(|a| a.at_ms <= at) {
            self.pending_actions.push_back(action);
            return;
        }
        let index = self.pending_actions.partition_point(|a| a.at_ms <= at);
        self.pending_actions.insert(index, action);
    }

    /// The work meter: what the run has cost so far, in units that track the time it takes
    /// (each action, delivery, timer and timeout counts one, plus one per partition it carries or
    /// looks at). Deterministic, unlike a clock: the runner's work budget (`scenario::budget`) and the
    /// page's per-call budget count in these units.
    pub fn work_done(&self) -> u64 {
        self.work_done
    }

    fn work_of(&self, item: &Scheduled) -> u64 {
        let w = &self.weights;
        1 + match item {
            Scheduled::FetchArrives(r) => r.partitions.len() as u64 * w.fetch_partition,
            Scheduled::FetchResponseArrives(r) => r.partitions.len() as u64 * w.fetch_partition,
            Scheduled::MetadataArrives { delta, .. } => delta.partitions.len() as u64,
            // The check looks at every partition slot of the broker's table.
            Scheduled::IsrExpiration { .. } => w.partitions,
            _ => 0,
        }
    }

    /// When the next thing happens, if anything is left.
    pub fn next_event_ms(&self) -> Option<u64> {
        if !self.started {
            return Some(0);
        }
        let action = self.pending_actions.front().map(|a| a.at_ms);
        match (action, self.agenda.next_at_ms()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Runs everything due up to and including `until_ms`, then sets the clock to `until_ms`.
    pub fn run_until(&mut self, until_ms: u64) {
        while self.advance_within(until_ms).is_some() {}
    }

    /// Skips an idle stretch (see `fast_forward`), then processes the next instant that has
    /// anything to do if it comes at or before `until_ms` and returns its time; otherwise moves
    /// the clock to `until_ms` and returns `None`. A loop of these is `run_until`.
    pub fn advance_within(&mut self, until_ms: u64) -> Option<u64> {
        self.fast_forward_idle(until_ms);
        self.step_within(until_ms)
    }

    /// Processes the next instant that has anything to do if it comes at or before `until_ms`
    /// and returns its time; otherwise moves the clock to `until_ms` (when that is later) and
    /// returns `None`. A loop of these is `run_until`, cut into steps a caller can count.
    pub fn step_within(&mut self, until_ms: u64) -> Option<u64> {
        match self.next_event_ms() {
            Some(next) if next <= until_ms => {
                self.step_to(next);
                Some(next)
            }
            _ => {
                self.now_ms = self.now_ms.max(until_ms);
                None
            }
        }
    }

    /// The actions not applied yet, in the order they will apply.
    pub fn pending_actions(&self) -> impl Iterator<Item = &TimedAction> {
        self.pending_actions.iter()
    }

    /// Replaces the actions not applied yet (a session that forks keeps its script and drops a
    /// person's later actions). Each must come at or after now; they apply in the given order
    /// within a millisecond.
    pub fn replace_pending_actions(&mut self, actions: impl IntoIterator<Item = TimedAction>) {
        self.pending_actions.clear();
        for action in actions {
            self.schedule_action(action);
        }
    }

    /// Processes the next instant that has anything to do; returns its time.
    pub fn step(&mut self) -> Option<u64> {
        let next = self.next_event_ms()?;
        self.step_to(next);
        Some(next)
    }

    /// One simulated millisecond: the actions due, in order, then deliveries and timers in the
    /// order they were scheduled (including those scheduled during this millisecond for it). A
    /// delayed operation's timeout counts as scheduled when its operation was added: the reaper
    /// takes what is due off the wheels first, and each timeout then runs at its own place.
    fn step_to(&mut self, at_ms: u64) {
        debug_assert!(at_ms >= self.now_ms, "time never goes back");
        self.now_ms = at_ms;
        if !self.started {
            self.start();
        }
        self.idle_instant_begins(at_ms);
        while self
            .pending_actions
            .front()
            .is_some_and(|a| a.at_ms <= at_ms)
        {
            let action = self.pending_actions.pop_front().expect("checked");
            self.work_done += action.action.work();
            self.apply_action(action);
            self.flush_outbox();
        }
        self.collect_due_timeouts();
        loop {
            let item = self.agenda.next_due_seq(at_ms);
            let timeout = self.next_due_timeout();
            match (item, timeout) {
                (None, None) => break,
                (_, Some((order, broker))) if item.is_none_or(|seq| order < seq) => {
                    self.work_done += 1;
                    self.run_due_timeout(broker);
                }
                _ => {
                    let (item, cause) = self.agenda.pop_due(at_ms).expect("due");
                    let touched = item.purgatory_broker();
                    self.work_done += self.work_of(&item);
                    self.dispatch(item, cause);
                    self.flush_outbox();
                    if let Some(b) = touched {
                        self.refresh_reaper_wake(b);
                    }
                }
            }
        }
        self.check_client_deadlines();
        self.idle_instant_ended(at_ms);
    }

    /// The first half of the reaper step of every broker whose reaper wakes now: the timing
    /// wheels advance and hand back the timeouts due now, to run at their own places.
    fn collect_due_timeouts(&mut self) {
        for b in 0..self.brokers.len() {
            if self.reaper_wake_ms[b] == Some(self.now_ms) && self.brokers[b].running {
                self.brokers[b].collect_due_timeouts(self.now_ms);
                self.timeouts_due |= self.brokers[b].next_due_timeout().is_some();
            }
        }
    }

    /// The earliest collected timeout that has not run, by its place in the schedule, and its
    /// broker.
    fn next_due_timeout(&mut self) -> Option<(u64, BrokerId)> {
        if !self.timeouts_due {
            return None;
        }
        let next = self
            .brokers
            .iter()
            .filter_map(|b| b.next_due_timeout().map(|order| (order, b.id)))
            .min();
        self.timeouts_due = next.is_some();
        next
    }

    /// Runs one collected timeout; after a broker's last one, the purge check its reaper wake
    /// left for then.
    fn run_due_timeout(&mut self, broker: BrokerId) {
        self.with_broker(broker, |b, ctx| b.run_next_due_timeout(ctx));
        let b = broker.0 as usize;
        if self.purge_after_timeouts[b] && self.brokers[b].next_due_timeout().is_none() {
            self.purge_after_timeouts[b] = false;
            self.with_broker(broker, |b, ctx| b.reaper_purge_step(ctx));
        }
        self.flush_outbox();
        self.refresh_reaper_wake(broker);
    }

    /// Splits the borrows so a broker handler can see the shared context. What the handler sends
    /// waits in the outbox until [`Self::flush_outbox`].
    fn with_broker<R>(
        &mut self,
        broker: BrokerId,
        f: impl FnOnce(&mut Broker, &mut Ctx) -> R,
    ) -> R {
        let mut ctx = Ctx {
            now_ms: self.now_ms,
            config: &self.config,
            topic_names: &self.topic_names,
            tp_names: &self.tp_names,
            outbox: &mut self.outbox,
            trace: &mut self.trace,
            requests: &mut self.requests,
            fetch_buffers: &mut self.fetch_buffers,
            schedule_seq: self.agenda.seq_counter(),
        };
        f(&mut self.brokers[broker.0 as usize], &mut ctx)
    }

    /// Turns what the handlers sent into scheduled deliveries.
    fn flush_outbox(&mut self) {
        let d = self.config.network_delay_ms;
        // Drained in place, so the buffer's capacity is reused event after event.
        for (out, cause) in self.outbox.drain(..) {
            let (at_ms, what) = match out {
                Outgoing::Fetch(request) => (self.now_ms + d, Scheduled::FetchArrives(request)),
                Outgoing::FetchResponse(response) => {
                    (self.now_ms + d, Scheduled::FetchResponseArrives(response))
                }
                Outgoing::AlterPartition { leader, proposal } => (
                    self.now_ms + self.config.alter_partition_delay_ms,
                    Scheduled::AlterPartitionDone { leader, proposal },
                ),
                Outgoing::FetcherWake {
                    follower,
                    leader,
                    at_ms,
                } => (
                    at_ms.max(self.now_ms),
                    Scheduled::FetcherWake { follower, leader },
                ),
            };
            if at_ms == self.now_ms + d {
                self.agenda.schedule_delivery(at_ms, what, cause);
            } else {
                self.agenda.schedule(at_ms, what, cause);
            }
        }
    }

    /// Schedules a reaper wake if the broker's purgatories need one earlier than planned.
    fn refresh_reaper_wake(&mut self, broker: BrokerId) {
        let b = broker.0 as usize;
        if !self.brokers[b].running {
            return;
        }
        let Some(next) = self.brokers[b].next_reaper_wake_ms(self.now_ms) else {
            return;
        };
        let next = next.max(self.now_ms);
        if self.reaper_wake_ms[b].is_none_or(|planned| next < planned) {
            self.reaper_wake_ms[b] = Some(next);
            self.agenda
                .schedule(next, Scheduled::ReaperWake { broker }, None);
        }
    }

    /// Publishes a controller decision: traced now, applied by each broker one network delay
    /// later.
    fn publish(&mut self, delta: MetadataDelta, cause: Option<EventId>) {
        if delta.is_empty() {
            return;
        }
        let mut last = cause;
        for record in &delta.partitions {
            let tp = self.tp_name(record.tp);
            let (leader, leader_epoch, isr, partition_epoch) = (
                record.leader,
                record.leader_epoch,
                record.isr.clone(),
                record.partition_epoch,
            );
            last = self
                .trace
                .emit(self.now_ms, cause, || Event::PartitionChanged {
                    tp,
                    leader,
                    leader_epoch,
                    isr,
                    partition_epoch,
                });
        }
        let delta = Rc::new(delta);
        for b in 0..self.brokers.len() {
            let broker = BrokerId(b as u32);
            self.agenda.schedule(
                self.now_ms + self.config.network_delay_ms,
                Scheduled::MetadataArrives {
                    broker,
                    delta: Rc::clone(&delta),
                },
                last,
            );
        }
        self.schedule_leader_balance_check();
    }

    /// Kafka: `QuorumController.maybeScheduleNextBalancePartitionLeaders`: once some partition
    /// leads elsewhere than its preferred replica, the controller checks a whole interval later
    /// (and again an interval after each check, while it still does).
    fn schedule_leader_balance_check(&mut self) {
        let interval = self.config.leader_imbalance_check_interval_ms;
        if interval == 0
            || self.leader_balance_check_pending
            || !self.controller.leaders_imbalanced()
        {
            return;
        }
        self.leader_balance_check_pending = true;
        self.agenda
            .schedule(self.now_ms + interval, Scheduled::LeaderBalanceCheck, None);
    }

    /// Kafka: `ReplicationControlManager.maybeBalancePartitionLeaders`: leadership back to each
    /// preferred replica that is in the ISR and unfenced (said only when some moves).
    fn on_leader_balance_check(&mut self) {
        self.leader_balance_check_pending = false;
        let delta = self.controller.balance_leaders();
        if delta.is_empty() {
            return self.schedule_leader_balance_check();
        }
        let partitions = delta
            .partitions
            .iter()
            .map(|r| self.tp_name(r.tp))
            .collect();
        let interval_ms = self.config.leader_imbalance_check_interval_ms;
        let id = self
            .trace
            .emit(self.now_ms, None, || Event::PreferredLeadersElected {
                partitions,
                interval_ms,
            });
        self.publish(delta, id);
    }

    /// The result document at the current time.
    pub fn result(&self, name: &str, run_until_ms: u64) -> RunResult {
        report::build(self, name, run_until_ms)
    }

    pub(crate) fn topic_index(&self, name: &str) -> Option<u32> {
        self.topic_names
            .iter()
            .position(|t| &**t == name)
            .map(|i| i as u32)
    }

    /// The topic-partition named by a scenario's `{topic, partition}`, if it exists.
    pub fn resolve(&self, topic: &str, partition: i64) -> Option<TopicPartition> {
        let t = self.topic_index(topic)?;
        let partition = u32::try_from(partition).ok()?;
        (partition < self.topics[t as usize].partitions).then_some(TopicPartition {
            topic: t,
            partition,
        })
    }

    /// Kafka's label for a partition: `topic-partition`.
    pub fn tp_name(&self, tp: TopicPartition) -> TpName {
        self.tp_names.get(tp.topic, tp.partition)
    }
}
