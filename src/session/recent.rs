//! The events the playhead has passed that the page has not taken yet, and the instants of the
//! latest ones (for "step back one event"). Bounded whatever the caller does: past
//! [`MAX_PENDING`] untaken events the oldest are dropped and counted, so a caller that advances a
//! week in one call and takes the events afterwards gets the last ones and a count of the rest.

use std::collections::VecDeque;

use serde::Serialize;

use crate::kafka::trace::TraceEvent;

/// Untaken events kept at most: more than a page shows (its log keeps a few thousand lines).
pub const MAX_PENDING: usize = 5_000;
/// Distinct instants remembered for stepping back.
const MAX_INSTANTS: usize = 4_096;

#[derive(Debug, Default)]
pub struct Recent {
    pending: VecDeque<TraceEvent>,
    dropped: u64,
    /// Set when the playhead jumped (a seek, a fork): the pending events then lead up to the new
    /// instant instead of following the ones taken before.
    reset: bool,
    instants: VecDeque<u64>,
}

/// What [`Recent::take`] hands out.
#[derive(Debug, Serialize)]
pub struct EventBatch {
    /// True when these events replace everything taken before (the playhead jumped).
    pub reset: bool,
    /// Events the playhead passed that are not in `events` (too many to keep).
    pub dropped: u64,
    pub events: Vec<TraceEvent>,
}

impl Recent {
    /// Starts over after a jump of the playhead.
    pub fn restart(&mut self) {
        self.pending.clear();
        self.dropped = 0;
        self.reset = true;
        self.instants.clear();
    }

    pub fn push(&mut self, events: Vec<TraceEvent>) {
        for e in events {
            if self.instants.back() != Some(&e.at_ms) {
                if self.instants.len() == MAX_INSTANTS {
                    self.instants.pop_front();
                }
                self.instants.push_back(e.at_ms);
            }
            if self.pending.len() == MAX_PENDING {
                self.pending.pop_front();
                self.dropped += 1;
            }
            self.pending.push_back(e);
        }
    }

    pub fn take(&mut self) -> EventBatch {
        let batch = EventBatch {
            reset: self.reset,
            dropped: self.dropped,
            events: self.pending.drain(..).collect(),
        };
        self.reset = false;
        self.dropped = 0;
        batch
    }

    /// The latest instant before `at_ms` at which something was traced, if remembered.
    pub fn instant_before(&self, at_ms: u64) -> Option<u64> {
        self.instants.iter().rev().copied().find(|&t| t < at_ms)
    }
}
