// Timing-wheel view: each produce purgatory's hierarchical wheel, finest level first: tick, size,
// span, current time, the bucket the clock is at, the buckets holding operations (and which),
// overflow levels as they appear. Entries move between levels (cascade) as the clock nears their
// expiration, and leave when their operation completes (cancel) or expires; the view marks both.
import { esc, fmt, patch } from './dom.js';

function level(l, i, selectedOps) {
  const cur = Math.floor(l.current_time_ms / l.tick_ms) % l.wheel_size;
  const byIndex = new Map(l.buckets.map((b) => [b.index, b]));
  let cells = '';
  for (let k = 0; k < l.wheel_size; k++) {
    const b = byIndex.get(k);
    const sel = b && b.ops.some((o) => selectedOps.has(o));
    const title = b && !b.count ? `bucket ${k}: empty (its entries left: cancelled on completion), still queued for ${fmt(b.expiration_ms)} ms` : b ? `bucket ${k}: expires ${fmt(b.expiration_ms)} ms, ${b.count} entr${b.count === 1 ? 'y' : 'ies'}${b.ops.length ? ` (${b.ops.join(', ')})` : ''}` : `bucket ${k}: empty`;
    cells += `<span class="bucket${b ? (b.count ? ' full' : ' queued') : ''}${k === cur ? ' cur' : ''}${sel ? ' sel' : ''}" title="${esc(title)}">${b && b.count ? (b.count > 99 ? '99+' : b.count) : ''}</span>`;
  }
  return `<div class="level"><div class="lmeta">L${i + 1}${i > 0 ? ' (overflow)' : ''}: tickMs ${fmt(l.tick_ms)} × wheelSize ${l.wheel_size} = ${fmt(l.interval_ms)} ms · currentTimeMs ${fmt(l.current_time_ms)}</div><div class="cells" style="--n:${l.wheel_size}">${cells}</div></div>`;
}

export function renderWheel(el, snap, selectedOps, changes) {
  const shown = snap.brokers.filter((b) => b.produce_purgatory.timer.size > 0 || b.produce_purgatory.timer.levels.length > 1);
  const html = shown.map((b) => {
    const t = b.produce_purgatory.timer;
    return `<section><h3>broker ${b.id} · produce timer: ${fmt(t.size)} entr${t.size === 1 ? 'y' : 'ies'}${t.next_expiration_ms != null ? `, next bucket due at ${fmt(t.next_expiration_ms)} ms` : ''}</h3>
      ${t.levels.map((l, i) => level(l, i, selectedOps)).join('')}</section>`;
  }).join('') || `<p class="muted">No operation on any wheel (level 1: tickMs 1 × wheelSize 20). An acks=all request that cannot complete at once is added here with its timeout.</p>`;
  patch(el.querySelector('.wheel-body'), html);
  patch(el.querySelector('.wheel-changes'), changes.length ? `<ul>${changes.slice(-6).map((c) => `<li>${esc(c)}</li>`).join('')}</ul>` : '');
}
