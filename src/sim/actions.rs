//! Applying the contract's actions (scenario-format.md, "Actions").

use std::rc::Rc;

use super::action::{Action, ProduceSpec, TimedAction};
use super::queue::Scheduled;
use super::Simulation;
use crate::kafka::errors::ErrorCode;
use crate::kafka::messages::ProduceCall;
use crate::kafka::reasons;
use crate::kafka::requests::{PartitionAnswer, ProduceRecord};
use crate::kafka::trace::{Event, TpName};
use crate::kafka::BrokerId;

impl Simulation {
    pub(super) fn apply_action(&mut self, action: TimedAction) {
        self.actions_applied += 1;
        match &action.action {
            Action::Produce(spec) => self.produce(spec),
            &Action::PauseFollower { broker } => self.set_paused(broker, true),
            &Action::ResumeFollower { broker } => self.set_paused(broker, false),
            &Action::CrashBroker { broker } => self.crash(broker),
            &Action::RestartBroker { broker } => self.restart(broker),
            Action::ElectLeader {
                topic,
                partition,
                broker,
            } => self.elect_leader(topic, *partition, *broker),
        }
        if self.record_actions {
            self.action_log.push(action);
        }
    }

    /// The action being applied changes nothing: the trace says why, and so does
    /// [`Simulation::last_action_ignored`].
    fn ignore(&mut self, action: &'static str, reason: String) {
        self.last_ignored = Some((self.actions_applied - 1, reason.clone()));
        self.trace.emit(self.now_ms, None, || Event::ActionIgnored {
            action,
            reason,
        });
    }

    fn valid_broker(&mut self, action: &'static str, broker: BrokerId) -> bool {
        let ok = (broker.0 as usize) < self.brokers.len();
        if !ok {
            self.ignore(action, reasons::no_broker(broker));
        }
        ok
    }

    /// One ProduceRequest reaching its broker: KafkaApis filters unknown partitions first, then
    /// `appendRecords` takes the rest.
    fn produce(&mut self, spec: &ProduceSpec) {
        // What `appendRecords` will get: the partitions that exist, with their slots in the
        // request, in slot order (so a slot missing from it is an unknown partition). The list
        // is the one the previous request used.
        let mut existing = std::mem::take(&mut self.produce_partitions);
        existing.clear();
        existing.extend(spec.records.iter().enumerate().filter_map(|(slot, r)| {
            let tp = self.resolve(&r.topic, r.partition)?;
            Some((slot, tp, u64::from(r.count)))
        }));
        let unknown = |slot: usize| existing.binary_search_by_key(&slot, |p| p.0).is_err();
        let broker = spec.broker.unwrap_or_else(|| {
            existing
                .iter()
                .find_map(|(_, tp, _)| self.controller.partitions[tp].leader)
                .unwrap_or(BrokerId(0))
        });
        let timeout_ms = spec.timeout_ms.unwrap_or(self.config.request_timeout_ms);
        let down = (broker.0 as usize) >= self.brokers.len() || !self.is_serving(broker);
        // Borrows only the names, so the answers can go straight into the request log.
        let topics = &self.topic_names;
        let partitions = spec
            .records
            .iter()
            .enumerate()
            .map(|(slot, r)| PartitionAnswer {
                topic: shared_topic_name(topics, &r.topic),
                partition: r.partition,
                error: (unknown(slot) && !down).then_some(ErrorCode::UnknownTopicOrPartition),
                base_offset: -1,
                count: u64::from(r.count),
                leader_epoch: 0,
            });
        let record = ProduceRecord {
            id: Rc::clone(&spec.id),
            broker,
            acks: spec.acks,
            timeout_ms,
            received_ms: self.now_ms,
            responded_ms: None,
            connection_closed: down,
            client_gave_up: false,
        };
        let request = self.requests.push(record, partitions);
        let received = self
            .trace
            .emit(self.now_ms, None, || Event::ProduceReceived {
                request: spec.id.to_string(),
                broker,
                acks: spec.acks,
                timeout_ms,
                partitions: spec
                    .records
                    .iter()
                    .map(|r| {
                        (
                            format!("{}-{}", r.topic, r.partition).into(),
                            r.count as u64,
                        )
                    })
                    .collect(),
            });
        if down {
            let reason = if (broker.0 as usize) < self.brokers.len() && self.is_running(broker) {
                reasons::not_registered(broker)
            } else {
                reasons::connection_refused(broker)
            };
            self.trace
                .emit(self.now_ms, received, || Event::ConnectionClosed {
                    request: spec.id.to_string(),
                    broker,
                    reason,
                });
            return;
        }
        for (slot, r) in spec.records.iter().enumerate() {
            if unknown(slot) {
                let tp: TpName = format!("{}-{}", r.topic, r.partition).into();
                self.trace
                    .emit(self.now_ms, received, || Event::ProducePartitionRejected {
                        request: spec.id.to_string(),
                        broker,
                        tp,
                        error: ErrorCode::UnknownTopicOrPartition.name(),
                        reason: reasons::UNKNOWN_PARTITION.into(),
                    });
            }
        }
        // The producer's own deadline, checked once its millisecond has run (see `client.rs`).
        self.schedule_client_deadline(request, received);
        let call = ProduceCall {
            request,
            acks: spec.acks,
            timeout_ms,
            partitions: existing,
        };
        self.with_broker(broker, |b, ctx| b.handle_produce(&call, received, ctx));
        self.produce_partitions = call.partitions;
        self.refresh_reaper_wake(broker);
    }

    fn set_paused(&mut self, broker: BrokerId, paused: bool) {
        let action = if paused {
            "pause_follower"
        } else {
            "resume_follower"
        };
        if !self.valid_broker(action, broker) {
            return;
        }
        if !self.is_running(broker) {
            return self.ignore(action, reasons::broker_down(broker));
        }
        // The contract's pause is a switch: flipped to where it already is, it changes nothing
        // (a resume does not send the fetches of a follower that never stopped).
        if self.brokers[broker.0 as usize].fetching_paused == paused {
            let reason = if paused {
                reasons::already_paused(broker)
            } else {
                reasons::not_paused(broker)
            };
            return self.ignore(action, reason);
        }
        let event = if paused {
            Event::FollowerPaused { broker }
        } else {
            Event::FollowerResumed { broker }
        };
        let id = self.trace.emit(self.now_ms, None, || event);
        self.with_broker(broker, |b, ctx| {
            b.fetching_paused = paused;
            if !paused {
                b.send_idle_fetches(id, ctx);
            }
        });
    }

    /// The process stops: its purgatories and fetchers are gone, waiting clients see their
    /// connections drop, followers fetching from it notice a hop later, and the controller fences
    /// it once its session times out.
    fn crash(&mut self, broker: BrokerId) {
        if !self.valid_broker("crash_broker", broker) {
            return;
        }
        if !self.is_running(broker) {
            return self.ignore("crash_broker", reasons::already_down(broker));
        }
        let id = self
            .trace
            .emit(self.now_ms, None, || Event::BrokerCrashed { broker });
        self.with_broker(broker, |b, ctx| {
            b.drop_waiting_produce_requests(id, ctx);
            b.crash(ctx.now_ms, ctx.config);
        });
        self.reaper_wake_ms[broker.0 as usize] = None;
        self.purge_after_timeouts[broker.0 as usize] = false;
        let d = self.config.network_delay_ms;
        for follower in &self.brokers {
            if let Some(session) = follower.fetchers.get(&broker).and_then(|f| f.in_flight) {
                let at = self.now_ms + d;
                self.agenda.schedule(
                    at,
                    Scheduled::FetchFailed {
                        follower: follower.id,
                        leader: broker,
                        session,
                    },
                    id,
                );
            }
        }
        let hb = &mut self.heartbeats[broker.0 as usize];
        let started = hb.alive_since_ms.take().unwrap_or(0);
        if hb.registered_incarnation != hb.incarnation {
            // This process was never registered: the controller still holds an earlier one's
            // registration, whose session runs on as it was.
            return;
        }
        // Heartbeats are timers, which run after actions within a millisecond: none leaves now.
        // The process's start counts as one (a restart sends one at once; at t = 0 the broker
        // has registered), then its grid: ψ + k·H for the first process, every H from its start
        // for a restarted one.
        let restarted_at_ms = (hb.incarnation > 0).then_some(started);
        let last_beat = match self.now_ms.checked_sub(1) {
            Some(before) if self.now_ms > started => self.phases.last_heartbeat_at_or_before(
                broker,
                restarted_at_ms,
                self.config.broker_heartbeat_interval_ms,
                before,
            ),
            _ => None,
        };
        let hb = &mut self.heartbeats[broker.0 as usize];
        hb.last_sent_ms = started.max(last_beat.unwrap_or(0));
        let incarnation = hb.incarnation;
        let expiry =
            self.last_heartbeat_arrival_ms(broker) + self.config.broker_session_timeout_ms + 1;
        let expiry = expiry.max(self.now_ms);
        let hb = &mut self.heartbeats[broker.0 as usize];
        hb.session_expiry_ms = Some(expiry);
        hb.crash_event = id;
        self.agenda.schedule(
            expiry,
            Scheduled::SessionExpiry {
                broker,
                incarnation,
            },
            id,
        );
    }

    /// The process comes back with its log, as a follower of everything it hosts (it does not
    /// act as leader before the controller has processed its registration), and registers.
    fn restart(&mut self, broker: BrokerId) {
        if !self.valid_broker("restart_broker", broker) {
            return;
        }
        if self.is_running(broker) {
            return self.ignore("restart_broker", reasons::already_running(broker));
        }
        let hb = &mut self.heartbeats[broker.0 as usize];
        hb.alive_since_ms = Some(self.now_ms);
        hb.incarnation += 1;
        let broker_epoch = hb.incarnation;
        // Kafka's scheduler starts with the broker: its ISR checks run from the restart on, every
        // L/2 (scenario-format.md, "Phases"); the series before the crash ends.
        self.agenda.schedule(
            self.now_ms,
            Scheduled::IsrExpiration {
                broker,
                incarnation: broker_epoch,
            },
            None,
        );
        let id = self
            .trace
            .emit(self.now_ms, None, || Event::BrokerRestarted {
                broker,
                broker_epoch,
            });
        let registry = self.controller.registry.clone();
        let records: Vec<_> = self.controller.partitions.values().cloned().collect();
        self.with_broker(broker, |b, ctx| {
            b.restart(broker_epoch, registry, &records, id, ctx)
        });
        let at = self.now_ms + self.config.network_delay_ms;
        self.agenda.schedule(
            at,
            Scheduled::RegistrationArrives {
                broker,
                broker_epoch,
            },
            id,
        );
    }

    fn elect_leader(&mut self, topic: &str, partition: i64, broker: BrokerId) {
        if !self.valid_broker("elect_leader", broker) {
            return;
        }
        let Some(tp) = self.resolve(topic, partition) else {
            return self.ignore("elect_leader", reasons::no_partition(topic, partition));
        };
        let result = if self.is_running(broker) {
            self.controller.elect_leader(tp, broker)
        } else {
            Err(crate::kafka::controller::ElectionRefused::BrokerDown)
        };
        match result {
            Ok(delta) => self.publish(delta, None),
            Err(reason) => {
                let name = self.tp_name(tp);
                self.trace
                    .emit(self.now_ms, None, || Event::LeaderElectionRefused {
                        tp: name,
                        broker,
                        reason,
                    });
            }
        }
    }
}

/// A topic name as an `Rc<str>`: the cluster's own copy when the topic exists.
fn shared_topic_name(topics: &[Rc<str>], name: &str) -> Rc<str> {
    match topics.iter().find(|t| t[..] == *name) {
        Some(t) => Rc::clone(t),
        None => Rc::from(name),
    }
}
