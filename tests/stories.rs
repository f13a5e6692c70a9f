//! Every curated scenario carries a guided story, and the story fits the run it narrates: each
//! caption stops the clock at a millisecond where the trace has at least one event (a story never
//! pauses on an empty moment), follows only produce requests the scenario sends, and points at
//! elements the page can find in the panel it highlights.
//!
//! The element names are the page's `data-story` names: `broker-N` and `hw-TOPIC-P` in the
//! cluster panel, `watch-TOPIC-P` in the purgatory panel, `request-ID` in the purgatory or the
//! responses panel, `wheel-ID` in the wheel panel (drawn only for the selected request, so
//! that caption must also select ID), `phases-ID` (the request's strip) in the Phases view, and
//! `divergence` and `outcome-ID` (a request's row) in a what-if's comparison (only in a scenario
//! with `compare`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use purgatory_playground::scenario::run_scenario;
use purgatory_playground::scenario::{Scenario, StoryStep, CAPTION_LANGUAGES};
use purgatory_playground::sim::action::Action;
use serde_json::Value;

/// Fewest captions a curated story may have.
const MIN_CAPTIONS: usize = 3;

fn scenarios_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios")
}

/// Every scenario file in `scenarios/`. Nothing there is skipped silently: the only entries that
/// are not scenarios are the README and the golden results' directory, and anything else fails.
fn scenario_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(scenarios_dir()).expect("scenarios/ exists") {
        let path = entry.expect("readable entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        if path.is_dir() {
            assert_eq!(name, "golden", "unexpected directory scenarios/{name}");
        } else if path.extension().is_some_and(|ext| ext == "json") {
            files.push(path);
        } else {
            assert_eq!(
                name, "README.md",
                "scenarios/{name} is neither a scenario (*.json) nor the README"
            );
        }
    }
    files.sort();
    files
}

/// What a story is checked against: the milliseconds at which the run's trace has at least one
/// event, and each answered request's id with the millisecond of its answer.
struct Run {
    instants: BTreeSet<u64>,
    answers: Vec<(String, u64)>,
}

fn run(scenario: &Scenario) -> Run {
    let mut trace = Vec::new();
    let result = run_scenario(scenario, Some(&mut trace)).expect("runs");
    let text = String::from_utf8(trace).expect("the trace is UTF-8");
    let instants = text
        .lines()
        .map(|line| {
            let event: Value = serde_json::from_str(line).expect("a trace line is JSON");
            event["at_ms"].as_u64().expect("every event has at_ms")
        })
        .collect();
    let result = serde_json::to_value(&result).expect("the result is JSON");
    let answers = result["responses"]
        .as_array()
        .expect("the result has responses")
        .iter()
        .filter_map(|response| {
            let id = response["id"].as_str().expect("a response has an id");
            // acks=0 requests are never answered (`responded_ms` null).
            Some((id.to_string(), response["responded_ms"].as_u64()?))
        })
        .collect();
    Run { instants, answers }
}

/// Most answers a story must caption one by one. A flood of requests (s15's thousand) is told as
/// a group: its first and its last answer each get a caption.
const ANSWERS_CAPTIONED_ONE_BY_ONE: usize = 20;

/// The answers that need a caption at their own millisecond, so that a learner is told why each
/// came when it did.
fn answers_to_caption(answers: &[(String, u64)]) -> Vec<&(String, u64)> {
    if answers.len() <= ANSWERS_CAPTIONED_ONE_BY_ONE {
        return answers.iter().collect();
    }
    let first = answers.iter().min_by_key(|(_, at)| *at);
    let last = answers.iter().max_by_key(|(_, at)| *at);
    first.into_iter().chain(last).collect()
}

/// What is wrong with how a caption writes its numbers: the page formats milliseconds and counts
/// with thousands separators ("45,000 ms"), and a caption reads the same; names are written as
/// they are (request ids, `KAFKA-15583`), never with a separator inside them.
fn number_problem(caption: &str, produces: &BTreeSet<String>) -> Option<String> {
    for id in produces {
        let spaced = with_separators(id);
        if spaced != *id && caption.contains(&spaced) {
            return Some(format!("writes request `{id}` as `{spaced}`"));
        }
    }
    let mut without_names = caption.to_string();
    for id in produces {
        without_names = without_names.replace(id.as_str(), " ");
    }
    let bytes = without_names.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let digits = &without_names[start..i];
        let before = &without_names[..start];
        let in_name = before.ends_with("KAFKA-")
            || before.ends_with(|c: char| c.is_ascii_alphabetic() || c == '_');
        let rest = &without_names.as_bytes()[i..];
        let separator_follows =
            rest.len() >= 4 && rest[0] == b',' && rest[1..4].iter().all(u8::is_ascii_digit);
        if in_name && separator_follows {
            return Some(format!("puts a separator inside a name (`...{digits},`)"));
        }
        if !in_name && digits.len() >= 4 && !before.ends_with(',') {
            return Some(format!("writes {digits} without thousands separators"));
        }
    }
    None
}

/// Every run of four or more digits in `text` with thousands separators.
fn with_separators(text: &str) -> String {
    let mut out = String::new();
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut String| {
        if digits.len() >= 4 {
            for (k, c) in digits.chars().enumerate() {
                if k > 0 && (digits.len() - k) % 3 == 0 {
                    out.push(',');
                }
                out.push(c);
            }
        } else {
            out.push_str(digits);
        }
        digits.clear();
    };
    for c in text.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            flush(&mut digits, &mut out);
            out.push(c);
        }
    }
    flush(&mut digits, &mut out);
    out
}

/// A caption leads with plain words: its first word is not a Kafka method name (`checkAndComplete`,
/// `tryCompleteElseWatch:`), which comes second, after what it does.
fn opens_with_a_method_name(caption: &str) -> bool {
    let first = caption.split_whitespace().next().unwrap_or_default();
    let mut chars = first.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase()) && chars.any(|c| c.is_ascii_uppercase())
}

fn produce_ids(scenario: &Scenario) -> BTreeSet<String> {
    scenario
        .actions
        .iter()
        .filter_map(|a| match &a.action {
            Action::Produce(p) => Some(p.id.to_string()),
            _ => None,
        })
        .collect()
}

/// Whether `TOPIC-P` names a partition of the scenario (topic names may contain `-`).
fn partition_exists(scenario: &Scenario, name: &str) -> bool {
    let Some((topic, partition)) = name.rsplit_once('-') else {
        return false;
    };
    let Ok(partition) = partition.parse::<u32>() else {
        return false;
    };
    scenario
        .topics
        .iter()
        .any(|t| t.name == topic && partition < t.partitions)
}

/// What is wrong with a caption's `target`, if anything.
fn target_problem(
    scenario: &Scenario,
    produces: &BTreeSet<String>,
    step: &StoryStep,
) -> Option<String> {
    if step.look_at == "compare" && scenario.compare.is_none() {
        return Some("look_at `compare` in a scenario that compares with nothing".to_string());
    }
    let target = step.target.as_deref()?;
    let (kind, rest) = target.split_once('-').unwrap_or((target, ""));
    let panels: &[&str] = match kind {
        "broker" | "hw" => &["cluster"],
        "watch" => &["purgatory"],
        "request" => &["purgatory", "responses"],
        "wheel" => &["wheel"],
        "phases" => &["phases"],
        "divergence" | "outcome" => &["compare"],
        _ => return Some(format!("unknown target kind `{target}`")),
    };
    if !panels.contains(&step.look_at) {
        return Some(format!(
            "target `{target}` is not drawn in the {} panel",
            step.look_at
        ));
    }
    let exists = match kind {
        "broker" => rest
            .parse::<u32>()
            .is_ok_and(|b| b < scenario.config.brokers),
        "hw" | "watch" => partition_exists(scenario, rest),
        "divergence" => rest.is_empty(),
        _ => produces.contains(rest),
    };
    if !exists {
        return Some(format!("target `{target}` names nothing in this scenario"));
    }
    if kind == "wheel" && step.request.as_deref() != Some(rest) {
        return Some(format!(
            "target `{target}` is drawn only for the selected request, so the caption must \
             select `{rest}`"
        ));
    }
    None
}

#[test]
fn every_curated_scenario_has_a_story_that_fits_its_trace() {
    let files = scenario_files();
    assert!(
        files.len() >= 24,
        "found only {} scenario files",
        files.len()
    );
    let mut problems = Vec::new();
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(file).expect("readable");
        let scenario = match Scenario::from_json(&text) {
            Ok(scenario) => scenario,
            Err(error) => {
                problems.push(format!("{name}: does not parse: {error}"));
                continue;
            }
        };
        if scenario.story.len() < MIN_CAPTIONS {
            problems.push(format!(
                "{name}: a story of {} captions, expected at least {MIN_CAPTIONS}",
                scenario.story.len()
            ));
        }
        // A story is told whole in a language or not at all: a reader never meets an English
        // caption in the middle of a Chinese story.
        for lang in CAPTION_LANGUAGES {
            let given = scenario
                .story
                .iter()
                .filter(|s| s.captions.contains_key(*lang))
                .count();
            if given > 0 && given < scenario.story.len() {
                problems.push(format!(
                    "{name}: {given} of {} captions have a {lang} text; give every one or none",
                    scenario.story.len()
                ));
            }
        }
        let Run { instants, answers } = run(&scenario);
        let produces = produce_ids(&scenario);
        for (id, at) in answers_to_caption(&answers) {
            if !scenario.story.iter().any(|step| step.at_ms == *at) {
                problems.push(format!(
                    "{name}: `{id}` is answered at {at} ms, and no caption says why then"
                ));
            }
        }
        for (i, step) in scenario.story.iter().enumerate() {
            let at = step.at_ms;
            if !instants.contains(&at) {
                let before = instants.range(..at).next_back();
                let after = instants.range(at..).next();
                problems.push(format!(
                    "{name}: story[{i}] stops at {at} ms, where the trace has no event \
                     (nearest events at {before:?} and {after:?} ms)"
                ));
            }
            if let Some(request) = &step.request {
                if !produces.contains(request) {
                    problems.push(format!(
                        "{name}: story[{i}] follows request `{request}`, which no produce \
                         action sends"
                    ));
                }
            }
            if let Some(problem) = target_problem(&scenario, &produces, step) {
                problems.push(format!("{name}: story[{i}]: {problem}"));
            }
            for (lang, caption) in std::iter::once(("en", &step.caption)).chain(
                step.captions
                    .iter()
                    .map(|(lang, caption)| (lang.as_str(), caption)),
            ) {
                if let Some(problem) = number_problem(caption, &produces) {
                    problems.push(format!("{name}: story[{i}]: the {lang} caption {problem}"));
                }
            }
            if opens_with_a_method_name(&step.caption) {
                problems.push(format!(
                    "{name}: story[{i}]: the caption opens with a method name; lead with what \
                     happens and name the method second"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_story_never_changes_what_a_scenario_does() {
    // The runner validates the story and otherwise ignores it: the same scenario without its
    // story gives the same result, byte for byte.
    let file = scenarios_dir().join("s03-stalled-follower-completes-at-isr-shrink.json");
    let with = Scenario::from_json(&std::fs::read_to_string(file).unwrap()).unwrap();
    assert!(!with.story.is_empty());
    let mut without = with.clone();
    without.story.clear();
    let run = |s: &Scenario| {
        let mut trace = Vec::new();
        let result = run_scenario(s, Some(&mut trace)).expect("runs");
        (serde_json::to_string(&result).unwrap(), trace)
    };
    assert_eq!(run(&with), run(&without));
}
