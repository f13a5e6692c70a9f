//! The optional `phases` object (scenario-format.md, "Phases"): each beat's phase, one number for
//! every broker or an array with one per broker, each within its beat's period.

use serde_json::Value;

use super::error::Path;
use super::read::{array, check_fields, integer, object, IntRange, Read};
use crate::kafka::config::Config;
use crate::sim::phases::{BeatPhase, Phases};

const PHASES_FIELDS: &[&str] = &["isr_check_ms", "heartbeat_ms"];

pub(crate) fn read_phases(value: &Value, path: &Path, config: &Config) -> Read<Phases> {
    let fields = object(value, path, "an object `{isr_check_ms, heartbeat_ms}`")?;
    check_fields(fields, path, PHASES_FIELDS)?;
    let mut phases = Phases::default();
    if let Some(v) = fields.get("isr_check_ms") {
        let period = config.isr_expiration_period_ms();
        let range = within(period, " (replica_lag_time_max_ms / 2 − 1)");
        phases.isr_check_ms = read_beat(v, &path.key("isr_check_ms"), range, config.brokers)?;
    }
    if let Some(v) = fields.get("heartbeat_ms") {
        let period = config.broker_heartbeat_interval_ms;
        let range = within(period, " (broker_heartbeat_interval_ms − 1)");
        phases.heartbeat_ms = read_beat(v, &path.key("heartbeat_ms"), range, config.brokers)?;
    }
    Ok(phases)
}

/// 0 .. period − 1, only 0 for a period of 0 (a beat every instant has no phase). `last` names
/// the upper bound as the contract does.
fn within(period_ms: u64, last: &'static str) -> IntRange<'static> {
    IntRange {
        lo: 0,
        hi: period_ms.saturating_sub(1).into(),
        note: if period_ms == 0 {
            " (its period is 0)"
        } else {
            last
        },
    }
}

fn read_beat(value: &Value, path: &Path, range: IntRange, brokers: u32) -> Read<BeatPhase> {
    if value.is_array() {
        let what = format!("an array of {brokers} phases, one per broker");
        let items = array(value, path, &what)?;
        if items.len() != brokers as usize {
            return Err(path.error(format!(
                "expected {what}, found {} {}",
                items.len(),
                if items.len() == 1 { "phase" } else { "phases" }
            )));
        }
        let each = items
            .iter()
            .enumerate()
            .map(|(i, item)| integer(item, &path.index(i), range).map(|ms| ms as u64))
            .collect::<Read<Vec<u64>>>()?;
        return Ok(BeatPhase::PerBroker(each));
    }
    match value {
        Value::Number(_) => Ok(BeatPhase::Every(integer(value, path, range)? as u64)),
        other => Err(path.expected(
            &format!(
                "{} for every broker, or an array of {brokers} (one per broker)",
                range.describe_range()
            ),
            other,
        )),
    }
}
