//! Invariants checked after every step in tests.
