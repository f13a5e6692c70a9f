// Code path of one selected produce request, derived from the causal trace: appendRecords ->
// delayedProduceRequestRequired -> new DelayedProduce -> tryCompleteElseWatch (try, watch, try
// again, timer) -> checkAndComplete -> onComplete / onExpiration. The step it is at is
// highlighted; each step shows the values that decided it.
import { html } from '../html.js';
import { patch } from './dom.js';
import { explainCompletion, notDelayedWhy } from '../narrate.js';
import { reasonText, refusedOnArrival } from '../says.js';

const find = (evs, name) => evs.find((e) => e.event === name);

/**
 * The steps of one request: [{name, state: 'done'|'current'|'skipped'|'todo', detail}], `detail`
 * plain text (topic names, reasons and ids come from the scenario: the view escapes it).
 */
export function requestSteps(track, history, now, tr) {
  const t = (key, vars) => tr.t(`cp.${key}`, vars);
  const all = (items) => items.join(tr.t('list.sep'));
  const raw = (v) => String(v);
  const evs = track.events;
  const recv = find(evs, 'produce_received');
  const appended = evs.filter((e) => e.event === 'records_appended');
  const rejected = evs.filter((e) => e.event === 'produce_partition_rejected');
  const atOnce = find(evs, 'produce_answered_at_once');
  const created = find(evs, 'delayed_produce_created');
  const watched = find(evs, 'operation_watched');
  const timer = find(evs, 'timer_added');
  const completed = find(evs, 'operation_completed');
  const expired = find(evs, 'operation_expired');
  const response = find(evs, 'produce_response_sent');
  const closed = find(evs, 'connection_closed');
  // The producer's own timeout: the broker's path goes on without it.
  const gaveUp = find(evs, 'client_request_timed_out');
  const s = [];
  const step = (name, reached, detail, skipped = false) => s.push({ name, state: skipped ? 'skipped' : reached ? 'done' : 'todo', detail });
  // KafkaApis filters unknown partitions out first and, with none left, answers without calling
  // appendRecords; appendRecords itself answers an invalid acks before looking at any partition.
  const noneKnown = !appended.length && rejected.length > 0 && rejected.every((r) => r.error === 'UNKNOWN_TOPIC_OR_PARTITION');
  const invalidAcks = rejected.some((r) => r.error === 'INVALID_REQUIRED_ACKS');
  // A broker that is down, or not yet registered, never takes the request in.
  const notReached = recv && refusedOnArrival(closed, recv.request);
  if (noneKnown) step('appendRecords', false, t('append.notCalled', { partitions: all(rejected.map((r) => `${r.tp} UNKNOWN_TOPIC_OR_PARTITION`)) }), true);
  else if (notReached) step('appendRecords', false, t('append.notReached', { broker: String(recv.broker), reason: reasonText(closed.reason, tr) }), true);
  else if (!recv) step('appendRecords', false, t('append.notYet'));
  else {
    const wrote = all(appended.map((a) => t('append.partition', { tp: a.tp, from: raw(a.base_offset), to: raw(a.last_offset), leo: raw(a.log_end_offset) }))) || t('append.nothing');
    const refused = rejected.map((r) => `${r.tp} ${r.error}: ${reasonText(r.reason, tr)}`).join(tr.t('clause.sep'));
    step('appendRecords', true, t(refused ? 'append.refused' : 'append', { acks: raw(recv.acks), timeout: recv.timeout_ms, appended: wrote, refused }));
  }
  const required = created ? true : atOnce || rejected.length || closed ? false : null;
  if (noneKnown || invalidAcks || notReached) step('delayedProduceRequestRequired', false, invalidAcks ? t('required.invalidAcks') : '', true);
  else {
    step('delayedProduceRequestRequired', required !== null, required === null ? '' : required
      ? t('required.true')
      : t('required.false', { why: atOnce ? notDelayedWhy(atOnce.acks, tr) : t('required.atOnce') }));
  }
  const noDelay = required === false;
  step('new DelayedProduce', !!created, created ? t('created', { op: `op ${created.op.slot}.${created.op.generation}`, timeout: created.timeout_ms, partitions: all(created.partitions.map((p) => (p.acks_pending ? t('created.waits', { tp: p.tp, offset: raw(p.required_offset) }) : t('created.decided', { tp: p.tp, error: p.error })))) }) : '', noDelay);
  const firstTry = completed?.how === 'first_try';
  const secondTry = completed?.how === 'second_try';
  const tcw = created ? (firstTry ? t('tcw.atOnce')
    : [t('tcw.notYet'), watched ? t('tcw.watch', { keys: all(watched.keys) }) : '', watched ? (secondTry ? t('tcw.again.done') : t('tcw.again.notYet')) : '', timer ? t('tcw.timer', { at: timer.expires_at_ms }) : ''].filter(Boolean).join(' → ')) : '';
  step('tryCompleteElseWatch', !!created, tcw, noDelay);
  const cac = track.checks;
  const lastCac = completed?.how === 'check_and_complete' ? history.event(completed.cause) : null;
  // The timer fired first: Kafka's DelayedOperation.run is forceComplete (so onComplete, which
  // sends the response) and then onExpiration; a step can stop between the two.
  const timedOut = !!expired || completed?.how === 'expired';
  let checks = '';
  if (cac.length) {
    const calls = t('cac.calls', { count: String(cac.length) });
    checks = lastCac ? t('cac.completedBy', { calls, key: lastCac.key, at: lastCac.at_ms }) : t(timedOut || closed ? 'cac.noneComplete' : 'cac.notYet', { calls });
  } else if (timer && !completed) checks = t(closed ? 'cac.gone' : 'cac.waiting'); // closed: its broker crashed
  else if (timedOut) checks = t('cac.never');
  step('checkAndComplete', !!lastCac || cac.length > 0, checks, noDelay || firstTry || secondTry);
  const ends = [];
  // First: it came before anything the broker did at the end (an answer then goes unread).
  if (gaveUp) ends.push(t('end.clientGone', { at: gaveUp.at_ms, timeout: gaveUp.request_timeout_ms }));
  if (expired) ends.push(t('end.expired', { at: expired.at_ms, partitions: all(expired.expired_partitions) }));
  else if (timedOut) ends.push(t('end.forced', { at: completed.at_ms, why: explainCompletion(completed, history, tr) }));
  else if (completed) ends.push(t('end.completed', { at: completed.at_ms, why: explainCompletion(completed, history, tr) }));
  if (response) ends.push(t('end.response', { latency: response.latency_ms, partitions: all(response.partitions.map((p) => `${p.tp} ${p.error}`)) }));
  if (closed) ends.push(t('end.closed', { reason: reasonText(closed.reason, tr) }));
  step(timedOut ? 'onExpiration' : 'onComplete', !!(completed || expired || response || closed), ends.join(tr.t('clause.sep')), notReached);
  // The current step: the last one reached.
  let cur = -1;
  s.forEach((x, i) => { if (x.state === 'done') cur = i; });
  if (cur >= 0) s[cur].state = 'current';
  if (timer && !completed && !expired && !closed) s[4].detail += ` · ${t('left', { ms: Math.max(0, timer.expires_at_ms - now) })}`;
  return s;
}

export function renderCodePath(el, track, history, now, tr) {
  if (!track) {
    patch(el.querySelector('.cp-body'), html`<p class="muted"><span class="if-can-produce">${tr.t('cp.empty.produce')}</span><span class="if-watching">${tr.t('cp.empty.watching')}</span></p>`);
    return;
  }
  const steps = requestSteps(track, history, now, tr);
  const items = steps.map((x) => {
    // The detail is text: escaped here, with the step's name.
    const inner = html`<code>${x.name}</code><div>${x.detail}</div>`;
    return x.state === 'current'
      ? html`<li class="${x.state}" aria-current="step">${inner}</li>`
      : html`<li class="${x.state}">${inner}</li>`;
  });
  patch(el.querySelector('.cp-body'), html`<p>${tr.t('cp.request')} <b>${track.id}</b></p><ol class="steps">${items}</ol>`);
}
