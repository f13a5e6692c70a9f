//! The timeline's markers: which trace events are moments that matter to the story, and what
//! each says, as fields the page words in the reader's language. The history keeps them as the
//! run is computed; the story clock stops at the same events (`is_notable`).

use serde::Serialize;

use super::says::Says;
use crate::kafka::trace::{Event, TraceEvent};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkerKind {
    /// A produce request reached its broker.
    Produce,
    /// Answered with NONE on every partition.
    Answered,
    /// Answered with an error on some partition.
    Failed,
    /// No answer: the connection closed.
    Closed,
    /// Acknowledged records that a new leader's log lacks.
    Lost,
    Expired,
    Hw,
    IsrProposed,
    IsrCommitted,
    Fenced,
    Unfenced,
    Leader,
    Purge,
    Action,
}

impl MarkerKind {
    /// Which markers a crowded timeline keeps first (lowest first): outcomes and the story's
    /// turns, then answers, purges and ISR proposals, then arrivals, then HW moves.
    pub fn rank(self) -> u8 {
        use MarkerKind::*;
        match self {
            Lost | Failed | Expired | Closed | Leader | Fenced | IsrCommitted | Action => 0,
            Answered | Purge | Unfenced | IsrProposed => 1,
            Produce => 2,
            Hw => 3,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Marker {
    pub at_ms: u64,
    /// The trace event it marks.
    pub id: u64,
    pub kind: MarkerKind,
    /// What it says when a reader hovers it, as fields the page words in the reader's language.
    pub says: Says,
}

/// Whether an event makes a marker on the timeline (a moment that matters to the story), without
/// building the marker.
pub fn is_notable(e: &TraceEvent) -> bool {
    match &e.event {
        Event::OperationExpired { purgatory, .. } | Event::Purged { purgatory, .. } => {
            *purgatory == "produce"
        }
        // An answer into a connection the producer closed: its give-up is the marker.
        Event::ProduceResponseSent {
            client_gone: true, ..
        } => false,
        Event::ProduceReceived { .. }
        | Event::ProduceResponseSent { .. }
        | Event::ConnectionClosed { .. }
        | Event::ClientRequestTimedOut { .. }
        | Event::AcknowledgedRecordsLost { .. }
        | Event::HighWatermarkAdvanced { .. }
        | Event::IsrShrinkProposed { .. }
        | Event::IsrExpandProposed { .. }
        | Event::IsrChangeCommitted { .. }
        | Event::BrokerFenced { .. }
        | Event::BrokerUnfenced { .. }
        | Event::BecameLeader { .. }
        | Event::FollowerPaused { .. }
        | Event::FollowerResumed { .. }
        | Event::BrokerCrashed { .. }
        | Event::BrokerRestarted { .. }
        | Event::ActionIgnored { .. } => true,
        _ => false,
    }
}

/// The marker an event makes on the timeline, if it is one that matters to the story.
pub(super) fn marker(e: &TraceEvent) -> Option<Marker> {
    if !is_notable(e) {
        return None;
    }
    let (kind, says) = match &e.event {
        Event::ProduceReceived {
            request: r,
            broker,
            acks,
            ..
        } => {
            let says = Says::Sent {
                request: r.clone(),
                acks: *acks,
                broker: *broker,
            };
            (MarkerKind::Produce, says)
        }
        Event::ProduceResponseSent {
            request: r,
            latency_ms,
            partitions,
            ..
        } => {
            let error = partitions
                .iter()
                .map(|p| p.error)
                .find(|&err| err != "NONE");
            let kind = if error.is_some() {
                MarkerKind::Failed
            } else {
                MarkerKind::Answered
            };
            let says = Says::Answered {
                request: r.clone(),
                error: error.unwrap_or("NONE"),
                latency_ms: *latency_ms,
            };
            (kind, says)
        }
        Event::ConnectionClosed { request: r, .. } => {
            (MarkerKind::Closed, Says::Closed { request: r.clone() })
        }
        Event::ClientRequestTimedOut { request: r, .. } => (
            MarkerKind::Closed,
            Says::ClientTimedOut { request: r.clone() },
        ),
        Event::OperationExpired {
            purgatory: "produce",
            request: Some(r),
            expired_partitions,
            ..
        } => {
            let says = Says::Expired {
                request: r.clone(),
                partitions: expired_partitions.clone(),
            };
            (MarkerKind::Expired, says)
        }
        Event::HighWatermarkAdvanced {
            broker,
            tp,
            from,
            to,
            ..
        } => (
            MarkerKind::Hw,
            Says::Hw {
                tp: tp.clone(),
                from: *from,
                to: *to,
                leader: *broker,
            },
        ),
        Event::IsrShrinkProposed {
            broker,
            tp,
            proposed_isr,
            ..
        } => (
            MarkerKind::IsrProposed,
            Says::Shrink {
                leader: *broker,
                tp: tp.clone(),
                isr: proposed_isr.clone(),
            },
        ),
        Event::IsrExpandProposed {
            broker,
            tp,
            proposed_isr,
            ..
        } => (
            MarkerKind::IsrProposed,
            Says::Expand {
                leader: *broker,
                tp: tp.clone(),
                isr: proposed_isr.clone(),
            },
        ),
        Event::IsrChangeCommitted { tp, isr, .. } => (
            MarkerKind::IsrCommitted,
            Says::Committed {
                tp: tp.clone(),
                isr: isr.clone(),
            },
        ),
        Event::BrokerFenced { broker, .. } => {
            (MarkerKind::Fenced, Says::Fenced { broker: *broker })
        }
        Event::BrokerUnfenced { broker } => {
            (MarkerKind::Unfenced, Says::Unfenced { broker: *broker })
        }
        Event::AcknowledgedRecordsLost {
            request: r,
            tp,
            first_offset,
            last_offset,
            leader,
            ..
        } => {
            let says = Says::Lost {
                request: r.clone(),
                tp: tp.clone(),
                first_offset: *first_offset,
                last_offset: *last_offset,
                leader: *leader,
            };
            (MarkerKind::Lost, says)
        }
        Event::BecameLeader {
            broker,
            tp,
            leader_epoch,
            ..
        } => (
            MarkerKind::Leader,
            Says::Leader {
                broker: *broker,
                tp: tp.clone(),
                epoch: *leader_epoch,
            },
        ),
        Event::Purged {
            purgatory: "produce",
            broker,
            removed,
            ..
        } => (
            MarkerKind::Purge,
            Says::Purged {
                broker: *broker,
                removed: *removed as u64,
            },
        ),
        Event::FollowerPaused { broker } => (MarkerKind::Action, Says::Paused { broker: *broker }),
        Event::FollowerResumed { broker } => {
            (MarkerKind::Action, Says::Resumed { broker: *broker })
        }
        Event::BrokerCrashed { broker } => (MarkerKind::Action, Says::Crashed { broker: *broker }),
        Event::BrokerRestarted { broker, .. } => {
            (MarkerKind::Action, Says::Restarted { broker: *broker })
        }
        Event::ActionIgnored { action, reason } => (
            MarkerKind::Action,
            Says::Ignored {
                action,
                reason: reason.clone(),
            },
        ),
        _ => return None,
    };
    Some(Marker {
        at_ms: e.at_ms,
        id: e.id.0,
        kind,
        says,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;
    use crate::sim::Simulation;

    /// `is_notable` (which stops a story clock) and `marker` (which draws the timeline) list the
    /// same events: the clock never pauses on an instant without a marker, nor passes a marker.
    #[test]
    fn every_notable_event_of_the_curated_runs_makes_a_marker_and_no_other_does() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios");
        let mut notable = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let scenario = Scenario::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let mut sim = Simulation::from_scenario(&scenario, true).unwrap();
            sim.run_until(scenario.run_until_ms);
            for e in sim.drain_trace() {
                assert_eq!(is_notable(&e), marker(&e).is_some(), "{path:?}: {e:?}");
                notable += usize::from(is_notable(&e));
            }
        }
        assert!(notable > 100, "only {notable} notable events");
    }
}
