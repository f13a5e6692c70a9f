//! The .wasm's stand-in for the idle fast-forward (`fast_forward.rs`): the page's sessions
//! always trace, and a traced run never jumps, so the module leaves the fast-forward out for its
//! size budget. The same calls, doing nothing: every round trip is simulated.

use super::Simulation;

#[derive(Clone, Default)]
pub(super) struct FastForward;

impl Simulation {
    /// Without the fast-forward in this build, nothing to turn on or off.
    pub fn set_fast_forward(&mut self, _on: bool) {}

    /// No jumps, no milliseconds skipped.
    pub fn fast_forwarded(&self) -> (u64, u64) {
        (0, 0)
    }

    pub(super) fn fast_forward_idle(&mut self, _until_ms: u64) {}
}
