// Responses: every produce request's fate as the client sees it (id, error per partition, when).
import { html } from '../html.js';
import { fmt, patch } from './dom.js';

/** ok, bad or waiting: the colour of a response's line. */
function outcomeOf(r) {
  if (r.waiting) return 'waiting';
  if (r.connection_closed) return 'bad';
  return r.partitions.every(([, e]) => e == null || e === 'NONE') ? 'ok' : 'bad';
}

/** p1, p2, …, p10 in that order (ids are compared by their digits, not as text). */
const natural = (a, b) => a.id.localeCompare(b.id, 'en', { numeric: true });

export function renderResponses(el, snap, selected) {
  const rows = snap.requests.slice().sort(natural).reverse().map((r) => {
    const errs = r.partitions.map(([tp, e]) => `${tp} ${e ?? (r.waiting ? 'waiting' : 'no response')}`).join(', ');
    const what = `acks=${r.acks} → broker ${r.broker}: ${errs}`;
    const status = r.waiting ? 'waiting' : r.connection_closed ? 'closed' : r.responded_ms != null ? 'answered' : 'no-response';
    const when = r.responded_ms != null ? `answered at ${fmt(r.responded_ms)} ms (${fmt(r.responded_ms - r.received_ms)} ms)` : r.connection_closed ? 'connection closed' : r.acks === 0 ? 'acks=0: no response' : 'waiting';
    const cls = `${status} outcome-${outcomeOf(r)}${r.id === selected ? ' sel' : ''}`;
    const body = html`<button class="link" data-select="${r.id}"><b>${r.id}</b> ${what}</button> <span class="muted">${when}</span>`;
    // An attribute is there or not as a whole: the tag takes no interpolation between attributes.
    return r.waiting
      ? html`<li class="${cls}" data-story="request-${r.id}" >${body}</li>`
      : html`<li class="${cls}" data-story="request-${r.id}" data-testid="response">${body}</li>`;
  });
  const more = snap.requests_total > snap.requests.length ? html`<li class="muted">+ ${fmt(snap.requests_total - snap.requests.length)} older</li>` : null;
  patch(el.querySelector('.resp-list'), rows.length || more ? html`${rows}${more}` : html`<li class="muted">No requests yet.</li>`);
  patch(el.querySelector('.resp-count'), html`${fmt(snap.requests_total)} sent, ${fmt(snap.requests_waiting)} waiting`);
}
