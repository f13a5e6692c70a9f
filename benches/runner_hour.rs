//! The whole runner: one simulated hour of 1,000 produce requests a second (acks=-1, 10 records
//! each, round-robin over the partitions) on 3 brokers and one topic of 10 partitions, RF 3,
//! `min.insync.replicas` 2, the default config otherwise. Driven through the public API one
//! simulated second at a time, so the pending action queue stays small.
//!
//! `cargo bench --bench runner_hour` runs criterion (10 samples, so several minutes);
//! `cargo bench --bench runner_hour -- --once` runs the hour once and prints wall time and counts.

use std::fmt::Write;
use std::hint::black_box;
use std::rc::Rc;
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode};
use purgatory_playground::kafka::config::{Config, TopicSpec};
use purgatory_playground::sim::action::{Action, ProduceSpec, TimedAction};
use purgatory_playground::sim::Simulation;

const SEED: u64 = 42;
const TOPIC: &str = "bench";
const PARTITIONS: u32 = 10;
const REQUESTS_PER_SECOND: u64 = 1_000;
const RECORDS_PER_REQUEST: u32 = 10;
/// Time after the last produce for its answer to arrive.
const DRAIN_MS: u64 = 1_000;

/// What one run did, to print and to check.
struct Counts {
    requests: usize,
    answered_none: usize,
    other: usize,
    /// Simulated instants (milliseconds with something to do) that the loop stepped through.
    instants: u64,
}

fn run(seconds: u64) -> Counts {
    let config = Config {
        min_insync_replicas: 2,
        ..Config::default()
    };
    let topics = vec![TopicSpec {
        name: TOPIC.to_string(),
        partitions: PARTITIONS,
        replication_factor: 3,
    }];
    let mut sim = Simulation::new(SEED, config, topics, false).expect("a valid setup");
    sim.set_record_actions(false); // the runner plays a file that already is the log
    let mut instants = 0;
    let per_ms = REQUESTS_PER_SECOND / 1_000;
    let mut n = 0u64;
    let mut id = String::new();
    let topic: Rc<str> = Rc::from(TOPIC);
    for second in 0..seconds {
        for ms in 0..1_000 {
            for _ in 0..per_ms {
                sim.schedule_action(produce(n, second * 1_000 + ms, &mut id, &topic));
                n += 1;
            }
        }
        instants += step_until(&mut sim, second * 1_000 + 999);
    }
    let until_ms = seconds * 1_000 + DRAIN_MS;
    instants += step_until(&mut sim, until_ms);
    let result = sim.result("runner_hour", until_ms);
    let answered_none = result
        .responses
        .iter()
        .filter(|r| r.partitions.iter().all(|p| p.error == Some("NONE")))
        .count();
    Counts {
        requests: sim.requests().len(),
        answered_none,
        other: result.responses.len() - answered_none,
        instants,
    }
}

/// Request `n`, its id formatted in `id` (one buffer for all, so the only allocation for an id
/// is the `Rc<str>` the request keeps); every request names the one `topic`.
fn produce(n: u64, at_ms: u64, id: &mut String, topic: &Rc<str>) -> TimedAction {
    id.clear();
    write!(id, "p{n}").expect("writing to a String cannot fail");
    TimedAction {
        at_ms,
        action: Action::Produce(ProduceSpec::one_partition(
            id.as_str(),
            -1,
            Rc::clone(topic),
            (n % u64::from(PARTITIONS)) as i64,
            RECORDS_PER_REQUEST,
        )),
    }
}

/// `run_until`, counting the instants stepped.
fn step_until(sim: &mut Simulation, until_ms: u64) -> u64 {
    let mut instants = 0;
    while sim.next_event_ms().is_some_and(|at| at <= until_ms) {
        sim.step();
        instants += 1;
    }
    sim.run_until(until_ms);
    instants
}

fn once(seconds: u64) {
    let start = Instant::now();
    let counts = run(seconds);
    let wall = start.elapsed().as_secs_f64();
    println!(
        "runner_hour: {} simulated s, {} requests, {} answered NONE, {} otherwise; \
         {} simulated instants; wall {:.3} s ({:.0} requests/s, {:.0} instants/s)",
        seconds,
        counts.requests,
        counts.answered_none,
        counts.other,
        counts.instants,
        wall,
        counts.requests as f64 / wall,
        counts.instants as f64 / wall
    );
    assert_eq!(
        counts.answered_none, counts.requests,
        "every request is answered NONE"
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // Without `--bench` (cargo test --benches), run ten simulated seconds as a smoke test.
    if !args.iter().any(|a| a == "--bench") {
        once(10);
        return;
    }
    if args.iter().any(|a| a == "--once") {
        once(3_600);
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("runner_hour");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(30));
    group.bench_function("one_simulated_hour", |b| b.iter(|| black_box(run(3_600))));
    group.finish();
    c.final_summary();
}
