//! Where each broker's periodic work falls (scenario-format.md, "Phases"). Kafka runs its ISR
//! check every `replica.lag.time.max.ms / 2` and its heartbeats every
//! `broker.heartbeat.interval.ms` from when the broker started, not from when a person acts: on a
//! real cluster a scenario's t = 0 lands anywhere on those beats. Broker b's ISR check runs at
//! φ_b, φ_b + L/2, ... and its heartbeats go at ψ_b, ψ_b + H, ...; without phases every beat starts
//! at t = 0, which is what a file without them has always meant.

use serde::{Serialize, Serializer};

use super::action::BrokerId;

/// One beat's phase: the same for every broker, or one per broker (as the file wrote it, so that
/// it is written back the same way).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BeatPhase {
    Every(u64),
    PerBroker(Vec<u64>),
}

impl Default for BeatPhase {
    fn default() -> Self {
        BeatPhase::Every(0)
    }
}

impl BeatPhase {
    /// Broker `b`'s phase in ms.
    pub fn of(&self, broker: BrokerId) -> u64 {
        match self {
            BeatPhase::Every(ms) => *ms,
            BeatPhase::PerBroker(each) => each.get(broker.0 as usize).copied().unwrap_or(0),
        }
    }

    /// Every broker's phase is 0: the beat as a file without phases has it.
    pub fn is_zero(&self) -> bool {
        match self {
            BeatPhase::Every(ms) => *ms == 0,
            BeatPhase::PerBroker(each) => each.iter().all(|ms| *ms == 0),
        }
    }
}

impl Serialize for BeatPhase {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            BeatPhase::Every(ms) => s.serialize_u64(*ms),
            BeatPhase::PerBroker(each) => each.serialize(s),
        }
    }
}

/// The phases of a scenario's beats (its optional `phases` object).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Phases {
    #[serde(skip_serializing_if = "BeatPhase::is_zero")]
    pub isr_check_ms: BeatPhase,
    #[serde(skip_serializing_if = "BeatPhase::is_zero")]
    pub heartbeat_ms: BeatPhase,
}

impl Phases {
    /// Every beat at t = 0 (a file without `phases`, or with every value 0).
    pub fn is_zero(&self) -> bool {
        self.isr_check_ms.is_zero() && self.heartbeat_ms.is_zero()
    }

    /// The last heartbeat broker `b` sent at or before `at_ms`, or `None` when its first beat is
    /// still ahead. The process the run starts with beats on its phase's grid ψ + k·H; a restarted
    /// one (`restarted_at_ms`: its start, or its registration the controller accepted) beats at
    /// once and every H after it (scenario-format.md, "Phases"; Kafka's `BrokerLifecycleManager`
    /// sends each heartbeat one interval after the last, from the registration on). `interval_ms`
    /// 0 counts as 1 (a beat every ms; Kafka refuses 0 outright).
    pub fn last_heartbeat_at_or_before(
        &self,
        broker: BrokerId,
        restarted_at_ms: Option<u64>,
        interval_ms: u64,
        at_ms: u64,
    ) -> Option<u64> {
        let h = interval_ms.max(1);
        let origin = restarted_at_ms.unwrap_or_else(|| self.heartbeat_ms.of(broker));
        (at_ms >= origin).then(|| origin + (at_ms - origin) / h * h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_per_broker_and_their_heartbeat_grid() {
        let p = Phases {
            isr_check_ms: BeatPhase::Every(7300),
            heartbeat_ms: BeatPhase::PerBroker(vec![0, 1200, 600]),
        };
        assert_eq!(p.isr_check_ms.of(BrokerId(2)), 7300);
        assert_eq!(p.heartbeat_ms.of(BrokerId(1)), 1200);
        assert_eq!(
            p.last_heartbeat_at_or_before(BrokerId(1), None, 2000, 1199),
            None
        );
        assert_eq!(
            p.last_heartbeat_at_or_before(BrokerId(1), None, 2000, 1200),
            Some(1200)
        );
        assert_eq!(
            p.last_heartbeat_at_or_before(BrokerId(1), None, 2000, 5199),
            Some(3200)
        );
        assert_eq!(
            p.last_heartbeat_at_or_before(BrokerId(0), None, 2000, 3999),
            Some(2000)
        );
        // Restarted at 20,500: beats at 20,500, 22,500, 24,500, whatever its phase.
        assert_eq!(
            p.last_heartbeat_at_or_before(BrokerId(1), Some(20_500), 2000, 24_999),
            Some(24_500)
        );
        assert!(!p.is_zero());
        assert!(Phases::default().is_zero());
        assert_eq!(
            serde_json::to_string(&p).unwrap(),
            r#"{"isr_check_ms":7300,"heartbeat_ms":[0,1200,600]}"#
        );
    }
}
