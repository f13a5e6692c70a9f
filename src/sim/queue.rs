//! The simulation's agenda: what happens at which millisecond. Ties at the same millisecond are
//! broken by the order things were scheduled (a sequence number), as the contract requires.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};
use std::rc::Rc;

use crate::kafka::messages::{FetchRequest, FetchResponse};
use crate::kafka::metadata::MetadataDelta;
use crate::kafka::partition::AlterPartitionProposal;
use crate::kafka::requests::RequestIdx;
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
    /// A restarted broker's registration (its first heartbeat) reaches the controller.
    RegistrationArrives {
        broker: BrokerId,
        broker_epoch: u64,
    },
    MetadataArrives {
        broker: BrokerId,
        delta: Rc<MetadataDelta>,
    },
    /// The producer's own `request.timeout.ms` runs out for a request whose broker-side timeout
    /// is longer (see `Simulation::on_client_deadline`).
    ClientDeadline {
        request: RequestIdx,
    },
    /// The controller's leader-imbalance check (`leader_imbalance_check_interval_ms`).
    LeaderBalanceCheck,
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
            | Scheduled::RegistrationArrives { .. }
            | Scheduled::ClientDeadline { .. }
            | Scheduled::LeaderBalanceCheck => None,
        }
    }
}

/// An item of the heap lane: its place, and the slot of `Agenda::parked` its payload waits in.
/// The heap sifts these 24 bytes rather than whole items (a fetch request is several times
/// larger): with the payload in the heap, pushing and popping were a third of the Phases sweep's
/// time at opt-level "s" (`perf` on `purgatory sweep`, x12 and s13).
#[derive(Clone, Copy)]
struct HeapPlace {
    at_ms: u64,
    seq: u64,
    slot: u32,
}

/// Places are equal when their (time, sequence) are, as the order has it.
impl PartialEq for HeapPlace {
    fn eq(&self, other: &Self) -> bool {
        (self.at_ms, self.seq) == (other.at_ms, other.seq)
    }
}
impl Eq for HeapPlace {}
impl PartialOrd for HeapPlace {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for HeapPlace {
    /// Reversed, so the max-heap pops the earliest (time, sequence) first. Sequence numbers are
    /// unique, so the slot never decides.
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
    heap: BinaryHeap<HeapPlace>,
    /// The heap's payloads by slot; a popped item's slot is free for the next push.
    parked: Vec<Option<(Scheduled, Option<EventId>)>>,
    free_slots: Vec<u32>,
    in_order: VecDeque<Placed>,
    next_seq: u64,
}

impl Agenda {
    pub fn schedule(&mut self, at_ms: u64, what: Scheduled, cause: Option<EventId>) {
        let seq = self.take_seq();
        self.push_heap(at_ms, seq, what, cause);
    }

    /// Schedules a message that travels for the network delay. It joins the FIFO when it is due
    /// no earlier than the FIFO's last item (always, for one fixed delay and a clock that only
    /// moves forward); otherwise the heap keeps the order.
    pub fn schedule_delivery(&mut self, at_ms: u64, what: Scheduled, cause: Option<EventId>) {
        let seq = self.take_seq();
        if self.in_order.back().is_none_or(|last| last.at_ms <= at_ms) {
            self.in_order.push_back(Placed {
                at_ms,
                seq,
                what,
                cause,
            });
        } else {
            self.push_heap(at_ms, seq, what, cause);
        }
    }

    fn take_seq(&mut self) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        seq
    }

    fn push_heap(&mut self, at_ms: u64, seq: u64, what: Scheduled, cause: Option<EventId>) {
        let payload = Some((what, cause));
        let slot = match self.free_slots.pop() {
            Some(slot) => {
                self.parked[slot as usize] = payload;
                slot
            }
            None => {
                self.parked.push(payload);
                u32::try_from(self.parked.len() - 1).expect("fewer than 2^32 items wait")
            }
        };
        self.heap.push(HeapPlace { at_ms, seq, slot });
    }

    /// Takes the payload out of a slot and frees the slot.
    fn unpark(&mut self, slot: u32) -> (Scheduled, Option<EventId>) {
        self.free_slots.push(slot);
        self.parked[slot as usize]
            .take()
            .expect("a heap place's slot holds its payload")
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
        self.earliest()
            .filter(|(at_ms, _)| *at_ms <= now_ms)
            .map(|(_, seq)| seq)
    }

    /// Whether the earliest item waits in the FIFO (`None` when both lanes are empty).
    fn earliest_in_order(&self) -> Option<bool> {
        match (self.in_order.front(), self.heap.peek()) {
            (Some(fifo), Some(heap)) => Some((fifo.at_ms, fifo.seq) < (heap.at_ms, heap.seq)),
            (Some(_), None) => Some(true),
            (None, Some(_)) => Some(false),
            (None, None) => None,
        }
    }

    /// The earliest item's place `(at_ms, seq)`.
    fn earliest(&self) -> Option<(u64, u64)> {
        if self.earliest_in_order()? {
            self.in_order.front().map(|e| (e.at_ms, e.seq))
        } else {
            self.heap.peek().map(|p| (p.at_ms, p.seq))
        }
    }

    pub fn next_at_ms(&self) -> Option<u64> {
        self.earliest().map(|(at_ms, _)| at_ms)
    }

    /// The next item if it is due at or before `now_ms`.
    pub fn pop_due(&mut self, now_ms: u64) -> Option<(Scheduled, Option<EventId>)> {
        // The lanes are compared once: every delivery and timer of the run comes through here.
        if self.earliest_in_order()? {
            if self.in_order.front()?.at_ms > now_ms {
                return None;
            }
            self.in_order.pop_front().map(|e| (e.what, e.cause))
        } else {
            if self.heap.peek()?.at_ms > now_ms {
                return None;
            }
            let place = self.heap.pop()?;
            Some(self.unpark(place.slot))
        }
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
        let parked = self.heap.iter().map(|p| {
            let (what, _) = self.parked[p.slot as usize]
                .as_ref()
                .expect("a heap place's slot holds its payload");
            (p.at_ms, p.seq, what)
        });
        let fifo = self.in_order.iter().map(|e| (e.at_ms, e.seq, &e.what));
        let mut all: Vec<(u64, u64, &Scheduled)> = parked.chain(fifo).collect();
        all.sort_unstable_by_key(|&(at_ms, seq, _)| (at_ms, seq));
        all.into_iter()
    }

    /// Empties the agenda, handing back every item with its place, in the order they would have
    /// been processed; the sequence counter stays. With [`Self::put_back`], for the idle
    /// fast-forward, which moves items in time.
    pub fn take_all(&mut self) -> Vec<Placed> {
        let places = std::mem::take(&mut self.heap).into_vec();
        let mut parked = std::mem::take(&mut self.parked);
        self.free_slots.clear();
        let mut all: Vec<Placed> = Vec::with_capacity(places.len() + self.in_order.len());
        for place in places {
            let (what, cause) = parked[place.slot as usize]
                .take()
                .expect("a heap place's slot holds its payload");
            all.push(Placed {
                at_ms: place.at_ms,
                seq: place.seq,
                what,
                cause,
            });
        }
        all.extend(self.in_order.drain(..));
        all.sort_unstable_by_key(|p| (p.at_ms, p.seq));
        all
    }

    /// Forgets which trace event scheduled each item (an idle stretch begins: see
    /// `fast_forward`). The order is kept: it is the entries' place, not their cause.
    pub fn forget_causes(&mut self) {
        for (_, cause) in self.parked.iter_mut().flatten() {
            *cause = None;
        }
        for entry in &mut self.in_order {
            entry.cause = None;
        }
    }

    /// Puts an item back at the place it names, which no other item may hold. Items put back in
    /// processing order keep the network's deliveries in their FIFO lane.
    pub fn put_back(&mut self, item: Placed) {
        let delivery = matches!(
            item.what,
            Scheduled::FetchArrives(_) | Scheduled::FetchResponseArrives(_)
        );
        let after_fifo = self
            .in_order
            .back()
            .is_none_or(|last| (last.at_ms, last.seq) < (item.at_ms, item.seq));
        if delivery && after_fifo {
            self.in_order.push_back(item);
        } else {
            self.push_heap(item.at_ms, item.seq, item.what, item.cause);
        }
    }
}

/// An item with its place: as the FIFO lane holds it, and as [`Agenda::take_all`] hands it back.
#[derive(Clone)]
pub struct Placed {
    pub at_ms: u64,
    pub seq: u64,
    pub what: Scheduled,
    /// The trace event that scheduled it (a send, a crash), named as the cause of what it does.
    pub cause: Option<EventId>,
}
