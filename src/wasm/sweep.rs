//! The sweep at the boundary (`PhaseSweep`): a scenario run at every phase of a beat, a slice at
//! a time, so that the page's Phases view fills in short tasks between its frames (crate::sweep
//! does the work).

use wasm_bindgen::prelude::*;

use super::convert::{err, string_arg, to_js_via_text, to_json_value, whole_number};
use crate::scenario::{Scenario, MAX_SCENARIO_BYTES};
use crate::sim::action::BrokerId;
use crate::sweep::{Beat, Sweeper};

/// Phases one `step` call may run: a call stays short even on a slow machine.
const MAX_PHASES_PER_CALL: f64 = 100_000.0;

#[wasm_bindgen]
pub struct PhaseSweep {
    sweeper: Sweeper,
}

#[wasm_bindgen]
impl PhaseSweep {
    /// A sweep of `scenario` (object or JSON text) over every phase of `beat`: `"isr_check"`
    /// (the default) or `"heartbeat"`; of every broker's beat together, or of `broker`'s alone
    /// (the others stay where the scenario has them), as the runner's `sweep --broker B`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        scenario: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | undefined")] beat: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number | undefined")] broker: JsValue,
    ) -> Result<PhaseSweep, JsError> {
        let beat = match string_arg(&beat, "PhaseSweep.beat")?.as_deref() {
            None | Some("isr_check") => Beat::IsrCheck,
            Some("heartbeat") => Beat::Heartbeat,
            Some(other) => {
                // A long string is cut short: the message stays one readable line.
                let shown: String = other.chars().take(40).collect();
                let cut = if shown.len() < other.len() { "…" } else { "" };
                return Err(err(format!(
                    "PhaseSweep.beat: expected \"isr_check\" or \"heartbeat\", found {shown:?}{cut}"
                )));
            }
        };
        let doc = to_json_value(scenario, "scenario", MAX_SCENARIO_BYTES)?;
        let scenario = Scenario::from_value(&doc).map_err(err)?;
        let broker = broker_arg(&broker, scenario.config.brokers)?;
        Ok(PhaseSweep {
            sweeper: Sweeper::new(&scenario, beat, broker),
        })
    }

    /// Runs up to `phases` more phases (a whole number 1-100,000); returns whether every phase
    /// has run.
    pub fn step(&mut self, phases: JsValue) -> Result<bool, JsError> {
        let range = 1.0..=MAX_PHASES_PER_CALL;
        let n = whole_number(&phases, "PhaseSweep.step", "of phases ", range)?;
        Ok(self.sweeper.step(n))
    }

    #[wasm_bindgen(getter, js_name = phasesDone)]
    pub fn phases_done(&self) -> f64 {
        self.sweeper.phases_done() as f64
    }

    #[wasm_bindgen(getter, js_name = periodMs)]
    pub fn period_ms(&self) -> f64 {
        self.sweeper.sweep().period_ms as f64
    }

    #[wasm_bindgen(getter)]
    pub fn done(&self) -> bool {
        self.sweeper.done()
    }

    /// What the phases run so far gave: `{scenario, beat, broker, period_ms, requests: [{id,
    /// outcomes: [{outcome: {errors, connection_closed}, phases: [[lo, hi]...], count,
    /// answered_ms: [lo, hi] | null}]}]}`.
    pub fn result(&self) -> Result<JsValue, JsError> {
        to_js_via_text(self.sweeper.sweep())
    }
}

/// The broker whose beat alone moves: `None` (every broker's) for null or undefined, else one of
/// the scenario's brokers.
fn broker_arg(value: &JsValue, brokers: u32) -> Result<Option<BrokerId>, JsError> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    match value.as_f64() {
        Some(v) if v >= 0.0 && v.fract() == 0.0 && v < f64::from(brokers) => {
            Ok(Some(BrokerId(v as u32)))
        }
        _ => Err(err(format!(
            "PhaseSweep.broker: expected a broker of the scenario, 0 to {}, found {}",
            brokers - 1,
            super::convert::found(value)
        ))),
    }
}
