//! Breakpoints: conditions on the trace that stop the clock while it plays. Each is decided from
//! the events of the instant the playhead just ran (or, for a stalled HW, from the run's state and
//! history), never from what the page drew, so a breakpoint fires at the same instant in every
//! replay of the same run.

use serde::Serialize;
use serde_json::Value;

use super::history::History;
use super::words::{Field, Words};
use crate::kafka::trace::{Event, TpName, TraceEvent};
use crate::kafka::BrokerId;
use crate::scenario::read::{check_fields, integer, object, string, IntRange, Read};
use crate::scenario::{Path, ScenarioError};
use crate::sim::Simulation;
use std::collections::BTreeMap;

const FIELDS: &[&str] = &[
    "answered",
    "expiry",
    "isr_below_min",
    "isr_change",
    "hw_stalled_ms",
    "leader_change",
    "purge",
];
const STALL_MS: IntRange = IntRange::new(1, i32::MAX as i128);

/// Which answers stop the clock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answered {
    Any,
    /// An answer with an error on some partition (or a closed connection).
    Error,
    /// The answer to this request.
    Request(String),
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BreakpointSpec {
    pub answered: Option<Answered>,
    /// A produce request expired on the timer.
    pub expiry: bool,
    /// A partition's committed ISR dropped below `min.insync.replicas`.
    pub isr_below_min: bool,
    /// A partition's ISR change was committed (a shrink or an expand).
    pub isr_change: bool,
    /// The HW of a partition has not moved for this long while requests wait on it.
    pub hw_stalled_ms: Option<u64>,
    /// A partition got a new leader.
    pub leader_change: bool,
    /// A produce purgatory was purged.
    pub purge: bool,
}

impl BreakpointSpec {
    /// Reads `{answered?: "any" | "error" | {request}, expiry?, isr_below_min?, isr_change?,
    /// hw_stalled_ms?, leader_change?, purge?}`; errors name the field
    /// (`breakpoints.hw_stalled_ms: ...`).
    pub fn from_value(value: &Value) -> Result<Self, ScenarioError> {
        let root = Path::Root;
        let path = root.key("breakpoints");
        let fields = object(value, &path, "an object of breakpoints")?;
        check_fields(fields, &path, FIELDS)?;
        let flag = |name: &str| -> Read<bool> {
            match fields.get(name) {
                None | Some(Value::Null) => Ok(false),
                Some(Value::Bool(b)) => Ok(*b),
                Some(other) => Err(path.key(name).expected("true or false", other)),
            }
        };
        let answered = match fields.get("answered") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if s == "any" => Some(Answered::Any),
            Some(Value::String(s)) if s == "error" => Some(Answered::Error),
            Some(Value::Object(o)) => {
                let at = path.key("answered");
                check_fields(o, &at, &["request"])?;
                let id = o.get("request").ok_or_else(|| {
                    at.key("request")
                        .error("required field is missing; expected a request id")
                })?;
                Some(Answered::Request(
                    string(id, &at.key("request"))?.to_owned(),
                ))
            }
            Some(other) => {
                return Err(path
                    .key("answered")
                    .expected("\"any\", \"error\" or {\"request\": ID}", other))
            }
        };
        let hw_stalled_ms = match fields.get("hw_stalled_ms") {
            None | Some(Value::Null) => None,
            Some(v) => Some(integer(v, &path.key("hw_stalled_ms"), STALL_MS)? as u64),
        };
        Ok(BreakpointSpec {
            answered,
            expiry: flag("expiry")?,
            isr_below_min: flag("isr_below_min")?,
            isr_change: flag("isr_change")?,
            hw_stalled_ms,
            leader_change: flag("leader_change")?,
            purge: flag("purge")?,
        })
    }
}

/// A breakpoint that fired.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hit {
    /// The breakpoint's field name (`expiry`, `isr_below_min`, ...).
    pub kind: &'static str,
    pub at_ms: u64,
    /// The trace event that fired it (none for a stalled HW, which is the absence of one).
    pub event: Option<u64>,
    pub says: HitSays,
    /// What other breakpoints the same instant fired, in trace order: the run stops once for an
    /// instant, so they are said together (a play on goes past them all).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<HitSays>,
}

/// What a breakpoint's hit says: the fields of its sentence, which the page words in the reader's
/// language (the `hit.<what>` messages of www/i18n/*/model.js).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HitSays {
    /// `outcome`: the first error that is not NONE, else NONE.
    Answered {
        request: String,
        outcome: &'static str,
    },
    Closed {
        request: String,
    },
    /// The producer's own request.timeout.ms ran out first.
    ClientTimedOut {
        request: String,
    },
    Expired {
        request: Option<String>,
    },
    Committed {
        tp: TpName,
        isr: Vec<BrokerId>,
    },
    Purged {
        broker: BrokerId,
        removed: u64,
    },
    /// The ISR fell below min.insync.replicas.
    BelowMin {
        tp: TpName,
        size: usize,
        min: usize,
    },
    /// The partition's leader changed (`None`: no leader).
    Leader {
        tp: TpName,
        leader: Option<BrokerId>,
    },
    Stalled {
        tp: TpName,
        waited_ms: u64,
    },
}

impl HitSays {
    /// The sentence's name and fields, as they cross to the page.
    #[inline(never)]
    fn words(&self) -> Words<'_> {
        use Field::*;
        let (what, fields): (&'static str, Vec<(&'static str, Field)>) = match self {
            HitSays::Answered { request, outcome } => (
                "answered",
                vec![("request", Text(request)), ("outcome", Text(outcome))],
            ),
            HitSays::Closed { request } => ("closed", vec![("request", Text(request))]),
            HitSays::ClientTimedOut { request } => {
                ("clientTimedOut", vec![("request", Text(request))])
            }
            HitSays::Expired { request } => (
                "expired",
                vec![("request", request.as_deref().map_or(Null, Text))],
            ),
            HitSays::Committed { tp, isr } => {
                ("committed", vec![("tp", Text(tp)), ("isr", Brokers(isr))])
            }
            HitSays::Purged { broker, removed } => (
                "purged",
                vec![
                    ("broker", Broker(Some(*broker))),
                    ("removed", Number(*removed)),
                ],
            ),
            HitSays::BelowMin { tp, size, min } => (
                "below_min",
                vec![
                    ("tp", Text(tp)),
                    ("size", Number(*size as u64)),
                    ("min", Number(*min as u64)),
                ],
            ),
            HitSays::Leader { tp, leader } => (
                "leader",
                vec![("tp", Text(tp)), ("leader", Broker(*leader))],
            ),
            HitSays::Stalled { tp, waited_ms } => (
                "stalled",
                vec![("tp", Text(tp)), ("waited_ms", Number(*waited_ms))],
            ),
        };
        Words { what, fields }
    }
}

impl Serialize for HitSays {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.words().serialize(serializer)
    }
}

/// A stalled-HW deadline: when it passes, the breakpoint fires.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stall {
    pub deadline_ms: u64,
    tp: TpName,
    since_ms: u64,
}

#[derive(Clone, Debug, Default)]
pub struct Breakpoints {
    pub spec: BreakpointSpec,
    /// Per partition, at the controller, as the playhead knows it.
    partitions: BTreeMap<TpName, Seen>,
    /// Stalls that already fired: `(partition, since)` (a person sees each one, so there are few).
    stalls_fired: Vec<(TpName, u64)>,
}

/// A partition as the breakpoints follow it.
#[derive(Clone, Copy, Debug)]
struct Seen {
    /// Its assignment's size, which caps `min.insync.replicas` (Kafka's `effectiveMinIsr`).
    replicas: usize,
    /// The committed ISR's size and the leader.
    isr_size: usize,
    leader: Option<BrokerId>,
}

impl Breakpoints {
    /// Takes the controller's view from the run the playhead is on (after a jump).
    pub fn sync(&mut self, sim: &Simulation) {
        self.partitions.clear();
        for p in sim.controller().partitions.values() {
            let seen = Seen {
                replicas: p.assignment.len(),
                isr_size: p.isr.len(),
                leader: p.leader,
            };
            self.partitions.insert(sim.tp_name(p.tp), seen);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.spec == BreakpointSpec::default()
    }

    /// The first breakpoint the events of one instant fire, if any, with what the others it fires
    /// say (`also`). Every event is checked: each keeps the view of the partitions up to date.
    pub fn check(&mut self, events: &[TraceEvent], min_insync_replicas: usize) -> Option<Hit> {
        let mut hit: Option<Hit> = None;
        for e in events {
            let Some(found) = self.check_one(e, min_insync_replicas) else {
                continue;
            };
            match &mut hit {
                None => hit = Some(found),
                Some(first) => {
                    if first.says != found.says && !first.also.contains(&found.says) {
                        first.also.push(found.says);
                    }
                }
            }
        }
        hit
    }

    fn check_one(&mut self, e: &TraceEvent, min_isr: usize) -> Option<Hit> {
        let spec = &self.spec;
        let fire = |kind: &'static str, says: HitSays| {
            Some(Hit {
                kind,
                at_ms: e.at_ms,
                event: Some(e.id.0),
                says,
                also: Vec::new(),
            })
        };
        match &e.event {
            // An answer into a connection the producer closed is nobody's answer.
            Event::ProduceResponseSent {
                client_gone: true, ..
            } => None,
            Event::ProduceResponseSent {
                request,
                partitions,
                ..
            } => {
                let error = partitions.iter().map(|p| p.error).find(|&x| x != "NONE");
                let wanted = match &spec.answered {
                    Some(Answered::Any) => true,
                    Some(Answered::Error) => error.is_some(),
                    Some(Answered::Request(id)) => id == request,
                    None => false,
                };
                let says = HitSays::Answered {
                    request: request.clone(),
                    outcome: error.unwrap_or("NONE"),
                };
                wanted.then(|| fire("answered", says))?
            }
            // The request's end as the producer sees it: never an answer of NONE.
            Event::ConnectionClosed { request, .. }
            | Event::ClientRequestTimedOut { request, .. } => {
                let wanted = match &spec.answered {
                    Some(Answered::Any | Answered::Error) => true,
                    Some(Answered::Request(id)) => id == request,
                    None => false,
                };
                let request = request.clone();
                let says = if matches!(e.event, Event::ConnectionClosed { .. }) {
                    HitSays::Closed { request }
                } else {
                    HitSays::ClientTimedOut { request }
                };
                wanted.then(|| fire("answered", says))?
            }
            Event::OperationExpired {
                purgatory: "produce",
                request,
                ..
            } if spec.expiry => fire(
                "expiry",
                HitSays::Expired {
                    request: request.clone(),
                },
            ),
            Event::IsrChangeCommitted { tp, isr, .. } if spec.isr_change => fire(
                "isr_change",
                HitSays::Committed {
                    tp: tp.clone(),
                    isr: isr.clone(),
                },
            ),
            Event::Purged {
                purgatory: "produce",
                broker,
                removed,
                ..
            } if spec.purge => fire(
                "purge",
                HitSays::Purged {
                    broker: *broker,
                    removed: *removed as u64,
                },
            ),
            Event::PartitionChanged {
                tp, leader, isr, ..
            } => {
                let now = Seen {
                    isr_size: isr.len(),
                    leader: *leader,
                    replicas: self.partitions.get(tp).map_or(isr.len(), |p| p.replicas),
                };
                let was = self.partitions.insert(tp.clone(), now).unwrap_or(now);
                let (was_size, was_leader) = (was.isr_size, was.leader);
                // Kafka's `Partition.isUnderMinIsr` compares with `effectiveMinIsr`: the setting
                // capped at the replica count.
                let min_isr = min_isr.min(now.replicas);
                if self.spec.isr_below_min && was_size >= min_isr && isr.len() < min_isr {
                    return fire(
                        "isr_below_min",
                        HitSays::BelowMin {
                            tp: tp.clone(),
                            size: isr.len(),
                            min: min_isr,
                        },
                    );
                }
                if self.spec.leader_change && was_leader != *leader {
                    let says = HitSays::Leader {
                        tp: tp.clone(),
                        leader: *leader,
                    };
                    return fire("leader_change", says);
                }
                None
            }
            _ => None,
        }
    }

    /// The next stalled-HW deadline after now, if the breakpoint is set and requests wait. A
    /// deadline already passed does not fire: the breakpoint stops the clock as it crosses one.
    pub fn next_stall(&self, sim: &Simulation, history: &History) -> Option<Stall> {
        let stall_ms = self.spec.hw_stalled_ms?;
        let now = sim.now_ms();
        let mut oldest: BTreeMap<TpName, u64> = BTreeMap::new();
        for broker in sim.brokers().iter().filter(|b| b.running) {
            for (_, op) in broker.produce_purgatory.waiting() {
                for status in op.partitions.iter().filter(|s| s.acks_pending) {
                    let since = oldest
                        .entry(sim.tp_name(status.tp))
                        .or_insert(op.created_ms);
                    *since = (*since).min(op.created_ms);
                }
            }
        }
        oldest
            .into_iter()
            .map(|(tp, waiting_since)| {
                let moved = history.last_hw_move(&tp, now).unwrap_or(0);
                let since_ms = waiting_since.max(moved);
                Stall {
                    deadline_ms: since_ms.saturating_add(stall_ms),
                    tp,
                    since_ms,
                }
            })
            .filter(|s| s.deadline_ms > now)
            .filter(|s| {
                !self
                    .stalls_fired
                    .iter()
                    .any(|(tp, since)| *tp == s.tp && *since == s.since_ms)
            })
            .min_by_key(|s| s.deadline_ms)
    }

    /// Records that a stall fired at its deadline and says so.
    pub fn fire_stall(&mut self, stall: Stall) -> Hit {
        let Stall {
            deadline_ms,
            tp,
            since_ms,
        } = stall;
        let waited = deadline_ms - since_ms;
        if !self
            .stalls_fired
            .iter()
            .any(|(t, since)| *t == tp && *since == since_ms)
        {
            self.stalls_fired.push((tp.clone(), since_ms));
        }
        Hit {
            kind: "hw_stalled_ms",
            at_ms: deadline_ms,
            event: None,
            says: HitSays::Stalled {
                tp,
                waited_ms: waited,
            },
            also: Vec::new(),
        }
    }
}
