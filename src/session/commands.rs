//! A person's commands: validated by the scenario parser (a page command and a file action mean
//! the same thing and fail with the same words), applied at the instant after the playhead, and,
//! at a past instant, a fork of the run that one undo takes back.

use serde::Serialize;
use serde_json::{json, Value};

use super::{LoggedAction, Session, Undo, LIVE_HORIZON_MS};
use crate::scenario::{Scenario, ScenarioError};
use crate::sim::action::{Action, TimedAction};

/// What a command did.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Commanded {
    /// The produce request's id (generated when the command had none).
    pub id: Option<String>,
    /// When it applied (the instant after the playhead).
    pub at_ms: u64,
    /// The playhead was in the past: the run's future after it was dropped (`undo` brings it
    /// back).
    pub forked: bool,
    /// The scenario had ended: the session goes on as a live one.
    pub continued_live: bool,
    /// Why the model ignored the command, when it did (`"broker 1 is already running"`): the
    /// command is in the run, and changed nothing, as the same action in a file would.
    pub ignored: Option<String>,
}

/// What acting now would drop, for the page to say before it does.
#[derive(Clone, Debug, Serialize)]
pub struct ForkPreview {
    pub at_ms: u64,
    pub frontier_ms: u64,
    /// The person's own actions after the playhead, which a fork drops.
    pub user_actions_dropped: usize,
    /// All the person's own actions in the session. None: the run is still the scenario's own
    /// (or an untouched live one), and a fork is the first step away from it; some: the run past
    /// the playhead is the model's projection of their choices, which a fork computes again.
    pub user_actions: usize,
}

fn command_error(message: impl Into<String>) -> ScenarioError {
    ScenarioError {
        path: "command".into(),
        message: message.into(),
    }
}

impl Session {
    /// Applies a command shaped like a scenario action without `at_ms` (`{action: "produce",
    /// acks, records, ...}`) at the instant after the playhead, and runs that instant. A produce
    /// without an `id` gets the next free `pN`.
    pub fn command(&mut self, value: &Value) -> Result<Commanded, ScenarioError> {
        let action = self.parse_command(value)?;
        let mut done = Commanded::default();
        if self.head.is_some() {
            self.fork();
            done.forked = true;
        }
        let at_ms = self.now_ms() + 1;
        if at_ms > self.horizon_ms {
            if self.live {
                return Err(command_error(format!(
                    "the session has reached the longest run there is ({LIVE_HORIZON_MS} ms)"
                )));
            }
            self.continue_live();
            done.continued_live = true;
        }
        if let Action::Produce(p) = &action {
            self.ids.insert(p.id.to_string());
            done.id = Some(p.id.to_string());
        }
        let timed = TimedAction { at_ms, action };
        let place = self.actions.partition_point(|a| a.action.at_ms <= at_ms);
        self.actions.insert(
            place,
            LoggedAction {
                action: timed.clone(),
                by_user: true,
            },
        );
        self.checkpoints.schedule_action(&timed);
        self.frontier.schedule_action(timed);
        while self.now_ms() < at_ms {
            match self.step_head(at_ms) {
                Some(events) => self.recent.push(events),
                None => break,
            }
        }
        done.at_ms = at_ms;
        // The command is the last action of its instant (it went in after the others there).
        done.ignored = self.frontier.last_action_ignored().map(str::to_owned);
        Ok(done)
    }

    fn parse_command(&mut self, value: &Value) -> Result<Action, ScenarioError> {
        let mut value = value.clone();
        let Some(obj) = value.as_object_mut() else {
            return Err(command_error(
                "expected an object like {action: \"produce\", ...}",
            ));
        };
        if obj.contains_key("at_ms") {
            return Err(ScenarioError {
                path: "command.at_ms".into(),
                message: "commands apply at the playhead; leave at_ms out".into(),
            });
        }
        let is_produce = obj.get("action").and_then(Value::as_str) == Some("produce");
        if is_produce && !obj.contains_key("id") {
            obj.insert("id".into(), json!(self.fresh_id()));
        }
        obj.insert("at_ms".into(), json!(0));
        let sim = &self.frontier;
        let doc = json!({
            "name": "command",
            "seed": sim.seed(),
            "config": sim.config(),
            "topics": sim.topics(),
            "actions": [value],
            "run_until_ms": 0,
        });
        // The command is parsed as `actions[0]` of a scenario: its errors name it `command`,
        // in their path and where a message points back into it (a partition listed twice).
        let parsed = Scenario::from_value(&doc).map_err(|e| ScenarioError {
            path: e.path.replacen("actions[0]", "command", 1),
            message: e.message.replace("at actions[0].", "at command."),
        })?;
        let action = parsed
            .actions
            .into_iter()
            .next()
            .ok_or_else(|| command_error("empty"))?
            .action;
        if let Action::Produce(p) = &action {
            if self.id_in_use(&p.id) {
                let quoted = serde_json::to_string(&*p.id).unwrap_or_default();
                return Err(ScenarioError {
                    path: "command.id".into(),
                    message: format!("{quoted} is already used"),
                });
            }
        }
        Ok(action)
    }

    /// Whether a produce id belongs to an action the run keeps: at a past instant the person's
    /// own actions after the playhead go with the fork (see [`Self::fork`]), their ids with them.
    fn id_in_use(&self, id: &str) -> bool {
        let Some(head) = &self.head else {
            return self.ids.contains(id);
        };
        let at_ms = head.now_ms();
        self.actions.iter().any(|a| {
            let kept = !(a.by_user && a.action.at_ms > at_ms);
            kept && matches!(&a.action.action, Action::Produce(p) if &*p.id == id)
        })
    }

    /// The next `pN` not in use (it is taken only when the command is applied).
    fn fresh_id(&mut self) -> String {
        loop {
            let id = format!("p{}", self.next_id);
            if !self.ids.contains(&id) {
                return id;
            }
            self.next_id += 1;
        }
    }

    /// What a command now would drop; `None` when the playhead is at the frontier.
    pub fn fork_preview(&self) -> Option<ForkPreview> {
        let head = self.head.as_ref()?;
        let at_ms = head.now_ms();
        let (mut user_actions, mut user_actions_dropped) = (0, 0);
        for a in self.actions.iter().filter(|a| a.by_user) {
            user_actions += 1;
            user_actions_dropped += usize::from(a.action.at_ms > at_ms);
        }
        Some(ForkPreview {
            at_ms,
            frontier_ms: self.frontier.now_ms(),
            user_actions_dropped,
            user_actions,
        })
    }

    /// Makes the playhead's instant the end of the computed run: the person's later actions go,
    /// the scenario's script stays, and the history is rebuilt up to the playhead.
    fn fork(&mut self) {
        let head = self.head.take().expect("a fork starts behind the frontier");
        let at_ms = head.now_ms();
        let frontier = std::mem::replace(&mut self.frontier, head);
        let undo = Undo {
            at_ms,
            frontier,
            checkpoints_after: self.checkpoints.split_off_after(at_ms),
            history: self.history.clone(),
            actions: self.actions.clone(),
            horizon_ms: self.horizon_ms,
            live: self.live,
        };
        self.undo = Some(Box::new(undo));
        self.actions
            .retain(|a| !(a.by_user && a.action.at_ms > at_ms));
        let later = self.actions.iter().filter(|a| a.action.at_ms > at_ms);
        let later: Vec<TimedAction> = later.map(|a| a.action.clone()).collect();
        self.frontier.replace_pending_actions(later);
        self.checkpoints.sync_pending_actions(&self.actions);
        self.ids = self.produce_ids();
        self.rebuild_history_to(at_ms);
    }

    /// Rebuilds the history through instant `at_ms` from the latest checkpoint before it.
    fn rebuild_history_to(&mut self, at_ms: u64) {
        let from = self.checkpoints.to_replay(at_ms);
        self.history.rewind(from.from_ms, from.derived.clone());
        let mut sim = from.sim.clone();
        while sim.advance_within(at_ms).is_some() {
            let events = sim.drain_trace();
            self.history.observe(&events);
        }
    }

    /// Takes back the last fork: the dropped future returns and the playhead goes back to the
    /// instant the fork was made at. Returns whether there was one.
    pub fn undo(&mut self) -> bool {
        let Some(undo) = self.undo.take() else {
            return false;
        };
        let undo = *undo;
        self.frontier = undo.frontier;
        self.checkpoints.split_off_after(undo.at_ms);
        self.checkpoints.extend(undo.checkpoints_after);
        self.history = undo.history;
        self.actions = undo.actions;
        self.checkpoints.sync_pending_actions(&self.actions);
        self.horizon_ms = undo.horizon_ms;
        self.live = undo.live;
        self.ids = self.produce_ids();
        self.replay_head_to(undo.at_ms);
        true
    }

    /// A scenario that reached its end goes on as a live session (a person acted after it).
    pub fn continue_live(&mut self) {
        self.live = true;
        self.horizon_ms = LIVE_HORIZON_MS;
    }
}
