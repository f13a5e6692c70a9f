// The curated scenarios (scenarios/*.json, bundled into the module as their JSON text, so an
// embedded playground needs no other file): each with the line the picker shows and its document,
// whose optional `story` holds the guided story's captions. The two S15(b) purge scenarios (1,000
// and 1,001 produces: stress cases, not first reads) are a function that imports the document on
// demand: a chunk file beside the module in dist/, inlined in the self-contained page. They would
// otherwise be a fifth of the module's gzipped size (scripts/bundle.mjs).
import sc_s01_happy_path from '../scenarios/s01-happy-path.json';
import sc_s02_stalled_follower_times_out from '../scenarios/s02-stalled-follower-times-out.json';
import sc_s03_stalled_follower_completes_at_isr_shrink from '../scenarios/s03-stalled-follower-completes-at-isr-shrink.json';
import sc_s04_out_of_isr_follower_does_not_hold_back from '../scenarios/s04-out-of-isr-follower-does-not-hold-back.json';
import sc_s05_both_followers_stalled_hw_freezes from '../scenarios/s05-both-followers-stalled-hw-freezes.json';
import sc_s06_pre_append_not_enough_replicas from '../scenarios/s06-pre-append-not-enough-replicas.json';
import sc_s07_acks_variants from '../scenarios/s07-acks-variants.json';
import sc_s08_isr_of_leader_only_completes_at_once from '../scenarios/s08-isr-of-leader-only-completes-at-once.json';
import sc_s09_leader_change_answers_waiting_request from '../scenarios/s09-leader-change-answers-waiting-request.json';
import sc_s10_multi_partition_request from '../scenarios/s10-multi-partition-request.json';
import sc_s11_after_append_race_unreachable from '../scenarios/s11-after-append-race-unreachable.json';
import sc_s12_isr_expansion_counts_before_commit from '../scenarios/s12-isr-expansion-counts-before-commit.json';
import sc_s13_idle_stalled_follower_never_shrinks from '../scenarios/s13-idle-stalled-follower-never-shrinks.json';
import sc_s14_crashed_follower_fenced_sooner_than_stalled from '../scenarios/s14-crashed-follower-fenced-sooner-than-stalled.json';
import sc_s15_timer_expiry_is_exact from '../scenarios/s15-timer-expiry-is-exact.json';
import sc_x01_acks0_error_closes_connection from '../scenarios/x01-acks0-error-closes-connection.json';
import sc_x02_invalid_required_acks from '../scenarios/x02-invalid-required-acks.json';
import sc_x03_unknown_topic_or_partition from '../scenarios/x03-unknown-topic-or-partition.json';
import sc_x04_crashed_follower_restarts_and_rejoins_isr from '../scenarios/x04-crashed-follower-restarts-and-rejoins-isr.json';
import sc_x05_strict_min_isr_times_out_instead_of_after_append from '../scenarios/x05-strict-min-isr-times-out-instead-of-after-append.json';
import sc_x06_new_leader_ignores_replicas_that_have_not_fetched from '../scenarios/x06-new-leader-ignores-replicas-that-have-not-fetched.json';
import sc_x07_immediate_fetch_answer_carries_the_earlier_hw from '../scenarios/x07-immediate-fetch-answer-carries-the-earlier-hw.json';
import sc_x08_actions_come_first_at_t0_even_with_zero_fetch_wait from '../scenarios/x08-actions-come-first-at-t0-even-with-zero-fetch-wait.json';
import sc_x09_expiry_and_completion_in_one_ms_keep_their_scheduling_order from '../scenarios/x09-expiry-and-completion-in-one-ms-keep-their-scheduling-order.json';
import sc_x10_resume_waits_for_the_outstanding_fetch from '../scenarios/x10-resume-waits-for-the-outstanding-fetch.json';
import sc_x11_same_ms_fencing_in_broker_id_order from '../scenarios/x11-same-ms-fencing-in-broker-id-order.json';
import sc_x12_stalled_follower_race_on_kafka_defaults from '../scenarios/x12-stalled-follower-race-on-kafka-defaults.json';
import sc_x13_acks1_acknowledged_then_lost from '../scenarios/x13-acks1-acknowledged-then-lost.json';
import sc_w01_acks1_against_all_leader_crash from '../scenarios/w01-acks1-against-all-leader-crash.json';
import sc_w02_min_isr_1_against_2_with_a_follower_down from '../scenarios/w02-min-isr-1-against-2-with-a-follower-down.json';
import sc_w03_request_early_against_late_in_a_stall from '../scenarios/w03-request-early-against-late-in-a-stall.json';

// Loaded on demand (see above).
const sc_s15_no_purge_at_1000_expired = () => import('../scenarios/s15-no-purge-at-1000-expired.json');
const sc_s15_purge_after_1001_expired = () => import('../scenarios/s15-purge-after-1001-expired.json');

/** [name, what it demonstrates, scenario document (JSON text) or a function importing it] */
export const SCENARIOS = [
  ['s01-happy-path', 'S1. Happy path: both ISR followers replicate; the HW reaches the required offset and the DelayedProduce completes through checkAndComplete.', sc_s01_happy_path],
  ['s02-stalled-follower-times-out', 'S2. One ISR follower stalled (alive, still heartbeating): it stays in the ISR until replica.lag.time.max.ms, so the request waits on the wheel and expires with REQUEST_TIMED_OUT.', sc_s02_stalled_follower_times_out],
  ['s03-stalled-follower-completes-at-isr-shrink', 'S3. The follower stalled early enough: the ISR shrink commits before the timeout and the request completes at that moment.', sc_s03_stalled_follower_completes_at_isr_shrink],
  ['s04-out-of-isr-follower-does-not-hold-back', 'S4. A stalled follower already out of the ISR does not hold the HW back: the request completes after the other follower fetches.', sc_s04_out_of_isr_follower_does_not_hold_back],
  ['s05-both-followers-stalled-hw-freezes', 'S5. Both followers stalled: timeout, then the ISR shrinks below min.insync.replicas and the HW freezes.', sc_s05_both_followers_stalled_hw_freezes],
  ['s06-pre-append-not-enough-replicas', 'S6. Pre-append rejection: the ISR is already below min.insync.replicas, NOT_ENOUGH_REPLICAS, nothing appended.', sc_s06_pre_append_not_enough_replicas],
  ['s07-acks-variants', 'S7. acks variants: acks=0 (no response), acks=1 (answered after the leader append), acks=all (waits for the ISR).', sc_s07_acks_variants],
  ['s08-isr-of-leader-only-completes-at-once', 'S8. ISR = {leader} and min.insync = 1: the request completes inside tryCompleteElseWatch, never touching the wheel.', sc_s08_isr_of_leader_only_completes_at_once],
  ['s09-leader-change-answers-waiting-request', 'S9. Leadership moves while the op waits: the old leader answers NOT_LEADER_OR_FOLLOWER.', sc_s09_leader_change_answers_waiting_request],
  ['s10-multi-partition-request', 'S10. Multi-partition request: one op watched on several keys; completion via one key leaves it on the others until purged.', sc_s10_multi_partition_request],
  ['s11-after-append-race-unreachable', 'S11. NOT_ENOUGH_REPLICAS_AFTER_APPEND: the race the model cannot reach with strict min ISR.', sc_s11_after_append_race_unreachable],
  ['s12-isr-expansion-counts-before-commit', 'S12. ISR expansion: the maximal ISR applies before the AlterPartition commit.', sc_s12_isr_expansion_counts_before_commit],
  ['s13-idle-stalled-follower-never-shrinks', 'S13. A stalled follower on an idle partition is caught up, so it is never shrunk out of the ISR.', sc_s13_idle_stalled_follower_never_shrinks],
  ['s14-crashed-follower-fenced-sooner-than-stalled', 'S14. Crash versus stall: a crashed follower is fenced after broker.session.timeout.ms, far sooner than a stalled one is shrunk.', sc_s14_crashed_follower_fenced_sooner_than_stalled],
  ['s15-timer-expiry-is-exact', 'S15. Timer precision: an op added at T with timeout X expires at exactly T + X.', sc_s15_timer_expiry_is_exact],
  ['s15-no-purge-at-1000-expired', 'S15. Purge accounting: 1,000 expired ops stay on the watch list (estimated - delayed is not > 1000).', sc_s15_no_purge_at_1000_expired],
  ['s15-purge-after-1001-expired', 'S15. Purge accounting: the 1,001st expired op tips the reaper into a purge.', sc_s15_purge_after_1001_expired],
  ['x01-acks0-error-closes-connection', 'acks=0 meets an error: no response, the broker closes the connection.', sc_x01_acks0_error_closes_connection],
  ['x02-invalid-required-acks', 'acks=2: INVALID_REQUIRED_ACKS on every partition, nothing appended.', sc_x02_invalid_required_acks],
  ['x03-unknown-topic-or-partition', 'A partition that does not exist: UNKNOWN_TOPIC_OR_PARTITION before anything else.', sc_x03_unknown_topic_or_partition],
  ['x04-crashed-follower-restarts-and-rejoins-isr', 'A crashed follower restarts, catches up and rejoins the ISR by the expand rule.', sc_x04_crashed_follower_restarts_and_rejoins_isr],
  ['x05-strict-min-isr-times-out-instead-of-after-append', 'Strict min ISR: times out rather than NOT_ENOUGH_REPLICAS_AFTER_APPEND.', sc_x05_strict_min_isr_times_out_instead_of_after_append],
  ['x06-new-leader-ignores-replicas-that-have-not-fetched', 'A new leader ignores a caught-up replica outside the ISR until it has fetched: no broker epoch, not eligible.', sc_x06_new_leader_ignores_replicas_that_have_not_fetched],
  ['x07-immediate-fetch-answer-carries-the-earlier-hw', 'An immediate fetch answer reports the HW from before that fetch moved it; the follower then leads with it.', sc_x07_immediate_fetch_answer_carries_the_earlier_hw],
  ['x08-actions-come-first-at-t0-even-with-zero-fetch-wait', 'Actions come first at t = 0, even with a fetch wait of 0: an acks=all produce at 0 completes at 2 ms (the followers’ first fetches already carry its records).', sc_x08_actions_come_first_at_t0_even_with_zero_fetch_wait],
  ['x09-expiry-and-completion-in-one-ms-keep-their-scheduling-order', 'An expiry and an ISR commit in the same millisecond run in the order they were scheduled: requests added earlier time out, one added after the commit was scheduled completes.', sc_x09_expiry_and_completion_in_one_ms_keep_their_scheduling_order],
  ['x10-resume-waits-for-the-outstanding-fetch', 'resume_follower: with a fetch still outstanding the fetcher waits for its answer and fetches again at once; with nothing outstanding it fetches at once.', sc_x10_resume_waits_for_the_outstanding_fetch],
  ['x11-same-ms-fencing-in-broker-id-order', 'Two brokers fenced in the same millisecond go in broker id order; an AlterPartition that reached the controller commits though its leader crashed.', sc_x11_same_ms_fencing_in_broker_id_order],
  ['x12-stalled-follower-race-on-kafka-defaults', 'The race on Kafka’s defaults: a stalled follower, an acks=all produce, and where the ISR-check beat falls decides NONE or REQUEST_TIMED_OUT (the Phases view shows the split).', sc_x12_stalled_follower_race_on_kafka_defaults],
  ['x13-acks1-acknowledged-then-lost', 'acks=1 acknowledged, then lost: the leader crashes before its followers fetch, a follower takes over without the records, and the old leader truncates them on its return; the acks=all request was never acknowledged.', sc_x13_acks1_acknowledged_then_lost],
  ['w01-acks1-against-all-leader-crash', 'What if acks=all? The leader crashes before its followers fetch: with acks=1 the acknowledged p1 is lost, with acks=all it was never acknowledged, and nothing acknowledged is lost.', sc_w01_acks1_against_all_leader_crash],
  ['w02-min-isr-1-against-2-with-a-follower-down', 'What if min.insync.replicas=2? With the only follower down, acks=all succeeds on the leader alone under min ISR 1 and is refused NOT_ENOUGH_REPLICAS under 2.', sc_w02_min_isr_1_against_2_with_a_follower_down],
  ['w03-request-early-against-late-in-a-stall', 'What if the request came earlier in the stall? Sent 20,000 ms after the follower stalls it completes at the ISR shrink (S03); sent after 1,000 ms it times out first (S02).', sc_w03_request_early_against_late_in_a_stall],
];

const BY_NAME = new Map(SCENARIOS.map(([name, about, doc]) => [name, { name, about, doc }]));

/** The curated scenario called `name`: `{name, about, doc}`, or undefined. */
export function curated(name) {
  return BY_NAME.get(name);
}

/** The document (JSON text) of the curated scenario called `name`, imported first if it is loaded on demand. */
export async function curatedDoc(name) {
  const c = BY_NAME.get(name);
  if (!c) throw new Error(`there is no curated scenario called "${name}"`);
  if (typeof c.doc === 'function') {
    try {
      c.doc = (await c.doc()).default;
    } catch (e) {
      throw new Error(`the scenario ${name} could not be loaded (${e.message ?? e}): is its chunk file next to purgatory-playground.js?`);
    }
  }
  return c.doc;
}

/** A scenario's short title: "S3" / "x04" and the first clause of what it demonstrates. */
export function shortTitle(name) {
  const c = BY_NAME.get(name);
  if (!c) return name;
  return c.about.replace(/^S\d+\.\s*/, '').split(/[:.]/)[0];
}

/** The scenario text at `url` (an author's `src`); rejects with a message that says what went wrong. */
export async function fetchScenarioText(url) {
  let res;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new Error(`could not fetch ${url}: ${e.message ?? e}`);
  }
  if (!res.ok) throw new Error(`could not fetch ${url}: HTTP ${res.status}`);
  return res.text();
}
