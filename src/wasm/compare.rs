//! What-ifs at the boundary: the session against itself with one change (crate::compare does the
//! work). The page opens the second run from the scenario this returns, as a second handle, and
//! plays both on its one clock.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::convert::{err, string_arg, to_js_via_text};
use super::Playground;
use crate::compare::{what_if, Comparison};
use crate::scenario::Change;

/// `whatIf`'s answer.
#[derive(Serialize)]
struct WhatIf {
    /// The change as the link and the file write it (`acks=1`).
    change: String,
    /// The second run's scenario, at this session's instant: the page opens it as its own handle.
    scenario: String,
    comparison: Comparison,
    /// How far both runs were compared: the scenario's end, or a live session's playhead (or
    /// its last action).
    until_ms: u64,
    live: bool,
}

#[wasm_bindgen]
impl Playground {
    /// Compares this session's run with the same run changed in one thing: `change` is text such
    /// as `"acks=1"`, `"min.insync.replicas=2"`, `"actions[2].at_ms=12000"` or
    /// `"actions[2]=removed"`. Both runs are played to the session's end (a live session's: its
    /// playhead or last action) and compared. Returns `{change, scenario, comparison}`; the
    /// session remembers the change, so an exported session or a link reopens the comparison.
    /// A change that does not read or does not apply is a thrown `Error` saying why, and nothing
    /// changes.
    #[wasm_bindgen(js_name = whatIf)]
    pub fn what_if(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] change: JsValue,
    ) -> Result<JsValue, JsError> {
        let text = string_arg(&change, "whatIf.change")?
            .ok_or_else(|| err("whatIf.change: expected text such as \"acks=1\", found nothing"))?;
        let change = Change::parse(&text).map_err(err)?;
        let mut scenario = self.session.export(false);
        scenario.compare = None;
        let (other, comparison) = what_if(&scenario, &change).map_err(err)?;
        self.session.set_compare(Some(change.clone()));
        let live = scenario.session.as_ref().is_some_and(|s| s.live);
        to_js_via_text(&WhatIf {
            change: change.to_string(),
            scenario: other.to_json(),
            comparison,
            until_ms: scenario.run_until_ms,
            live,
        })
    }

    /// The what-if this session shows (its file's `compare`, or the last `whatIf`), as text, or
    /// `undefined`.
    #[wasm_bindgen(getter)]
    pub fn compare(&self) -> Option<String> {
        self.session.compare().map(|c| c.to_string())
    }

    /// Stops comparing: an exported session no longer carries the what-if.
    #[wasm_bindgen(js_name = endCompare)]
    pub fn end_compare(&mut self) {
        self.session.set_compare(None);
    }
}
