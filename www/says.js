// What the model says in sentences the page words: a timeline marker's and a breakpoint hit's
// fields (`{what, ...}`, src/session/history.rs `Says` and breakpoints.rs `HitSays`) and the
// reasons trace events give. Messages: www/i18n/*/model.js. Offsets, counts and broker ids are
// written as the trace has them; durations through the language's number format.

/** A set of broker ids as Kafka's logs write one: `{0, 1}`. */
const brokerSet = (ids) => `{${ids.join(', ')}}`;

/** The sentence a timeline marker shows when hovered. */
export function markerText(s, tr) {
  const t = (key, vars) => tr.t(`marker.${key}`, vars);
  switch (s.what) {
    case 'sent': return t('sent', { request: s.request, acks: String(s.acks), broker: String(s.broker) });
    case 'answered': return t('answered', { request: s.request, error: s.error, latency: tr.num(s.latency_ms) });
    case 'closed': return t('closed', { request: s.request });
    case 'clientTimedOut': return t('clientTimedOut', { request: s.request });
    case 'expired': return t('expired', { request: s.request, partitions: s.partitions.join(tr.t('list.sep')) || tr.t('log.operation_expired.nothing') });
    case 'hw': return t('hw', { tp: s.tp, from: String(s.from), to: String(s.to), leader: String(s.leader) });
    case 'shrink': case 'expand': return t(s.what, { leader: String(s.leader), tp: s.tp, isr: brokerSet(s.isr) });
    case 'committed': return t('committed', { tp: s.tp, isr: brokerSet(s.isr) });
    case 'lost': return t('lost', { request: s.request, tp: s.tp, from: String(s.first_offset), to: String(s.last_offset), leader: String(s.leader) });
    case 'leader': return t('leader', { broker: String(s.broker), tp: s.tp, epoch: String(s.epoch) });
    case 'purged': return t('purged', { broker: String(s.broker), count: String(s.removed) });
    case 'fenced': case 'unfenced': case 'paused': case 'resumed': case 'crashed': case 'restarted':
      return t(s.what, { broker: String(s.broker) });
    case 'ignored': return tr.t('log.action_ignored', { action: s.action, reason: reasonText(s.reason, tr) });
    default: return String(s.what);
  }
}

/** The sentence a breakpoint's hit shows: what stopped the clock. */
export function hitText(s, tr) {
  const t = (key, vars) => tr.t(`hit.${key}`, vars);
  switch (s.what) {
    case 'answered': return t('answered', { request: s.request, outcome: s.outcome });
    case 'closed': return t('closed', { request: s.request });
    case 'clientTimedOut': return t('clientTimedOut', { request: s.request });
    case 'expired': return s.request ? t('expired', { request: s.request }) : t('expired.unnamed');
    case 'committed': return t('committed', { tp: s.tp, isr: brokerSet(s.isr) });
    case 'purged': return t('purged', { broker: String(s.broker), count: String(s.removed) });
    case 'below_min': return t('below_min', { tp: s.tp, count: String(s.size), min: String(s.min) });
    case 'leader': return s.leader == null ? t('leader.none', { tp: s.tp }) : t('leader', { tp: s.tp, broker: String(s.leader) });
    case 'stalled': return t('stalled', { tp: s.tp, ms: tr.num(s.waited_ms) });
    default: return String(s.what);
  }
}

/**
 * The reasons the trace gives (src/kafka/reasons.rs), as the message that words each: the
 * trace keeps Kafka's English (it is the runner's contract); the page says it in its language.
 * A reason not listed here is shown as the trace has it.
 */
const REASONS = [
  [/^acks must be -1, 0 or 1$/, 'acks'],
  [/^this broker hosts no replica of the partition$/, 'no_replica'],
  [/^the committed ISR is smaller than min\.insync\.replicas$/, 'under_min_isr'],
  [/^this broker is not the partition's leader$/, 'not_leader'],
  [/^no such topic or partition in the metadata$/, 'unknown_partition'],
  [/^acks=0 request failed: the broker closes the connection instead of answering$/, 'acks0_failed'],
  [/^the broker crashed before answering$/, 'crashed_before_answer'],
  [/^connection to the leader lost$/, 'leader_lost'],
  [/^broker (?<broker>\d+) is down: the connection is refused$/, 'refused'],
  [/^broker (?<broker>\d+) is down$/, 'down'],
  [/^broker (?<broker>\d+) is starting: it answers nothing before its registration is accepted$/, 'not_registered'],
  [/^broker (?<broker>\d+) is already down$/, 'already_down'],
  [/^broker (?<broker>\d+) is already running$/, 'already_running'],
  [/^broker (?<broker>\d+) is already paused$/, 'already_paused'],
  [/^broker (?<broker>\d+) is not paused$/, 'not_paused'],
  [/^there is no broker (?<broker>\d+)$/, 'no_broker'],
  [/^there is no partition (?<tp>.+)$/, 'no_partition'],
];

/** The message that words `reason` and its variables, or null for a reason not listed. */
export function reasonMessage(reason) {
  for (const [pattern, key] of REASONS) {
    const m = pattern.exec(reason);
    if (m) return { key: `reason.${key}`, vars: { ...m.groups } };
  }
  return null;
}

/**
 * Whether `closed` (a `connection_closed` event, or nothing) says that request `request` never
 * reached its broker: the broker was down or not yet registered when it was sent.
 */
export function refusedOnArrival(closed, request) {
  if (closed?.event !== 'connection_closed' || closed.request !== request) return false;
  const key = reasonMessage(closed.reason)?.key;
  return key === 'reason.refused' || key === 'reason.not_registered';
}

/** A trace event's reason in the reader's language. */
export function reasonText(reason, tr) {
  const message = reasonMessage(reason);
  return message ? tr.t(message.key, message.vars) : reason;
}
