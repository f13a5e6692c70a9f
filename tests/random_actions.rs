//! Seeded random clusters and action sequences, run under the invariant checker after every
//! step. A failure prints the seed and the scenario, which replays it exactly.
//! `RANDOM_RUNS=1000000 cargo test --release --test random_actions` for a long run.

use purgatory_playground::scenario::Scenario;
use purgatory_playground::sim::invariants::InvariantState;
use purgatory_playground::sim::Simulation;

mod common;
use common::random_scenario;

fn run_checked(scenario: &Scenario) -> Result<(), String> {
    let mut sim = Simulation::from_scenario(scenario, false).map_err(|e| e.0)?;
    let mut state = InvariantState::default();
    while let Some(t) = sim.next_event_ms() {
        if t > scenario.run_until_ms {
            break;
        }
        sim.step();
        sim.check_invariants(&mut state)
            .map_err(|e| format!("at {t} ms: {e}"))?;
    }
    // Liveness: a request the broker kept must be answered by its deadline (acks=0 never is).
    let result = sim.result(&scenario.name, scenario.run_until_ms);
    for (r, record) in result.responses.iter().zip(sim.requests().all()) {
        let deadline = record.received_ms + record.timeout_ms;
        if record.acks != 0 && !record.connection_closed && deadline < scenario.run_until_ms {
            match r.responded_ms {
                Some(t) if t <= deadline => {}
                other => {
                    return Err(format!(
                        "{} (deadline {deadline}) answered at {other:?}",
                        r.id
                    ))
                }
            }
        }
    }
    Ok(())
}

#[test]
fn random_action_sequences_keep_every_invariant() {
    let runs: u64 = std::env::var("RANDOM_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000);
    let first: u64 = std::env::var("RANDOM_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    for seed in first..first + runs {
        let scenario = random_scenario(seed);
        if runs == 1 {
            eprintln!("{}", scenario.to_json());
        }
        if let Err(e) = run_checked(&scenario) {
            panic!("seed {seed}: {e}\nreplay with RANDOM_SEED={seed} RANDOM_RUNS=1\nscenario: {scenario:#?}");
        }
    }
}
