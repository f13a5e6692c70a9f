//! The hierarchical timing wheel (Kafka's `SystemTimer` + `TimingWheel`).
