#![cfg(not(target_arch = "wasm32"))]
//! Native half of the wasm determinism check: the curated scenarios the wasm tests embed, run
//! natively, must give exactly the committed golden result documents. `tests/wasm_node.rs` runs the
//! same scenarios inside wasm (Node) and compares with the same files, so native and wasm agree
//! byte for byte; `trace-hashes.txt` holds the trace hashes both sides must give. Regenerate with
//! `UPDATE_GOLDEN=1 cargo test --test wasm_golden`.

use purgatory_playground::kafka::trace::TraceHash;
use purgatory_playground::scenario::run_scenario;
use purgatory_playground::scenario::Scenario;

const CASES: &[(&str, &str, &str)] = &[
    (
        "s02",
        include_str!("../scenarios/s02-stalled-follower-times-out.json"),
        "tests/wasm_golden/s02.result.json",
    ),
    (
        "s10",
        include_str!("../scenarios/s10-multi-partition-request.json"),
        "tests/wasm_golden/s10.result.json",
    ),
];

#[test]
fn native_results_match_the_goldens_the_wasm_tests_use() {
    for (name, text, golden) in CASES {
        let scenario = Scenario::from_json(text).expect("curated scenario parses");
        let result = run_scenario(&scenario, None).expect("runs").to_json();
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(golden);
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::write(&path, &result).unwrap();
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            result, expected,
            "{name}: native result differs from {golden}"
        );
    }
}

/// The scenarios whose trace hash the wasm tests check, and the file holding the hashes.
const HASHED: &[(&str, &str)] = &[
    (
        "s02",
        include_str!("../scenarios/s02-stalled-follower-times-out.json"),
    ),
    (
        "s03",
        include_str!("../scenarios/s03-stalled-follower-completes-at-isr-shrink.json"),
    ),
    (
        "s10",
        include_str!("../scenarios/s10-multi-partition-request.json"),
    ),
];
const HASHES: &str = "tests/wasm_golden/trace-hashes.txt";

#[test]
fn native_trace_hashes_match_the_file_the_wasm_tests_use() {
    let mut lines = String::new();
    for (name, text) in HASHED {
        let scenario = Scenario::from_json(text).expect("curated scenario parses");
        let mut trace = Vec::new();
        run_scenario(&scenario, Some(&mut trace)).expect("runs");
        let mut hash = TraceHash::default();
        hash.update(&trace);
        lines.push_str(&format!("{name} {}\n", hash.hex()));
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(HASHES);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &lines).unwrap();
    }
    assert_eq!(lines, std::fs::read_to_string(&path).unwrap_or_default());
}
