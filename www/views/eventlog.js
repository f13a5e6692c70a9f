// The narrated event log: one line per trace event, newest last, filterable by kind and text, or
// narrowed to one request. Events that repeat while nothing changes (idle fetches, a held HW) fold
// into one line with a count, so a quiet minute does not push the story out of sight: within a
// stretch of such events (the followers' fetches interleave), each distinct one is a line. Lines
// about a request link to it (selecting it in the code path).
import { html } from '../html.js';
import { patch } from './dom.js';

/** Most lines drawn; older ones are counted. */
const MAX_SHOWN = 150;

/**
 * The lines to show, newest last, folded: `{items: [{line, times, since}], older}`, `older` when
 * lines the filter keeps are left out, older than the last `MAX_SHOWN` drawn.
 */
function visible(lines, filter) {
  const text = filter.text.trim().toLowerCase();
  const keeps = (l) => (filter.only ? l.request === filter.only : filter.kinds.has(l.cat))
    && (!text || l.text.toLowerCase().includes(text));
  const out = [];
  /** The quiet stretch being read (newest first): its lines by fold key. */
  let quiet = new Map();
  let i = lines.length - 1;
  for (; i >= 0 && out.length < MAX_SHOWN; i--) {
    const l = lines[i];
    if (!keeps(l)) continue;
    if (!l.fold) quiet = new Map();
    const same = l.fold && quiet.get(l.fold);
    if (same) {
      same.times += 1;
      same.since = l.at;
      continue;
    }
    const item = { line: l, times: 1, since: l.at };
    if (l.fold) quiet.set(l.fold, item);
    out.push(item);
  }
  let older = false;
  for (; i >= 0 && !older; i--) older = keeps(lines[i]);
  return { items: out.reverse(), older };
}

/** The markup of lines shown alone (most are), by line: the log is redrawn each frame it is shown. */
const single = new WeakMap();

function row(item, tr) {
  if (item.times !== 1) return rowMarkup(item, tr);
  let markup = single.get(item.line);
  if (!markup) {
    markup = rowMarkup(item, tr);
    single.set(item.line, markup);
  }
  return markup;
}

/** One line: its (latest) time in the narrow first column, then what happened, in one cell. */
function rowMarkup({ line: l, times, since }, tr) {
  const body = l.request ? html`<button class="link" data-select="${l.request}">${l.text}</button>` : l.text;
  const count = times > 1
    ? html` <span class="times" title="${tr.t('log.times.title', { times: String(times), since, until: l.at })}">${tr.t('log.times', { since, times: String(times) })}</span>`
    : null;
  return html`<li class="${l.cat}"><span class="t">${tr.num(l.at)} ms</span><span>${body}${count}</span></li>`;
}

export function renderEventLog(el, history, filter, tr) {
  const { items: shown, older } = visible(history.lines, filter);
  const list = el.querySelector('.log-lines');
  const only = el.querySelector('.log-only');
  if (only) {
    only.hidden = !filter.only;
    only.textContent = filter.only ? tr.t('log.only', { request: filter.only }) : '';
  }
  // Follow the newest line unless the reader scrolled up to read older ones. Whether they did is
  // kept by a scroll listener, so a frame reads no layout unless the lines changed.
  if (list._pinned === undefined) {
    list._pinned = true;
    list.addEventListener('scroll', () => { list._pinned = list.scrollHeight - list.scrollTop - list.clientHeight < 24; }, { passive: true });
  }
  // What is not drawn is said at the top: lines older than those drawn, lines no longer kept.
  const dropped = older ? html`<li class="muted" data-testid="log-older">${tr.t('log.older', { count: MAX_SHOWN })}</li>`
    : history.dropped ? html`<li class="muted">${tr.t('log.dropped', { count: history.dropped })}</li>` : null;
  const changed = patch(list, dropped || shown.length ? html`${dropped}${shown.map((item) => row(item, tr))}` : html`<li class="muted">${tr.t('log.noMatch')}</li>`);
  if (changed && list._pinned) requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
}
