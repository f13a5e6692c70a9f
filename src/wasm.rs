//! The WebAssembly boundary: the one file that knows JavaScript exists.
//!
//! One opaque handle, [`Playground`], owns one [`Simulation`]. Commands come in as plain JS values
//! shaped like a scenario action (`{action: "produce", id, acks, records, ...}`) and are validated
//! by the very scenario parser the runner uses, so a page command and a file action mean the same
//! thing and fail with the same words. State goes out as a summarised snapshot
//! ([`crate::sim::view`]) and the new trace events, both as plain JS objects that the engine's
//! `JSON.parse` builds from serde_json's text (see `to_js`: one serializer in the module, not
//! two). Every wrong argument is a thrown JS `Error` naming what was wrong; nothing here panics on
//! input.
//!
//! Nothing is global: a page may hold several handles (side-by-side runs, embedded instances) over
//! the one instantiated module.

use std::collections::BTreeSet;

use serde::Serialize;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use crate::scenario::Scenario;
use crate::sim::action::{Action, TimedAction};
use crate::sim::view;
use crate::sim::Simulation;

/// The scenario contract's longest run (a week), used as the horizon of a live session.
const MAX_RUN_UNTIL_MS: u64 = 604_800_000;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

#[wasm_bindgen]
pub struct Playground {
    sim: Simulation,
    name: String,
    /// The scenario's `run_until_ms`, or the contract's maximum for a live session.
    run_until_ms: u64,
    /// Produce ids used so far (the contract wants them unique).
    ids: BTreeSet<String>,
    /// Produce ids the page generated, for `next_id`.
    next_id: u64,
}

/// A number as JavaScript would print it, through serde_json's float writer: `{}` on an f64 would
/// link core's own float formatting as well, about 5 KB of gzipped wasm for one error message.
fn js_number(n: f64) -> String {
    if n.is_finite() && n.fract() == 0.0 && n.abs() < 9.0e15 {
        return (n as i64).to_string();
    }
    match serde_json::Number::from_f64(n) {
        Some(number) => number.to_string(),
        None if n.is_nan() => "NaN".to_string(),
        None if n > 0.0 => "Infinity".to_string(),
        None => "-Infinity".to_string(),
    }
}

fn err(message: impl std::fmt::Display) -> JsError {
    JsError::new(&message.to_string())
}

/// A JS value that is either JSON text or a plain object. Objects cross as JSON text
/// (`JSON.stringify` on the JS side of the call), so the module links one JSON reader, serde_json's,
/// and not a second, serde-wasm-bindgen's, over every type (about 9 KB of the gzipped .wasm).
fn to_json_value(value: JsValue, what: &str) -> Result<Value, JsError> {
    if value.is_undefined() || value.is_null() {
        let found = if value.is_null() { "null" } else { "undefined" };
        return Err(err(format!("{what}: expected an object, found {found}")));
    }
    let text = match value.as_string() {
        Some(text) => text,
        None => js_sys::JSON::stringify(&value)
            .ok()
            .and_then(|s| s.as_string())
            .ok_or_else(|| {
                err(format!(
                    "{what}: expected a plain object (JSON-serializable)"
                ))
            })?,
    };
    serde_json::from_str(&text).map_err(|e| err(format!("{what}: not JSON: {e}")))
}

/// A value out to JS as a plain object: serde_json writes the text, the engine's `JSON.parse`
/// builds the object (faster than building it field by field across the boundary, and no second
/// serializer in the module).
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    let text = serde_json::to_string(value).map_err(err)?;
    js_sys::JSON::parse(&text).map_err(|_| err("internal: JSON.parse refused the module's JSON"))
}

#[wasm_bindgen]
impl Playground {
    /// A live session: `{seed?, config?, topics?, name?}` (the scenario's fields without
    /// `actions`), as an object or JSON text. Missing fields take the contract's defaults; with no
    /// `topics`, one topic `t` with 1 partition and replication factor `brokers` (at most 3).
    #[wasm_bindgen(constructor)]
    pub fn new(setup: JsValue) -> Result<Playground, JsError> {
        let mut doc = to_json_value(setup, "setup")?;
        let Some(obj) = doc.as_object_mut() else {
            return Err(err("setup: expected an object"));
        };
        if obj.contains_key("actions") {
            return Err(err(
                "setup.actions: a live session starts with no actions (use fromScenario)",
            ));
        }
        obj.entry("name").or_insert(json!("session"));
        obj.entry("actions").or_insert(json!([]));
        obj.entry("run_until_ms").or_insert(json!(MAX_RUN_UNTIL_MS));
        if !obj.contains_key("topics") {
            let brokers = obj
                .get("config")
                .and_then(|c| c.get("brokers"))
                .and_then(Value::as_u64)
                .unwrap_or(3);
            obj.insert(
                "topics".into(),
                json!([{ "name": "t", "partitions": 1, "replication_factor": brokers.clamp(1, 3) }]),
            );
        }
        let scenario = Scenario::from_value(&doc)
            .map_err(|e| err(format!("setup.{e}").replace(".: ", ": ")))?;
        Playground::build(&scenario)
    }

    /// A curated or exported scenario (object or JSON text); its actions are queued.
    #[wasm_bindgen(js_name = fromScenario)]
    pub fn from_scenario(scenario: JsValue) -> Result<Playground, JsError> {
        let doc = to_json_value(scenario, "scenario")?;
        let scenario = Scenario::from_value(&doc).map_err(err)?;
        Playground::build(&scenario)
    }

    fn build(scenario: &Scenario) -> Result<Playground, JsError> {
        let sim = Simulation::from_scenario(scenario, true).map_err(err)?;
        let ids = scenario
            .actions
            .iter()
            .filter_map(|a| match &a.action {
                Action::Produce(p) => Some(p.id.to_string()),
                _ => None,
            })
            .collect();
        Ok(Playground {
            sim,
            name: scenario.name.clone(),
            run_until_ms: scenario.run_until_ms,
            ids,
            next_id: 1,
        })
    }

    /// Applies a command at the current simulated time (at the next step, which `advance(0)` or
    /// `step()` runs). The command is a scenario action without `at_ms`. A produce without `id`
    /// gets the next free `pN`. Returns the produce id (or undefined).
    pub fn command(&mut self, command: JsValue) -> Result<JsValue, JsError> {
        let mut value = to_json_value(command, "command")?;
        let Some(obj) = value.as_object_mut() else {
            return Err(err(
                "command: expected an object like {action: \"produce\", ...}",
            ));
        };
        if obj.contains_key("at_ms") {
            return Err(err("command.at_ms: commands apply now; leave at_ms out"));
        }
        let mut generated = false;
        let is_produce = obj.get("action").and_then(Value::as_str) == Some("produce");
        if is_produce && !obj.contains_key("id") {
            obj.insert("id".into(), json!(self.fresh_id()));
            generated = true;
        }
        obj.insert("at_ms".into(), json!(0));
        let doc = json!({
            "name": "command",
            "seed": self.sim.seed(),
            "config": self.sim.config(),
            "topics": self.sim.topics(),
            "actions": [value],
            "run_until_ms": 0,
        });
        let parsed = Scenario::from_value(&doc)
            .map_err(|e| err(e.to_string().replacen("actions[0]", "command", 1)));
        let parsed = match parsed {
            Ok(parsed) => parsed,
            Err(e) => {
                if generated {
                    self.next_id -= 1; // a refused command does not use up an id
                }
                return Err(e);
            }
        };
        let mut action = parsed
            .actions
            .into_iter()
            .next()
            .ok_or_else(|| err("command: empty"))?;
        let id = match &action.action {
            Action::Produce(p) => {
                if !self.ids.insert(p.id.to_string()) {
                    let quoted = serde_json::to_string(&*p.id).expect("a string serializes");
                    return Err(err(format!("command.id: {quoted} is already used")));
                }
                JsValue::from_str(&p.id)
            }
            _ => JsValue::UNDEFINED,
        };
        action.at_ms = self.sim.now_ms();
        self.sim.schedule_action(TimedAction { ..action });
        Ok(id)
    }

    fn fresh_id(&mut self) -> String {
        loop {
            let id = format!("p{}", self.next_id);
            self.next_id += 1;
            if !self.ids.contains(&id) {
                return id;
            }
        }
    }

    /// Runs `ms` simulated milliseconds (a whole, non-negative number); returns the new time.
    pub fn advance(&mut self, ms: f64) -> Result<f64, JsError> {
        if !(ms.is_finite() && ms >= 0.0 && ms.fract() == 0.0 && ms <= MAX_RUN_UNTIL_MS as f64) {
            return Err(err(format!(
                "advance: expected a whole number of milliseconds 0-{MAX_RUN_UNTIL_MS}, found {}",
                js_number(ms)
            )));
        }
        let until = self.sim.now_ms().saturating_add(ms as u64);
        self.sim.run_until(until);
        Ok(self.sim.now_ms() as f64)
    }

    /// Runs the next instant that has anything to do; returns its time, or undefined when
    /// nothing is left.
    pub fn step(&mut self) -> Option<f64> {
        self.sim.step().map(|t| t as f64)
    }

    #[wasm_bindgen(getter, js_name = nowMs)]
    pub fn now_ms(&self) -> f64 {
        self.sim.now_ms() as f64
    }

    #[wasm_bindgen(getter, js_name = nextEventMs)]
    pub fn next_event_ms(&self) -> Option<f64> {
        self.sim.next_event_ms().map(|t| t as f64)
    }

    #[wasm_bindgen(getter, js_name = runUntilMs)]
    pub fn run_until_ms(&self) -> f64 {
        self.run_until_ms as f64
    }

    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.name.clone()
    }

    /// `{seed, config, topics}` of this run.
    pub fn setup(&self) -> Result<JsValue, JsError> {
        to_js(&json!({
            "seed": self.sim.seed(),
            "config": self.sim.config(),
            "topics": self.sim.topics(),
        }))
    }

    /// The summarised state now (see `sim::view`).
    pub fn snapshot(&self) -> Result<JsValue, JsError> {
        to_js(&view::snapshot(&self.sim))
    }

    /// The causal trace events recorded since the last call.
    #[wasm_bindgen(js_name = takeEvents)]
    pub fn take_events(&mut self) -> Result<JsValue, JsError> {
        to_js(&self.sim.drain_trace())
    }

    /// The result document now, as the runner prints it.
    pub fn result(&self) -> String {
        let until = self.sim.now_ms().min(self.run_until_ms);
        view::result_json(&self.sim.result(&self.name, until))
    }

    /// The session as a scenario: seed + config + topics + every action applied so far, with
    /// `run_until_ms` now. Loading it with `fromScenario` replays this run.
    #[wasm_bindgen(js_name = exportSession)]
    pub fn export_session(&self) -> String {
        Scenario {
            name: self.name.clone(),
            seed: self.sim.seed(),
            config: self.sim.config().clone(),
            topics: self.sim.topics().to_vec(),
            actions: self.sim.action_log().to_vec(),
            run_until_ms: self.sim.now_ms().min(MAX_RUN_UNTIL_MS),
        }
        .to_json()
    }
}
