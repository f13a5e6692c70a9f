#![cfg(target_arch = "wasm32")]
//! The core inside wasm (Node): a curated scenario gives a result document byte-identical to the
//! native run (`tests/wasm_golden.rs` checks the native side against the same golden files), and
//! running it twice gives the same trace.

use purgatory_playground::scenario::run_scenario;
use purgatory_playground::scenario::Scenario;
use wasm_bindgen_test::wasm_bindgen_test;

fn run(text: &str) -> String {
    let scenario = Scenario::from_json(text).expect("curated scenario parses");
    run_scenario(&scenario, None).expect("runs").to_json()
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

/// The purgatory's batch completion in wasm asks for its operations' memory in batches (see
/// `src/plumbing/prefetch.rs`): a batch longer than two of those, with repeats and ids of operations
/// already purged, completes each live operation once, in the batch's order, as the native loop
/// does.
#[wasm_bindgen_test]
fn a_long_batch_of_completions_completes_each_once_in_order() {
    use purgatory_playground::purgatory::{Completion, Hooks, OpId, Purgatory};

    #[derive(Default)]
    struct Log(Vec<(OpId, Completion)>);
    impl Hooks<u32> for Log {
        fn try_complete(&mut self, _: OpId, _: &mut u32) -> bool {
            false
        }
        fn on_complete(&mut self, id: OpId, _: &mut u32, how: Completion) {
            self.0.push((id, how));
        }
        fn on_expiration(&mut self, _: OpId, _: &mut u32) {}
    }

    // A purge interval of 1: completed operations are purged at the next reaper step.
    let mut purgatory: Purgatory<u32, u32> = Purgatory::new("wasm", 1, 0);
    let mut log = Log::default();
    let ids: Vec<OpId> = (0..100)
        .map(|i| {
            purgatory
                .try_complete_else_watch(i, &[i % 3], 0, 30_000, &mut log)
                .0
        })
        .collect();
    // Ten operations completed and purged: their ids are stale.
    let purged: Vec<OpId> = ids[90..].to_vec();
    assert_eq!(purgatory.force_complete_all(&purged, &mut log), 10);
    assert!(
        purgatory.advance_clock(1, &mut log).is_some(),
        "the purge ran"
    );
    log.0.clear();
    // Every third of the first 90, each twice in a row, with a stale id after each pair: 90 ids.
    let batch: Vec<OpId> = (0..90)
        .step_by(3)
        .flat_map(|i| [ids[i], ids[i], purged[i % 10]])
        .collect();
    assert_eq!(batch.len(), 90);
    let completed = purgatory.force_complete_all(&batch, &mut log);
    let expected: Vec<OpId> = (0..90).step_by(3).map(|i| ids[i]).collect();
    assert_eq!(completed, expected.len());
    assert_eq!(
        log.0,
        expected
            .iter()
            .map(|&id| (id, Completion::Forced))
            .collect::<Vec<_>>()
    );
    assert_eq!(purgatory.num_delayed_operations(), 90 - expected.len());
}
