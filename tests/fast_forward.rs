//! The idle fast-forward (`sim::fast_forward`) changes nothing a run shows: every curated
//! scenario and hundreds of random ones with long idle stretches give the same result with it on
//! and off, a traced run writes the same trace however far each call goes and whether it jumps
//! or not, a live session advanced by a week in one call shows what one advanced in small steps
//! shows, and it does jump where it should (issue 12's long runs).
//!
//! Native only: these runs are long, and `wasm-pack test` compiles every test file for wasm32.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{curated_files, random_scenario, SplitMix64};
use purgatory_playground::kafka::trace::{Event, TraceHash};
use purgatory_playground::scenario::result::RunResult;
use purgatory_playground::scenario::run_scenario;
use purgatory_playground::scenario::Scenario;
use purgatory_playground::scenario::{budget, play_scenario_within};
use purgatory_playground::session::Session;
use purgatory_playground::sim::invariants::InvariantState;
use purgatory_playground::sim::Simulation;

/// Plays `scenario` to its end, the fast-forward on or off: the result with the cluster's state
/// at the end (`fast_forward_digest`: every clock, timer and message in flight), and (jumps,
/// skipped ms).
/// With the fast-forward on, the run goes in eight parts, the model's invariant checker after
/// each (so after jumps too).
fn play(scenario: &Scenario, fast_forward: bool) -> (String, (u64, u64)) {
    let mut sim = Simulation::from_scenario(scenario, false).expect("a valid scenario");
    sim.set_record_actions(false);
    sim.set_fast_forward(fast_forward);
    if fast_forward {
        let mut state = InvariantState::default();
        for part in 1..=8 {
            let until_ms = scenario.run_until_ms / 8 * part;
            sim.run_until(until_ms);
            if let Err(e) = sim.check_invariants(&mut state) {
                panic!("{}: at {until_ms} ms: {e}", scenario.name);
            }
        }
    }
    sim.run_until(scenario.run_until_ms);
    let result = json(&sim.result(&scenario.name, scenario.run_until_ms));
    let state = format!("{result}\n{:?}", sim.fast_forward_digest());
    (state, sim.fast_forwarded())
}

fn json(result: &RunResult) -> String {
    serde_json::to_string_pretty(result).expect("serializable")
}

fn scenario(text: &str) -> Scenario {
    Scenario::from_json(text).expect("a valid scenario")
}

#[test]
fn curated_scenarios_give_the_same_results() {
    let files = curated_files();
    assert!(files.len() >= 15, "the curated scenarios are there");
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        let s = scenario(&text);
        let (on, _) = play(&s, true);
        let (off, _) = play(&s, false);
        assert_eq!(on, off, "{}", file.display());
    }
}

/// A broker that leads nothing for minutes, handed the followers' fetches (a leader crashed, or
/// leadership moved back to its preferred replica), builds overflow wheels its fetch timer never
/// uses again; and while a partition's preferred replica is down, the controller's leader balance
/// check keeps coming and moves nothing. Neither stops the jumps, and the runs they skip end as
/// every round trip simulated ends: after the crash, the restart, the leadership moved back by
/// the balance check or by an election, and a produce.
#[test]
fn overflow_wheels_and_idle_balance_checks_do_not_stop_the_jumps() {
    let run = |config: &str, moves: &str| {
        format!(
            r#"{{"name": "moved", "config": {{"brokers": 3, "min_insync_replicas": 2,
                "network_delay_ms": 20{config}}},
                "topics": [{{"name": "t", "partitions": 4, "replication_factor": 3}}],
                "actions": [
                  {{"at_ms": 200000, "action": "crash_broker", "broker": 0}},
                  {{"at_ms": 3000000, "action": "restart_broker", "broker": 0}}{moves},
                  {{"at_ms": 7000000, "action": "produce", "id": "p1", "acks": "all",
                    "records": [{{"topic": "t", "partition": 0, "count": 5}}]}}
                ],
                "run_until_ms": 8000000}}"#
        )
    };
    let elect = r#", {"at_ms": 4000000, "action": "elect_leader", "topic": "t", "partition": 0,
        "broker": 0}"#;
    let scenarios = [
        run(r#", "leader_imbalance_check_interval_ms": 300000"#, ""),
        run("", elect),
    ];
    for text in scenarios {
        let s = scenario(&text);
        let (on, (jumps, skipped)) = play(&s, true);
        let (off, _) = play(&s, false);
        assert_eq!(on, off, "{text}");
        assert!(
            jumps >= 4 && skipped > 3_000_000,
            "{jumps} jumps, {skipped} ms skipped: {text}"
        );
        // After the leadership moved back (by 4,000,000 ms), the quiet until the produce is
        // jumped over too.
        let mut sim = Simulation::from_scenario(&s, false).expect("valid");
        sim.run_until(4_500_000);
        let before = sim.fast_forwarded().1;
        sim.run_until(6_990_000);
        let after = sim.fast_forwarded().1;
        assert!(
            after - before > 2_000_000,
            "{before} -> {after} ms skipped: {text}"
        );
        let result: serde_json::Value =
            serde_json::from_str(&on[..on.find("\n[").unwrap()]).expect("the result");
        assert_eq!(result["partitions"][0]["leader"], 0, "moved back: {text}");
        assert_eq!(result["responses"][0]["partitions"][0]["error"], "NONE");
    }
}

/// A random scenario with its actions spread over a long run, so that the cluster idles between
/// them, and one in four with a wider first topic: the fetch wait at least 50 ms unless the run
/// is short, as every round trip of the run with the fast-forward off is simulated.
fn stretched(seed: u64) -> Scenario {
    let mut s = random_scenario(seed);
    let mut rng = SplitMix64(seed ^ 0x5eed);
    let factor = rng.between(20, 200);
    for a in &mut s.actions {
        a.at_ms *= factor;
    }
    s.run_until_ms = s.run_until_ms * factor + rng.between(0, 3_600_000);
    if s.config.replica_fetch_wait_max_ms < 50 {
        s.run_until_ms = s.run_until_ms.min(600_000);
        s.actions.retain(|a| a.at_ms <= 600_000);
    }
    s.config.replica_fetch_wait_max_ms =
        [s.config.replica_fetch_wait_max_ms, 500, 500][rng.below(3) as usize];
    s.name = format!("stretched-{seed}");
    s
}

/// 300 cases; `FF_CASES=N FF_SEED=S` runs N from seed S.
#[test]
fn random_long_runs_give_the_same_results() {
    let env = |name, default| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (cases, first): (u64, u64) = (env("FF_CASES", 300), env("FF_SEED", 0));
    let (mut jumped, mut skipped) = (0, 0);
    for seed in first..first + cases {
        let s = stretched(seed);
        let (on, (jumps, ms)) = play(&s, true);
        let (off, (none, _)) = play(&s, false);
        assert_eq!(none, 0, "off means off");
        assert_eq!(on, off, "seed {seed}: {s:?}");
        jumped += u64::from(jumps > 0);
        skipped += ms;
    }
    println!("{jumped} of {cases} runs jumped, {skipped} ms skipped in all");
    // Most of these runs idle for long stretches: if the fast-forward stopped finding them, the
    // benches would see it first, but this says so here.
    assert!(jumped >= cases / 3, "only {jumped} of {cases} runs jumped");
}

const WEEK_MS: u64 = 604_800_000;

/// Issue 12's long run: 5 brokers, 12 partitions, the default config, a produce at the start and
/// one in the last second of a week.
fn quiet_week() -> Scenario {
    let week = WEEK_MS;
    scenario(&format!(
        r#"{{"name": "week", "seed": 1, "config": {{"brokers": 5}},
            "topics": [{{"name": "t", "partitions": 12, "replication_factor": 3}}],
            "actions": [
              {{"at_ms": 0, "action": "produce", "id": "p1", "acks": "all",
                "records": [{{"topic": "t", "partition": 0, "count": 10}}]}},
              {{"at_ms": {late}, "action": "produce", "id": "p2", "acks": "all",
                "records": [{{"topic": "t", "partition": 5, "count": 3}}]}}
            ],
            "run_until_ms": {week}}}"#,
        late = week - 1_000
    ))
}

/// A jump skips nearly all of the quiet week; its end is computed normally, and the produce in
/// its last second is answered as it would be in any idle cluster.
#[test]
fn a_quiet_week_is_skipped_and_ends_as_it_would() {
    let (s, week) = (quiet_week(), WEEK_MS);
    let mut sim = Simulation::from_scenario(&s, false).expect("valid");
    sim.run_until(s.run_until_ms);
    let (jumps, skipped) = sim.fast_forwarded();
    let result = sim.result(&s.name, s.run_until_ms);
    assert!(
        jumps >= 1 && skipped > week - 3_600_000,
        "{jumps} jumps, {skipped} ms"
    );
    let r = &result.responses;
    assert_eq!(
        (r[0].responded_ms, r[1].responded_ms),
        (Some(2), Some(week - 998))
    );
    assert!(r
        .iter()
        .all(|r| r.partitions.iter().all(|p| p.error == Some("NONE"))));
    let p5 = &result.partitions[5];
    assert_eq!((p5.high_watermark, p5.isr.len()), (3, 3));
}

/// A producer's deadline for a request it already has its answer to does nothing when it comes,
/// so it does not hold the fast-forward back: here the producer waits up to 5.8 days, and the
/// answer came in 2 ms.
#[test]
fn an_answered_request_s_deadline_does_not_hold_the_fast_forward_back() {
    let week = WEEK_MS;
    let s = scenario(&format!(
        r#"{{"name": "week", "config": {{"request_timeout_ms": 500000000}},
            "topics": [{{"name": "t", "partitions": 1, "replication_factor": 3}}],
            "actions": [
              {{"at_ms": 0, "action": "produce", "id": "p1", "acks": "all", "timeout_ms": 1000000000,
                "records": [{{"topic": "t", "partition": 0, "count": 10}}]}}
            ],
            "run_until_ms": {week}}}"#
    ));
    let (on, _) = play(&s, true);
    let (off, _) = play(&s, false);
    assert_eq!(on, off);
    let mut sim = Simulation::from_scenario(&s, false).expect("valid");
    sim.run_until(week);
    let (jumps, skipped) = sim.fast_forwarded();
    assert!(
        jumps >= 1 && skipped > week - 3_600_000,
        "{jumps} jumps, {skipped} ms"
    );
    let p1 = &sim.result(&s.name, week).responses[0];
    assert_eq!((p1.responded_ms, p1.client_timed_out_ms), (Some(2), None));
}

/// The runner admits the quiet week on its fast-forward (the work budget refuses it traced), and
/// a run admitted so stops at its work limit.
#[test]
fn the_runner_plays_the_quiet_week_untraced_and_refuses_it_traced() {
    let dir = std::env::temp_dir().join(format!("pp-fast-forward-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let file = dir.join("week.json");
    let s = quiet_week();
    let text = serde_json::to_string(&serde_json::json!({
        "name": s.name, "config": { "brokers": 5 },
        "topics": [{ "name": "t", "partitions": 12, "replication_factor": 3 }],
        "actions": [{ "at_ms": 0, "action": "produce", "id": "p1", "acks": "all",
                      "records": [{ "topic": "t", "partition": 0, "count": 10 }] }],
        "run_until_ms": WEEK_MS
    }))
    .expect("json");
    std::fs::write(&file, text).expect("written");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_purgatory"))
            .arg("run")
            .arg(&file)
            .args(args)
            .output()
            .expect("the runner runs")
    };
    let plain = run(&[]);
    assert_eq!(
        plain.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&plain.stderr)
    );
    let result: serde_json::Value = serde_json::from_slice(&plain.stdout).expect("a result");
    assert_eq!(result["responses"][0]["responded_ms"], 2);
    assert_eq!(result["run_until_ms"], WEEK_MS);
    let traced = run(&["--trace"]);
    assert_eq!(traced.status.code(), Some(2));
    assert!(traced.stdout.is_empty());
    let line = String::from_utf8_lossy(&traced.stderr);
    assert_eq!(line.lines().count(), 1);
    assert!(
        line.contains("run_until_ms: a run of 604800000 ms"),
        "{line}"
    );
    std::fs::remove_dir_all(&dir).ok();

    // The limit itself: the week stops early under a tiny one, runs under the budget.
    assert!(play_scenario_within(&s, None, 10_000)
        .expect("no output")
        .is_none());
    let sim = play_scenario_within(&s, None, budget::WORK_BUDGET).expect("no output");
    assert!(sim.is_some_and(|sim| sim.work_done() < budget::WORK_BUDGET / 10));
}

/// A traced run of `scenario` in calls that each go a random distance (up to `longest_ms`; the
/// fast-forward jumps only where a call goes far enough), or with the fast-forward off: the
/// trace's hash, the result, how many idle stretches began, and the jumps made.
fn play_traced(
    scenario: &Scenario,
    fast_forward: bool,
    seed: u64,
    longest_ms: u64,
) -> (String, String, usize, u64) {
    let mut sim = Simulation::from_scenario(scenario, true).expect("a valid scenario");
    sim.set_record_actions(false);
    sim.set_fast_forward(fast_forward);
    let (mut hash, mut scratch, mut stretches) = (TraceHash::default(), Vec::new(), 0);
    let mut rng = SplitMix64(seed);
    let mut until = 0;
    while until < scenario.run_until_ms {
        until = (until + rng.between(1, longest_ms)).min(scenario.run_until_ms);
        while sim.advance_within(until).is_some() {
            for event in sim.drain_trace() {
                stretches += usize::from(matches!(event.event, Event::IdleStretchBegan { .. }));
                hash.add_event(&event, &mut scratch);
            }
        }
    }
    let result = json(&sim.result(&scenario.name, scenario.run_until_ms));
    (hash.hex(), result, stretches, sim.fast_forwarded().0)
}

/// An idle stretch mutes the trace's repetitions from the instant the cluster is found
/// periodic until an action or a broker's own timer: that is the same instant whether the run
/// then jumps or simulates every round trip, so the trace is the same, and so is the runner's.
#[test]
fn traced_runs_write_the_same_trace_however_they_are_driven() {
    let (mut stretched_runs, mut jumped_runs) = (0, 0);
    for seed in 0..40 {
        let mut s = stretched(seed);
        s.run_until_ms = s.run_until_ms.min(6 * 3_600_000);
        s.actions.retain(|a| a.at_ms <= s.run_until_ms);
        let (hash, result, stretches, none) = play_traced(&s, false, seed, u64::MAX);
        assert_eq!(none, 0);
        for longest_ms in [600_000, 3 * 3_600_000] {
            let paced = play_traced(&s, true, seed, longest_ms);
            assert_eq!(
                (&paced.0, &paced.1),
                (&hash, &result),
                "seed {seed}, {longest_ms}"
            );
            jumped_runs += u64::from(paced.3 > 0);
        }
        let mut out = Vec::new();
        run_scenario(&s, Some(&mut out)).expect("runs");
        let mut runner = TraceHash::default();
        runner.update(&out);
        assert_eq!(runner.hex(), hash, "seed {seed}: the runner's trace");
        stretched_runs += u64::from(stretches > 0);
    }
    println!("{stretched_runs} of 40 traces have idle stretches, {jumped_runs} runs jumped");
    assert!(
        stretched_runs >= 10 && jumped_runs >= 10,
        "{stretched_runs} {jumped_runs}"
    );
}

/// A live session on the page's defaults, advanced by a week in one call, jumps over its idle
/// stretches (a few hundred thousand units of work, not the 15 M of every round trip) and shows
/// what a session advanced in steps of a few minutes shows (every fetch simulated): the same
/// trace, result and state, with a command in the middle; its trace says what was left out.
#[test]
fn a_live_week_in_one_call_is_the_week_in_small_steps() {
    let live = || {
        let setup = serde_json::json!({"name": "live", "config": {"min_insync_replicas": 2},
            "topics": [{"name": "t", "partitions": 1, "replication_factor": 3}],
            "actions": [], "run_until_ms": 0});
        Session::new(&Scenario::from_value(&setup).expect("valid"), true).expect("a session")
    };
    let drive = |session: &mut Session, step_ms: u64| {
        let run_for = |session: &mut Session, ms: u64| {
            let end = session.now_ms() + ms;
            while session.now_ms() < end {
                let left = end - session.now_ms();
                session.advance(left.min(step_ms), u64::MAX, false);
            }
        };
        run_for(session, 1_000);
        let produce = serde_json::json!({"action": "produce", "acks": "all",
            "records": [{"topic": "t", "partition": 0, "count": 5}]});
        session.command(&produce).expect("a produce");
        run_for(session, 3 * 86_400_000);
        session.command(&produce).expect("a produce");
        session
            .command(&serde_json::json!({"action": "pause_follower", "broker": 2}))
            .expect("a pause");
        run_for(session, 4 * 86_400_000 - 60_000);
    };
    let mut at_once = live();
    drive(&mut at_once, u64::MAX);
    let mut stepped = live();
    drive(&mut stepped, 7 * 60_000);
    assert_eq!(at_once.now_ms(), stepped.now_ms());
    assert_eq!(at_once.trace_hash(), stepped.trace_hash());
    let result = |s: &Session| serde_json::to_string(&s.result()).expect("json");
    assert_eq!(result(&at_once), result(&stepped));
    assert_eq!(
        at_once.sim().clone().fast_forward_digest(),
        stepped.sim().clone().fast_forward_digest()
    );
    let (jumps, skipped) = at_once.sim().fast_forwarded();
    assert!(
        jumps >= 2 && skipped > 6 * 86_400_000,
        "{jumps} jumps, {skipped} ms"
    );
    assert_eq!(
        stepped.sim().fast_forwarded().0,
        0,
        "steps too short to jump"
    );
    assert!(
        at_once.sim().work_done() < 1_000_000,
        "{}",
        at_once.sim().work_done()
    );

    // The runner, given the exported session, writes that trace too; it says where the
    // repetitions were left out.
    let exported = at_once.export(false);
    let mut out = Vec::new();
    run_scenario(&exported, Some(&mut out)).expect("runs");
    let mut hash = TraceHash::default();
    hash.update(&out);
    assert_eq!(Some(hash.hex()), at_once.trace_hash());
    let text = String::from_utf8(out).expect("utf-8");
    let began = text.matches(r#""event":"idle_stretch_began""#).count();
    let ended = text.matches(r#""event":"idle_stretch_ended""#).count();
    assert!(
        began >= 2 && (ended == began || ended + 1 == began),
        "{began} {ended}"
    );
}
