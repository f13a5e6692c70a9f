//! What only the bench build (`workload` feature) exports: Kafka's purgatory workload for the
//! wasm-vs-native bench page, and the object-building variants of two answers it compares.

use wasm_bindgen::prelude::*;

use super::convert::to_js_object;
use super::Playground;
use crate::sim::view;

/// Kafka's purgatory benchmark workload (`src/purgatory/workload.rs`), for the bench page only: the
/// schedule is drawn by `new`, and `run` replays it against a fresh purgatory, so the page times
/// exactly what the native bench times.
#[wasm_bindgen]
pub struct PurgatoryWorkload {
    schedule: crate::purgatory::workload::Schedule,
}

#[wasm_bindgen]
impl PurgatoryWorkload {
    #[wasm_bindgen(constructor)]
    pub fn new(requests: u32) -> PurgatoryWorkload {
        PurgatoryWorkload {
            schedule: crate::purgatory::workload::Schedule::new(requests.max(1) as usize),
        }
    }

    /// Replays the schedule once: its outcome and phases (`workload::Outcome::line`).
    pub fn run(&self) -> String {
        let mut store = crate::purgatory::workload::CratePurgatory::new();
        let (outcome, phases) =
            crate::purgatory::workload::replay_timed(&self.schedule, &mut store, now_ms);
        outcome.line(phases)
    }
}

#[wasm_bindgen]
extern "C" {
    /// The page's clock, for the phases of a replay.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn now_ms() -> f64;
}

/// The bench page's comparison of the two ways an answer can cross (issue 9): the same snapshot
/// and event batches built as objects by serde-wasm-bindgen, against `snapshot()` and
/// `takeEvents()`, which cross as serde_json text for the engine's `JSON.parse`. Bench build only.
#[wasm_bindgen]
impl Playground {
    #[wasm_bindgen(js_name = snapshotAsObject)]
    pub fn snapshot_as_object(&self) -> Result<JsValue, JsError> {
        to_js_object(&view::snapshot(self.session.sim()))
    }

    #[wasm_bindgen(js_name = takeEventsAsObject)]
    pub fn take_events_as_object(&mut self) -> Result<JsValue, JsError> {
        to_js_object(&self.session.take_events())
    }
}
