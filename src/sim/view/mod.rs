//! What the page draws: a summarised, serializable snapshot of a [`Simulation`], built only from
//! the core's public fields and methods. It knows nothing of wasm, so native tests use it too.
//!
//! Summarised, not the whole world: every list the page draws one by one is capped (the caps are
//! below) and sent with its full count, so a snapshot of a broker with 10,000 waiting requests
//! stays small and a frame stays cheap. The page aggregates what is left out ("+ 9,950 more").

use crate::kafka::broker::Broker;
use crate::kafka::broker::DelayedProduce;
use crate::kafka::partition::Partition;
use crate::kafka::TopicPartition;
use crate::purgatory::{OpId, Purgatory};
use crate::sim::queue::Scheduled;
use crate::sim::Simulation;

mod types;
pub use types::*;

/// At most this many operations per purgatory, watch lists per purgatory, entries per watch
/// list, entries per timer bucket, messages in flight and recent requests.
pub const MAX_OPERATIONS: usize = 40;
pub const MAX_WATCH_LISTS: usize = 12;
pub const MAX_WATCH_ENTRIES: usize = 24;
pub const MAX_BUCKET_ENTRIES: usize = 12;
pub const MAX_IN_FLIGHT: usize = 64;
pub const MAX_REQUESTS: usize = 60;

/// Kafka's label for an operation id.
pub fn op_label(id: OpId) -> String {
    format!("{}.{}", id.slot, id.generation)
}

/// The summarised snapshot at the current time.
pub fn snapshot(sim: &Simulation) -> Snapshot {
    let brokers: Vec<BrokerView> = sim.brokers().iter().map(|b| broker_view(sim, b)).collect();
    let (in_flight, in_flight_total) = in_flight(sim);
    let all = sim.requests();
    let requests_waiting = all.all().iter().filter(|r| r.client_waiting()).count();
    // When acknowledged records of a request were lost (rare: a scan of the few losses).
    let lost_ms = |request: usize| {
        all.lost()
            .iter()
            .filter(|l| l.request as usize == request)
            .map(|l| l.at_ms)
            .min()
    };
    let requests = all
        .iter()
        .enumerate()
        .skip(all.len().saturating_sub(MAX_REQUESTS))
        .map(|(i, (r, partitions))| RequestView {
            id: r.id.to_string(),
            broker: r.broker,
            acks: r.acks,
            timeout_ms: r.timeout_ms,
            received_ms: r.received_ms,
            responded_ms: r.responded_ms,
            connection_closed: r.connection_closed,
            client_timed_out_ms: r.client_timed_out_ms(sim.config().request_timeout_ms),
            waiting: r.client_waiting(),
            lost_ms: lost_ms(i),
            partitions: partitions
                .iter()
                .map(|p| {
                    (
                        format!("{}-{}", p.topic, p.partition),
                        p.error.map(|e| e.name()),
                        p.base_offset,
                    )
                })
                .collect(),
        })
        .collect();
    let min_isr = sim.config().min_insync_replicas;
    let leaders = || {
        sim.brokers()
            .iter()
            .filter(|b| b.running)
            .flat_map(|b| b.partitions.values())
            .filter(|p| p.is_leader())
    };
    let under_replicated_partitions = leaders()
        .filter(|p| p.isr.len() < p.assignment.len())
        .count();
    let under_min_isr_partitions = leaders().filter(|p| p.is_under_min_isr(min_isr)).count();
    Snapshot {
        now_ms: sim.now_ms(),
        next_event_ms: sim.next_event_ms(),
        network_delay_ms: sim.config().network_delay_ms,
        brokers,
        controller: controller_view(sim),
        in_flight,
        in_flight_total,
        requests,
        requests_total: all.len(),
        requests_waiting,
        under_replicated_partitions,
        under_min_isr_partitions,
    }
}

fn broker_view(sim: &Simulation, b: &Broker) -> BrokerView {
    let fenced = sim.controller().registry.is_fenced(b.id);
    let state = if !b.running {
        "crashed"
    } else if !sim.is_serving(b.id) {
        "registering"
    } else if fenced {
        "fenced"
    } else if b.fetching_paused {
        "paused"
    } else {
        "fetching"
    };
    BrokerView {
        id: b.id,
        running: b.running,
        fetching_paused: b.fetching_paused,
        fenced,
        broker_epoch: b.broker_epoch,
        state,
        partitions: b
            .partitions
            .values()
            .map(|p| replica_view(sim, p))
            .collect(),
        produce_purgatory: produce_purgatory_view(sim, b),
        fetch_purgatory: gauges(&b.fetch_purgatory),
        produce_expires: b.metrics.produce_expires,
        isr_shrinks: b.metrics.isr_shrinks,
        isr_expands: b.metrics.isr_expands,
    }
}

fn replica_view(sim: &Simulation, p: &Partition) -> ReplicaView {
    ReplicaView {
        tp: sim.tp_name(p.tp),
        topic: sim.topics()[p.tp.topic as usize].name.clone(),
        partition: p.tp.partition,
        is_leader: p.is_leader(),
        leader: p.leader,
        leader_epoch: p.leader_epoch,
        partition_epoch: p.partition_epoch,
        assignment: p.assignment.clone(),
        isr: p.isr.clone(),
        maximal_isr: p.maximal_isr(),
        isr_state: p.isr_state.clone(),
        log_end_offset: p.log_end_offset(),
        high_watermark: p.high_watermark,
        followers: if p.is_leader() {
            p.remote_replicas
                .iter()
                .map(|(broker, r)| FollowerView {
                    broker,
                    log_end_offset: r.log_end_offset,
                    last_caught_up_time_ms: r.last_caught_up_time_ms,
                    last_fetch_time_ms: r.last_fetch_time_ms,
                })
                .collect()
        } else {
            Vec::new()
        },
    }
}

fn gauges<O>(p: &Purgatory<TopicPartition, O>) -> PurgatoryGaugesView {
    PurgatoryGaugesView {
        purgatory_size: p.purgatory_size(),
        num_delayed_operations: p.num_delayed_operations(),
        estimated_total_operations: p.estimated_total_operations(),
        purge_interval: p.purge_interval(),
    }
}

fn produce_purgatory_view(sim: &Simulation, b: &Broker) -> PurgatoryView {
    let purgatory = &b.produce_purgatory;
    let requests = sim.requests();
    let request_id = |op: &DelayedProduce| requests.get(op.request).id.to_string();
    let mut lists = purgatory.watch_lists();
    let rest = lists.split_off(lists.len().min(MAX_WATCH_LISTS));
    let watch_lists_left_out = WatchListsLeftOut {
        lists: rest.len(),
        entries: rest.iter().map(|w| w.operations.len()).sum(),
        completed: rest
            .iter()
            .flat_map(|w| &w.operations)
            .filter(|(_, done)| *done)
            .count(),
        first_key: rest.first().map(|w| sim.tp_name(w.key)),
        last_key: rest.last().map(|w| sim.tp_name(w.key)),
    };
    let watch_lists = lists
        .into_iter()
        .map(|w| WatchListView {
            key: sim.tp_name(w.key),
            total: w.operations.len(),
            completed: w.operations.iter().filter(|(_, done)| *done).count(),
            entries: w
                .operations
                .iter()
                .take(MAX_WATCH_ENTRIES)
                .map(|&(id, completed)| WatchEntryView {
                    op: op_label(id),
                    request: purgatory.get(id).map(request_id),
                    completed,
                })
                .collect(),
        })
        .collect();
    let mut operations_total = 0;
    let mut waiting = Vec::new();
    let mut completed = Vec::new();
    for (id, op, done) in purgatory.operations() {
        operations_total += 1;
        let list = if done { &mut completed } else { &mut waiting };
        if list.len() >= MAX_OPERATIONS {
            continue;
        }
        list.push(OperationView {
            op: op_label(id),
            request: request_id(op),
            created_ms: op.created_ms,
            timeout_ms: op.timeout_ms,
            expires_at_ms: op.created_ms + op.timeout_ms,
            completed: done,
            timer_slot: purgatory.timer_slot(id),
            partitions: op
                .partitions
                .iter()
                .map(|s| OperationPartitionView {
                    tp: sim.tp_name(s.tp),
                    required_offset: s.required_offset,
                    high_watermark: b.partitions.get(&s.tp).map(|p| p.high_watermark),
                    acks_pending: s.acks_pending,
                    error: s.error.name(),
                })
                .collect(),
        });
    }
    waiting.sort_by(|a, b| (a.created_ms, &a.op).cmp(&(b.created_ms, &b.op)));
    waiting.extend(completed.into_iter().take(MAX_OPERATIONS / 2));
    let view = purgatory.timer_view();
    PurgatoryView {
        gauges: gauges(purgatory),
        watch_lists,
        watch_lists_left_out,
        operations: waiting,
        operations_total,
        timer: TimerSummary {
            size: view.size,
            next_expiration_ms: view.next_expiration_ms,
            levels: view
                .levels
                .into_iter()
                .map(|level| LevelSummary {
                    tick_ms: level.tick_ms,
                    wheel_size: level.wheel_size,
                    interval_ms: level.interval_ms,
                    current_time_ms: level.current_time_ms,
                    buckets: level
                        .buckets
                        .into_iter()
                        .map(|bucket| BucketSummary {
                            index: bucket.index,
                            expiration_ms: bucket.expiration_ms,
                            count: bucket.entries.len(),
                            ops: bucket
                                .entries
                                .iter()
                                .take(MAX_BUCKET_ENTRIES)
                                .filter_map(|&h| purgatory.timer_op(h).map(op_label))
                                .collect(),
                        })
                        .collect(),
                })
                .collect(),
        },
    }
}

fn controller_view(sim: &Simulation) -> ControllerView {
    let c = sim.controller();
    ControllerView {
        fenced: c
            .registry
            .iter()
            .filter(|(_, r)| r.fenced)
            .map(|(b, _)| b)
            .collect(),
        partitions: c
            .partitions
            .values()
            .map(|r| ControllerPartitionView {
                tp: sim.tp_name(r.tp),
                leader: r.leader,
                leader_epoch: r.leader_epoch,
                isr: r.isr.clone(),
                partition_epoch: r.partition_epoch,
            })
            .collect(),
    }
}

/// Messages in flight between brokers, in arrival order (the agenda's own order), capped.
fn in_flight(sim: &Simulation) -> (Vec<MessageView>, usize) {
    let d = sim.config().network_delay_ms;
    let alter = sim.config().alter_partition_delay_ms;
    let mut all: Vec<MessageView> = sim
        .agenda()
        .iter()
        .filter_map(|(at, item)| message_view(sim, at, item, d, alter))
        .collect();
    all.sort_by_key(|m| m.arrives_ms);
    let total = all.len();
    all.truncate(MAX_IN_FLIGHT);
    (all, total)
}

fn message_view(
    sim: &Simulation,
    at: u64,
    item: &Scheduled,
    d: u64,
    alter: u64,
) -> Option<MessageView> {
    let (kind, from, to, sent_ms, label) = match item {
        Scheduled::FetchArrives(r) => {
            let offsets: Vec<String> = r
                .partitions
                .iter()
                .map(|p| format!("{}@{}", sim.tp_name(p.tp), p.fetch_offset))
                .collect();
            (
                "fetch",
                Some(r.follower),
                Some(r.leader),
                at.saturating_sub(d),
                format!("Fetch {}", offsets.join(", ")),
            )
        }
        Scheduled::FetchResponseArrives(r) => {
            let parts: Vec<String> = r
                .partitions
                .iter()
                .map(|p| {
                    format!(
                        "{} +{} HW {}",
                        sim.tp_name(p.tp),
                        p.records(),
                        p.high_watermark
                    )
                })
                .collect();
            (
                "fetch_response",
                Some(r.leader),
                Some(r.follower),
                at.saturating_sub(d),
                format!("FetchResponse {}", parts.join(", ")),
            )
        }
        Scheduled::AlterPartitionDone { leader, proposal } => (
            "alter_partition",
            Some(*leader),
            None,
            at.saturating_sub(alter),
            format!(
                "AlterPartition {} ISR {:?}",
                sim.tp_name(proposal.tp),
                proposal.new_isr.iter().map(|b| b.0).collect::<Vec<_>>()
            ),
        ),
        Scheduled::MetadataArrives { broker, .. } => (
            "metadata",
            None,
            Some(*broker),
            at.saturating_sub(d),
            "metadata update".to_string(),
        ),
        _ => return None,
    };
    Some(MessageView {
        kind,
        from,
        to,
        sent_ms,
        arrives_ms: at,
        label,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kafka::config::{Config, TopicSpec};
    use crate::kafka::BrokerId;
    use crate::sim::action::{Action, ProduceSpec, TimedAction};

    fn sim() -> Simulation {
        let topics = vec![TopicSpec {
            name: "t".into(),
            partitions: 1,
            replication_factor: 3,
        }];
        Simulation::new(1, Config::default(), topics, true).unwrap()
    }

    fn produce(id: &str, at_ms: u64) -> TimedAction {
        TimedAction {
            at_ms,
            action: Action::Produce(ProduceSpec {
                timeout_ms: Some(30_000),
                ..ProduceSpec::one_partition(id, -1, "t", 0, 1)
            }),
        }
    }

    #[test]
    fn a_waiting_acks_all_request_shows_in_the_purgatory_and_on_the_wheel() {
        let mut s = sim();
        for b in [1, 2] {
            s.schedule_action(TimedAction {
                at_ms: 0,
                action: Action::PauseFollower {
                    broker: BrokerId(b),
                },
            });
        }
        s.run_until(600);
        s.schedule_action(produce("p1", 600));
        s.run_until(610);
        let snap = snapshot(&s);
        let p = &snap.brokers[0].produce_purgatory;
        assert_eq!(p.gauges.num_delayed_operations, 1);
        assert_eq!(p.operations[0].request, "p1");
        assert!(p.operations[0].timer_slot.is_some());
        assert_eq!(&*p.watch_lists[0].key, "t-0");
        assert!(snap.requests[0].waiting);
        assert_eq!(snap.brokers[1].state, "paused");
        serde_json::to_string(&snap).unwrap();
    }

    #[test]
    fn lists_are_capped_and_counted() {
        let mut s = sim();
        s.schedule_action(TimedAction {
            at_ms: 0,
            action: Action::PauseFollower {
                broker: BrokerId(1),
            },
        });
        s.schedule_action(TimedAction {
            at_ms: 0,
            action: Action::PauseFollower {
                broker: BrokerId(2),
            },
        });
        for i in 0..500 {
            s.schedule_action(produce(&format!("p{i}"), 600));
        }
        s.run_until(601);
        let snap = snapshot(&s);
        let p = &snap.brokers[0].produce_purgatory;
        assert_eq!(p.gauges.num_delayed_operations, 500);
        assert_eq!(p.operations.len(), MAX_OPERATIONS);
        assert_eq!(p.operations_total, 500);
        assert_eq!(p.watch_lists[0].total, 500);
        assert_eq!(p.watch_lists[0].entries.len(), MAX_WATCH_ENTRIES);
        assert_eq!(snap.requests.len(), MAX_REQUESTS);
        assert_eq!(snap.requests_waiting, 500);
        assert_eq!(p.watch_lists_left_out.lists, 0);
    }

    #[test]
    fn watch_lists_past_the_cap_are_counted() {
        // 60 partitions over 3 brokers: broker 0 leads t-0, t-3, ... t-57 (20 keys).
        let topics = vec![TopicSpec {
            name: "t".into(),
            partitions: 60,
            replication_factor: 3,
        }];
        let mut s = Simulation::new(1, Config::default(), topics, true).unwrap();
        for b in [1, 2] {
            s.schedule_action(TimedAction {
                at_ms: 0,
                action: Action::PauseFollower {
                    broker: BrokerId(b),
                },
            });
        }
        for i in 0..120i64 {
            s.schedule_action(TimedAction {
                at_ms: 600,
                action: Action::Produce(ProduceSpec {
                    timeout_ms: Some(30_000),
                    ..ProduceSpec::one_partition(format!("p{i}").as_str(), -1, "t", i % 60, 1)
                }),
            });
        }
        s.run_until(601);
        let p = &snapshot(&s).brokers[0].produce_purgatory;
        let held: usize = p.watch_lists.iter().map(|w| w.total).sum();
        let rest = &p.watch_lists_left_out;
        assert_eq!(p.watch_lists.len(), MAX_WATCH_LISTS);
        assert_eq!(rest.lists, 20 - MAX_WATCH_LISTS);
        assert_eq!(held + rest.entries, p.gauges.purgatory_size);
        assert_eq!(held + rest.entries, 40);
        assert_eq!(rest.first_key.as_deref(), Some("t-36"));
        assert_eq!(rest.last_key.as_deref(), Some("t-57"));
    }
}
