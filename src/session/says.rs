//! What a timeline marker says: the fields of its sentence, as they cross to the page.

use serde::Serialize;

use super::words::{Field, Words};
use crate::kafka::trace::TpName;
use crate::kafka::BrokerId;

/// What a marker says: the fields of its sentence, which the page words in the reader's language
/// (the `marker.<what>` messages of www/i18n/*/model.js), so no English is made here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Says {
    /// A produce request reached its broker.
    Sent {
        request: String,
        acks: i64,
        broker: BrokerId,
    },
    /// Answered: `error` is the first error that is not NONE, else NONE.
    Answered {
        request: String,
        error: &'static str,
        latency_ms: u64,
    },
    Closed {
        request: String,
    },
    /// The producer's own request.timeout.ms ran out first.
    ClientTimedOut {
        request: String,
    },
    Expired {
        request: String,
        partitions: Vec<TpName>,
    },
    Hw {
        tp: TpName,
        from: u64,
        to: u64,
        leader: BrokerId,
    },
    Shrink {
        leader: BrokerId,
        tp: TpName,
        isr: Vec<BrokerId>,
    },
    Expand {
        leader: BrokerId,
        tp: TpName,
        isr: Vec<BrokerId>,
    },
    Committed {
        tp: TpName,
        isr: Vec<BrokerId>,
    },
    Fenced {
        broker: BrokerId,
    },
    Unfenced {
        broker: BrokerId,
    },
    /// Acknowledged offsets a new leader's log lacks.
    Lost {
        request: String,
        tp: TpName,
        first_offset: u64,
        last_offset: u64,
        leader: BrokerId,
    },
    Leader {
        broker: BrokerId,
        tp: TpName,
        epoch: u32,
    },
    Purged {
        broker: BrokerId,
        removed: u64,
    },
    Paused {
        broker: BrokerId,
    },
    Resumed {
        broker: BrokerId,
    },
    Crashed {
        broker: BrokerId,
    },
    Restarted {
        broker: BrokerId,
    },
    /// An action the model could not carry out; `reason` is the trace event's (English, as the
    /// trace contract has it: src/kafka/reasons.rs; the page words it through www/says.js).
    Ignored {
        action: &'static str,
        reason: String,
    },
}

impl Says {
    /// The sentence's name and fields, as they cross to the page.
    #[inline(never)]
    fn words(&self) -> Words<'_> {
        use Field::*;
        let one = |b: &BrokerId| Broker(Some(*b));
        let (what, fields): (&'static str, Vec<(&'static str, Field)>) = match self {
            Says::Sent {
                request,
                acks,
                broker,
            } => (
                "sent",
                vec![
                    ("request", Text(request)),
                    ("acks", Signed(*acks)),
                    ("broker", one(broker)),
                ],
            ),
            Says::Answered {
                request,
                error,
                latency_ms,
            } => (
                "answered",
                vec![
                    ("request", Text(request)),
                    ("error", Text(error)),
                    ("latency_ms", Number(*latency_ms)),
                ],
            ),
            Says::Closed { request } => ("closed", vec![("request", Text(request))]),
            Says::ClientTimedOut { request } => {
                ("clientTimedOut", vec![("request", Text(request))])
            }
            Says::Expired {
                request,
                partitions,
            } => (
                "expired",
                vec![
                    ("request", Text(request)),
                    ("partitions", Partitions(partitions)),
                ],
            ),
            Says::Hw {
                tp,
                from,
                to,
                leader,
            } => (
                "hw",
                vec![
                    ("tp", Text(tp)),
                    ("from", Number(*from)),
                    ("to", Number(*to)),
                    ("leader", one(leader)),
                ],
            ),
            Says::Shrink { leader, tp, isr } => (
                "shrink",
                vec![
                    ("leader", one(leader)),
                    ("tp", Text(tp)),
                    ("isr", Brokers(isr)),
                ],
            ),
            Says::Expand { leader, tp, isr } => (
                "expand",
                vec![
                    ("leader", one(leader)),
                    ("tp", Text(tp)),
                    ("isr", Brokers(isr)),
                ],
            ),
            Says::Committed { tp, isr } => {
                ("committed", vec![("tp", Text(tp)), ("isr", Brokers(isr))])
            }
            Says::Lost {
                request,
                tp,
                first_offset,
                last_offset,
                leader,
            } => (
                "lost",
                vec![
                    ("request", Text(request)),
                    ("tp", Text(tp)),
                    ("first_offset", Number(*first_offset)),
                    ("last_offset", Number(*last_offset)),
                    ("leader", one(leader)),
                ],
            ),
            Says::Leader { broker, tp, epoch } => (
                "leader",
                vec![
                    ("broker", one(broker)),
                    ("tp", Text(tp)),
                    ("epoch", Number(u64::from(*epoch))),
                ],
            ),
            Says::Purged { broker, removed } => (
                "purged",
                vec![("broker", one(broker)), ("removed", Number(*removed))],
            ),
            Says::Fenced { broker } => ("fenced", vec![("broker", one(broker))]),
            Says::Unfenced { broker } => ("unfenced", vec![("broker", one(broker))]),
            Says::Paused { broker } => ("paused", vec![("broker", one(broker))]),
            Says::Resumed { broker } => ("resumed", vec![("broker", one(broker))]),
            Says::Crashed { broker } => ("crashed", vec![("broker", one(broker))]),
            Says::Restarted { broker } => ("restarted", vec![("broker", one(broker))]),
            Says::Ignored { action, reason } => (
                "ignored",
                vec![("action", Text(action)), ("reason", Text(reason))],
            ),
        };
        Words { what, fields }
    }
}

impl Serialize for Says {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.words().serialize(serializer)
    }
}
