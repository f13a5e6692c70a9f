// Purgatory view: the produce purgatory of every broker that holds anything: the gauges, the
// estimate against the purge interval, each key's watch list in FIFO order (completed but not yet
// purged entries shown as such) and each DelayedProduce with its required offsets and time left.
//
// Each broker's section is patched in parts (gauges, watch lists, operations), so a frame where
// only the clock moved rewrites the operations' "time left" and leaves the watch lists' DOM alone;
// the watch lists' HTML is kept per snapshot object (the page reuses the snapshot while the model
// has not changed).
import { html, join } from '../html.js';
import { fmt, patch } from './dom.js';

/** Rows drawn one by one; the rest are counted. */
const MAX_ROWS = 12;

const watchCache = new WeakMap();

function watchList(w, selected) {
  return html`<div class="watch" data-story="watch-${w.key}"><span class="key">${w.key}</span>
    <ol class="fifo" aria-label="watch list of ${w.key}, oldest first">${w.entries.map((e) => html`<li class="op ${e.completed ? 'done' : 'waiting'}${e.request === selected ? ' sel' : ''}" data-request="${e.request ?? ''}" title="${e.completed ? 'completed, not yet purged (garbage until a purge or a later checkAndComplete on this key)' : 'waiting'}">${e.request ?? e.op}${e.completed ? ' ✓' : ''}</li>`)}
    ${w.total > w.entries.length ? html`<li class="more">+ ${fmt(w.total - w.entries.length)}</li>` : null}</ol>
    <span class="muted">${fmt(w.total)} ${w.total === 1 ? 'entry' : 'entries'}, ${fmt(w.completed)} completed not purged</span></div>`;
}

function watchLists(p, selected) {
  const cached = watchCache.get(p);
  if (cached && cached.selected === selected) return cached.markup;
  const lists = p.watch_lists.length ? p.watch_lists.map((w) => watchList(w, selected)) : html`<p class="muted">No watch lists.</p>`;
  const rest = p.watch_lists_left_out;
  const more = rest && rest.lists
    ? html`<p class="muted more-watch">+ ${fmt(rest.lists)} more watch ${rest.lists === 1 ? 'list' : 'lists'} (keys ${rest.first_key} … ${rest.last_key}): ${fmt(rest.entries)} ${rest.entries === 1 ? 'entry' : 'entries'}, ${fmt(rest.completed)} completed not purged. The first ${fmt(p.watch_lists.length)} keys are drawn.</p>`
    : null;
  const markup = html`${lists}${more}`;
  watchCache.set(p, { selected, markup });
  return markup;
}

function operations(p, now, selected) {
  if (!p.operations.length) return html``;
  const rows = p.operations.slice(0, MAX_ROWS).map((o) => {
    const left = o.completed ? 'completed, not purged' : `${fmt(Math.max(0, o.expires_at_ms - now))} ms`;
    const parts = join(o.partitions.map((s) => html`${s.tp}: requiredOffset ${s.required_offset} vs HW ${s.high_watermark ?? '-'} ${s.acks_pending ? (o.completed ? html`<span class="bad">REQUEST_TIMED_OUT (expired while acksPending)</span>` : html`<span class="pending">acksPending</span>`) : html`<span class="ok">${s.error}</span>`}`), html`<br>`);
    const slot = o.timer_slot ? `L${o.timer_slot[0] + 1} bucket ${o.timer_slot[1]}` : '-';
    return html`<tr class="${o.completed ? 'done' : ''}${o.request === selected ? ' sel' : ''}" data-request="${o.request}" data-story="request-${o.request}">
      <td><button class="link" data-select="${o.request}">${o.request}</button></td><td>${o.op}</td><td>${parts}</td><td>${left}</td><td>${slot}</td></tr>`;
  });
  const shown = Math.min(p.operations.length, MAX_ROWS);
  const more = p.operations_total > shown ? html`<p class="muted">+ ${fmt(p.operations_total - shown)} more operations held (${fmt(p.num_delayed_operations)} waiting in all)</p>` : null;
  return html`<table class="ops"><caption>DelayedProduce operations (waiting first)</caption><thead><tr><th>request</th><th>op</th><th>status per partition</th><th>time left</th><th>on the wheel</th></tr></thead><tbody>${rows}</tbody></table>${more}`;
}

function gauges(b) {
  const p = b.produce_purgatory;
  const pct = Math.min(100, (100 * (p.estimated_total_operations - p.num_delayed_operations)) / Math.max(1, p.purge_interval));
  const sum = `estimated ${fmt(p.estimated_total_operations)} - delayed ${fmt(p.num_delayed_operations)} = ${fmt(p.estimated_total_operations - p.num_delayed_operations)} of purge interval ${fmt(p.purge_interval)}`;
  return html`<div class="gauges"><span>PurgatorySize <b>${fmt(p.purgatory_size)}</b></span><span>NumDelayedOperations <b>${fmt(p.num_delayed_operations)}</b></span><span>ExpiresPerSec (total) <b>${fmt(b.produce_expires)}</b></span></div>
      <div class="purge" title="the reaper purges when estimatedTotalOperations - NumDelayedOperations > purge interval">
        <span>${sum}</span>
        <span class="bar"><span style="width:${pct}%"></span></span></div>`;
}

export function renderPurgatory(el, snap, selected) {
  let size = 0;
  let delayed = 0;
  for (const b of snap.brokers) {
    size += b.produce_purgatory.purgatory_size;
    delayed += b.produce_purgatory.num_delayed_operations;
  }
  const shown = snap.brokers.filter((b) => b.produce_purgatory.operations_total > 0 || b.produce_purgatory.watch_lists.length || b.produce_purgatory.estimated_total_operations > 0);
  // The frame of each section, then its parts: only a part whose HTML changed is rewritten.
  const skeleton = shown.length
    ? html`${shown.map((b) => html`<section class="purg" data-broker="${b.id}"><h3>broker ${b.id} · Produce purgatory</h3>
      <div class="purg-gauges"></div><h4>Watch lists (FIFO)</h4><div class="purg-watch"></div><div class="purg-ops"></div></section>`)}`
    : html`<p class="muted">Nothing in any produce purgatory. <span class="if-can-produce">Fire an acks=all request while a follower is paused to see one wait.</span><span class="if-watching">Play: the scenario's acks=all requests wait here until their in-sync replicas have the records.</span></p>`;
  patch(el.querySelector('.purg-totals'), html`<span>PurgatorySize (all brokers) <b data-testid="purgatory-size">${size}</b></span> <span>NumDelayedOperations <b data-testid="num-delayed-operations">${delayed}</b></span>`);
  const body = el.querySelector('.purg-body');
  patch(body, skeleton);
  const sections = body.children;
  shown.forEach((b, i) => {
    const s = sections[i];
    const p = b.produce_purgatory;
    patch(s.children[1], gauges(b));
    patch(s.children[3], watchLists(p, selected));
    patch(s.children[4], operations(p, snap.now_ms, selected));
  });
}
