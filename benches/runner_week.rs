//! Issue 12's long runs, as the runner plays them (admission on the work budget, the run with its
//! idle fast-forward, the result document): a simulated week of 5 brokers and one topic of 12
//! partitions, RF 3, the default config, one acks=all produce at t = 0 and one in the week's last
//! second; and the same week with `replica.fetch.wait.max.ms` 0. Goals: <= 1 s and <= 2 s.
//!
//! `cargo bench --bench runner_week` runs criterion (10 samples each);
//! `cargo bench --bench runner_week -- --once` runs each week once and prints wall time, the
//! jumps and what they skipped.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode};
use purgatory_playground::scenario::Scenario;
use purgatory_playground::scenario::{budget, play_scenario_within};
use purgatory_playground::sim::Simulation;

const WEEK_MS: u64 = 604_800_000;

fn week(fetch_wait_ms: Option<u64>) -> Scenario {
    let wait = fetch_wait_ms.map_or(String::new(), |ms| {
        format!(r#", "replica_fetch_wait_max_ms": {ms}"#)
    });
    let text = format!(
        r#"{{"name": "week", "seed": 1, "config": {{"brokers": 5{wait}}},
            "topics": [{{"name": "t", "partitions": 12, "replication_factor": 3}}],
            "actions": [
              {{"at_ms": 0, "action": "produce", "id": "p1", "acks": "all",
                "records": [{{"topic": "t", "partition": 0, "count": 10}}]}},
              {{"at_ms": {late}, "action": "produce", "id": "p2", "acks": "all",
                "records": [{{"topic": "t", "partition": 7, "count": 10}}]}}
            ],
            "run_until_ms": {WEEK_MS}}}"#,
        late = WEEK_MS - 1_000
    );
    Scenario::from_json(&text).expect("a valid scenario")
}

/// What the runner does with the file once read: admit it, play it, write the result.
fn run(scenario: &Scenario) -> (String, Simulation) {
    let admission = budget::check_untraced(scenario).expect("admitted");
    assert_eq!(admission, budget::Admission::IdleTail);
    let sim = play_scenario_within(scenario, None, budget::WORK_BUDGET)
        .expect("no output to fail")
        .expect("within the work budget");
    let result = sim.result(&scenario.name, scenario.run_until_ms);
    let text = serde_json::to_string_pretty(&result).expect("serializable");
    (text, sim)
}

fn once() {
    for (label, wait) in [("default config", None), ("fetch wait 0", Some(0))] {
        let scenario = week(wait);
        let start = Instant::now();
        let (text, sim) = run(&scenario);
        let wall = start.elapsed().as_secs_f64();
        let (jumps, skipped_ms) = sim.fast_forwarded();
        println!(
            "runner_week ({label}): wall {wall:.3} s; {jumps} jumps skipped {skipped_ms} of \
             {WEEK_MS} simulated ms; work meter {} units; result {} bytes",
            sim.work_done(),
            text.len()
        );
        assert!(text.contains(r#""error": "NONE""#));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // Without `--bench` (cargo test --benches), run each week once as a smoke test.
    if !args.iter().any(|a| a == "--bench") || args.iter().any(|a| a == "--once") {
        once();
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("runner_week");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    let default = week(None);
    let zero = week(Some(0));
    group.bench_function("week_5x12_default", |b| b.iter(|| black_box(run(&default))));
    group.bench_function("week_5x12_fetch_wait_0", |b| {
        b.iter(|| black_box(run(&zero)))
    });
    group.finish();
    c.final_summary();
}
