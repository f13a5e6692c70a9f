//! Scenario files (docs/scenario-format.md, version 1): reading and validating them with
//! errors that name the JSON path of the fault, writing them back canonically, and the result
//! document the runner prints.
//!
//! - [`Scenario::from_json`] / [`Scenario::from_value`]: parse and validate; the first fault is
//!   returned as a [`ScenarioError`] (`actions[3].acks: expected an integer or "all", found 2.5`).
//! - [`Scenario::to_json`]: the canonical text, which reads back to an equal `Scenario`.
//! - [`result`]: what a run produced.
//!
//! Decisions the contract leaves open, made here once: a number written with a fraction or an
//! exponent (`2.0`, `1e3`) is not an integer; `null` is not "absent" (leave an optional field out
//! to get its default); a key repeated within one object is an error; text longer than
//! [`MAX_SCENARIO_BYTES`] is refused.

mod actions;
pub mod budget;
pub mod change;
mod error;
mod json;
mod parse;
mod phases;
pub(crate) mod read;
mod run;
mod session;
mod settings;
mod story;
mod write;

/// The result document the runner prints: built by the simulation (`sim::report`), so its types
/// live there.
pub use crate::sim::result;
pub use change::Change;
pub(crate) use error::Path;
pub use error::ScenarioError;
/// Every JSON text the crate reads goes through the strict reader: the wasm adapter's arguments
/// are refused for a repeated key as a file is, and the .wasm holds one JSON reader, not two.
pub(crate) use json::strict_from_str;
pub use json::MAX_SCENARIO_BYTES;
pub use parse::Scenario;
pub use run::{play_scenario, play_scenario_within, run_scenario};
/// The wasm adapter checks a curated name given beside a scenario by the file's own rule.
#[cfg(target_arch = "wasm32")]
pub(crate) use session::scenario_name;
pub use session::SessionInfo;
pub use story::{StoryStep, CAPTION_LANGUAGES, PANELS};

impl Scenario {
    /// The canonical scenario text (pretty JSON, one topic and one action per line, then the
    /// story's captions and the session, one per line, when present); it reads back through
    /// [`Scenario::from_json`] to an equal `Scenario`. Used to export a session.
    pub fn to_json(&self) -> String {
        write::to_json(self)
    }
}
