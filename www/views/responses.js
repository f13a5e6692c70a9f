// Responses: every produce request's fate as the client sees it (id, error per partition, when).
import { esc, fmt, patch } from './dom.js';

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
    const errs = r.partitions.map(([tp, e]) => `${esc(tp)} ${e ?? (r.waiting ? 'waiting' : 'no response')}`).join(', ');
    const status = r.waiting ? 'waiting' : r.connection_closed ? 'closed' : r.responded_ms != null ? 'answered' : 'no-response';
    const when = r.responded_ms != null ? `answered at ${fmt(r.responded_ms)} ms (${fmt(r.responded_ms - r.received_ms)} ms)` : r.connection_closed ? 'connection closed' : r.acks === 0 ? 'acks=0: no response' : 'waiting';
    return `<li class="${status} outcome-${outcomeOf(r)}${r.id === selected ? ' sel' : ''}" data-story="request-${esc(r.id)}" ${r.waiting ? '' : 'data-testid="response"'}><button class="link" data-select="${esc(r.id)}"><b>${esc(r.id)}</b> acks=${r.acks} → broker ${r.broker}: ${errs}</button> <span class="muted">${when}</span></li>`;
  }).join('');
  const more = snap.requests_total > snap.requests.length ? `<li class="muted">+ ${fmt(snap.requests_total - snap.requests.length)} older</li>` : '';
  patch(el.querySelector('.resp-list'), rows + more || '<li class="muted">No requests yet.</li>');
  patch(el.querySelector('.resp-count'), `${fmt(snap.requests_total)} sent, ${fmt(snap.requests_waiting)} waiting`);
}
