//! The timing wheel checked against a naive sorted model on seeded random workloads.
//!
//! The model keeps pending entries in a `BTreeSet` ordered by due time and states the observable
//! rule directly: an entry is due at `floor(expiration / tick_ms) * tick_ms` (its expiration when
//! tick_ms is 1) and fires at the first `advance_clock` call whose `now_ms` reaches that. Each run
//! mixes adds, cancels of live and stale handles, advances that follow `next_expiration_ms`, jumps,
//! and time passing without an advance (so the wheels lag the caller), then drains the timer.
//!
//! Scale up with `TIMER_MODEL_ITERATIONS=<seeds per wheel shape>` (default 4). A failure prints
//! the seed and wheel shape; `TIMER_MODEL_SEED=<seed>` reruns just that seed, and
//! `TIMER_MODEL_VERBOSE=1` prints what each run covered.

use std::collections::BTreeSet;

use purgatory_playground::timer::{AddResult, Timer, TimerHandle};

mod common;
use common::SplitMix64;

/// Timers added per run.
const TIMERS_PER_RUN: usize = 4_000;

#[derive(Clone, Copy, Debug)]
struct Shape {
    tick_ms: u64,
    wheel_size: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Pending,
    Fired,
    Cancelled,
}

struct Record {
    handle: Option<TimerHandle>,
    expiration_ms: u64,
    due_ms: u64,
    state: State,
    /// Index in `Model::live` while pending.
    live_index: usize,
}

/// The naive model, plus a log of everything the timer fired for the determinism check.
struct Model {
    tick_ms: u64,
    now_ms: u64,
    /// (due_ms, id) of every pending entry.
    pending: BTreeSet<(u64, u64)>,
    records: Vec<Record>,
    /// Ids of pending entries, for picking one at random.
    live: Vec<u64>,
    /// (advance call number, handle, id) of every firing, in order.
    log: Vec<(usize, TimerHandle, u64)>,
    advances: usize,
    coverage: Coverage,
}

/// What a run exercised, so that a degenerate workload cannot pass silently.
#[derive(Debug, Default)]
struct Coverage {
    expired_at_add: u64,
    fired: u64,
    cancelled_live: u64,
    cancelled_stale: u64,
    /// Advances to a queue head already behind the caller's clock (the wheels lagged).
    lagging_heads: u64,
    /// Advances that fired more than one distinct due time (a late call).
    late_advances: u64,
    max_levels: usize,
}

impl Model {
    fn new(shape: Shape, start_ms: u64) -> Model {
        Model {
            tick_ms: shape.tick_ms,
            now_ms: start_ms,
            pending: BTreeSet::new(),
            records: Vec::new(),
            live: Vec::new(),
            log: Vec::new(),
            advances: 0,
            coverage: Coverage::default(),
        }
    }

    fn settle(&mut self, id: u64, state: State) {
        let record = &mut self.records[id as usize];
        assert_eq!(record.state, State::Pending, "entry {id} settled twice");
        record.state = state;
        assert!(self.pending.remove(&(record.due_ms, id)));
        let index = record.live_index;
        self.live.swap_remove(index);
        if let Some(&moved) = self.live.get(index) {
            self.records[moved as usize].live_index = index;
        }
    }
}

fn pick_delay(rng: &mut SplitMix64) -> u64 {
    match rng.below(100) {
        0..=4 => 0,
        5..=44 => rng.between(1, 50),
        45..=74 => rng.between(1, 5_000),
        75..=94 => rng.between(1, 200_000),
        _ => rng.between(200_000, (1 << 31) - 1),
    }
}

fn add(timer: &mut Timer<u64>, model: &mut Model, delay_ms: u64) {
    let id = model.records.len() as u64;
    let now_ms = model.now_ms;
    let expiration_ms = now_ms + delay_ms;
    let due_ms = expiration_ms - expiration_ms % model.tick_ms;
    // Kafka's insert rule: rejected as expired when before the finest wheel's next tick.
    let rejected = delay_ms == 0 || expiration_ms < timer.current_time_ms() + model.tick_ms;
    if model.tick_ms == 1 {
        assert_eq!(
            rejected,
            delay_ms == 0,
            "with 1 ms ticks only delay 0 is expired"
        );
    }
    let mut record = Record {
        handle: None,
        expiration_ms,
        due_ms,
        state: State::Fired,
        live_index: usize::MAX,
    };
    match timer.add(now_ms, delay_ms, id) {
        AddResult::Expired(task) => {
            assert_eq!(task, id, "the expired task is handed back");
            assert!(
                rejected,
                "entry {id} (delay {delay_ms}) expired at insertion"
            );
            model.coverage.expired_at_add += 1;
        }
        AddResult::Scheduled(handle) => {
            assert!(
                !rejected,
                "entry {id} (delay {delay_ms}) should have expired"
            );
            assert_eq!(timer.expiration_ms(handle), Some(expiration_ms));
            record.handle = Some(handle);
            record.state = State::Pending;
            record.live_index = model.live.len();
            model.live.push(id);
            model.pending.insert((due_ms, id));
        }
    }
    model.records.push(record);
}

fn cancel(timer: &mut Timer<u64>, model: &mut Model, id: u64) {
    let record = &model.records[id as usize];
    let Some(handle) = record.handle else { return };
    let cancelled = timer.cancel(handle);
    if record.state == State::Pending {
        assert!(cancelled, "cancel of live entry {id}");
        model.coverage.cancelled_live += 1;
        model.settle(id, State::Cancelled);
    } else {
        assert!(!cancelled, "cancel of stale handle of entry {id}");
        model.coverage.cancelled_stale += 1;
    }
}

/// One `advance_clock(now_ms)` call: exactly the pending entries due by `now_ms` fire, each
/// once, in non-decreasing due order, with the handle and task they were scheduled with.
fn advance(timer: &mut Timer<u64>, model: &mut Model, now_ms: u64) {
    let head_due = timer
        .next_expiration_ms()
        .is_some_and(|next| next <= now_ms);
    let mut fired = Vec::new();
    let processed = timer.advance_clock(now_ms, |due| {
        assert_eq!(
            due.expiration_ms, model.records[due.task as usize].expiration_ms,
            "the expiration handed back"
        );
        fired.push((due.handle, due.task))
    });
    assert_eq!(processed, head_due, "advance_clock({now_ms}) return value");
    let mut expected: Vec<u64> = model
        .pending
        .range(..=(now_ms, u64::MAX))
        .map(|&(_, id)| id)
        .collect();
    let mut previous_due_ms = 0;
    for &(handle, id) in &fired {
        let record = model
            .records
            .get(id as usize)
            .expect("fired an unknown task");
        assert_eq!(
            record.handle,
            Some(handle),
            "entry {id} fired with another handle"
        );
        assert_eq!(
            record.state,
            State::Pending,
            "entry {id} fired but was {:?}",
            record.state
        );
        assert!(
            record.due_ms >= previous_due_ms,
            "entry {id} fired out of due order"
        );
        previous_due_ms = record.due_ms;
        model.log.push((model.advances, handle, id));
    }
    let mut got: Vec<u64> = fired.iter().map(|&(_, id)| id).collect();
    got.sort_unstable();
    expected.sort_unstable();
    assert_eq!(got, expected, "entries fired by advance_clock({now_ms})");
    let first_due_ms = fired
        .first()
        .map(|&(_, id)| model.records[id as usize].due_ms);
    if first_due_ms.is_some_and(|first| first < previous_due_ms) {
        model.coverage.late_advances += 1;
    }
    model.coverage.fired += got.len() as u64;
    model.coverage.max_levels = model.coverage.max_levels.max(timer.level_count());
    for id in got {
        model.settle(id, State::Fired);
    }
    model.advances += 1;
}

/// Cheap checks after every step.
fn check(timer: &Timer<u64>, model: &Model) {
    assert_eq!(timer.size(), model.pending.len(), "size()");
    if let Some(&(earliest_due_ms, _)) = model.pending.first() {
        let next = timer
            .next_expiration_ms()
            .expect("pending entries but an empty queue");
        assert!(
            next <= earliest_due_ms,
            "queue head {next} after a due entry {earliest_due_ms}"
        );
    }
}

/// Full checks, now and then: the timer's own invariants and every record's handle.
fn check_all(timer: &Timer<u64>, model: &Model) {
    timer.assert_invariants();
    for (id, record) in model.records.iter().enumerate() {
        let Some(handle) = record.handle else {
            continue;
        };
        if record.state == State::Pending {
            assert_eq!(timer.get(handle), Some(&(id as u64)));
            assert_eq!(timer.expiration_ms(handle), Some(record.expiration_ms));
            assert!(timer.locate(handle).is_some());
        } else {
            assert_eq!(timer.get(handle), None, "stale handle of entry {id}");
            assert_eq!(timer.locate(handle), None);
        }
    }
}

fn step(timer: &mut Timer<u64>, model: &mut Model, rng: &mut SplitMix64) {
    match rng.below(100) {
        0..=44 => {
            let delay_ms = pick_delay(rng);
            add(timer, model, delay_ms);
        }
        45..=54 if !model.live.is_empty() => {
            let id = model.live[rng.below(model.live.len() as u64) as usize];
            cancel(timer, model, id);
        }
        55..=61 if !model.records.is_empty() => {
            let id = rng.below(model.records.len() as u64);
            cancel(timer, model, id);
        }
        62..=79 => {
            if let Some(next_ms) = timer.next_expiration_ms() {
                // A head behind the caller's clock (the wheels lag) may be advanced to as is.
                model.coverage.lagging_heads += u64::from(next_ms < model.now_ms);
                let to_ms = if next_ms < model.now_ms && rng.below(2) == 0 {
                    next_ms
                } else {
                    next_ms.max(model.now_ms)
                };
                model.now_ms = to_ms.max(model.now_ms);
                advance(timer, model, to_ms);
            }
        }
        80..=87 => {
            model.now_ms += match rng.below(100) {
                0 => rng.below(5_000_000),
                _ => rng.below(2_000),
            };
            advance(timer, model, model.now_ms);
        }
        88..=94 => model.now_ms += rng.below(300),
        _ => advance(timer, model, model.now_ms),
    }
}

/// Runs one seeded workload to completion and returns the fire log.
fn run(seed: u64, shape: Shape, timers: usize) -> Vec<(usize, TimerHandle, u64)> {
    let _guard = SeedGuard { seed, shape };
    let mut rng = SplitMix64(seed);
    let start_ms = match rng.below(3) {
        0 => 0,
        1 => rng.below(100_000),
        _ => rng.below(1 << 40),
    };
    let mut timer = Timer::with_wheel(shape.tick_ms, shape.wheel_size, start_ms);
    let mut model = Model::new(shape, start_ms);
    let mut steps = 0u64;
    while model.records.len() < timers {
        step(&mut timer, &mut model, &mut rng);
        check(&timer, &model);
        steps += 1;
        if steps % 97 == 0 {
            check_all(&timer, &model);
        }
    }
    // Drain by following the queue head, as the simulation does.
    while let Some(next_ms) = timer.next_expiration_ms() {
        let now_ms = model.now_ms.max(next_ms);
        model.now_ms = now_ms;
        advance(&mut timer, &mut model, now_ms);
        check(&timer, &model);
    }
    check_all(&timer, &model);
    assert!(model.pending.is_empty(), "entries left after draining");
    assert!(timer
        .view()
        .levels
        .iter()
        .all(|level| level.buckets.is_empty()));
    if std::env::var_os("TIMER_MODEL_VERBOSE").is_some() {
        eprintln!("seed {seed} {shape:?}: {:?}", model.coverage);
    }
    let c = &model.coverage;
    let covered = [
        c.expired_at_add,
        c.fired,
        c.cancelled_live,
        c.cancelled_stale,
        c.lagging_heads,
        c.late_advances,
    ];
    assert!(
        covered.iter().all(|&n| n > 0),
        "workload missed a case: {c:?}"
    );
    model.log
}

/// Prints the seed and shape if the run panics.
struct SeedGuard {
    seed: u64,
    shape: Shape,
}

impl Drop for SeedGuard {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!(
                "timer model failed: seed {} with {:?} (rerun with TIMER_MODEL_SEED={})",
                self.seed, self.shape, self.seed
            );
        }
    }
}

fn env_u64(name: &str) -> Option<u64> {
    let value = std::env::var(name).ok()?;
    Some(
        value
            .parse()
            .unwrap_or_else(|_| panic!("{name} must be an integer")),
    )
}

fn seeds(shape_salt: u64) -> Vec<u64> {
    if let Some(seed) = env_u64("TIMER_MODEL_SEED") {
        return vec![seed];
    }
    let iterations = env_u64("TIMER_MODEL_ITERATIONS").unwrap_or(4);
    (0..iterations)
        .map(|i| shape_salt.wrapping_mul(0x1000_0000_01b3) ^ i)
        .collect()
}

fn run_shape(tick_ms: u64, wheel_size: usize) {
    let shape = Shape {
        tick_ms,
        wheel_size,
    };
    for seed in seeds(tick_ms * 1_000 + wheel_size as u64) {
        run(seed, shape, TIMERS_PER_RUN);
    }
}

#[test]
fn kafka_default_wheel_matches_the_model() {
    run_shape(1, 20);
}

#[test]
fn binary_wheel_with_many_levels_matches_the_model() {
    run_shape(1, 2);
}

#[test]
fn small_odd_wheels_match_the_model() {
    run_shape(1, 3);
    run_shape(1, 7);
}

#[test]
fn wide_wheel_matches_the_model() {
    run_shape(1, 64);
}

#[test]
fn coarse_ticks_round_due_times_down() {
    run_shape(5, 8);
    run_shape(3, 20);
}

#[test]
fn same_seed_fires_the_same_handles_in_the_same_order() {
    let shape = Shape {
        tick_ms: 1,
        wheel_size: 20,
    };
    let first = run(42, shape, 1_000);
    let second = run(42, shape, 1_000);
    assert!(!first.is_empty());
    assert_eq!(first, second);
}
