//! What could a real broker answer? A scenario run at every phase of one beat (scenario-format.md,
//! "Phases"): each produce request's distinct outcomes, the exact phases (in ms, as ranges) where
//! each happens, their share of the period, and the range of its answer times. Exact because every
//! phase is run: a boundary is the millisecond where the model's answer changes, found by running
//! it there, not estimated.

use serde::Serialize;

use crate::scenario::Scenario;
use crate::sim::action::Action;
use crate::sim::action::BrokerId;
use crate::sim::phases::BeatPhase;
use crate::sim::Simulation;

/// Which beat is swept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Beat {
    /// The ISR check, every `replica_lag_time_max_ms / 2`.
    IsrCheck,
    /// The heartbeats, every `broker_heartbeat_interval_ms`.
    Heartbeat,
}

impl Beat {
    pub fn period_ms(self, scenario: &Scenario) -> u64 {
        match self {
            Beat::IsrCheck => scenario.config.isr_expiration_period_ms(),
            Beat::Heartbeat => scenario.config.broker_heartbeat_interval_ms,
        }
    }
}

/// One request's outcome as the client sees it: the error of each partition (None where it read
/// no answer), whether its connection was closed, and whether the producer gave up on it first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    pub errors: Vec<Option<&'static str>>,
    pub connection_closed: bool,
    /// Written only when true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub client_timed_out: bool,
}

impl Outcome {
    /// What a producer got, as the runner writes it: each partition's error ("no answer" where
    /// none came) joined by " + ", then ", connection closed" and ", timed out in the producer"
    /// where they hold. The page words the parts, not this text.
    pub fn label(&self) -> String {
        let errors: Vec<&str> = self
            .errors
            .iter()
            .map(|e| e.unwrap_or("no answer"))
            .collect();
        let closed = if self.connection_closed {
            ", connection closed"
        } else {
            ""
        };
        let gave_up = if self.client_timed_out {
            ", timed out in the producer"
        } else {
            ""
        };
        format!("{}{closed}{gave_up}", errors.join(" + "))
    }
}

/// Where one outcome of one request happens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutcomeSpan {
    pub outcome: Outcome,
    /// Inclusive ranges of phases, ascending.
    pub phases: Vec<(u64, u64)>,
    /// How many phases of the period (of `period_ms`) give it.
    pub count: u64,
    /// The earliest and latest answer time over those phases; None when never answered.
    pub answered_ms: Option<(u64, u64)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RequestSweep {
    pub id: String,
    pub outcomes: Vec<OutcomeSpan>,
    /// Every phase where the outcome differs from the phase before, ascending.
    pub edges: Vec<Edge>,
    /// The first and the latest phase counted (where a later block of phases joins on).
    #[serde(skip)]
    first: Option<Seen>,
    #[serde(skip)]
    last: Option<Seen>,
}

/// A boundary of the sweep: at `phase` the request gets another outcome than at `phase − 1`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Edge {
    pub phase: u64,
    /// The outcome at `phase − 1` and at `phase` (indexes into the request's `outcomes`).
    pub from: usize,
    pub to: usize,
    /// When it was answered at `phase − 1` and at `phase`.
    pub answered_before: Option<u64>,
    pub answered_after: Option<u64>,
}

/// One phase's outcome (an index into `outcomes`) and answer time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Seen {
    phase: u64,
    outcome: usize,
    answered: Option<u64>,
}

impl RequestSweep {
    fn new(id: String) -> RequestSweep {
        RequestSweep {
            id,
            outcomes: Vec::new(),
            edges: Vec::new(),
            first: None,
            last: None,
        }
    }

    /// Counts one phase (later than any counted so far).
    fn record(&mut self, outcome: Outcome, phase: u64, answered: Option<u64>) {
        let i = add_range(&mut self.outcomes, &outcome, phase, phase);
        let span = &mut self.outcomes[i];
        span.answered_ms = widen(span.answered_ms, answered.map(|ms| (ms, ms)));
        self.follow(Seen {
            phase,
            outcome: i,
            answered,
        });
    }

    /// Moves the latest phase on to `seen`, noting an edge where the outcome changes.
    fn follow(&mut self, seen: Seen) {
        if let Some(last) = self.last {
            if last.outcome != seen.outcome && last.phase + 1 == seen.phase {
                self.edges.push(Edge {
                    phase: seen.phase,
                    from: last.outcome,
                    to: seen.outcome,
                    answered_before: last.answered,
                    answered_after: seen.answered,
                });
            }
        }
        self.first.get_or_insert(seen);
        self.last = Some(seen);
    }

    /// Once every phase has run: phase 0 follows the period's last phase (the beat is a circle),
    /// so an outcome that differs between the two is an edge at 0 too, listed first.
    fn close_circle(&mut self) {
        if let (Some(first), Some(last)) = (self.first, self.last) {
            if first.phase == 0 && first.outcome != last.outcome {
                self.edges.insert(
                    0,
                    Edge {
                        phase: 0,
                        from: last.outcome,
                        to: first.outcome,
                        answered_before: last.answered,
                        answered_after: first.answered,
                    },
                );
            }
        }
    }

    /// Adds the phases of `later` (the block of phases right after this one's).
    fn append(&mut self, later: RequestSweep) {
        let index: Vec<usize> = later
            .outcomes
            .iter()
            .map(|span| {
                let mut i = 0;
                for &(lo, hi) in &span.phases {
                    i = add_range(&mut self.outcomes, &span.outcome, lo, hi);
                }
                let here = &mut self.outcomes[i];
                here.answered_ms = widen(here.answered_ms, span.answered_ms);
                i
            })
            .collect();
        let mapped = |s: Seen| Seen {
            outcome: index[s.outcome],
            ..s
        };
        if let Some(first) = later.first {
            self.follow(mapped(first));
        }
        self.edges.extend(later.edges.into_iter().map(|e| Edge {
            from: index[e.from],
            to: index[e.to],
            ..e
        }));
        if let Some(last) = later.last {
            self.last = Some(mapped(last));
        }
    }
}

fn widen(a: Option<(u64, u64)>, b: Option<(u64, u64)>) -> Option<(u64, u64)> {
    match (a, b) {
        (Some((lo, hi)), Some((l, h))) => Some((lo.min(l), hi.max(h))),
        (a, b) => a.or(b),
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Sweep {
    pub scenario: String,
    pub beat: Beat,
    /// The broker whose beat moved (the others' stay as the file has them); None: every broker's.
    pub broker: Option<BrokerId>,
    pub period_ms: u64,
    pub requests: Vec<RequestSweep>,
}

/// Runs `scenario` at every phase 0 .. period − 1 of `beat` (of `broker`'s beat only, or of every
/// broker's together) and gathers each request's outcomes.
///
/// Natively the phases are shared out among the machine's cores, each running one block of them;
/// the blocks are joined in phase order, so the sweep is the same as one run phase after phase.
pub fn sweep(scenario: &Scenario, beat: Beat, broker: Option<BrokerId>) -> Sweep {
    let period = beat.period_ms(scenario).max(1);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    // A block worth a thread: below this the threads cost more than they save.
    const MIN_BLOCK: u64 = 500;
    let blocks = threads.min(period / MIN_BLOCK).max(1);
    if blocks == 1 || cfg!(target_arch = "wasm32") {
        return sweep_block(scenario, beat, broker, 0..period);
    }
    // A scenario shares its names through `Rc`s, so each thread reads its own copy from the text.
    let text = scenario.to_json();
    let bounds: Vec<u64> = (0..=blocks).map(|i| period * i / blocks).collect();
    let parts: Vec<Sweep> = std::thread::scope(|scope| {
        let handles: Vec<_> = bounds
            .windows(2)
            .map(|w| {
                let text = &text;
                scope.spawn(move || {
                    let own =
                        Scenario::from_json(text).expect("a scenario reads back its own text");
                    sweep_block(&own, beat, broker, w[0]..w[1])
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a sweep block does not panic"))
            .collect()
    });
    let mut parts = parts.into_iter();
    let mut whole = parts.next().expect("at least one block");
    for later in parts {
        whole.append(later);
    }
    for r in &mut whole.requests {
        r.close_circle();
    }
    whole
}

fn sweep_block(
    scenario: &Scenario,
    beat: Beat,
    broker: Option<BrokerId>,
    phases: std::ops::Range<u64>,
) -> Sweep {
    let mut sweeper = Sweeper::new(scenario, beat, broker);
    sweeper.next_phase = phases.start;
    sweeper.whole = phases.start == 0 && phases.end == sweeper.sweep.period_ms;
    while sweeper.next_phase < phases.end {
        sweeper.step(phases.end - sweeper.next_phase);
    }
    sweeper.into_sweep()
}

/// A sweep run a few phases at a time (the page runs one in its frames, each within a budget).
pub struct Sweeper {
    scenario: Scenario,
    beat: Beat,
    broker: Option<BrokerId>,
    next_phase: u64,
    /// Runs every phase from 0 (not one block of a sweep shared among threads).
    whole: bool,
    sweep: Sweep,
}

impl Sweeper {
    pub fn new(scenario: &Scenario, beat: Beat, broker: Option<BrokerId>) -> Sweeper {
        let period_ms = beat.period_ms(scenario).max(1);
        Sweeper {
            scenario: scenario.clone(),
            beat,
            broker,
            next_phase: 0,
            whole: true,
            sweep: Sweep {
                scenario: scenario.name.clone(),
                beat,
                broker,
                period_ms,
                requests: Vec::new(),
            },
        }
    }

    /// Runs up to `phases` more phases; true once every phase has run.
    pub fn step(&mut self, phases: u64) -> bool {
        let end = self
            .sweep
            .period_ms
            .min(self.next_phase.saturating_add(phases));
        let own = scenario_beat(&self.scenario, self.beat);
        for phase in self.next_phase..end {
            let mut at = self.scenario.clone();
            let moved = with_phase(&own, self.broker, phase, self.scenario.config.brokers);
            match self.beat {
                Beat::IsrCheck => at.phases.isr_check_ms = moved,
                Beat::Heartbeat => at.phases.heartbeat_ms = moved,
            }
            let Some(sim) = play_until_settled(&at) else {
                continue; // the scenario was read, so its cluster builds; never taken
            };
            let requests = &mut self.sweep.requests;
            for (i, (r, partitions)) in sim.requests().iter().enumerate() {
                if requests.len() <= i {
                    requests.push(RequestSweep::new(r.id.to_string()));
                }
                // Errors once the producer read its answer (or decided, acks=0).
                let answered = r.client_read_answer();
                let outcome = Outcome {
                    errors: partitions
                        .iter()
                        .map(|p| p.error.filter(|_| answered).map(|e| e.name()))
                        .collect(),
                    connection_closed: r.connection_closed,
                    client_timed_out: r.client_gave_up,
                };
                requests[i].record(outcome, phase, r.responded_ms.filter(|_| answered));
            }
        }
        let finished = self.next_phase < end && end == self.sweep.period_ms;
        self.next_phase = end;
        if finished && self.whole {
            for r in &mut self.sweep.requests {
                r.close_circle();
            }
        }
        self.done()
    }

    pub fn done(&self) -> bool {
        self.next_phase >= self.sweep.period_ms
    }

    /// Phases run so far (of `period_ms`).
    pub fn phases_done(&self) -> u64 {
        self.next_phase
    }

    /// What the phases run so far gave.
    pub fn sweep(&self) -> &Sweep {
        &self.sweep
    }

    pub fn into_sweep(self) -> Sweep {
        self.sweep
    }
}

/// Plays `scenario` as the runner does, but only until every produce request's outcome is settled
/// (every produce action applied, none still waiting for its answer) or the run ends. What comes
/// after cannot change an outcome, and a sweep runs the scenario once per phase: most of a long
/// scenario's idle tail is saved this way, and the outcomes are exactly those of the full run.
fn play_until_settled(scenario: &Scenario) -> Option<Simulation> {
    let mut sim = Simulation::from_scenario(scenario, false).ok()?;
    sim.set_record_actions(false);
    let until = scenario.run_until_ms;
    // Requests before this index are answered (or never will be waited for): a request, once
    // settled, stays so, and new ones are appended.
    let mut settled = 0;
    loop {
        let all = sim.requests().all();
        while settled < all.len() && !all[settled].client_waiting() {
            settled += 1;
        }
        let produce_pending = || {
            sim.pending_actions()
                .any(|a| matches!(a.action, Action::Produce(_)))
        };
        if settled == all.len() && !produce_pending() {
            return Some(sim);
        }
        if sim.advance_within(until).is_none() {
            return Some(sim);
        }
    }
}

fn scenario_beat(scenario: &Scenario, beat: Beat) -> BeatPhase {
    match beat {
        Beat::IsrCheck => scenario.phases.isr_check_ms.clone(),
        Beat::Heartbeat => scenario.phases.heartbeat_ms.clone(),
    }
}

/// The beat with `broker`'s phase (or every broker's) set to `phase`.
fn with_phase(
    current: &BeatPhase,
    broker: Option<BrokerId>,
    phase: u64,
    brokers: u32,
) -> BeatPhase {
    match broker {
        None => BeatPhase::Every(phase),
        Some(b) => {
            let mut each: Vec<u64> = (0..brokers).map(|i| current.of(BrokerId(i))).collect();
            if let Some(slot) = each.get_mut(b.0 as usize) {
                *slot = phase;
            }
            BeatPhase::PerBroker(each)
        }
    }
}

/// Counts the phases `lo ..= hi` (later than any counted so far) for `outcome`, joining them to
/// its last range when they follow on; returns the outcome's index.
fn add_range(spans: &mut Vec<OutcomeSpan>, outcome: &Outcome, lo: u64, hi: u64) -> usize {
    let i = match spans.iter().position(|s| s.outcome == *outcome) {
        Some(i) => i,
        None => {
            spans.push(OutcomeSpan {
                outcome: outcome.clone(),
                phases: Vec::new(),
                count: 0,
                answered_ms: None,
            });
            spans.len() - 1
        }
    };
    let span = &mut spans[i];
    match span.phases.last_mut() {
        Some((_, last)) if *last + 1 == lo => *last = hi,
        _ => span.phases.push((lo, hi)),
    }
    span.count += hi - lo + 1;
    i
}

impl Sweep {
    /// Adds the outcomes of the phases just after this sweep's (a later block of the same sweep),
    /// as if they had been run here one after another.
    fn append(&mut self, later: Sweep) {
        for (i, request) in later.requests.into_iter().enumerate() {
            match self.requests.get_mut(i) {
                Some(here) => here.append(request),
                None => self.requests.push(request),
            }
        }
    }

    /// The sweep as text a person reads: per request, each outcome with its phases, share and
    /// answer times.
    pub fn to_text(&self) -> String {
        let beat = match self.beat {
            Beat::IsrCheck => "ISR check",
            Beat::Heartbeat => "heartbeat",
        };
        let whose = match self.broker {
            Some(b) => format!("broker {b}'s"),
            None => "every broker's".to_string(),
        };
        let mut out = format!(
            "{}: {whose} {beat} phase swept over 0 .. {} ms\n",
            self.scenario,
            self.period_ms - 1
        );
        for r in &self.requests {
            let verdict = if r.outcomes.len() == 1 {
                "the same at every phase"
            } else {
                "depends on the phase"
            };
            out.push_str(&format!("{}: {verdict}\n", r.id));
            for s in &r.outcomes {
                let ranges: Vec<String> = s
                    .phases
                    .iter()
                    .map(|(lo, hi)| {
                        if lo == hi {
                            lo.to_string()
                        } else {
                            format!("{lo}..{hi}")
                        }
                    })
                    .collect();
                let share = 100.0 * s.count as f64 / self.period_ms as f64;
                let answered = match s.answered_ms {
                    Some((lo, hi)) if lo == hi => format!("answered at {lo} ms"),
                    Some((lo, hi)) => format!("answered {lo}..{hi} ms"),
                    None => "not answered".to_string(),
                };
                out.push_str(&format!(
                    "  {}: phase {} ({}/{}, {share:.1}%), {answered}\n",
                    s.outcome.label(),
                    ranges.join(", "),
                    s.count,
                    self.period_ms
                ));
            }
            for e in &r.edges {
                let at = |answered: Option<u64>| match answered {
                    Some(ms) => format!("answered at {ms} ms"),
                    None => "not answered".to_string(),
                };
                out.push_str(&format!(
                    "  edge at phase {}: {}, {} (phase {}) becomes {}, {}\n",
                    e.phase,
                    r.outcomes[e.from].outcome.label(),
                    at(e.answered_before),
                    (e.phase + self.period_ms - 1) % self.period_ms,
                    r.outcomes[e.to].outcome.label(),
                    at(e.answered_after)
                ));
            }
        }
        out
    }
}
