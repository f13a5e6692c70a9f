//! A session: one run of the model that a person plays, scrubs back through, forks and shares.
//!
//! The run is the scenario's setup plus a log of actions with their simulated times; the model is
//! deterministic, so that log rebuilds any instant exactly. A session keeps two simulations:
//!
//! - the **frontier**, the furthest the run has been computed. Everything the run did up to there
//!   is folded into the [`History`] (the timeline's markers, the gauges' step series, the trace
//!   hash), and a [`Checkpoints`] copy of the frontier is saved every few thousand events;
//! - the **head**, the instant the person looks at, when it is behind the frontier. Going back
//!   to an instant clones the latest checkpoint before it and replays to it; going forward runs
//!   the head on until it meets the frontier, where it is dropped again.
//!
//! A live session computes nothing ahead (the head is the frontier). A scenario's frontier is
//! computed ahead in the background ([`Session::extend`]), so its whole timeline shows from the
//! start. Acting at a past instant forks: the person's later actions and the computed future are
//! dropped (one [`Session::undo`] brings them back), the scenario's own script stays.
//!
//! An instant `t` always means "every event at or before `t` has happened". A person's action
//! therefore applies at `t + 1`, first in that millisecond, exactly as the same action at
//! `at_ms: t + 1` in a scenario file would: the run and its replay cannot differ.

pub mod breakpoints;
mod checkpoints;
mod commands;
pub mod history;
mod markers;
mod play;
mod recent;
mod request_events;
mod says;
mod words;

use std::collections::BTreeSet;

use serde::Serialize;

use crate::scenario::result::RunResult;
use crate::scenario::{Change, Scenario, SessionInfo, StoryStep};
use crate::sim::action::{Action, TimedAction};
use crate::sim::{SetupError, Simulation};
use breakpoints::{BreakpointSpec, Breakpoints, Hit};
use checkpoints::{Checkpoint, Checkpoints};
use history::History;
use recent::Recent;

pub use checkpoints::{EVENTS_PER_CHECKPOINT, MAX_CHECKPOINTS};
pub use play::QUIET_STEP_MS;
pub use recent::{EventBatch, MAX_PENDING};

/// The contract's longest run (a week): how far a live session can go.
pub const LIVE_HORIZON_MS: u64 = 604_800_000;

/// One action of the run, and whether a person made it (or the scenario scripted it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggedAction {
    pub action: TimedAction,
    pub by_user: bool,
}

/// What the last fork dropped, for one undo.
#[derive(Clone)]
struct Undo {
    at_ms: u64,
    frontier: Simulation,
    checkpoints_after: Vec<Checkpoint>,
    history: History,
    actions: Vec<LoggedAction>,
    horizon_ms: u64,
    live: bool,
}

pub struct Session {
    name: String,
    /// The curated scenario the session started from, if any.
    curated: Option<String>,
    story: Vec<StoryStep>,
    /// The file it was opened from was saved with the guided story open (`session.story_open`).
    story_open: bool,
    /// How far the clock can go: the scenario's `run_until_ms`, or a week for a live session.
    horizon_ms: u64,
    /// A live session computes nothing ahead of the playhead; a scenario computes to its end.
    live: bool,
    /// How far [`Session::extend`] computes the frontier ahead.
    precompute_ms: u64,
    actions: Vec<LoggedAction>,
    frontier: Simulation,
    head: Option<Simulation>,
    checkpoints: Checkpoints,
    history: History,
    recent: Recent,
    breakpoints: Breakpoints,
    undo: Option<Box<Undo>>,
    selected: Option<String>,
    /// Produce ids in use, and the next number a generated `pN` id tries.
    ids: BTreeSet<String>,
    next_id: u64,
    /// The what-if the page shows beside this run (the scenario's `compare`, or the person's).
    compare: Option<Change>,
    /// The instant a saved session was at, where opening it stopped short of it (see
    /// [`MAX_OPEN_WORK`]).
    opened_short_of: Option<u64>,
}

/// The most work opening a saved session does to reach its instant: about 0.4 s natively and
/// 1 s in Chromium (a busy session costs about 110 ns a unit natively and 0.2-0.3 µs in the .wasm
/// with its history and checkpoints: 4,000,000 units opened in 0.43 s and 0.85-1.06 s,
/// 2026-12-07, once trace events shared partition names; 1.3 µs a unit before). A
/// quiet run gets far on it (the idle fast-forward: a week of three brokers is under 20,000
/// units), a busy one not: three brokers with a hundred partitions fetching without a wait cost
/// about 100,000 units a simulated second. Past it, the session opens where the work ran out,
/// and the page computes on from there as it plays.
pub const MAX_OPEN_WORK: u64 = 4_000_000;

/// Where the playhead is against the run, for the timeline.
#[derive(Clone, Debug, Serialize)]
pub struct Extent {
    pub now_ms: u64,
    /// The furthest the run has been computed.
    pub frontier_ms: u64,
    /// The end of the run (`run_until_ms`), or the week a live session may last.
    pub horizon_ms: u64,
    pub live: bool,
    /// The run has been computed to its end (a scenario), so its markers are all known.
    pub complete: bool,
    /// The playhead is at the end of the scenario.
    pub at_end: bool,
    pub can_undo: bool,
}

impl Session {
    /// A session on a scenario (its actions are the script), or, with `live`, a live session on
    /// the scenario's setup that runs for up to a week. A scenario that carries a `session` (a saved
    /// one) reopens at its instant, with its person's actions and selection.
    pub fn new(scenario: &Scenario, live: bool) -> Result<Session, SetupError> {
        let mut frontier = Simulation::from_scenario(scenario, true)?;
        frontier.set_record_actions(false);
        let info = scenario.session.clone().unwrap_or_default();
        let live = live || info.live;
        let actions: Vec<LoggedAction> = scenario
            .actions
            .iter()
            .enumerate()
            .map(|(i, a)| LoggedAction {
                action: a.clone(),
                by_user: info.user_actions.binary_search(&i).is_ok(),
            })
            .collect();
        let history = History::new(&frontier);
        let derived = history.derived.clone();
        let horizon_ms = if live {
            LIVE_HORIZON_MS
        } else {
            scenario.run_until_ms
        };
        let mut session = Session {
            name: scenario.name.clone(),
            curated: info.scenario.clone(),
            story: scenario.story.clone(),
            story_open: info.story_open && !scenario.story.is_empty(),
            horizon_ms,
            live,
            precompute_ms: scenario.run_until_ms,
            actions,
            checkpoints: Checkpoints::new(Checkpoint {
                sim: frontier.clone(),
                from_ms: 0,
                derived,
            }),
            frontier,
            head: None,
            history,
            recent: Recent::default(),
            breakpoints: Breakpoints::default(),
            undo: None,
            selected: info.selected.clone(),
            ids: BTreeSet::new(),
            next_id: 1,
            compare: scenario.compare.clone(),
            opened_short_of: None,
        };
        session.ids = session.produce_ids();
        session.start();
        if scenario.session.is_some() {
            // The run may end before the saved instant: then its end is as far as it goes.
            let target = info.at_ms.min(session.precompute_ms).min(horizon_ms);
            session.compute_until(target, MAX_OPEN_WORK);
            let short = session.seek(info.at_ms) < target;
            session.opened_short_of = short.then_some(info.at_ms);
        }
        Ok(session)
    }

    /// The instant the saved session was at, when opening it ran out of work before it
    /// ([`MAX_OPEN_WORK`]): the session is at an earlier one. `None` when it opened where it was
    /// saved (or at its run's end, which came first).
    pub fn opened_short_of(&self) -> Option<u64> {
        self.opened_short_of
    }

    /// Processes t = 0: every instant a session rests at is one at which everything due has
    /// happened. (The first checkpoint is the run before it, so a replay to 0 replays its events.)
    fn start(&mut self) {
        while let Some(events) = self.step_frontier(0) {
            self.recent.push(events);
        }
        self.breakpoints.sync(&self.frontier);
    }

    /// Computes the frontier up to `until_ms` now (opening a saved session at its instant), or
    /// as far as `max_work` units of work take it.
    fn compute_until(&mut self, until_ms: u64, max_work: u64) {
        if self.head.is_none() && self.frontier.now_ms() < until_ms {
            self.head = Some(self.frontier.clone());
        }
        let budget = self.frontier.work_done().saturating_add(max_work);
        while self.frontier.work_done() < budget && self.step_frontier(until_ms).is_some() {}
    }

    /// The simulation at the playhead.
    pub fn sim(&self) -> &Simulation {
        self.head.as_ref().unwrap_or(&self.frontier)
    }

    pub fn now_ms(&self) -> u64 {
        self.sim().now_ms()
    }

    pub fn frontier_ms(&self) -> u64 {
        self.frontier.now_ms()
    }

    pub fn horizon_ms(&self) -> u64 {
        self.horizon_ms
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn curated(&self) -> Option<&str> {
        self.curated.as_deref()
    }

    /// Names the curated scenario the session plays (the page knows it by the name it loaded).
    pub fn set_curated(&mut self, name: Option<String>) {
        self.curated = name;
    }

    pub fn story(&self) -> &[StoryStep] {
        &self.story
    }

    pub fn actions(&self) -> &[LoggedAction] {
        &self.actions
    }

    pub fn history(&self) -> &History {
        &self.history
    }

    /// Whether the file it was opened from was saved with the guided story open.
    pub fn story_open(&self) -> bool {
        self.story_open
    }

    pub fn selected(&self) -> Option<&str> {
        self.selected.as_deref()
    }

    pub fn set_selected(&mut self, id: Option<String>) {
        self.selected = id;
    }

    /// When the next marker after the playhead comes, if the run is computed that far (a
    /// scenario's is, from the start): a story clock slows down before it.
    pub fn next_marker_ms(&self) -> Option<u64> {
        self.history
            .next_marker_after(self.now_ms())
            .map(|m| m.at_ms)
    }

    /// When the last timeline marker before the playhead came.
    pub fn previous_marker_ms(&self) -> Option<u64> {
        self.history.marker_before(self.now_ms()).map(|m| m.at_ms)
    }

    pub fn checkpoint_count(&self) -> usize {
        self.checkpoints.len()
    }

    pub fn extent(&self) -> Extent {
        let frontier_ms = self.frontier.now_ms();
        Extent {
            now_ms: self.now_ms(),
            frontier_ms,
            horizon_ms: self.horizon_ms,
            live: self.live,
            complete: frontier_ms >= self.precompute_ms,
            at_end: !self.live && self.now_ms() >= self.horizon_ms,
            can_undo: self.undo.is_some(),
        }
    }

    /// The trace hash of the run as computed so far; `None` while a scenario is still being
    /// computed to its end (its hash is of the whole run, as the runner prints it).
    pub fn trace_hash(&self) -> Option<String> {
        let complete = self.live || self.frontier.now_ms() >= self.precompute_ms;
        complete.then(|| self.history.derived.hash.hex())
    }

    /// The events the playhead passed since the last call (bounded; see [`recent`]).
    pub fn take_events(&mut self) -> EventBatch {
        self.recent.take()
    }

    /// Makes the next [`Self::take_events`] tell the run from its start up to the playhead again
    /// (as after a jump): for views rebuilt around this same session. Nothing else changes.
    pub fn retell(&mut self) {
        let now = self.now_ms();
        self.replay_head_to(now);
    }

    pub fn set_breakpoints(&mut self, spec: BreakpointSpec) {
        self.breakpoints.spec = spec;
        let sim = self.head.as_ref().unwrap_or(&self.frontier);
        self.breakpoints.sync(sim);
    }

    pub fn breakpoints(&self) -> &BreakpointSpec {
        &self.breakpoints.spec
    }

    /// The result document at the playhead, as the runner would print it for a run that stopped
    /// there.
    pub fn result(&self) -> RunResult {
        self.sim().result(&self.name, self.now_ms())
    }

    /// The session as a scenario file: the setup, every action, and a `session` that says which
    /// actions the person made, the instant and the selection. A live session's run ends at the
    /// playhead or its last action, whichever is later: not where it happened to be computed to,
    /// which a reopened session (computed only to its instant) would not know, so exporting what
    /// was imported gives the same bytes; and never before an action (a scenario turned live
    /// mid-run keeps its later script). A scenario keeps its own end. The runner plays the file to
    /// the same trace (and hash); the page reopens it at the same instant.
    /// `story_open`: the page's guided story is open at the playhead (kept only with a story).
    pub fn export(&self, story_open: bool) -> Scenario {
        let sim = &self.frontier;
        let run_until_ms = if self.live {
            let last_action_ms = self.actions.iter().map(|a| a.action.at_ms).max();
            self.now_ms().max(last_action_ms.unwrap_or(0))
        } else {
            self.horizon_ms
        };
        // The guided story tells the scenario's own run: it goes with the file while no action
        // of the person's own has changed that run, and as far as the file's run goes (a
        // scenario continued live may be saved before its story's last caption).
        let story: Vec<StoryStep> = if self.actions.iter().any(|a| a.by_user) {
            Vec::new()
        } else {
            let told = self.story.iter().filter(|s| s.at_ms <= run_until_ms);
            told.cloned().collect()
        };
        let story_open = story_open && !story.is_empty();
        let mut scenario = Scenario {
            name: self.name.clone(),
            seed: sim.seed(),
            config: sim.config().clone(),
            phases: sim.phases().clone(),
            topics: sim.topics().to_vec(),
            actions: self.actions.iter().map(|a| a.action.clone()).collect(),
            run_until_ms,
            story,
            session: Some(SessionInfo {
                at_ms: self.now_ms(),
                // Only an id the file has: `select` takes any string, and a fork or an undo can
                // drop the selected produce, but the parser refuses a selection it cannot find.
                selected: self.selected.clone().filter(|id| self.ids.contains(id)),
                user_actions: (self.actions.iter().enumerate())
                    .filter(|(_, a)| a.by_user)
                    .map(|(i, _)| i)
                    .collect(),
                scenario: self.curated.clone(),
                live: self.live,
                story_open,
            }),
            compare: None,
        };
        // Kept only while it still applies (a fork may have dropped the action it moves).
        scenario.compare = (self.compare.clone()).filter(|change| change.apply(&scenario).is_ok());
        scenario
    }

    /// The what-if shown beside this run, if any.
    pub fn compare(&self) -> Option<&Change> {
        self.compare.as_ref()
    }

    /// Starts (or, with `None`, ends) showing a what-if beside this run: it goes into the
    /// exported session, so a link or a file reopens the comparison.
    pub fn set_compare(&mut self, change: Option<Change>) {
        self.compare = change;
    }

    fn produce_ids(&self) -> BTreeSet<String> {
        let ids = self.actions.iter().filter_map(|a| match &a.action.action {
            Action::Produce(p) => Some(p.id.to_string()),
            _ => None,
        });
        ids.collect()
    }
}

/// What one call that moves the playhead forward did.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Advanced {
    pub now_ms: u64,
    /// A breakpoint stopped the clock here.
    pub hit: Option<Hit>,
    /// The work budget ran out before the target; call again to go on.
    pub yielded: bool,
    /// Stopped after an instant with a notable event (asked for with `stop_at_notable`).
    pub notable: bool,
}
