//! How the session's sentences cross to the page: a message name and its fields, which the page
//! words in the reader's language (www/says.js). Each kind of sentence lists its fields once and
//! they cross as a JSON value, whose serializers every output format already has: serializers
//! derived per sentence (a struct per variant, compiled for each format) cost the .wasm about
//! 4 KB gzipped.

use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use crate::kafka::trace::TpName;
use crate::kafka::BrokerId;

/// One field of a sentence.
pub(crate) enum Field<'a> {
    Text(&'a str),
    Number(u64),
    Signed(i64),
    /// A broker, or `null` for none.
    Broker(Option<BrokerId>),
    Brokers(&'a [BrokerId]),
    Partitions(&'a [TpName]),
    Null,
}

impl Field<'_> {
    fn value(&self) -> Value {
        match self {
            Field::Text(text) => Value::from(*text),
            Field::Number(n) => Value::from(*n),
            Field::Signed(n) => Value::from(*n),
            Field::Broker(Some(b)) => Value::from(b.0),
            Field::Broker(None) | Field::Null => Value::Null,
            Field::Brokers(ids) => ids.iter().map(|b| Value::from(b.0)).collect(),
            Field::Partitions(texts) => texts.iter().map(|t| Value::from(&**t)).collect(),
        }
    }
}

/// A sentence as it crosses: an object of `what` and its fields (`{"what": "hw", "tp": "t-0",
/// ...}`; the keys in serde_json's order, which JavaScript does not read).
pub(crate) struct Words<'a> {
    pub what: &'static str,
    pub fields: Vec<(&'static str, Field<'a>)>,
}

impl Words<'_> {
    fn value(&self) -> Value {
        let mut map = Map::new();
        map.insert("what".into(), Value::from(self.what));
        for (name, field) in &self.fields {
            map.insert((*name).into(), field.value());
        }
        Value::Object(map)
    }

    pub(crate) fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value().serialize(serializer)
    }
}
