//! What the model is built with, not what it models: none of this knows Kafka.
//!
//! - `hot`: the purgatory's and the timer's lookups, compiled in place in the size-optimised
//!   .wasm.
//! - `prefetch`: a cache-line prefetch that overlaps the purgatory's independent misses.
//! - `next_fit`: the next-fit search the slab's free slots use.

pub(crate) mod hot;
pub(crate) mod next_fit;
pub(crate) mod prefetch;
