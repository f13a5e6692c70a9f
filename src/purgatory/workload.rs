//! Kafka's purgatory benchmark workload (`kafka.TestPurgatoryPerformance`) in simulated time: the
//! schedule and its replay against the crate's [`Purgatory`], shared by the native bench
//! (`benches/purgatory_workload.rs`, which adds a naive baseline store), the native timing example
//! (`examples/purgatory_workload.rs`) and, built with the `workload` feature, the wasm bench page
//! (`www/bench.html`), so wasm and native time the very same code on the very same schedule.
//!
//! The workload, as Kafka's: exponential inter-arrival times; each request would complete after a
//! log-normal latency (median 200 ms, 75th percentile 400 ms) and times out after 200 ms, so
//! about half expire and half are completed first. As in Kafka's test, three keys are drawn once
//! from a space of 100 and every request is watched on those same three, and a completion queue
//! calls `forceComplete` on a request when its latency has passed, which leaves it on the three
//! lists as garbage for the purge (Kafka's default purge interval, 1,000). The arrival rate is set
//! so that about 1 million requests are pending at steady state (rate x mean residency).
//!
//! Not part of the model: floats are fine here (they only draw the schedule).

use super::{Completion, Hooks, OpId, Purgatory};
use crate::plumbing::hot::{self, at, at_mut};

pub const TIMEOUT_MS: u64 = 200;
const MEDIAN_MS: f64 = 200.0;
const PCT75_MS: f64 = 400.0;
/// Requests pending at steady state that the arrival rate aims for.
const TARGET_PENDING: f64 = 1_000_000.0;
/// The bench's schedule length.
pub const REQUESTS: usize = 6_000_000;
/// Pending counts are averaged from here to the last arrival (the ramp-up is one timeout long).
const STEADY_FROM_MS: u64 = 2 * TIMEOUT_MS;
const SEED: u64 = 0x05ee_d0fc_afca;
/// Kafka's `--key-space-size` and `--keys` defaults.
const KEY_SPACE_SIZE: u64 = 100;
const KEYS_PER_REQUEST: usize = 3;

/// SplitMix64: one seeded stream, no OS randomness.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in (0, 1]: never 0, so `ln` is finite.
    fn unit(&mut self) -> f64 {
        ((self.next_u64() >> 11) + 1) as f64 / (1u64 << 53) as f64
    }

    fn exponential(&mut self, mean: f64) -> f64 {
        -mean * self.unit().ln()
    }

    /// Box-Muller (one of the pair is enough here).
    fn standard_normal(&mut self) -> f64 {
        let (u1, u2) = (self.unit(), self.unit());
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    fn log_normal(&mut self, mu: f64, sigma: f64) -> f64 {
        (mu + sigma * self.standard_normal()).exp()
    }
}

/// The arrival and completion schedule, generated up front and replayed by every store.
pub struct Schedule {
    /// Arrival millisecond of request i (non-decreasing).
    pub arrive_ms: Vec<u32>,
    /// Millisecond at which request i may complete (its log-normal latency after arrival).
    pub completes_at_ms: Vec<u32>,
    pub end_ms: u64,
    pub rate_per_ms: f64,
}

impl Schedule {
    /// Kafka's workload with `requests` arrivals.
    pub fn new(requests: usize) -> Schedule {
        let mu = MEDIAN_MS.ln();
        // The 75th percentile of N(0, 1) is 0.6745.
        let sigma = (PCT75_MS / MEDIAN_MS).ln() / 0.674_489_75;
        let rate_per_ms = TARGET_PENDING / mean_residency_ms(mu, sigma, TIMEOUT_MS as f64);
        let mut rng = SplitMix64(SEED);
        let mut t = 0.0;
        let mut arrive_ms = Vec::with_capacity(requests);
        let mut completes_at_ms = Vec::with_capacity(requests);
        for _ in 0..requests {
            t += rng.exponential(1.0 / rate_per_ms);
            let arrive = t as u32;
            let latency = rng.log_normal(mu, sigma).min(1e9) as u32;
            arrive_ms.push(arrive);
            completes_at_ms.push(arrive.saturating_add(latency));
        }
        let end_ms = u64::from(*arrive_ms.last().unwrap()) + TIMEOUT_MS + 1;
        Schedule {
            arrive_ms,
            completes_at_ms,
            end_ms,
            rate_per_ms,
        }
    }

    /// Whether request i's latency ends before its timeout, so the completion queue completes it.
    #[inline(always)]
    pub fn completes_first(&self, i: usize) -> bool {
        u64::from(at(&self.completes_at_ms, i) - at(&self.arrive_ms, i)) < TIMEOUT_MS
    }
}

impl Schedule {
    /// The schedule as a file another implementation replays (`tools/kafka-purgatory-bench` reads
    /// it, so that Kafka's purgatory gets exactly this job), all little-endian: `PPWL`, u32
    /// version 1, u32 requests, u32 timeout ms, u32 key count, the watch keys (u32 each), u64 end
    /// ms, then every arrival ms and every completion ms (u32 each, in request order).
    pub fn write_file(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        let keys = watch_keys();
        let header = [
            1,
            self.arrive_ms.len() as u32,
            TIMEOUT_MS as u32,
            keys.len() as u32,
        ];
        out.write_all(b"PPWL")?;
        for word in header.iter().chain(&keys) {
            out.write_all(&word.to_le_bytes())?;
        }
        out.write_all(&self.end_ms.to_le_bytes())?;
        for ms in self.arrive_ms.iter().chain(&self.completes_at_ms) {
            out.write_all(&ms.to_le_bytes())?;
        }
        Ok(())
    }
}

/// E[min(L, c)] for L log-normal(mu, sigma): the mean time a request stays in the purgatory.
fn mean_residency_ms(mu: f64, sigma: f64, c: f64) -> f64 {
    // Numerically, by the same sampler, to avoid needing the normal CDF.
    let mut rng = SplitMix64(SEED ^ 1);
    let n = 200_000;
    (0..n)
        .map(|_| rng.log_normal(mu, sigma).min(c))
        .sum::<f64>()
        / n as f64
}

/// Kafka's test draws its keys once, before the first request.
fn watch_keys() -> Vec<u32> {
    let mut rng = SplitMix64(SEED ^ 2);
    (0..KEYS_PER_REQUEST)
        .map(|_| (rng.next_u64() % KEY_SPACE_SIZE) as u32)
        .collect()
}

/// What every store counts, so a replay can check they agree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub completed: u64,
    pub expired: u64,
    /// Sum and max over the steady milliseconds of the pending count, and how many were summed.
    pub pending_sum: u64,
    pub pending_max: u64,
    pub steady_ms: u64,
}

impl Outcome {
    /// How the native example and the wasm bench page print a replay, after its time:
    /// `completed expired pending_sum pending_max steady_ms phases E A C`, the last three the ms
    /// of [`replay_timed`]'s phases.
    pub fn line(&self, [e, a, c]: [f64; 3]) -> String {
        format!(
            "{} {} {} {} {} phases {e:.1} {a:.1} {c:.1}",
            self.completed, self.expired, self.pending_sum, self.pending_max, self.steady_ms
        )
    }
}

/// A delayed-operation store driven in simulated milliseconds.
pub trait Store {
    /// What the completion queue keeps to complete a request later (Kafka's queue holds the
    /// operation itself).
    type Handle: Copy;
    fn arrive(&mut self, request: u32, completes_at_ms: u64, now_ms: u64) -> Self::Handle;
    /// Completes the requests whose latency ends at `now_ms` (Kafka's completion thread calls
    /// `forceComplete` on each).
    fn complete(&mut self, due: &[Self::Handle], now_ms: u64);
    fn advance_clock(&mut self, now_ms: u64);
    fn outcome(&self) -> (u64, u64);
}

/// Replays the schedule: at each millisecond, advance the clock (expire), add the arrivals, then
/// complete the requests whose completion falls in it.
///
/// Kafka's completion queue is a `DelayQueue` of the operations; here it is a calendar of one
/// list per millisecond, `TIMEOUT_MS` of them in a ring (a request only completes within its
/// timeout), to which each arrival appends the handle the store gave it. Every store pays the
/// same for it, and little: the lists' ends are the only memory it touches. Its lookups go
/// through `crate::plumbing::hot`, as the purgatory's do: at the .wasm's size-optimising level a
/// `v[i]` or a `push` can stay a call, which native code never pays, and the driver is not what
/// the bench compares.
pub fn replay<S: Store>(s: &Schedule, store: &mut S) -> Outcome {
    replay_timed(s, store, || 0.0).0
}

/// [`replay`], also summing the time of each phase of a replayed millisecond (expire and purge,
/// arrive, complete) by the clock `now_ms`, read three times a simulated millisecond (a few
/// thousand times a replay): where wasm and native differ.
#[inline(always)]
pub fn replay_timed<S: Store>(
    s: &Schedule,
    store: &mut S,
    mut now_ms: impl FnMut() -> f64,
) -> (Outcome, [f64; 3]) {
    let mut phases = [0.0; 3];
    let mut out = Outcome::default();
    let ring = TIMEOUT_MS as usize;
    let mut queue: Vec<Vec<S::Handle>> = (0..ring).map(|_| Vec::new()).collect();
    let mut next = 0usize;
    let last_arrival_ms = u64::from(*s.arrive_ms.last().unwrap());
    for t in 0..=s.end_ms {
        let started = now_ms();
        store.advance_clock(t);
        let after_expiry = now_ms();
        while hot::get(&s.arrive_ms, next).is_some_and(|&at_ms| u64::from(at_ms) == t) {
            let completes_at_ms = *at(&s.completes_at_ms, next);
            let handle = store.arrive(next as u32, u64::from(completes_at_ms), t);
            if s.completes_first(next) {
                hot::push(at_mut(&mut queue, completes_at_ms as usize % ring), handle);
            }
            next += 1;
        }
        let after_arrivals = now_ms();
        let due = at_mut(&mut queue, t as usize % ring);
        store.complete(due, t);
        due.clear();
        phases[0] += after_expiry - started;
        phases[1] += after_arrivals - after_expiry;
        phases[2] += now_ms() - after_arrivals;
        if (STEADY_FROM_MS..=last_arrival_ms).contains(&t) {
            let (completed, expired) = store.outcome();
            let pending = next as u64 - completed - expired;
            out.pending_sum += pending;
            out.pending_max = out.pending_max.max(pending);
            out.steady_ms += 1;
        }
    }
    (out.completed, out.expired) = store.outcome();
    (out, phases)
}

/// The operation both stores hold: it may complete once its latency has passed.
pub struct FakeOperation {
    pub completes_at_ms: u64,
}

#[derive(Default)]
struct Counting {
    now_ms: u64,
    completed: u64,
    expired: u64,
}

impl Hooks<FakeOperation> for Counting {
    fn try_complete(&mut self, _: OpId, op: &mut FakeOperation) -> bool {
        op.completes_at_ms <= self.now_ms
    }

    fn on_complete(&mut self, _: OpId, _: &mut FakeOperation, how: Completion) {
        self.completed += u64::from(how != Completion::Expired);
    }

    fn on_expiration(&mut self, _: OpId, _: &mut FakeOperation) {
        self.expired += 1;
    }
}

/// The crate's purgatory as a [`Store`].
pub struct CratePurgatory {
    purgatory: Purgatory<u32, FakeOperation>,
    hooks: Counting,
    keys: Vec<u32>,
}

impl CratePurgatory {
    /// Kafka's default purge interval (`producer.purgatory.purge.interval.requests` = 1000).
    pub fn new() -> Self {
        Self::with_purge_interval(1_000)
    }

    /// A diagnostic: the purge never runs, so what remains is the cost of watch, timer and
    /// completion (completed operations then stay on their watch lists as garbage).
    pub fn without_purge() -> Self {
        Self::with_purge_interval(u64::MAX)
    }

    fn with_purge_interval(purge_interval: u64) -> Self {
        CratePurgatory {
            purgatory: Purgatory::new("bench", purge_interval, 0),
            hooks: Counting::default(),
            keys: watch_keys(),
        }
    }
}

impl Default for CratePurgatory {
    fn default() -> Self {
        Self::new()
    }
}

impl Store for CratePurgatory {
    /// What Kafka's completion queue holds a reference to.
    type Handle = OpId;

    fn arrive(&mut self, _request: u32, completes_at_ms: u64, now_ms: u64) -> OpId {
        self.hooks.now_ms = now_ms;
        let op = FakeOperation { completes_at_ms };
        let (id, _) = self.purgatory.try_complete_else_watch(
            op,
            &self.keys,
            now_ms,
            TIMEOUT_MS,
            &mut self.hooks,
        );
        id
    }

    fn complete(&mut self, due: &[OpId], now_ms: u64) {
        self.hooks.now_ms = now_ms;
        self.purgatory.force_complete_all(due, &mut self.hooks);
    }

    fn advance_clock(&mut self, now_ms: u64) {
        self.hooks.now_ms = now_ms;
        if self
            .purgatory
            .next_wake_ms(now_ms)
            .is_some_and(|at| at <= now_ms)
        {
            self.purgatory.advance_clock(now_ms, &mut self.hooks);
        }
    }

    fn outcome(&self) -> (u64, u64) {
        (self.hooks.completed, self.hooks.expired)
    }
}
