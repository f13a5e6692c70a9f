//! The work budget: what a scenario will cost to run, estimated up front from its config, topics,
//! actions and length, in the units of the simulation's work meter
//! ([`Simulation::work_done`](crate::sim::Simulation::work_done)).
//!
//! The contract's ranges allow runs no one would wait for (64 brokers, 1,024 partitions with 64
//! replicas each, for a week; or a day with every period at 0, which checks the ISR every
//! millisecond). The runner refuses, with one line naming `run_until_ms` and the longest run this
//! cluster can have, a scenario whose estimate is over [`WORK_BUDGET`]: at most about ten seconds
//! of the native runner on the machines we test on (README, "Work budget"). The page does not
//! need to: it computes a run in calls of bounded work (`Session::advance`, `Session::extend`).
//!
//! The estimate is an upper bound of the meter at the end of the run, for the steady traffic of a
//! cluster (fetch long-polls, ISR checks) and for what each action can set off; the tests check
//! that bound on every curated scenario and on thousands of mutated ones.
//!
//! An untraced run skips the idle stretches (`sim::fast_forward`), so a long run that settles
//! into idle long-polls after its last action costs about what its busy part costs
//! ([`check_untraced`]). That is expected, not proven, so such a run is admitted on condition:
//! the runner stops it, with the same kind of line, if the meter passes the budget after all.

use super::Scenario;
use super::ScenarioError;
use crate::kafka::config::TopicSpec;
use crate::sim::action::{Action, TimedAction};
pub use crate::sim::meter::MAX_IDLE_PERIOD_MS;
use crate::sim::meter::{idle_period_ms, Weights};

/// The most work an accepted scenario may cost, in work-meter units. Calibrated on the runner
/// (`cargo build --release`, 2-core test machine, otherwise idle): a unit cost 40-110 ns over
/// clusters from 3 brokers to 64 brokers x 1,024 partitions x 64 replicas (wide replica sets are
/// weighted, see [`Weights`]), so this is 2.5-7 s, and within 10 s with the machine half busy.
pub const WORK_BUDGET: u64 = 60_000_000;

/// What a scenario is estimated to cost: `per_ms_milli` thousandths of a unit for each simulated
/// millisecond of steady traffic, plus `fixed` for the start (every ISR check and fetch runs once
/// at t = 0) and for what the actions set off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimate {
    pub per_ms_milli: u64,
    pub fixed: u64,
}

impl Estimate {
    /// The whole run's cost in work units.
    pub fn total(&self, run_until_ms: u64) -> u64 {
        // One more millisecond: the run includes both t = 0 and `run_until_ms`.
        let steady = u128::from(self.per_ms_milli) * u128::from(run_until_ms + 1) / 1000;
        u64::try_from(steady)
            .unwrap_or(u64::MAX)
            .saturating_add(self.fixed)
    }

    /// The longest run that stays within `budget`, if any does.
    pub fn longest_run_ms(&self, budget: u64) -> Option<u64> {
        let left = budget.checked_sub(self.fixed)?;
        if self.per_ms_milli == 0 {
            return Some(u64::MAX);
        }
        // The largest ms with floor(per_ms_milli * (ms + 1) / 1000) <= left, as `total` rounds.
        let ms = (u128::from(left) * 1000 + 999) / u128::from(self.per_ms_milli);
        Some(u64::try_from(ms).unwrap_or(u64::MAX).saturating_sub(1))
    }
}

/// Estimates what running `scenario` costs.
pub fn estimate(scenario: &Scenario) -> Estimate {
    let config = &scenario.config;
    let weights = Weights::new(&scenario.topics);
    let links = FetchLinks::new(config.brokers, &scenario.topics);
    let brokers = u64::from(config.brokers);

    // A follower's fetch with nothing to fetch is parked for the fetch wait, then answered: one
    // round trip per cycle, and at least a millisecond (a fetch answered at once is sent again
    // in the next one). One whose leader is down fails and is retried after the fetch backoff.
    // A cycle is the fetch and its response (one unit each, plus their partitions), the parked
    // fetch's timeout, the reaper wakes around it and the wake that sends the next fetch: 7
    // units and the partitions, as the fuzzer measured it (it was 8 with one partition).
    let wait = config
        .replica_fetch_wait_max_ms
        .min(config.replica_fetch_backoff_ms());
    let cycle_ms = (wait + 2 * config.network_delay_ms).max(1);
    let fetch_cycle = links.cycle(&weights);
    // Each running broker checks its ISRs every replica_lag_time_max_ms / 2 (at least every
    // millisecond): one unit, plus one per partition slot.
    let isr_period = config.isr_check_every_ms();
    let isr_check = brokers * (1 + weights.partitions);
    let per_ms_milli = milli(fetch_cycle, cycle_ms).saturating_add(milli(isr_check, isr_period));

    let fixed = scenario
        .actions
        .iter()
        .map(|a| action_cost(a, brokers, &weights, &links))
        .fold(isr_check + fetch_cycle, u64::saturating_add);
    Estimate {
        per_ms_milli,
        fixed,
    }
}

/// Refuses a scenario the runner cannot run in reasonable time: an estimate over [`WORK_BUDGET`]
/// (naming `run_until_ms` and the longest run this cluster could have, or `actions` when they
/// alone are too much). Topics past [`crate::kafka::config::MAX_REPLICA_STATES`] are a file error already.
pub fn check(scenario: &Scenario) -> Result<(), ScenarioError> {
    let estimate = estimate(scenario);
    let total = estimate.total(scenario.run_until_ms);
    if total <= WORK_BUDGET {
        return Ok(());
    }
    match estimate.longest_run_ms(WORK_BUDGET) {
        None => Err(refusal(
            "actions",
            format!(
                "the cluster's start and these {} actions would cost about {} units of work, \
                 more than the work budget of {WORK_BUDGET} (at most about 10 s; README, \
                 \"Work budget\"): use fewer actions or a smaller cluster",
                scenario.actions.len(),
                estimate.fixed
            ),
        )),
        Some(longest) => Err(refusal(
            "run_until_ms",
            format!(
                "a run of {} ms on this cluster would cost about {total} units of work, more \
                 than the work budget of {WORK_BUDGET} (at most about 10 s; README, \"Work \
                 budget\"): with this config, topics and actions, run_until_ms may be at most \
                 {longest}",
                scenario.run_until_ms
            ),
        )),
    }
}

/// How the runner admits an untraced scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    /// The estimate of the whole run is within the budget.
    Estimated,
    /// Only the idle fast-forward brings it within: the run must stop if the work meter passes
    /// [`WORK_BUDGET`] (see [`idle_estimate`]).
    IdleTail,
}

/// [`check`] for a run without the trace, which skips idle stretches: a scenario over the
/// budget is still admitted, as [`Admission::IdleTail`], when its [`idle_estimate`] is within.
pub fn check_untraced(scenario: &Scenario) -> Result<Admission, ScenarioError> {
    match check(scenario) {
        Ok(()) => Ok(Admission::Estimated),
        Err(error) => match idle_estimate(scenario) {
            Some(units) if units <= WORK_BUDGET => Ok(Admission::IdleTail),
            _ => Err(error),
        },
    }
}

/// What an untraced run is expected to cost when its cluster goes idle between actions: the
/// estimate of its busy part, the first `settle` ms after each action (the longest timeout
/// anything set off can wait for, then the probe, the check and the rest of the stretch after
/// the jump, each at most a few periods), plus the jumps. `None` when the settings rule the
/// fast-forward out or no stretch is long enough for a jump.
pub fn idle_estimate(scenario: &Scenario) -> Option<u64> {
    let c = &scenario.config;
    // The coarsest fetch timer level: the first whose span holds a fetch wait ahead of a clock
    // that lags by up to another.
    let mut span: u64 = 20;
    while span <= c.replica_fetch_wait_max_ms.saturating_mul(2) {
        span = span.checked_mul(20)?;
    }
    let period = idle_period_ms(c, u128::from(span))?;
    let isr_check = c.isr_check_every_ms();
    let longest_timeout = scenario
        .actions
        .iter()
        .filter_map(|a| match &a.action {
            Action::Produce(p) => Some(p.timeout_ms.unwrap_or(c.request_timeout_ms)),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let waits = [
        c.broker_session_timeout_ms,
        c.replica_lag_time_max_ms,
        c.replica_fetch_backoff_ms(),
        longest_timeout,
    ];
    let settle = waits
        .into_iter()
        .max()?
        .saturating_add(3 * isr_check)
        .saturating_add(6 * period);
    // Each stretch between two actions (and after the last) costs at most its first `settle` ms
    // of steady traffic, and a jump over the rest.
    let mut times: Vec<u64> = scenario.actions.iter().map(|a| a.at_ms).collect();
    times.sort_unstable();
    times.push(scenario.run_until_ms);
    let (mut busy_ms, mut jumps, mut previous) = (0u64, 0u64, 0u64);
    for t in times {
        let stretch = t.saturating_sub(previous);
        busy_ms = busy_ms.saturating_add(stretch.min(settle));
        jumps += u64::from(stretch > settle);
        previous = previous.max(t);
    }
    if jumps == 0 {
        return None;
    }
    let jump =
        2 * FetchLinks::new(c.brokers, &scenario.topics).cycle(&Weights::new(&scenario.topics));
    let estimate = estimate(scenario);
    Some(
        estimate
            .total(busy_ms)
            .saturating_add(jumps.saturating_mul(jump)),
    )
}

fn refusal(path: &str, message: String) -> ScenarioError {
    ScenarioError {
        path: path.to_string(),
        message,
    }
}

/// `units / period_ms`, in thousandths of a unit per millisecond, rounded up.
fn milli(units: u64, period_ms: u64) -> u64 {
    units.saturating_mul(1000).div_ceil(period_ms)
}

/// The fetch traffic's shape at t = 0: a fetcher per follower-leader pair, each fetch carrying
/// every partition the follower follows from that leader. Leadership moves with crashes and
/// elections, which can gather more partitions on one leader; the widest fetch counts double
/// for that.
struct FetchLinks {
    fetchers: u64,
    /// Partitions all fetches carry together (each partition's followers).
    partitions: u64,
    widest_fetch: u64,
    /// The most followers a partition has.
    followers: u64,
}

impl FetchLinks {
    fn new(brokers: u32, topics: &[TopicSpec]) -> FetchLinks {
        let n = brokers.max(1) as usize;
        let mut pairs = vec![0u64; n * n];
        for t in topics {
            let rf = t.replication_factor as usize;
            for p in 0..t.partitions as usize {
                let leader = p % n;
                for i in 1..rf.min(n) {
                    pairs[leader * n + (p + i) % n] += 1;
                }
            }
        }
        let partitions = pairs.iter().sum();
        FetchLinks {
            fetchers: pairs.iter().filter(|&&k| k > 0).count() as u64,
            partitions,
            widest_fetch: (2 * pairs.iter().max().copied().unwrap_or(0)).min(partitions),
            followers: topics
                .iter()
                .map(|t| u64::from(t.replication_factor.saturating_sub(1)))
                .max()
                .unwrap_or(0),
        }
    }

    /// One fetch cycle of every fetcher.
    fn cycle(&self, weights: &Weights) -> u64 {
        7 * self.fetchers + 2 * self.partitions * weights.fetch_partition
    }

    /// One extra fetch cycle of one fetcher, at its widest.
    fn one_round(&self, weights: &Weights) -> u64 {
        7 + 2 * self.widest_fetch * weights.fetch_partition
    }
}

/// What one action can set off, beyond the steady traffic: a produce wakes the parked fetch of
/// every follower of each partition it lists (each answered at once and sent again) and the
/// AlterPartition an ISR change takes, which the controller sends to every broker; a crash, a
/// restart or an election changes leaders and ISRs, which reaches every broker, and sets every
/// fetcher going anew (twice, for the fetches that fail against a broker that went down).
fn action_cost(action: &TimedAction, brokers: u64, weights: &Weights, links: &FetchLinks) -> u64 {
    let metadata_round = brokers * (1 + weights.partitions);
    let extra = match &action.action {
        Action::Produce(spec) => {
            let listed = spec.records.len() as u64;
            listed * (links.followers * links.one_round(weights) + 4 * brokers)
        }
        Action::PauseFollower { .. } | Action::ResumeFollower { .. } => {
            brokers * links.one_round(weights)
        }
        Action::CrashBroker { .. } | Action::RestartBroker { .. } | Action::ElectLeader { .. } => {
            4 * metadata_round + 2 * links.cycle(weights)
        }
    };
    action.action.work().saturating_add(extra)
}
