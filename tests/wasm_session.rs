#![cfg(target_arch = "wasm32")]
//! The session boundary inside wasm (Node): every `Playground` call a page or an embedder makes,
//! with right arguments (the answers' shapes and values) and wrong ones (a thrown `Error` that
//! names the argument); the trace hash is the native one (`tests/wasm_golden/trace-hashes.txt`,
//! which `cargo test --test wasm_golden` checks natively).

use js_sys::{Array, Reflect};
use purgatory_playground::wasm::Playground;
use wasm_bindgen::{JsError, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

const S02: &str = include_str!("../scenarios/s02-stalled-follower-times-out.json");
const S03: &str = include_str!("../scenarios/s03-stalled-follower-completes-at-isr-shrink.json");
const S10: &str = include_str!("../scenarios/s10-multi-partition-request.json");
const HASHES: &str = include_str!("wasm_golden/trace-hashes.txt");

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap()
}

fn num(v: &JsValue, key: &str) -> f64 {
    get(v, key)
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is not a number"))
}

fn message(error: JsError) -> String {
    let value: JsValue = error.into();
    get(&value, "message").as_string().unwrap_or_default()
}

fn scenario(text: &str) -> Playground {
    let mut p = Playground::from_scenario(JsValue::from_str(text), JsValue::UNDEFINED).unwrap();
    while !p.extend(JsValue::from(10_000.0)).unwrap() {}
    p
}

fn expected_hash(name: &str) -> String {
    HASHES
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{name} ")))
        .unwrap()
        .to_string()
}

#[wasm_bindgen_test]
fn trace_hashes_match_the_native_runs() {
    for (name, text) in [("s02", S02), ("s03", S03), ("s10", S10)] {
        let p = scenario(text);
        assert_eq!(p.trace_hash(), Some(expected_hash(name)), "{name}");
    }
}

#[wasm_bindgen_test]
fn seek_step_back_and_the_extent() {
    let mut p = scenario(S03);
    assert_eq!(p.seek(JsValue::from(37_310.0)).unwrap(), 37_310.0);
    let extent = p.extent().unwrap();
    assert_eq!(num(&extent, "now_ms"), 37_310.0);
    assert_eq!(num(&extent, "frontier_ms"), 60_000.0);
    assert_eq!(get(&extent, "complete").as_bool(), Some(true));
    let back = p.step_back();
    assert!(back < 37_310.0);
    let batch = p.take_events().unwrap();
    assert_eq!(get(&batch, "reset").as_bool(), Some(true));
    let step = p.step().unwrap();
    assert_eq!(num(&step, "now_ms"), 37_310.0);
    let text = message(p.seek(JsValue::from(-5.0)).unwrap_err());
    assert_eq!(
        text,
        "seek: expected a whole number of milliseconds 0-604800000, found -5"
    );
}

#[wasm_bindgen_test]
fn markers_series_and_request_events_describe_the_run() {
    let mut p = scenario(S03);
    let markers = p
        .markers(
            JsValue::from(0.0),
            JsValue::from(60_000.0),
            JsValue::from(100.0),
        )
        .unwrap();
    let list = Array::from(&get(&markers, "markers"));
    let kinds: Vec<String> = list
        .iter()
        .map(|m| get(&m, "kind").as_string().unwrap())
        .collect();
    assert!(kinds.contains(&"isr_committed".to_string()), "{kinds:?}");
    assert!(kinds.contains(&"answered".to_string()), "{kinds:?}");
    let few = p
        .markers(
            JsValue::from(0.0),
            JsValue::from(60_000.0),
            JsValue::from(1.0),
        )
        .unwrap();
    assert_eq!(Array::from(&get(&few, "markers")).length(), 1);
    assert_eq!(num(&few, "total"), list.length() as f64);

    p.seek(JsValue::from(35_000.0)).unwrap();
    let series = p
        .series(
            JsValue::from(0.0),
            JsValue::from(60_000.0),
            JsValue::from(10.0),
        )
        .unwrap();
    let now = Array::from(&get(&series, "now"));
    assert_eq!(now.get(1).as_f64(), Some(1.0), "p1 is waiting at 35 s");
    // The whole computed run (the markers' span), not only up to the playhead: the timeline
    // draws the waiting requests under every marker it shows.
    assert_eq!(num(&series, "to_ms"), 60_000.0, "clipped at the frontier");
    let delayed = Array::from(&Array::from(&get(&series, "bins")).get(1));
    let highs: Vec<f64> = delayed
        .iter()
        .map(|b| Array::from(&b).get(1).as_f64().unwrap())
        .collect();
    // p1 waits from 20,000 to 37,310 ms (bins of 6,000 ms): in bins 3 to 6, and not after.
    assert_eq!(
        highs,
        [0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0],
        "{highs:?}"
    );

    let events = Array::from(&p.request_events("p1".into()).unwrap());
    let tags: Vec<String> = events
        .iter()
        .map(|e| get(&e, "event").as_string().unwrap())
        .collect();
    assert!(tags.contains(&"timer_added".to_string()), "{tags:?}");
    assert!(
        !tags.contains(&"produce_response_sent".to_string()),
        "not answered yet at 35 s"
    );
    assert!(p.request_events("nope".into()).unwrap().is_null());
}

#[wasm_bindgen_test]
fn commands_fork_and_undo() {
    let mut p =
        Playground::new(JsValue::from_str(r#"{"config":{"min_insync_replicas":2}}"#)).unwrap();
    p.advance(JsValue::from(1_000.0), None).unwrap();
    let cmd = js_sys::JSON::parse(r#"{"action":"pause_follower","broker":2}"#).unwrap();
    let done = p.command(cmd).unwrap();
    assert_eq!(num(&done, "at_ms"), 1_001.0);
    p.advance(JsValue::from(5_000.0), None).unwrap();
    p.seek(JsValue::from(500.0)).unwrap();
    let preview = p.fork_preview().unwrap();
    assert_eq!(num(&preview, "user_actions_dropped"), 1.0);
    assert_eq!(num(&preview, "user_actions"), 1.0);
    let done = p
        .command(JsValue::from_str(r#"{"action":"crash_broker","broker":1}"#))
        .unwrap();
    assert_eq!(get(&done, "forked").as_bool(), Some(true));
    assert!(p.undo());
    assert_eq!(p.now_ms(), 500.0);
    let actions = Array::from(&p.actions().unwrap());
    assert_eq!(actions.length(), 1);
    assert_eq!(get(&actions.get(0), "by_user").as_bool(), Some(true));
}

#[wasm_bindgen_test]
fn breakpoints_stop_the_clock_and_bad_ones_are_named() {
    let mut p = scenario(S02);
    let spec = js_sys::JSON::parse(r#"{"expiry": true}"#).unwrap();
    p.set_breakpoints(spec).unwrap();
    let played = p.advance(JsValue::from(60_000.0), None).unwrap();
    assert_eq!(num(&played, "now_ms"), 31_000.0);
    assert_eq!(
        get(&get(&played, "hit"), "kind").as_string().as_deref(),
        Some("expiry")
    );
    let bad = js_sys::JSON::parse(r#"{"expiry": 1}"#).unwrap();
    let text = message(p.set_breakpoints(bad).unwrap_err());
    assert_eq!(text, "breakpoints.expiry: expected true or false, found 1");
}

#[wasm_bindgen_test]
fn an_export_reopens_at_its_instant_with_the_same_bytes() {
    let mut p = scenario(S03);
    p.seek(JsValue::from(20_000.0)).unwrap();
    p.select("p1".into()).unwrap();
    let text = p.export_session(None);
    let q = Playground::from_scenario(JsValue::from_str(&text), JsValue::UNDEFINED).unwrap();
    assert_eq!(q.now_ms(), 20_000.0);
    assert_eq!(q.selected().as_deref(), Some("p1"));
    assert_eq!(q.export_session(None), text);
    let story = Array::from(&q.story().unwrap()).length();
    assert_eq!(
        story,
        Array::from(&p.story().unwrap()).length(),
        "an export of the scenario's own run carries its story"
    );
    assert!(story > 0);
    // An action of the person's own changes the run the story tells: the story stays behind.
    p.command(JsValue::from_str(
        r#"{"action": "resume_follower", "broker": 2}"#,
    ))
    .unwrap();
    let changed = Playground::from_scenario(
        JsValue::from_str(&p.export_session(None)),
        JsValue::UNDEFINED,
    )
    .unwrap();
    assert_eq!(
        Array::from(&changed.story().unwrap()).length(),
        0,
        "an export after an action of one's own carries no story"
    );
    // Continued live at 20,000 ms, the file's run ends there: it keeps the captions up to it,
    // and reopens (a caption past the run's end would make the file invalid).
    let mut live = scenario(S03);
    live.seek(JsValue::from(20_000.0)).unwrap();
    live.continue_live();
    let text = live.export_session(None);
    let reopened = Playground::from_scenario(JsValue::from_str(&text), JsValue::UNDEFINED)
        .unwrap_or_else(|e| panic!("{}", message(e)));
    let told = Array::from(&reopened.story().unwrap());
    assert!(told.length() > 0 && told.length() < story);
    assert!(told.iter().all(|s| num(&s, "at_ms") <= 20_000.0));
    // Saved while the story is open, the file says so (the page reopens the story there); a
    // file with no story to open never does.
    let saved_open = reopened.export_session(Some(true));
    let open = js_sys::JSON::parse(&saved_open).unwrap();
    assert_eq!(
        get(&get(&open, "session"), "story_open").as_bool(),
        Some(true)
    );
    // Reopened, the session says so (the page starts the story there); the one it was saved
    // from, opened from a file without the flag, does not.
    let again =
        Playground::from_scenario(JsValue::from_str(&saved_open), JsValue::UNDEFINED).unwrap();
    assert!(again.story_open() && !reopened.story_open());
    let none = js_sys::JSON::parse(&changed.export_session(Some(true))).unwrap();
    assert!(get(&get(&none, "session"), "story_open").is_undefined());
}

#[wasm_bindgen_test]
fn hostile_arguments_are_errors_with_messages() {
    let undefined = Playground::new(JsValue::UNDEFINED).err().unwrap();
    assert_eq!(
        message(undefined),
        "setup: expected an object, found undefined"
    );
    let func = js_sys::Function::new_no_args("return 1");
    let text = message(Playground::new(func.into()).err().unwrap());
    assert!(
        text.starts_with("setup: expected plain JSON data"),
        "{text}"
    );
    let mut p = Playground::new(JsValue::from_str("{}")).unwrap();
    for bad in [f64::NAN, f64::INFINITY, -1.0, 1e18] {
        let text = message(p.advance(JsValue::from(bad), None).unwrap_err());
        assert!(
            text.starts_with("advance: expected a whole number"),
            "{text}"
        );
    }
    let huge = "x".repeat(11 * 1024 * 1024);
    let text = message(p.command(JsValue::from_str(&huge)).unwrap_err());
    assert!(text.starts_with("command: the text is"), "{text}");
}

/// A scenario with phases in wasm: the contract's stalled-follower example at φ = 500 completes
/// at the shrink's commit, 30,510 ms (at φ = 0 it times out at 31,000), and the session's export
/// keeps the phases, so a link or a file reopens the same run.
#[wasm_bindgen_test]
fn phases_run_and_travel_with_the_session() {
    let text = r#"{"name": "phases", "config": {"min_insync_replicas": 2},
        "phases": {"isr_check_ms": 500, "heartbeat_ms": [0, 700, 0]},
        "topics": [{"name": "t", "partitions": 1, "replication_factor": 3}],
        "actions": [{"at_ms": 0, "action": "pause_follower", "broker": 2},
                    {"at_ms": 1000, "action": "produce", "id": "p1", "acks": -1,
                     "records": [{"topic": "t", "partition": 0, "count": 10}]}],
        "run_until_ms": 40000}"#;
    let mut p = scenario(text);
    p.seek(JsValue::from(35_000.0)).unwrap();
    let result: serde_json::Value = serde_json::from_str(&p.result()).unwrap();
    assert_eq!(result["responses"][0]["responded_ms"], 30_510);
    assert_eq!(result["responses"][0]["partitions"][0]["error"], "NONE");
    let exported = p.export_session(None);
    assert!(
        exported.contains(r#""phases": {"isr_check_ms":500,"heartbeat_ms":[0,700,0]}"#),
        "{exported}"
    );
    let again = scenario(&exported);
    assert_eq!(again.trace_hash(), p.trace_hash());
}

/// A what-if in wasm: `whatIf` answers the second run's scenario and the comparison (the same
/// divergence and outcomes as natively), the session remembers the change for its export, and
/// wrong arguments are errors that name what was wrong, leaving the session as it was.
#[wasm_bindgen_test]
fn what_if_compares_and_travels_with_the_session() {
    let mut p = scenario(S03);
    for (bad, expected) in [
        (
            JsValue::UNDEFINED,
            "whatIf.change: expected text such as \"acks=1\", found nothing",
        ),
        (JsValue::from(1.0), "whatIf.change: expected a string"),
        (JsValue::from_str("acks=7"), "acks: `7` is not 0, 1 or all"),
        (
            JsValue::from_str("actions[4]=removed"),
            "actions[4]=removed: the scenario's actions are actions[0] to actions[1]",
        ),
    ] {
        let text = message(p.what_if(bad).unwrap_err());
        assert!(text.starts_with(expected), "{text}");
    }
    assert_eq!(p.compare(), None, "a refused change is not remembered");

    let answer = p.what_if(JsValue::from_str("acks = 1")).unwrap();
    assert_eq!(
        get(&answer, "change").as_string().as_deref(),
        Some("acks=1")
    );
    let comparison = get(&answer, "comparison");
    let divergence = get(&comparison, "divergence");
    assert_eq!(num(&divergence, "at_ms"), 20_000.0);
    assert_eq!(
        get(&get(&divergence, "b"), "event").as_string().as_deref(),
        Some("produce_answered_at_once")
    );
    let rows = Array::from(&get(&comparison, "outcomes"));
    assert_eq!(rows.length(), 1);
    assert_eq!(num(&get(&rows.get(0), "a"), "answered_ms"), 37_310.0);
    assert_eq!(num(&get(&rows.get(0), "b"), "answered_ms"), 20_000.0);
    // The second run opens as a handle of its own and plays to B's answer.
    let other = get(&answer, "scenario").as_string().unwrap();
    let mut b = scenario(&other);
    b.seek(JsValue::from(60_000.0)).unwrap();
    assert!(
        b.result().contains("\"responded_ms\": 20000"),
        "{}",
        b.result()
    );

    assert_eq!(p.compare().as_deref(), Some("acks=1"));
    let exported = p.export_session(None);
    assert!(exported.contains("\"compare\": \"acks=1\""), "{exported}");
    let reopened = scenario(&exported);
    assert_eq!(reopened.compare().as_deref(), Some("acks=1"));
    p.end_compare();
    assert!(!p.export_session(None).contains("\"compare\""));
}
