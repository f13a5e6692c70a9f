//! The optional `story` of a scenario: the captions a learner reads when the scenario is played as
//! a guided story. Each caption belongs to a simulated millisecond, names the panel to look at and,
//! optionally, the element in it and the request to follow. The runner validates the field and
//! otherwise ignores it: a story never changes what a scenario does.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use super::error::{quoted, Path};
use super::read::{
    array, check_fields, integer, non_empty_string, object, one_of, required, IntRange, Read,
};

const STEP_FIELDS: &[&str] = &[
    "at_ms", "caption", "captions", "look_at", "target", "request",
];

/// The languages a caption may be given in besides English (`caption`): the page's other
/// languages, by the tag the page knows them by.
pub const CAPTION_LANGUAGES: &[&str] = &["zh-CN"];

/// The panels a caption can point at (the page's `panel-*` names).
pub const PANELS: &[&str] = &[
    "cluster",
    "purgatory",
    "wheel",
    "codepath",
    "responses",
    "phases",
    "compare",
    "log",
    "metrics",
    "timeline",
];

/// Longest caption, in characters: a caption is read in a few seconds.
const CAPTION_MAX_CHARS: usize = 600;
/// Longest `target` or `request`, in characters.
const NAME_MAX_CHARS: usize = 80;
/// Most captions one story holds.
const MAX_STEPS: usize = 64;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StoryStep {
    pub at_ms: u64,
    /// The caption in English.
    pub caption: String,
    /// The caption in the page's other languages, by language tag (one of
    /// [`CAPTION_LANGUAGES`]); a language without one shows the English.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub captions: BTreeMap<String, String>,
    /// One of [`PANELS`].
    pub look_at: &'static str,
    /// An element of that panel, by the page's story names (`broker-2`, `hw-t-0`, `request-p1`,
    /// `watch-t-0`, `wheel-p1`, ...). A name the page does not find points at the panel itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The produce request whose code path the caption is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request: Option<String>,
}

pub(crate) fn read_story(value: &Value, path: &Path, run_until_ms: u64) -> Read<Vec<StoryStep>> {
    let items = array(
        value,
        path,
        "an array of captions `{at_ms, caption, look_at}`",
    )?;
    if items.len() > MAX_STEPS {
        return Err(path.error(format!(
            "a story holds at most {MAX_STEPS} captions, found {}",
            items.len()
        )));
    }
    let at = IntRange {
        lo: 0,
        hi: run_until_ms.into(),
        note: " (run_until_ms)",
    };
    let mut steps: Vec<StoryStep> = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let path = path.index(index);
        let fields = object(item, &path, "an object `{at_ms, caption, look_at}`")?;
        check_fields(fields, &path, STEP_FIELDS)?;
        let at_ms = integer(
            required(fields, &path, "at_ms", &at.describe_range())?,
            &path.key("at_ms"),
            at,
        )? as u64;
        if let Some(previous) = steps.last().filter(|s| s.at_ms > at_ms) {
            return Err(path.key("at_ms").error(format!(
                "captions go in time order; this one ({at_ms}) comes before the previous one ({})",
                previous.at_ms
            )));
        }
        let caption = bounded_text(
            fields.get("caption"),
            &path,
            "caption",
            CAPTION_MAX_CHARS,
            true,
        )?
        .unwrap_or_default();
        let captions = match fields.get("captions") {
            Some(value) => read_captions(value, &path.key("captions"))?,
            None => BTreeMap::new(),
        };
        let look_at = one_of(
            required(fields, &path, "look_at", "a panel name")?,
            &path.key("look_at"),
            PANELS,
        )?;
        let target = bounded_text(fields.get("target"), &path, "target", NAME_MAX_CHARS, false)?;
        let request = bounded_text(
            fields.get("request"),
            &path,
            "request",
            NAME_MAX_CHARS,
            false,
        )?;
        steps.push(StoryStep {
            at_ms,
            caption,
            captions,
            look_at,
            target,
            request,
        });
    }
    Ok(steps)
}

/// `{"zh-CN": "…"}`: the caption in other languages, each tag one of [`CAPTION_LANGUAGES`].
fn read_captions(value: &Value, path: &Path) -> Read<BTreeMap<String, String>> {
    let fields = object(
        value,
        path,
        "an object of captions by language, such as {\"zh-CN\": \"…\"}",
    )?;
    check_fields(fields, path, CAPTION_LANGUAGES)?;
    let mut captions = BTreeMap::new();
    for (lang, text) in fields {
        let text = bounded_text(Some(text), path, lang, CAPTION_MAX_CHARS, true)?;
        captions.insert(lang.clone(), text.unwrap_or_default());
    }
    Ok(captions)
}

/// A non-empty string of at most `max` characters; `None` when absent and not required.
fn bounded_text(
    value: Option<&Value>,
    path: &Path,
    key: &str,
    max: usize,
    needed: bool,
) -> Read<Option<String>> {
    let path = path.key(key);
    let Some(value) = value else {
        return if needed {
            Err(path.error("required field is missing; expected a non-empty string"))
        } else {
            Ok(None)
        };
    };
    let text = non_empty_string(value, &path)?;
    let count = text.chars().count();
    if count > max {
        return Err(path.error(format!(
            "expected at most {max} characters, found {} ({count})",
            quoted(text)
        )));
    }
    Ok(Some(text.to_owned()))
}
