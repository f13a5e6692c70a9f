//! Reading scenario text into a `serde_json::Value`, stricter than `serde_json::from_str`: a key
//! repeated within one object is an error (serde_json would silently keep the last one, which
//! would make a copy-paste slip silent), and syntax errors name the line and column.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use super::error::ScenarioError;

/// The largest scenario text accepted, in bytes. The contract sets no limit; this one only keeps
/// an absurd input from exhausting memory. Half a million produce actions fit.
pub const MAX_SCENARIO_BYTES: usize = 64 * 1024 * 1024;

/// Parses scenario text. serde_json bounds the nesting depth (128), so no input can overflow the
/// stack.
pub(crate) fn parse_text(text: &str) -> Result<Value, ScenarioError> {
    if text.len() > MAX_SCENARIO_BYTES {
        return Err(ScenarioError {
            path: String::new(),
            message: format!(
                "the scenario is {} bytes long; at most {MAX_SCENARIO_BYTES} are accepted",
                text.len()
            ),
        });
    }
    strict_from_str(text).map_err(syntax_error)
}

/// JSON text as a `Value`, refusing a key repeated within one object (serde_json's own error, so
/// a caller words it as it words a syntax error).
pub(crate) fn strict_from_str(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str::<StrictValue>(text).map(|strict| strict.0)
}

fn syntax_error(error: serde_json::Error) -> ScenarioError {
    let full = error.to_string();
    // serde_json ends its message with " at line L column C"; say it our way instead.
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    let what = full.strip_suffix(&suffix).unwrap_or(&full);
    ScenarioError {
        path: String::new(),
        message: format!(
            "invalid JSON at line {}, column {}: {what}",
            error.line(),
            error.column()
        ),
    }
}

/// A `Value` whose objects had no repeated keys.
struct StrictValue(Value);

impl<'de> Deserialize<'de> for StrictValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(StrictVisitor).map(StrictValue)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }

    fn visit_f64<E: de::Error>(self, f: f64) -> Result<Value, E> {
        Number::from_f64(f)
            .map(Value::Number)
            .ok_or_else(|| E::custom("a number that is not finite"))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(StrictValue(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(de::Error::custom(format!(
                    "the key {} appears twice in one object",
                    super::error::quoted(&key)
                )));
            }
            let StrictValue(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_key_is_an_error_with_its_position() {
        let error = parse_text("{\n  \"a\": 1,\n  \"a\": 2\n}").unwrap_err();
        assert_eq!(error.path, "");
        assert_eq!(
            error.message,
            "invalid JSON at line 3, column 5: the key \"a\" appears twice in one object"
        );
    }

    #[test]
    fn syntax_errors_name_line_and_column() {
        let error = parse_text("{\n  \"a\": 1,\n}").unwrap_err();
        assert_eq!(
            error.message,
            "invalid JSON at line 3, column 1: trailing comma"
        );
    }

    #[test]
    fn deep_nesting_is_refused_without_overflowing_the_stack() {
        let text = "[".repeat(100_000);
        let error = parse_text(&text).unwrap_err();
        assert!(
            error.message.contains("recursion limit exceeded"),
            "{error}"
        );
    }
}
