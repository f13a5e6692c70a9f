// Timing-wheel view: each produce purgatory's hierarchical wheel, finest level first: tick, size,
// span, current time, the bucket the clock is at, the buckets holding operations (and which),
// overflow levels as they appear. Entries move between levels (cascade) as the clock nears their
// expiration, and leave when their operation completes (cancel) or expires; the view marks both.
// Its words come from the translator `tr` (www/i18n/*/views.js); Kafka's names (tickMs, wheelSize,
// currentTimeMs) are shown as they are.
import { html } from '../html.js';
import { patch } from './dom.js';

/** A bucket's tooltip: when it is due and what it holds. */
function bucketTitle(k, b, tr) {
  const bucket = String(k);
  if (!b) return tr.t('wheel.bucket.empty', { bucket });
  if (!b.count) return tr.t('wheel.bucket.cancelled', { bucket, at: b.expiration_ms });
  // The count as the model gives it (no grouping), the plural chosen by its value.
  const vars = { bucket, at: b.expiration_ms, count: String(b.count) };
  return b.ops.length ? tr.t('wheel.bucket.ops', { ...vars, ops: b.ops.join(', ') }) : tr.t('wheel.bucket', vars);
}

function level(l, i, selectedOps, selected, tr) {
  const cur = Math.floor(l.current_time_ms / l.tick_ms) % l.wheel_size;
  const byIndex = new Map(l.buckets.map((b) => [b.index, b]));
  const cells = [];
  for (let k = 0; k < l.wheel_size; k++) {
    const b = byIndex.get(k);
    const sel = b && b.ops.some((o) => selectedOps.has(o));
    const title = bucketTitle(k, b, tr);
    const cls = `bucket${b ? (b.count ? ' full' : ' queued') : ''}${k === cur ? ' cur' : ''}${sel ? ' sel' : ''}`;
    const count = b && b.count ? (b.count > 99 ? '99+' : b.count) : '';
    // An attribute is there or not as a whole: the tag takes no interpolation between attributes.
    cells.push(sel && selected
      ? html`<span class="${cls}" data-story="wheel-${selected}" title="${title}">${count}</span>`
      : html`<span class="${cls}" title="${title}">${count}</span>`);
  }
  const vars = { level: i + 1, tick: l.tick_ms, size: String(l.wheel_size), span: l.interval_ms, now: l.current_time_ms };
  const meta = tr.t(i > 0 ? 'wheel.level.overflow' : 'wheel.level', vars);
  return html`<div class="level"><div class="lmeta">${meta}</div><div class="cells" style="--n:${l.wheel_size}">${cells}</div></div>`;
}

/**
 * What the wheels just did, from the trace: entries added, cancelled when their operation
 * completed, expired, and gone with their broker when it crashed. The last few are said under
 * the wheels (`changeLine`), in the language of the view that shows them.
 */
export class WheelChanges {
  constructor() { this.reset(); }

  reset() {
    this.list = [];
    /** The request of each produce operation (`broker:op`), which `timer_added` does not name. */
    this.requestOf = new Map();
  }

  add(events) {
    for (const e of events) {
      if (String(e.purgatory ?? 'produce').toLowerCase() !== 'produce') continue;
      const op = e.op ? `${e.op.slot}.${e.op.generation}` : null;
      let what = null;
      switch (e.event) {
        case 'delayed_produce_created':
          // Bounded: an id is generational, so an old one is only forgotten, never misnamed.
          if (this.requestOf.size >= 10000) this.requestOf.clear();
          this.requestOf.set(`${e.broker}:${op}`, e.request);
          break;
        case 'timer_added': what = 'added'; break;
        // An expiry completes its operation too (onComplete, then onExpiration): its entry left
        // the wheel because its bucket came due, which the expiry's own line says.
        case 'operation_completed': if (e.how !== 'expired') what = 'cancelled'; break;
        case 'operation_expired': what = 'expired'; break;
        // A crash takes the broker's purgatory down, its timer and every entry on it.
        case 'broker_crashed': what = 'crashed'; break;
        default: break;
      }
      if (what) {
        const request = e.request ?? this.requestOf.get(`${e.broker}:${op}`) ?? null;
        this.list.push({ what, at: e.at_ms, broker: e.broker, request, op, due: e.expires_at_ms });
      }
    }
    if (this.list.length > 50) this.list.splice(0, this.list.length - 50);
  }
}

/** One of the wheels' changes (a `WheelChanges` entry) in words. */
function changeLine(c, tr) {
  const who = c.request ?? (c.op ? tr.t('wheel.change.op', { op: c.op }) : tr.t('wheel.change.entry'));
  const line = tr.t(`wheel.change.${c.what}`, { who, due: c.due });
  return tr.t('wheel.change', { at: c.at, broker: String(c.broker), line });
}

/** How the timing wheel works (the panel's "How the wheel works"), made once per language. */
const explained = new WeakMap();

function explain(tr) {
  if (!explained.has(tr)) {
    explained.set(tr, html`<p>${tr.t('wheel.explain.levels')}</p>
<p>${tr.t('wheel.explain.cascade')}</p>
<p>${tr.t('wheel.explain.cancel')}</p>`);
  }
  return explained.get(tr);
}

export function renderWheel(el, snap, selectedOps, changes, selected, tr) {
  const shown = snap.brokers.filter((b) => b.produce_purgatory.timer.size > 0 || b.produce_purgatory.timer.levels.length > 1);
  const body = shown.length
    ? html`${shown.map((b) => {
      const t = b.produce_purgatory.timer;
      const vars = { broker: String(b.id), count: t.size, at: t.next_expiration_ms };
      return html`<section><h3>${tr.t(t.next_expiration_ms != null ? 'wheel.timer.next' : 'wheel.timer', vars)}</h3>
      ${t.levels.map((l, i) => level(l, i, selectedOps, selected, tr))}</section>`;
    })}`
    : html`<p class="muted">${tr.t('wheel.empty')}</p>`;
  patch(el.querySelector('.wheel-body'), body);
  patch(el.querySelector('.wheel-changes'), changes.length ? html`<h3>${tr.t('wheel.changes')}</h3><ul>${changes.slice(-5).map((c) => html`<li>${changeLine(c, tr)}</li>`)}</ul>` : html``);
  patch(el.querySelector('.wheel-explain'), explain(tr));
}
