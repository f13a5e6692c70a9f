//! The simulation's agenda: what happens at which millisecond. Ties at the same millisecond are
//! broken by the order things were scheduled (a sequence number), as the contract requires.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};
use std::rc::Rc;

use crate::kafka::messages::{FetchRequest, FetchResponse};
use crate::kafka::metadata::MetadataDelta;
use crate::kafka::partition::AlterPartitionProposal;
use crate::kafka::trace::EventId;
use crate::kafka::BrokerId;

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
    /// A broker's ISR check; `incarnation` is its process's (a restart starts a new series,
    /// and the old one's next check finds it stale and ends).
    IsrExpiration {
        broker: BrokerId,
        incarnation: u64,
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
    /// The broker whose purgatories this may change, so its reaper wake is refreshed after it.
    /// A fetch response, a fetcher wake or a failed fetch only drives a follower's fetcher,
    /// which never touches a purgatory (and the controller's own events touch no broker).
    pub fn purgatory_broker(&self) -> Option<BrokerId> {
        match self {
            Scheduled::FetchArrives(r) => Some(r.leader),
            Scheduled::AlterPartitionDone { leader, .. } => Some(*leader),
            Scheduled::ReaperWake { broker }
            | Scheduled::IsrExpiration { broker, .. }
            | Scheduled::MetadataArrives { broker, .. } => Some(*broker),
            Scheduled::FetchResponseArrives(_)
            | Scheduled::FetchFailed { .. }
            | Scheduled::FetcherWake { .. }
            | Scheduled::SessionExpiry { .. }
            | Scheduled::RegistrationArrives { .. } => None,
        }
    }
}

#[derive(Clone)]
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

/// Two lanes merged by `(at_ms, seq)`, so items pop in exactly the order one heap would give.
/// Fetches and their responses, most of the agenda's traffic, take one fixed network delay and
/// are sent as the clock moves forward, so they arrive in the order they were sent: they wait in
/// a FIFO at O(1) each. Everything else (timers, back-offs) waits in the heap.
#[derive(Clone, Default)]
pub struct Agenda {
    heap: BinaryHeap<Entry>,
    in_order: VecDeque<Entry>,
    next_seq: u64,
}

impl Agenda {
    pub fn schedule(&mut self, at_ms: u64, what: Scheduled, cause: Option<EventId>) {
        let entry = self.entry(at_ms, what, cause);
        self.heap.push(entry);
    }

    /// Schedules a message that travels for the network delay. It joins the FIFO when it is due
    /// no earlier than the FIFO's last item (always, for one fixed delay and a clock that only
    /// moves forward); otherwise the heap keeps the order.
    pub fn schedule_delivery(&mut self, at_ms: u64, what: Scheduled, cause: Option<EventId>) {
        let entry = self.entry(at_ms, what, cause);
        if self.in_order.back().is_none_or(|last| last.at_ms <= at_ms) {
            self.in_order.push_back(entry);
        } else {
            self.heap.push(entry);
        }
    }

    fn entry(&mut self, at_ms: u64, what: Scheduled, cause: Option<EventId>) -> Entry {
        let seq = self.next_seq;
        self.next_seq += 1;
        Entry {
            at_ms,
            seq,
            what,
            cause,
        }
    }

    /// The agenda's sequence counter, for a caller that needs a place in the schedule without
    /// scheduling an item: a delayed operation's timeout counts as scheduled when the operation
    /// is added (scenario-format.md, "Timing rules"), so it takes the next sequence number then,
    /// and expires, when due, among the items of its millisecond by that number.
    pub fn seq_counter(&mut self) -> &mut u64 {
        &mut self.next_seq
    }

    /// The sequence number of the next item if it is due at or before `now_ms`.
    pub fn next_due_seq(&self, now_ms: u64) -> Option<u64> {
        self.earliest().filter(|e| e.at_ms <= now_ms).map(|e| e.seq)
    }

    /// Whether the earliest item waits in the FIFO (`None` when both lanes are empty).
    fn earliest_in_order(&self) -> Option<bool> {
        match (self.in_order.front(), self.heap.peek()) {
            // `Entry`'s order is reversed for the max-heap: greater is earlier.
            (Some(fifo), Some(heap)) => Some(fifo > heap),
            (Some(_), None) => Some(true),
            (None, Some(_)) => Some(false),
            (None, None) => None,
        }
    }

    fn earliest(&self) -> Option<&Entry> {
        if self.earliest_in_order()? {
            self.in_order.front()
        } else {
            self.heap.peek()
        }
    }

    pub fn next_at_ms(&self) -> Option<u64> {
        self.earliest().map(|e| e.at_ms)
    }

    /// The next item if it is due at or before `now_ms`.
    pub fn pop_due(&mut self, now_ms: u64) -> Option<(Scheduled, Option<EventId>)> {
        // The lanes are compared once: every delivery and timer of the run comes through here.
        let in_order = self.earliest_in_order()?;
        let earliest = if in_order {
            self.in_order.front()
        } else {
            self.heap.peek()
        };
        if earliest?.at_ms > now_ms {
            return None;
        }
        let entry = if in_order {
            self.in_order.pop_front()
        } else {
            self.heap.pop()
        };
        entry.map(|e| (e.what, e.cause))
    }

    pub fn len(&self) -> usize {
        self.heap.len() + self.in_order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty() && self.in_order.is_empty()
    }

    /// Items in flight, in the order they will be processed (for the page to draw messages
    /// travelling).
    pub fn iter(&self) -> impl Iterator<Item = (u64, &Scheduled)> {
        self.iter_placed().map(|(at_ms, _, what)| (at_ms, what))
    }

    /// Items with their places (time, sequence number), in the order they will be processed.
    pub fn iter_placed(&self) -> impl Iterator<Item = (u64, u64, &Scheduled)> {
        let mut all: Vec<&Entry> = self.heap.iter().chain(&self.in_order).collect();
        all.sort_by(|a, b| b.cmp(a)); // `Entry`'s order is reversed: earliest first
        all.into_iter().map(|e| (e.at_ms, e.seq, &e.what))
    }

    /// Empties the agenda, handing back every item with its place, in the order they would have
    /// been processed; the sequence counter stays. With [`Self::put_back`], for the idle
    /// fast-forward, which moves items in time.
    pub fn take_all(&mut self) -> Vec<Placed> {
        let mut all: Vec<Entry> = self.heap.drain().chain(self.in_order.drain(..)).collect();
        all.sort_unstable_by(|a, b| b.cmp(a));
        all.into_iter()
            .map(|e| Placed {
                at_ms: e.at_ms,
                seq: e.seq,
                what: e.what,
                cause: e.cause,
            })
            .collect()
    }

    /// Forgets which trace event scheduled each item (an idle stretch begins: see
    /// `fast_forward`). The order is kept: it is the entries' place, not their cause.
    pub fn forget_causes(&mut self) {
        let mut heap = std::mem::take(&mut self.heap).into_vec();
        for entry in heap.iter_mut().chain(self.in_order.iter_mut()) {
            entry.cause = None;
        }
        self.heap = BinaryHeap::from(heap);
    }

    /// Puts an item back at the place it names, which no other item may hold. Items put back in
    /// processing order keep the network's deliveries in their FIFO lane.
    pub fn put_back(&mut self, item: Placed) {
        let entry = Entry {
            at_ms: item.at_ms,
            seq: item.seq,
            what: item.what,
            cause: item.cause,
        };
        let delivery = matches!(
            entry.what,
            Scheduled::FetchArrives(_) | Scheduled::FetchResponseArrives(_)
        );
        if delivery && self.in_order.back().is_none_or(|last| *last > entry) {
            self.in_order.push_back(entry);
        } else {
            self.heap.push(entry);
        }
    }
}

/// An item taken off the agenda ([`Agenda::take_all`]) with its place.
pub struct Placed {
    pub at_ms: u64,
    pub seq: u64,
    pub what: Scheduled,
    pub cause: Option<EventId>,
}
