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

/// One request's outcome as the client sees it: the error of each partition (None where it got
/// no answer) and whether its connection was closed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    pub errors: Vec<Option<&'static str>>,
    pub connection_closed: bool,
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
                    requests.push(RequestSweep {
                        id: r.id.to_string(),
                        outcomes: Vec::new(),
                    });
                }
                // As the result document reports them: errors once answered (or decided, acks=0).
                let answered = r.responded_ms.is_some() || r.acks == 0;
                let outcome = Outcome {
                    errors: partitions
                        .iter()
                        .map(|p| p.error.filter(|_| answered).map(|e| e.name()))
                        .collect(),
                    connection_closed: r.connection_closed,
                };
                add(&mut requests[i].outcomes, outcome, phase, r.responded_ms);
            }
        }
        self.next_phase = end;
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
        while settled < all.len() && !all[settled].is_waiting() {
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

fn add(spans: &mut Vec<OutcomeSpan>, outcome: Outcome, phase: u64, answered: Option<u64>) {
    let span = add_range(spans, &outcome, phase, phase);
    if let Some(ms) = answered {
        span.answered_ms = Some(match span.answered_ms {
            Some((lo, hi)) => (lo.min(ms), hi.max(ms)),
            None => (ms, ms),
        });
    }
}

/// Counts the phases `lo ..= hi` (later than any counted so far) for `outcome`, joining them to
/// its last range when they follow on.
fn add_range<'a>(
    spans: &'a mut Vec<OutcomeSpan>,
    outcome: &Outcome,
    lo: u64,
    hi: u64,
) -> &'a mut OutcomeSpan {
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
    span
}

impl Sweep {
    /// Adds the outcomes of the phases just after this sweep's (a later block of the same sweep),
    /// as if they had been run here one after another.
    fn append(&mut self, later: Sweep) {
        for (i, request) in later.requests.into_iter().enumerate() {
            if self.requests.len() <= i {
                self.requests.push(RequestSweep {
                    id: request.id,
                    outcomes: Vec::new(),
                });
            }
            let spans = &mut self.requests[i].outcomes;
            for span in request.outcomes {
                for &(lo, hi) in &span.phases {
                    add_range(spans, &span.outcome, lo, hi);
                }
                let here = spans
                    .iter_mut()
                    .find(|s| s.outcome == span.outcome)
                    .expect("added above");
                here.answered_ms = match (here.answered_ms, span.answered_ms) {
                    (Some((a, b)), Some((c, d))) => Some((a.min(c), b.max(d))),
                    (a, b) => a.or(b),
                };
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
                let errors: Vec<&str> = s
                    .outcome
                    .errors
                    .iter()
                    .map(|e| e.unwrap_or("no answer"))
                    .collect();
                let closed = if s.outcome.connection_closed {
                    ", connection closed"
                } else {
                    ""
                };
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
                    "  {}{closed}: phase {} ({}/{}, {share:.1}%), {answered}\n",
                    errors.join(" + "),
                    ranges.join(", "),
                    s.count,
                    self.period_ms
                ));
            }
        }
        out
    }
}
