// Compares the model with what Apache Kafka answered in one or more runs of
// tools/kafka-check/KafkaCheck.java. Prints one JSON line per scenario:
//   {scenario, verdict: agree|noise|explained|disagree, runs, phases: [per run], fields: [...]}
// where each field is {field, model: [per run], kafka: [per run], verdict, window_ms?, reason?}.
//
//   node scripts/kafka-compare.mjs SCENARIO.json MODEL.json KAFKA-RUN.json [KAFKA-RUN.json ...]
//
// Each run is compared with the model run at that run's phases (scenario-format.md, "Phases"):
// Kafka runs each broker's ISR check every replica.lag.time.max.ms / 2 on a beat of its own, and
// KafkaCheck reads where it fell from the brokers' "Shrinking ISR" lines, so a broker that shrank
// gets that beat as its phase (the others keep 0: no check of theirs changed an ISR). MODEL.json is
// the model at the file's own phases, used for a run that saw no shrink.
//
// Exact: each response's errors and its base offsets (two fields), whether it was answered, the final
// leader, ISR, high watermark and every replica's log end offset. Within a window: each answer's
// time. At a known beat the window is replica.fetch.wait.max.ms + 500 ms: a follower's last
// caught-up fetch falls up to W before a pause, and 500 ms covers the AlterPartition round trip and
// a shared machine's noise. Where no beat was seen and a follower stopped before the answer, an
// ISR check may have decided it anywhere within L/2 + W + 500 ms of the model's instant.
// A field whose value differs between Kafka's own runs, where the model at their phases does not
// say it should, is noise, never agreement. A disagreement traced to a stated simplification of
// the model, or to a limit of the driver, is `explained`, with that reason
// (tools/kafka-check/explained.json).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const [scenarioFile, modelFile, ...runFiles] = process.argv.slice(2);
if (!scenarioFile || !modelFile || runFiles.length === 0) {
  console.error('usage: kafka-compare.mjs SCENARIO.json MODEL.json KAFKA-RUN.json [...]');
  process.exit(2);
}
const scenario = JSON.parse(readFileSync(scenarioFile, 'utf8'));
const fileModel = JSON.parse(readFileSync(modelFile, 'utf8'));
const runs = runFiles.map((f) => JSON.parse(readFileSync(f, 'utf8')));
const explained = JSON.parse(readFileSync(path.join(ROOT, 'tools/kafka-check/explained.json'), 'utf8'))[scenario.name] ?? {};

const config = scenario.config ?? {};
const L = config.replica_lag_time_max_ms ?? 30000;
const W = config.replica_fetch_wait_max_ms ?? 500;
const BROKERS = config.brokers ?? 3;
const SLACK = 500;
const PERIOD = Math.floor(L / 2);

/**
 * The follower's last caught-up time in the model, as the leader saw it (follower_state_updated),
 * latest at or before `at`: from the model's trace at the file's phases (fetches do not depend on
 * the ISR check's beat).
 */
let trace = null;
function modelCaughtUp(leader, follower, tp, at) {
  trace ??= spawnSync(path.join(ROOT, 'target/release/purgatory'), ['run', scenarioFile, '--trace'], { encoding: 'utf8', maxBuffer: 1 << 30 })
    .stderr.split('\n').filter((l) => l.includes('"follower_state_updated"')).map((l) => JSON.parse(l));
  let best = null;
  for (const e of trace) {
    if (e.leader === leader && e.follower === follower && e.tp === tp && e.at_ms <= at) best = e.last_caught_up_time_ms;
  }
  return best;
}

/**
 * The ISR-check phase of each broker that shrank in a run, or null. A shrink at S dropped a
 * follower Kafka last saw caught up at t_lc; the model's follower last caught up at m_lc (its own
 * fetch timing, within replica.fetch.wait.max.ms of Kafka's). Where the model at Kafka's beat drops
 * it at S too, that beat is the phase; where the lag limit falls between the two last fetches, the
 * model's beat after the same lag, S − t_lc + m_lc.
 */
function phasesOf(run) {
  const seen = {};
  // Each broker's beat as its scheduler ran it (KafkaCheck reads the isr-expiration runs from the
  // broker's log; answers recorded before it did have only the shrink lines below).
  for (const c of run.isr_checks ?? []) if (c.phase_ms != null) seen[c.broker] = c.phase_ms;
  const shrunk = new Set();
  for (const s of run.isr_shrinks ?? []) {
    if (shrunk.has(s.broker) || PERIOD <= 0) continue;
    shrunk.add(s.broker);
    const lagging = s.out_of_sync?.[0];
    const mine = lagging ? modelCaughtUp(s.broker, lagging.broker, `${s.topic}-${s.partition}`, s.at_ms) : null;
    // Kafka's own beat when the model's follower, lagging from its own last fetch, is dropped at
    // it too (not before, not after); else the beat after the same lag as Kafka's.
    const dropsAt = (b) => b - mine > L && b - PERIOD - mine <= L;
    const beat = mine == null || dropsAt(s.at_ms) ? s.at_ms : s.at_ms - lagging.last_caught_up_ms + mine;
    seen[s.broker] = ((beat % PERIOD) + PERIOD) % PERIOD;
  }
  return Object.keys(seen).length ? seen : null;
}

/** The model's result at a run's phases (the purgatory runner on the scenario with them). */
function modelAt(phases) {
  if (!phases) return fileModel;
  const own = scenario.phases?.isr_check_ms;
  const each = Array.from({ length: BROKERS }, (_, b) => phases[b] ?? (Array.isArray(own) ? own[b] : own ?? 0));
  const dir = mkdtempSync(path.join(tmpdir(), 'kafka-compare-'));
  try {
    const file = path.join(dir, 'scenario.json');
    writeFileSync(file, JSON.stringify({ ...scenario, phases: { ...(scenario.phases ?? {}), isr_check_ms: each } }));
    return JSON.parse(execFileSync(path.join(ROOT, 'target/release/purgatory'), ['run', file], { encoding: 'utf8' }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const phases = runs.map(phasesOf);
const models = phases.map(modelAt);

const fields = [];
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function exact(field, modelValues, kafkaValues) {
  const agree = kafkaValues.every((v, i) => same(v, modelValues[i]));
  const runsDiffer = kafkaValues.some((v) => !same(v, kafkaValues[0]));
  const verdict = agree ? 'agree' : runsDiffer ? 'noise' : 'disagree';
  fields.push({ field, model: modelValues, kafka: kafkaValues, verdict });
}

function timed(field, modelMs, kafkaMs, windows) {
  const fits = kafkaMs.every((v, i) => (v == null) === (modelMs[i] == null) && (v == null || Math.abs(v - modelMs[i]) <= windows[i]));
  fields.push({ field, model: modelMs, kafka: kafkaMs, verdict: fits ? 'agree' : 'disagree', window_ms: Math.max(...windows) });
}

/** Did a follower stop (pause or crash) before `at`? Then an ISR change may decide the answer. */
const disturbedBefore = (at) => scenario.actions.some((a) => a.at_ms <= at && ['pause_follower', 'crash_broker', 'elect_leader'].includes(a.action));

const byId = (doc) => new Map(doc.responses.filter(Boolean).map((r) => [r.id, r]));
const kafkaById = runs.map(byId);
const modelById = models.map(byId);
for (const r of fileModel.responses) {
  const ks = kafkaById.map((m) => m.get(r.id) ?? null);
  const ms = modelById.map((m) => m.get(r.id));
  if (ks.some((k) => k == null)) {
    fields.push({ field: `${r.id}`, model: ms.map(() => 'answered'), kafka: ks.map((k) => (k ? 'recorded' : 'missing')), verdict: 'disagree' });
    continue;
  }
  // acks=0 is never answered: the outcome the model gives is not on the wire, only the closing.
  const acks0 = scenario.actions.find((a) => a.id === r.id)?.acks === 0;
  // A connection that dropped before any answer (its broker crashed) tells the client nothing of
  // the partitions: only that it dropped, on both sides.
  const dropped = (d) => d.responded_ms == null && d.connection_closed;
  const unanswered = ms.every(dropped) && ks.every(dropped);
  // The producer's own timeout ran out first (edge case 17): Kafka's client closed its connection
  // then, so the broker's later answer is the model's alone; when it gave up is compared instead.
  const gaveUp = ms.some((m) => m.client_timed_out_ms != null);
  if (gaveUp) timed(`${r.id}.client_timed_out_ms`, ms.map((m) => m.client_timed_out_ms ?? null), ks.map((k) => k.client_timed_out_ms ?? null), ms.map(() => SLACK));
  if (!acks0 && !unanswered && !gaveUp) {
    // A request Kafka's side could not send or read (an I/O error) has no partitions: it disagrees.
    const errors = (doc) => (doc.partitions ?? []).map((p) => `${p.topic}-${p.partition} ${p.error}`).sort();
    const offsets = (doc) => (doc.partitions ?? []).map((p) => `${p.topic}-${p.partition} @${p.base_offset}`).sort();
    exact(`${r.id}.errors`, ms.map(errors), ks.map(errors));
    exact(`${r.id}.base_offsets`, ms.map(offsets), ks.map(offsets));
    const windows = ms.map((m, i) => (phases[i] || !disturbedBefore(m.responded_ms ?? m.received_ms) ? W + SLACK : PERIOD + W + SLACK));
    timed(`${r.id}.responded_ms`, ms.map((m) => m.responded_ms), ks.map((k) => k.responded_ms), windows);
  }
  exact(`${r.id}.connection_closed`, ms.map((m) => m.connection_closed), ks.map((k) => k.connection_closed));
}
for (const p of fileModel.partitions) {
  const tp = `${p.topic}-${p.partition}`;
  const find = (doc) => doc.partitions.find((x) => x.topic === p.topic && x.partition === p.partition) ?? null;
  const ks = runs.map(find);
  const ms = models.map(find);
  exact(`${tp}.leader`, ms.map((m) => m.leader), ks.map((k) => k?.leader ?? null));
  exact(`${tp}.isr`, ms.map((m) => m.isr), ks.map((k) => k?.isr ?? null));
  exact(`${tp}.high_watermark`, ms.map((m) => m.high_watermark), ks.map((k) => k?.high_watermark ?? null));
  for (const rep of p.replicas) {
    const leo = (doc) => doc?.replicas.find((x) => x.broker === rep.broker)?.log_end_offset ?? null;
    exact(`${tp}.leo[${rep.broker}]`, ms.map(leo), ks.map(leo));
  }
}

// A key of explained.json is a field's name, or `~REGEX` for every field it matches
// (`could_not_drive` is the scenario's own: see below).
const reasonFor = (field) => explained[field] ?? Object.entries(explained).find(([k]) => k.startsWith('~') && new RegExp(k.slice(1)).test(field))?.[1];
for (const f of fields) {
  const reason = f.verdict === 'disagree' && reasonFor(f.field);
  if (reason) Object.assign(f, { verdict: 'explained', reason });
}
const verdicts = new Set(fields.map((f) => f.verdict));
let verdict = ['disagree', 'explained', 'noise'].find((v) => verdicts.has(v)) ?? 'agree';
// A scenario whose point is a race a real cluster cannot be held to (an exact millisecond, a tie
// of two beats) is not a verdict on the model: its reason says why, and its fields stay as seen.
const cannot = explained['could_not_drive'];
if (cannot && verdict !== 'agree') verdict = 'could-not-drive';
const targets = runs.map((r) => r.isr_phase_target_ms ?? null);
console.log(JSON.stringify({ scenario: scenario.name, verdict, runs: runs.length, phases, ...(targets.some((t) => t != null) ? { targets } : {}), fields, ...(cannot && verdict === 'could-not-drive' ? { reason: cannot } : {}) }));
