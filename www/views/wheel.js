// Timing-wheel view: each produce purgatory's hierarchical wheel, finest level first: tick, size,
// span, current time, the bucket the clock is at, the buckets holding operations (and which),
// overflow levels as they appear. Entries move between levels (cascade) as the clock nears their
// expiration, and leave when their operation completes (cancel) or expires; the view marks both.
import { html } from '../html.js';
import { fmt, patch } from './dom.js';

function level(l, i, selectedOps, selected) {
  const cur = Math.floor(l.current_time_ms / l.tick_ms) % l.wheel_size;
  const byIndex = new Map(l.buckets.map((b) => [b.index, b]));
  const cells = [];
  for (let k = 0; k < l.wheel_size; k++) {
    const b = byIndex.get(k);
    const sel = b && b.ops.some((o) => selectedOps.has(o));
    const title = b && !b.count ? `bucket ${k}: empty (its entries left: cancelled on completion), still queued for ${fmt(b.expiration_ms)} ms` : b ? `bucket ${k}: expires ${fmt(b.expiration_ms)} ms, ${b.count} entr${b.count === 1 ? 'y' : 'ies'}${b.ops.length ? ` (${b.ops.join(', ')})` : ''}` : `bucket ${k}: empty`;
    const cls = `bucket${b ? (b.count ? ' full' : ' queued') : ''}${k === cur ? ' cur' : ''}${sel ? ' sel' : ''}`;
    const count = b && b.count ? (b.count > 99 ? '99+' : b.count) : '';
    // An attribute is there or not as a whole: the tag takes no interpolation between attributes.
    cells.push(sel && selected
      ? html`<span class="${cls}" data-story="wheel-${selected}" title="${title}">${count}</span>`
      : html`<span class="${cls}" title="${title}">${count}</span>`);
  }
  const meta = `L${i + 1}${i > 0 ? ' (overflow)' : ''}: tickMs ${fmt(l.tick_ms)} × wheelSize ${l.wheel_size} = ${fmt(l.interval_ms)} ms · currentTimeMs ${fmt(l.current_time_ms)}`;
  return html`<div class="level"><div class="lmeta">${meta}</div><div class="cells" style="--n:${l.wheel_size}">${cells}</div></div>`;
}

/**
 * What the wheels just did, in words, from the trace: entries added (with the bucket they went
 * to), cancelled when their operation completed, expired, and reinserted lower when a coarse
 * bucket came due (a cascade). The last few are shown under the wheels.
 */
export class WheelChanges {
  constructor() { this.reset(); }

  reset() { this.list = []; }

  add(events) {
    for (const e of events) {
      if (String(e.purgatory ?? 'produce').toLowerCase() !== 'produce') continue;
      const who = e.request ?? (e.op ? `op ${e.op.slot}.${e.op.generation}` : 'an entry');
      let line = null;
      switch (e.event) {
        case 'timer_added': line = `${who} added, due at ${fmt(e.expires_at_ms)} ms`; break;
        // An expiry completes its operation too (onComplete, then onExpiration): its entry left
        // the wheel because its bucket came due, which the expiry's own line says.
        case 'operation_completed': if (e.how !== 'expired') line = `${who} completed: its timer entry is cancelled`; break;
        case 'operation_expired': line = `${who} expired: its bucket came due`; break;
        default: break;
      }
      if (line) this.list.push(`${fmt(e.at_ms)} ms · broker ${e.broker}: ${line}`);
    }
    if (this.list.length > 50) this.list.splice(0, this.list.length - 50);
  }
}

const EXPLAIN = html`<p>Kafka's timer is a hierarchical timing wheel (Varghese and Lauck). Level 1 has 20 buckets of 1 ms; an entry due within 20 ms of the wheel's current time goes straight into the bucket of its due millisecond. An entry due later goes to an overflow level whose buckets are 20× coarser (20 ms, then 400 ms, …), created when first needed.</p>
<p>When a coarse bucket comes due, its entries are reinserted: they fall to a finer level, until their deadline falls within the current tick, when they run: exactly at their deadline. Adding and cancelling are O(1); the clock jumps straight to the next non-empty bucket (a delay queue of buckets), so an idle wheel costs nothing.</p>
<p>A completed request's entry is cancelled at once (removed from its bucket); a bucket emptied this way can stay queued until its time comes, drawn hollow here.</p>`;

export function renderWheel(el, snap, selectedOps, changes, selected = null) {
  const shown = snap.brokers.filter((b) => b.produce_purgatory.timer.size > 0 || b.produce_purgatory.timer.levels.length > 1);
  const body = shown.length
    ? html`${shown.map((b) => {
      const t = b.produce_purgatory.timer;
      return html`<section><h3>broker ${b.id} · produce timer: ${fmt(t.size)} entr${t.size === 1 ? 'y' : 'ies'}${t.next_expiration_ms != null ? `, next bucket due at ${fmt(t.next_expiration_ms)} ms` : ''}</h3>
      ${t.levels.map((l, i) => level(l, i, selectedOps, selected))}</section>`;
    })}`
    : html`<p class="muted">No operation on any wheel (level 1: tickMs 1 × wheelSize 20). An acks=all request that cannot complete at once is added here with its timeout.</p>`;
  patch(el.querySelector('.wheel-body'), body);
  patch(el.querySelector('.wheel-changes'), changes.length ? html`<h3>Just now</h3><ul>${changes.slice(-5).map((c) => html`<li>${c}</li>`)}</ul>` : html``);
  patch(el.querySelector('.wheel-explain'), EXPLAIN);
}
