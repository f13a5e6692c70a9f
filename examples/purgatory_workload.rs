//! Native timing of Kafka's purgatory workload (`src/workload.rs`), for `e2e/bench.mjs`, which
//! runs the same replay in wasm in headless Chromium and prints the ratio of the two.
//!
//! `cargo run --release --example purgatory_workload -- [REQUESTS] [ROUNDS]` prints one line:
//! `native_ms <ms of each round, space separated> outcome <completed expired pending_sum
//! pending_max steady_ms>` (the same outcome line as the wasm `PurgatoryWorkload.run`).

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use purgatory_playground::workload::{replay, CratePurgatory, Schedule, REQUESTS};
    use std::time::Instant;

    let args: Vec<String> = std::env::args().skip(1).collect();
    let requests = args
        .first()
        .map_or(REQUESTS, |a| a.parse().expect("REQUESTS"));
    let rounds: usize = args.get(1).map_or(3, |a| a.parse().expect("ROUNDS"));
    let schedule = Schedule::new(requests);
    let mut times = Vec::new();
    let mut outcome = None;
    for _ in 0..rounds {
        let start = Instant::now();
        let o = replay(&schedule, &mut CratePurgatory::new());
        times.push(format!("{:.1}", start.elapsed().as_secs_f64() * 1e3));
        outcome = Some(o);
    }
    let o = outcome.expect("at least one round");
    println!(
        "native_ms {} outcome {} {} {} {} {}",
        times.join(" "),
        o.completed,
        o.expired,
        o.pending_sum,
        o.pending_max,
        o.steady_ms
    );
}

/// `cargo test` for wasm32 (wasm-pack test) builds the examples too; the workload is native here.
#[cfg(target_arch = "wasm32")]
fn main() {}
