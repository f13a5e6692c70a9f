// A what-if's own words: its change as the first run's actions make it read ("every request with
// acks=1", "broker 2's pause at 12,000 ms instead of 10,000 ms"), in the reader's language. The
// model sends the change as its canonical text (src/scenario/change.rs, `Display`); the runner's
// English words are Change::describe's, which the English messages here repeat. What a producer
// got in each run is worded by outcome-words.js.

/** An action of the first run, named as a change speaks of it. */
function actionName(a, i, tr) {
  if (!a) return `actions[${i}]`;
  switch (a.action) {
    case 'produce': return a.id;
    case 'pause_follower': return tr.t('whatIf.of.pause', { broker: String(a.broker) });
    case 'resume_follower': return tr.t('whatIf.of.resume', { broker: String(a.broker) });
    case 'crash_broker': return tr.t('whatIf.of.crash', { broker: String(a.broker) });
    case 'restart_broker': return tr.t('whatIf.of.restart', { broker: String(a.broker) });
    case 'elect_leader': return tr.t('whatIf.of.elect', { broker: String(a.broker), partition: `${a.topic}-${a.partition}` });
    default: return `actions[${i}]`;
  }
}

/** `change` (canonical text) in words, against the first run's `actions`; else as written. */
export function changeWords(change, actions, tr) {
  const action = (i) => actionName(actions[Number(i)], i, tr);
  const ms = (n) => tr.num(Number(n));
  let m;
  if ((m = /^acks=(all|-?\d+)$/.exec(change))) return tr.t('whatIf.change.acks', { acks: m[1] });
  if ((m = /^actions\[(\d+)\]\.acks=(all|-?\d+)$/.exec(change))) return tr.t('whatIf.change.actionAcks', { action: action(m[1]), acks: m[2] });
  if ((m = /^timeout_ms=(\d+)$/.exec(change))) return tr.t('whatIf.change.timeout', { ms: ms(m[1]) });
  if ((m = /^actions\[(\d+)\]\.timeout_ms=(\d+)$/.exec(change))) return tr.t('whatIf.change.actionTimeout', { action: action(m[1]), ms: ms(m[2]) });
  if ((m = /^actions\[(\d+)\]\.at_ms=(\d+)$/.exec(change))) {
    return tr.t('whatIf.change.at', { action: action(m[1]), at: ms(m[2]), was: ms(actions[Number(m[1])]?.at_ms ?? 0) });
  }
  if ((m = /^actions\[(\d+)\]=removed$/.exec(change))) return tr.t('whatIf.change.removed', { action: action(m[1]) });
  // A config setting, by Kafka's name where it has one: code, the same in every language.
  if ((m = /^([a-z_.]+)=(\d+)$/.exec(change))) return `${m[1]}=${ms(m[2])}`;
  return change;
}
