//! A what-if on a busy session: 3 brokers, one topic of 100 partitions (RF 3,
//! `min.insync.replicas` 2), an acks=all produce of 5 records every 50 ms for two minutes to a
//! partition drawn by a seeded generator, and broker 2 paused at 5 s. The page compares again
//! after every command of a live session, so this is what a command costs with a what-if open.
//! Each change parts the runs at another moment: `acks=1` at the first request, `min.insync.replicas=1`
//! late (the trace is compared event by event up to there, `src/compare/lockstep.rs`).
//!
//! `cargo bench --bench what_if` runs criterion (10 samples each); `-- --table` times each
//! change in 5 rounds and prints min and median wall ms.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode};
use purgatory_playground::compare::{what_if, Change};
use purgatory_playground::scenario::Scenario;

const CHANGES: &[&str] = &[
    "acks=1",
    "replica.lag.time.max.ms=10000",
    "min.insync.replicas=1",
    "actions[2000]=removed",
];
const ROUNDS: usize = 5;

/// The busy session as scenario text (so it is read as a file is).
fn busy_session() -> Scenario {
    let mut actions = Vec::new();
    let mut state: u64 = 7;
    for (n, at_ms) in (0..120_000).step_by(50).enumerate() {
        // A linear congruential generator: the partitions' order only needs to look busy.
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        let partition = (state >> 33) % 100;
        actions.push(format!(
            r#"{{"at_ms":{at_ms},"action":"produce","id":"p{n}","acks":"all","records":[{{"topic":"t","partition":{partition},"count":5}}]}}"#
        ));
        if at_ms == 5_000 {
            actions.push(r#"{"at_ms":5000,"action":"pause_follower","broker":2}"#.to_string());
        }
    }
    let text = format!(
        r#"{{"name":"busy","seed":1,"config":{{"brokers":3,"min_insync_replicas":2}},"topics":[{{"name":"t","partitions":100,"replication_factor":3}}],"actions":[{}],"run_until_ms":120000}}"#,
        actions.join(",")
    );
    Scenario::from_json(&text).expect("the busy session reads")
}

fn table(session: &Scenario, changes: &[Change]) {
    println!(
        "what-if on a busy session (100 partitions, 2,400 requests, 2 minutes), {ROUNDS} rounds"
    );
    println!("{:<32} {:>8} {:>10}", "change", "min ms", "median ms");
    for (text, change) in CHANGES.iter().zip(changes) {
        let mut times: Vec<f64> = (0..ROUNDS)
            .map(|_| {
                let t = Instant::now();
                black_box(what_if(session, change).expect("the change applies"));
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        times.sort_by(f64::total_cmp);
        println!("{text:<32} {:>8.0} {:>10.0}", times[0], times[ROUNDS / 2]);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let session = busy_session();
    let changes: Vec<Change> = CHANGES
        .iter()
        .map(|c| Change::parse(c).expect("a change"))
        .collect();
    // Without `--bench` (cargo test --benches): one comparison as a smoke test.
    if !args.iter().any(|a| a == "--bench") {
        let (_, comparison) = what_if(&session, &changes[0]).expect("acks=1 applies");
        assert!(comparison.divergence.is_some(), "acks=1 parts the runs");
        return;
    }
    if args.iter().any(|a| a == "--table") {
        table(&session, &changes);
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("what_if_busy_session");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    for (text, change) in CHANGES.iter().zip(&changes) {
        group.bench_function(*text, |b| {
            b.iter(|| black_box(what_if(&session, change).expect("the change applies")))
        });
    }
    group.finish();
    c.final_summary();
}
