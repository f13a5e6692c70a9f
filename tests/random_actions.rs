//! Seeded random clusters and action sequences, run under the invariant checker after every
//! step. A failure prints the seed and the scenario, which replays it exactly.
//! `RANDOM_RUNS=1000000 cargo test --release --test random_actions` for a long run.

use purgatory_playground::scenario::Scenario;
use purgatory_playground::sim::invariants::InvariantState;
use purgatory_playground::sim::Simulation;

mod common;
use common::random_scenario;
use purgatory_playground::kafka::requests::client_deadline_ms;

/// What a run showed beyond its invariants: how many acknowledged acks=1 records it lost.
struct Seen {
    acks1_lost: usize,
    /// Requests the producer gave up on (its own timeout shorter than the request's).
    client_gave_up: usize,
}

fn run_checked(scenario: &Scenario) -> Result<Seen, String> {
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
    // The producer never waits past its own request.timeout.ms: where the broker neither
    // answered (by the end of the deadline's millisecond) nor dropped the connection, it gave up
    // exactly then, and only then.
    let own = scenario.config.request_timeout_ms;
    for (r, record) in result.responses.iter().zip(sim.requests().all()) {
        let deadline = client_deadline_ms(record.received_ms, own);
        let in_time = r.responded_ms.is_some_and(|t| t <= deadline);
        let expected = (record.acks != 0
            && !in_time
            && !record.connection_closed
            && deadline <= scenario.run_until_ms)
            .then_some(deadline);
        if r.client_timed_out_ms != expected {
            return Err(format!(
                "{} (own deadline {deadline}, answered {:?}, closed {}) gave up at {:?}",
                r.id, r.responded_ms, r.connection_closed, r.client_timed_out_ms
            ));
        }
    }
    // Kafka's promise for acks=all: with min.insync.replicas of 2 or more (as the topic's
    // replication factor allows) and no unclean election, an acknowledged record is never lost.
    let rf = |topic: &str| {
        scenario
            .topics
            .iter()
            .find(|t| t.name == topic)
            .map_or(1, |t| t.replication_factor)
    };
    let client_gave_up = result
        .responses
        .iter()
        .filter(|r| r.client_timed_out_ms.is_some())
        .count();
    let mut seen = Seen {
        acks1_lost: 0,
        client_gave_up,
    };
    for lost in &result.lost_acknowledged {
        let min_isr = scenario.config.min_insync_replicas.min(rf(&lost.topic));
        if lost.acks == -1 && min_isr >= 2 {
            return Err(format!("acks=all lost acknowledged records: {lost:?}"));
        }
        if lost.acks == 1 {
            seen.acks1_lost += 1;
        }
    }
    Ok(seen)
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
    let mut acks1_lost = Vec::new();
    let mut gave_up = 0;
    for seed in first..first + runs {
        let scenario = random_scenario(seed);
        if runs == 1 {
            eprintln!("{}", scenario.to_json());
        }
        match run_checked(&scenario) {
            Ok(seen) => {
                if seen.acks1_lost > 0 {
                    acks1_lost.push(seed);
                }
                gave_up += seen.client_gave_up;
            }
            Err(e) => panic!("seed {seed}: {e}\nreplay with RANDOM_SEED={seed} RANDOM_RUNS=1\nscenario: {scenario:#?}"),
        }
    }
    // acks=1 makes no such promise, and the random runs find it breaking (a leader that crashed
    // or lost its leadership before its followers fetched); x13 is one, minimized.
    if runs >= 2_000 {
        assert!(
            !acks1_lost.is_empty(),
            "no run lost an acknowledged acks=1 record"
        );
        assert!(gave_up > 0, "no producer gave up on its own timeout");
    }
    eprintln!(
        "{} of {runs} runs lost acknowledged acks=1 records (first seeds: {:?})",
        acks1_lost.len(),
        &acks1_lost[..acks1_lost.len().min(5)]
    );
    eprintln!("{gave_up} requests were given up by their producer's own timeout");
}
