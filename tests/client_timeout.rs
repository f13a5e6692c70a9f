//! The producer's own timeout apart from the broker's (kafka-semantics.md, edge case 17): a Java
//! producer fails a request in flight for more than its `request.timeout.ms` and closes the
//! connection, while the broker, not told, keeps the delayed produce and answers later into the
//! closed connection. The result's `client_timed_out_ms` (an optional field) says when; the
//! broker's side (`responded_ms`, the errors) stays as it was.

use purgatory_playground::compare::compare;
use purgatory_playground::scenario::{run_scenario, Scenario};
use purgatory_playground::sim::result::{ResponseResult, RunResult};
use purgatory_playground::sweep::{sweep, Beat};
use serde_json::{json, Value};

/// Follower 2 paused at 0 with min.insync.replicas 2: an acks=all request waits until the ISR
/// check drops follower 2 (its commit at 45,010) or its own timeout.
fn scenario(request_timeout_ms: u64, produce: Value, more: &[Value]) -> Scenario {
    let mut actions = vec![
        json!({"at_ms": 0, "action": "pause_follower", "broker": 2}),
        produce,
    ];
    actions.extend(more.iter().cloned());
    Scenario::from_value(&json!({
        "name": "client-timeout",
        "config": {"min_insync_replicas": 2, "request_timeout_ms": request_timeout_ms},
        "topics": [{"name": "t", "partitions": 1, "replication_factor": 3}],
        "actions": actions,
        "run_until_ms": 70000
    }))
    .expect("valid")
}

fn produce(acks: i64, timeout_ms: u64) -> Value {
    json!({"at_ms": 1000, "action": "produce", "id": "p1", "acks": acks, "timeout_ms": timeout_ms,
           "records": [{"topic": "t", "partition": 0, "count": 10}]})
}

fn p1(result: &RunResult) -> &ResponseResult {
    &result.responses[0]
}

fn trace_of(scenario: &Scenario) -> String {
    let mut trace = Vec::new();
    run_scenario(scenario, Some(&mut trace)).expect("runs");
    String::from_utf8(trace).expect("utf-8")
}

#[test]
fn the_producer_gives_up_first_when_the_request_asks_the_broker_for_longer() {
    let s = scenario(10_000, produce(-1, 60_000), &[]);
    let result = run_scenario(&s, None).expect("runs");
    let r = p1(&result);
    // The producer: more than 10,000 ms after it sent p1. The broker: the ISR shrink's commit.
    assert_eq!(r.client_timed_out_ms, Some(11_001));
    assert_eq!(r.responded_ms, Some(45_010));
    assert!(!r.connection_closed, "the broker's side is unchanged");
    assert_eq!(r.partitions[0].error, Some("NONE"));
    assert_eq!(
        result.partitions[0].high_watermark, 10,
        "committed all the same"
    );
    let written = serde_json::to_string(r).expect("json");
    assert!(
        written.contains(r#""connection_closed":false,"client_timed_out_ms":11001,"#),
        "{written}"
    );

    let trace = trace_of(&s);
    assert!(
        trace.contains(r#""at_ms":11001,"id":144,"cause":18,"event":"client_request_timed_out","request":"p1","broker":0,"request_timeout_ms":10000}"#),
        "{trace}"
    );
    let answer = trace
        .lines()
        .find(|l| l.contains(r#""event":"produce_response_sent""#))
        .expect("the broker answers");
    assert!(answer.ends_with(r#","client_gone":true}"#), "{answer}");
}

#[test]
fn with_one_setting_for_both_the_broker_answers_first_and_nothing_is_added() {
    // Sent at 1,000 with the producer's own 30,000: the broker's timer fires at 31,000, the
    // producer's check could fire at 31,001 at the earliest.
    let s = scenario(30_000, produce(-1, 30_000), &[]);
    let result = run_scenario(&s, None).expect("runs");
    assert_eq!(p1(&result).responded_ms, Some(31_000));
    assert_eq!(p1(&result).partitions[0].error, Some("REQUEST_TIMED_OUT"));
    assert_eq!(p1(&result).client_timed_out_ms, None);
    let written = serde_json::to_string(&result).expect("json");
    assert!(!written.contains("client_timed_out_ms"), "{written}");
    let trace = trace_of(&s);
    assert!(!trace.contains("client_request_timed_out") && !trace.contains("client_gone"));
}

#[test]
fn in_the_millisecond_both_run_out_the_producer_reads_the_answer() {
    // The broker's timeout one ms longer than the producer's: both at 31,001. Kafka's
    // NetworkClient.poll handles received answers before it looks for timed-out requests, so the
    // producer's check runs once the millisecond has run, and reads the broker's answer.
    let result = run_scenario(&scenario(30_000, produce(-1, 30_001), &[]), None).expect("runs");
    assert_eq!(p1(&result).responded_ms, Some(31_001));
    assert_eq!(p1(&result).partitions[0].error, Some("REQUEST_TIMED_OUT"));
    assert_eq!(p1(&result).client_timed_out_ms, None);
    // One ms longer still, the producer has gone by then.
    let result = run_scenario(&scenario(30_000, produce(-1, 30_002), &[]), None).expect("runs");
    assert_eq!(p1(&result).client_timed_out_ms, Some(31_001));
    assert_eq!(p1(&result).responded_ms, Some(31_002));
}

#[test]
fn an_answer_or_a_dropped_connection_before_the_deadline_leaves_the_producer_nothing_to_do() {
    // acks=1 is answered at once; acks=0 is never in flight for an answer.
    for acks in [1, 0] {
        let result = run_scenario(&scenario(10_000, produce(acks, 60_000), &[]), None).unwrap();
        assert_eq!(p1(&result).client_timed_out_ms, None, "acks={acks}");
    }
    // The leader crashes before the producer's deadline: the connection drops first.
    let crash = json!({"at_ms": 5000, "action": "crash_broker", "broker": 0});
    let result = run_scenario(&scenario(10_000, produce(-1, 60_000), &[crash]), None).unwrap();
    assert!(p1(&result).connection_closed);
    assert_eq!(p1(&result).client_timed_out_ms, None);
    // After it: the producer had gone and closed the connection itself; the broker loses the
    // request it held, and nobody sees a connection drop.
    let crash = json!({"at_ms": 20000, "action": "crash_broker", "broker": 0});
    let s = scenario(10_000, produce(-1, 60_000), &[crash]);
    let result = run_scenario(&s, None).unwrap();
    assert!(!p1(&result).connection_closed);
    assert_eq!(
        (p1(&result).client_timed_out_ms, p1(&result).responded_ms),
        (Some(11_001), None)
    );
    assert!(!trace_of(&s).contains(r#""event":"connection_closed""#));
    // The ISR shrink commits (45,010) before a 50,000 ms deadline: the producer reads NONE.
    let result = run_scenario(&scenario(50_000, produce(-1, 60_000), &[]), None).unwrap();
    assert_eq!(p1(&result).responded_ms, Some(45_010));
    assert_eq!(p1(&result).client_timed_out_ms, None);
}

#[test]
fn the_sweep_and_a_what_if_speak_of_what_the_producer_got() {
    let early = scenario(10_000, produce(-1, 60_000), &[]);
    let swept = sweep(&early, Beat::IsrCheck, None);
    let outcomes: Vec<String> = swept.requests[0]
        .outcomes
        .iter()
        .map(|o| o.outcome.label())
        .collect();
    assert_eq!(outcomes, ["no answer, timed out in the producer"]);
    assert_eq!(swept.requests[0].outcomes[0].answered_ms, None);

    // The same request with the producer's own timeout long enough: it reads NONE.
    let patient = scenario(60_000, produce(-1, 60_000), &[]);
    let comparison = compare(&early, &patient, None).expect("runs");
    let row = &comparison.outcomes[0];
    let (a, b) = (row.a.as_ref().unwrap(), row.b.as_ref().unwrap());
    assert_eq!(
        (a.outcome.as_str(), a.answered_ms),
        ("no answer, timed out in the producer", None)
    );
    assert_eq!((b.outcome.as_str(), b.answered_ms), ("NONE", Some(45_010)));
    assert_eq!((a.base_offsets.len(), b.base_offsets.clone()), (0, vec![0]));
    assert!(row.differs);

    // Both give up, at different times: what they got differs by when.
    let later = scenario(20_000, produce(-1, 60_000), &[]);
    let comparison = compare(&early, &later, None).expect("runs");
    let row = &comparison.outcomes[0];
    let times = (row.a.as_ref().unwrap(), row.b.as_ref().unwrap());
    let times = (times.0.client_timed_out_ms, times.1.client_timed_out_ms);
    assert_eq!(times, (Some(11_001), Some(21_001)));
    assert!(row.differs);
    let marks: Vec<(u64, &str)> = comparison
        .marks
        .iter()
        .filter(|m| m.kind == "answer")
        .map(|m| (m.at_ms, m.run))
        .collect();
    assert_eq!(marks, [(11_001, "a"), (21_001, "b")]);
    assert!(
        comparison
            .to_text()
            .contains("no answer, timed out in the producer at 11,001 ms"),
        "{}",
        comparison.to_text()
    );
}
