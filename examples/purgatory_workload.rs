//! Native timing of Kafka's purgatory workload (`src/plumbing/workload.rs`), for `e2e/bench.mjs`, which
//! runs the same replay in wasm in headless Chromium and prints the ratio of the two.
//!
//! `cargo run --release --example purgatory_workload -- [REQUESTS] [ROUNDS]` prints one line:
//! `native_ms <ms of each round, space separated> outcome <completed expired pending_sum
//! pending_max steady_ms> phases <ms of expire+purge, arrive, complete in the last round>` (the
//! same line as the wasm `PurgatoryWorkload.run` after the ms).
//!
//! `... -- REQUESTS --serve` draws the schedule, prints `ready`, then replays it once for each
//! line read from stdin, printing that same line for the one round each time, until stdin ends:
//! the bench interleaves native and wasm replays with it, so that the machine's drift (it swings
//! by half within a minute when shared) weighs on both sides of each pair alike.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use purgatory_playground::plumbing::workload::{
        replay_timed, CratePurgatory, Outcome, Schedule, REQUESTS,
    };
    use std::io::{BufRead, Write};
    use std::time::Instant;

    /// One replay: its ms, outcome and the ms of its phases (`workload::PHASES`).
    fn timed(schedule: &Schedule) -> (f64, Outcome, [f64; 3]) {
        let start = Instant::now();
        let clock = || start.elapsed().as_secs_f64() * 1e3;
        let (outcome, phases) = replay_timed(schedule, &mut CratePurgatory::new(), clock);
        (clock(), outcome, phases)
    }

    /// The times, then the line the wasm `PurgatoryWorkload.run` prints (the phases are the
    /// last round's).
    fn report(times: &[f64], outcome: Outcome, phases: [f64; 3]) {
        let times: Vec<String> = times.iter().map(|ms| format!("{ms:.1}")).collect();
        println!(
            "native_ms {} outcome {}",
            times.join(" "),
            outcome.line(phases)
        );
    }

    let args: Vec<String> = std::env::args().skip(1).collect();
    let requests = args
        .first()
        .map_or(REQUESTS, |a| a.parse().expect("REQUESTS"));
    let schedule = Schedule::new(requests);
    if args.get(1).map(String::as_str) == Some("--serve") {
        println!("ready");
        std::io::stdout().flush().expect("stdout");
        for line in std::io::stdin().lock().lines() {
            line.expect("stdin");
            let (ms, outcome, phases) = timed(&schedule);
            report(&[ms], outcome, phases);
            std::io::stdout().flush().expect("stdout");
        }
        return;
    }
    let rounds: usize = args.get(1).map_or(3, |a| a.parse().expect("ROUNDS"));
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..rounds {
        let (ms, outcome, phases) = timed(&schedule);
        times.push(ms);
        last = Some((outcome, phases));
    }
    let (outcome, phases) = last.expect("at least one round");
    report(&times, outcome, phases);
}

/// `cargo test` for wasm32 (wasm-pack test) builds the examples too; the workload is native here.
#[cfg(target_arch = "wasm32")]
fn main() {}
