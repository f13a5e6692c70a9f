//! The Kafka domain: configuration, partitions, replicas, the produce and fetch paths.

pub mod config;
