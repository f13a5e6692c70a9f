//! Scenario files (scenario-format.md).

pub mod result;
