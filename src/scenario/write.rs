//! The canonical text of a scenario ("export this session"): every config field written out,
//! optional action fields only when set, `acks` as the integer, one topic and one action per
//! line. `Scenario::from_json` reads it back to an equal `Scenario`.

use serde::Serialize;

use super::actions::action_name;
use super::parse::Scenario;
use crate::sim::action::{Action, BrokerId, RecordBatchSpec, TimedAction};

/// One action as the file spells it; the fields of every kind, each written only when present,
/// in the contract's order.
#[derive(Serialize)]
struct ActionText<'a> {
    at_ms: u64,
    action: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    acks: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    records: Option<&'a [RecordBatchSpec]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    timeout_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    topic: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    partition: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    broker: Option<BrokerId>,
}

impl<'a> ActionText<'a> {
    fn new(timed: &'a TimedAction) -> Self {
        let mut text = ActionText {
            at_ms: timed.at_ms,
            action: action_name(&timed.action),
            id: None,
            acks: None,
            records: None,
            timeout_ms: None,
            topic: None,
            partition: None,
            broker: None,
        };
        match &timed.action {
            Action::Produce(spec) => {
                text.id = Some(&*spec.id);
                text.acks = Some(spec.acks);
                text.records = Some(&spec.records);
                text.timeout_ms = spec.timeout_ms;
                text.broker = spec.broker;
            }
            Action::PauseFollower { broker }
            | Action::ResumeFollower { broker }
            | Action::CrashBroker { broker }
            | Action::RestartBroker { broker } => text.broker = Some(*broker),
            Action::ElectLeader {
                topic,
                partition,
                broker,
            } => {
                text.topic = Some(topic);
                text.partition = Some(*partition);
                text.broker = Some(*broker);
            }
        }
        text
    }
}

pub(crate) fn to_json(scenario: &Scenario) -> String {
    let mut out = String::from("{\n");
    out.push_str(&format!("  \"name\": {},\n", compact(&scenario.name)));
    out.push_str(&format!("  \"seed\": {},\n", scenario.seed));
    let config = serde_json::to_string_pretty(&scenario.config).unwrap_or_default();
    out.push_str(&format!(
        "  \"config\": {},\n",
        config.replace('\n', "\n  ")
    ));
    if !scenario.phases.is_zero() {
        out.push_str(&format!("  \"phases\": {},\n", compact(&scenario.phases)));
    }
    push_lines(&mut out, "topics", scenario.topics.iter().map(compact));
    let actions = scenario
        .actions
        .iter()
        .map(|a| compact(&ActionText::new(a)));
    push_lines(&mut out, "actions", actions);
    out.push_str(&format!("  \"run_until_ms\": {}", scenario.run_until_ms));
    if !scenario.story.is_empty() {
        out.push_str(",\n");
        push_lines(&mut out, "story", scenario.story.iter().map(compact));
        out.truncate(out.len() - 2); // the list's own ",\n"
    }
    if let Some(change) = &scenario.compare {
        out.push_str(&format!(
            ",\n  \"compare\": {}",
            compact(&change.to_string())
        ));
    }
    if let Some(session) = &scenario.session {
        out.push_str(&format!(",\n  \"session\": {}", compact(session)));
    }
    out.push_str("\n}\n");
    out
}

/// `"key": [` then one compact item per line.
fn push_lines(out: &mut String, key: &str, items: impl Iterator<Item = String>) {
    let items: Vec<String> = items.map(|item| format!("    {item}")).collect();
    if items.is_empty() {
        out.push_str(&format!("  \"{key}\": [],\n"));
    } else {
        out.push_str(&format!("  \"{key}\": [\n{}\n  ],\n", items.join(",\n")));
    }
}

/// The value on one line. These types hold only strings and integers, which serde_json always
/// serializes, so the empty fallback is never taken.
fn compact<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}
