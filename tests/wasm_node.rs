#![cfg(target_arch = "wasm32")]
//! The core inside wasm (Node): a curated scenario gives a result document byte-identical to the
//! native run (`tests/wasm_golden.rs` checks the native side against the same golden files), and
//! running it twice gives the same trace.

use purgatory_playground::scenario::Scenario;
use purgatory_playground::sim::{run_scenario, view};
use wasm_bindgen_test::wasm_bindgen_test;

fn run(text: &str) -> String {
    let scenario = Scenario::from_json(text).expect("curated scenario parses");
    view::result_json(&run_scenario(&scenario, None).expect("runs"))
}

#[wasm_bindgen_test]
fn s02_result_is_byte_identical_to_the_native_golden() {
    let got = run(include_str!(
        "../scenarios/s02-stalled-follower-times-out.json"
    ));
    assert_eq!(got, include_str!("wasm_golden/s02.result.json"));
}

#[wasm_bindgen_test]
fn s10_result_is_byte_identical_to_the_native_golden() {
    let got = run(include_str!(
        "../scenarios/s10-multi-partition-request.json"
    ));
    assert_eq!(got, include_str!("wasm_golden/s10.result.json"));
}

#[wasm_bindgen_test]
fn a_run_traced_twice_gives_the_same_trace() {
    let text = include_str!("../scenarios/s02-stalled-follower-times-out.json");
    let trace = || {
        let mut out = Vec::new();
        let scenario = Scenario::from_json(text).unwrap();
        run_scenario(&scenario, Some(&mut out)).unwrap();
        out
    };
    let a = trace();
    assert!(!a.is_empty());
    assert_eq!(a, trace());
}
