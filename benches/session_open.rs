//! Opening a busy saved session: 3 brokers, one topic of 100 partitions (RF 3), followers fetching
//! with `replica.fetch.wait.max.ms` 0, saved at 60,000 ms. Opening it computes, with the trace,
//! history and checkpoints a session keeps, until `session::MAX_OPEN_WORK` runs out (about
//! 49,000 ms of this run): the cost of a unit of a session's work, which the page pays at about
//! twice the native cost (docs/benchmarks.md, "Stop 48, later").
//!
//! `cargo bench --bench session_open` runs criterion (10 samples);
//! `cargo bench --bench session_open -- --once` opens it once and prints where and how long.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use purgatory_playground::scenario::Scenario;
use purgatory_playground::session::{Session, MAX_OPEN_WORK};

fn busy() -> Scenario {
    let doc = serde_json::json!({
        "name": "busy", "seed": 3,
        "config": { "brokers": 3, "replica_fetch_wait_max_ms": 0 },
        "topics": [{ "name": "t", "partitions": 100, "replication_factor": 3 }],
        "actions": [{ "at_ms": 10, "action": "produce", "id": "p1", "acks": -1,
                      "records": [{ "topic": "t", "partition": 0, "count": 1 }] }],
        "run_until_ms": 60000,
        "session": { "at_ms": 60000 }
    });
    Scenario::from_json(&doc.to_string()).expect("the bench's scenario is valid")
}

fn main() {
    let scenario = busy();
    if std::env::args().any(|a| a == "--once") {
        let started = Instant::now();
        let session = Session::new(&scenario, false).expect("the session opens");
        let took = started.elapsed();
        let work = session.sim().work_done();
        println!(
            "opened at {} ms of 60,000 after {work} units of work (limit {MAX_OPEN_WORK}) in {:.3} s: {:.0} ns a unit",
            session.now_ms(),
            took.as_secs_f64(),
            took.as_nanos() as f64 / work as f64
        );
        return;
    }
    let mut c = Criterion::default()
        .sample_size(10)
        .measurement_time(Duration::from_secs(10))
        .configure_from_args();
    c.bench_function("open a busy saved session", |b| {
        b.iter(|| black_box(Session::new(&scenario, false).expect("the session opens")))
    });
    c.final_summary();
}
