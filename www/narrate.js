// Turns the core's causal trace events into sentences a reader of Kafka's source recognises, and
// follows `cause` links to say why a request completed or failed. Every sentence is a message of
// the catalogue (www/i18n/*/narrate.js) in the language of `tr`. Offsets, counts and epochs are
// written as the trace has them; times go through the language's number format.

import { html, join } from './html.js';
import { reasonText, refusedOnArrival } from './says.js';

const op = (o) => `op ${o.slot}.${o.generation}`;
/** A set of broker ids as Kafka's logs write one: `{0, 1}`. */
const list = (xs) => `{${xs.join(', ')}}`;
/** A plain value, written as the trace has it (an offset, a count, an epoch: never grouped). */
const raw = (v) => String(v);

function bound(b, tr) {
  if (!b) return '';
  switch (b.reason) {
    case 'under_min_isr': return tr.t('bound.under_min_isr');
    case 'isr_replica': return tr.t('bound.isr_replica', { broker: raw(b.broker), offset: raw(b.log_end_offset ?? tr.t('unknown')) });
    case 'caught_up_replica': return tr.t('bound.caught_up_replica', { broker: raw(b.broker), offset: raw(b.log_end_offset ?? tr.t('unknown')) });
    case 'leader_log_end': return tr.t('bound.leader_log_end');
    default: return b.reason;
  }
}

/**
 * Why `delayedProduceRequestRequired` was false, and what follows: acks 0 and 1 never wait, and
 * acks=all waits only when at least one partition was appended.
 */
export function notDelayedWhy(acks, tr) {
  if (acks === 0) return tr.t('notDelayed.acks0');
  if (acks === 1) return tr.t('notDelayed.acks1');
  return tr.t('notDelayed.failed');
}

/** Category used by the log filter. */
export function category(e) {
  switch (e.event) {
    case 'produce_received': case 'produce_partition_rejected': case 'records_appended':
    case 'produce_answered_at_once': case 'produce_response_sent': case 'connection_closed':
    case 'client_request_timed_out': case 'acknowledged_records_lost':
      return 'produce';
    case 'delayed_produce_created': case 'operation_watched': case 'timer_added':
    case 'check_and_complete': case 'operation_completed': case 'operation_expired': case 'purged':
      return String(e.purgatory).toLowerCase() === 'fetch' ? 'fetch' : 'purgatory';
    case 'fetch_sent': case 'fetch_received': case 'fetch_parked': case 'fetch_response_sent':
    case 'fetch_response_received': case 'fetch_failed':
      return 'fetch';
    case 'follower_state_updated': case 'high_watermark_advanced': case 'high_watermark_held':
    case 'log_truncated': case 'idle_stretch_began': case 'idle_stretch_ended':
      return 'replication';
    default:
      return 'isr';
  }
}

/**
 * One sentence for one event, in the words of Kafka's source (the event log's line). `next` is the
 * event after it, if known: a request whose connection is refused is sent, not received.
 */
export function narrate(e, tr, next = null) {
  const t = (key, vars) => tr.t(`log.${key}`, vars);
  const all = (items) => items.join(tr.t('list.sep'));
  const fetchParts = () => all(e.partitions.map((p) => `${p.tp} @${p.fetch_offset}`));
  const what = () => e.request ?? op(e.op);
  // Kafka names its purgatories "Produce" and "Fetch"; the trace says `produce` or `fetch`.
  const purgatory = () => (['produce', 'fetch'].includes(e.purgatory) ? tr.t(`purgatory.${e.purgatory}`) : e.purgatory);
  switch (e.event) {
    case 'produce_received': return t(refusedOnArrival(next, e.request) ? 'produce_refused' : 'produce_received', { request: e.request, acks: raw(e.acks), timeout: e.timeout_ms, broker: raw(e.broker), batches: all(e.partitions.map(([tp, n]) => t('produce_received.batch', { count: raw(n), tp }))) });
    case 'follower_paused': return t('follower_paused', { broker: raw(e.broker) });
    case 'follower_resumed': return t('follower_resumed', { broker: raw(e.broker) });
    case 'broker_crashed': return t('broker_crashed', { broker: raw(e.broker) });
    case 'broker_restarted': return t('broker_restarted', { broker: raw(e.broker), epoch: raw(e.broker_epoch) });
    case 'action_ignored': return t('action_ignored', { action: e.action, reason: reasonText(e.reason, tr) });
    case 'produce_partition_rejected': return t('produce_partition_rejected', { request: e.request, tp: e.tp, error: e.error, reason: reasonText(e.reason, tr) });
    case 'records_appended': return t(e.request ? 'records_appended.for' : 'records_appended', { broker: raw(e.broker), from: raw(e.base_offset), to: raw(e.last_offset), tp: e.tp, request: e.request ?? '', leo: raw(e.log_end_offset), hw: t(e.hw_change === 'INCREASED' ? 'hw.increased' : 'hw.unchanged') });
    case 'produce_answered_at_once': return t('produce_answered_at_once', { request: e.request, why: notDelayedWhy(e.acks, tr) });
    case 'delayed_produce_created': return t('delayed_produce_created', { request: e.request, op: op(e.op), timeout: e.timeout_ms, partitions: all(e.partitions.map((p) => t(p.acks_pending ? 'delayed_produce_created.partition' : 'delayed_produce_created.decided', { tp: p.tp, offset: raw(p.required_offset), error: p.error ?? '' }))) });
    case 'operation_watched': return t('operation_watched', { op: op(e.op), keys: all(e.keys), estimate: raw(e.estimated_total_operations) });
    case 'timer_added': return t('timer_added', { op: op(e.op), at: e.expires_at_ms });
    case 'check_and_complete': return t('check_and_complete', { key: e.key, broker: raw(e.broker), purgatory: purgatory(), completed: raw(e.completed), watched: raw(e.still_watched) });
    case 'operation_completed': return t('operation_completed', { what: what(), how: ['first_try', 'second_try', 'check_and_complete', 'expired'].includes(e.how) ? tr.t(`how.${e.how}`) : e.how });
    case 'operation_expired': return t('operation_expired', { what: what(), partitions: all(e.expired_partitions) || t('operation_expired.nothing') });
    case 'produce_response_sent': return t(e.client_gone ? 'produce_response_sent.unread' : 'produce_response_sent', { request: e.request, latency: e.latency_ms, partitions: all(e.partitions.map((p) => `${p.tp} ${p.error}`)) });
    case 'connection_closed': return t('connection_closed', { request: e.request, reason: reasonText(e.reason, tr) });
    case 'client_request_timed_out': return t('client_request_timed_out', { request: e.request, timeout: e.request_timeout_ms, broker: raw(e.broker) });
    case 'acknowledged_records_lost': return t('acknowledged_records_lost', { request: e.request, from: raw(e.first_offset), to: raw(e.last_offset), tp: e.tp, acks: raw(e.acks), by: raw(e.acknowledged_by), epoch: raw(e.acknowledged_epoch), leader: raw(e.leader), leaderEpoch: raw(e.leader_epoch), leo: raw(e.leader_log_end_offset) });
    case 'purged': return t('purged', { broker: raw(e.broker), purgatory: purgatory(), removed: raw(e.removed), estimate: raw(e.estimated_before) });
    case 'fetch_sent': return t('fetch_sent', { follower: raw(e.follower), leader: raw(e.leader), partitions: fetchParts() });
    case 'fetch_received': return t('fetch_received', { follower: raw(e.follower), leader: raw(e.leader), partitions: fetchParts() });
    // A follower outside the ISR is never caught up in a new leader's eyes until it reaches its end.
    case 'follower_state_updated': return t(e.last_caught_up_time_ms == null ? 'follower_state_updated.never' : 'follower_state_updated', { leader: raw(e.leader), follower: raw(e.follower), tp: e.tp, leo: raw(e.log_end_offset), previous: raw(e.previous_log_end_offset ?? tr.t('unknown')), caughtUp: e.last_caught_up_time_ms });
    case 'high_watermark_advanced': {
      const held = e.bound && e.bound.reason !== 'leader_log_end';
      return t(held ? 'high_watermark_advanced.held' : 'high_watermark_advanced', { tp: e.tp, broker: raw(e.broker), from: raw(e.from), to: raw(e.to), bound: held ? bound(e.bound, tr) : '' });
    }
    case 'high_watermark_held': return t('high_watermark_held', { tp: e.tp, hw: raw(e.high_watermark), bound: bound(e.bound, tr) });
    case 'fetch_parked': return t('fetch_parked', { follower: raw(e.follower), leader: raw(e.leader), wait: e.max_wait_ms });
    case 'fetch_response_sent': return t('fetch_response_sent', { leader: raw(e.leader), follower: raw(e.follower), partitions: all(e.partitions.map((p) => t(p.error !== 'NONE' ? 'fetch_response_sent.failed' : 'fetch_response_sent.partition', { tp: p.tp, records: raw(p.records), hw: raw(p.high_watermark), error: p.error }))) });
    case 'fetch_response_received': return t('fetch_response_received', { follower: raw(e.follower), leader: raw(e.leader), partitions: all(e.partitions.map((p) => `${p.tp} +${p.records}, HW ${p.high_watermark}`)) });
    case 'fetch_failed': return t('fetch_failed', { follower: raw(e.follower), leader: raw(e.leader), reason: reasonText(e.reason, tr), at: e.retry_at_ms });
    case 'log_truncated': return t('log_truncated', { broker: raw(e.broker), tp: e.tp, from: raw(e.from), to: raw(e.to) });
    case 'isr_shrink_proposed': return t('isr_shrink_proposed', { broker: raw(e.broker), outOfSync: list(e.out_of_sync), tp: e.tp, isr: list(e.proposed_isr) });
    case 'isr_expand_proposed': return t('isr_expand_proposed', { broker: raw(e.broker), replica: raw(e.replica), tp: e.tp, isr: list(e.proposed_isr) });
    case 'isr_change_committed': return t('isr_change_committed', { tp: e.tp, isr: list(e.isr), epoch: raw(e.partition_epoch) });
    case 'isr_change_rejected': return t('isr_change_rejected', { tp: e.tp, error: JSON.stringify(e.error) });
    case 'broker_fenced': return t('broker_fenced', { broker: raw(e.broker), at: e.last_heartbeat_ms });
    case 'broker_unfenced': return t('broker_unfenced', { broker: raw(e.broker) });
    case 'registration_refused': return t('registration_refused', { broker: raw(e.broker), at: e.retry_at_ms });
    case 'preferred_leaders_elected': return t('preferred_leaders_elected', { partitions: e.partitions.join(', '), interval: e.interval_ms });
    case 'partition_changed': return t('partition_changed', { tp: e.tp, leader: raw(e.leader ?? tr.t('none')), epoch: raw(e.leader_epoch), isr: list(e.isr) });
    case 'leader_election_refused': return t('leader_election_refused', { broker: raw(e.broker), tp: e.tp, reason: JSON.stringify(e.reason) });
    case 'became_leader': return t('became_leader', { broker: raw(e.broker), tp: e.tp, epoch: raw(e.leader_epoch), isr: list(e.isr) });
    case 'became_follower': return t('became_follower', { broker: raw(e.broker), leader: raw(e.leader ?? t('became_follower.noLeader')), tp: e.tp, epoch: raw(e.leader_epoch) });
    // Dropping an AlterPartition in flight (its own committed change back through the metadata
    // log after it proposed the next one, or a controller's change) is said.
    case 'isr_updated': return t(e.dropped_proposal ? 'isr_updated.dropped' : 'isr_updated', { broker: raw(e.broker), isr: list(e.isr), tp: e.tp, proposed: list(e.dropped_proposal ?? []) });
    case 'idle_stretch_began': return t('idle_stretch_began', { period: e.period_ms });
    case 'idle_stretch_ended': return t('idle_stretch_ended', { since: e.since_ms, skipped: e.at_ms - e.since_ms });
    default: return `${e.event} ${JSON.stringify(e)}`;
  }
}

/** The request id an event is about, if any. */
export function requestOf(e) {
  return e.request ?? null;
}

/**
 * Why a request completed: walk the cause chain from its completion back to the first
 * replication event ("the HW of t-0 reached 10 when broker 2's fetch at offset 10 arrived").
 * `byId` is anything with `get(id)` or `event(id)` (a Map, or the playground's EventHistory).
 */
export function explainCompletion(completion, history, tr) {
  const byId = { get: (id) => (history.event ? history.event(id) : history.get(id)) };
  if (completion.event === 'operation_expired' || completion.how === 'expired') {
    return tr.t('why.expired', { at: completion.at_ms });
  }
  if (completion.how === 'first_try' || completion.how === 'second_try') return tr.t(`why.${completion.how}`);
  let hw = null;
  let fetch = null;
  let other = null;
  for (let e = byId.get(completion.cause), n = 0; e && n < 20; e = byId.get(e.cause), n++) {
    if (e.event === 'high_watermark_advanced' && !hw) hw = e;
    else if (e.event === 'fetch_received' && !fetch) fetch = e;
    else if (['isr_change_committed', 'became_follower', 'became_leader', 'isr_updated'].includes(e.event) && !other) other = e;
  }
  // The fetch's offset for the partition whose HW moved (a fetch names every partition it follows).
  const parts = fetch?.partitions ?? [];
  const mine = hw && parts.find((p) => p.tp === hw.tp);
  const offset = mine ? raw(mine.fetch_offset)
    : parts.length === 1 ? raw(parts[0].fetch_offset) : parts.map((p) => `${p.tp} @${p.fetch_offset}`).join(tr.t('list.sep'));
  const vars = {
    tp: hw?.tp, to: raw(hw?.to),
    follower: raw(fetch?.follower), offset,
    event: other && narrate(other, tr),
  };
  if (hw && fetch) return tr.t('why.hw.fetch', vars);
  if (hw && other) return tr.t('why.hw.event', vars);
  if (hw) return tr.t('why.hw', vars);
  if (fetch) return tr.t('why.fetch', vars);
  if (other) return tr.t('why.event', vars);
  return tr.t('why.done');
}

// ---- The narration line: what just happened and why, for someone new to Kafka ----------------

/** The error codes whose meaning the narration spells out. */
const OUTCOMES = ['NONE', 'REQUEST_TIMED_OUT', 'NOT_ENOUGH_REPLICAS', 'NOT_LEADER_OR_FOLLOWER', 'INVALID_REQUIRED_ACKS', 'UNKNOWN_TOPIC_OR_PARTITION'];

/** How important an event is to the story of the moment (higher first), 0 for background. */
function weight(e, firstTry) {
  switch (e.event) {
    case 'acknowledged_records_lost': return 10;
    case 'produce_response_sent': case 'connection_closed': case 'client_request_timed_out': return 9;
    case 'operation_expired': return isProduceOp(e) ? 8 : 0;
    case 'isr_change_committed': return 7;
    case 'broker_fenced': case 'became_leader': return 7;
    // Not when its first try completed it: it never waited (s08).
    case 'delayed_produce_created': return firstTry.has(e.request) ? 0 : 6;
    case 'isr_shrink_proposed': case 'isr_expand_proposed': return 6;
    case 'high_watermark_advanced': return 5;
    case 'follower_paused': case 'follower_resumed': case 'broker_crashed': case 'broker_restarted': return 5;
    case 'produce_received': return 4;
    case 'purged': return isProduceOp(e) ? 4 : 0;
    case 'broker_unfenced': case 'registration_refused': case 'action_ignored': return 3;
    // The controller's record of a partition (an election, a fencing's ISR): told when nothing
    // more telling happens in its instant, since the brokers act on it only later.
    case 'partition_changed': return 2;
    default: return 0;
  }
}

const isProduceOp = (e) => String(e.purgatory).toLowerCase() === 'produce';

/** One plain sentence for a notable event. */
function plain(e, history, batch, tr) {
  const t = (key, vars) => tr.t(`say.${key}`, vars);
  const all = (items) => items.join(tr.t('list.sep'));
  switch (e.event) {
    case 'produce_response_sent': {
      if (e.client_gone) return t('answered.unread', { request: e.request, latency: e.latency_ms });
      // Partitions answered differently are named one by one (one failed, another succeeded).
      if (new Set(e.partitions.map((p) => p.error)).size > 1) {
        return t('answered.mixed', { request: e.request, latency: e.latency_ms, partitions: all(e.partitions.map((p) => `${p.tp} ${p.error}`)) });
      }
      const err = e.partitions[0]?.error ?? 'NONE';
      const done = batch.find((x) => (x.event === 'operation_completed' || x.event === 'operation_expired') && x.request === e.request);
      const outcome = OUTCOMES.includes(err) ? tr.t(`outcome.${err}`) : err;
      const vars = { request: e.request, latency: e.latency_ms, outcome };
      return done && err === 'NONE' ? t('answered.why', { ...vars, why: explainCompletion(done, history, tr) }) : t('answered', vars);
    }
    case 'connection_closed': return t('connection_closed', { request: e.request, reason: reasonText(e.reason, tr) });
    case 'client_request_timed_out': return t('client_request_timed_out', { request: e.request, timeout: e.request_timeout_ms });
    case 'acknowledged_records_lost': return t('acknowledged_records_lost', { request: e.request, from: raw(e.first_offset), to: raw(e.last_offset), tp: e.tp, by: raw(e.acknowledged_by), acks: raw(e.acks), leader: raw(e.leader) });
    case 'operation_expired': return t('operation_expired', { request: e.request ?? t('operation_expired.someone') });
    case 'isr_change_committed': return t('isr_change_committed', { tp: e.tp, isr: list(e.isr) });
    case 'broker_fenced': return t('broker_fenced', { broker: raw(e.broker), at: e.last_heartbeat_ms });
    case 'became_leader': return t('became_leader', { broker: raw(e.broker), tp: e.tp, epoch: raw(e.leader_epoch) });
    case 'delayed_produce_created': return t('delayed_produce_created', { request: e.request, timeout: e.timeout_ms, targets: all(e.partitions.filter((p) => p.acks_pending).map((p) => t('delayed_produce_created.target', { offset: raw(p.required_offset), tp: p.tp }))) });
    case 'isr_shrink_proposed': return t('isr_shrink_proposed', { broker: raw(e.broker), outOfSync: e.out_of_sync.join(', '), tp: e.tp, count: e.out_of_sync.length });
    case 'isr_expand_proposed': return t('isr_expand_proposed', { replica: raw(e.replica), tp: e.tp, broker: raw(e.broker) });
    case 'high_watermark_advanced': return t('high_watermark_advanced', { tp: e.tp, from: raw(e.from), to: raw(e.to) });
    case 'follower_paused': return t('follower_paused', { broker: raw(e.broker) });
    case 'follower_resumed': return t('follower_resumed', { broker: raw(e.broker) });
    case 'broker_crashed': return t('broker_crashed', { broker: raw(e.broker) });
    case 'broker_restarted': return t('broker_restarted', { broker: raw(e.broker) });
    case 'produce_received': {
      const refused = batch.some((x) => refusedOnArrival(x, e.request));
      return t(refused ? 'produce_refused' : 'produce_received', { request: e.request, acks: raw(e.acks), broker: raw(e.broker) });
    }
    case 'purged': return t('purged', { broker: raw(e.broker), removed: raw(e.removed) });
    case 'broker_unfenced': return t('broker_unfenced', { broker: raw(e.broker) });
    case 'registration_refused': return t('registration_refused', { broker: raw(e.broker), at: e.retry_at_ms });
    case 'partition_changed': return t('partition_changed', { tp: e.tp, leader: raw(e.leader ?? tr.t('none')), epoch: raw(e.leader_epoch), isr: list(e.isr) });
    case 'action_ignored': return tr.t('log.action_ignored', { action: e.action, reason: reasonText(e.reason, tr) });
    default: return narrate(e, tr);
  }
}

/** One event in plain words on its own (the what-if view's divergence sentence). */
export function sayEvent(e, tr) {
  return plain(e, null, [], tr);
}

/** The first of `events` that the narration would tell, else the first; null for none. */
export function firstTelling(events) {
  const firstTry = new Set(events.filter((x) => x.event === 'operation_completed' && x.how === 'first_try').map((x) => x.request));
  return events.find((e) => weight(e, firstTry) > 0) ?? events[0] ?? null;
}

/**
 * The narration of a batch of events: the most telling events of its last notable instant, in
 * the order they happened, as `{html, text}` (`html` markup made by the tag, its sentences
 * escaped; `text` the same as plain text); null when nothing notable happened.
 */
export function narrationFor(events, history, tr) {
  // Requests completed by their first try in this batch: they never waited.
  const firstTry = new Set(events.filter((x) => x.event === 'operation_completed' && x.how === 'first_try').map((x) => x.request));
  let at = null;
  for (let i = events.length - 1; i >= 0; i--) {
    if (weight(events[i], firstTry) > 0) { at = events[i].at_ms; break; }
  }
  if (at == null) return null;
  const moment = events.filter((e) => e.at_ms === at && weight(e, firstTry) > 0);
  const top = moment.slice().sort((a, b) => weight(b, firstTry) - weight(a, firstTry) || a.id - b.id).slice(0, 3).sort((a, b) => a.id - b.id);
  const sentences = top.map((e) => plain(e, history, events, tr));
  const sep = tr.t('clause.sep');
  const text = tr.t('say.moment', { at, sentences: sentences.join(sep) });
  const markup = html`<b class="n-at">${tr.num(at)} ms</b> ${join(sentences, sep)}${tr.t('say.moment.end')}`;
  return { html: markup, text };
}
