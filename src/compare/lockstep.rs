//! The two runs of a comparison played side by side, instant by instant, their trace events
//! compared as they come and then dropped; once the runs part, not even kept: what follows the
//! divergence only decides each producer's answer, which the runs' results hold. Writing both
//! traces whole and comparing the text, as the runner prints it, cost several times the runs
//! themselves (a live session of 100 partitions two minutes in wrote 52 MB a run). Two equal
//! events write the same text, so only events that differ are written, to compare them as the
//! text does.
//!
//! Each run is moved as the runner moves it: the first one instant at a time, the second up to
//! the first one's instant. A simulation traces the same events however far each call takes it.

use std::io;

use serde_json::Value;

use crate::kafka::trace::TraceEvent;
use crate::scenario::result::RunResult;
use crate::scenario::Scenario;
use crate::sim::Simulation;

use super::{divergence, parse_line, same_arrival, Divergence};

/// What [`play_both`] found.
pub(super) struct Played {
    pub a: RunResult,
    pub b: RunResult,
    pub divergence: Option<Divergence>,
}

/// One run and the events of its trace not yet compared with the other run's.
struct Run<'s> {
    scenario: &'s Scenario,
    sim: Simulation,
    events: Vec<TraceEvent>,
    /// The first event of `events` not yet compared with the other run's.
    unread: usize,
    /// How many events came before `events[0]`.
    dropped: usize,
}

impl<'s> Run<'s> {
    fn start(scenario: &'s Scenario) -> io::Result<Self> {
        let mut sim = Simulation::from_scenario(scenario, true)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.0))?;
        sim.set_record_actions(false);
        Ok(Run {
            scenario,
            sim,
            events: Vec::new(),
            unread: 0,
            dropped: 0,
        })
    }

    /// Processes the next instant at or before `until_ms` (see [`Simulation::advance_within`]),
    /// keeping its events if `keep`.
    fn advance_within(&mut self, until_ms: u64, keep: bool) -> Option<u64> {
        let until_ms = until_ms.min(self.scenario.run_until_ms);
        let next = self.sim.advance_within(until_ms);
        let events = self.sim.drain_trace();
        if keep {
            self.events.extend(events);
        }
        next
    }

    fn next_event(&self) -> Option<&TraceEvent> {
        self.events.get(self.unread)
    }

    /// Drops the events compared: each is the other run's too (or its arrival with the change),
    /// so it is not among what a divergence says one run alone does ([`super::unmatched`]).
    fn forget_compared(&mut self) {
        self.events.drain(..self.unread);
        self.dropped += self.unread;
        self.unread = 0;
    }

    /// The events of millisecond `at_ms` not yet compared, as the trace writes them.
    fn values_at(&self, at_ms: u64) -> Vec<Value> {
        self.events
            .iter()
            .filter(|e| e.at_ms == at_ms)
            .filter_map(value)
            .collect()
    }

    fn result(&self) -> RunResult {
        self.sim
            .result(&self.scenario.name, self.scenario.run_until_ms)
    }
}

/// Plays `a` and `b` to their ends and finds where their traces first part.
pub(super) fn play_both(a: &Scenario, b: &Scenario) -> io::Result<Played> {
    let (mut first, mut second) = (Run::start(a)?, Run::start(b)?);
    let mut parted = false;
    loop {
        let at = first.advance_within(u64::MAX, !parted);
        // The second run catches up: everything it does up to that instant (to its end once the
        // first has ended), so that every event up to there can be compared.
        let horizon = at.unwrap_or(u64::MAX);
        while second.advance_within(horizon, !parted).is_some() {}
        parted = parted || first_difference(&mut first, &mut second)?;
        if at.is_none() {
            break;
        }
    }
    // Both have ended: an event one run has and the other has not is a divergence too.
    parted = parted || first.next_event().is_some() || second.next_event().is_some();
    let divergence = parted.then(|| {
        let event = first.dropped + first.unread + 1;
        let pair = (first.next_event(), second.next_event());
        divergence(
            event as u64,
            pair.0.and_then(value),
            pair.1.and_then(value),
            |at_ms| (first.values_at(at_ms), second.values_at(at_ms)),
        )
    });
    Ok(Played {
        a: first.result(),
        b: second.result(),
        divergence,
    })
}

/// Compares the events both runs have traced and not yet compared: true at the first pair that
/// differs. Two events differ when the trace writes them differently, except a request's arrival
/// with another acks or timeout ([`same_arrival`]).
fn first_difference(a: &mut Run, b: &mut Run) -> io::Result<bool> {
    let (mut x_text, mut y_text) = (Vec::new(), Vec::new());
    while let (Some(x), Some(y)) = (a.next_event(), b.next_event()) {
        x_text.clear();
        y_text.clear();
        serde_json::to_writer(&mut x_text, x)?;
        serde_json::to_writer(&mut y_text, y)?;
        let same = x_text == y_text
            || matches!((parse_line(&x_text), parse_line(&y_text)), (Some(x), Some(y)) if same_arrival(&x, &y));
        if !same {
            return Ok(true);
        }
        a.unread += 1;
        b.unread += 1;
    }
    a.forget_compared();
    b.forget_compared();
    Ok(false)
}

/// An event as the trace writes it, read back.
fn value(event: &TraceEvent) -> Option<Value> {
    serde_json::to_vec(event)
        .ok()
        .and_then(|text| parse_line(&text))
}
