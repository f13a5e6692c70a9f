//! Seeded random clusters and action sequences, run under the invariant checker after every
//! step. A failure prints the seed and the scenario, which replays it exactly.
//! `RANDOM_RUNS=1000000 cargo test --release --test random_actions` for a long run.

use purgatory_playground::kafka::config::{Config, TopicSpec};
use purgatory_playground::scenario::Scenario;
use purgatory_playground::sim::action::*;
use purgatory_playground::sim::invariants::InvariantState;
use purgatory_playground::sim::Simulation;

mod common;
use common::SplitMix64;

fn random_scenario(seed: u64) -> Scenario {
    let mut rng = SplitMix64(seed);
    let brokers = rng.between(1, 5) as u32;
    let config = Config {
        brokers,
        min_insync_replicas: rng.between(1, 3) as u32,
        replica_lag_time_max_ms: rng.between(500, 30_000),
        replica_fetch_wait_max_ms: rng.between(0, 500),
        network_delay_ms: rng.between(0, 5),
        alter_partition_delay_ms: rng.between(0, 30),
        broker_session_timeout_ms: rng.between(500, 9_000),
        broker_heartbeat_interval_ms: rng.between(100, 2_000),
        producer_purgatory_purge_interval_requests: rng.between(0, 20),
        request_timeout_ms: rng.between(0, 30_000),
    };
    let topics: Vec<TopicSpec> = (0..rng.between(1, 2))
        .map(|t| TopicSpec {
            name: format!("t{t}"),
            partitions: rng.between(1, 3) as u32,
            replication_factor: rng.between(1, brokers as u64) as u32,
        })
        .collect();
    let run_until_ms = rng.between(1_000, 60_000);
    let mut actions = Vec::new();
    let mut at = 0;
    for i in 0..rng.between(1, 40) {
        at += rng.between(0, run_until_ms / 10);
        if at > run_until_ms {
            break;
        }
        let broker = BrokerId(rng.below(brokers as u64) as u32);
        let action = match rng.below(10) {
            0..=4 => {
                let records = (0..rng.between(1, 2))
                    .map(|_| {
                        let t = rng.below(topics.len() as u64 + 1) as usize;
                        let topic = topics
                            .get(t)
                            .map_or("missing".to_string(), |t| t.name.clone());
                        RecordBatchSpec {
                            topic: topic.into(),
                            partition: rng.between(0, 3) as i64,
                            count: rng.between(1, 20) as u32,
                        }
                    })
                    .collect();
                let acks = [-1, -1, -1, 1, 0, 2][rng.below(6) as usize];
                let timeout_ms = (rng.below(3) == 0).then(|| rng.between(0, 5_000));
                let broker = (rng.below(5) == 0).then_some(broker);
                Action::Produce(ProduceSpec {
                    id: format!("p{i}").into(),
                    acks,
                    records,
                    timeout_ms,
                    broker,
                })
            }
            5 => Action::PauseFollower { broker },
            6 => Action::ResumeFollower { broker },
            7 => Action::CrashBroker { broker },
            8 => Action::RestartBroker { broker },
            _ => Action::ElectLeader {
                topic: topics[0].name.clone(),
                partition: rng.between(0, 2) as i64,
                broker,
            },
        };
        actions.push(TimedAction { at_ms: at, action });
    }
    Scenario {
        name: format!("random-{seed}"),
        seed,
        config,
        topics,
        actions,
        run_until_ms,
    }
}

fn run_checked(scenario: &Scenario) -> Result<(), String> {
    let mut sim = Simulation::from_scenario(scenario, false).map_err(|e| e.0)?;
    let mut state = InvariantState::default();
    while let Some(t) = sim.next_event_ms() {
        if t > scenario.run_until_ms {
            break;
        }
        sim.step();
        sim.check_invariants(&mut state)
            .map_err(|e| format!("at {t} ms: {e}"))?;
    }
    // Liveness: a request the broker kept must be answered by its deadline (acks=0 never is).
    let result = sim.result(&scenario.name, scenario.run_until_ms);
    for (r, record) in result.responses.iter().zip(sim.requests().all()) {
        let deadline = record.received_ms + record.timeout_ms;
        if record.acks != 0 && !record.connection_closed && deadline < scenario.run_until_ms {
            match r.responded_ms {
                Some(t) if t <= deadline => {}
                other => {
                    return Err(format!(
                        "{} (deadline {deadline}) answered at {other:?}",
                        r.id
                    ))
                }
            }
        }
    }
    Ok(())
}

#[test]
fn random_action_sequences_keep_every_invariant() {
    let runs: u64 = std::env::var("RANDOM_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000);
    let first: u64 = std::env::var("RANDOM_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    for seed in first..first + runs {
        let scenario = random_scenario(seed);
        if runs == 1 {
            eprintln!("{}", scenario.to_json());
        }
        if let Err(e) = run_checked(&scenario) {
            panic!("seed {seed}: {e}\nreplay with RANDOM_SEED={seed} RANDOM_RUNS=1\nscenario: {scenario:#?}");
        }
    }
}
