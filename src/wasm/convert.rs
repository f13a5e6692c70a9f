//! The boundary's conversions, both ways: JS arguments read strictly into JSON or numbers (each
//! refusal a JS `Error` naming the argument and what it found), and answers written out as JS
//! objects or as JSON text for the engine's `JSON.parse`.

use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// A number as JavaScript would print it, through serde_json's float writer: `{}` on an f64 would
/// link core's own float formatting as well, about 5 KB of gzipped wasm for one error message.
fn js_number(n: f64) -> String {
    if n.is_finite() && n.fract() == 0.0 && n.abs() < 9.0e15 {
        return (n as i64).to_string();
    }
    match serde_json::Number::from_f64(n) {
        Some(number) => number.to_string(),
        None if n.is_nan() => "NaN".to_string(),
        None if n > 0.0 => "Infinity".to_string(),
        None => "-Infinity".to_string(),
    }
}

pub(super) fn err(message: impl std::fmt::Display) -> JsError {
    JsError::new(&message.to_string())
}

/// The longest JSON text a command, a setup or breakpoints may be (a scenario may be as long as
/// the runner reads).
pub(super) const MAX_ARGUMENT_BYTES: usize = 1024 * 1024;

/// A JS argument as JSON: a string is JSON text (at most `max_bytes`); anything else is written
/// as JSON text by the engine's `JSON.stringify` and read by serde_json (objects, arrays, numbers,
/// strings, booleans, null). `undefined`, functions, symbols and BigInts are refused with a
/// message naming `what`; so is anything `JSON.stringify` throws on (a cycle, a nested BigInt, a
/// getter that throws).
pub(super) fn to_json_value(
    value: JsValue,
    what: &str,
    max_bytes: usize,
) -> Result<Value, JsError> {
    if value.is_undefined() || value.is_null() {
        let found = if value.is_null() { "null" } else { "undefined" };
        return Err(err(format!("{what}: expected an object, found {found}")));
    }
    let text = match value.as_string() {
        Some(text) if text.len() > max_bytes => {
            return Err(err(format!(
                "{what}: the text is {} bytes long; at most {max_bytes} are read",
                text.len()
            )));
        }
        Some(text) => text,
        None => {
            let refused = if value.is_function() {
                Some("a function")
            } else if value.is_symbol() {
                Some("a symbol")
            } else if value.is_bigint() {
                Some("a BigInt")
            } else {
                None
            };
            // What `JSON.stringify` threw may be anything (`throw null` in a getter): its
            // `message` is read through `Reflect.get`, which cannot throw past this frame (a JS
            // exception unwinding through wasm would leave the handle borrowed for ever).
            let written = match refused {
                Some(found) => Err(found.to_string()),
                None => match js_sys::JSON::stringify(&value) {
                    Ok(text) => text
                        .as_string()
                        .ok_or_else(|| "it writes nothing".to_string()),
                    Err(e) => Err(js_sys::Reflect::get(&e, &"message".into())
                        .ok()
                        .and_then(|m| m.as_string())
                        .unwrap_or_default()),
                },
            };
            match written {
                Ok(text) => text,
                Err(why) => {
                    return Err(err(format!(
                    "{what}: expected plain JSON data (objects, arrays, numbers, strings): {why}"
                )))
                }
            }
        }
    };
    // A key twice in one object is refused as a file's is (only text can hold one twice).
    crate::scenario::strict_from_str(&text).map_err(|e| err(format!("{what}: not JSON: {e}")))
}

/// The answers of the per-frame call `extent`: objects built field by field by
/// serde-wasm-bindgen (`null` for `None`), faster for a few fields than writing and parsing JSON.
pub(super) fn to_js_object<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(err)
}

/// Every other answer: serde_json writes the text, the engine's `JSON.parse` builds the objects.
/// For large answers (the snapshot, event batches) this measured faster than building them across
/// the boundary; for small ones it keeps each type's serializer compiled once, for serde_json.
pub(super) fn to_js_via_text<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    let text = serde_json::to_string(value).map_err(err)?;
    js_sys::JSON::parse(&text).map_err(|_| err("internal: JSON.parse refused the module's JSON"))
}

/// `text` with every ".: " written ": ", as `text.replace(".: ", ": ")` would, without the
/// substring search that costs about 1 KB of gzipped wasm for this one use.
pub(super) fn drop_dot_before_colon(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with(".: ") {
            out.push_str(": ");
            rest = &rest[3..];
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// What a refused argument was, for its message: a number as JS prints it, else its `typeof`
/// (`null` for null).
pub(super) fn found(value: &JsValue) -> String {
    match value.as_f64() {
        Some(n) => js_number(n),
        None if value.is_null() => "null".to_string(),
        None => value.js_typeof().as_string().unwrap_or_default(),
    }
}

/// A whole number of milliseconds in `0..=max`. Numeric arguments come in as `JsValue`, not
/// `f64`, so that only a JS number passes: the glue's own `f64` conversion would read `null` and
/// `[5]` as numbers and throw its own unlabelled `TypeError` for a BigInt or a Symbol.
pub(super) fn whole_ms(value: &JsValue, what: &str, max: f64) -> Result<u64, JsError> {
    whole_number(value, what, "of milliseconds ", 0.0..=max)
}

/// A whole number within `range` (`of_what`: `"of phases "`, or `""` for a plain count), or an
/// error naming `what` and the range.
pub(super) fn whole_number(
    value: &JsValue,
    what: &str,
    of_what: &str,
    range: std::ops::RangeInclusive<f64>,
) -> Result<u64, JsError> {
    match value.as_f64() {
        Some(v) if range.contains(&v) && v.fract() == 0.0 => Ok(v as u64),
        _ => Err(err(format!(
            "{what}: expected a whole number {of_what}{}-{}, found {}",
            js_number(*range.start()),
            js_number(*range.end()),
            found(value)
        ))),
    }
}

/// A string argument, `None` for null or undefined. String arguments come in as `JsValue`: the
/// glue's own string copy traps (a wasm `RuntimeError`) on a number or an object.
pub(super) fn string_arg(value: &JsValue, what: &str) -> Result<Option<String>, JsError> {
    match value.as_string() {
        Some(text) => Ok(Some(text)),
        None if value.is_undefined() || value.is_null() => Ok(None),
        None => Err(err(format!(
            "{what}: expected a string, found {}",
            found(value)
        ))),
    }
}
