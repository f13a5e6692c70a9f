//! The optional `session` of a scenario: what a saved or shared session adds to the scenario it
//! replays. The runner validates it and otherwise ignores it (the scenario's actions already are
//! the whole run); the page uses it to reopen the session at the same instant, with the same
//! request selected, knowing which actions the person made and which the scenario scripted.

use serde::Serialize;
use serde_json::Value;

use super::error::{quoted, Path};
use super::read::{array, check_fields, integer, object, required, string, IntRange, Read};
use crate::sim::action::{Action, TimedAction};

const SESSION_FIELDS: &[&str] = &[
    "at_ms",
    "selected",
    "user_actions",
    "scenario",
    "live",
    "story_open",
];
const SCENARIO_NAME_MAX_CHARS: usize = 80;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SessionInfo {
    /// The instant the session was at (the playhead).
    pub at_ms: u64,
    /// The produce request that was selected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub selected: Option<String>,
    /// Indices into `actions` of the actions a person made (the others are the scenario's own
    /// script), increasing.
    pub user_actions: Vec<usize>,
    /// The curated scenario the session started from, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    /// The session was live: its run may go on past `run_until_ms` (up to the contract's week).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub live: bool,
    /// The guided story was open at `at_ms` (only with a `story`): the page reopens it there.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub story_open: bool,
}

pub(crate) fn read_session(
    value: &Value,
    path: &Path,
    run_until_ms: u64,
    actions: &[TimedAction],
) -> Read<SessionInfo> {
    let fields = object(value, path, "an object `{at_ms, user_actions, ...}`")?;
    check_fields(fields, path, SESSION_FIELDS)?;
    let at = IntRange {
        lo: 0,
        hi: run_until_ms.into(),
        note: " (run_until_ms)",
    };
    let at_ms = integer(
        required(fields, path, "at_ms", &at.describe_range())?,
        &path.key("at_ms"),
        at,
    )? as u64;
    let selected = match fields.get("selected") {
        Some(value) => {
            let id = string(value, &path.key("selected"))?;
            let known = actions
                .iter()
                .any(|a| matches!(&a.action, Action::Produce(p) if &*p.id == id));
            if !known {
                return Err(path
                    .key("selected")
                    .error(format!("no produce action has the id {}", quoted(id))));
            }
            Some(id.to_owned())
        }
        None => None,
    };
    let user_actions = read_indices(
        fields.get("user_actions"),
        &path.key("user_actions"),
        actions.len(),
    )?;
    let scenario = match fields.get("scenario") {
        Some(value) => Some(scenario_name(value, &path.key("scenario"))?),
        None => None,
    };
    let flag = |key: &str| match fields.get(key) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(path.key(key).expected("true or false", other)),
    };
    Ok(SessionInfo {
        at_ms,
        selected,
        user_actions,
        scenario,
        live: flag("live")?,
        story_open: flag("story_open")?,
    })
}

fn read_indices(value: Option<&Value>, path: &Path, len: usize) -> Read<Vec<usize>> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    let items = array(value, path, "an array of action indices")?;
    let range = IntRange {
        lo: 0,
        hi: len as i128 - 1,
        note: " (an index into actions)",
    };
    let mut out: Vec<usize> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        if len == 0 {
            return Err(path.index(i).error("there are no actions to index"));
        }
        let index = integer(item, &path.index(i), range)? as usize;
        if out.last().is_some_and(|&last| last >= index) {
            return Err(path.index(i).error(format!(
                "indices go in increasing order; {index} comes after {}",
                out[out.len() - 1]
            )));
        }
        out.push(index);
    }
    Ok(out)
}

/// A curated scenario's name: lower-case letters, digits and dashes.
pub(crate) fn scenario_name(value: &Value, path: &Path) -> Read<String> {
    let name = string(value, path)?;
    let plain = !name.is_empty()
        && name.chars().count() <= SCENARIO_NAME_MAX_CHARS
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !plain {
        return Err(path.expected(
            &format!(
                "a scenario name (a-z, 0-9 and -, at most {SCENARIO_NAME_MAX_CHARS} characters)"
            ),
            value,
        ));
    }
    Ok(name.to_owned())
}
