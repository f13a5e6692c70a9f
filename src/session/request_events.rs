//! One produce request's story, up to the playhead: the events that name it, those of its
//! DelayedProduce (watched, put on the timer), the checkAndComplete calls and HW moves on its
//! partitions while it waited, ISR changes of those partitions, and the chain of causes that
//! completed it. Replayed from the checkpoint before it arrived, so the code-path view can show
//! any request at any instant, however long ago it was sent.

use super::Session;
use crate::kafka::trace::{Event, TpName, TraceEvent};
use crate::kafka::BrokerId;
use crate::purgatory::OpId;
use crate::sim::action::Action;

/// Most events one story holds (a request that waits a long time on a busy partition sees many
/// checkAndComplete calls; the first and the last ones tell the story).
const MAX_STORY_EVENTS: usize = 400;

impl Session {
    /// The events of request `id`'s story up to the playhead, in trace order; `None` when no
    /// produce action has that id.
    pub fn request_events(&self, id: &str) -> Option<Vec<TraceEvent>> {
        let received_ms = self.actions.iter().find_map(|a| match &a.action.action {
            Action::Produce(p) if &*p.id == id => Some(a.action.at_ms),
            _ => None,
        })?;
        let now = self.now_ms();
        let mut story = Story::new(id);
        if received_ms > now {
            return Some(story.events);
        }
        let mut sim = self.checkpoints.to_replay(received_ms).sim.clone();
        while sim.advance_within(now).is_some() {
            story.instant(sim.drain_trace());
            if story.finished {
                break;
            }
        }
        Some(story.events)
    }
}

struct Story<'a> {
    id: &'a str,
    events: Vec<TraceEvent>,
    broker: Option<BrokerId>,
    op: Option<OpId>,
    keys: Vec<TpName>,
    waiting: bool,
    finished: bool,
}

impl<'a> Story<'a> {
    fn new(id: &'a str) -> Self {
        Story {
            id,
            events: Vec::new(),
            broker: None,
            op: None,
            keys: Vec::new(),
            waiting: false,
            finished: false,
        }
    }

    /// Takes in one instant's events; the whole instant is at hand to follow causes back. The
    /// events kept are moved, not copied, in the instant's order (which is their ids' order).
    fn instant(&mut self, events: Vec<TraceEvent>) {
        let mut keep = vec![false; events.len()];
        let mut completion = None;
        for (i, e) in events.iter().enumerate() {
            if !self.belongs(e) {
                continue;
            }
            if self.is_completion(e) {
                completion = Some(i);
            }
            self.learn(e);
            keep[i] = true;
        }
        if let Some(i) = completion {
            mark_causes(&events, i, &mut keep);
        }
        for (e, kept) in events.into_iter().zip(keep) {
            if kept {
                self.push(e);
            }
        }
    }

    fn push(&mut self, e: TraceEvent) {
        if self.events.len() >= MAX_STORY_EVENTS {
            // Keep the beginning and the end: drop the oldest checkAndComplete-like middle.
            if let Some(pos) = self.events.iter().position(|x| {
                matches!(
                    x.event,
                    Event::CheckAndComplete { .. } | Event::HighWatermarkAdvanced { .. }
                )
            }) {
                self.events.remove(pos);
            }
        }
        if !self.events.iter().any(|x| x.id == e.id) {
            self.events.push(e);
        }
    }

    fn names_it(&self, e: &Event) -> bool {
        let request = match e {
            Event::ProduceReceived { request, .. }
            | Event::ProducePartitionRejected { request, .. }
            | Event::ProduceAnsweredAtOnce { request, .. }
            | Event::DelayedProduceCreated { request, .. }
            | Event::ProduceResponseSent { request, .. }
            | Event::ConnectionClosed { request, .. }
            | Event::ClientRequestTimedOut { request, .. } => Some(request.as_str()),
            Event::RecordsAppended { request, .. }
            | Event::OperationCompleted { request, .. }
            | Event::OperationExpired { request, .. } => request.as_deref(),
            _ => None,
        };
        request == Some(self.id)
    }

    fn belongs(&self, e: &TraceEvent) -> bool {
        if self.names_it(&e.event) {
            return true;
        }
        let mine = |broker: &BrokerId| Some(*broker) == self.broker;
        let my_key = |tp: &TpName| self.keys.contains(tp);
        match &e.event {
            Event::OperationWatched { broker, op, .. } | Event::TimerAdded { broker, op, .. } => {
                mine(broker) && Some(*op) == self.op
            }
            Event::CheckAndComplete {
                broker,
                purgatory: "produce",
                key,
                ..
            } => self.waiting && mine(broker) && my_key(key),
            Event::HighWatermarkAdvanced { broker, tp, .. } => {
                self.waiting && mine(broker) && my_key(tp)
            }
            Event::IsrChangeCommitted { tp, .. } | Event::PartitionChanged { tp, .. } => {
                self.waiting && my_key(tp)
            }
            _ => false,
        }
    }

    fn is_completion(&self, e: &TraceEvent) -> bool {
        matches!(
            e.event,
            Event::OperationCompleted { .. } | Event::OperationExpired { .. }
        )
    }

    fn learn(&mut self, e: &TraceEvent) {
        match &e.event {
            Event::ProduceReceived {
                broker, partitions, ..
            } => {
                self.broker = Some(*broker);
                self.keys = partitions.iter().map(|(tp, _)| tp.clone()).collect();
            }
            Event::DelayedProduceCreated { op, .. } => self.op = Some(*op),
            Event::OperationWatched { keys, .. } => {
                self.keys = keys.clone();
                self.waiting = true;
            }
            Event::OperationCompleted { .. } | Event::OperationExpired { .. } => {
                self.waiting = false
            }
            Event::ProduceResponseSent { .. } | Event::ConnectionClosed { .. } => {
                self.finished = true
            }
            _ => {}
        }
    }
}

/// Marks the events that led to the completion at `events[i]`, following `cause` back within its
/// instant (a fetch arrived → the HW moved → checkAndComplete → completed).
fn mark_causes(events: &[TraceEvent], i: usize, keep: &mut [bool]) {
    let mut cause = events[i].cause;
    for _ in 0..16 {
        let Some(id) = cause else { break };
        let Some(at) = events.iter().position(|e| e.id == id) else {
            break;
        };
        keep[at] = true;
        cause = events[at].cause;
    }
}
