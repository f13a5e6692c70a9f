// Responses: every produce request's fate as the client sees it (id, error per partition, when).
// Its words come from the translator `tr` (www/i18n/*/views.js); error codes stay Kafka's.
import { html } from '../html.js';
import { patch } from './dom.js';

/** ok, bad or waiting: the colour of a response's line. */
function outcomeOf(r) {
  if (r.waiting) return 'waiting';
  if (r.connection_closed || gaveUp(r) || r.lost_ms != null) return 'bad';
  return r.partitions.every(([, e]) => e == null || e === 'NONE') ? 'ok' : 'bad';
}

/** The producer's own request.timeout.ms ran out first: whatever the broker answers is unread. */
const gaveUp = (r) => r.client_timed_out_ms != null;

/** p1, p2, …, p10 in that order (ids are compared by their digits, not as text). */
const natural = (a, b) => a.id.localeCompare(b.id, 'en', { numeric: true });

/** When and how a request was answered, or that it was not. */
function answer(r, tr) {
  if (gaveUp(r)) {
    const vars = { gaveUp: r.client_timed_out_ms, at: r.responded_ms };
    return tr.t(r.responded_ms != null ? 'responses.gaveUp.answered' : 'responses.gaveUp', vars);
  }
  if (r.responded_ms != null) return tr.t('responses.answered', { at: r.responded_ms, took: r.responded_ms - r.received_ms });
  if (r.connection_closed) return tr.t('responses.closed');
  // Still waiting: its partitions say so; this says for how long.
  return r.acks === 0 ? tr.t('responses.acks0') : tr.t('responses.since', { at: r.received_ms });
}

export function renderResponses(el, snap, selected, tr) {
  const waiting = tr.t('responses.waiting');
  const none = tr.t('responses.none');
  const rows = snap.requests.slice().sort(natural).reverse().map((r) => {
    // A producer that gave up got its own REQUEST_TIMED_OUT.
    const got = (e) => (gaveUp(r) ? 'REQUEST_TIMED_OUT' : e ?? (r.waiting ? waiting : none));
    const errs = r.partitions.map(([tp, e]) => `${tp} ${got(e)}`).join(tr.t('list.sep'));
    const what = `acks=${r.acks} → broker ${r.broker}${tr.t('label.sep')}${errs}`;
    const status = r.waiting ? 'waiting' : r.connection_closed ? 'closed' : gaveUp(r) ? 'gave-up' : r.responded_ms != null ? 'answered' : 'no-response';
    // Acknowledged, then lost: the producer was told NONE, and a new leader's log lacks them.
    const when = r.lost_ms != null ? `${answer(r, tr)}${tr.t('clause.sep')}${tr.t('responses.lost', { at: r.lost_ms })}` : answer(r, tr);
    const cls = `${status} outcome-${outcomeOf(r)}${r.id === selected ? ' sel' : ''}`;
    const body = html`<button class="link" data-select="${r.id}"><b>${r.id}</b> ${what}</button> <span class="muted">${when}</span>`;
    // An attribute is there or not as a whole: the tag takes no interpolation between attributes.
    return r.waiting
      ? html`<li class="${cls}" data-story="request-${r.id}" >${body}</li>`
      : html`<li class="${cls}" data-story="request-${r.id}" data-testid="response">${body}</li>`;
  });
  const more = snap.requests_total > snap.requests.length ? html`<li class="muted">${tr.t('responses.older', { count: snap.requests_total - snap.requests.length })}</li>` : null;
  patch(el.querySelector('.resp-list'), rows.length || more ? html`${rows}${more}` : html`<li class="muted">${tr.t('responses.empty')}</li>`);
  patch(el.querySelector('.resp-count'), html`${tr.t('responses.count', { sent: snap.requests_total, waiting: snap.requests_waiting })}`);
}
