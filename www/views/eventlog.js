// The narrated event log: one line per trace event, newest last, filterable by kind and text.
// Lines about a request link to it (selecting it in the code path view).
import { esc, fmt, patch } from './dom.js';

export function renderEventLog(el, lines, filter) {
  const text = filter.text.trim().toLowerCase();
  const shown = [];
  for (let i = lines.length - 1; i >= 0 && shown.length < 150; i--) {
    const l = lines[i];
    if (!filter.kinds.has(l.cat)) continue;
    if (text && !l.text.toLowerCase().includes(text)) continue;
    shown.push(l);
  }
  shown.reverse();
  const list = el.querySelector('.log-lines');
  // Follow the newest line unless the reader scrolled up to read older ones. Reading the scroll
  // position forces a layout of the whole page; the first render has not been scrolled, so it
  // leaves the scrolling to the next frame instead of laying out the page before it is ready.
  const first = list._html === undefined;
  const atEnd = first || list.scrollHeight - list.scrollTop - list.clientHeight < 24;
  patch(list, shown.map((l) => `<li class="${l.cat}"><span class="t">${fmt(l.at)} ms</span> ${l.request ? `<button class="link" data-select="${esc(l.request)}">${esc(l.text)}</button>` : esc(l.text)}</li>`).join('') || '<li class="muted">No events match.</li>');
  if (first) requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
  else if (atEnd) list.scrollTop = list.scrollHeight;
}
