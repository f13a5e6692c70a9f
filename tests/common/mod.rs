//! Helpers shared by the integration tests.

use purgatory_playground::kafka::config::{Config, TopicSpec};
use purgatory_playground::scenario::Scenario;
use purgatory_playground::sim::action::*;

/// SplitMix64: a tiny, well-mixed, seedable generator (no OS randomness in any test).
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (the slight modulo bias does not matter here).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// Uniform in `low..=high`.
    pub fn between(&mut self, low: u64, high: u64) -> u64 {
        low + self.below(high - low + 1)
    }
}

/// The curated scenario files (`scenarios/*.json`), in name order.
#[allow(dead_code)] // not every test file that shares this module uses it
pub fn curated_files() -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("scenarios/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

/// A seeded random cluster and action sequence: any acks, pauses, resumes, crashes, restarts,
/// elections, partitions that do not exist. Each produce names a partition once (Kafka's request
/// holds each partition once).
#[allow(dead_code)] // not every test file that shares this module uses it
pub fn random_scenario(seed: u64) -> Scenario {
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
        // One run in four with the leader rebalance on, drawn apart so that the rest of each
        // scenario stays as this seed always made it.
        leader_imbalance_check_interval_ms: {
            let mut own = SplitMix64(seed ^ 0x5eed_1eade7);
            if own.below(4) == 0 {
                own.between(1_000, 20_000)
            } else {
                0
            }
        },
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
                let mut records: Vec<RecordBatchSpec> = (0..rng.between(1, 2))
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
                records.dedup_by(|a, b| a.topic == b.topic && a.partition == b.partition);
                let records = records.into_iter().collect();
                let acks = [-1, -1, -1, 1, 0, 2][rng.below(6) as usize];
                // Often longer than the producer's own request_timeout_ms: the producer gives up.
                let timeout_ms = (rng.below(3) == 0).then(|| rng.between(0, 40_000));
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
        story: Vec::new(),
        session: None,
        phases: Default::default(),
        compare: None,
    }
}
