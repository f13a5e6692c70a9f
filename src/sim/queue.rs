//! The simulation's agenda: what happens at which millisecond. Ties at the same millisecond are
//! broken by the order things were scheduled (a sequence number), as the contract requires.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::rc::Rc;

use crate::kafka::fetch::{FetchRequest, FetchResponse};
use crate::kafka::metadata::MetadataDelta;
use crate::kafka::partition::AlterPartitionProposal;
use crate::kafka::BrokerId;
use crate::trace::EventId;

/// Something scheduled: a message in flight or a timer.
#[derive(Clone, Debug)]
pub enum Scheduled {
    FetchArrives(FetchRequest),
    FetchResponseArrives(FetchResponse),
    /// The follower notices its connection to a dead leader is gone.
    FetchFailed {
        follower: BrokerId,
        leader: BrokerId,
        session: u64,
    },
    /// The controller commits (or refuses) an ISR change, and the leader applies the answer.
    AlterPartitionDone {
        leader: BrokerId,
        proposal: AlterPartitionProposal,
    },
    FetcherWake {
        follower: BrokerId,
        leader: BrokerId,
    },
    /// A purgatory reaper has work (timer bucket or purge).
    ReaperWake {
        broker: BrokerId,
    },
    IsrExpiration {
        broker: BrokerId,
    },
    /// The controller's session timer for a broker that stopped heart-beating.
    SessionExpiry {
        broker: BrokerId,
        incarnation: u64,
    },
    /// A restarted broker's first heartbeat (registration) reaches the controller.
    RegistrationArrives {
        broker: BrokerId,
        broker_epoch: u64,
    },
    MetadataArrives {
        broker: BrokerId,
        delta: Rc<MetadataDelta>,
    },
}

impl Scheduled {
    /// The broker whose state this touches (the controller's own events touch none).
    pub fn broker(&self) -> Option<BrokerId> {
        match self {
            Scheduled::FetchArrives(r) => Some(r.leader),
            Scheduled::FetchResponseArrives(r) => Some(r.follower),
            Scheduled::FetchFailed { follower, .. } | Scheduled::FetcherWake { follower, .. } => {
                Some(*follower)
            }
            Scheduled::AlterPartitionDone { leader, .. } => Some(*leader),
            Scheduled::ReaperWake { broker }
            | Scheduled::IsrExpiration { broker }
            | Scheduled::MetadataArrives { broker, .. } => Some(*broker),
            Scheduled::SessionExpiry { .. } | Scheduled::RegistrationArrives { .. } => None,
        }
    }
}

struct Entry {
    at_ms: u64,
    seq: u64,
    what: Scheduled,
    /// The trace event that scheduled it (a send, a crash), named as the cause of what it does.
    cause: Option<EventId>,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        (self.at_ms, self.seq) == (other.at_ms, other.seq)
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    /// Reversed, so the max-heap pops the earliest (time, sequence) first.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.at_ms, other.seq).cmp(&(self.at_ms, self.seq))
    }
}

#[derive(Default)]
pub struct Agenda {
    heap: BinaryHeap<Entry>,
    next_seq: u64,
}

impl Agenda {
    pub fn schedule(&mut self, at_ms: u64, what: Scheduled, cause: Option<EventId>) {
        self.heap.push(Entry {
            at_ms,
            seq: self.next_seq,
            what,
            cause,
        });
        self.next_seq += 1;
    }

    pub fn next_at_ms(&self) -> Option<u64> {
        self.heap.peek().map(|e| e.at_ms)
    }

    /// The next item if it is due at or before `now_ms`.
    pub fn pop_due(&mut self, now_ms: u64) -> Option<(Scheduled, Option<EventId>)> {
        if self.heap.peek()?.at_ms <= now_ms {
            self.heap.pop().map(|e| (e.what, e.cause))
        } else {
            None
        }
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// Items in flight, in no particular order (for the page to draw messages travelling).
    pub fn iter(&self) -> impl Iterator<Item = (u64, &Scheduled)> {
        self.heap.iter().map(|e| (e.at_ms, &e.what))
    }
}
