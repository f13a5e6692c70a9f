//! What if? Two runs of one scenario that differ in one thing ([`Change`]), compared: the first
//! instant where their traces part, and what every producer got in each (error, answer time,
//! offsets, and acknowledged records later lost).
//!
//! The first divergence is the first trace event that differs. Events are compared as the runner
//! prints them, with one exception: a request's arrival (`produce_received`) counts as the same
//! when only its acks or timeout differ, since that is the change itself, not a consequence of it
//! ("with acks=1 the leader answers p1 at once; with acks=all p1 waits" is the divergence).

use std::rc::Rc;

use serde::Serialize;
use serde_json::Value;

use crate::scenario::change::grouped;
pub use crate::scenario::Change;

use crate::scenario::result::{ResponseResult, RunResult};
use crate::scenario::{budget, Scenario};
use crate::sweep::Outcome;

mod lockstep;

/// One side of a comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Side {
    pub name: String,
    /// What this run changes, in words (`None` for the run as written).
    pub change: Option<String>,
}

/// The first instant where the two runs' traces differ.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Divergence {
    pub at_ms: u64,
    /// The event's number in both traces (every event before it is the same).
    pub event: u64,
    /// Each run's event there, as the trace has it; `None` where that trace had already ended.
    pub a: Option<Value>,
    pub b: Option<Value>,
    /// The events of that millisecond that one run has and the other has not, in trace order,
    /// compared without their numbers and causes (which shift with everything before them): the
    /// first differing event is often background (a fetch answered a step later), so the page
    /// words the divergence by the first differing event where it is one of these, else by the
    /// first of these its narration tells.
    pub only_a: Vec<Value>,
    pub only_b: Vec<Value>,
}

/// What a producer got in one run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Answer {
    /// Each partition's error ("no answer" where none came), then a closed connection, then the
    /// producer's own timeout ([`Outcome::label`] of `got`): `NONE`, `NOT_ENOUGH_REPLICAS +
    /// NONE`, `no answer, connection closed`, `no answer, timed out in the producer`.
    pub outcome: String,
    /// The same outcome in parts, as the phases sweep writes each of its outcomes: the page words
    /// both from these.
    pub got: Outcome,
    pub answered_ms: Option<u64>,
    /// When the producer gave up on it (its own `request.timeout.ms`); written only then.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_timed_out_ms: Option<u64>,
    /// Each partition's base offset (-1 where nothing was appended); none for a request the
    /// producer gave up on, which never read them.
    pub base_offsets: Vec<i64>,
    /// When acknowledged records of it were lost (a new leader's log lacked them).
    pub lost_ms: Option<u64>,
}

/// One request in both runs (absent from a run that left it out).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutcomeRow {
    pub id: String,
    pub a: Option<Answer>,
    pub b: Option<Answer>,
    pub differs: bool,
}

/// A moment worth a marker on the timeline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mark {
    pub at_ms: u64,
    /// `a`, `b`, or `both`.
    pub run: &'static str,
    /// `divergence`, `answer` (a request answered differently), `lost`.
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    pub a: Side,
    pub b: Side,
    /// `None` when the two traces are the same event for event.
    pub divergence: Option<Divergence>,
    /// Every request of either run, in the order of the first run (then those only the second
    /// has).
    pub outcomes: Vec<OutcomeRow>,
    /// Requests answered differently in the two runs.
    pub differing: usize,
    /// The divergence, each differing answer, each loss: in time order.
    pub marks: Vec<Mark>,
}

impl Comparison {
    /// The runs differ in what some producer got.
    pub fn outcomes_differ(&self) -> bool {
        self.differing > 0
    }
}

/// Runs both scenarios to their end and compares them: their traces up to where they part (see
/// `lockstep.rs`), and what every producer got. `change` is what `b` changes, in words.
pub fn compare(a: &Scenario, b: &Scenario, change: Option<String>) -> std::io::Result<Comparison> {
    let lockstep::Played {
        a: result_a,
        b: result_b,
        divergence,
    } = lockstep::play_both(a, b)?;
    let outcomes = outcome_rows(&result_a, &result_b);
    let differing = outcomes.iter().filter(|r| r.differs).count();
    let marks = marks(divergence.as_ref(), &outcomes);
    Ok(Comparison {
        a: Side {
            name: a.name.clone(),
            change: None,
        },
        b: Side {
            name: b.name.clone(),
            change,
        },
        divergence,
        outcomes,
        differing,
        marks,
    })
}

/// A scenario against itself with one change: the runner's `compare FILE --change C` and the
/// page's `whatIf`. Both runs are played to their end at once, so each is held to the work budget
/// first (README, "Work budget"): a change such as `replica.fetch.wait.max.ms=0` can make a run
/// the budget admits cost hundreds of times more.
pub fn what_if(scenario: &Scenario, change: &Change) -> Result<(Scenario, Comparison), String> {
    budget::check(scenario).map_err(|e| e.to_string())?;
    let other = change.apply(scenario)?;
    budget::check(&other).map_err(|e| format!("with {change}: {e}"))?;
    let comparison = compare(scenario, &other, Some(change.describe(scenario)))
        .map_err(|e| format!("the runs could not be traced: {e}"))?;
    Ok((other, comparison))
}

/// The divergence at the `event`th event of both traces, where run A has `a` and run B has `b`
/// (`None` where its trace had ended). `events_at(ms)` gives each run's events of a millisecond.
fn divergence(
    event: u64,
    a: Option<Value>,
    b: Option<Value>,
    events_at: impl Fn(u64) -> (Vec<Value>, Vec<Value>),
) -> Divergence {
    let time = |v: &Option<Value>| v.as_ref().and_then(|v| v["at_ms"].as_u64());
    let at_ms = match (time(&a), time(&b)) {
        (Some(x), Some(y)) => x.min(y),
        (x, y) => x.or(y).unwrap_or(0),
    };
    let (events_a, events_b) = events_at(at_ms);
    Divergence {
        at_ms,
        event,
        a,
        b,
        only_a: unmatched(&events_a, &events_b),
        only_b: unmatched(&events_b, &events_a),
    }
}

/// The events of `ours` that `theirs` lacks, each once per copy it lacks (see
/// [`Divergence::only_a`]).
fn unmatched(ours: &[Value], theirs: &[Value]) -> Vec<Value> {
    // Ids and causes number the events of one run: the same event has others in the other run.
    let key = |v: &Value| {
        let mut v = without_the_change(v);
        if let Some(fields) = v.as_object_mut() {
            fields.remove("id");
            fields.remove("cause");
        }
        v
    };
    let mut left: Vec<Value> = theirs.iter().map(key).collect();
    ours.iter()
        .filter(|event| {
            let k = key(event);
            match left.iter().position(|other| *other == k) {
                Some(i) => {
                    left.swap_remove(i);
                    false
                }
                None => true,
            }
        })
        .cloned()
        .collect()
}

/// A trace line as JSON, read as text by the reader every other JSON the .wasm reads goes through
/// (one copy of the reader in the .wasm).
fn parse_line(line: &[u8]) -> Option<Value> {
    crate::scenario::strict_from_str(std::str::from_utf8(line).ok()?).ok()
}

/// An event without what a what-if changes in it by its nature: a `produce_received`'s acks and
/// timeout are the change itself, not a consequence of it.
fn without_the_change(event: &Value) -> Value {
    let mut event = event.clone();
    if let Some(fields) = event.as_object_mut() {
        if fields.get("event").and_then(Value::as_str) == Some("produce_received") {
            fields.remove("acks");
            fields.remove("timeout_ms");
        }
    }
    event
}

/// Two `produce_received` events that differ only in the request's acks or timeout.
fn same_arrival(a: &Value, b: &Value) -> bool {
    a["event"] == "produce_received"
        && b["event"] == "produce_received"
        && without_the_change(a) == without_the_change(b)
}

/// What the producer got: the broker's answer, unless the producer gave up on it first.
fn answer(response: &ResponseResult, result: &RunResult) -> Answer {
    let gave_up = response.client_timed_out_ms.is_some();
    let got = Outcome {
        errors: response
            .partitions
            .iter()
            .map(|p| p.error.filter(|_| !gave_up))
            .collect(),
        connection_closed: response.connection_closed,
        client_timed_out: gave_up,
    };
    let lost_ms = result
        .lost_acknowledged
        .iter()
        .filter(|l| l.id == response.id)
        .map(|l| l.lost_ms)
        .min();
    Answer {
        outcome: got.label(),
        got,
        answered_ms: response.responded_ms.filter(|_| !gave_up),
        client_timed_out_ms: response.client_timed_out_ms,
        base_offsets: if gave_up {
            Vec::new()
        } else {
            response.partitions.iter().map(|p| p.base_offset).collect()
        },
        lost_ms,
    }
}

fn outcome_rows(a: &RunResult, b: &RunResult) -> Vec<OutcomeRow> {
    let find = |result: &RunResult, id: &Rc<str>| result.responses.iter().position(|r| r.id == *id);
    let mut rows: Vec<OutcomeRow> = a
        .responses
        .iter()
        .map(|ra| {
            let other = find(b, &ra.id).map(|i| answer(&b.responses[i], b));
            row(ra.id.to_string(), Some(answer(ra, a)), other)
        })
        .collect();
    for rb in &b.responses {
        if find(a, &rb.id).is_none() {
            rows.push(row(rb.id.to_string(), None, Some(answer(rb, b))));
        }
    }
    rows
}

fn row(id: String, a: Option<Answer>, b: Option<Answer>) -> OutcomeRow {
    let differs = a != b;
    OutcomeRow { id, a, b, differs }
}

fn marks(divergence: Option<&Divergence>, rows: &[OutcomeRow]) -> Vec<Mark> {
    let mut marks: Vec<Mark> = divergence
        .map(|d| Mark {
            at_ms: d.at_ms,
            run: "both",
            kind: "divergence",
            request: None,
        })
        .into_iter()
        .collect();
    for r in rows.iter().filter(|r| r.differs) {
        for (run, side) in [("a", &r.a), ("b", &r.b)] {
            let Some(answer) = side else { continue };
            let mut mark = |at_ms: u64, kind: &'static str| {
                marks.push(Mark {
                    at_ms,
                    run,
                    kind,
                    request: Some(r.id.clone()),
                })
            };
            if let Some(at) = answer.answered_ms.or(answer.client_timed_out_ms) {
                mark(at, "answer");
            }
            if let Some(at) = answer.lost_ms {
                mark(at, "lost");
            }
        }
    }
    marks.sort_by_key(|m| m.at_ms); // stable: the divergence first
    marks
}

impl Comparison {
    /// The comparison as the runner prints it without `--json`.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "A: {} as written\nB: {}\n\n",
            self.a.name,
            self.b.change.as_deref().unwrap_or(&self.b.name)
        );
        match &self.divergence {
            None => out.push_str("The two runs are the same, event for event.\n"),
            Some(d) => {
                out.push_str(&format!(
                    "First divergence at {} ms (event {}):\n  A: {}\n  B: {}\n",
                    grouped(d.at_ms),
                    d.event,
                    summary(d.a.as_ref()),
                    summary(d.b.as_ref())
                ));
            }
        }
        out.push_str(&format!(
            "\n{} of {} requests answered differently.\n\n",
            self.differing,
            self.outcomes.len()
        ));
        let width = self
            .outcomes
            .iter()
            .map(|r| r.id.len())
            .max()
            .unwrap_or(0)
            .max(7);
        for r in &self.outcomes {
            let mark = if r.differs { "*" } else { " " };
            out.push_str(&format!(
                "{mark} {:width$}  A: {}\n  {:width$}  B: {}\n",
                r.id,
                answer_text(r.a.as_ref()),
                "",
                answer_text(r.b.as_ref()),
            ));
        }
        out
    }
}

fn answer_text(answer: Option<&Answer>) -> String {
    let Some(a) = answer else {
        return "not in this run".to_string();
    };
    let at = a
        .answered_ms
        .or(a.client_timed_out_ms)
        .map_or(String::new(), |ms| format!(" at {} ms", grouped(ms)));
    let offsets: Vec<String> = a.base_offsets.iter().map(i64::to_string).collect();
    let offsets = if offsets.is_empty() {
        String::new()
    } else {
        format!(", offset {}", offsets.join(" + "))
    };
    let lost = a
        .lost_ms
        .map_or(String::new(), |ms| format!(", LOST at {} ms", grouped(ms)));
    format!("{}{at}{offsets}{lost}", a.outcome)
}

/// One trace event in a line: its kind, then the fields that say whose it is.
fn summary(event: Option<&Value>) -> String {
    let Some(event) = event else {
        return "(the trace has ended)".to_string();
    };
    let mut out = event["event"].as_str().unwrap_or("?").to_string();
    for key in ["request", "broker", "tp", "key", "error", "how", "reason"] {
        match &event[key] {
            Value::Null => {}
            Value::String(s) => out.push_str(&format!(" {key}={s}")),
            other => out.push_str(&format!(" {key}={other}")),
        }
    }
    let answer = event["event"] == "produce_response_sent";
    if let Some(parts) = event["partitions"].as_array().filter(|_| answer) {
        let errors: Vec<String> = parts
            .iter()
            .filter_map(|p| Some(format!("{}:{}", p["tp"].as_str()?, p["error"].as_str()?)))
            .collect();
        if !errors.is_empty() {
            out.push_str(&format!(" [{}]", errors.join(", ")));
        }
    }
    out
}

#[cfg(test)]
mod tests;
