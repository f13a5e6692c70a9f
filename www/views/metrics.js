// Metrics: the purgatory's gauges over the run so far, as Kafka names them (PurgatorySize,
// NumDelayedOperations, the expired partitions behind ExpiresPerSec, UnderReplicatedPartitions,
// UnderMinIsrPartitionCount), exact step series from the model binned to the plot's width (each
// bin draws its lowest and highest value, so no peak is lost), and the produce latency by acks.
// Its words come from the translator `tr` (www/i18n/*/views.js).
import { html } from '../html.js';
import { patch } from './dom.js';

/** The series whose name says what it counts (the others are named by Kafka's gauge alone). */
const EXPLAINED = new Set(['purgatory_size', 'num_delayed_operations', 'expired_partitions']);
const GAUGES = {
  under_replicated_partitions: 'UnderReplicatedPartitions',
  under_min_isr_partitions: 'UnderMinIsrPartitionCount',
};
const BINS = 110;

const labelOf = (name, tr) => (EXPLAINED.has(name) ? tr.t(`metrics.${name}`) : GAUGES[name] ?? name);

function plot(name, bins, now, tr) {
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
  const label = labelOf(name, tr);
  // The value as the model gives it in the spoken label (no grouping), as before.
  const spoken = tr.t('metrics.plot.label', { label, now: String(now) });
  return html`<figure class="plot"><figcaption>${label} <b>${tr.num(now)}</b> <span class="muted nowrap">${tr.t('metrics.max', { max: peak })}</span></figcaption>
    <svg viewBox="0 0 ${w} ${h}" preserveAspectRatio="none" role="img" aria-label="${spoken}"><path class="area" d="${line ? `${line}V${h}H0Z` : ''}"/><path class="band" d="${band}"/><path class="line" d="${line}"/></svg></figure>`;
}

function latencies(snap, tr) {
  const by = new Map();
  for (const r of snap.requests) {
    if (r.responded_ms == null) continue;
    const k = String(r.acks);
    if (!by.has(k)) by.set(k, []);
    by.get(k).push(r.responded_ms - r.received_ms);
  }
  return [['-1', 'acks=all'], ['1', 'acks=1'], ['0', 'acks=0']].map(([k, name]) => {
    const xs = (by.get(k) ?? []).sort((a, b) => a - b);
    if (!xs.length) return html`<tr><td>${name}</td><td colspan="3" class="muted">${tr.t('metrics.latency.none')}</td></tr>`;
    return html`<tr><td>${name}</td><td>${tr.num(xs.length)}</td><td>${tr.num(xs[Math.floor(xs.length / 2)])} ms</td><td>${tr.num(xs[xs.length - 1])} ms</td></tr>`;
  });
}

/** @param sim the model handle (for its series) @param snap the snapshot at the playhead */
export function renderMetrics(el, sim, snap, tr) {
  const series = sim.series(0, snap.now_ms, BINS);
  const plots = series.names.map((n, i) => plot(n, series.bins[i], series.now[i], tr));
  const caption = snap.requests.length < snap.requests_total
    ? tr.t('metrics.latency.last', { count: snap.requests.length })
    : tr.t('metrics.latency');
  const head = ['answered', 'median', 'max'].map((k) => html`<th>${tr.t(`metrics.latency.${k}`)}</th>`);
  patch(el.querySelector('.metrics-body'), html`<p class="muted">0 – ${tr.num(snap.now_ms)} ms</p><div class="plots">${plots}</div>
    <table class="lat"><caption>${caption}</caption><thead><tr><th>acks</th>${head}</tr></thead><tbody>${latencies(snap, tr)}</tbody></table>`);
}
