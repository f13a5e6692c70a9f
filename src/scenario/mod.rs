//! Scenario files (scenario-format.md). TEMPORARY: replaced by the parser branch.

pub mod result;

use crate::kafka::config::{Config, TopicSpec};
use crate::sim::action::TimedAction;

#[derive(Clone, Debug)]
pub struct Scenario {
    pub name: String,
    pub seed: u64,
    pub config: Config,
    pub topics: Vec<TopicSpec>,
    pub actions: Vec<TimedAction>,
    pub run_until_ms: u64,
}
