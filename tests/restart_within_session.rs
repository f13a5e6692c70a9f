//! A broker restarted before the controller fenced it (within `broker.session.timeout.ms` of its
//! last heartbeat). Kafka 4.1.1's controller refuses the new process's registration
//! (`DuplicateBrokerRegistrationException`) while the old registration's session is valid, and
//! the broker tries again every heartbeat interval; nothing moves at the controller until that
//! session runs out. The new process's replica fetchers start before it is registered, so a
//! follower catches up while still in the ISR, but it answers no request.
//!
//! Checked on a real cluster (Kafka 4.1.1 from the jars, tools/kafka-check, session timeout
//! 30,000 ms): with the leader crashed at 1,000 and restarted at 3,000, broker 1 still answered
//! NOT_LEADER_OR_FOLLOWER at 15,000 and 16,000, its controller log showed the registration
//! refused every 2 s, and leadership moved to broker 1 only when the session ran out (seen at
//! 29,942, the old leader back in the ISR at 31,516). The model used to fence the old process at
//! the restart itself, which gave p1-to-1 NONE at 15,000. With a follower restarted the same way,
//! Kafka answered the waiting acks=all request NONE once the new process had caught up (its JVM
//! took 4.6 s to start) and removed it from the ISR only when the session ran out.

use purgatory_playground::scenario::{run_scenario, Scenario};
use serde_json::{json, Value};

fn run(actions: Value, run_until_ms: u64) -> purgatory_playground::sim::result::RunResult {
    let doc = json!({
        "name": "restart-within-session",
        "config": {"brokers": 3, "min_insync_replicas": 2, "broker_session_timeout_ms": 30000},
        "topics": [{"name": "t", "partitions": 1, "replication_factor": 3}],
        "actions": actions,
        "run_until_ms": run_until_ms
    });
    let scenario = Scenario::from_value(&doc).expect("valid");
    run_scenario(&scenario, None).expect("runs")
}

/// The actions up to `until_ms` (a file may not hold an action after its end).
fn until(actions: Value, until_ms: u64) -> Value {
    let kept: Vec<Value> = actions
        .as_array()
        .expect("a list")
        .iter()
        .filter(|a| a["at_ms"].as_u64().expect("at_ms") <= until_ms)
        .cloned()
        .collect();
    Value::Array(kept)
}

/// Each response as (id, responded_ms, error, base_offset).
fn answers(
    result: &purgatory_playground::sim::result::RunResult,
) -> Vec<(String, Option<u64>, String, i64)> {
    result
        .responses
        .iter()
        .map(|r| {
            let p = r.partitions.iter().next().expect("one partition");
            let error = p.error.unwrap_or("none").to_string();
            (r.id.to_string(), r.responded_ms, error, p.base_offset)
        })
        .collect()
}

/// (leader, ISR) of t-0 when the run stops.
fn t0(result: &purgatory_playground::sim::result::RunResult) -> (Option<u32>, Vec<u32>) {
    let p = &result.partitions[0];
    (p.leader.map(|b| b.0), p.isr.iter().map(|b| b.0).collect())
}

fn leader_actions() -> Value {
    json!([
        {"at_ms": 1000, "action": "crash_broker", "broker": 0},
        {"at_ms": 3000, "action": "restart_broker", "broker": 0},
        {"at_ms": 15000, "action": "produce", "id": "p1-to-1", "acks": 1, "broker": 1,
         "records": [{"topic": "t", "partition": 0, "count": 10}]},
        {"at_ms": 16000, "action": "produce", "id": "p2-to-0", "acks": 1, "broker": 0,
         "records": [{"topic": "t", "partition": 0, "count": 10}]},
        {"at_ms": 45000, "action": "produce", "id": "p3-to-1", "acks": 1, "broker": 1,
         "records": [{"topic": "t", "partition": 0, "count": 5}]}
    ])
}

#[test]
fn a_leader_restarted_within_its_session_keeps_its_leadership_until_the_session_runs_out() {
    let result = run(leader_actions(), 50_000);
    let none = "NONE".to_string();
    let not_leader = "NOT_LEADER_OR_FOLLOWER".to_string();
    assert_eq!(
        answers(&result),
        vec![
            // Broker 1 is not the leader yet: the controller still holds broker 0's registration.
            ("p1-to-1".into(), Some(15_000), not_leader, -1),
            // The new process answers nothing before its registration is accepted.
            ("p2-to-0".into(), None, "none".into(), -1),
            ("p3-to-1".into(), Some(45_000), none, 0),
        ]
    );
    assert!(result.responses[1].connection_closed);
    assert_eq!(t0(&result), (Some(1), vec![0, 1, 2]));
    // The last heartbeat reached the controller at 1 ms: the session runs out at 30,002.
    assert_eq!(
        t0(&run(until(leader_actions(), 30_001), 30_001)),
        (Some(0), vec![0, 1, 2])
    );
    assert_eq!(
        t0(&run(until(leader_actions(), 30_002), 30_002)),
        (Some(1), vec![1, 2])
    );
}

fn follower_actions() -> Value {
    json!([
        {"at_ms": 1000, "action": "crash_broker", "broker": 2},
        {"at_ms": 1500, "action": "produce", "id": "p1", "acks": -1, "timeout_ms": 60000,
         "records": [{"topic": "t", "partition": 0, "count": 10}]},
        {"at_ms": 3000, "action": "restart_broker", "broker": 2}
    ])
}

#[test]
fn a_follower_restarted_within_its_session_catches_up_inside_the_isr_and_leaves_it_only_when_the_session_runs_out(
) {
    let result = run(follower_actions(), 29_000);
    // Its first fetch reaches the leader at 3,001 and its Fetch@10 at 3,003, while it is still
    // in the ISR: the HW moves with it.
    assert_eq!(
        answers(&result),
        vec![("p1".into(), Some(3_003), "NONE".into(), 0)]
    );
    assert_eq!(t0(&result), (Some(0), vec![0, 1, 2]));
    // The session runs out at 30,002: fenced, out of the ISR; the registration sent at 31,028
    // (a heartbeat interval after the last refusal reached it) is accepted at 31,029, and the
    // next fetch brings it back into the ISR.
    assert_eq!(t0(&run(follower_actions(), 30_002)), (Some(0), vec![0, 1]));
    assert_eq!(t0(&run(follower_actions(), 31_028)), (Some(0), vec![0, 1]));
    assert_eq!(
        t0(&run(follower_actions(), 32_000)),
        (Some(0), vec![0, 1, 2])
    );
}

#[test]
fn a_broker_restarted_after_it_was_fenced_registers_at_once() {
    // x04's timing: fenced at 9,002, restarted at 20,000, unfenced when its registration arrives.
    let actions = json!([
        {"at_ms": 1000, "action": "crash_broker", "broker": 2},
        {"at_ms": 20000, "action": "restart_broker", "broker": 2},
        {"at_ms": 20002, "action": "produce", "id": "p1", "acks": 1, "broker": 2,
         "records": [{"topic": "t", "partition": 0, "count": 1}]}
    ]);
    let doc = json!({
        "name": "restart-after-fence",
        "config": {"brokers": 3},
        "topics": [{"name": "t", "partitions": 1, "replication_factor": 3}],
        "actions": actions,
        "run_until_ms": 20002
    });
    let result = run_scenario(&Scenario::from_value(&doc).expect("valid"), None).expect("runs");
    // Registered at 20,001, so at 20,002 it answers (as a follower) rather than closing the
    // connection; a produce in the millisecond its registration arrives still finds it closed
    // (actions come first within a millisecond).
    assert_eq!(
        answers(&result),
        vec![(
            "p1".into(),
            Some(20_002),
            "NOT_LEADER_OR_FOLLOWER".into(),
            -1
        )]
    );
}
