//! The scenario document (scenario-format.md, version 1) and its validation: a hand-written walk
//! over the JSON value, so that every error names its exact path and what was expected there.
//!
//! Order of checks, so that the first error reported is the most useful one: in each object,
//! unknown fields first (a typo of a required field reads better as "did you mean" than as
//! "missing"), then the fields in the contract's order. `config` is read before `topics` (the
//! replication factor is bounded by `brokers`) and `run_until_ms` before `actions` (no action may
//! come after it).

use serde_json::Value;

use super::actions::{read_actions, ActionLimits};
use super::change::Change;
use super::error::{Path, ScenarioError};
use super::phases::read_phases;
use super::read::{
    array, check_fields, integer, kafka_name, name_rule, object, read_each_unique, required,
    string, IntRange, Object, Read,
};
use super::session::{read_session, SessionInfo};
use super::settings::{self, SETTINGS};
use super::story::{read_story, StoryStep};
use crate::kafka::config::{Config, TopicSpec};
use crate::sim::action::TimedAction;
use crate::sim::phases::Phases;

/// A scenario: how the cluster starts, what happens to it and when, and how long to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    pub name: String,
    pub seed: u64,
    pub config: Config,
    pub topics: Vec<TopicSpec>,
    /// In file order; actions at the same `at_ms` apply in this order.
    pub actions: Vec<TimedAction>,
    pub run_until_ms: u64,
    /// The guided story's captions (optional; empty when absent).
    pub story: Vec<StoryStep>,
    /// What a saved session adds (optional).
    pub session: Option<SessionInfo>,
    /// Where each broker's ISR check and heartbeats fall (optional; every beat at 0 without).
    pub phases: Phases,
    /// A what-if (optional, this project's addition): the page opens the scenario side by side
    /// with a second run that makes this one change, and `purgatory compare FILE` compares the
    /// two. Checked when read: the change applies to this scenario.
    pub compare: Option<Change>,
}

impl Scenario {
    /// Parses and validates scenario text. Syntax errors name the line and column; a key that
    /// appears twice in one object is an error too.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let value = super::json::parse_text(text)?;
        Scenario::from_value(&value)
    }

    /// Validates an already parsed document (the page passes one).
    pub fn from_value(value: &Value) -> Result<Scenario, ScenarioError> {
        read_scenario(value, &Path::Root)
    }

    /// Refuses a config a Kafka broker would refuse to start with ([`Config::start_refusal`]).
    /// The scenario contract bounds each setting alone, and a file keeps that; a live session's
    /// setup (the page's Setup form, which stands for configuring brokers) is checked by this too.
    pub fn check_broker_start(&self) -> Result<(), ScenarioError> {
        let Some(bound) = self.config.start_refusal() else {
            return Ok(());
        };
        let note = format!(
            " (at most {}, or a Kafka broker refuses to start)",
            bound.name
        );
        let range = IntRange {
            lo: 0,
            hi: bound.max_fetch_wait_ms.into(),
            note: &note,
        };
        let root = Path::Root;
        let config = root.key("config");
        let at = config.key("replica_fetch_wait_max_ms");
        Err(at.expected(
            &range.describe_range(),
            &Value::from(self.config.replica_fetch_wait_max_ms),
        ))
    }
}

const ROOT_FIELDS: &[&str] = &[
    "name",
    "seed",
    "config",
    "topics",
    "actions",
    "run_until_ms",
    "story",
    "session",
    "phases",
    "compare",
];
const TOPIC_FIELDS: &[&str] = &["name", "partitions", "replication_factor"];

const PARTITIONS: IntRange = IntRange::new(1, 1024);
const RUN_UNTIL_MS: IntRange = IntRange::new(0, 604_800_000);
const SEED: IntRange = IntRange::new(0, u64::MAX as i128);

fn read_scenario(value: &Value, path: &Path) -> Read<Scenario> {
    let root = object(value, path, "a JSON object (the scenario)")?;
    check_fields(root, path, ROOT_FIELDS)?;
    let name = required(root, path, "name", "a string")?;
    let name = string(name, &path.key("name"))?.to_owned();
    let seed = match root.get("seed") {
        Some(seed) => integer(seed, &path.key("seed"), SEED)? as u64,
        None => 0,
    };
    let config = match root.get("config") {
        Some(config) => read_config(config, &path.key("config"))?,
        None => Config::default(),
    };
    let phases = match root.get("phases") {
        Some(phases) => read_phases(phases, &path.key("phases"), &config)?,
        None => Phases::default(),
    };
    let topics = required(root, path, "topics", "an array of topics")?;
    let topics = read_topics(topics, &path.key("topics"), config.brokers)?;
    let run_until = required(root, path, "run_until_ms", &RUN_UNTIL_MS.describe_range())?;
    let run_until_ms = integer(run_until, &path.key("run_until_ms"), RUN_UNTIL_MS)? as u64;
    let actions = required(root, path, "actions", "an array of actions")?;
    let limits = ActionLimits {
        brokers: config.brokers,
        run_until_ms,
    };
    let actions = read_actions(actions, &path.key("actions"), &limits)?;
    let story = match root.get("story") {
        Some(story) => read_story(story, &path.key("story"), run_until_ms)?,
        None => Vec::new(),
    };
    let session = match root.get("session") {
        Some(session) => Some(read_session(
            session,
            &path.key("session"),
            run_until_ms,
            &actions,
        )?),
        None => None,
    };
    let mut scenario = Scenario {
        name,
        seed,
        config,
        topics,
        actions,
        run_until_ms,
        story,
        session,
        phases,
        compare: None,
    };
    if let Some(compare) = root.get("compare") {
        let at = path.key("compare");
        let change = Change::parse(string(compare, &at)?).map_err(|e| at.error(e))?;
        change.apply(&scenario).map_err(|e| at.error(e))?;
        scenario.compare = Some(change);
    }
    Ok(scenario)
}

fn read_config(value: &Value, path: &Path) -> Read<Config> {
    let fields = object(value, path, "an object")?;
    check_fields(fields, path, &settings::file_names())?;
    let mut config = Config::default();
    for setting in SETTINGS {
        if let Some(value) = fields.get(setting.file) {
            let n = integer(value, &path.key(setting.file), setting.range)?;
            // Within the setting's range, which is within its field's type.
            (setting.set)(&mut config, n as u64);
        }
    }
    Ok(config)
}

fn read_topics(value: &Value, path: &Path, brokers: u32) -> Read<Vec<TopicSpec>> {
    let items = array(value, path, "an array of topics")?;
    let topics = read_each_unique(
        items,
        path,
        "name",
        |item, item_path| read_topic(item, item_path, brokers),
        |_| true,
        |name, first| format!("duplicate topic name {name}, already declared at topics[{first}]"),
    )?;
    // Not one of the contract's ranges: a cap on memory, which grows with the sum (README, "Work
    // budget"); the most one topic within the ranges can hold.
    let states = crate::kafka::config::replica_states(&topics);
    if states > crate::kafka::config::MAX_REPLICA_STATES {
        return Err(path.error(format!(
            "these topics hold {states} replica states (partitions x replication_factor², summed); \
             at most {} (README, \"Work budget\")",
            crate::kafka::config::MAX_REPLICA_STATES
        )));
    }
    Ok(topics)
}

fn read_topic(value: &Value, path: &Path, brokers: u32) -> Read<TopicSpec> {
    let fields: &Object = object(
        value,
        path,
        "an object with `name`, `partitions` and `replication_factor`",
    )?;
    check_fields(fields, path, TOPIC_FIELDS)?;
    let name = required(fields, path, "name", &name_rule("a topic name"))?;
    let name = kafka_name(name, &path.key("name"), "a topic name")?.to_owned();
    let partitions = required(fields, path, "partitions", &PARTITIONS.describe_range())?;
    let partitions = integer(partitions, &path.key("partitions"), PARTITIONS)? as u32;
    let replication = IntRange {
        lo: 1,
        hi: brokers.into(),
        note: " (the number of brokers)",
    };
    let replication_factor = required(
        fields,
        path,
        "replication_factor",
        &replication.describe_range(),
    )?;
    let replication_factor = integer(
        replication_factor,
        &path.key("replication_factor"),
        replication,
    )? as u32;
    Ok(TopicSpec {
        name,
        partitions,
        replication_factor,
    })
}
