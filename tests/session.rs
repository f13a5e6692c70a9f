//! Sessions: going back to any instant shows exactly the state a straight run has there, playing
//! on from it gives the same trace and result as a straight run, a fork drops the future and one
//! undo brings it back, an exported session reopens byte for byte, the trace hash is the
//! runner's, and breakpoints stop where the story turns.

use serde_json::json;

use purgatory_playground::kafka::trace::TraceHash;
use purgatory_playground::scenario::run_scenario;
use purgatory_playground::scenario::Scenario;
use purgatory_playground::session::breakpoints::{BreakpointSpec, HitSays};
use purgatory_playground::session::{Session, QUIET_STEP_MS};
use purgatory_playground::sim::{view, Simulation};

mod common;
use common::{random_scenario, SplitMix64};

const ALL: u64 = u64::MAX;

/// Computes a scenario's whole run ahead, as the page does, in calls of bounded work; false if
/// that took an unreasonable number of calls.
fn extend_all(session: &mut Session) -> bool {
    (0..10_000).any(|_| session.extend(ALL))
}

fn curated() -> Vec<(String, Scenario)> {
    let out: Vec<(String, Scenario)> = common::curated_files()
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            let name = path.file_stem().unwrap().to_str().unwrap().to_string();
            (name, Scenario::from_json(&text).unwrap())
        })
        .collect();
    assert!(out.len() >= 20, "only {} scenarios", out.len());
    out
}

fn load(name: &str) -> Scenario {
    curated()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no scenario {name}"))
        .1
}

/// The trace of a straight run as JSON lines, and its hash.
fn straight_trace(scenario: &Scenario) -> (Vec<String>, String) {
    let mut out = Vec::new();
    run_scenario(scenario, Some(&mut out)).unwrap();
    let mut hash = TraceHash::default();
    hash.update(&out);
    let text = String::from_utf8(out).unwrap();
    (text.lines().map(str::to_owned).collect(), hash.hex())
}

fn result_json(session: &Session) -> String {
    serde_json::to_string(&session.result()).unwrap()
}

/// The snapshot of a straight run stopped at `at_ms`.
fn straight_snapshot(scenario: &Scenario, at_ms: u64) -> String {
    let mut sim = Simulation::from_scenario(scenario, true).unwrap();
    sim.run_until(at_ms);
    serde_json::to_string(&view::snapshot(&sim)).unwrap()
}

fn snapshot(session: &Session) -> String {
    serde_json::to_string(&view::snapshot(session.sim())).unwrap()
}

/// A live session on the page's defaults: 3 brokers, RF 3, min.insync.replicas 2, no script.
fn live_session() -> Session {
    let setup = json!({"name": "live", "config": {"min_insync_replicas": 2},
        "topics": [{"name": "t", "partitions": 1, "replication_factor": 3}],
        "actions": [], "run_until_ms": 0});
    Session::new(&Scenario::from_value(&setup).unwrap(), true).unwrap()
}

fn take_lines(session: &mut Session) -> (bool, Vec<String>) {
    let batch = session.take_events();
    assert_eq!(batch.dropped, 0);
    let lines = batch
        .events
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect();
    (batch.reset, lines)
}

#[test]
fn a_scenario_computed_ahead_has_the_runners_trace_hash_and_result() {
    for (name, scenario) in curated() {
        let (_, hash) = straight_trace(&scenario);
        let mut session = Session::new(&scenario, false).unwrap();
        assert_eq!(
            session.trace_hash(),
            None,
            "{name}: hash before the run is computed"
        );
        assert!(extend_all(&mut session), "{name}");
        assert_eq!(
            session.trace_hash().as_deref(),
            Some(hash.as_str()),
            "{name}"
        );
        assert_eq!(
            session.now_ms(),
            0,
            "{name}: computing ahead does not move the playhead"
        );
        session.seek(scenario.run_until_ms);
        let straight = run_scenario(&scenario, None).unwrap();
        assert_eq!(
            result_json(&session),
            serde_json::to_string(&straight).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn seeking_to_any_instant_then_playing_on_matches_a_straight_run() {
    for (name, scenario) in curated() {
        let (lines, _) = straight_trace(&scenario);
        let end = scenario.run_until_ms;
        let mut session = Session::new(&scenario, false).unwrap();
        extend_all(&mut session);
        let mut previous = 0;
        for t in [end / 2, end / 7, 0, end, end / 3] {
            assert_eq!(session.seek(t), t, "{name}");
            assert_eq!(
                snapshot(&session),
                straight_snapshot(&scenario, t),
                "{name} at {t}"
            );
            let (reset, seen) = take_lines(&mut session);
            assert!(
                reset || t >= previous,
                "{name}: a jump back resets the events"
            );
            assert!(
                seen.iter().all(|l| at_ms(l) <= t),
                "{name}: no event after the instant"
            );
            let mut after = Vec::new();
            while session.now_ms() < end {
                // In slices, taking the events after each, as the page does every frame.
                session.advance(end - session.now_ms(), 200, false);
                after.extend(take_lines(&mut session).1);
            }
            let expected: Vec<&String> = lines.iter().filter(|l| at_ms(l) > t).collect();
            assert_eq!(after.len(), expected.len(), "{name}: events after {t}");
            assert!(
                after.iter().zip(&expected).all(|(a, b)| a == *b),
                "{name}: events after {t}"
            );
            let straight = run_scenario(&scenario, None).unwrap();
            assert_eq!(
                result_json(&session),
                serde_json::to_string(&straight).unwrap(),
                "{name}"
            );
            previous = end;
        }
    }
}

fn at_ms(line: &str) -> u64 {
    let v: serde_json::Value = serde_json::from_str(line).unwrap();
    v["at_ms"].as_u64().unwrap()
}

#[test]
fn random_sessions_seek_back_and_forth_to_exact_states() {
    let runs: u64 = std::env::var("SESSION_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    for seed in 0..runs {
        let scenario = random_scenario(seed);
        let mut session = Session::new(&scenario, false).unwrap();
        extend_all(&mut session);
        let mut rng = SplitMix64(seed ^ 0x5eed);
        for _ in 0..6 {
            let t = rng.below(scenario.run_until_ms + 1);
            session.seek(t);
            assert_eq!(
                snapshot(&session),
                straight_snapshot(&scenario, t),
                "seed {seed}: state at {t} differs; scenario:\n{}",
                scenario.to_json()
            );
        }
    }
}

#[test]
fn step_back_and_forward_walk_the_instants_that_have_events() {
    let scenario = load("s03-stalled-follower-completes-at-isr-shrink");
    let mut session = Session::new(&scenario, false).unwrap();
    extend_all(&mut session);
    session.seek(37_310);
    let back = session.step_back();
    assert!(back < 37_310);
    let (reset, lines) = take_lines(&mut session);
    assert!(reset);
    assert!(lines.iter().all(|l| at_ms(l) <= back));
    assert_eq!(
        lines.last().map(|l| at_ms(l)),
        Some(back),
        "the log ends at the instant"
    );
    let forward = session.step().unwrap();
    assert_eq!(
        forward.now_ms, 37_310,
        "one step forward returns to the shrink commit"
    );
}

#[test]
fn step_forward_undoes_step_back_at_every_instant_of_s02() {
    // Some instants run only internal bookkeeping (nothing traced); `step` passes over them as
    // `step_back` does, so one step back and one forward always return to the same instant.
    let scenario = load("s02-stalled-follower-times-out");
    let mut session = Session::new(&scenario, false).unwrap();
    extend_all(&mut session);
    let mut instants = Vec::new();
    while let Some(done) = session.step() {
        instants.push(done.now_ms);
    }
    assert!(instants.contains(&31_000), "the expiry is an instant");
    for pair in instants.windows(2).step_by(97) {
        session.seek(pair[1]);
        assert_eq!(session.step_back(), pair[0], "step back from {}", pair[1]);
        assert_eq!(
            session.step().unwrap().now_ms,
            pair[1],
            "step from {}",
            pair[0]
        );
    }
    session.seek(31_000);
    let back = session.step_back();
    assert_eq!(session.step().unwrap().now_ms, 31_000, "from {back}");
}

#[test]
fn a_live_command_applies_at_the_next_instant_and_replays_identically() {
    let mut session = live_session();
    session.advance(1_000, ALL, false);
    let pause = session
        .command(&json!({"action": "pause_follower", "broker": 2}))
        .unwrap();
    assert_eq!(pause.at_ms, 1_001);
    session.advance(2_000, ALL, false);
    let p = session
        .command(&json!({"action": "produce", "acks": "all",
            "records": [{"topic": "t", "partition": 0, "count": 5}]}))
        .unwrap();
    assert_eq!(p.id.as_deref(), Some("p1"));
    assert_eq!(p.at_ms, 3_002);
    session.advance(60_000, ALL, false);
    let exported = session.export(false);
    assert_eq!(exported.run_until_ms, session.frontier_ms());
    let (_, hash) = straight_trace(&exported);
    assert_eq!(session.trace_hash().as_deref(), Some(hash.as_str()));
    let straight = run_scenario(&exported, None).unwrap();
    assert_eq!(
        result_json(&session),
        serde_json::to_string(&straight).unwrap()
    );
}

#[test]
fn seeking_back_across_a_live_command_and_forward_again_shows_it() {
    // A live session's commands are not in the saved runs taken before them; a replay from one of
    // those must still meet every command, after a fork that drops some and an undo too.
    let mut session = live_session();
    session.advance(500, ALL, false);
    session
        .command(&json!({"action": "pause_follower", "broker": 2}))
        .unwrap();
    let p1 = session
        .command(&json!({"action": "produce", "acks": "all",
            "records": [{"topic": "t", "partition": 0, "count": 5}]}))
        .unwrap();
    session.advance(40_000, ALL, false);
    let end = session.now_ms();
    let mut straight = Vec::new();
    for at in [p1.at_ms, p1.at_ms + 3, 31_000, end] {
        session.seek(at);
        straight.push(snapshot(&session));
    }
    assert!(
        straight[1].contains("\"p1\""),
        "p1 is in the state after it arrived"
    );
    session.seek(100);
    for (i, at) in [p1.at_ms, p1.at_ms + 3, 31_000, end]
        .into_iter()
        .enumerate()
    {
        session.seek(at);
        assert_eq!(
            snapshot(&session),
            straight[i],
            "at {at} after seeking back"
        );
    }
    assert!(!session.request_events("p1").unwrap().is_empty());

    // Fork before p1 (dropping it), then undo: the dropped produce is met again on replay.
    session.seek(p1.at_ms - 1);
    session
        .command(&json!({"action": "resume_follower", "broker": 2}))
        .unwrap();
    session.advance(1_000, ALL, false);
    let forked = snapshot(&session);
    assert!(!forked.contains("\"p1\""), "the fork dropped p1");
    session.seek(0);
    session.seek(p1.at_ms + 3);
    assert!(
        !snapshot(&session).contains("\"p1\""),
        "and a replay of the fork has no p1"
    );
    assert!(session.undo());
    session.seek(0);
    session.seek(p1.at_ms + 3);
    assert_eq!(
        snapshot(&session),
        straight[1],
        "after the undo p1 is back on replay"
    );
}

#[test]
fn a_step_through_a_quiet_live_cluster_goes_a_minute_not_a_week() {
    let mut session = live_session();
    session.advance(1_000, ALL, false);
    for broker in [1, 2] {
        session
            .command(&json!({"action": "pause_follower", "broker": broker}))
            .unwrap();
    }
    session.advance(1_000, ALL, false);
    let from = session.now_ms();
    let mut at = Vec::new();
    for _ in 0..3 {
        at.push(session.step().unwrap().now_ms);
    }
    assert!(
        at[0] > from && at.iter().all(|&t| t <= from + 3 * QUIET_STEP_MS),
        "{from} {at:?}"
    );
    assert!(
        at.windows(2)
            .all(|w| w[1] > w[0] && w[1] - w[0] <= QUIET_STEP_MS),
        "{at:?}"
    );
}

#[test]
fn a_command_in_the_past_forks_and_one_undo_brings_the_future_back() {
    let mut session = live_session();
    session.advance(500, ALL, false);
    session
        .command(&json!({"action": "pause_follower", "broker": 1}))
        .unwrap();
    session.advance(5_000, ALL, false);
    session
        .command(&json!({"action": "produce", "acks": -1,
        "records": [{"topic": "t", "partition": 0, "count": 1}]}))
        .unwrap();
    session.advance(40_000, ALL, false);
    let before = (
        session.trace_hash(),
        session.frontier_ms(),
        session.actions().len(),
    );
    let future = result_json(&session);

    session.seek(2_000);
    let preview = session.fork_preview().expect("behind the frontier");
    assert_eq!(
        preview.user_actions_dropped, 1,
        "the produce at 5,501 would go"
    );
    assert_eq!(preview.user_actions, 2, "the pause at 501 stays");
    let done = session
        .command(&json!({"action": "resume_follower", "broker": 1}))
        .unwrap();
    assert!(done.forked);
    assert_eq!(done.at_ms, 2_001);
    assert_eq!(
        session.frontier_ms(),
        2_001,
        "the future after the fork is gone"
    );
    assert_eq!(
        session.actions().len(),
        2,
        "pause kept, produce dropped, resume added"
    );
    let forked_hash = session.trace_hash();

    assert!(session.undo());
    assert_eq!(session.now_ms(), 2_000, "back at the instant of the fork");
    assert_eq!(
        (
            session.trace_hash(),
            session.frontier_ms(),
            session.actions().len()
        ),
        before
    );
    session.seek(session.frontier_ms());
    assert_eq!(result_json(&session), future);
    assert_ne!(forked_hash, before.0);
    assert!(!session.undo(), "one undo");
}

#[test]
fn an_exported_session_reopens_at_its_instant_and_exports_the_same_bytes() {
    let mut scenario = load("s03-stalled-follower-completes-at-isr-shrink");
    scenario.story.clear();
    let mut session = Session::new(&scenario, false).unwrap();
    session.set_curated(Some("s03-stalled-follower-completes-at-isr-shrink".into()));
    extend_all(&mut session);
    session.seek(30_000);
    session
        .command(&json!({"action": "resume_follower", "broker": 2}))
        .unwrap();
    session.advance(5_000, ALL, false);
    session.set_selected(Some("p1".into()));
    let text = session.export(false).to_json();
    let reopened = Session::new(&Scenario::from_json(&text).unwrap(), false).unwrap();
    assert_eq!(reopened.now_ms(), 35_001);
    assert_eq!(reopened.selected(), Some("p1"));
    assert_eq!(
        reopened.curated(),
        Some("s03-stalled-follower-completes-at-isr-shrink")
    );
    assert_eq!(reopened.export(false).to_json(), text);
    assert_eq!(snapshot(&reopened), snapshot(&session));
}

fn breakpoints(value: serde_json::Value) -> BreakpointSpec {
    BreakpointSpec::from_value(&value).unwrap()
}

#[test]
fn breakpoints_stop_at_s02s_expiry_and_s03s_shrink_commit() {
    let mut s02 = Session::new(&load("s02-stalled-follower-times-out"), false).unwrap();
    extend_all(&mut s02);
    s02.set_breakpoints(breakpoints(json!({"expiry": true})));
    let played = s02.advance(ALL, ALL, false);
    let hit = played.hit.expect("the expiry stops the clock");
    assert_eq!(
        (hit.kind, hit.at_ms, played.now_ms),
        ("expiry", 31_000, 31_000)
    );
    assert_eq!(
        hit.says,
        HitSays::Expired {
            request: Some("p1".into())
        }
    );

    let mut s03 =
        Session::new(&load("s03-stalled-follower-completes-at-isr-shrink"), false).unwrap();
    extend_all(&mut s03);
    s03.set_breakpoints(breakpoints(
        json!({"isr_change": true, "answered": {"request": "p1"}}),
    ));
    let hit = s03
        .advance(ALL, ALL, false)
        .hit
        .expect("the shrink commit stops the clock");
    assert_eq!((hit.kind, hit.at_ms), ("isr_change", 37_310));
    // p1's answer comes in the same millisecond: the one stop says both.
    assert_eq!(
        hit.also,
        vec![HitSays::Answered {
            request: "p1".into(),
            outcome: "NONE"
        }]
    );
    let rest = s03.advance(ALL, ALL, false);
    assert_eq!(
        (rest.hit, rest.now_ms),
        (None, 60_000),
        "nothing else fires"
    );

    let mut answered =
        Session::new(&load("s03-stalled-follower-completes-at-isr-shrink"), false).unwrap();
    extend_all(&mut answered);
    answered.set_breakpoints(breakpoints(json!({"answered": {"request": "p1"}})));
    let hit = answered
        .advance(ALL, ALL, false)
        .hit
        .expect("p1's answer stops the clock");
    assert_eq!((hit.kind, hit.at_ms), ("answered", 37_310));
    assert_eq!(
        hit.says,
        HitSays::Answered {
            request: "p1".into(),
            outcome: "NONE"
        }
    );
    assert!(
        hit.also.is_empty(),
        "nothing else was asked for: {:?}",
        hit.also
    );
}

/// A saved session whose instant would take long to reach opens where the work at open runs out
/// (`MAX_OPEN_WORK`), says so, and plays on from there to the very run a straight session has; a
/// quiet one opens at its instant.
#[test]
fn a_saved_session_too_costly_to_reach_opens_short_of_its_instant() {
    let scenario = |partitions: u32, wait_ms: u32, at_ms: u64, saved: bool| {
        let mut doc = json!({
            "name": "saved", "seed": 3,
            "config": { "brokers": 3, "replica_fetch_wait_max_ms": wait_ms },
            "topics": [{ "name": "t", "partitions": partitions, "replication_factor": 3 }],
            "actions": [{ "at_ms": 10, "action": "produce", "id": "p1", "acks": -1,
                          "records": [{ "topic": "t", "partition": 0, "count": 1 }] }],
            "run_until_ms": at_ms
        });
        if saved {
            doc["session"] = json!({ "at_ms": at_ms });
        }
        Scenario::from_json(&doc.to_string()).unwrap()
    };
    let saved = |partitions, wait_ms, at_ms| scenario(partitions, wait_ms, at_ms, true);
    let quiet = Session::new(&saved(1, 500, 600_000), false).unwrap();
    assert_eq!((quiet.now_ms(), quiet.opened_short_of()), (600_000, None));

    let busy = saved(100, 0, 60_000);
    let mut opened = Session::new(&busy, false).unwrap();
    assert_eq!(opened.opened_short_of(), Some(60_000));
    let short_at = opened.now_ms();
    assert!(short_at > 0 && short_at < 60_000, "opened at {short_at} ms");
    let work = opened.sim().work_done();
    assert!(
        (purgatory_playground::session::MAX_OPEN_WORK
            ..purgatory_playground::session::MAX_OPEN_WORK + 100_000)
            .contains(&work),
        "the work at open stops at its limit: {work}"
    );
    // Played on, it is the run a session opened at 0 has.
    let mut straight = Session::new(&scenario(100, 0, 60_000, false), false).unwrap();
    assert_eq!((straight.now_ms(), straight.opened_short_of()), (0, None));
    extend_all(&mut opened);
    extend_all(&mut straight);
    assert_eq!(opened.seek(60_000), 60_000);
    assert_eq!(straight.seek(60_000), 60_000);
    assert_eq!(snapshot(&opened), snapshot(&straight));
}

/// min.insync.replicas 3 on a topic of 2 replicas: Kafka caps the setting at the replica count
/// (`effectiveMinIsr`), so the partition is under its minimum only once its ISR is 1.
#[test]
fn under_min_isr_counts_the_setting_capped_at_the_replica_count() {
    let scenario = Scenario::from_json(
        &json!({
            "name": "capped-min-isr",
            "seed": 1,
            "config": { "brokers": 2, "min_insync_replicas": 3 },
            "topics": [{ "name": "t", "partitions": 1, "replication_factor": 2 }],
            "actions": [{ "at_ms": 1000, "action": "crash_broker", "broker": 1 }],
            "run_until_ms": 20000
        })
        .to_string(),
    )
    .unwrap();
    let mut session = Session::new(&scenario, false).unwrap();
    extend_all(&mut session);
    session.set_breakpoints(breakpoints(json!({"isr_below_min": true})));
    let hit = session
        .advance(ALL, ALL, false)
        .hit
        .expect("the fence leaves an ISR of 1 under the capped minimum of 2");
    assert_eq!(hit.kind, "isr_below_min");
    assert_eq!(
        hit.says,
        HitSays::BelowMin {
            tp: "t-0".into(),
            size: 1,
            min: 2
        }
    );
    let under_min = &session.history().series()[4];
    assert_eq!(
        under_min.value_at(500),
        0,
        "an ISR of 2 is not under a capped 2"
    );
    assert_eq!(under_min.value_at(hit.at_ms), 1);
}

#[test]
fn a_stalled_hw_fires_once_when_requests_have_waited_that_long() {
    let mut s02 = Session::new(&load("s02-stalled-follower-times-out"), false).unwrap();
    extend_all(&mut s02);
    s02.set_breakpoints(breakpoints(json!({"hw_stalled_ms": 10_000})));
    let played = s02.advance(ALL, ALL, false);
    let hit = played
        .hit
        .expect("p1 waits from 1,000 ms with the HW stuck");
    assert_eq!(
        (hit.kind, hit.at_ms, played.now_ms),
        ("hw_stalled_ms", 11_000, 11_000)
    );
    let rest = s02.advance(ALL, ALL, false);
    assert_eq!(rest.hit, None, "the same stall fires once");
}

#[test]
fn breakpoint_errors_name_the_field() {
    let err = BreakpointSpec::from_value(&json!({"hw_stalled_ms": -1})).unwrap_err();
    assert_eq!(
        err.to_string(),
        "breakpoints.hw_stalled_ms: expected an integer from 1 to 2147483647, found -1"
    );
    let err = BreakpointSpec::from_value(&json!({"expiry": "yes"})).unwrap_err();
    assert_eq!(
        err.to_string(),
        "breakpoints.expiry: expected true or false, found \"yes\""
    );
    let err = BreakpointSpec::from_value(&json!({"expire": true})).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("breakpoints.expire: unknown field"),
        "{err}"
    );
}

#[test]
fn markers_and_series_are_exact_s15_shows_1001_waiting() {
    let mut session = Session::new(&load("s15-purge-after-1001-expired"), false).unwrap();
    extend_all(&mut session);
    let history = session.history();
    let delayed = &history.series()[1];
    let peak = delayed.bins(0, 60_000, 1)[0][1];
    assert_eq!(
        peak, 1_001,
        "NumDelayedOperations peaks at every waiting request"
    );
    let purges = history
        .markers()
        .iter()
        .filter(|m| m.kind == purgatory_playground::session::history::MarkerKind::Purge)
        .count();
    assert_eq!(purges, 1);
}

/// A crowded timeline keeps the most telling markers: S15's 1,001 arrivals and expiries and its
/// purge do not fit in 50, so the expiries (rank 0) and the purge (rank 1) come before the
/// arrivals (rank 2), earliest first, and the ones kept are drawn in time order.
#[test]
fn a_crowded_timeline_keeps_the_most_telling_markers() {
    use purgatory_playground::session::history::MarkerKind;
    let mut session = Session::new(&load("s15-purge-after-1001-expired"), false).unwrap();
    extend_all(&mut session);
    let history = session.history();
    let (all, total) = history.markers_in(0, 60_000, usize::MAX);
    assert_eq!(total, all.len());
    assert!(total > 2_000, "{total} markers");
    let (kept, total_again) = history.markers_in(0, 60_000, 50);
    assert_eq!((kept.len(), total_again), (50, total));
    assert!(kept.windows(2).all(|w| w[0].id < w[1].id), "in time order");
    let worst = kept.iter().map(|m| m.kind.rank()).max().unwrap();
    let dropped_better = all
        .iter()
        .filter(|m| m.kind.rank() < worst)
        .any(|m| !kept.iter().any(|k| k.id == m.id));
    assert!(
        !dropped_better,
        "no marker of a better rank is dropped for one of rank {worst}"
    );
    assert!(kept
        .iter()
        .all(|m| m.kind != MarkerKind::Produce || worst >= 2));
    // A span with room keeps everything in it.
    let (few, n) = history.markers_in(0, 0, 50);
    assert_eq!(few.len(), n);
}

#[test]
fn the_markers_either_side_of_the_playhead() {
    let mut s03 =
        Session::new(&load("s03-stalled-follower-completes-at-isr-shrink"), false).unwrap();
    extend_all(&mut s03);
    let at: Vec<u64> = s03.history().markers().iter().map(|m| m.at_ms).collect();
    // A marked moment with others on both sides (several markers can share an instant).
    let mid = (at.iter().copied())
        .find(|&t| t > at[0] && t < at[at.len() - 1])
        .expect("s03 marks more than two instants");
    s03.seek(mid);
    let before = at.iter().rev().find(|&&t| t < mid).copied();
    let after = at.iter().find(|&&t| t > mid).copied();
    assert!(before.is_some() && after.is_some(), "{at:?}");
    assert_eq!(s03.previous_marker_ms(), before);
    assert_eq!(s03.next_marker_ms(), after);
    s03.seek(0);
    assert_eq!(s03.previous_marker_ms(), None, "nothing before 0");
}

#[test]
fn a_story_clock_can_stop_after_each_notable_instant() {
    let mut s03 =
        Session::new(&load("s03-stalled-follower-completes-at-isr-shrink"), false).unwrap();
    extend_all(&mut s03);
    let mut stops = Vec::new();
    loop {
        let played = s03.advance(ALL, ALL, true);
        if !played.notable {
            break;
        }
        stops.push(played.now_ms);
    }
    assert!(stops.contains(&20_000), "the produce: {stops:?}");
    assert!(stops.contains(&37_300), "the shrink proposal: {stops:?}");
    assert!(
        stops.contains(&37_310),
        "the commit and completion: {stops:?}"
    );
    assert!(stops.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn a_command_listing_a_partition_twice_is_refused_and_changes_nothing() {
    let setup = json!({"name": "live",
        "topics": [{"name": "t", "partitions": 1, "replication_factor": 3}],
        "actions": [], "run_until_ms": 0});
    let mut session = Session::new(&Scenario::from_value(&setup).unwrap(), true).unwrap();
    session.advance(1_000, ALL, false);
    let before = session.trace_hash();
    let error = session
        .command(&json!({"action": "produce", "acks": "all", "records": [
            {"topic": "t", "partition": 0, "count": 5},
            {"topic": "t", "partition": 0, "count": 5}]}))
        .unwrap_err();
    assert_eq!(error.path, "command.records[1]");
    assert_eq!(
        error.message,
        "duplicate partition {topic \"t\", partition 0}, already listed at command.records[0]"
    );
    assert_eq!(session.now_ms(), 1_000, "nothing was applied");
    assert_eq!(session.trace_hash(), before);
}

#[test]
fn a_command_the_model_ignores_says_why_and_one_it_applies_does_not() {
    // The scenario's own restart of running broker 2 is ignored at 2,001 ms, the instant the
    // commands below apply at: only a command's own fate is its answer.
    let setup = json!({"name": "ignored",
        "topics": [{"name": "t", "partitions": 1, "replication_factor": 3}],
        "actions": [{"at_ms": 1000, "action": "crash_broker", "broker": 1},
                    {"at_ms": 2001, "action": "restart_broker", "broker": 2}],
        "run_until_ms": 10000});
    let scenario = Scenario::from_value(&setup).unwrap();
    let mut session = Session::new(&scenario, false).unwrap();
    session.advance(2_000, ALL, false);
    let restart = session
        .command(&json!({"action": "restart_broker", "broker": 1}))
        .unwrap();
    assert_eq!((restart.at_ms, restart.ignored), (2_001, None));
    let again = session
        .command(&json!({"action": "restart_broker", "broker": 1}))
        .unwrap();
    assert_eq!(again.at_ms, 2_002);
    assert_eq!(
        again.ignored.as_deref(),
        Some("broker 1 is already running")
    );
    let produce = session
        .command(&json!({"action": "produce", "acks": 1,
            "records": [{"topic": "t", "partition": 0, "count": 1}]}))
        .unwrap();
    assert_eq!(produce.ignored, None, "a produce is answered, not ignored");
}

#[test]
fn a_pause_or_resume_that_changes_nothing_is_ignored_and_says_why() {
    let mut session = live_session();
    session.advance(10, ALL, false);
    let command = |session: &mut Session, action: &str| {
        session
            .command(&json!({"action": action, "broker": 2}))
            .unwrap()
            .ignored
    };
    assert_eq!(
        command(&mut session, "resume_follower").as_deref(),
        Some("broker 2 is not paused")
    );
    assert_eq!(command(&mut session, "pause_follower"), None);
    assert_eq!(
        command(&mut session, "pause_follower").as_deref(),
        Some("broker 2 is already paused")
    );
    assert_eq!(command(&mut session, "resume_follower"), None);
}

#[test]
fn a_command_in_the_past_may_reuse_an_id_the_fork_drops_but_not_one_it_keeps() {
    let mut session = live_session();
    session.advance(10, ALL, false);
    let produce = |id: &str| {
        json!({"action": "produce", "id": id, "acks": 1,
            "records": [{"topic": "t", "partition": 0, "count": 1}]})
    };
    session.command(&produce("early")).unwrap();
    session.advance(50, ALL, false);
    session.command(&produce("x")).unwrap();
    session.advance(100, ALL, false);
    session.seek(20);
    let error = session.command(&produce("early")).unwrap_err();
    assert_eq!(error.message, "\"early\" is already used");
    let again = session.command(&produce("x")).unwrap();
    assert!(again.forked, "at 20 ms the run after it goes, x with it");
    assert_eq!(again.id.as_deref(), Some("x"));
}

#[test]
fn retelling_gives_the_run_up_to_the_playhead_again_and_keeps_the_undo() {
    let mut session =
        Session::new(&load("s03-stalled-follower-completes-at-isr-shrink"), false).unwrap();
    extend_all(&mut session);
    session.seek(30_000);
    let (_, told) = take_lines(&mut session);
    assert!(!told.is_empty());
    assert_eq!(take_lines(&mut session), (false, vec![]), "nothing new");
    session.retell();
    assert_eq!(
        take_lines(&mut session),
        (true, told.clone()),
        "the same events again"
    );

    // A fork's undo survives a retelling (the page retells when it rebuilds its views).
    let fork = session
        .command(&json!({"action": "resume_follower", "broker": 2}))
        .expect("a resume in the run's past forks it");
    assert!(fork.forked);
    session.retell();
    assert!(session.undo(), "the fork can still be undone");
}

/// Saving a run copies every broker's picture of every partition: a cluster of 64 brokers and
/// 1,024 partitions saves one per 65,536 events, not per 4,000 as a small one does (its saves
/// cost several times its replay otherwise).
#[test]
fn a_large_cluster_saves_its_run_less_often() {
    let session = |brokers: u32, partitions: u32| {
        let setup = json!({"name": "size", "config": {"brokers": brokers},
            "topics": [{"name": "t", "partitions": partitions, "replication_factor": 3}],
            "actions": [], "run_until_ms": 0});
        Session::new(&Scenario::from_value(&setup).unwrap(), true).unwrap()
    };
    let mut large = session(64, 1024);
    large.advance(3_000, ALL, false); // about 16,000 events
    assert_eq!(large.checkpoint_count(), 1);
    let mut small = session(3, 100);
    small.advance(30_000, ALL, false); // about 13,000 events
    assert!(
        small.checkpoint_count() >= 3,
        "{}",
        small.checkpoint_count()
    );
}
