//! The WebAssembly boundary: the one module that knows JavaScript exists (its conversions in
//! `convert`, `Playground.whatIf` in `compare`, the Phases view's `PhaseSweep` handle in
//! `sweep`, the bench build's extras in `bench`).
//!
//! The handle a page plays, [`Playground`], owns one [`Session`]. Values come in as plain JS values
//! (commands shaped like a scenario action, setups, scenarios, breakpoints) or JSON text, written
//! as text by the engine's `JSON.stringify` and read by the strict JSON reader into what the
//! scenario parser validates (`convert::to_json_value`), so a page command and a file action mean
//! the same thing and fail with the same words. State goes out as serde_json text that the
//! engine's `JSON.parse` turns into objects, except the per-frame `extent`, whose few fields
//! serde-wasm-bindgen builds directly (see docs/development.md, "The boundary and the browser
//! tests", for the numbers). Every wrong argument is a thrown JS `Error` naming what was wrong;
//! nothing here panics on input.
//!
//! Nothing is global: a page holds several handles (embedded instances, side-by-side runs) over
//! the one instantiated module.

use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

#[cfg(feature = "workload")]
mod bench;
mod compare;
mod convert;
mod sweep;

pub use sweep::PhaseSweep;

use convert::{
    drop_dot_before_colon, err, string_arg, to_js_object, to_js_via_text, to_json_value, whole_ms,
    whole_number, MAX_ARGUMENT_BYTES,
};

use crate::scenario::{scenario_name, Scenario};
use crate::session::breakpoints::BreakpointSpec;
use crate::session::history::SERIES;
use crate::session::Session;
use crate::sim::view;

/// Instants one `extend` call may run (it also stops at `session::play::MAX_EXTEND_WORK`).
const MAX_STEPS_PER_CALL: u64 = 200_000;
/// Work one `advance` call may do before it returns (`yielded`), in the simulation's work meter's
/// units: about a tenth of a second in the browser (a unit costs some 2.5 µs in a session, where
/// every event is traced and folded into the history), so no call freezes the page, whatever it
/// asks for or however large the cluster.
const MAX_WORK_PER_CALL: u64 = 40_000;
/// The longest advance one call accepts (the contract's week).
const MAX_ADVANCE_MS: f64 = 604_800_000.0;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

#[wasm_bindgen]
pub struct Playground {
    session: Session,
}

#[wasm_bindgen]
impl Playground {
    /// A live session: `{seed?, config?, topics?, name?}` (a scenario's fields without
    /// `actions`), as an object or JSON text. Missing fields take the contract's defaults; with no
    /// `topics`, one topic `t` with 1 partition and replication factor `brokers` (at most 3).
    #[wasm_bindgen(constructor)]
    pub fn new(setup: JsValue) -> Result<Playground, JsError> {
        let mut doc = to_json_value(setup, "setup", MAX_ARGUMENT_BYTES)?;
        let Some(obj) = doc.as_object_mut() else {
            return Err(err("setup: expected an object"));
        };
        for field in ["actions", "run_until_ms", "story", "session"] {
            if obj.contains_key(field) {
                return Err(err(format!(
                    "setup.{field}: a live session starts with none (use fromScenario)"
                )));
            }
        }
        obj.entry("name").or_insert(json!("session"));
        obj.insert("actions".into(), json!([]));
        obj.insert("run_until_ms".into(), json!(0));
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
            .and_then(|scenario| scenario.check_broker_start().map(|()| scenario))
            .map_err(|e| err(drop_dot_before_colon(&format!("setup.{e}"))))?;
        Self::open(&scenario, true)
    }

    /// A scenario (object or JSON text): its actions are the script and its whole run is
    /// computed ahead by [`Playground::extend`]. A saved session (a scenario with `session`)
    /// reopens at its instant. `curated` names the curated scenario it is.
    #[wasm_bindgen(js_name = fromScenario)]
    pub fn from_scenario(
        scenario: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | undefined")] curated: JsValue,
    ) -> Result<Playground, JsError> {
        let curated = string_arg(&curated, "fromScenario.curated")?;
        // Named as a saved session names it, so that its export reads back.
        if let Some(name) = &curated {
            let method = crate::scenario::Path::Root.key("fromScenario");
            scenario_name(&Value::from(name.as_str()), &method.key("curated")).map_err(err)?;
        }
        let doc = to_json_value(scenario, "scenario", crate::scenario::MAX_SCENARIO_BYTES)?;
        // Not held to the runner's work budget (`scenario::budget`): the page computes the run
        // ahead in slices as it plays (`extend`), so a long run costs its time only as far as a
        // person plays it. A saved session's own instant is computed here at once, without a
        // bound beyond the run's length (a week at most; the idle fast-forward makes quiet
        // stretches cheap). A cluster too large for memory is refused, by the reader.
        let scenario = Scenario::from_value(&doc).map_err(err)?;
        let mut playground = Self::open(&scenario, false)?;
        if curated.is_some() {
            playground.session.set_curated(curated);
        }
        Ok(playground)
    }

    fn open(scenario: &Scenario, live: bool) -> Result<Playground, JsError> {
        let session = Session::new(scenario, live).map_err(err)?;
        Ok(Playground { session })
    }

    /// Applies a command (a scenario action without `at_ms`) at the instant after the playhead.
    /// A produce without `id` gets the next free `pN`. At a past instant this forks the run (see
    /// `forkPreview`). Returns `{id, at_ms, forked, continued_live, ignored}`
    /// (`ignored`: why the model ignored it, when it did).
    pub fn command(&mut self, command: JsValue) -> Result<JsValue, JsError> {
        let value = to_json_value(command, "command", MAX_ARGUMENT_BYTES)?;
        let done = self.session.command(&value).map_err(err)?;
        to_js_via_text(&done)
    }

    /// What acting now would drop (`{at_ms, frontier_ms, user_actions_dropped, user_actions}`),
    /// or null at the end of the computed run.
    #[wasm_bindgen(js_name = forkPreview)]
    pub fn fork_preview(&self) -> Result<JsValue, JsError> {
        to_js_via_text(&self.session.fork_preview())
    }

    /// Takes back the last fork; false when there is none.
    pub fn undo(&mut self) -> bool {
        self.session.undo()
    }

    /// Plays `ms` simulated milliseconds forward. Returns `{now_ms, hit, yielded, notable}`: `hit`
    /// is the breakpoint that stopped the clock, `yielded` that the call's work budget ran out
    /// first (call again to go on), `notable` that it stopped after an instant with a timeline
    /// marker, which it does only when `stop_at_notable` is true (a story clock lingers there).
    pub fn advance(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] ms: JsValue,
        stop_at_notable: Option<bool>,
    ) -> Result<JsValue, JsError> {
        let ms = whole_ms(&ms, "advance", MAX_ADVANCE_MS)?;
        let stop = stop_at_notable.unwrap_or(false);
        // As JSON text, like `step`: a hit's sentence (src/session/words.rs) is a JSON value, whose
        // serializer the text path has and serde-wasm-bindgen's would add 1.7 KB of .wasm for.
        to_js_via_text(&self.session.advance(ms, MAX_WORK_PER_CALL, stop))
    }

    /// When the next timeline marker after the playhead comes, if the run is computed that far.
    #[wasm_bindgen(getter, js_name = nextMarkerMs)]
    pub fn next_marker_ms(&self) -> Option<f64> {
        self.session.next_marker_ms().map(|t| t as f64)
    }

    /// When the last timeline marker before the playhead came, if any.
    #[wasm_bindgen(getter, js_name = previousMarkerMs)]
    pub fn previous_marker_ms(&self) -> Option<f64> {
        self.session.previous_marker_ms().map(|t| t as f64)
    }

    /// Runs the next instant that has anything to do: `{now_ms, hit}`, or undefined at the end.
    pub fn step(&mut self) -> Result<JsValue, JsError> {
        match self.session.step() {
            Some(done) => to_js_via_text(&done),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Goes back to the latest earlier instant that had events; returns it.
    #[wasm_bindgen(js_name = stepBack)]
    pub fn step_back(&mut self) -> f64 {
        self.session.step_back() as f64
    }

    /// Puts the playhead at `ms` (at most the computed frontier); returns where it is.
    pub fn seek(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] ms: JsValue,
    ) -> Result<f64, JsError> {
        let ms = whole_ms(&ms, "seek", MAX_ADVANCE_MS)?;
        Ok(self.session.seek(ms) as f64)
    }

    /// Computes a scenario's run ahead of the playhead, at most `max_steps` instants (so a page
    /// can spread it over frames); returns whether it is computed to its end.
    pub fn extend(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] max_steps: JsValue,
    ) -> Result<bool, JsError> {
        let steps = whole_number(
            &max_steps,
            "extend",
            "of steps ",
            0.0..=MAX_STEPS_PER_CALL as f64,
        )?;
        Ok(self.session.extend(steps))
    }

    /// A scenario that ended goes on as a live session.
    #[wasm_bindgen(js_name = continueLive)]
    pub fn continue_live(&mut self) {
        self.session.continue_live();
    }

    #[wasm_bindgen(getter, js_name = nowMs)]
    pub fn now_ms(&self) -> f64 {
        self.session.now_ms() as f64
    }

    #[wasm_bindgen(getter, js_name = nextEventMs)]
    pub fn next_event_ms(&self) -> Option<f64> {
        self.session.sim().next_event_ms().map(|t| t as f64)
    }

    /// The end of the run: the scenario's `run_until_ms`, or a week for a live session.
    #[wasm_bindgen(getter, js_name = runUntilMs)]
    pub fn run_until_ms(&self) -> f64 {
        self.session.horizon_ms() as f64
    }

    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.session.name().to_string()
    }

    /// `{now_ms, frontier_ms, horizon_ms, live, complete, at_end, can_undo}`.
    pub fn extent(&self) -> Result<JsValue, JsError> {
        to_js_object(&self.session.extent())
    }

    /// `{seed, config, topics, phases}` of this run (`phases` as a file has it, `{}` when every
    /// beat starts at 0).
    pub fn setup(&self) -> Result<JsValue, JsError> {
        let sim = self.session.sim();
        // As text: a seed beyond 2^53 is a JSON number serde-wasm-bindgen would refuse.
        to_js_via_text(&json!({
            "seed": sim.seed(),
            "config": sim.config(),
            "topics": sim.topics(),
            "phases": sim.phases(),
        }))
    }

    /// The summarised state at the playhead (see `sim::view`).
    pub fn snapshot(&self) -> Result<JsValue, JsError> {
        to_js_via_text(&view::snapshot(self.session.sim()))
    }

    /// `{reset, dropped, events}`: the trace events the playhead passed since the last call (at
    /// most the last 5,000, `dropped` counts the others); `reset` when the playhead jumped and
    /// these lead up to the new instant instead.
    #[wasm_bindgen(js_name = takeEvents)]
    pub fn take_events(&mut self) -> Result<JsValue, JsError> {
        to_js_via_text(&self.session.take_events())
    }

    /// The next `takeEvents` tells the run up to the playhead again, from its start (`reset`):
    /// for a page that rebuilds its views around this same handle (a new language), keeping its
    /// undo and everything else.
    pub fn retell(&mut self) {
        self.session.retell();
    }

    /// The events of one produce request's story up to the playhead, or null for an unknown id.
    #[wasm_bindgen(js_name = requestEvents)]
    pub fn request_events(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
    ) -> Result<JsValue, JsError> {
        let id = string_arg(&id, "requestEvents")?
            .ok_or_else(|| err("requestEvents: expected a string, found null or undefined"))?;
        to_js_via_text(&self.session.request_events(&id))
    }

    /// The timeline's markers in `[from_ms, to_ms]`: `{markers, total, dropped}`; with more
    /// than `max`, `markers` holds the first `max` of the most telling kinds and `total` says how
    /// many there are.
    pub fn markers(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] from_ms: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] to_ms: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] max: JsValue,
    ) -> Result<JsValue, JsError> {
        let from = whole_ms(&from_ms, "markers.from_ms", MAX_ADVANCE_MS)?;
        let to = whole_ms(&to_ms, "markers.to_ms", MAX_ADVANCE_MS)?;
        let max = whole_number(&max, "markers.max", "", 0.0..=1e6)? as usize;
        let (chosen, total) = self.session.history().markers_in(from, to, max);
        to_js_via_text(&json!({
            "markers": chosen,
            "total": total,
            "dropped": self.session.history().markers_dropped(),
        }))
    }

    /// The gauges' step series over `[from_ms, to_ms]` in `bins` equal spans, clipped at the
    /// computed frontier (the run the timeline's markers show, which may lie past the playhead):
    /// `{names, bins: [[[lo, hi, last], ...] per series], now: [value per series at the playhead]}`.
    pub fn series(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] from_ms: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] to_ms: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] bins: JsValue,
    ) -> Result<JsValue, JsError> {
        let from = whole_ms(&from_ms, "series.from_ms", MAX_ADVANCE_MS)?;
        let to = whole_ms(&to_ms, "series.to_ms", MAX_ADVANCE_MS)?;
        let bins = whole_number(&bins, "series.bins", "", 0.0..=4096.0)?.max(1) as usize;
        let now = self.session.now_ms();
        let to = to.min(self.session.frontier_ms()).max(from);
        let series = self.session.history().series();
        let binned: Vec<Vec<[u64; 3]>> = series.iter().map(|s| s.bins(from, to, bins)).collect();
        let values: Vec<u64> = series.iter().map(|s| s.value_at(now)).collect();
        to_js_via_text(
            &json!({ "names": SERIES, "from_ms": from, "to_ms": to, "bins": binned, "now": values }),
        )
    }

    /// Every action of the run: `{at_ms, action, ..., by_user}`.
    pub fn actions(&self) -> Result<JsValue, JsError> {
        let list: Vec<Value> = self
            .session
            .actions()
            .iter()
            .map(|a| {
                let mut v = serde_json::to_value(&a.action).unwrap_or(Value::Null);
                if let Some(o) = v.as_object_mut() {
                    o.insert("by_user".into(), json!(a.by_user));
                }
                v
            })
            .collect();
        to_js_via_text(&list)
    }

    /// The scenario's guided story (its captions), empty when it has none.
    pub fn story(&self) -> Result<JsValue, JsError> {
        to_js_via_text(&self.session.story())
    }

    /// Sets the breakpoints: `{answered?: "any" | "error" | {request}, expiry?, isr_below_min?,
    /// isr_change?, hw_stalled_ms?, leader_change?, purge?}`.
    #[wasm_bindgen(js_name = setBreakpoints)]
    pub fn set_breakpoints(&mut self, spec: JsValue) -> Result<(), JsError> {
        let value = to_json_value(spec, "breakpoints", MAX_ARGUMENT_BYTES)?;
        let spec = BreakpointSpec::from_value(&value).map_err(err)?;
        self.session.set_breakpoints(spec);
        Ok(())
    }

    /// The selected request (part of an exported session), or undefined.
    #[wasm_bindgen(getter)]
    pub fn selected(&self) -> Option<String> {
        self.session.selected().map(str::to_owned)
    }

    /// Selects a request by id (any string; an id the run does not know selects nothing), or
    /// clears the selection with null or undefined.
    pub fn select(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string | null | undefined")] id: JsValue,
    ) -> Result<(), JsError> {
        self.session.set_selected(string_arg(&id, "select")?);
        Ok(())
    }

    /// The curated scenario this session plays, if any.
    #[wasm_bindgen(getter)]
    pub fn curated(&self) -> Option<String> {
        self.session.curated().map(str::to_owned)
    }

    /// Whether the file this session was opened from was saved with its guided story open
    /// (`session.story_open`, see `exportSession`): the page reopens the story there.
    #[wasm_bindgen(getter, js_name = storyOpen)]
    pub fn story_open(&self) -> bool {
        self.session.story_open()
    }

    /// The instant a saved session was at, when opening it stopped short of it because reaching
    /// it would hold the page for long (the session is at an earlier instant, and the page
    /// computes on from there); `undefined` when it opened where it was saved.
    #[wasm_bindgen(getter, js_name = openedShortOf)]
    pub fn opened_short_of(&self) -> Option<f64> {
        self.session.opened_short_of().map(|ms| ms as f64)
    }

    /// Sixteen hex digits of FNV-1a over the trace's JSON Lines (the runner's `--trace-hash`), or
    /// undefined while a scenario's run is still being computed.
    #[wasm_bindgen(getter, js_name = traceHash)]
    pub fn trace_hash(&self) -> Option<String> {
        self.session.trace_hash()
    }

    /// Checkpoints held now (each a copy of the run's state).
    #[wasm_bindgen(getter, js_name = checkpointCount)]
    pub fn checkpoint_count(&self) -> usize {
        self.session.checkpoint_count()
    }

    /// The result document at the playhead, as the runner prints it.
    pub fn result(&self) -> String {
        self.session.result().to_json()
    }

    /// The session as a scenario file with a `session` field: it replays this run, and
    /// `fromScenario` reopens it at this instant. Exporting what was imported gives the same bytes.
    /// `story_open` (read by JS truthiness, default false): the page's guided story is open, so
    /// the file reopens it (`session.story_open`).
    #[wasm_bindgen(js_name = exportSession)]
    pub fn export_session(&self, story_open: Option<bool>) -> String {
        self.session.export(story_open.unwrap_or(false)).to_json()
    }

    /// Test only (the `test-hooks` feature, never shipped): panics, to check what follows a
    /// trap. It takes the handle mutably, as the model's own steps do, so the handle is left as a
    /// panic in the model leaves it: borrowed for ever, every later call on it a thrown `Error`.
    #[cfg(feature = "test-hooks")]
    #[wasm_bindgen(js_name = __trapForTests)]
    pub fn trap_for_tests(&mut self) {
        panic!("trap requested by a test");
    }
}
