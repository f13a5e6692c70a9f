//! Delayed operations and the purgatory that holds them (Kafka's `DelayedOperationPurgatory`).
