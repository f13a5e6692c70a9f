//! The one thing a what-if changes, written as `path=value` (the element's `compare` attribute,
//! the runner's `--change`, a link's `compare` parameter, a scenario's optional `compare` field):
//!
//! | text                              | the second run                                       |
//! |-----------------------------------|------------------------------------------------------|
//! | `acks=1` (`0`, `1`, `all`, `-1`)  | every produce request with these acks                 |
//! | `actions[3].acks=all`             | that produce request alone                            |
//! | `timeout_ms=5000`                 | every request's `timeoutMs` (and `request_timeout_ms`)|
//! | `actions[3].timeout_ms=5000`      | that request's `timeoutMs`                            |
//! | `min.insync.replicas=2`           | a config setting, by Kafka's name or the file's       |
//! | `actions[2].at_ms=12000`          | that action at another instant                        |
//! | `actions[2]=removed`              | that action left out                                  |
//!
//! A change is applied to the scenario's JSON and the result read back through the scenario
//! parser, so the second run is held to every rule the first is (a min.insync.replicas of 0, an
//! action after run_until_ms, a removed request the session had selected... each has the parser's
//! own message, with its path).

use std::fmt;

use serde_json::Value;

use super::settings::{Setting, SETTINGS};
use super::{Scenario, ScenarioError};

/// The longest change text read (a link or an attribute could carry anything).
const MAX_CHANGE_CHARS: usize = 200;

/// One change to a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The acks of every produce request (`None`) or of one action.
    Acks { action: Option<usize>, acks: i64 },
    /// The `timeoutMs` of every produce request (and the config's default) or of one action.
    Timeout { action: Option<usize>, ms: u64 },
    /// A config setting, by the scenario file's name.
    Config { key: &'static str, value: u64 },
    /// An action moved to another instant.
    At { action: usize, at_ms: u64 },
    /// An action left out.
    Remove { action: usize },
}

impl Change {
    /// Reads `path=value`; the message says what was expected.
    pub fn parse(text: &str) -> Result<Change, String> {
        let text = text.trim();
        if text.chars().count() > MAX_CHANGE_CHARS {
            return Err(format!("a change is at most {MAX_CHANGE_CHARS} characters"));
        }
        let Some((path, value)) = text.split_once('=') else {
            return Err(format!(
                "`{text}` is not a change: write path=value, such as acks=1, \
                 min.insync.replicas=2, actions[2].at_ms=12000 or actions[2]=removed"
            ));
        };
        let (path, value) = (path.trim(), value.trim());
        let (action, field) = match path.strip_prefix("actions[") {
            Some(rest) => {
                let (index, field) = rest
                    .split_once(']')
                    .ok_or_else(|| format!("`{path}`: expected actions[N]"))?;
                let index: usize = index
                    .parse()
                    .map_err(|_| format!("`{path}`: `{index}` is not an action's index"))?;
                (Some(index), field.strip_prefix('.').unwrap_or(field))
            }
            None => (None, path),
        };
        match (action, field) {
            (Some(action), "") if value == "removed" => Ok(Change::Remove { action }),
            (Some(_), "") => Err(format!(
                "`{path}={value}`: an action itself can only be `removed`"
            )),
            (action, "acks") => Ok(Change::Acks {
                action,
                acks: parse_acks(value)?,
            }),
            (action, "timeout_ms") => Ok(Change::Timeout {
                action,
                ms: parse_ms(field, value)?,
            }),
            (Some(action), "at_ms") => Ok(Change::At {
                action,
                at_ms: parse_ms(field, value)?,
            }),
            (None, name) => {
                let name = name.strip_prefix("config.").unwrap_or(name);
                let key = what_if_settings()
                    .find(|s| s.file == name || s.kafka == Some(name))
                    .map(|s| s.file)
                    .ok_or_else(|| unknown_setting(name))?;
                let value = if key.ends_with("_ms") {
                    parse_ms(name, value)?
                } else {
                    parse_whole(name, value)? // a count
                };
                Ok(Change::Config { key, value })
            }
            (Some(_), other) => Err(format!(
                "`{path}`: an action's `{other}` cannot be changed (acks, timeout_ms, at_ms, \
                 or the action removed)"
            )),
        }
    }

    /// The scenario with this change: its JSON changed and read back through the parser. The
    /// story goes (its captions tell the first run) and so does the file's own `compare`.
    pub fn apply(&self, scenario: &Scenario) -> Result<Scenario, String> {
        let mut doc = super::strict_from_str(&scenario.to_json())
            .map_err(|e| format!("the scenario did not write back as JSON: {e}"))?;
        let root = doc.as_object_mut().ok_or("the scenario is not an object")?;
        root.remove("story");
        root.remove("compare");
        if let Some(session) = root.get_mut("session").and_then(Value::as_object_mut) {
            session.remove("story_open");
        }
        self.edit(&mut doc, scenario)?;
        Scenario::from_value(&doc).map_err(|e: ScenarioError| format!("with {self}: {e}"))
    }

    fn edit(&self, doc: &mut Value, scenario: &Scenario) -> Result<(), String> {
        let action_count = scenario.actions.len();
        let index_ok = |i: usize| -> Result<usize, String> {
            if i < action_count {
                Ok(i)
            } else if action_count == 0 {
                Err(format!("{self}: the scenario has no actions"))
            } else {
                Err(format!(
                    "{self}: the scenario's actions are actions[0] to actions[{}]",
                    action_count - 1
                ))
            }
        };
        let produce = |doc: &mut Value, i: usize| -> Result<(), String> {
            match doc["actions"][i]["action"].as_str() {
                Some("produce") => Ok(()),
                other => Err(format!(
                    "{self}: actions[{i}] is {}, not a produce request",
                    other.unwrap_or("not an action")
                )),
            }
        };
        match *self {
            Change::Acks { action, acks } => {
                let acks = if acks == -1 {
                    Value::from("all")
                } else {
                    Value::from(acks)
                };
                for i in self.produce_targets(doc, action.map(index_ok).transpose()?) {
                    produce(doc, i)?;
                    doc["actions"][i]["acks"] = acks.clone();
                }
            }
            Change::Timeout { action, ms } => {
                if action.is_none() {
                    doc["config"]["request_timeout_ms"] = Value::from(ms);
                }
                for i in self.produce_targets(doc, action.map(index_ok).transpose()?) {
                    produce(doc, i)?;
                    doc["actions"][i]["timeout_ms"] = Value::from(ms);
                }
            }
            Change::Config { key, value } => doc["config"][key] = Value::from(value),
            Change::At { action, at_ms } => {
                doc["actions"][index_ok(action)?]["at_ms"] = at_ms.into()
            }
            Change::Remove { action } => {
                let i = index_ok(action)?;
                if let Some(actions) = doc["actions"].as_array_mut() {
                    let removed = actions.remove(i);
                    // The session's selection goes with the request it named.
                    if let Some(session) = doc.get_mut("session").and_then(Value::as_object_mut) {
                        if removed.get("id").is_some()
                            && session.get("selected") == removed.get("id")
                        {
                            session.remove("selected");
                        }
                    }
                }
                renumber_user_actions(doc, i);
            }
        }
        Ok(())
    }

    /// Every produce action (`None`), or the one named.
    fn produce_targets(&self, doc: &Value, one: Option<usize>) -> Vec<usize> {
        match one {
            Some(i) => vec![i],
            None => doc["actions"]
                .as_array()
                .map(|actions| {
                    (0..actions.len())
                        .filter(|&i| actions[i]["action"] == "produce")
                        .collect()
                })
                .unwrap_or_default(),
        }
    }

    /// What it changes, in words, against the first run's scenario ("every request with acks=1",
    /// "broker 2's pause at 12,000 ms instead of 10,000 ms").
    pub fn describe(&self, scenario: &Scenario) -> String {
        let action = |i: usize| {
            scenario
                .actions
                .get(i)
                .map_or_else(|| format!("actions[{i}]"), action_words)
        };
        match *self {
            Change::Acks { action: None, acks } => {
                format!("every request with {}", acks_text(acks))
            }
            Change::Acks {
                action: Some(i),
                acks,
            } => format!("{} with {}", action(i), acks_text(acks)),
            Change::Timeout { action: None, ms } => {
                format!("every request with timeout_ms {}", grouped(ms))
            }
            Change::Timeout {
                action: Some(i),
                ms,
            } => format!("{} with timeout_ms {}", action(i), grouped(ms)),
            Change::Config { key, value } => format!("{}={}", config_name(key), grouped(value)),
            Change::At { action: i, at_ms } => {
                let was = scenario.actions.get(i).map_or(0, |a| a.at_ms);
                format!(
                    "{} at {} ms instead of {} ms",
                    action(i),
                    grouped(at_ms),
                    grouped(was)
                )
            }
            Change::Remove { action: i } => format!("without {}", action(i)),
        }
    }
}

/// The canonical text, which [`Change::parse`] reads back to an equal change.
impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let acks = |acks: i64| {
            if acks == -1 {
                "all".to_string()
            } else {
                acks.to_string()
            }
        };
        match *self {
            Change::Acks {
                action: None,
                acks: a,
            } => write!(f, "acks={}", acks(a)),
            Change::Acks {
                action: Some(i),
                acks: a,
            } => write!(f, "actions[{i}].acks={}", acks(a)),
            Change::Timeout { action: None, ms } => write!(f, "timeout_ms={ms}"),
            Change::Timeout {
                action: Some(i),
                ms,
            } => write!(f, "actions[{i}].timeout_ms={ms}"),
            Change::Config { key, value } => write!(f, "{}={value}", config_name(key)),
            Change::At { action, at_ms } => write!(f, "actions[{action}].at_ms={at_ms}"),
            Change::Remove { action } => write!(f, "actions[{action}]=removed"),
        }
    }
}

/// A removed action's index leaves the session's list of the person's own actions, and the
/// later ones move down by one.
fn renumber_user_actions(doc: &mut Value, removed: usize) {
    let Some(list) = doc
        .pointer_mut("/session/user_actions")
        .and_then(Value::as_array_mut)
    else {
        return;
    };
    let kept: Vec<Value> = list
        .iter()
        .filter_map(Value::as_u64)
        .filter(|&i| i as usize != removed)
        .map(|i| Value::from(if i as usize > removed { i - 1 } else { i }))
        .collect();
    *list = kept;
}

fn parse_acks(value: &str) -> Result<i64, String> {
    match value {
        "all" | "-1" => Ok(-1),
        "0" => Ok(0),
        "1" => Ok(1),
        other => Err(format!("acks: `{other}` is not 0, 1 or all")),
    }
}

fn parse_ms(what: &str, value: &str) -> Result<u64, String> {
    parse_digits(value)
        .ok_or_else(|| format!("{what}: `{value}` is not a whole number of milliseconds from 0"))
}

fn parse_whole(what: &str, value: &str) -> Result<u64, String> {
    parse_digits(value).ok_or_else(|| format!("{what}: `{value}` is not a whole number from 0"))
}

/// A whole number from 0, its digits grouped by `_` or `,` if the writer likes.
fn parse_digits(value: &str) -> Option<u64> {
    value.replace(['_', ','], "").parse::<u64>().ok()
}

/// The settings a what-if may change.
fn what_if_settings() -> impl Iterator<Item = &'static Setting> {
    SETTINGS.iter().filter(|s| s.what_if)
}

fn unknown_setting(name: &str) -> String {
    let names: Vec<&str> = what_if_settings().map(Setting::what_if_name).collect();
    format!(
        "`{name}` is not something a what-if changes: acks, timeout_ms, actions[N].at_ms, \
         actions[N]=removed, or one of {}",
        names.join(", ")
    )
}

/// A config setting as a what-if names it: Kafka's name where Kafka has one, else the file's.
fn config_name(key: &'static str) -> &'static str {
    what_if_settings()
        .find(|s| s.file == key)
        .map_or(key, Setting::what_if_name)
}

/// acks as a what-if writes them: `all`, `0`, `1`.
fn acks_value(acks: i64) -> String {
    if acks == -1 {
        "all".to_string()
    } else {
        acks.to_string()
    }
}

fn acks_text(acks: i64) -> String {
    format!("acks={}", acks_value(acks))
}

/// An action in a few words: "p1", "broker 2's pause".
pub fn action_words(action: &crate::sim::action::TimedAction) -> String {
    use crate::sim::action::Action;
    match &action.action {
        Action::Produce(spec) => spec.id.to_string(),
        Action::PauseFollower { broker } => format!("broker {}'s pause", broker.0),
        Action::ResumeFollower { broker } => format!("broker {}'s resume", broker.0),
        Action::CrashBroker { broker } => format!("broker {}'s crash", broker.0),
        Action::RestartBroker { broker } => format!("broker {}'s restart", broker.0),
        Action::ElectLeader {
            topic,
            partition,
            broker,
        } => format!(
            "the election of broker {} for {topic}-{partition}",
            broker.0
        ),
    }
}

/// 45000 as "45,000", as the page writes times.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
