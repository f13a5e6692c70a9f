// Turns the core's causal trace events into sentences a reader of Kafka's source recognises, and
// follows `cause` links to say why a request completed or failed.

import { html, join } from './html.js';
import { fmt } from './views/dom.js';

const list = (xs) => `{${xs.join(', ')}}`;
const op = (o) => `op ${o.slot}.${o.generation}`;

function bound(b) {
  if (!b) return '';
  switch (b.reason) {
    case 'under_min_isr': return 'the committed ISR is below min.insync.replicas (HW frozen)';
    case 'isr_replica': return `ISR replica ${b.broker} is at ${b.log_end_offset ?? 'unknown'}`;
    case 'caught_up_replica': return `caught-up replica ${b.broker} (joining the ISR) is at ${b.log_end_offset ?? 'unknown'}`;
    case 'leader_log_end': return 'it reached the leader\'s log end offset';
    default: return b.reason;
  }
}

/**
 * Why `delayedProduceRequestRequired` was false, and what follows: acks 0 and 1 never wait, and
 * acks=all waits only when at least one partition was appended.
 */
export function notDelayedWhy(acks) {
  if (acks === 0) return 'acks=0: no response is sent; an error closes the connection';
  if (acks === 1) return 'acks=1: respond at once';
  return 'every partition failed: respond at once';
}

/** Category used by the log filter. */
export function category(e) {
  switch (e.event) {
    case 'produce_received': case 'produce_partition_rejected': case 'records_appended':
    case 'produce_answered_at_once': case 'produce_response_sent': case 'connection_closed':
    case 'acknowledged_records_lost':
      return 'produce';
    case 'delayed_produce_created': case 'operation_watched': case 'timer_added':
    case 'check_and_complete': case 'operation_completed': case 'operation_expired': case 'purged':
      return String(e.purgatory).toLowerCase() === 'fetch' ? 'fetch' : 'purgatory';
    case 'fetch_sent': case 'fetch_received': case 'fetch_parked': case 'fetch_response_sent':
    case 'fetch_response_received': case 'fetch_failed':
      return 'fetch';
    case 'follower_state_updated': case 'high_watermark_advanced': case 'high_watermark_held':
    case 'log_truncated':
      return 'replication';
    default:
      return 'isr';
  }
}

/** One sentence for one event. */
export function narrate(e) {
  switch (e.event) {
    case 'produce_received': return `${e.request} (acks=${e.acks}, timeoutMs=${fmt(e.timeout_ms)}) reached broker ${e.broker}: ${e.partitions.map(([tp, n]) => `${n} records to ${tp}`).join(', ')}`;
    case 'follower_paused': return `broker ${e.broker}'s replica fetchers paused (process alive, still heart-beating)`;
    case 'follower_resumed': return `broker ${e.broker}'s replica fetchers resumed`;
    case 'broker_crashed': return `broker ${e.broker} crashed`;
    case 'broker_restarted': return `broker ${e.broker} restarted (broker epoch ${e.broker_epoch})`;
    case 'action_ignored': return `${e.action} ignored: ${e.reason}`;
    case 'produce_partition_rejected': return `${e.request}: ${e.tp} answered ${e.error} before any append (${e.reason})`;
    case 'records_appended': return `broker ${e.broker} appended offsets ${e.base_offset}-${e.last_offset} to ${e.tp}${e.request ? ` for ${e.request}` : ''}; LEO ${e.log_end_offset}, HW ${e.hw_change === 'INCREASED' ? 'increased' : 'unchanged'}`;
    case 'produce_answered_at_once': return `${e.request}: delayedProduceRequestRequired is false (${notDelayedWhy(e.acks)})`;
    case 'delayed_produce_created': return `${e.request}: new DelayedProduce ${op(e.op)}, ${e.partitions.map((p) => `${p.tp} requiredOffset ${p.required_offset}${p.acks_pending ? '' : ` (${p.error})`}`).join(', ')}, delayMs ${fmt(e.timeout_ms)}`;
    case 'operation_watched': return `tryCompleteElseWatch: first try failed, ${op(e.op)} watched on ${e.keys.join(', ')} (estimated ops ${e.estimated_total_operations})`;
    case 'timer_added': return `second try failed too: ${op(e.op)} added to the timer, expires at ${fmt(e.expires_at_ms)} ms`;
    case 'check_and_complete': return `checkAndComplete(${e.key}) on broker ${e.broker}'s ${e.purgatory} purgatory: ${e.completed} completed, ${e.still_watched} still watched`;
    case 'operation_completed': return `${e.request ?? op(e.op)} completed (${{ first_try: 'first try in tryCompleteElseWatch', second_try: 'second try in tryCompleteElseWatch', check_and_complete: 'checkAndComplete', expired: 'timer expired' }[e.how] ?? e.how}): onComplete`;
    case 'operation_expired': return `${e.request ?? op(e.op)} expired: onExpiration, ExpiresPerSec marked for ${e.expired_partitions.join(', ') || 'no partition'}`;
    case 'produce_response_sent': return `${e.request} answered after ${fmt(e.latency_ms)} ms: ${e.partitions.map((p) => `${p.tp} ${p.error}`).join(', ')}`;
    case 'connection_closed': return `${e.request}: connection closed (${e.reason})`;
    case 'acknowledged_records_lost': return `${e.request}: acknowledged offsets ${e.first_offset}-${e.last_offset} of ${e.tp} (acks=${e.acks}, by broker ${e.acknowledged_by} at epoch ${e.acknowledged_epoch}) LOST: new leader ${e.leader} (epoch ${e.leader_epoch}) has log end offset ${e.leader_log_end_offset}`;
    case 'purged': return `broker ${e.broker}'s ${e.purgatory} purgatory purged ${e.removed} completed entries (estimate was ${e.estimated_before})`;
    case 'fetch_sent': return `broker ${e.follower} sent a fetch to ${e.leader}: ${e.partitions.map((p) => `${p.tp} @${p.fetch_offset}`).join(', ')}`;
    case 'fetch_received': return `broker ${e.follower}'s fetch arrived at ${e.leader}: ${e.partitions.map((p) => `${p.tp} @${p.fetch_offset}`).join(', ')}`;
    case 'follower_state_updated': return `leader ${e.leader}: replica ${e.follower} of ${e.tp} at LEO ${e.log_end_offset} (was ${e.previous_log_end_offset ?? 'unknown'}), lastCaughtUp ${fmt(e.last_caught_up_time_ms)} ms`;
    case 'high_watermark_advanced': return `HW of ${e.tp} on broker ${e.broker} moved ${e.from} -> ${e.to}${e.bound && e.bound.reason !== 'leader_log_end' ? ` (held by: ${bound(e.bound)})` : ''}`;
    case 'high_watermark_held': return `HW of ${e.tp} stays ${e.high_watermark}: ${bound(e.bound)}`;
    case 'fetch_parked': return `nothing new: broker ${e.follower}'s fetch parked at ${e.leader} as DelayedFetch (${fmt(e.max_wait_ms)} ms)`;
    case 'fetch_response_sent': return `leader ${e.leader} answered broker ${e.follower}'s fetch: ${e.partitions.map((p) => `${p.tp} ${p.records} records, HW ${p.high_watermark}${p.error !== 'NONE' ? ` ${p.error}` : ''}`).join(', ')}`;
    case 'fetch_response_received': return `broker ${e.follower} got the fetch response from ${e.leader}: ${e.partitions.map((p) => `${p.tp} +${p.records}, HW ${p.high_watermark}`).join(', ')}`;
    case 'fetch_failed': return `broker ${e.follower}'s fetch from ${e.leader} failed (${e.reason}); retry at ${fmt(e.retry_at_ms)} ms`;
    case 'log_truncated': return `broker ${e.broker} truncated ${e.tp} from ${e.from} to ${e.to}`;
    case 'isr_shrink_proposed': return `leader ${e.broker}: replica(s) ${list(e.out_of_sync)} of ${e.tp} out of sync; AlterPartition proposes ISR ${list(e.proposed_isr)}`;
    case 'isr_expand_proposed': return `leader ${e.broker}: replica ${e.replica} of ${e.tp} caught up; AlterPartition proposes ISR ${list(e.proposed_isr)}`;
    case 'isr_change_committed': return `ISR of ${e.tp} committed as ${list(e.isr)} (partition epoch ${e.partition_epoch})`;
    case 'isr_change_rejected': return `AlterPartition for ${e.tp} rejected: ${JSON.stringify(e.error)}`;
    case 'broker_fenced': return `controller fenced broker ${e.broker} (last heartbeat ${fmt(e.last_heartbeat_ms)} ms)`;
    case 'broker_unfenced': return `controller unfenced broker ${e.broker}`;
    case 'partition_changed': return `controller: ${e.tp} leader ${e.leader ?? 'none'}, epoch ${e.leader_epoch}, ISR ${list(e.isr)}`;
    case 'leader_election_refused': return `election of broker ${e.broker} for ${e.tp} refused: ${JSON.stringify(e.reason)}`;
    case 'became_leader': return `broker ${e.broker} became leader of ${e.tp} at epoch ${e.leader_epoch}, ISR ${list(e.isr)}`;
    case 'became_follower': return `broker ${e.broker} follows ${e.leader ?? 'no leader'} for ${e.tp} (epoch ${e.leader_epoch})`;
    case 'isr_updated': return `broker ${e.broker} applied ISR ${list(e.isr)} for ${e.tp}`;
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
export function explainCompletion(completion, history) {
  const byId = { get: (id) => (history.event ? history.event(id) : history.get(id)) };
  if (completion.event === 'operation_expired' || completion.how === 'expired') {
    return `its timer fired at ${fmt(completion.at_ms)} ms before every partition reached its required offset`;
  }
  if (completion.how === 'first_try' || completion.how === 'second_try') {
    return `the HW already covered the required offset when tryCompleteElseWatch checked (${completion.how.replace('_', ' ')})`;
  }
  let hw = null;
  let fetch = null;
  let other = null;
  for (let e = byId.get(completion.cause), n = 0; e && n < 20; e = byId.get(e.cause), n++) {
    if (e.event === 'high_watermark_advanced' && !hw) hw = e;
    else if (e.event === 'fetch_received' && !fetch) fetch = e;
    else if (['isr_change_committed', 'became_follower', 'became_leader', 'isr_updated'].includes(e.event) && !other) other = e;
  }
  const parts = [];
  if (hw) parts.push(`the HW of ${hw.tp} reached ${hw.to}`);
  if (fetch) parts.push(`when broker ${fetch.follower}'s fetch at offset ${fetch.partitions.map((p) => p.fetch_offset).join('/')} arrived`);
  else if (other) parts.push(`when ${narrate(other)}`);
  return parts.length ? parts.join(' ') : 'checkAndComplete found every partition done';
}

// ---- The narration line: what just happened and why, for someone new to Kafka ----------------

const outcomeWords = {
  NONE: 'success (NONE)',
  REQUEST_TIMED_OUT: 'REQUEST_TIMED_OUT: the HW did not reach its records before the timeout (they stay in the log)',
  NOT_ENOUGH_REPLICAS: 'NOT_ENOUGH_REPLICAS: fewer in-sync replicas than min.insync.replicas, so nothing was appended',
  NOT_LEADER_OR_FOLLOWER: 'NOT_LEADER_OR_FOLLOWER: the broker is not (or no longer) the leader of the partition',
  INVALID_REQUIRED_ACKS: 'INVALID_REQUIRED_ACKS: acks must be -1, 0 or 1',
  UNKNOWN_TOPIC_OR_PARTITION: 'UNKNOWN_TOPIC_OR_PARTITION',
};

/** How important an event is to the story of the moment (higher first), 0 for background. */
function weight(e, firstTry) {
  switch (e.event) {
    case 'acknowledged_records_lost': return 10;
    case 'produce_response_sent': case 'connection_closed': return 9;
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
    case 'broker_unfenced': case 'action_ignored': return 3;
    // The controller's record of a partition (an election, a fencing's ISR): told when nothing
    // more telling happens in its instant, since the brokers act on it only later.
    case 'partition_changed': return 2;
    default: return 0;
  }
}

const isProduceOp = (e) => String(e.purgatory).toLowerCase() === 'produce';

/** One plain sentence for a notable event. */
function plain(e, history, batch) {
  switch (e.event) {
    case 'produce_response_sent': {
      // Partitions answered differently are named one by one (one failed, another succeeded).
      if (new Set(e.partitions.map((p) => p.error)).size > 1) {
        return `${e.request} is answered after ${fmt(e.latency_ms)} ms, partition by partition: ${e.partitions.map((p) => `${p.tp} ${p.error}`).join(', ')}`;
      }
      const err = e.partitions[0]?.error ?? 'NONE';
      const done = batch.find((x) => (x.event === 'operation_completed' || x.event === 'operation_expired') && x.request === e.request);
      const why = done && err === 'NONE' ? `: ${explainCompletion(done, history)}` : '';
      return `${e.request} is answered after ${fmt(e.latency_ms)} ms, ${outcomeWords[err] ?? err}${why}`;
    }
    case 'connection_closed': return `${e.request} gets no answer: ${e.reason}`;
    case 'acknowledged_records_lost': return `${e.request}'s records at ${e.first_offset}-${e.last_offset} of ${e.tp} are lost although broker ${e.acknowledged_by} acknowledged them (acks=${e.acks}): broker ${e.leader}, the new leader, never had them`;
    case 'operation_expired': return `${e.request ?? 'a request'} expires: its timeout passed before the HW reached its records`;
    case 'isr_change_committed': return `the controller commits the ISR of ${e.tp} as {${e.isr.join(', ')}}`;
    case 'broker_fenced': return `the controller fences broker ${e.broker}: no heartbeat since ${fmt(e.last_heartbeat_ms)} ms`;
    case 'became_leader': return `broker ${e.broker} becomes the leader of ${e.tp} (epoch ${e.leader_epoch})`;
    case 'delayed_produce_created': return `${e.request} waits in the purgatory until the HW reaches ${e.partitions.filter((p) => p.acks_pending).map((p) => `${p.required_offset} on ${p.tp}`).join(', ')} (or ${fmt(e.timeout_ms)} ms pass)`;
    case 'isr_shrink_proposed': return `leader ${e.broker} finds replica ${e.out_of_sync.join(', ')} of ${e.tp} out of sync and asks the controller to shrink the ISR`;
    case 'isr_expand_proposed': return `replica ${e.replica} of ${e.tp} has caught up; leader ${e.broker} asks to add it to the ISR`;
    case 'high_watermark_advanced': return `the HW of ${e.tp} moves ${e.from} → ${e.to}: every in-sync replica has those records`;
    case 'follower_paused': return `broker ${e.broker} stops fetching (it stays alive and heart-beating, so it stays in the ISR for now)`;
    case 'follower_resumed': return `broker ${e.broker} fetches again`;
    case 'broker_crashed': return `broker ${e.broker} crashes`;
    case 'broker_restarted': return `broker ${e.broker} restarts`;
    case 'produce_received': return `${e.request} (acks=${e.acks}) reaches broker ${e.broker}`;
    case 'purged': return `broker ${e.broker}'s purgatory purges ${e.removed} completed entries from its watch lists`;
    case 'broker_unfenced': return `broker ${e.broker} is back in the cluster (unfenced)`;
    case 'partition_changed': return `the controller records ${e.tp} with leader ${e.leader ?? 'none'} (epoch ${e.leader_epoch}) and ISR ${list(e.isr)}; the brokers act on it once its update reaches them`;
    case 'action_ignored': return `${e.action} ignored: ${e.reason}`;
    default: return narrate(e);
  }
}

/** One event in plain words on its own (the what-if view's divergence sentence). */
export function sayEvent(e) {
  return plain(e, null, []);
}

/**
 * The narration of a batch of events: the most telling events of its last notable instant, in
 * the order they happened, as `{html, text}` (`html` markup made by the tag, its sentences
 * escaped; `text` the same as plain text); null when nothing notable happened.
 */
export function narrationFor(events, history) {
  // Requests completed by their first try in this batch: they never waited.
  const firstTry = new Set(events.filter((x) => x.event === 'operation_completed' && x.how === 'first_try').map((x) => x.request));
  let at = null;
  for (let i = events.length - 1; i >= 0; i--) {
    if (weight(events[i], firstTry) > 0) { at = events[i].at_ms; break; }
  }
  if (at == null) return null;
  const moment = events.filter((e) => e.at_ms === at && weight(e, firstTry) > 0);
  const top = moment.slice().sort((a, b) => weight(b, firstTry) - weight(a, firstTry) || a.id - b.id).slice(0, 3).sort((a, b) => a.id - b.id);
  const sentences = top.map((e) => plain(e, history, events));
  const text = `${fmt(at)} ms: ${sentences.join('; ')}.`;
  const markup = html`<b class="n-at">${fmt(at)} ms</b> ${join(sentences, '; ')}.`;
  return { html: markup, text };
}
