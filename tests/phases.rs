//! Phases (scenario-format.md, "Phases"): where each broker's ISR check and heartbeats fall.
//! Every refusal the contract names, each by its one line; the contract's own worked example
//! (a stalled follower under Kafka's defaults: NONE for φ in 1 .. 989, REQUEST_TIMED_OUT
//! otherwise); heartbeat phases moving a fencing; the restart rule; and the canonical text.

use purgatory_playground::scenario::result::RunResult;
use purgatory_playground::scenario::run_scenario;
use purgatory_playground::scenario::Scenario;
use serde_json::{json, Value};

/// The trace of a scenario run to its end, as JSON values.
fn trace_of(doc: &Value) -> Vec<Value> {
    let scenario = Scenario::from_value(doc).unwrap_or_else(|e| panic!("valid: {e}"));
    let mut sim = purgatory_playground::sim::Simulation::from_scenario(&scenario, true).unwrap();
    sim.run_until(scenario.run_until_ms);
    sim.drain_trace()
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .collect()
}

/// The contract's example: broker 2 paused at 0 after a caught-up fetch at 0, an acks=all produce
/// at 1,000, Kafka's defaults (request timeout = lag limit = 30,000), min ISR 2.
fn stalled(phases: Option<Value>) -> Value {
    let mut doc = json!({
        "name": "phases",
        "config": { "min_insync_replicas": 2 },
        "topics": [{ "name": "t", "partitions": 1, "replication_factor": 3 }],
        "actions": [
            { "at_ms": 0, "action": "pause_follower", "broker": 2 },
            { "at_ms": 1000, "action": "produce", "id": "p1", "acks": -1,
              "records": [{ "topic": "t", "partition": 0, "count": 10 }] }
        ],
        "run_until_ms": 60000
    });
    if let Some(p) = phases {
        doc["phases"] = p;
    }
    doc
}

fn run(doc: &Value) -> RunResult {
    let scenario = Scenario::from_value(doc).unwrap_or_else(|e| panic!("valid: {e}"));
    run_scenario(&scenario, None).expect("runs")
}

/// p1's (responded_ms, error).
fn p1(result: &RunResult) -> (Option<u64>, Option<&'static str>) {
    let r = &result.responses[0];
    (
        r.responded_ms,
        r.partitions.iter().next().and_then(|p| p.error),
    )
}

fn refusal(phases: Value) -> String {
    let e = Scenario::from_value(&stalled(Some(phases))).unwrap_err();
    format!("{}: {}", e.path, e.message)
}

#[test]
fn out_of_range_phases_are_refused_with_one_line_naming_field_and_range() {
    assert_eq!(
        refusal(json!({ "isr_check_ms": 15000 })),
        "phases.isr_check_ms: expected an integer from 0 to 14999 (replica_lag_time_max_ms / 2 − 1), found 15000"
    );
    assert_eq!(
        refusal(json!({ "isr_check_ms": -1 })),
        "phases.isr_check_ms: expected an integer from 0 to 14999 (replica_lag_time_max_ms / 2 − 1), found -1"
    );
    assert_eq!(
        refusal(json!({ "heartbeat_ms": [0, 2000, 0] })),
        "phases.heartbeat_ms[1]: expected an integer from 0 to 1999 (broker_heartbeat_interval_ms − 1), found 2000"
    );
    assert_eq!(
        refusal(json!({ "heartbeat_ms": [0, 1] })),
        "phases.heartbeat_ms: expected an array of 3 phases, one per broker, found 2 phases"
    );
    assert_eq!(
        refusal(json!({ "isr_check_ms": "7300" })),
        "phases.isr_check_ms: expected an integer from 0 to 14999 (replica_lag_time_max_ms / 2 − 1) for every broker, or an array of 3 (one per broker), found \"7300\""
    );
    assert_eq!(
        refusal(json!({ "isr_check": 1 })),
        "phases.isr_check: unknown field `isr_check`; did you mean `isr_check_ms`?"
    );
    assert_eq!(
        refusal(json!(7)),
        "phases: expected an object `{isr_check_ms, heartbeat_ms}`, found 7"
    );
    // A period of 0: only phase 0.
    let mut doc = stalled(Some(json!({ "heartbeat_ms": 1 })));
    doc["config"]["broker_heartbeat_interval_ms"] = json!(0);
    let e = Scenario::from_value(&doc).unwrap_err();
    assert_eq!(
        format!("{}: {}", e.path, e.message),
        "phases.heartbeat_ms: expected an integer from 0 to 0 (its period is 0), found 1"
    );
}

#[test]
fn without_phases_or_with_every_phase_zero_a_file_means_what_it_meant() {
    let plain = run(&stalled(None));
    let zero = run(&stalled(Some(
        json!({ "isr_check_ms": 0, "heartbeat_ms": [0, 0, 0] }),
    )));
    assert_eq!(plain, zero);
    assert_eq!(p1(&plain), (Some(31000), Some("REQUEST_TIMED_OUT")));
}

/// The contract's worked example, at its boundaries: times out at 31,000 for φ = 0 and φ ≥ 990,
/// completes at the shrink's commit, 30,000 + φ + 10, for φ in 1 .. 989.
#[test]
fn the_stalled_follower_race_flips_exactly_where_the_contract_says() {
    for phi in [1u64, 2, 500, 988, 989] {
        let r = run(&stalled(Some(json!({ "isr_check_ms": phi }))));
        assert_eq!(p1(&r), (Some(30_000 + phi + 10), Some("NONE")), "φ = {phi}");
    }
    for phi in [0u64, 990, 991, 7300, 14999] {
        let r = run(&stalled(Some(json!({ "isr_check_ms": phi }))));
        assert_eq!(
            p1(&r),
            (Some(31_000), Some("REQUEST_TIMED_OUT")),
            "φ = {phi}"
        );
    }
}

/// A crashed broker is fenced more than broker_session_timeout_ms after its last heartbeat
/// reached the controller: with its heartbeats at ψ + k·2000, a crash at 5,000 follows the beat
/// at 4,000 + ψ (or 2,000 + ψ when that one is still ahead).
#[test]
fn heartbeat_phases_move_the_fencing_of_a_crashed_broker() {
    let fenced_at = |psi: u64| {
        let doc = json!({
            "name": "hb",
            "phases": { "heartbeat_ms": [0, 0, psi] },
            "topics": [{ "name": "t", "partitions": 1, "replication_factor": 3 }],
            "actions": [{ "at_ms": 5000, "action": "crash_broker", "broker": 2 }],
            "run_until_ms": 20000
        });
        let v = trace_of(&doc)
            .into_iter()
            .find(|e| e["event"] == "broker_fenced")
            .expect("fenced");
        (
            v["at_ms"].as_u64().unwrap(),
            v["last_heartbeat_ms"].as_u64().unwrap(),
        )
    };
    // Heard 1 ms after it was sent; fenced 9,001 ms after that.
    assert_eq!(fenced_at(0), (4001 + 9001, 4001));
    assert_eq!(fenced_at(600), (4601 + 9001, 4601));
    assert_eq!(fenced_at(1500), (3501 + 9001, 3501));
}

/// A restarted broker's ISR checks run from its restart on, every L/2 (Kafka's scheduler starts
/// with the broker): broker 0 crashes and restarts at 1,234; leading again after an election,
/// it shrinks a stalled follower at a check on its new grid, 1,234 + k·15,000.
#[test]
fn a_restarted_broker_checks_its_isr_from_its_restart() {
    let doc = json!({
        "name": "restart",
        "config": { "min_insync_replicas": 1 },
        "topics": [{ "name": "t", "partitions": 1, "replication_factor": 2 }],
        "actions": [
            { "at_ms": 1000, "action": "crash_broker", "broker": 0 },
            { "at_ms": 1234, "action": "restart_broker", "broker": 0 },
            { "at_ms": 20000, "action": "elect_leader", "topic": "t", "partition": 0, "broker": 0 },
            { "at_ms": 20100, "action": "pause_follower", "broker": 1 },
            { "at_ms": 21000, "action": "produce", "id": "p1", "acks": -1,
              "records": [{ "topic": "t", "partition": 0, "count": 1 }] }
        ],
        "run_until_ms": 90000
    });
    let shrinks: Vec<u64> = trace_of(&doc)
        .into_iter()
        .filter(|e| e["event"] == "isr_shrink_proposed" && e["broker"] == 0)
        .map(|e| e["at_ms"].as_u64().unwrap())
        .collect();
    assert!(
        !shrinks.is_empty(),
        "broker 0 shrinks the ISR once it leads"
    );
    for at in &shrinks {
        assert_eq!(
            (at - 1234) % 15000,
            0,
            "a check on the restart's grid: {at}"
        );
    }
}

#[test]
fn phases_round_trip_in_the_canonical_text_only_when_set() {
    let with = Scenario::from_value(&stalled(Some(
        json!({ "isr_check_ms": 7300, "heartbeat_ms": [0, 1200, 600] }),
    )))
    .unwrap();
    let text = with.to_json();
    assert!(
        text.contains("\"phases\": {\"isr_check_ms\":7300,\"heartbeat_ms\":[0,1200,600]}"),
        "{text}"
    );
    assert_eq!(Scenario::from_json(&text).unwrap(), with);
    let without = Scenario::from_value(&stalled(Some(json!({ "isr_check_ms": 0 })))).unwrap();
    assert!(!without.to_json().contains("\"phases\": {"));
}

/// `purgatory sweep`'s core: the contract's example at every ISR-check phase gives exactly the
/// contract's split, with the answer times of each side.
#[test]
fn the_sweep_finds_the_exact_boundaries_of_the_contracts_example() {
    use purgatory_playground::sweep::{sweep, Beat};
    let scenario = Scenario::from_value(&stalled(None)).unwrap();
    let s = sweep(&scenario, Beat::IsrCheck, None);
    assert_eq!(s.period_ms, 15_000);
    let p1 = &s.requests[0];
    assert_eq!(&*p1.id, "p1");
    let spans: Vec<_> = p1
        .outcomes
        .iter()
        .map(|o| {
            (
                o.outcome.errors.clone(),
                o.phases.clone(),
                o.count,
                o.answered_ms,
            )
        })
        .collect();
    assert_eq!(
        spans,
        vec![
            (
                vec![Some("REQUEST_TIMED_OUT")],
                vec![(0, 0), (990, 14_999)],
                14_011,
                Some((31_000, 31_000))
            ),
            (
                vec![Some("NONE")],
                vec![(1, 989)],
                989,
                Some((30_011, 30_999))
            ),
        ]
    );
    // One broker's heartbeat moved alone: the stalled follower keeps heart-beating, so nothing
    // changes for p1.
    let hb = sweep(
        &scenario,
        Beat::Heartbeat,
        Some(purgatory_playground::sim::action::BrokerId(2)),
    );
    assert_eq!(hb.requests[0].outcomes.len(), 1);
    assert_eq!(hb.requests[0].outcomes[0].count, 2000);
    assert!(hb.to_text().contains("p1: the same at every phase"));
    assert!(s
        .to_text()
        .contains("NONE: phase 1..989 (989/15000, 6.6%), answered 30011..30999 ms"));
    // The boundaries, each with the answers on either side; φ = 0 and φ = 14,999 agree, so the
    // circle closes without one.
    let edges: Vec<_> = p1
        .edges
        .iter()
        .map(|e| (e.phase, e.from, e.to, e.answered_before, e.answered_after))
        .collect();
    assert_eq!(
        edges,
        vec![
            (1, 0, 1, Some(31_000), Some(30_011)),
            (990, 1, 0, Some(30_999), Some(31_000))
        ]
    );
}

/// The runner's `sweep`: text by default, JSON with --json; a wrong option is exit 2 with a line
/// that says what it takes.
#[test]
fn the_runner_sweeps_and_refuses_wrong_options() {
    let dir = std::env::temp_dir().join(format!("phases-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("race.json");
    std::fs::write(&file, stalled(None).to_string()).unwrap();
    let purgatory = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_purgatory"))
            .args(args)
            .output()
            .unwrap()
    };
    let path = file.to_str().unwrap();
    let text = purgatory(&["sweep", path]);
    assert!(text.status.success());
    let out = String::from_utf8(text.stdout).unwrap();
    assert!(
        out.contains("REQUEST_TIMED_OUT: phase 0, 990..14999"),
        "{out}"
    );
    let json = purgatory(&[
        "sweep",
        path,
        "--phase",
        "heartbeat",
        "--broker",
        "1",
        "--json",
    ]);
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["beat"], "heartbeat");
    assert_eq!(v["broker"], 1);
    assert_eq!(v["period_ms"], 2000);
    for (args, says) in [
        (
            vec!["sweep", path, "--phase", "fetch"],
            "--phase takes isr_check or heartbeat, not `fetch`",
        ),
        (
            vec!["sweep", path, "--broker", "9"],
            "--broker 9: the scenario has brokers 0 to 2",
        ),
        (vec!["sweep"], "`sweep` needs a scenario file"),
    ] {
        let o = purgatory(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty());
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(
            err.lines().next().unwrap().contains(says),
            "{args:?}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
