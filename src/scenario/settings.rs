//! The config settings a scenario file names, in the file's order: the file's name, Kafka's where
//! Kafka has one, the range a file may give, whether a what-if may change it, and the field of
//! [`Config`] it is. The reader (`parse.rs`) and the what-if (`change.rs`) read this one table.

use super::read::IntRange;
use crate::kafka::config::Config;

pub(crate) struct Setting {
    /// The file's name (and `Config`'s field's).
    pub file: &'static str,
    /// Kafka's name, where Kafka has the setting.
    pub kafka: Option<&'static str>,
    pub range: IntRange<'static>,
    /// Whether a what-if may change it: not the number of brokers, which every action's broker
    /// and every topic's replication factor were checked against.
    pub what_if: bool,
    pub set: fn(&mut Config, u64),
}

impl Setting {
    /// As a what-if names it: Kafka's name where Kafka has one, else the file's.
    pub fn what_if_name(&self) -> &'static str {
        self.kafka.unwrap_or(self.file)
    }
}

/// Kafka's int config bound: times and counts are Java ints.
const JAVA_INT_MAX: i128 = i32::MAX as i128;
const TIME_MS: IntRange = IntRange::new(0, JAVA_INT_MAX);

/// A setting of `Config`'s field `$field`, a time in ms or a count up to a Java int, which a
/// what-if may change.
macro_rules! setting {
    ($field:ident, $kafka:expr, $range:expr) => {
        Setting {
            file: stringify!($field),
            kafka: $kafka,
            range: $range,
            what_if: true,
            // The ranges bound every value to the field's type, so the cast cannot truncate.
            set: |c, v| c.$field = v as _,
        }
    };
}

pub(crate) const SETTINGS: &[Setting] = &[
    Setting {
        what_if: false,
        ..setting!(brokers, None, IntRange::new(1, 64))
    },
    // Kafka: `min.insync.replicas` is validated `atLeast(1)`.
    setting!(
        min_insync_replicas,
        Some("min.insync.replicas"),
        IntRange::new(1, JAVA_INT_MAX)
    ),
    setting!(
        replica_lag_time_max_ms,
        Some("replica.lag.time.max.ms"),
        TIME_MS
    ),
    setting!(
        replica_fetch_wait_max_ms,
        Some("replica.fetch.wait.max.ms"),
        TIME_MS
    ),
    setting!(network_delay_ms, None, TIME_MS),
    setting!(alter_partition_delay_ms, None, TIME_MS),
    setting!(
        broker_session_timeout_ms,
        Some("broker.session.timeout.ms"),
        TIME_MS
    ),
    setting!(
        broker_heartbeat_interval_ms,
        Some("broker.heartbeat.interval.ms"),
        TIME_MS
    ),
    setting!(
        producer_purgatory_purge_interval_requests,
        Some("producer.purgatory.purge.interval.requests"),
        IntRange::new(0, JAVA_INT_MAX)
    ),
    setting!(request_timeout_ms, Some("request.timeout.ms"), TIME_MS),
    // Kafka's setting is in seconds (`leader.imbalance.check.interval.seconds`): the file's name
    // only.
    setting!(leader_imbalance_check_interval_ms, None, TIME_MS),
];

/// The settings' file names, in the file's order (the reader's known fields).
pub(crate) fn file_names() -> Vec<&'static str> {
    SETTINGS.iter().map(|s| s.file).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_setting_sets_its_own_field_and_every_field_is_one() {
        let mut config = Config::default();
        for (i, s) in SETTINGS.iter().enumerate() {
            (s.set)(&mut config, 1_000 + i as u64);
        }
        let json = serde_json::to_value(&config).unwrap();
        for (i, s) in SETTINGS.iter().enumerate() {
            assert_eq!(json[s.file], 1_000 + i as u64, "{}", s.file);
        }
        assert_eq!(json.as_object().unwrap().len(), SETTINGS.len());
    }
}
