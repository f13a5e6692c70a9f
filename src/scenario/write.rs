//! The canonical text of a scenario ("export this session"): every config field written out,
//! optional action fields only when set, `acks` as the integer, one topic and one action per
//! line. `Scenario::from_json` reads it back to an equal `Scenario`.

use serde::Serialize;

use super::parse::Scenario;

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
    // An action's own `Serialize` writes it as the file does: `at_ms`, `action`, then its fields
    // in the contract's order, an absent option left out.
    push_lines(&mut out, "actions", scenario.actions.iter().map(compact));
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
