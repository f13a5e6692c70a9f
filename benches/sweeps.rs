//! The exact sweep of every curated scenario over its ISR-check period (`purgatory sweep FILE`,
//! every phase run): the goal is at most 2 s each, natively, on the project's machines.
//!
//! `cargo bench --bench sweeps` runs criterion on each (10 samples; a few minutes);
//! `cargo bench --bench sweeps -- --table` times each sweep in 3 rounds and prints a table (min
//! and median wall ms, the phases per second) with the count over 2 s.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode};
use purgatory_playground::scenario::Scenario;
use purgatory_playground::sweep::{sweep, Beat};

const GOAL_MS: f64 = 2_000.0;
const ROUNDS: usize = 3;

fn curated() -> Vec<(String, Scenario)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("scenarios/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable");
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            (
                name,
                Scenario::from_json(&text).expect("a curated scenario"),
            )
        })
        .collect()
}

fn table(scenarios: &[(String, Scenario)]) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("exact ISR-check sweeps, {ROUNDS} rounds each, {threads} threads");
    println!(
        "{:<66} {:>7} {:>9} {:>9} {:>12}",
        "scenario", "phases", "min ms", "median ms", "phases/s"
    );
    let mut over = Vec::new();
    for (name, scenario) in scenarios {
        let mut times: Vec<f64> = (0..ROUNDS)
            .map(|_| {
                let t = Instant::now();
                black_box(sweep(scenario, Beat::IsrCheck, None));
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        times.sort_by(f64::total_cmp);
        let phases = Beat::IsrCheck.period_ms(scenario).max(1);
        let median = times[ROUNDS / 2];
        println!(
            "{name:<66} {phases:>7} {:>9.0} {median:>9.0} {:>12.0}",
            times[0],
            phases as f64 / (median / 1e3)
        );
        if median > GOAL_MS {
            over.push(format!("{name} ({median:.0} ms)"));
        }
    }
    println!(
        "{} of {} within {GOAL_MS:.0} ms (median); over: {}",
        scenarios.len() - over.len(),
        scenarios.len(),
        if over.is_empty() {
            "none".to_string()
        } else {
            over.join(", ")
        }
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let scenarios = curated();
    // Without `--bench` (cargo test --benches): one short sweep as a smoke test.
    if !args.iter().any(|a| a == "--bench") {
        let (_, s01) = &scenarios[0];
        assert_eq!(sweep(s01, Beat::IsrCheck, None).requests.len(), 1);
        return;
    }
    if args.iter().any(|a| a == "--table") {
        table(&scenarios);
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("sweep_isr_check");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    for (name, scenario) in &scenarios {
        group.bench_function(name.as_str(), |b| {
            b.iter(|| black_box(sweep(scenario, Beat::IsrCheck, None)))
        });
    }
    group.finish();
    c.final_summary();
}
