//! What each scheduled item does when it comes due.

use super::queue::Scheduled;
use super::Simulation;
use crate::kafka::trace::{Event, EventId};
use crate::kafka::BrokerId;

impl Simulation {
    pub(super) fn dispatch(&mut self, item: Scheduled, cause: Option<EventId>) {
        match item {
            Scheduled::FetchArrives(request) => {
                let (leader, follower, session) =
                    (request.leader, request.follower, request.session);
                if self.is_serving(leader) {
                    self.with_broker(leader, |b, ctx| b.handle_fetch(request, cause, ctx));
                } else {
                    // Nobody listens: the follower sees the connection refused a hop later.
                    let at = self.now_ms + self.config.network_delay_ms;
                    self.agenda.schedule(
                        at,
                        Scheduled::FetchFailed {
                            follower,
                            leader,
                            session,
                        },
                        cause,
                    );
                }
            }
            Scheduled::FetchResponseArrives(response) => {
                if self.is_running(response.follower) {
                    let follower = response.follower;
                    self.with_broker(follower, |b, ctx| b.on_fetch_response(response, cause, ctx));
                }
            }
            Scheduled::FetchFailed {
                follower,
                leader,
                session,
            } => {
                if self.is_running(follower) {
                    self.with_broker(follower, |b, ctx| {
                        b.on_fetch_failed(leader, session, cause, ctx)
                    });
                }
            }
            Scheduled::FetcherWake { follower, leader } => {
                if self.is_running(follower) {
                    self.with_broker(follower, |b, ctx| b.send_fetch(leader, cause, ctx));
                }
            }
            Scheduled::AlterPartitionDone { leader, proposal } => {
                let result = self.controller.alter_partition(&proposal);
                if let Ok(record) = &result {
                    let delta = crate::kafka::metadata::MetadataDelta {
                        partitions: vec![record.clone()],
                        brokers: vec![],
                    };
                    self.publish(delta, cause);
                }
                if self.is_running(leader) {
                    self.with_broker(leader, |b, ctx| {
                        b.on_alter_partition_result(&proposal, result, ctx)
                    });
                }
            }
            Scheduled::ReaperWake { broker } => {
                let b = broker.0 as usize;
                if self.reaper_wake_ms[b] != Some(self.now_ms) {
                    return; // superseded by an earlier wake
                }
                self.reaper_wake_ms[b] = None;
                if !self.is_running(broker) {
                    return;
                }
                // What was due now was taken off the wheels at the start of this millisecond
                // (see `step_to`). A bucket offered since then may still be due already: the
                // wheels lag the clock, so an entry added now can land in a coarse bucket whose
                // start has passed. Advancing them cascades it; nothing in it is due before the
                // next millisecond.
                self.brokers[b].collect_due_timeouts(self.now_ms);
                // Kafka's reaper checks for a purge after expiring what was due, so while some
                // of this broker's timeouts are still to run here, the check waits for them.
                if self.brokers[b].next_due_timeout().is_some() {
                    self.timeouts_due = true;
                    self.purge_after_timeouts[b] = true;
                } else {
                    self.with_broker(broker, |b, ctx| b.reaper_purge_step(ctx));
                }
            }
            Scheduled::IsrExpiration {
                broker,
                incarnation,
            } => {
                // A restart began a series of its own (scenario-format.md, "Phases"): this one ends.
                if self.heartbeats[broker.0 as usize].incarnation != incarnation {
                    return;
                }
                if self.is_running(broker) {
                    self.with_broker(broker, |b, ctx| b.on_isr_expiration(ctx));
                }
                // A period of 0 would never let time move on; Kafka refuses it outright.
                let period = self.config.isr_check_every_ms();
                self.agenda.schedule(
                    self.now_ms + period,
                    Scheduled::IsrExpiration {
                        broker,
                        incarnation,
                    },
                    None,
                );
            }
            Scheduled::SessionExpiry {
                broker,
                incarnation,
            } => self.on_session_expiry(broker, incarnation),
            Scheduled::RegistrationArrives {
                broker,
                broker_epoch,
            } => self.on_registration(broker, broker_epoch, cause),
            Scheduled::ClientDeadline { request } => {
                self.client_deadlines_due.push((request, cause))
            }
            Scheduled::LeaderBalanceCheck => self.on_leader_balance_check(),
            Scheduled::MetadataArrives { broker, delta } => {
                if self.is_running(broker) {
                    self.with_broker(broker, |b, ctx| b.apply_metadata(&delta, cause, ctx));
                }
            }
        }
    }

    pub(super) fn is_running(&self, broker: BrokerId) -> bool {
        self.brokers[broker.0 as usize].running
    }

    /// Whether the broker answers requests: it runs, and the controller accepted this process's
    /// registration. Kafka enables request processing only once a starting broker is registered
    /// and unfenced (`BrokerServer.startup`), while its replica fetchers start with the first
    /// metadata it applies, before that.
    pub(super) fn is_serving(&self, broker: BrokerId) -> bool {
        let hb = self.heartbeats[broker.0 as usize];
        self.is_running(broker) && hb.registered_incarnation == hb.incarnation
    }

    /// A restarted process's registration reaches the controller. While the old registration's
    /// session is valid it is refused, and the broker sends it again one heartbeat interval after
    /// the refusal reaches it (Kafka 4.1.1's `BrokerLifecycleManager` after a failed
    /// registration; its log shows the refusals 2 s apart at the default interval). The session
    /// runs out as a crashed broker's does, and the controller fences the old registration then
    /// (scenario-format.md, "Timing rules"); the next registration is accepted and the broker is
    /// unfenced. (Kafka 4.1.1's controller looks for expired sessions only every session timeout
    /// / 8; a registration that finds the session expired before that check is accepted and
    /// moves the old process's leaderships and ISR places itself, `handleBrokerUncleanShutdown`.
    /// The contract's fencing at the first millisecond past the timeout stands here.)
    fn on_registration(&mut self, broker: BrokerId, broker_epoch: u64, cause: Option<EventId>) {
        let b = broker.0 as usize;
        if self.heartbeats[b].incarnation != broker_epoch || !self.is_running(broker) {
            return; // sent by a process that has crashed since
        }
        if !self.controller.may_register(broker) {
            let interval = self.config.heartbeat_every_ms();
            let d = self.config.network_delay_ms;
            let retry_at_ms = self.now_ms + d + interval;
            self.trace
                .emit(self.now_ms, cause, || Event::RegistrationRefused {
                    broker,
                    retry_at_ms,
                });
            self.agenda.schedule(
                retry_at_ms + d,
                Scheduled::RegistrationArrives {
                    broker,
                    broker_epoch,
                },
                None,
            );
            return;
        }
        let hb = &mut self.heartbeats[b];
        hb.registered_incarnation = broker_epoch;
        hb.session_expiry_ms = None;
        // Its heartbeats count from the registration that was accepted (sent one delay ago).
        hb.alive_since_ms = Some(self.now_ms.saturating_sub(self.config.network_delay_ms));
        let delta = self.controller.register_restart(broker, broker_epoch);
        let id = self
            .trace
            .emit(self.now_ms, None, || Event::BrokerUnfenced { broker });
        self.publish(delta, id);
    }

    /// The controller fences a broker whose heartbeats stopped more than the session timeout ago,
    /// and with it every other broker whose session runs out in this same millisecond, in broker
    /// id order (scenario-format.md, "Timing rules"): the order decides who leads next when two
    /// ISR members go at once, so it must not depend on which crash came first.
    fn on_session_expiry(&mut self, broker: BrokerId, incarnation: u64) {
        if self.heartbeats[broker.0 as usize].registered_incarnation != incarnation
            || !self.session_expires_now(broker)
        {
            return;
        }
        for b in 0..self.brokers.len() {
            let other = BrokerId(b as u32);
            if self.session_expires_now(other) {
                let crash = self.heartbeats[b].crash_event;
                self.fence(other, crash);
            }
        }
    }

    /// Whether the registered process is down, not fenced yet, and its session runs out now.
    fn session_expires_now(&self, broker: BrokerId) -> bool {
        let hb = self.heartbeats[broker.0 as usize];
        hb.session_expiry_ms == Some(self.now_ms) && !self.controller.registry.is_fenced(broker)
    }

    fn fence(&mut self, broker: BrokerId, cause: Option<EventId>) {
        let last_heartbeat_ms = self.last_heartbeat_arrival_ms(broker);
        let delta = self.controller.fence(broker);
        let id = self.trace.emit(self.now_ms, cause, || Event::BrokerFenced {
            broker,
            last_heartbeat_ms,
        });
        self.publish(delta, id);
    }

    /// When the controller received the broker's last heartbeat: heartbeats leave at t = 0, H,
    /// 2H, ... and at each restart, while the process runs, and take one network delay.
    pub(super) fn last_heartbeat_arrival_ms(&self, broker: BrokerId) -> u64 {
        self.heartbeats[broker.0 as usize].last_sent_ms + self.config.network_delay_ms
    }
}
