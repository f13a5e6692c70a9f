#![cfg(target_arch = "wasm32")]
//! The boundary in headless Chromium: what the page receives (JSON text parsed by the browser's
//! `JSON.parse` into plain JS data: objects, arrays, numbers, null) is summarised and the same as
//! the native snapshot; and the `Playground` handle throws a JS `Error` naming the field for wrong
//! arguments (also exercised in the real page by e2e/boundary.spec.mjs).

use js_sys::{Array, Reflect};
use purgatory_playground::kafka::config::{Config, TopicSpec};
use purgatory_playground::sim::action::{Action, BrokerId, ProduceSpec, TimedAction};
use purgatory_playground::sim::{view, Simulation};
use serde::Serialize;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn waiting_sim(requests: usize) -> Simulation {
    let topics = vec![TopicSpec {
        name: "t".into(),
        partitions: 1,
        replication_factor: 3,
    }];
    let mut sim = Simulation::new(0, Config::default(), topics, true).unwrap();
    for b in [1, 2] {
        sim.schedule_action(TimedAction {
            at_ms: 0,
            action: Action::PauseFollower {
                broker: BrokerId(b),
            },
        });
    }
    sim.run_until(600);
    for i in 0..requests {
        sim.schedule_action(TimedAction {
            at_ms: 600,
            action: Action::Produce(ProduceSpec {
                timeout_ms: Some(30_000),
                ..ProduceSpec::one_partition(format!("p{i}"), -1, "t", 0, 1)
            }),
        });
    }
    sim.run_until(601);
    sim
}

/// The way `Playground::snapshot` sends it: serde_json's text, parsed by the engine.
fn to_js<T: Serialize>(v: &T) -> JsValue {
    js_sys::JSON::parse(&serde_json::to_string(v).unwrap()).unwrap()
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap()
}

#[wasm_bindgen_test]
fn the_snapshot_crosses_as_plain_js_data() {
    let sim = waiting_sim(3);
    let snap = to_js(&view::snapshot(&sim));
    assert_eq!(get(&snap, "now_ms").as_f64(), Some(601.0));
    let brokers = Array::from(&get(&snap, "brokers"));
    assert_eq!(brokers.length(), 3);
    let purgatory = get(&brokers.get(0), "produce_purgatory");
    assert_eq!(
        get(&purgatory, "num_delayed_operations").as_f64(),
        Some(3.0)
    );
    // `None` crosses as null (json_compatible), not undefined, so the page can test `== null`.
    let first = Array::from(&get(&snap, "requests")).get(0);
    assert!(get(&first, "responded_ms").is_null());
    // The JSON text of the JS value equals the native serde_json text.
    let js_text = js_sys::JSON::stringify(&snap).unwrap().as_string().unwrap();
    let native: serde_json::Value = serde_json::to_value(view::snapshot(&sim)).unwrap();
    let via_js: serde_json::Value = serde_json::from_str(&js_text).unwrap();
    assert_eq!(via_js, native);
}

#[wasm_bindgen_test]
fn a_large_purgatory_is_summarised() {
    let sim = waiting_sim(2_000);
    let snap = view::snapshot(&sim);
    let p = &snap.brokers[0].produce_purgatory;
    assert_eq!(p.gauges.num_delayed_operations, 2_000);
    assert!(p.operations.len() <= view::MAX_OPERATIONS);
    let text = serde_json::to_string(&snap).unwrap();
    assert!(text.len() < 64 * 1024, "snapshot is {} bytes", text.len());
}

#[wasm_bindgen_test]
fn trace_events_cross_with_their_tags() {
    let mut sim = waiting_sim(1);
    let events = to_js(&sim.drain_trace());
    let events = Array::from(&events);
    assert!(events.length() > 0);
    let tags: Vec<String> = events
        .iter()
        .map(|e| get(&e, "event").as_string().unwrap())
        .collect();
    assert!(
        tags.iter().any(|t| t == "delayed_produce_created"),
        "{tags:?}"
    );
}

/// The `message` of a thrown JS `Error`.
fn message(error: wasm_bindgen::JsError) -> String {
    let value: JsValue = error.into();
    Reflect::get(&value, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .unwrap_or_default()
}

#[wasm_bindgen_test]
fn the_handle_answers_wrong_arguments_with_errors_and_right_ones_with_the_model() {
    use purgatory_playground::wasm::Playground;

    let refused = Playground::new(JsValue::from_str(r#"{"config":{"brokers":0}}"#));
    let text = message(refused.err().expect("brokers 0 is refused"));
    assert!(text.contains("config.brokers"), "{text}");

    let mut playground = Playground::new(JsValue::from_str("{}")).expect("defaults are valid");
    let bad =
        r#"{"action":"produce","acks":"many","records":[{"topic":"t","partition":0,"count":1}]}"#;
    let text = message(
        playground
            .command(JsValue::from_str(bad))
            .err()
            .expect("acks refused"),
    );
    assert!(text.starts_with("command.acks"), "{text}");
    // Numbers are printed as JavaScript prints them.
    for (ms, shown) in [
        (-1.0, "found -1"),
        (1.5, "found 1.5"),
        (f64::NAN, "found NaN"),
    ] {
        let text = message(
            playground
                .advance(JsValue::from(ms), None)
                .err()
                .expect("refused"),
        );
        assert!(
            text.starts_with("advance: ") && text.ends_with(shown),
            "{text}"
        );
    }

    let good =
        r#"{"action":"produce","acks":"all","records":[{"topic":"t","partition":0,"count":10}]}"#;
    let done = playground
        .command(JsValue::from_str(good))
        .expect("a valid produce");
    assert_eq!(
        get(&done, "id").as_string().as_deref(),
        Some("p1"),
        "a refused command uses up no id"
    );
    playground
        .advance(JsValue::from(100.0), None)
        .expect("runs");
    let result: serde_json::Value = serde_json::from_str(&playground.result()).unwrap();
    assert_eq!(result["responses"][0]["partitions"][0]["error"], "NONE");
}
