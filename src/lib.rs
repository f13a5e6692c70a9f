//! Purgatory Playground: a deterministic model of how an Apache Kafka broker (3.7-4.x) answers a
//! produce request with `acks=all`, driven headlessly by the `purgatory` runner and in the
//! browser through WebAssembly.
//!
//! Module map, from the generic mechanism up to the front doors:
//!
//! - [`timer`]: the hierarchical timing wheel (Kafka's `SystemTimer` + `TimingWheel`). Knows
//!   nothing of Kafka.
//! - [`purgatory`]: delayed operations, watch keys, try-complete / watch / try-again,
//!   check-and-complete and purge (Kafka's `DelayedOperationPurgatory`). Knows nothing of Kafka.
//! - [`kafka`]: the domain: partitions, replica states, the high watermark, the ISR, the produce
//!   and fetch paths, the controller, error codes.
//! - [`sim`]: the single-threaded event loop that owns a cluster, advances simulated
//!   milliseconds, applies actions and records the causal trace.
//! - [`scenario`]: the scenario file (docs/scenario-format.md): parsing with JSON-path
//!   errors, validation, the optional story and saved-session fields, and the result document.
//! - [`session`]: a run a person plays: seek to any instant (checkpoints and replay), step back,
//!   fork and undo, breakpoints, the timeline's markers and the gauges' exact series, the trace
//!   hash, export as a scenario file. Knows nothing of wasm.
//! - [`sweep`]: a scenario at every phase of a beat: what a real broker could answer.
//! - [`compare`]: two runs side by side (two scenarios, or one and a what-if change): where
//!   their traces part and what every request got in each.
//! - [`plumbing`]: what the model is built with, not what it models: lookups compiled in place
//!   in the size-optimised .wasm (`hot`), cache prefetches (`prefetch`) and the next-fit free
//!   list (`next_fit`).
//! - `wasm` (wasm32 only): the one module that knows JavaScript exists.

pub mod compare;
pub mod kafka;
pub mod plumbing;
pub mod purgatory;
pub mod scenario;
pub mod session;
pub mod sim;
pub mod sweep;
pub mod timer;

#[cfg(target_arch = "wasm32")]
#[doc(hidden)]
pub mod wasm;
