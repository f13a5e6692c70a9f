// Code path of one selected produce request, derived from the causal trace: appendRecords ->
// delayedProduceRequestRequired -> new DelayedProduce -> tryCompleteElseWatch (try, watch, try
// again, timer) -> checkAndComplete -> onComplete / onExpiration. The step it is at is
// highlighted; each step shows the values that decided it.
import { html } from '../html.js';
import { patch, fmt } from './dom.js';
import { explainCompletion, notDelayedWhy } from '../narrate.js';

const find = (evs, name) => evs.find((e) => e.event === name);

/**
 * The steps of one request: [{name, state: 'done'|'current'|'skipped'|'todo', detail}], `detail`
 * plain text (topic names, reasons and ids come from the scenario: the view escapes it).
 */
export function requestSteps(track, history, now) {
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
  const s = [];
  const step = (name, reached, detail, skipped = false) => s.push({ name, state: skipped ? 'skipped' : reached ? 'done' : 'todo', detail });
  // KafkaApis filters unknown partitions out first and, with none left, answers without calling
  // appendRecords; appendRecords itself answers an invalid acks before looking at any partition.
  const noneKnown = !appended.length && rejected.length > 0 && rejected.every((r) => r.error === 'UNKNOWN_TOPIC_OR_PARTITION');
  const invalidAcks = rejected.some((r) => r.error === 'INVALID_REQUIRED_ACKS');
  if (noneKnown) step('appendRecords', false, `not called: KafkaApis answers ${rejected.map((r) => `${r.tp} UNKNOWN_TOPIC_OR_PARTITION`).join(', ')} at once`, true);
  else step('appendRecords', !!recv, recv
    ? `acks=${recv.acks}, timeoutMs=${fmt(recv.timeout_ms)}; ${appended.map((a) => `${a.tp} offsets ${a.base_offset}-${a.last_offset} (LEO ${a.log_end_offset})`).join(', ') || 'nothing appended'}${rejected.length ? `; ${rejected.map((r) => `${r.tp} ${r.error}: ${r.reason}`).join('; ')}` : ''}`
    : 'not received yet');
  const required = created ? true : atOnce || rejected.length || closed ? false : null;
  if (noneKnown || invalidAcks) step('delayedProduceRequestRequired', false, invalidAcks ? 'not reached: isValidRequiredAcks failed, so every partition is answered INVALID_REQUIRED_ACKS at once' : '', true);
  else {
    step('delayedProduceRequestRequired', required !== null, required === null ? '' : required
      ? 'true: acks = -1, something was appended, and a partition succeeded'
      : `false (${atOnce ? notDelayedWhy(atOnce.acks) : 'respond at once'})`);
  }
  const noDelay = required === false;
  step('new DelayedProduce', !!created, created ? `op ${created.op.slot}.${created.op.generation}, delayMs ${fmt(created.timeout_ms)}; ${created.partitions.map((p) => (p.acks_pending ? `${p.tp} requiredOffset ${p.required_offset}` : `${p.tp} ${p.error} (not waited on)`)).join(', ')}` : '', noDelay);
  const firstTry = completed?.how === 'first_try';
  const secondTry = completed?.how === 'second_try';
  const tcw = created ? (firstTry ? 'try: complete at once (HW already ≥ requiredOffset)'
    : [`try: not yet`, watched ? `watch on ${watched.keys.join(', ')}` : '', watched ? (secondTry ? 'try again: complete (now garbage on its watch lists)' : 'try again: not yet') : '', timer ? `timer: expires at ${fmt(timer.expires_at_ms)} ms` : ''].filter(Boolean).join(' → ')) : '';
  step('tryCompleteElseWatch', !!created, tcw, noDelay);
  const cac = track.checks;
  const lastCac = completed?.how === 'check_and_complete' ? history.event(completed.cause) : null;
  // The timer fired first: Kafka's DelayedOperation.run is forceComplete (so onComplete, which
  // sends the response) and then onExpiration; a step can stop between the two.
  const timedOut = !!expired || completed?.how === 'expired';
  step('checkAndComplete', !!lastCac || cac.length > 0, cac.length
    ? `${cac.length} call${cac.length === 1 ? '' : 's'} on its keys${lastCac ? `; completed by checkAndComplete(${lastCac.key}) at ${fmt(lastCac.at_ms)} ms` : timedOut ? '; none found it complete' : '; not complete yet'}`
    : timer && !completed ? 'waiting for the HW to move (a follower’s fetch, an ISR change) or for the timer'
      : timedOut ? 'never called on its keys: their HW did not move' : '', noDelay || firstTry || secondTry);
  let end = '';
  if (expired) end = `the timer fired: onComplete, then onExpiration at ${fmt(expired.at_ms)} ms: ${expired.expired_partitions.join(', ')} timed out`;
  else if (timedOut) end = `onComplete at ${fmt(completed.at_ms)} ms: ${explainCompletion(completed, history)} (forceComplete from the timer; onExpiration comes next)`;
  else if (completed) end = `onComplete at ${fmt(completed.at_ms)} ms: ${explainCompletion(completed, history)}`;
  if (response) end += `${end ? '; ' : ''}response after ${fmt(response.latency_ms)} ms: ${response.partitions.map((p) => `${p.tp} ${p.error}`).join(', ')}`;
  if (closed) end += `${end ? '; ' : ''}connection closed: ${closed.reason}`;
  step(timedOut ? 'onExpiration' : 'onComplete', !!(completed || expired || response || closed), end);
  // The current step: the last one reached.
  let cur = -1;
  s.forEach((x, i) => { if (x.state === 'done') cur = i; });
  if (cur >= 0) s[cur].state = 'current';
  if (timer && !completed && !expired) s[4].detail += ` · ${fmt(Math.max(0, timer.expires_at_ms - now))} ms left`;
  return s;
}

export function renderCodePath(el, track, history, now) {
  if (!track) {
    patch(el.querySelector('.cp-body'), html`<p class="muted"><span class="if-can-produce">Fire a produce request (or pick one in Responses) to follow it through the broker.</span><span class="if-watching">This scenario sends no produce request to follow.</span></p>`);
    return;
  }
  const steps = requestSteps(track, history, now);
  const items = steps.map((x) => {
    // The detail is text: escaped here, with the step's name.
    const inner = html`<code>${x.name}</code><div>${x.detail}</div>`;
    return x.state === 'current'
      ? html`<li class="${x.state}" aria-current="step">${inner}</li>`
      : html`<li class="${x.state}">${inner}</li>`;
  });
  patch(el.querySelector('.cp-body'), html`<p>Request <b>${track.id}</b></p><ol class="steps">${items}</ol>`);
}
