//! The deterministic event loop.

pub mod action;
