// Purgatory view: the produce purgatory of every broker that holds anything: the gauges, the
// estimate against the purge interval, each key's watch list in FIFO order (completed but not yet
// purged entries shown as such) and each DelayedProduce with its required offsets and time left.
//
// Each broker's section is patched in parts (gauges, watch lists, operations), so a frame where
// only the clock moved rewrites the operations' "time left" and leaves the watch lists' DOM alone;
// the watch lists' HTML is kept per snapshot object (the page reuses the snapshot while the model
// has not changed). Its words come from the translator `tr` (www/i18n/*/views.js); Kafka's names
// (PurgatorySize, requiredOffset, acksPending, error codes) are shown as they are.
import { html, join } from '../html.js';
import { patch } from './dom.js';

/** Rows drawn one by one; the rest are counted. */
const MAX_ROWS = 12;

const watchCache = new WeakMap();

function watchList(w, selected, tr) {
  const done = tr.t('purgatory.entry.done');
  const waiting = tr.t('purgatory.entry.waiting');
  return html`<div class="watch" data-story="watch-${w.key}"><span class="key">${w.key}</span>
    <ol class="fifo" aria-label="${tr.t('purgatory.watch.label', { key: w.key })}">${w.entries.map((e) => html`<li class="op ${e.completed ? 'done' : 'waiting'}${e.request === selected ? ' sel' : ''}" data-request="${e.request ?? ''}" title="${e.completed ? done : waiting}">${e.request ?? e.op}${e.completed ? ' ✓' : ''}</li>`)}
    ${w.total > w.entries.length ? html`<li class="more">+ ${tr.num(w.total - w.entries.length)}</li>` : null}</ol>
    <span class="muted">${tr.t('purgatory.watch.count', { entries: tr.t('purgatory.entries', { count: w.total }), completed: w.completed })}</span></div>`;
}

function watchLists(p, selected, tr) {
  const cached = watchCache.get(p);
  if (cached && cached.selected === selected && cached.tr === tr) return cached.markup;
  const lists = p.watch_lists.length ? p.watch_lists.map((w) => watchList(w, selected, tr)) : html`<p class="muted">${tr.t('purgatory.watch.none')}</p>`;
  const rest = p.watch_lists_left_out;
  const more = rest && rest.lists
    ? html`<p class="muted more-watch">${tr.t('purgatory.watch.more', {
      lists: tr.t('purgatory.watch.moreLists', { count: rest.lists }),
      first: rest.first_key,
      last: rest.last_key,
      entries: tr.t('purgatory.entries', { count: rest.entries }),
      completed: rest.completed,
      drawn: p.watch_lists.length,
    })}</p>`
    : null;
  const markup = html`${lists}${more}`;
  watchCache.set(p, { selected, tr, markup });
  return markup;
}

/** One partition of a DelayedProduce: its required offset against the HW, and where it stands. */
function partitionStatus(s, completed, tr) {
  const status = !s.acks_pending ? html`<span class="ok">${s.error}</span>`
    : completed ? html`<span class="bad">${tr.t('purgatory.op.expired')}</span>`
      : html`<span class="pending">acksPending</span>`;
  // Offsets are written as Kafka writes them (no grouping). A partition decided with an error (at
  // the append, or a lost leadership) waits on no HW: none is set against it.
  const vars = { tp: s.tp, offset: String(s.required_offset), hw: String(s.high_watermark ?? '-') };
  const against = tr.t(!s.acks_pending && s.error && s.error !== 'NONE' ? 'purgatory.op.partition.decided' : 'purgatory.op.partition', vars);
  return html`${against} ${status}`;
}

function operations(p, now, selected, tr) {
  if (!p.operations.length) return html``;
  const rows = p.operations.slice(0, MAX_ROWS).map((o) => {
    const left = o.completed ? tr.t('purgatory.op.done') : `${tr.num(Math.max(0, o.expires_at_ms - now))} ms`;
    const parts = join(o.partitions.map((s) => partitionStatus(s, o.completed, tr)), html`<br>`);
    const slot = o.timer_slot ? tr.t('purgatory.op.slot', { level: o.timer_slot[0] + 1, bucket: o.timer_slot[1] }) : '-';
    return html`<tr class="${o.completed ? 'done' : ''}${o.request === selected ? ' sel' : ''}" data-request="${o.request}" data-story="request-${o.request}">
      <td><button class="link" data-select="${o.request}">${o.request}</button></td><td>${o.op}</td><td>${parts}</td><td>${left}</td><td>${slot}</td></tr>`;
  });
  const shown = Math.min(p.operations.length, MAX_ROWS);
  const more = p.operations_total > shown ? html`<p class="muted">${tr.t('purgatory.ops.more', { count: p.operations_total - shown, waiting: p.num_delayed_operations })}</p>` : null;
  const head = ['request', 'op', 'status', 'left', 'slot'].map((k) => html`<th>${tr.t(`purgatory.ops.${k}`)}</th>`);
  return html`<table class="ops"><caption>${tr.t('purgatory.ops')}</caption><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>${more}`;
}

function gauges(b, tr) {
  const p = b.produce_purgatory;
  const pct = Math.min(100, (100 * (p.estimated_total_operations - p.num_delayed_operations)) / Math.max(1, p.purge_interval));
  const sum = tr.t('purgatory.purge', {
    estimated: p.estimated_total_operations,
    delayed: p.num_delayed_operations,
    done: p.estimated_total_operations - p.num_delayed_operations,
    interval: p.purge_interval,
  });
  return html`<div class="gauges"><span>PurgatorySize <b>${tr.num(p.purgatory_size)}</b></span><span>NumDelayedOperations <b>${tr.num(p.num_delayed_operations)}</b></span><span>${tr.t('purgatory.expires')} <b>${tr.num(b.produce_expires)}</b></span></div>
      <div class="purge" title="${tr.t('purgatory.purge.title')}">
        <span>${sum}</span>
        <span class="bar"><span style="width:${pct}%"></span></span></div>`;
}

export function renderPurgatory(el, snap, selected, tr) {
  let size = 0;
  let delayed = 0;
  for (const b of snap.brokers) {
    size += b.produce_purgatory.purgatory_size;
    delayed += b.produce_purgatory.num_delayed_operations;
  }
  const shown = snap.brokers.filter((b) => b.produce_purgatory.operations_total > 0 || b.produce_purgatory.watch_lists.length || b.produce_purgatory.estimated_total_operations > 0);
  // The frame of each section, then its parts: only a part whose HTML changed is rewritten.
  const skeleton = shown.length
    ? html`${shown.map((b) => html`<section class="purg" data-broker="${b.id}"><h3>${tr.t('purgatory.broker', { broker: String(b.id) })}</h3>
      <div class="purg-gauges"></div><h4>${tr.t('purgatory.watch')}</h4><div class="purg-watch"></div><div class="purg-ops"></div></section>`)}`
    : html`<p class="muted">${tr.t('purgatory.empty')}${tr.t('sentence.sep')}<span class="if-can-produce">${tr.t('purgatory.empty.live')}</span><span class="if-watching">${tr.t('purgatory.empty.scenario')}</span></p>`;
  patch(el.querySelector('.purg-totals'), html`<span>${tr.t('purgatory.total.size')} <b data-testid="purgatory-size">${tr.num(size)}</b></span> <span>NumDelayedOperations <b data-testid="num-delayed-operations">${tr.num(delayed)}</b></span>`);
  const body = el.querySelector('.purg-body');
  patch(body, skeleton);
  const sections = body.children;
  shown.forEach((b, i) => {
    const s = sections[i];
    const p = b.produce_purgatory;
    patch(s.children[1], gauges(b, tr));
    patch(s.children[3], watchLists(p, selected, tr));
    patch(s.children[4], operations(p, snap.now_ms, selected, tr));
  });
}
