//! The `actions` list of a scenario (scenario-format.md, "Actions"): one reader per action kind.
//! A topic or partition that does not exist is not checked here: producing to one is an outcome
//! (`UNKNOWN_TOPIC_OR_PARTITION`) and electing a leader for one does nothing, both at run time.

use std::rc::Rc;

use serde_json::Value;

use super::error::{quoted, Path};
use super::read::{
    array, check_fields, integer, kafka_name, missing, name_rule, object, one_of, read_each_unique,
    required, string, IntRange, Object, Read, ANY_I64,
};
use crate::sim::action::{Action, BrokerId, ProduceSpec, RecordBatchSpec, TimedAction};

pub(crate) const ACTION_NAMES: &[&str] = &[
    "produce",
    "pause_follower",
    "resume_follower",
    "crash_broker",
    "restart_broker",
    "elect_leader",
];

const PRODUCE_FIELDS: &[&str] = &[
    "at_ms",
    "action",
    "id",
    "acks",
    "records",
    "timeout_ms",
    "broker",
];
const BROKER_ACTION_FIELDS: &[&str] = &["at_ms", "action", "broker"];
const ELECT_LEADER_FIELDS: &[&str] = &["at_ms", "action", "topic", "partition", "broker"];
/// Every field some action has: what an action without a valid `action` is checked against.
const ANY_ACTION_FIELDS: &[&str] = &[
    "at_ms",
    "action",
    "id",
    "acks",
    "records",
    "timeout_ms",
    "broker",
    "topic",
    "partition",
];
const RECORD_FIELDS: &[&str] = &["topic", "partition", "count"];

const COUNT: IntRange = IntRange::new(1, 1_000_000);
const TIMEOUT_MS: IntRange = IntRange::new(0, i32::MAX as i128);
const ACKS: &str = "an integer or \"all\"";
const RECORDS: &str = "a non-empty array of `{topic, partition, count}`";

pub(crate) fn read_actions(
    value: &Value,
    path: &Path,
    limits: &ActionLimits,
) -> Read<Vec<TimedAction>> {
    let items = array(value, path, "an array of actions")?;
    read_each_unique(
        items,
        path,
        "id",
        |item, item_path| read_action(item, item_path, limits),
        |action| matches!(action.action, Action::Produce(_)),
        |id, first| format!("duplicate produce id {id}, already used at actions[{first}]"),
    )
}

fn read_action(value: &Value, path: &Path, limits: &ActionLimits) -> Read<TimedAction> {
    let fields = object(value, path, "an object with `at_ms` and `action`")?;
    let Some(kind) = fields.get("action") else {
        check_fields(fields, path, ANY_ACTION_FIELDS)?;
        let what = format!("one of {}", listed(ACTION_NAMES));
        return Err(missing(path, "action", &what));
    };
    let kind = one_of(kind, &path.key("action"), ACTION_NAMES)?;
    let allowed = match kind {
        "produce" => PRODUCE_FIELDS,
        "elect_leader" => ELECT_LEADER_FIELDS,
        _ => BROKER_ACTION_FIELDS,
    };
    check_fields(fields, path, allowed)?;
    let at_range = IntRange {
        lo: 0,
        hi: limits.run_until_ms.into(),
        note: " (run_until_ms)",
    };
    let at_ms = required(fields, path, "at_ms", &at_range.describe_range())?;
    let at_ms = integer(at_ms, &path.key("at_ms"), at_range)? as u64;
    let broker_of = || -> Read<_> {
        let what = format!("a broker number from 0 to {}", limits.brokers - 1);
        let value = required(fields, path, "broker", &what)?;
        broker(value, &path.key("broker"), limits.brokers)
    };
    let action = match kind {
        "produce" => Action::Produce(read_produce(fields, path, limits)?),
        "pause_follower" => Action::PauseFollower {
            broker: broker_of()?,
        },
        "resume_follower" => Action::ResumeFollower {
            broker: broker_of()?,
        },
        "crash_broker" => Action::CrashBroker {
            broker: broker_of()?,
        },
        "restart_broker" => Action::RestartBroker {
            broker: broker_of()?,
        },
        _ => {
            let topic = required(fields, path, "topic", "a string")?;
            let topic = string(topic, &path.key("topic"))?.to_owned();
            let partition = required(fields, path, "partition", "an integer")?;
            let partition = integer(partition, &path.key("partition"), ANY_I64)? as i64;
            Action::ElectLeader {
                topic,
                partition,
                broker: broker_of()?,
            }
        }
    };
    Ok(TimedAction { at_ms, action })
}

fn read_produce(fields: &Object, path: &Path, limits: &ActionLimits) -> Read<ProduceSpec> {
    let id = required(fields, path, "id", &name_rule("a request id"))?;
    let id = Rc::from(kafka_name(id, &path.key("id"), "a request id")?);
    let acks = required(fields, path, "acks", ACKS)?;
    let acks = read_acks(acks, &path.key("acks"))?;
    let records = required(fields, path, "records", RECORDS)?;
    let records = read_records(records, &path.key("records"))?;
    let timeout_ms = match fields.get("timeout_ms") {
        Some(value) => Some(integer(value, &path.key("timeout_ms"), TIMEOUT_MS)? as u64),
        None => None,
    };
    let broker = match fields.get("broker") {
        Some(value) => Some(broker(value, &path.key("broker"), limits.brokers)?),
        None => None,
    };
    Ok(ProduceSpec {
        id,
        acks,
        records: records.into(),
        timeout_ms,
        broker,
    })
}

/// Kafka's `acks` is any integer (the broker answers a value other than -1, 0 and 1 with
/// `INVALID_REQUIRED_ACKS`); the producer's spelling `"all"` means -1.
fn read_acks(value: &Value, path: &Path) -> Read<i64> {
    if value.as_str() == Some("all") {
        return Ok(-1);
    }
    if let Some(acks) = value.as_i64() {
        return Ok(acks);
    }
    if value.is_u64() {
        let what = format!("an integer from {} to {} or \"all\"", i64::MIN, i64::MAX);
        return Err(path.expected(&what, value));
    }
    Err(path.expected(ACKS, value))
}

fn read_records(value: &Value, path: &Path) -> Read<Vec<RecordBatchSpec>> {
    let items = array(value, path, RECORDS)?;
    if items.is_empty() {
        return Err(path.expected(RECORDS, value));
    }
    let mut records: Vec<RecordBatchSpec> = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let item_path = path.index(index);
        let fields = object(
            item,
            &item_path,
            "an object with `topic`, `partition` and `count`",
        )?;
        check_fields(fields, &item_path, RECORD_FIELDS)?;
        let topic = required(fields, &item_path, "topic", "a string")?;
        let topic = Rc::from(string(topic, &item_path.key("topic"))?);
        let partition = required(fields, &item_path, "partition", "an integer")?;
        let partition = integer(partition, &item_path.key("partition"), ANY_I64)? as i64;
        let count = required(fields, &item_path, "count", &COUNT.describe_range())?;
        let count = integer(count, &item_path.key("count"), COUNT)? as u32;
        // Kafka's ProduceRequest holds each partition once (its topics and their partitions are
        // keyed collections), so a second batch for one partition is a file error, not a
        // second append. A request lists a handful of partitions: a scan is enough.
        let first = records
            .iter()
            .position(|r| r.topic == topic && r.partition == partition);
        if let Some(first) = first {
            return Err(item_path.error(format!(
                "duplicate partition {{topic {}, partition {partition}}}, already listed at {}",
                quoted(&topic),
                path.index(first).render()
            )));
        }
        records.push(RecordBatchSpec {
            topic,
            partition,
            count,
        });
    }
    Ok(records)
}

fn listed(names: &[&str]) -> String {
    names
        .iter()
        .map(|name| format!("\"{name}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What an action is checked against.
pub(crate) struct ActionLimits {
    pub brokers: u32,
    pub run_until_ms: u64,
}

/// A broker number of the cluster: `0 .. brokers`.
pub(crate) fn broker(value: &Value, path: &Path, brokers: u32) -> Read<BrokerId> {
    let last = i128::from(brokers) - 1;
    let what = format!("a broker number from 0 to {}", brokers.saturating_sub(1));
    match value
        .as_i64()
        .map(i128::from)
        .or(value.as_u64().map(i128::from))
    {
        Some(n) if (0..=last).contains(&n) => Ok(BrokerId(n as u32)),
        _ => Err(path.expected(&what, value)),
    }
}
