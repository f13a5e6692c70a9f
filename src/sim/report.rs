//! Builds the result document (scenario-format.md, "Result") from the simulation's state.

use std::rc::Rc;

use super::result::{
    LostAcknowledged, PartitionResponseResult, PartitionResult, PurgatoryGauges, ReplicaResult,
    ResponseResult, RunResult,
};
use super::Simulation;

pub(super) fn build(sim: &Simulation, name: &str, run_until_ms: u64) -> RunResult {
    let responses = sim
        .requests
        .iter()
        .map(|(r, partitions)| {
            // Errors are reported once answered (or decided, for acks=0); never-answered ones are null.
            let answered = r.responded_ms.is_some() || r.acks == 0;
            ResponseResult {
                id: Rc::clone(&r.id),
                received_ms: r.received_ms,
                responded_ms: r.responded_ms,
                connection_closed: r.connection_closed,
                client_timed_out_ms: r.client_timed_out_ms(sim.config.request_timeout_ms),
                partitions: partitions
                    .iter()
                    .map(|p| PartitionResponseResult {
                        topic: Rc::clone(&p.topic),
                        partition: p.partition,
                        error: if answered {
                            p.error.map(|e| e.name())
                        } else {
                            None
                        },
                        base_offset: p.base_offset,
                    })
                    .collect(),
            }
        })
        .collect();
    let mut partitions = Vec::new();
    for record in sim.controller.partitions.values() {
        let tp = record.tp;
        let hosted = |b: crate::kafka::BrokerId| sim.brokers[b.0 as usize].partitions.get(&tp);
        let leader_state = record
            .leader
            .filter(|&l| sim.is_running(l))
            .and_then(hosted)
            .filter(|p| p.is_leader());
        // The ISR as the controller has committed it (scenario-format.md, "Result"): a leader
        // learns of a fencing one network delay later, and its own view may lag by that much.
        let mut isr = record.isr.clone();
        isr.sort();
        let high_watermark = match leader_state {
            Some(p) => p.high_watermark,
            // No running leader: the highest HW any replica holds.
            None => record
                .assignment
                .iter()
                .filter_map(|&b| hosted(b))
                .map(|p| p.high_watermark)
                .max()
                .unwrap_or(0),
        };
        partitions.push(PartitionResult {
            topic: sim.topic_names[tp.topic as usize].to_string(),
            partition: tp.partition,
            leader: record.leader,
            leader_epoch: record.leader_epoch,
            isr,
            high_watermark,
            replicas: record
                .assignment
                .iter()
                .map(|&b| ReplicaResult {
                    broker: b,
                    log_end_offset: hosted(b).map_or(0, |p| p.log_end_offset()),
                })
                .collect(),
        });
    }
    let mut purgatory = PurgatoryGauges::default();
    for b in sim.brokers.iter().filter(|b| b.running) {
        purgatory.purgatory_size += b.produce_purgatory.purgatory_size() as u64;
        purgatory.num_delayed_operations += b.produce_purgatory.num_delayed_operations() as u64;
    }
    let lost_acknowledged = sim
        .requests
        .lost()
        .iter()
        .map(|l| {
            let record = sim.requests.get(l.request);
            let answer = &sim.requests.partitions(l.request)[l.slot];
            LostAcknowledged {
                id: Rc::clone(&record.id),
                acks: record.acks,
                topic: Rc::clone(&answer.topic),
                partition: answer.partition,
                first_offset: l.first_offset,
                last_offset: l.last_offset,
                acknowledged_by: l.acknowledged_by,
                acknowledged_epoch: l.acknowledged_epoch,
                lost_ms: l.at_ms,
                leader: l.leader,
                leader_epoch: l.leader_epoch,
            }
        })
        .collect();
    RunResult {
        name: name.to_string(),
        seed: sim.seed,
        run_until_ms,
        responses,
        partitions,
        purgatory,
        lost_acknowledged,
    }
}
