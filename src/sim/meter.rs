//! What the simulation's work meter charges, and the idle fast-forward's period: the sim's own
//! measures of its work, which the runner's budget (`scenario::budget`) estimates ahead of a run.

use crate::kafka::config::{Config, TopicSpec};

/// What the meter charges beyond one unit per scheduled item.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    /// Partitions in the cluster: an ISR check looks at every slot of a broker's partition table.
    pub partitions: u64,
    /// One partition of a fetch or fetch response. A leader updating a follower's state and its
    /// high watermark looks at every replica of the partition, so wide replica sets cost more.
    pub fetch_partition: u64,
}

impl Weights {
    pub fn new(topics: &[TopicSpec]) -> Weights {
        let widest = topics
            .iter()
            .map(|t| t.replication_factor)
            .max()
            .unwrap_or(1);
        Weights {
            partitions: topics.iter().map(|t| u64::from(t.partitions)).sum(),
            fetch_partition: 1 + u64::from(widest) / 16,
        }
    }
}

/// The longest period the idle fast-forward looks for (a day): a cluster whose settings make
/// the period longer is simulated normally.
pub const MAX_IDLE_PERIOD_MS: u64 = 86_400_000;

/// An idle follower's fetch cycle: parked for the fetch wait, then answered, each way one
/// network delay.
pub fn fetch_cycle_ms(config: &Config) -> u64 {
    config
        .replica_fetch_wait_max_ms
        .saturating_add(config.network_delay_ms.saturating_mul(2))
}

/// The idle fast-forward's period (`sim::fast_forward`) under `config`, with fetch timers whose
/// coarsest level in use spans `coarsest_interval_ms`: the least common multiple of the fetch cycle and
/// that interval. `None` when the settings rule a jump out: a fetch cycle of 0, ISR checks no
/// further apart than the fetch wait or the network delay, or a period over
/// [`MAX_IDLE_PERIOD_MS`].
pub fn idle_period_ms(config: &Config, coarsest_interval_ms: u128) -> Option<u64> {
    let cycle = fetch_cycle_ms(config);
    let isr_check = config.isr_check_every_ms();
    let longest_lead = config
        .replica_fetch_wait_max_ms
        .max(config.network_delay_ms);
    if cycle == 0 || isr_check <= longest_lead || coarsest_interval_ms == 0 {
        return None;
    }
    let (a, b) = (u128::from(cycle), coarsest_interval_ms);
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    u64::try_from(a / x * b)
        .ok()
        .filter(|&p| p <= MAX_IDLE_PERIOD_MS)
}
