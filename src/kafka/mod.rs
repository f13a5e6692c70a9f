//! The Kafka domain, on top of the generic [`crate::timer`] and [`crate::purgatory`]:
//!
//! - `config`: the settings and their Kafka defaults;
//! - `errors`: protocol error codes;
//! - `log`: log end offset, leader epoch cache, recent batches;
//! - `replica`: what a leader knows of a follower (`ReplicaState`);
//! - `partition`: high watermark, ISR (committed / pending), append, make-leader/follower;
//! - `tp_map`: maps keyed by topic-partition, as tables (the partitions a broker hosts, the
//!   controller's partition records);
//! - `metadata`: partition records and broker registrations;
//! - `controller`: fencing, elections, AlterPartition;
//! - `messages`: the plain messages (fetch requests and responses, a produce request as it
//!   reaches `appendRecords`, `Outgoing`), the handlers' context `Ctx`, and the spare lists the
//!   fetch messages reuse (`messages::FetchBuffers`); a leaf the others build on;
//! - `broker`: one broker process, with its children `produce` (`appendRecords` and the produce
//!   response), `delayed_produce` (`DelayedProduce` in the produce purgatory) and `serve_fetch`
//!   (the leader's side of replication: a follower's fetch, and `DelayedFetch`);
//! - `follower`: the follower's side, Kafka's `ReplicaFetcherThread` loop, with `fetchers` (one
//!   `Fetcher` per leader, indexed by leader);
//! - `idle`: a broker's state as the simulation's idle fast-forward compares and moves it;
//! - `reasons`: the words the trace gives for what a broker or the controller refused or left
//!   undone (the page words each in its own languages);
//! - `requests`: the client's view of each produce request;
//! - `small_list`: a list that keeps a single item inline;
//! - `trace`: the causal event trace, every event a Kafka event, which the runner prints and the
//!   page narrates.

pub mod broker;
pub mod config;
pub mod controller;
pub mod errors;
pub mod follower;
mod idle;
pub mod log;
pub mod messages;
pub mod metadata;
pub mod partition;
pub mod reasons;
pub mod replica;
pub mod requests;
pub mod small_list;
pub mod tp_map;
pub mod trace;

use serde::Serialize;

/// A broker id, as the scenario numbers them (`0 .. brokers`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct BrokerId(pub u32);

impl std::fmt::Display for BrokerId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A topic-partition: the topic's index in the cluster's topic list, and the partition number.
/// This is also the purgatory watch key (Kafka: `TopicPartitionOperationKey`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct TopicPartition {
    pub topic: u32,
    pub partition: u32,
}
