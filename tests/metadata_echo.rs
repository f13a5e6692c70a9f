//! The leader's own committed ISR change coming back through the metadata log (kafka-semantics.md
//! b.12: with KRaft every metadata update for a partition led here goes through
//! `Partition.makeLeader`, which stores the committed ISR). Kafka's `makeLeader` skips only a
//! partition epoch older than its own; at the same epoch it stores the ISR again, and so drops an
//! ISR change the leader proposed after the AlterPartition response (the later answer to that
//! proposal is ignored, as the partition state it belongs to is gone; the controller's record of
//! it reaches the leader as metadata).

use purgatory_playground::scenario::{run_scenario, Scenario};
use serde_json::{json, Value};

/// Follower 2 paused from 2,000 to 44,950 ms; with a 50 ms network and an 80 ms controller round
/// trip, the shrink commits at 45,080 (the response), follower 2's fetch asks to expand at
/// 45,100, and the shrink's metadata reaches the leader at 45,130.
fn echo_race() -> Scenario {
    Scenario::from_value(&json!({
        "name": "metadata-echo",
        "config": {"min_insync_replicas": 2, "network_delay_ms": 50, "alter_partition_delay_ms": 80},
        "topics": [{"name": "t", "partitions": 1, "replication_factor": 3}],
        "actions": [
            {"at_ms": 1000, "action": "produce", "id": "a", "acks": "all",
             "records": [{"topic": "t", "partition": 0, "count": 10}]},
            {"at_ms": 2000, "action": "pause_follower", "broker": 2},
            {"at_ms": 3000, "action": "produce", "id": "b", "acks": 1,
             "records": [{"topic": "t", "partition": 0, "count": 10}]},
            {"at_ms": 44950, "action": "resume_follower", "broker": 2}
        ],
        "run_until_ms": 46000
    }))
    .expect("valid")
}

/// The leader's ISR events, as `(at_ms, event, isr)`.
fn isr_events(scenario: &Scenario) -> Vec<(u64, String, Value)> {
    let mut trace = Vec::new();
    run_scenario(scenario, Some(&mut trace)).expect("runs");
    String::from_utf8(trace)
        .expect("utf-8")
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|e| e["broker"] == 0 && e["event"].as_str().is_some_and(|n| n.starts_with("isr_")))
        .map(|e| {
            // An update that drops a proposal says which: `[isr, dropped]`.
            let isr = match e.get("dropped_proposal") {
                Some(dropped) => Some(json!([e["isr"], dropped])),
                None => e.get("isr").or(e.get("proposed_isr")).cloned(),
            };
            (
                e["at_ms"].as_u64().expect("a time"),
                e["event"].as_str().expect("a name").to_string(),
                isr.unwrap_or(Value::Null),
            )
        })
        .collect()
}

#[test]
fn the_echo_of_a_committed_shrink_drops_the_expansion_proposed_after_it() {
    let events = isr_events(&echo_race());
    let from_shrink: Vec<_> = events.iter().filter(|e| e.0 >= 45_000).cloned().collect();
    let ev = |at: u64, name: &str, isr: Value| (at, name.to_string(), isr);
    assert_eq!(
        from_shrink,
        vec![
            ev(45_000, "isr_shrink_proposed", json!([0, 1])),
            ev(45_080, "isr_change_committed", json!([0, 1])),
            ev(45_100, "isr_expand_proposed", json!([0, 1, 2])),
            // The echo stores the committed {0, 1}: the pending expansion is gone ...
            ev(45_130, "isr_updated", json!([[0, 1], [0, 1, 2]])),
            // ... its answer at 45,180 is ignored, and the controller's record of it comes as
            // metadata, one network delay later.
            ev(45_230, "isr_updated", json!([0, 1, 2])),
        ]
    );
}

#[test]
fn an_echo_that_changes_nothing_says_nothing() {
    // The same run without the resume: the shrink's echo finds the ISR it committed and no
    // pending change, and writes no event.
    let mut scenario = echo_race();
    scenario.actions.pop();
    let late: Vec<_> = isr_events(&scenario)
        .into_iter()
        .filter(|e| e.0 >= 45_000)
        .collect();
    assert_eq!(late.len(), 2, "{late:?}");
    assert_eq!(
        (late[0].1.as_str(), late[1].1.as_str()),
        ("isr_shrink_proposed", "isr_change_committed")
    );
}
