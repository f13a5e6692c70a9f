//! Invariants the model must keep, checked after every step in tests
//! ([`Simulation::check_invariants`]). Each returns a description of the first violation.

use std::collections::BTreeMap;

use super::Simulation;
use crate::kafka::errors::ErrorCode;
use crate::kafka::{BrokerId, TopicPartition};

/// What the checker remembers between steps.
#[derive(Clone, Debug, Default)]
pub struct InvariantState {
    /// Last high watermark seen per (leader, partition, leader epoch).
    leader_hw: BTreeMap<(BrokerId, TopicPartition, u32), u64>,
    /// Requests already known to be answered, so each answer is checked once.
    answered: Vec<bool>,
}

impl Simulation {
    /// Checks every invariant against the current state. Call after each [`Simulation::step`].
    pub fn check_invariants(&self, state: &mut InvariantState) -> Result<(), String> {
        for broker in self.brokers.iter().filter(|b| b.running) {
            for (tp, p) in broker.partitions.iter().filter(|(_, p)| p.is_leader()) {
                let name = self.tp_name(*tp);
                // The HW never decreases while a broker leads an epoch.
                let key = (broker.id, *tp, p.leader_epoch);
                if let Some(&previous) = state.leader_hw.get(&key) {
                    if p.high_watermark < previous {
                        return Err(format!(
                            "{name}: HW on leader {} went back {previous} -> {}",
                            broker.id, p.high_watermark
                        ));
                    }
                }
                state.leader_hw.insert(key, p.high_watermark);
                // The HW never passes the smallest log end offset of the maximal ISR.
                for member in p.maximal_isr() {
                    let leo = self.actual_log_end_offset(member, *tp);
                    if p.high_watermark > leo {
                        return Err(format!(
                            "{name}: HW {} on leader {} is past broker {member}'s log end offset {leo}",
                            p.high_watermark, broker.id
                        ));
                    }
                }
            }
            // The timer holds exactly the waiting operations.
            let waiting = broker.produce_purgatory.waiting().count();
            if waiting != broker.produce_purgatory.num_delayed_operations() {
                return Err(format!(
                    "broker {}: {waiting} produce operations waiting but {} timer entries",
                    broker.id,
                    broker.produce_purgatory.num_delayed_operations()
                ));
            }
            if broker.produce_purgatory.purgatory_size() < waiting {
                return Err(format!(
                    "broker {}: PurgatorySize below the waiting operations",
                    broker.id
                ));
            }
            let fetch_waiting = broker.fetch_purgatory.waiting().count();
            if fetch_waiting != broker.fetch_purgatory.num_delayed_operations() {
                return Err(format!(
                    "broker {}: fetch purgatory timer out of step",
                    broker.id
                ));
            }
        }
        self.check_new_answers(state)
    }

    /// An acks=all request answered NONE means every replica of the maximal ISR had its records
    /// when the answer left. Nothing can shrink a log within the step that answered, so checking
    /// right after the step is checking at the answer.
    fn check_new_answers(&self, state: &mut InvariantState) -> Result<(), String> {
        state.answered.resize(self.requests.len(), false);
        for (i, (record, partitions)) in self.requests.iter().enumerate() {
            if state.answered[i] || record.responded_ms.is_none() {
                continue;
            }
            state.answered[i] = true;
            if record.acks != -1 || record.responded_ms != Some(self.now_ms) {
                continue;
            }
            for part in partitions {
                if part.error != Some(ErrorCode::None) {
                    continue;
                }
                let Some(tp) = self.resolve(&part.topic, part.partition) else {
                    return Err(format!("{}: NONE for an unknown partition", record.id));
                };
                let required = part.base_offset as u64 + part.count;
                let leader = &self.brokers[record.broker.0 as usize].partitions[&tp];
                for member in leader.maximal_isr() {
                    let leo = self.actual_log_end_offset(member, tp);
                    if leo < required {
                        return Err(format!(
                            "{}: acks=all answered NONE but ISR member {member} has {leo} < {required}",
                            record.id
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    fn actual_log_end_offset(&self, broker: BrokerId, tp: TopicPartition) -> u64 {
        self.brokers[broker.0 as usize]
            .partitions
            .get(&tp)
            .map_or(0, |p| p.log_end_offset())
    }
}
