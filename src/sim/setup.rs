//! The cluster at t = 0: the setup checked, the brokers and partitions built as the scenario
//! contract says, each follower's first fetch sent, the ISR checks scheduled.

use std::rc::Rc;

use super::action::TimedAction;
use super::phases::Phases;
use super::queue::{Agenda, Scheduled};
use super::{HeartbeatState, Simulation};
use crate::kafka::broker::Broker;
use crate::kafka::config::{Config, TopicSpec};
use crate::kafka::controller::Controller;
use crate::kafka::messages::FetchBuffers;
use crate::kafka::messages::Outgoing;
use crate::kafka::metadata::{BrokerRegistry, PartitionRecord};
use crate::kafka::partition::Partition;
use crate::kafka::requests::RequestLog;
use crate::kafka::tp_map::HostedPartitions;
use crate::kafka::trace::{TpNames, Trace};
use crate::kafka::{BrokerId, TopicPartition};

/// Why a setup was refused (only reachable through the API; scenario files are validated first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError(pub String);

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Simulation {
    /// The cluster at t = 0 (scenario contract): replicas of partition p are brokers
    /// (p + i) mod n, the first leads at epoch 0, everyone is in the ISR, logs are empty, and each
    /// follower has a fetch at offset 0 parked at its leader.
    pub fn new(
        seed: u64,
        config: Config,
        topics: Vec<TopicSpec>,
        trace: bool,
    ) -> Result<Self, SetupError> {
        validate_setup(&config, &topics)?;
        let n = config.brokers;
        let mut hosted: Vec<HostedPartitions> = vec![HostedPartitions::default(); n as usize];
        let mut records = Vec::new();
        for (t, topic) in topics.iter().enumerate() {
            for partition in 0..topic.partitions {
                let tp = TopicPartition {
                    topic: t as u32,
                    partition,
                };
                let assignment: Vec<BrokerId> = (0..topic.replication_factor)
                    .map(|i| BrokerId((partition + i) % n))
                    .collect();
                for &b in &assignment {
                    hosted[b.0 as usize].insert(tp, Partition::initial(tp, b, assignment.clone()));
                }
                let mut isr = assignment.clone();
                isr.sort();
                let leader = Some(assignment[0]);
                records.push(PartitionRecord {
                    tp,
                    assignment,
                    leader,
                    leader_epoch: 0,
                    isr,
                    partition_epoch: 0,
                });
            }
        }
        let brokers = hosted
            .into_iter()
            .enumerate()
            .map(|(b, parts)| Broker::new(BrokerId(b as u32), &config, parts))
            .collect();
        let weights = super::meter::Weights::new(&topics);
        Ok(Simulation {
            now_ms: 0,
            seed,
            phases: Default::default(),
            topic_names: topics.iter().map(|t| Rc::from(t.name.as_str())).collect(),
            tp_names: TpNames::new(topics.iter().map(|t| (t.name.as_str(), t.partitions))),
            topics,
            brokers,
            controller: Controller::new(BrokerRegistry::new(n), records),
            heartbeats: vec![
                HeartbeatState {
                    alive_since_ms: Some(0),
                    incarnation: 0,
                    registered_incarnation: 0,
                    last_sent_ms: 0,
                    session_expiry_ms: None,
                    crash_event: None,
                };
                n as usize
            ],
            agenda: Agenda::default(),
            reaper_wake_ms: vec![None; n as usize],
            timeouts_due: false,
            purge_after_timeouts: vec![false; n as usize],
            requests: RequestLog::default(),
            pending_actions: Default::default(),
            action_log: Vec::new(),
            record_actions: true,
            trace: Trace::new(trace),
            outbox: Vec::new(),
            fetch_buffers: FetchBuffers::default(),
            produce_partitions: Vec::new(),
            client_deadlines_due: Vec::new(),
            leader_balance_check_pending: false,
            actions_applied: 0,
            last_ignored: None,
            work_done: 0,
            started: false,
            fast_forward: Default::default(),
            weights,
            config,
        })
    }

    /// A simulation with these actions queued (in time order; actions of one millisecond in the
    /// order given) and the brokers' beats at these phases: what a scenario file describes,
    /// without the file (`Simulation::from_scenario` reads one into this).
    pub fn with_actions(
        seed: u64,
        config: Config,
        topics: Vec<TopicSpec>,
        phases: Phases,
        mut actions: Vec<TimedAction>,
        trace: bool,
    ) -> Result<Self, SetupError> {
        let mut sim = Simulation::new(seed, config, topics, trace)?;
        sim.phases = phases;
        actions.sort_by_key(|a| a.at_ms); // stable: file order within a millisecond
        sim.pending_actions = actions.into();
        Ok(sim)
    }

    /// The cluster's first moves, at the start of instant 0 (before its actions): the followers'
    /// first fetches and the ISR checks are scheduled. Done in the first step rather than at
    /// construction so that a simulation as built has traced nothing yet: its trace starts
    /// empty, and a copy of it (a session's first checkpoint) has no events to copy.
    pub(super) fn start(&mut self) {
        self.started = true;
        // Each follower's first fetch reaches its leader at t = 0 and parks there. It arrives
        // like any other message, after the actions of t = 0 (scenario-format.md, "Timing
        // rules"): with a fetch wait of 0 it is answered at once, and only the actions come
        // before it can see a produce of t = 0.
        for b in 0..self.brokers.len() {
            self.with_broker(BrokerId(b as u32), |broker, ctx| {
                broker.sync_fetchers(None, ctx)
            });
        }
        for (out, cause) in std::mem::take(&mut self.outbox) {
            match out {
                Outgoing::Fetch(request) => {
                    self.agenda
                        .schedule_delivery(0, Scheduled::FetchArrives(request), cause)
                }
                other => self.outbox.push((other, cause)),
            }
        }
        self.flush_outbox();
        // Each broker's ISR check starts at its phase (0 unless the scenario moves it).
        for b in 0..self.brokers.len() {
            let broker = BrokerId(b as u32);
            let at_ms = self.phases.isr_check_ms.of(broker);
            let check = Scheduled::IsrExpiration {
                broker,
                incarnation: 0,
            };
            self.agenda.schedule(at_ms, check, None);
        }
    }
}

fn validate_setup(config: &Config, topics: &[TopicSpec]) -> Result<(), SetupError> {
    if !(1..=64).contains(&config.brokers) {
        return Err(SetupError(format!(
            "brokers must be 1-64, not {}",
            config.brokers
        )));
    }
    for t in topics {
        if !(1..=1024).contains(&t.partitions) {
            return Err(SetupError(format!(
                "topic {}: partitions must be 1-1024",
                t.name
            )));
        }
        if t.replication_factor < 1 || t.replication_factor > config.brokers {
            return Err(SetupError(format!(
                "topic {}: replication_factor must be 1-{}",
                t.name, config.brokers
            )));
        }
    }
    Ok(())
}
