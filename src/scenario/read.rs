//! Typed reads out of a parsed JSON document. Each read either yields the value or a
//! `ScenarioError` that names the exact path and says what was expected and what was found.

use serde_json::{Map, Value};

use super::error::{describe, quoted, Path, ScenarioError};

pub(crate) type Read<T> = Result<T, ScenarioError>;

pub(crate) type Object = Map<String, Value>;

/// An inclusive integer range, with an optional note that says where the bound comes from
/// (`" (run_until_ms)"`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct IntRange<'a> {
    pub lo: i128,
    pub hi: i128,
    pub note: &'a str,
}

impl IntRange<'static> {
    pub(crate) const fn new(lo: i128, hi: i128) -> Self {
        IntRange { lo, hi, note: "" }
    }
}

/// Every 64-bit signed integer: the contract's "any integer".
pub(crate) const ANY_I64: IntRange<'static> = IntRange::new(i64::MIN as i128, i64::MAX as i128);

impl IntRange<'_> {
    /// "an integer from LO to HI", as a missing-field message names the expectation.
    pub(crate) fn describe_range(&self) -> String {
        let (lo, hi) = (show(self.lo), show(self.hi));
        format!("an integer from {lo} to {hi}{}", self.note)
    }

    fn describe(&self, for_a_non_integer: bool) -> String {
        if for_a_non_integer && self.lo == ANY_I64.lo && self.hi == ANY_I64.hi {
            "an integer".to_string()
        } else {
            self.describe_range()
        }
    }
}

/// A bound as text. Every bound is an i64 or a u64, and printing those rather than the i128
/// keeps 128-bit formatting out of the wasm build.
fn show(n: i128) -> String {
    match (i64::try_from(n), u64::try_from(n)) {
        (Ok(n), _) => n.to_string(),
        (_, Ok(n)) => n.to_string(),
        _ => unreachable!("integer bounds fit i64 or u64"),
    }
}

pub(crate) fn object<'v>(value: &'v Value, path: &Path, what: &str) -> Read<&'v Object> {
    value.as_object().ok_or_else(|| path.expected(what, value))
}

pub(crate) fn array<'v>(value: &'v Value, path: &Path, what: &str) -> Read<&'v [Value]> {
    match value {
        Value::Array(items) => Ok(items),
        other => Err(path.expected(what, other)),
    }
}

pub(crate) fn string<'v>(value: &'v Value, path: &Path) -> Read<&'v str> {
    value
        .as_str()
        .ok_or_else(|| path.expected("a string", value))
}

pub(crate) fn non_empty_string<'v>(value: &'v Value, path: &Path) -> Read<&'v str> {
    match value.as_str() {
        Some(text) if !text.is_empty() => Ok(text),
        _ => Err(path.expected("a non-empty string", value)),
    }
}

/// The longest name Kafka creates a topic with (`Topic.MAX_NAME_LENGTH`).
pub(crate) const MAX_NAME_CHARS: usize = 249;

/// What a name of `what` may be, as an error message says it.
pub(crate) fn name_rule(what: &str) -> String {
    format!(
        "{what}: 1-{MAX_NAME_CHARS} characters of a-z A-Z 0-9 . _ - \
         (Kafka's rule for topic names), not \".\" or \"..\""
    )
}

/// A name as Kafka's `Topic.validate` allows one: 1-249 ASCII letters, digits, `.`, `_` and `-`,
/// and neither `.` nor `..`. Topic names follow it because Kafka creates no other; request ids
/// follow it too, so that everything a file names is written in one alphabet. (Names are also
/// shown only as text on the page; this rule is a second wall, not the escaping.)
pub(crate) fn kafka_name<'v>(value: &'v Value, path: &Path, what: &str) -> Read<&'v str> {
    let legal = |text: &str| {
        !text.is_empty()
            && text.len() <= MAX_NAME_CHARS
            && text != "."
            && text != ".."
            && text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
    };
    match value.as_str() {
        Some(text) if legal(text) => Ok(text),
        _ => Err(path.expected(&name_rule(what), value)),
    }
}

/// A JSON integer inside `range`. A number written with a fraction or an exponent (`2.0`, `1e3`)
/// is not an integer, even when its value is whole: the contract's fields are counts and
/// milliseconds, and a file that writes them as floats most likely computed them wrongly.
pub(crate) fn integer(value: &Value, path: &Path, range: IntRange) -> Read<i128> {
    let number = match value {
        Value::Number(n) => n.as_i64().map(i128::from).or(n.as_u64().map(i128::from)),
        _ => None,
    };
    match number {
        Some(n) if (range.lo..=range.hi).contains(&n) => Ok(n),
        Some(_) => Err(path.expected(&range.describe(false), value)),
        None => Err(path.expected(&range.describe(true), value)),
    }
}

/// The value of a required field; missing, it is an error at the field's own path.
pub(crate) fn required<'v>(
    object: &'v Object,
    path: &Path,
    name: &str,
    what: &str,
) -> Read<&'v Value> {
    object.get(name).ok_or_else(|| missing(path, name, what))
}

/// The error for a required field that is absent, at the field's own path.
pub(crate) fn missing(path: &Path, name: &str, what: &str) -> ScenarioError {
    path.key(name)
        .error(format!("required field is missing; expected {what}"))
}

/// Refuses any key of `object` that is not in `allowed`, suggesting the nearest allowed name.
pub(crate) fn check_fields(object: &Object, path: &Path, allowed: &[&str]) -> Read<()> {
    let Some(unknown) = object.keys().find(|key| !allowed.contains(&key.as_str())) else {
        return Ok(());
    };
    let message = match suggest(unknown, allowed) {
        Some(near) => format!(
            "unknown field {}; did you mean `{near}`?",
            field_name(unknown)
        ),
        None => format!(
            "unknown field {}; the fields here are {}",
            field_name(unknown),
            allowed
                .iter()
                .map(|name| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    Err(path.key(unknown).error(message))
}

/// One of a fixed set of names (the `action` field).
pub(crate) fn one_of<'c>(value: &Value, path: &Path, names: &[&'c str]) -> Read<&'c str> {
    let given = value.as_str();
    if let Some(name) = names.iter().find(|name| Some(**name) == given) {
        return Ok(name);
    }
    let listed = names
        .iter()
        .map(|name| format!("\"{name}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let mut message = format!("expected one of {listed}, found {}", describe(value));
    if let Some(near) = given.and_then(|given| suggest(given, names)) {
        message.push_str(&format!("; did you mean \"{near}\"?"));
    }
    Err(path.error(message))
}

fn field_name(name: &str) -> String {
    let plain = !name.is_empty()
        && name.len() <= 40
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if plain {
        format!("`{name}`")
    } else {
        quoted(name)
    }
}

/// The allowed name the user most likely meant, if any is near: the same name in another case,
/// one a couple of edits away, a prefix (`run_until`), or an abbreviation that keeps the first
/// word and the letters in order (`min_isr` for `min_insync_replicas`).
pub(crate) fn suggest<'c>(unknown: &str, candidates: &[&'c str]) -> Option<&'c str> {
    const LONGEST_CONSIDERED: usize = 64;
    if unknown.is_empty() || unknown.len() > LONGEST_CONSIDERED {
        return None;
    }
    let lower = unknown.to_ascii_lowercase();
    if let Some(same) = candidates.iter().find(|c| c.eq_ignore_ascii_case(unknown)) {
        return Some(same);
    }
    let nearest = candidates
        .iter()
        .map(|c| (edit_distance(&lower, c), *c))
        .min_by_key(|(distance, _)| *distance);
    if let Some((distance, candidate)) = nearest {
        let allowed = (lower.chars().count().min(candidate.len()) / 3).max(1);
        if distance <= allowed {
            return Some(candidate);
        }
    }
    candidates.iter().copied().find(|candidate| {
        let first_word = |s: &str| s.split('_').next().unwrap_or("").to_string();
        lower.len() >= 3
            && (candidate.starts_with(lower.as_str())
                || (lower.len() >= 4
                    && first_word(&lower) == first_word(candidate)
                    && is_subsequence(&lower, candidate)))
    })
}

/// Reads each of `items` with `read`, in order, and refuses a name used twice: each item that
/// `named` picks is named by its field `key`, and no two may share a name. Errors come as a
/// reader going item by item meets them: a repeat before the first unreadable item, else that
/// item's error. `repeat` words the message from the name (quoted) and the earlier item's index.
pub(crate) fn read_each_unique<'v, T>(
    items: &'v [Value],
    path: &Path,
    key: &str,
    mut read: impl FnMut(&'v Value, &Path) -> Read<T>,
    named: impl Fn(&T) -> bool,
    repeat: impl Fn(&str, usize) -> String,
) -> Read<Vec<T>> {
    let name_of = |item: &'v Value| item.get(key).and_then(Value::as_str).unwrap_or_default();
    let mut read_items = Vec::with_capacity(items.len());
    let mut names = Vec::new();
    let mut unreadable = None;
    for (index, item) in items.iter().enumerate() {
        match read(item, &path.index(index)) {
            Ok(value) => {
                if named(&value) {
                    names.push((name_of(item), index));
                }
                read_items.push(value);
            }
            Err(error) => {
                unreadable = Some(error);
                break;
            }
        }
    }
    if let Some((index, first)) = first_repeat(names) {
        let message = repeat(&quoted(name_of(&items[index])), first);
        return Err(path.index(index).key(key).error(message));
    }
    unreadable.map_or(Ok(read_items), Err)
}

/// The first repeated name among `named` ((name, item index), in item order): the index of the
/// first item whose name an earlier item already has, and that earlier item's index. What a
/// `BTreeMap` of names filled in item order would find, without a `BTreeMap<&str, _>` of its own
/// in the .wasm (about 5 KB of insert, search and node code).
fn first_repeat(mut named: Vec<(&str, usize)>) -> Option<(usize, usize)> {
    // Stable, so each name's items stay in item order, and each repeat follows the item before
    // it with that name.
    named.sort_by(|a, b| a.0.cmp(b.0));
    named
        .windows(2)
        .filter(|pair| pair[0].0 == pair[1].0)
        .map(|pair| (pair[1].1, pair[0].1))
        .min()
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

fn is_subsequence(short: &str, long: &str) -> bool {
    let mut rest = long.chars();
    short.chars().all(|c| rest.any(|l| l == c))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: &[&str] = &[
        "brokers",
        "min_insync_replicas",
        "replica_lag_time_max_ms",
        "request_timeout_ms",
    ];

    #[test]
    fn suggestions_find_typos_prefixes_and_abbreviations() {
        assert_eq!(suggest("brokrs", CONFIG), Some("brokers"));
        assert_eq!(suggest("Brokers", CONFIG), Some("brokers"));
        assert_eq!(suggest("min_isr", CONFIG), Some("min_insync_replicas"));
        assert_eq!(
            suggest("replica_lag", CONFIG),
            Some("replica_lag_time_max_ms")
        );
        assert_eq!(
            suggest("request_timeout", CONFIG),
            Some("request_timeout_ms")
        );
        assert_eq!(suggest("colour", CONFIG), None);
        assert_eq!(suggest("x", CONFIG), None);
    }

    #[test]
    fn the_first_repeat_is_the_earliest_item_whose_name_came_before() {
        let named = |names: &[&'static str]| -> Vec<(&'static str, usize)> {
            names.iter().copied().zip(0..).collect()
        };
        assert_eq!(first_repeat(named(&["a", "b", "c"])), None);
        assert_eq!(first_repeat(named(&[])), None);
        assert_eq!(
            first_repeat(named(&["b", "a", "b", "a", "a"])),
            Some((2, 0))
        );
        assert_eq!(
            first_repeat(named(&["x", "a", "b", "a", "x"])),
            Some((3, 1))
        );
        // Item indices need not be contiguous (only some items are named).
        assert_eq!(
            first_repeat(vec![("p1", 0), ("p2", 4), ("p1", 9)]),
            Some((9, 0))
        );
    }

    #[test]
    fn integers_are_whole_json_integers_in_range() {
        let path = Path::Root;
        let range = IntRange::new(1, 64);
        assert_eq!(integer(&Value::from(3), &path, range), Ok(3));
        let error = integer(&Value::from(2.0), &path, range).unwrap_err();
        assert_eq!(error.message, "expected an integer from 1 to 64, found 2.0");
        let error = integer(&Value::from(65), &path, range).unwrap_err();
        assert_eq!(error.message, "expected an integer from 1 to 64, found 65");
        let error = integer(&Value::from("1"), &path, ANY_I64).unwrap_err();
        assert_eq!(error.message, "expected an integer, found \"1\"");
        let error = integer(&Value::from(u64::MAX), &path, ANY_I64).unwrap_err();
        assert_eq!(
            error.message,
            "expected an integer from -9223372036854775808 to 9223372036854775807, \
             found 18446744073709551615"
        );
    }
}
