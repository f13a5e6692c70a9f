//! Delayed operations and the purgatory that holds them: Kafka's `DelayedOperation` and
//! `DelayedOperationPurgatory`, generic over the operation and the watch key. Nothing here knows
//! Kafka's domain; `kafka::broker::delayed_produce` and `kafka::broker::serve_fetch` plug in
//! through [`Hooks`].
//!
//! Single-threaded, so Kafka's 512 lock shards and per-operation locks have nothing to protect:
//! the once-only guarantee they give is kept by the `completed` flag alone, and the
//! try / watch / try-again sequence runs as one step exactly as it does under Kafka's op lock.
//!
//! The small lookups on the hot paths (a slot, a list, a timer entry's fields) are
//! `#[inline(always)]`, here and in `crate::timer`: the .wasm is built size-optimised (opt-level
//! "s"; it was "z" when this was measured), where LLVM inlines little, and a call per lookup made
//! Kafka's purgatory workload much slower in wasm than natively (docs/benchmarks.md: "The .wasm:
//! size and speed"). For the same reason the lookups inside them go through
//! `crate::plumbing::hot`, and a watch list is an `IdQueue` (`id_queue.rs`) rather than a
//! `VecDeque`.

mod delayed_operations;
mod fixed_hash;
mod held;
mod id_queue;
mod watchers;
/// Kafka's `TestPurgatoryPerformance` workload replayed against this purgatory: shared by the
/// native bench and the wasm bench page (compiled into the .wasm only with the `workload`
/// feature, so the shipped module is unchanged).
#[cfg(any(not(target_arch = "wasm32"), feature = "workload"))]
#[doc(hidden)]
pub mod workload;

use delayed_operations::Timeout;
pub use delayed_operations::{Completion, Hooks, OpId, Purgatory, Watched, WatcherView};

/// Operation `slot`'s first id, for the unit tests of the lists.
#[cfg(test)]
fn first_id(slot: u32) -> OpId {
    OpId {
        slot,
        generation: 0,
    }
}

#[cfg(test)]
mod model_tests;
#[cfg(test)]
mod tests;
