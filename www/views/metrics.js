// Metrics: the gauges over simulated time as small SVG plots (PurgatorySize, NumDelayedOperations,
// UnderReplicatedPartitions, ExpiresPerSec as a running count, ISR shrinks / expands) and the
// produce latency by acks level.
import { esc, fmt, patch } from './dom.js';

const SERIES = [
  ['purgatory_size', 'PurgatorySize'],
  ['num_delayed', 'NumDelayedOperations'],
  ['urp', 'UnderReplicatedPartitions'],
  ['expires', 'ExpiresPerSec (cumulative)'],
  ['shrinks', 'IsrShrinks (cumulative)'],
  ['expands', 'IsrExpands (cumulative)'],
];

export class MetricsSeries {
  constructor(max = 400) { this.max = max; this.points = []; }
  sample(snap) {
    const last = this.points[this.points.length - 1];
    if (last && last.t === snap.now_ms) this.points.pop();
    const sum = (f) => snap.brokers.reduce((a, b) => a + f(b), 0);
    this.points.push({
      t: snap.now_ms,
      purgatory_size: sum((b) => b.produce_purgatory.purgatory_size),
      num_delayed: sum((b) => b.produce_purgatory.num_delayed_operations),
      urp: snap.under_replicated_partitions,
      expires: sum((b) => b.produce_expires),
      shrinks: sum((b) => b.isr_shrinks),
      expands: sum((b) => b.isr_expands),
    });
    if (this.points.length > this.max) this.points.splice(0, this.points.length - this.max);
  }
}

function plot(points, key, label) {
  const w = 220; const h = 40;
  const t0 = points[0]?.t ?? 0; const t1 = Math.max(t0 + 1, points[points.length - 1]?.t ?? 1);
  const vmax = Math.max(1, ...points.map((p) => p[key]));
  const d = points.map((p, i) => `${i ? 'L' : 'M'}${(((p.t - t0) / (t1 - t0)) * w).toFixed(1)},${(h - (p[key] / vmax) * (h - 4) - 2).toFixed(1)}`).join('');
  const now = points[points.length - 1]?.[key] ?? 0;
  return `<figure class="plot"><figcaption>${esc(label)} <b>${fmt(now)}</b> <span class="muted">max ${fmt(vmax)}</span></figcaption><svg viewBox="0 0 ${w} ${h}" preserveAspectRatio="none" role="img" aria-label="${esc(label)} over time, now ${now}"><path d="${d}"/></svg></figure>`;
}

export function renderMetrics(el, series, latencies) {
  const pts = series.points;
  const lat = [['-1', 'acks=all'], ['1', 'acks=1'], ['0', 'acks=0']].map(([k, name]) => {
    const xs = latencies.get(k) ?? [];
    if (!xs.length) return `<tr><td>${name}</td><td colspan="3" class="muted">none answered</td></tr>`;
    const sorted = xs.slice().sort((a, b) => a - b);
    const p = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    return `<tr><td>${name}</td><td>${fmt(xs.length)}</td><td>${fmt(p(0.5))} ms</td><td>${fmt(sorted[sorted.length - 1])} ms</td></tr>`;
  }).join('');
  patch(el.querySelector('.metrics-body'), `${SERIES.map(([k, l]) => plot(pts, k, l)).join('')}
    <table class="lat"><caption>Produce latency by acks (request received → response sent)</caption><thead><tr><th>acks</th><th>answered</th><th>median</th><th>max</th></tr></thead><tbody>${lat}</tbody></table>`);
}
