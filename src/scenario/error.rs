//! What is wrong with a scenario file, and where: the error type and the JSON paths it names.

use std::fmt;

use serde_json::Value;

/// A file error: the JSON path of the fault (`actions[3].acks`; empty for the document itself)
/// and what was expected there and what was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    pub path: String,
    pub message: String,
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

/// A JSON path, built on the stack while the parser walks the document and rendered to text only
/// when an error needs it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl<'a> Path<'a> {
    pub(crate) fn key(&'a self, key: &'a str) -> Path<'a> {
        Path::Key(self, key)
    }

    pub(crate) fn index(&'a self, index: usize) -> Path<'a> {
        Path::Index(self, index)
    }

    /// The path as the errors print it: `actions[3].records[0].count`, or `""` for the root.
    pub(crate) fn render(&self) -> String {
        let mut out = String::new();
        self.render_into(&mut out);
        out
    }

    fn render_into(&self, out: &mut String) {
        match self {
            Path::Root => {}
            Path::Key(parent, key) => {
                parent.render_into(out);
                if is_identifier(key) {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(key);
                } else {
                    // A key no identifier can spell (a space, a quote, an empty key) is written
                    // the way JavaScript would index it, so the path stays unambiguous.
                    out.push('[');
                    out.push_str(&quoted(key));
                    out.push(']');
                }
            }
            Path::Index(parent, index) => {
                parent.render_into(out);
                out.push_str(&format!("[{index}]"));
            }
        }
    }

    pub(crate) fn error(&self, message: impl Into<String>) -> ScenarioError {
        ScenarioError {
            path: self.render(),
            message: message.into(),
        }
    }

    /// The usual error: "expected <what>, found <the value as written>".
    pub(crate) fn expected(&self, what: &str, found: &Value) -> ScenarioError {
        self.error(format!("expected {what}, found {}", describe(found)))
    }
}

fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The longest piece of user text an error message repeats, in characters.
const QUOTE_LIMIT_CHARS: usize = 40;

/// `text` as a JSON string literal, cut short (with an ellipsis) when it is long, so that an
/// error message stays one readable line whatever the file holds.
pub(crate) fn quoted(text: &str) -> String {
    let count = text.chars().count();
    if count <= QUOTE_LIMIT_CHARS {
        return Value::from(text).to_string();
    }
    let head: String = text.chars().take(QUOTE_LIMIT_CHARS).collect();
    let literal = Value::from(head).to_string();
    format!(
        "{}…\" (a string of {count} characters)",
        &literal[..literal.len() - 1]
    )
}

/// A JSON value as an error message shows what was found: scalars as written, containers by kind.
pub(crate) fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) if s.is_empty() => "an empty string".to_string(),
        Value::String(s) => quoted(s),
        Value::Array(a) if a.is_empty() => "an empty array".to_string(),
        Value::Array(_) => "an array".to_string(),
        Value::Object(_) => "an object".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_render_like_javascript_accessors() {
        let root = Path::Root;
        let actions = root.key("actions");
        let third = actions.index(3);
        assert_eq!(third.key("acks").render(), "actions[3].acks");
        assert_eq!(root.render(), "");
        assert_eq!(root.key("odd key").render(), "[\"odd key\"]");
        assert_eq!(third.key("").render(), "actions[3][\"\"]");
    }

    #[test]
    fn long_strings_are_cut_short() {
        let long = "x".repeat(100);
        assert_eq!(
            quoted(&long),
            format!("\"{}…\" (a string of 100 characters)", "x".repeat(40))
        );
        assert_eq!(describe(&Value::from(2.5)), "2.5");
        assert_eq!(describe(&Value::from(2.0)), "2.0");
    }
}
