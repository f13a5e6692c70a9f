//! What a session's run did over time, derived from its causal trace as the run is computed: the
//! timeline's markers (requests sent and answered, HW moves, ISR changes, fencing, elections,
//! expiries, purges, actions), exact step series of the gauges (a value at every change, not a
//! sample per frame), when each partition's HW moved, and the trace hash. Everything here is a
//! function of the trace events seen so far, so a fork rebuilds it from a checkpoint's
//! [`Derived`] state and the events replayed after it. Which events make markers, and what they
//! say, is `markers.rs`.

pub use super::markers::{is_notable, Marker, MarkerKind};
pub use super::says::Says;

use super::markers::marker;
use crate::kafka::trace::{Event, Gauges, TpName, TraceEvent, TraceHash};
use crate::kafka::BrokerId;
use crate::sim::Simulation;
use std::collections::BTreeMap;

/// The step series the history keeps, in this order.
pub const SERIES: &[&str] = &[
    "purgatory_size",
    "num_delayed_operations",
    "expired_partitions",
    "under_replicated_partitions",
    "under_min_isr_partitions",
];

/// Markers kept at most; past it the oldest HW moves are dropped first (they are the most
/// numerous and the least telling), and a count says how many.
const MAX_MARKERS: usize = 200_000;

/// The state the derivation carries from one event to the next: small, copied into every
/// checkpoint.
#[derive(Clone, Debug)]
pub struct Derived {
    pub events: u64,
    pub hash: TraceHash,
    gauges: Vec<Gauges>,
    expired: u64,
    /// Per partition (by name): assignment size and committed ISR size, at the controller.
    partitions: BTreeMap<TpName, (usize, usize)>,
    min_insync_replicas: usize,
    /// How many partitions are under-replicated and under their min ISR ([`under`]), kept as
    /// the ISRs change rather than counted again at every instant.
    under: [u64; 2],
}

/// Whether a partition of `replicas` replicas and an ISR of `isr` is under-replicated, and under
/// its min ISR (Kafka's `effectiveMinIsr`: the setting capped at the replica count), as counts.
fn under((replicas, isr): (usize, usize), min_insync_replicas: usize) -> [u64; 2] {
    [
        u64::from(isr < replicas),
        u64::from(isr < min_insync_replicas.min(replicas)),
    ]
}

impl Derived {
    /// What the derivation knows at the start of a run.
    pub fn initial(sim: &Simulation) -> Self {
        let mut partitions = BTreeMap::new();
        for p in sim.controller().partitions.values() {
            partitions.insert(sim.tp_name(p.tp), (p.assignment.len(), p.isr.len()));
        }
        let min_insync_replicas = sim.config().min_insync_replicas as usize;
        let mut counts = [0, 0];
        for &p in partitions.values() {
            let [r, m] = under(p, min_insync_replicas);
            counts = [counts[0] + r, counts[1] + m];
        }
        Derived {
            events: 0,
            hash: TraceHash::default(),
            gauges: vec![
                Gauges {
                    purgatory_size: 0,
                    num_delayed_operations: 0
                };
                sim.brokers().len()
            ],
            expired: 0,
            partitions,
            min_insync_replicas,
            under: counts,
        }
    }

    /// The value of each of [`SERIES`], in that order.
    fn values(&self) -> [u64; 5] {
        let sum = |f: fn(&Gauges) -> usize| self.gauges.iter().map(f).sum::<usize>() as u64;
        [
            sum(|g| g.purgatory_size),
            sum(|g| g.num_delayed_operations),
            self.expired,
            self.under[0],
            self.under[1],
        ]
    }
}

/// One gauge over time: `(at_ms, value)` at every change, in time order.
#[derive(Clone, Debug, Default)]
pub struct Series {
    points: Vec<(u64, u64)>,
}

impl Series {
    fn record(&mut self, at_ms: u64, value: u64) {
        if self.points.last().is_some_and(|&(_, v)| v == value) {
            return;
        }
        self.points.push((at_ms, value));
    }

    /// The value at `at_ms` (after every change in that millisecond).
    pub fn value_at(&self, at_ms: u64) -> u64 {
        let i = self.points.partition_point(|&(t, _)| t <= at_ms);
        if i == 0 {
            0
        } else {
            self.points[i - 1].1
        }
    }

    /// `bins` equal spans of `[from_ms, to_ms]`, each with the lowest and highest value the gauge
    /// took in it and its value at the end: a plot drawn from these misses no peak, however short.
    pub fn bins(&self, from_ms: u64, to_ms: u64, bins: usize) -> Vec<[u64; 3]> {
        let span = to_ms.saturating_sub(from_ms).max(1);
        let mut out = Vec::with_capacity(bins);
        let mut i = self.points.partition_point(|&(t, _)| t <= from_ms);
        let mut current = self.value_at(from_ms);
        for b in 0..bins {
            // The end of bin b, without a u128 product (which would link 128-bit division).
            let (whole, part) = (span / bins as u64, span % bins as u64);
            let b = b as u64 + 1;
            let end = from_ms + whole * b + part * b / bins as u64;
            let (mut lo, mut hi) = (current, current);
            while i < self.points.len() && self.points[i].0 <= end {
                current = self.points[i].1;
                lo = lo.min(current);
                hi = hi.max(current);
                i += 1;
            }
            out.push([lo, hi, current]);
        }
        out
    }

    fn truncate_from(&mut self, from_ms: u64) {
        let keep = self.points.partition_point(|&(t, _)| t < from_ms);
        self.points.truncate(keep);
    }
}

/// Markers, series and HW moves of a run up to the furthest point computed.
#[derive(Clone, Debug)]
pub struct History {
    pub derived: Derived,
    markers: Vec<Marker>,
    markers_dropped: u64,
    series: Vec<Series>,
    /// When each partition's HW moved, at its leader, in time order.
    hw_moves: BTreeMap<TpName, Vec<u64>>,
    scratch: Vec<u8>,
}

impl History {
    pub fn new(sim: &Simulation) -> Self {
        History {
            derived: Derived::initial(sim),
            markers: Vec::new(),
            markers_dropped: 0,
            series: vec![Series::default(); SERIES.len()],
            hw_moves: BTreeMap::new(),
            scratch: Vec::new(),
        }
    }

    pub fn markers(&self) -> &[Marker] {
        &self.markers
    }

    /// The markers in `[from_ms, to_ms]` a timeline draws, at most `max` of them: all when they
    /// fit, else the `max` most telling (by [`MarkerKind::rank`], earlier first within a rank), in
    /// time order. Also how many the span holds.
    pub fn markers_in(&self, from_ms: u64, to_ms: u64, max: usize) -> (Vec<&Marker>, usize) {
        let lo = self.markers.partition_point(|m| m.at_ms < from_ms);
        let hi = self.markers.partition_point(|m| m.at_ms <= to_ms);
        let range = &self.markers[lo..hi.max(lo)];
        let mut chosen: Vec<&Marker> = range.iter().collect();
        if range.len() > max {
            chosen.sort_by_key(|m| (m.kind.rank(), m.at_ms));
            chosen.truncate(max);
            chosen.sort_by_key(|m| m.id);
        }
        (chosen, range.len())
    }

    pub fn markers_dropped(&self) -> u64 {
        self.markers_dropped
    }

    pub fn series(&self) -> &[Series] {
        &self.series
    }

    /// The first marker after `at_ms`, if the run has been computed that far.
    pub fn next_marker_after(&self, at_ms: u64) -> Option<&Marker> {
        let i = self.markers.partition_point(|m| m.at_ms <= at_ms);
        self.markers.get(i)
    }

    /// The last marker before `at_ms`.
    pub fn marker_before(&self, at_ms: u64) -> Option<&Marker> {
        let i = self.markers.partition_point(|m| m.at_ms < at_ms);
        i.checked_sub(1).map(|i| &self.markers[i])
    }

    /// When the HW of `tp` last moved at or before `at_ms`.
    pub fn last_hw_move(&self, tp: &str, at_ms: u64) -> Option<u64> {
        let moves = self.hw_moves.get(tp)?;
        let i = moves.partition_point(|&t| t <= at_ms);
        (i > 0).then(|| moves[i - 1])
    }

    /// Forgets everything from instant `from_ms` on and takes up the derivation from `derived`
    /// (the state a checkpoint starting at `from_ms` saved); the events from there are then
    /// observed again.
    pub fn rewind(&mut self, from_ms: u64, derived: Derived) {
        self.derived = derived;
        let keep = self.markers.partition_point(|m| m.at_ms < from_ms);
        self.markers.truncate(keep);
        for s in &mut self.series {
            s.truncate_from(from_ms);
        }
        for moves in self.hw_moves.values_mut() {
            let keep = moves.partition_point(|&t| t < from_ms);
            moves.truncate(keep);
        }
    }

    /// Takes in the events of one instant (or several, in order).
    pub fn observe(&mut self, events: &[TraceEvent]) {
        let Some(last) = events.last() else {
            return;
        };
        for e in events {
            self.derived.events += 1;
            self.derived.hash.add_event(e, &mut self.scratch);
            self.derive(e);
        }
        let values = self.derived.values();
        for (series, value) in self.series.iter_mut().zip(values) {
            series.record(last.at_ms, value);
        }
    }

    fn derive(&mut self, e: &TraceEvent) {
        let d = &mut self.derived;
        match &e.event {
            Event::OperationWatched { broker, gauges, .. }
            | Event::CheckAndComplete { broker, gauges, .. }
            | Event::OperationCompleted { broker, gauges, .. }
            | Event::Purged { broker, gauges, .. } => set_gauges(d, *broker, *gauges),
            Event::OperationExpired {
                broker,
                gauges,
                expired_partitions,
                ..
            } => {
                set_gauges(d, *broker, *gauges);
                d.expired += expired_partitions.len() as u64;
            }
            Event::BrokerCrashed { broker } => set_gauges(
                d,
                *broker,
                Gauges {
                    purgatory_size: 0,
                    num_delayed_operations: 0,
                },
            ),
            Event::PartitionChanged { tp, isr, .. } => {
                if let Some(p) = d.partitions.get_mut(tp) {
                    let before = under(*p, d.min_insync_replicas);
                    p.1 = isr.len();
                    let after = under(*p, d.min_insync_replicas);
                    for (count, (was, is)) in d.under.iter_mut().zip(before.into_iter().zip(after))
                    {
                        *count = *count - was + is;
                    }
                }
            }
            Event::HighWatermarkAdvanced { tp, .. } => {
                self.hw_moves.entry(tp.clone()).or_default().push(e.at_ms)
            }
            _ => {}
        }
        if let Some(marker) = marker(e) {
            self.push_marker(marker);
        }
    }

    fn push_marker(&mut self, marker: Marker) {
        if self.markers.len() >= MAX_MARKERS {
            let victim = self
                .markers
                .iter()
                .position(|m| m.kind == MarkerKind::Hw)
                .unwrap_or(0);
            self.markers.remove(victim);
            self.markers_dropped += 1;
        }
        self.markers.push(marker);
    }
}

fn set_gauges(d: &mut Derived, broker: BrokerId, gauges: Gauges) {
    if let Some(g) = d.gauges.get_mut(broker.0 as usize) {
        *g = gauges;
    }
}
