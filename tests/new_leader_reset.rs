//! A new leader's view of a follower outside the ISR (Kafka: `Replica.resetReplicaState` with
//! `isNewLeader`): its last caught-up time is `0L` on the broker's wall clock, 1970, so it is not
//! caught up by time from the first instant, and the high watermark does not wait for it, even
//! once it has fetched (and so is ISR-eligible by its broker epoch) while behind. The model's clock
//! starts at the cluster's start, where a literal 0 would count as caught up for the run's first
//! replica.lag.time.max.ms: this run gave p1 REQUEST_TIMED_OUT at 42,100 ms with that 0.

use purgatory_playground::scenario::run_scenario;
use purgatory_playground::scenario::Scenario;
use serde_json::json;

#[test]
fn a_follower_outside_the_isr_that_fetched_while_behind_does_not_hold_the_new_leaders_hw() {
    // x06 with one more turn: broker 2 (out of the ISR since it was fenced at 9,002) fetches once
    // from the new leader 1 while behind it (Fetch@10 against LEO 20), then stops.
    let doc = json!({
        "name": "new-leader-reset",
        "config": {"min_insync_replicas": 1},
        "topics": [{"name": "t", "partitions": 1, "replication_factor": 3}],
        "actions": [
            {"at_ms": 0, "action": "crash_broker", "broker": 2},
            {"at_ms": 1000, "action": "produce", "id": "setup", "acks": 1, "records": [{"topic": "t", "partition": 0, "count": 10}]},
            {"at_ms": 11500, "action": "restart_broker", "broker": 2},
            {"at_ms": 11500, "action": "pause_follower", "broker": 2},
            {"at_ms": 12000, "action": "elect_leader", "topic": "t", "partition": 0, "broker": 1},
            {"at_ms": 12020, "action": "produce", "id": "p0", "acks": 1, "records": [{"topic": "t", "partition": 0, "count": 10}]},
            {"at_ms": 12050, "action": "resume_follower", "broker": 2},
            {"at_ms": 12050, "action": "pause_follower", "broker": 2},
            {"at_ms": 12100, "action": "produce", "id": "p1", "acks": -1, "records": [{"topic": "t", "partition": 0, "count": 10}]}
        ],
        "run_until_ms": 60000
    });
    let scenario = Scenario::from_value(&doc).expect("valid");
    let result = run_scenario(&scenario, None).expect("runs");
    let p1 = result
        .responses
        .iter()
        .find(|r| &*r.id == "p1")
        .expect("p1");
    let error = p1.partitions.iter().next().and_then(|p| p.error);
    // Broker 0's Fetch@30 alone moves the HW: answered as soon as broker 0 has the records.
    assert_eq!((p1.responded_ms, error), (Some(12_102), Some("NONE")));
    let t0 = &result.partitions[0];
    let isr: Vec<u32> = t0.isr.iter().map(|b| b.0).collect();
    assert_eq!(
        (t0.leader.map(|b| b.0), t0.high_watermark, isr),
        (Some(1), 30, vec![0, 1])
    );
}
