use super::*;

const S03: &str = include_str!("../../scenarios/s03-stalled-follower-completes-at-isr-shrink.json");
const X13: &str = include_str!("../../scenarios/x13-acks1-acknowledged-then-lost.json");

fn scenario(text: &str) -> Scenario {
    Scenario::from_json(text).expect("a curated scenario reads")
}

fn row<'a>(c: &'a Comparison, id: &str) -> &'a OutcomeRow {
    c.outcomes
        .iter()
        .find(|r| r.id == id)
        .expect("the request is in the table")
}

#[test]
fn changes_read_back_from_their_canonical_text() {
    for text in [
        "acks=1",
        "acks=0",
        "acks=all",
        "actions[1].acks=1",
        "timeout_ms=5000",
        "actions[1].timeout_ms=100",
        "min.insync.replicas=2",
        "replica.lag.time.max.ms=10000",
        "network_delay_ms=5",
        "actions[0].at_ms=12000",
        "actions[0]=removed",
    ] {
        let change = Change::parse(text).unwrap();
        assert_eq!(change.to_string(), text);
        assert_eq!(Change::parse(&change.to_string()), Ok(change));
    }
    // The file's names and a `config.` prefix read as Kafka's.
    assert_eq!(
        Change::parse("config.min_insync_replicas = 2")
            .unwrap()
            .to_string(),
        "min.insync.replicas=2"
    );
    assert_eq!(Change::parse("acks=-1").unwrap().to_string(), "acks=all");
}

#[test]
fn a_bad_change_says_what_is_expected() {
    let err = |text: &str| Change::parse(text).unwrap_err();
    assert!(err("acks").contains("write path=value"));
    assert_eq!(err("acks=2"), "acks: `2` is not 0, 1 or all");
    assert!(err("fetch.max.bytes=1").contains("not something a what-if changes"));
    assert!(err("actions[x].at_ms=1").contains("`x` is not an action's index"));
    assert!(err("actions[0]=gone").contains("can only be `removed`"));
    assert!(err("actions[0].broker=1").contains("cannot be changed"));
    assert_eq!(
        err("timeout_ms=soon"),
        "timeout_ms: `soon` is not a whole number of milliseconds from 0"
    );
    // A count is not in milliseconds.
    assert_eq!(
        err("min.insync.replicas=-1"),
        "min.insync.replicas: `-1` is not a whole number from 0"
    );
    assert!(err(&"a".repeat(500)).contains("at most 200 characters"));

    let s03 = scenario(S03);
    let apply = |text: &str| Change::parse(text).unwrap().apply(&s03).unwrap_err();
    assert_eq!(
        apply("actions[9].at_ms=1"),
        "actions[9].at_ms=1: the scenario's actions are actions[0] to actions[1]"
    );
    assert_eq!(
        apply("actions[0].acks=1"),
        "actions[0].acks=1: actions[0] is pause_follower, not a produce request"
    );
    // The parser's own rules hold for the second run, with its path.
    assert!(apply("min.insync.replicas=0")
        .starts_with("with min.insync.replicas=0: config.min_insync_replicas"));
    assert!(apply("actions[1].at_ms=70000").contains("actions[1].at_ms"));
}

#[test]
fn a_change_touches_only_what_it_names() {
    let s03 = scenario(S03);
    let b = Change::parse("acks=1").unwrap().apply(&s03).unwrap();
    let mut expected = s03.clone();
    if let crate::sim::action::Action::Produce(spec) = &mut expected.actions[1].action {
        spec.acks = 1;
    }
    expected.story.clear(); // its captions tell the first run
    assert_eq!(b, expected);

    let b = Change::parse("actions[0]=removed")
        .unwrap()
        .apply(&s03)
        .unwrap();
    assert_eq!(b.actions.len(), 1);
    assert_eq!(b.actions[0], s03.actions[1]);

    let b = Change::parse("request.timeout.ms=5000")
        .unwrap()
        .apply(&s03)
        .unwrap();
    assert_eq!(b.config.request_timeout_ms, 5000);
    let b = Change::parse("timeout_ms=5000")
        .unwrap()
        .apply(&s03)
        .unwrap();
    match &b.actions[1].action {
        crate::sim::action::Action::Produce(spec) => assert_eq!(spec.timeout_ms, Some(5000)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn acks_1_against_all_on_s03_parts_where_the_leader_answers() {
    let s03 = scenario(S03);
    let (_, c) = what_if(&s03, &Change::parse("acks=1").unwrap()).unwrap();
    let d = c.divergence.as_ref().expect("the runs part");
    // The arrival differs only in its acks (the change itself); the first consequence is the
    // leader's answer: at once with acks=1, a DelayedProduce with acks=all.
    assert_eq!(d.at_ms, 20_000);
    assert_eq!(d.a.as_ref().unwrap()["event"], "delayed_produce_created");
    assert_eq!(d.b.as_ref().unwrap()["event"], "produce_answered_at_once");
    let p1 = row(&c, "p1");
    assert!(p1.differs);
    assert_eq!(p1.a.as_ref().unwrap().answered_ms, Some(37_310));
    assert_eq!(p1.b.as_ref().unwrap().answered_ms, Some(20_000));
    assert_eq!(p1.a.as_ref().unwrap().outcome, "NONE");
    assert_eq!(c.differing, 1);
    assert_eq!(c.marks[0].kind, "divergence");
    assert_eq!(c.b.change.as_deref(), Some("every request with acks=1"));
}

#[test]
fn acks_1_loses_an_acknowledged_record_that_acks_all_keeps() {
    let x13 = scenario(X13);
    let (_, c) = what_if(&x13, &Change::parse("acks=all").unwrap()).unwrap();
    let p1 = row(&c, "p1-acks-1");
    let (a, b) = (p1.a.as_ref().unwrap(), p1.b.as_ref().unwrap());
    assert_eq!((a.outcome.as_str(), a.lost_ms), ("NONE", Some(9_003)));
    assert_eq!(b.lost_ms, None, "acks=all never acknowledged it: {b:?}");
    assert!(b.outcome.contains("connection closed"), "{b:?}");
    assert!(c.marks.iter().any(|m| m.kind == "lost" && m.run == "a"));
    let text = c.to_text();
    assert!(text.contains("LOST at 9,003 ms"), "{text}");
}

#[test]
fn a_scenario_against_itself_does_not_diverge() {
    let s03 = scenario(S03);
    let c = compare(&s03, &s03, None).unwrap();
    assert_eq!(c.divergence, None);
    assert_eq!(c.differing, 0);
    assert!(c.marks.is_empty());
    assert!(c.to_text().contains("the same, event for event"));
}

#[test]
fn a_removed_request_is_a_row_of_its_own() {
    let s03 = scenario(S03);
    let (_, c) = what_if(&s03, &Change::parse("actions[1]=removed").unwrap()).unwrap();
    let p1 = row(&c, "p1");
    assert!(p1.a.is_some() && p1.b.is_none() && p1.differs);
    assert!(c.to_text().contains("not in this run"));
}

#[test]
fn moving_the_pause_later_changes_the_answer() {
    // s03's follower stalls at 0; stalled at 25,000 instead (after p1 arrives at 20,000), it
    // fetches p1's records first and p1 completes at once on its fetch.
    let s03 = scenario(S03);
    let (_, c) = what_if(&s03, &Change::parse("actions[0].at_ms=25000").unwrap()).unwrap();
    let p1 = row(&c, "p1");
    let b = p1.b.as_ref().unwrap();
    assert_eq!(b.outcome, "NONE");
    assert!(b.answered_ms.unwrap() < 21_000, "{b:?}");
    assert_eq!(c.divergence.as_ref().unwrap().at_ms, 0);
    assert!(c
        .b
        .change
        .as_deref()
        .unwrap()
        .contains("broker 2's pause at 25,000 ms instead of 0 ms"));
}

#[test]
fn a_session_exports_its_what_if_while_it_still_applies() {
    let mut s03 = scenario(S03);
    s03.compare = Some(Change::parse("actions[0]=removed").unwrap());
    let mut session = crate::session::Session::new(&s03, false).unwrap();
    assert_eq!(session.export(false).compare, s03.compare);
    session.set_compare(Some(Change::parse("min.insync.replicas=1").unwrap()));
    let exported = session.export(false);
    assert_eq!(
        exported.compare.as_ref().unwrap().to_string(),
        "min.insync.replicas=1"
    );
    assert_eq!(
        Scenario::from_json(&exported.to_json()).unwrap().compare,
        exported.compare
    );
    session.set_compare(Some(Change::parse("actions[7].at_ms=5").unwrap()));
    assert_eq!(
        session.export(false).compare,
        None,
        "a change that no longer applies is dropped"
    );
}

/// The events one run has at the divergence's millisecond and the other lacks: with acks=1, p1
/// is answered at once in B where A (acks=all) parks it; the arrival itself, which differs only
/// by the change, is in neither list, and the fetch answers both runs have are in neither.
#[test]
fn the_divergence_lists_what_each_run_alone_does_in_its_millisecond() {
    let s03 = scenario(S03);
    let (_, c) = what_if(&s03, &Change::parse("acks=1").unwrap()).unwrap();
    let d = c.divergence.expect("the runs part");
    let kinds = |events: &[Value]| -> Vec<String> {
        events
            .iter()
            .map(|e| e["event"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(d.at_ms, 20_000);
    assert_eq!(
        kinds(&d.only_a),
        [
            "delayed_produce_created",
            "operation_watched",
            "timer_added"
        ]
    );
    assert_eq!(
        kinds(&d.only_b),
        ["produce_answered_at_once", "produce_response_sent"]
    );
    // Moved to 1,000 ms in B, p1 arrives where A has nothing of its own.
    let (_, c) = what_if(&s03, &Change::parse("actions[1].at_ms=1000").unwrap()).unwrap();
    let d = c.divergence.expect("the runs part");
    assert_eq!((d.at_ms, d.only_a.len()), (1000, 0));
    assert_eq!(kinds(&d.only_b)[0], "produce_received");
}

/// The first divergence of two traces written whole, as the runner prints them: the reference
/// the lockstep comparison is held to.
fn first_divergence_of_the_text(a: &[u8], b: &[u8]) -> Option<Divergence> {
    let lines = |trace: &[u8]| -> Vec<Value> {
        trace
            .split(|&c| c == b'\n')
            .filter(|l| !l.is_empty())
            .map(|line| parse_line(line).expect("a trace line reads"))
            .collect()
    };
    let (lines_a, lines_b) = (lines(a), lines(b));
    let at = |lines: &[Value], ms: u64| -> Vec<Value> {
        lines.iter().filter(|v| v["at_ms"] == ms).cloned().collect()
    };
    let first = (0..lines_a.len().max(lines_b.len())).find(|&i| {
        match (lines_a.get(i), lines_b.get(i)) {
            (Some(x), Some(y)) => x != y && !same_arrival(x, y),
            _ => true,
        }
    })?;
    Some(divergence(
        first as u64 + 1,
        lines_a.get(first).cloned(),
        lines_b.get(first).cloned(),
        |ms| (at(&lines_a, ms), at(&lines_b, ms)),
    ))
}

/// The lockstep comparison keeps no trace whole: it must find what comparing both traces
/// written whole finds, for every curated scenario and a change of each kind that applies to it.
#[test]
fn the_lockstep_comparison_finds_what_the_whole_traces_show() {
    let traced = |s: &Scenario| {
        let mut trace = Vec::new();
        let result = crate::scenario::run_scenario(s, Some(&mut trace)).unwrap();
        (result, trace)
    };
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let changes = [
        "acks=1",
        "acks=0",
        "min.insync.replicas=1",
        "replica.lag.time.max.ms=10000",
        "actions[0]=removed",
        "actions[1].at_ms=100",
        "timeout_ms=500",
    ];
    let mut parted = 0;
    for file in &files {
        let a = Scenario::from_json(&std::fs::read_to_string(file).unwrap()).unwrap();
        for change in changes {
            let Ok(b) = Change::parse(change).unwrap().apply(&a) else {
                continue;
            };
            let played = lockstep::play_both(&a, &b).unwrap();
            let ((result_a, trace_a), (result_b, trace_b)) = (traced(&a), traced(&b));
            let whole = first_divergence_of_the_text(&trace_a, &trace_b);
            let at = format!("{} with {change}", file.display());
            assert_eq!(played.divergence, whole, "{at}");
            assert_eq!(played.a, result_a, "{at}");
            assert_eq!(played.b, result_b, "{at}");
            parted += usize::from(whole.is_some());
        }
    }
    assert!(parted >= 50, "the changes part most runs: {parted}");
}
