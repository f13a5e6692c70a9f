// The curated scenarios of the core (scenarios/*.json) and what each demonstrates.
export const SCENARIOS = [
  ['s01-happy-path', 'S1. Happy path: both ISR followers replicate; the HW reaches the required offset and the DelayedProduce completes through checkAndComplete.'],
  ['s02-stalled-follower-times-out', 'S2. One ISR follower stalled (alive, still heartbeating): it stays in the ISR until replica.lag.time.max.ms, so the request waits on the wheel and expires with REQUEST_TIMED_OUT.'],
  ['s03-stalled-follower-completes-at-isr-shrink', 'S3. The follower stalled early enough: the ISR shrink commits before the timeout and the request completes at that moment.'],
  ['s04-out-of-isr-follower-does-not-hold-back', 'S4. A stalled follower already out of the ISR does not hold the HW back: the request completes after the other follower fetches.'],
  ['s05-both-followers-stalled-hw-freezes', 'S5. Both followers stalled: timeout, then the ISR shrinks below min.insync.replicas and the HW freezes.'],
  ['s06-pre-append-not-enough-replicas', 'S6. Pre-append rejection: the ISR is already below min.insync.replicas, NOT_ENOUGH_REPLICAS, nothing appended.'],
  ['s07-acks-variants', 'S7. acks variants: acks=0 (no response), acks=1 (answered after the leader append), acks=all (waits for the ISR).'],
  ['s08-isr-of-leader-only-completes-at-once', 'S8. ISR = {leader} and min.insync = 1: the request completes inside tryCompleteElseWatch, never touching the wheel.'],
  ['s09-leader-change-answers-waiting-request', 'S9. Leadership moves while the op waits: the old leader answers NOT_LEADER_OR_FOLLOWER.'],
  ['s10-multi-partition-request', 'S10. Multi-partition request: one op watched on several keys; completion via one key leaves it on the others until purged.'],
  ['s11-after-append-race-unreachable', 'S11. NOT_ENOUGH_REPLICAS_AFTER_APPEND: the race the model cannot reach with strict min ISR.'],
  ['s12-isr-expansion-counts-before-commit', 'S12. ISR expansion: the maximal ISR applies before the AlterPartition commit.'],
  ['s13-idle-stalled-follower-never-shrinks', 'S13. A stalled follower on an idle partition is caught up, so it is never shrunk out of the ISR.'],
  ['s14-crashed-follower-fenced-sooner-than-stalled', 'S14. Crash versus stall: a crashed follower is fenced after broker.session.timeout.ms, far sooner than a stalled one is shrunk.'],
  ['s15-timer-expiry-is-exact', 'S15. Timer precision: an op added at T with timeout X expires at exactly T + X.'],
  ['s15-no-purge-at-1000-expired', 'S15. Purge accounting: 1,000 expired ops stay on the watch list (estimated - delayed is not > 1000).'],
  ['s15-purge-after-1001-expired', 'S15. Purge accounting: the 1,001st expired op tips the reaper into a purge.'],
  ['x01-acks0-error-closes-connection', 'acks=0 meets an error: no response, the broker closes the connection.'],
  ['x02-invalid-required-acks', 'acks=2: INVALID_REQUIRED_ACKS on every partition, nothing appended.'],
  ['x03-unknown-topic-or-partition', 'A partition that does not exist: UNKNOWN_TOPIC_OR_PARTITION before anything else.'],
  ['x04-crashed-follower-restarts-and-rejoins-isr', 'A crashed follower restarts, catches up and rejoins the ISR by the expand rule.'],
  ['x05-strict-min-isr-times-out-instead-of-after-append', 'Strict min ISR: times out rather than NOT_ENOUGH_REPLICAS_AFTER_APPEND.'],
  ['x06-new-leader-ignores-replicas-that-have-not-fetched', 'A new leader ignores a caught-up replica outside the ISR until it has fetched: no broker epoch, not eligible.'],
  ['x07-immediate-fetch-answer-carries-the-earlier-hw', 'An immediate fetch answer reports the HW from before that fetch moved it; the follower then leads with it.'],
];

export function scenarioUrl(name) {
  return new URL(`../scenarios/${encodeURIComponent(name)}.json`, import.meta.url);
}

/** The scenario's JSON text; rejects with a readable message (bad name, HTTP error). */
export async function fetchScenario(name) {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`No scenario called "${name}".`);
  const res = await fetch(scenarioUrl(name));
  if (!res.ok) throw new Error(`No scenario called "${name}" (HTTP ${res.status}).`);
  return res.text();
}
