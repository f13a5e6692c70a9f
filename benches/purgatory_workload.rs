//! The purgatory and its timer alone on Kafka's purgatory benchmark workload
//! (`kafka.TestPurgatoryPerformance`), in simulated time, against a naive delayed-operation
//! store (a `BinaryHeap` of deadlines + a `HashMap` of operations, lazy deletion) on the very same
//! schedule.
//!
//! The workload, its schedule, the replay and the crate's store live in `src/purgatory/workload.rs` (see
//! there), shared with the wasm bench page (`www/bench.html`) and
//! `examples/purgatory_workload.rs`, so wasm and native run the same code.
//!
//! `cargo bench --bench purgatory_workload` runs criterion and then prints the one-run summary;
//! `cargo bench --bench purgatory_workload -- --summary` prints only the summary;
//! `-- --purgatory-only` runs just the purgatory once (for `perf record` on the bench binary).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode, Throughput};
use purgatory_playground::purgatory::workload::{
    replay, CratePurgatory, FakeOperation, Outcome, Schedule, Store, REQUESTS, TIMEOUT_MS,
};

// ---- The naive baseline --------------------------------------------------------------------

/// A BinaryHeap of (deadline, request) for timeouts and a HashMap request -> operation for
/// completion. A completed operation's heap entry stays until it surfaces (lazy deletion). It has
/// no watch keys: completion finds the operation by its request number.
#[derive(Default)]
struct HeapAndMap {
    deadlines: BinaryHeap<Reverse<(u64, u32)>>,
    waiting: HashMap<u32, FakeOperation>,
    completed: u64,
    expired: u64,
}

impl Store for HeapAndMap {
    /// The map's key.
    type Handle = u32;

    fn arrive(&mut self, request: u32, completes_at_ms: u64, now_ms: u64) -> u32 {
        if completes_at_ms <= now_ms {
            self.completed += 1;
            return request;
        }
        self.waiting
            .insert(request, FakeOperation { completes_at_ms });
        self.deadlines.push(Reverse((now_ms + TIMEOUT_MS, request)));
        request
    }

    fn complete(&mut self, due: &[u32], _now_ms: u64) {
        for request in due {
            if self.waiting.remove(request).is_some() {
                self.completed += 1;
            }
        }
    }

    fn advance_clock(&mut self, now_ms: u64) {
        while let Some(&Reverse((deadline, request))) = self.deadlines.peek() {
            if deadline > now_ms {
                break;
            }
            self.deadlines.pop();
            if self.waiting.remove(&request).is_some() {
                self.expired += 1;
            }
        }
    }

    fn outcome(&self) -> (u64, u64) {
        (self.completed, self.expired)
    }
}

// ---- Front doors ---------------------------------------------------------------------------

fn timed(s: &Schedule, store: &mut impl Store) -> (Outcome, Duration) {
    let start = Instant::now();
    let out = replay(s, store);
    (out, start.elapsed())
}

/// Rounds of the summary: each runs the three stores back to back, so every ratio compares runs
/// a few seconds apart, and the median of the rounds' ratios is robust to one disturbed run.
const SUMMARY_ROUNDS: usize = 3;

/// Requests per wall second of `store` on the schedule, checking its outcome against `expected`.
fn rate(s: &Schedule, store: &mut impl Store, expected: &Outcome, what: &str) -> f64 {
    let (outcome, wall) = timed(s, store);
    assert_eq!(&outcome, expected, "{what} disagrees with the baseline");
    s.arrive_ms.len() as f64 / wall.as_secs_f64()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// `SUMMARY_ROUNDS` rounds of each store on the same schedule; prints requests per wall second
/// and the ratio of each round, then the medians.
fn summary(s: &Schedule) {
    let (expected, _) = timed(s, &mut HeapAndMap::default());
    println!(
        "purgatory_workload: {} requests over {} simulated ms ({:.0}/ms); completed {}, expired {}; \
         pending at steady state mean {:.0}, max {}",
        s.arrive_ms.len(),
        s.end_ms,
        s.rate_per_ms,
        expected.completed,
        expected.expired,
        expected.pending_sum as f64 / expected.steady_ms as f64,
        expected.pending_max
    );
    let (mut ours, mut base, mut unpurged) = (Vec::new(), Vec::new(), Vec::new());
    for round in 1..=SUMMARY_ROUNDS {
        ours.push(rate(
            s,
            &mut CratePurgatory::new(),
            &expected,
            "the purgatory",
        ));
        base.push(rate(
            s,
            &mut HeapAndMap::default(),
            &expected,
            "the baseline",
        ));
        unpurged.push(rate(
            s,
            &mut CratePurgatory::without_purge(),
            &expected,
            "the purgatory without purge",
        ));
        println!(
            "purgatory_workload round {round}: purgatory {:.2} M req/s, heap+map baseline {:.2} M req/s, ratio {:.2}x; purge disabled {:.2} M req/s",
            ours[round - 1] / 1e6,
            base[round - 1] / 1e6,
            ours[round - 1] / base[round - 1],
            unpurged[round - 1] / 1e6,
        );
    }
    let ratios = ours.iter().zip(&base).map(|(o, b)| o / b).collect();
    println!(
        "purgatory_workload summary (median of {SUMMARY_ROUNDS} rounds): purgatory {:.2} M req/s, heap+map baseline {:.2} M req/s, ratio {:.2}x",
        median(ours) / 1e6,
        median(base) / 1e6,
        median(ratios),
    );
    println!(
        "purgatory_workload diagnostic: purgatory with the purge disabled {:.2} M req/s",
        median(unpurged) / 1e6
    );
}

fn bench(c: &mut Criterion, s: &Schedule) {
    let mut group = c.benchmark_group("purgatory_workload");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(10))
        .throughput(Throughput::Elements(s.arrive_ms.len() as u64));
    group.bench_function("purgatory", |b| {
        b.iter(|| black_box(replay(s, &mut CratePurgatory::new())))
    });
    group.bench_function("purgatory_purge_disabled", |b| {
        b.iter(|| black_box(replay(s, &mut CratePurgatory::without_purge())))
    });
    group.bench_function("heap_and_map_baseline", |b| {
        b.iter(|| black_box(replay(s, &mut HeapAndMap::default())))
    });
    group.finish();
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--purgatory-only") {
        let s = Schedule::new(REQUESTS);
        let (out, wall) = timed(&s, &mut CratePurgatory::new());
        let rate = s.arrive_ms.len() as f64 / wall.as_secs_f64();
        println!(
            "purgatory only: {:.2} M req/s ({:.3} s), {out:?}",
            rate / 1e6,
            wall.as_secs_f64()
        );
        return;
    }
    let summary_only = args.iter().any(|a| a == "--summary");
    // Without `--bench` (cargo test --benches), criterion runs each benchmark once as a test;
    // a much shorter schedule keeps that quick.
    let benching = summary_only || args.iter().any(|a| a == "--bench");
    let s = Schedule::new(if benching { REQUESTS } else { 50_000 });
    if !summary_only {
        let mut c = Criterion::default().configure_from_args();
        bench(&mut c, &s);
        c.final_summary();
    }
    if benching {
        summary(&s);
    }
}
