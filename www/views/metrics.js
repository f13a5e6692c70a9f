// Metrics: the purgatory's gauges over the run so far, as Kafka names them (PurgatorySize,
// NumDelayedOperations, the expired partitions behind ExpiresPerSec, UnderReplicatedPartitions,
// UnderMinIsrPartitionCount), exact step series from the model binned to the plot's width (each
// bin draws its lowest and highest value, so no peak is lost), and the produce latency by acks.
import { html } from '../html.js';
import { fmt, patch } from './dom.js';

const LABELS = {
  purgatory_size: 'PurgatorySize (watch-list entries, all brokers)',
  num_delayed_operations: 'NumDelayedOperations (waiting requests)',
  expired_partitions: 'Expired partitions (ExpiresPerSec, cumulative)',
  under_replicated_partitions: 'UnderReplicatedPartitions',
  under_min_isr_partitions: 'UnderMinIsrPartitionCount',
};
const BINS = 110;

function plot(name, bins, now) {
  const w = BINS * 2;
  const h = 40;
  const peak = Math.max(0, ...bins.map((b) => b[1]));
  const max = Math.max(1, peak); // the plot's scale
  const y = (v) => (h - 3 - (v / max) * (h - 8)).toFixed(1);
  // The step line through each bin's value at its end, the area under it, and where a bin's value
  // moved within it, the band from its lowest to its highest (so a short peak is not lost).
  let line = bins.length ? `M0,${y(bins[0][2])}` : '';
  let band = '';
  bins.forEach(([lo, hi], i) => {
    line += `H${i * 2 + 2}${i + 1 < bins.length ? `V${y(bins[i + 1][2])}` : ''}`;
    if (hi !== lo) band += `M${i * 2},${y(hi)}H${i * 2 + 2}V${y(lo)}H${i * 2}Z`;
  });
  const label = LABELS[name] ?? name;
  return html`<figure class="plot"><figcaption>${label} <b>${fmt(now)}</b> <span class="muted nowrap">max ${fmt(peak)}</span></figcaption>
    <svg viewBox="0 0 ${w} ${h}" preserveAspectRatio="none" role="img" aria-label="${label} over the run, now ${now}"><path class="area" d="${line ? `${line}V${h}H0Z` : ''}"/><path class="band" d="${band}"/><path class="line" d="${line}"/></svg></figure>`;
}

function latencies(snap) {
  const by = new Map();
  for (const r of snap.requests) {
    if (r.responded_ms == null) continue;
    const k = String(r.acks);
    if (!by.has(k)) by.set(k, []);
    by.get(k).push(r.responded_ms - r.received_ms);
  }
  return [['-1', 'acks=all'], ['1', 'acks=1'], ['0', 'acks=0']].map(([k, name]) => {
    const xs = (by.get(k) ?? []).sort((a, b) => a - b);
    if (!xs.length) return html`<tr><td>${name}</td><td colspan="3" class="muted">none answered</td></tr>`;
    return html`<tr><td>${name}</td><td>${fmt(xs.length)}</td><td>${fmt(xs[Math.floor(xs.length / 2)])} ms</td><td>${fmt(xs[xs.length - 1])} ms</td></tr>`;
  });
}

/** @param sim the model handle (for its series) @param snap the snapshot at the playhead */
export function renderMetrics(el, sim, snap) {
  const series = sim.series(0, snap.now_ms, BINS);
  const plots = series.names.map((n, i) => plot(n, series.bins[i], series.now[i]));
  const shown = snap.requests.length < snap.requests_total ? ` (the last ${fmt(snap.requests.length)} requests)` : '';
  patch(el.querySelector('.metrics-body'), html`<p class="muted">0 – ${fmt(snap.now_ms)} ms</p><div class="plots">${plots}</div>
    <table class="lat"><caption>Produce latency by acks${shown}: request received → response sent</caption><thead><tr><th>acks</th><th>answered</th><th>median</th><th>max</th></tr></thead><tbody>${latencies(snap)}</tbody></table>`);
}
