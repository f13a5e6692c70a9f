// The curated scenarios (scenarios/*.json, bundled into the module as their JSON text, so an
// embedded playground needs no other file): each with its document,
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
import sc_x14_quick_restart_is_refused_until_the_session_ends from '../scenarios/x14-quick-restart-is-refused-until-the-session-ends.json';
import sc_x15_producer_gives_up_then_the_records_commit from '../scenarios/x15-producer-gives-up-then-the-records-commit.json';
import sc_w01_acks1_against_all_leader_crash from '../scenarios/w01-acks1-against-all-leader-crash.json';
import sc_w02_min_isr_1_against_2_with_a_follower_down from '../scenarios/w02-min-isr-1-against-2-with-a-follower-down.json';
import sc_w03_request_early_against_late_in_a_stall from '../scenarios/w03-request-early-against-late-in-a-stall.json';

// Loaded on demand (see above).
const sc_s15_no_purge_at_1000_expired = () => import('../scenarios/s15-no-purge-at-1000-expired.json');
const sc_s15_purge_after_1001_expired = () => import('../scenarios/s15-purge-after-1001-expired.json');

/**
 * [name, scenario document (JSON text) or a function importing it]. What each demonstrates is the
 * message `scenario.NAME` (www/i18n/LANGUAGE/scenarios.js), the picker's line.
 */
export const SCENARIOS = [
  ['s01-happy-path', sc_s01_happy_path],
  ['s02-stalled-follower-times-out', sc_s02_stalled_follower_times_out],
  ['s03-stalled-follower-completes-at-isr-shrink', sc_s03_stalled_follower_completes_at_isr_shrink],
  ['s04-out-of-isr-follower-does-not-hold-back', sc_s04_out_of_isr_follower_does_not_hold_back],
  ['s05-both-followers-stalled-hw-freezes', sc_s05_both_followers_stalled_hw_freezes],
  ['s06-pre-append-not-enough-replicas', sc_s06_pre_append_not_enough_replicas],
  ['s07-acks-variants', sc_s07_acks_variants],
  ['s08-isr-of-leader-only-completes-at-once', sc_s08_isr_of_leader_only_completes_at_once],
  ['s09-leader-change-answers-waiting-request', sc_s09_leader_change_answers_waiting_request],
  ['s10-multi-partition-request', sc_s10_multi_partition_request],
  ['s11-after-append-race-unreachable', sc_s11_after_append_race_unreachable],
  ['s12-isr-expansion-counts-before-commit', sc_s12_isr_expansion_counts_before_commit],
  ['s13-idle-stalled-follower-never-shrinks', sc_s13_idle_stalled_follower_never_shrinks],
  ['s14-crashed-follower-fenced-sooner-than-stalled', sc_s14_crashed_follower_fenced_sooner_than_stalled],
  ['s15-timer-expiry-is-exact', sc_s15_timer_expiry_is_exact],
  ['s15-no-purge-at-1000-expired', sc_s15_no_purge_at_1000_expired],
  ['s15-purge-after-1001-expired', sc_s15_purge_after_1001_expired],
  ['x01-acks0-error-closes-connection', sc_x01_acks0_error_closes_connection],
  ['x02-invalid-required-acks', sc_x02_invalid_required_acks],
  ['x03-unknown-topic-or-partition', sc_x03_unknown_topic_or_partition],
  ['x04-crashed-follower-restarts-and-rejoins-isr', sc_x04_crashed_follower_restarts_and_rejoins_isr],
  ['x05-strict-min-isr-times-out-instead-of-after-append', sc_x05_strict_min_isr_times_out_instead_of_after_append],
  ['x06-new-leader-ignores-replicas-that-have-not-fetched', sc_x06_new_leader_ignores_replicas_that_have_not_fetched],
  ['x07-immediate-fetch-answer-carries-the-earlier-hw', sc_x07_immediate_fetch_answer_carries_the_earlier_hw],
  ['x08-actions-come-first-at-t0-even-with-zero-fetch-wait', sc_x08_actions_come_first_at_t0_even_with_zero_fetch_wait],
  ['x09-expiry-and-completion-in-one-ms-keep-their-scheduling-order', sc_x09_expiry_and_completion_in_one_ms_keep_their_scheduling_order],
  ['x10-resume-waits-for-the-outstanding-fetch', sc_x10_resume_waits_for_the_outstanding_fetch],
  ['x11-same-ms-fencing-in-broker-id-order', sc_x11_same_ms_fencing_in_broker_id_order],
  ['x12-stalled-follower-race-on-kafka-defaults', sc_x12_stalled_follower_race_on_kafka_defaults],
  ['x13-acks1-acknowledged-then-lost', sc_x13_acks1_acknowledged_then_lost],
  ['x14-quick-restart-is-refused-until-the-session-ends', sc_x14_quick_restart_is_refused_until_the_session_ends],
  ['x15-producer-gives-up-then-the-records-commit', sc_x15_producer_gives_up_then_the_records_commit],
  ['w01-acks1-against-all-leader-crash', sc_w01_acks1_against_all_leader_crash],
  ['w02-min-isr-1-against-2-with-a-follower-down', sc_w02_min_isr_1_against_2_with_a_follower_down],
  ['w03-request-early-against-late-in-a-stall', sc_w03_request_early_against_late_in_a_stall],
];

const BY_NAME = new Map(SCENARIOS.map(([name, doc]) => [name, { name, doc }]));

/** The curated scenario called `name`: `{name, doc}`, or undefined. */
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

/** A scenario's short title, in `tr`'s language: the first clause of what it demonstrates. */
export function shortTitle(name, tr) {
  if (!BY_NAME.has(name)) return name;
  return tr.t(`scenario.${name}`).replace(/^S\d+\.\s*/, '').split(/[:.：。；（]/)[0];
}

/**
 * The scenario text at `url` (an author's `src`); rejects with what went wrong, the HTTP status or
 * the network's error (the caller's message names the attribute and the address).
 */
export async function fetchScenarioText(url) {
  let res;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new Error(String(e.message ?? e));
  }
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.text();
}
