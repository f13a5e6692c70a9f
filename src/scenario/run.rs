//! Playing a scenario file on the simulation: the runner's whole job, and what the sweeps, the
//! comparisons and the tests build on. The simulation itself knows nothing of the file format: a
//! scenario is read into its setup here.

use std::io::Write;

use super::Scenario;
use crate::sim::result::RunResult;
use crate::sim::{SetupError, Simulation};

impl Simulation {
    /// A simulation of the scenario's cluster with its actions queued.
    pub fn from_scenario(scenario: &Scenario, trace: bool) -> Result<Self, SetupError> {
        Simulation::with_actions(
            scenario.seed,
            scenario.config.clone(),
            scenario.topics.clone(),
            scenario.phases.clone(),
            scenario.actions.clone(),
            trace,
        )
    }
}

/// Plays a scenario to its end: the runner's whole job. With `trace`, the causal trace is
/// written as JSON Lines as the run goes.
pub fn run_scenario(
    scenario: &Scenario,
    trace: Option<&mut dyn Write>,
) -> std::io::Result<RunResult> {
    let sim = play_scenario(scenario, trace)?;
    Ok(sim.result(&scenario.name, scenario.run_until_ms))
}

/// Plays a scenario to its end and hands back the cluster as it is then (its result, its work
/// meter).
pub fn play_scenario(
    scenario: &Scenario,
    trace: Option<&mut dyn Write>,
) -> std::io::Result<Simulation> {
    let sim = play_scenario_within(scenario, trace, u64::MAX)?;
    Ok(sim.expect("no work limit"))
}

/// [`play_scenario`], stopping with `None` as soon as the work meter passes `max_work` (the
/// runner's limit for a run admitted on its idle fast-forward, see
/// [`budget::Admission::IdleTail`]).
pub fn play_scenario_within(
    scenario: &Scenario,
    mut trace: Option<&mut dyn Write>,
    max_work: u64,
) -> std::io::Result<Option<Simulation>> {
    let mut sim = Simulation::from_scenario(scenario, trace.is_some())
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e.0))?;
    sim.set_record_actions(false);
    // Each line is written into `line` first, as the session's trace hash writes it: one copy of
    // the trace's serializer in the .wasm, whatever `trace` is.
    let mut line = Vec::new();
    loop {
        let next = sim.advance_within(scenario.run_until_ms);
        if let Some(out) = trace.as_deref_mut() {
            for event in sim.drain_trace() {
                line.clear();
                serde_json::to_writer(&mut line, &event)?;
                line.push(b'\n');
                out.write_all(&line)?;
            }
        }
        if sim.work_done() > max_work {
            return Ok(None);
        }
        if next.is_none() {
            break;
        }
    }
    if let Some(out) = trace {
        out.flush()?;
    }
    Ok(Some(sim))
}
