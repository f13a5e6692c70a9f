// Compares the model's result document for a scenario with what Apache Kafka answered in one or
// more runs of tools/kafka-check/KafkaCheck.java. Prints one JSON line per scenario:
//   {scenario, verdict: agree|noise|disagree|could-not-drive, fields: [...], reason?}
// where each field is {field, model, kafka: [run values], verdict, window_ms?}.
//
//   node scripts/kafka-compare.mjs SCENARIO.json MODEL.json KAFKA-RUN.json [KAFKA-RUN.json ...]
//
// Exact: each response's error per partition and base offset, whether it was answered, the final
// leader, ISR, high watermark and every replica's log end offset. Within a window: each answer's
// time. Kafka runs its ISR check every replica.lag.time.max.ms / 2 from each broker's own start,
// and a caught-up follower's fetch waits up to replica.fetch.wait.max.ms, so an answer that an ISR
// change or a fetch releases can fall anywhere within L/2 + W of the model's instant (the model puts
// every beat at t = 0); 500 ms more covers the AlterPartition round trip and wall-clock noise on a
// shared machine. An answer the timer or the request alone decides gets W + 500 ms.
// A field whose value differs between Kafka's own runs is noise, never agreement. A disagreement
// whose cause was found to be a stated simplification of the model is `explained`, with that
// reason (tools/kafka-check/explained.json, by scenario and field); any other is `disagree`.
import { readFileSync } from 'node:fs';

const [scenarioFile, modelFile, ...runFiles] = process.argv.slice(2);
if (!scenarioFile || !modelFile || runFiles.length === 0) {
  console.error('usage: kafka-compare.mjs SCENARIO.json MODEL.json KAFKA-RUN.json [...]');
  process.exit(2);
}
const scenario = JSON.parse(readFileSync(scenarioFile, 'utf8'));
const model = JSON.parse(readFileSync(modelFile, 'utf8'));
const runs = runFiles.map((f) => JSON.parse(readFileSync(f, 'utf8')));
const explained = JSON.parse(readFileSync(new URL('../tools/kafka-check/explained.json', import.meta.url), 'utf8'))[scenario.name] ?? {};

const config = scenario.config ?? {};
const L = config.replica_lag_time_max_ms ?? 30000;
const W = config.replica_fetch_wait_max_ms ?? 500;
const SLACK = 500;
/** Did a follower stop (pause or crash) before `at`? Then an ISR change may decide the answer. */
const disturbedBefore = (at) => scenario.actions.some((a) => a.at_ms <= at && ['pause_follower', 'crash_broker', 'elect_leader'].includes(a.action));

const fields = [];
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function exact(field, modelValue, kafkaValues) {
  const agreeAmongRuns = kafkaValues.every((v) => same(v, kafkaValues[0]));
  const verdict = !agreeAmongRuns ? 'noise' : same(modelValue, kafkaValues[0]) ? 'agree' : 'disagree';
  fields.push({ field, model: modelValue, kafka: kafkaValues, verdict });
}

function timed(field, modelMs, kafkaMs, windowMs) {
  const present = kafkaMs.every((v) => v != null) && modelMs != null;
  let verdict;
  if (!present) verdict = same(kafkaMs.map((v) => v == null), kafkaMs.map(() => modelMs == null)) ? 'agree' : 'disagree';
  else verdict = kafkaMs.every((v) => Math.abs(v - modelMs) <= windowMs) ? 'agree' : 'disagree';
  fields.push({ field, model: modelMs, kafka: kafkaMs, verdict, window_ms: windowMs });
}

const byId = (doc) => new Map(doc.responses.filter(Boolean).map((r) => [r.id, r]));
const kafkaById = runs.map(byId);
for (const r of model.responses) {
  const ks = kafkaById.map((m) => m.get(r.id) ?? null);
  if (ks.some((k) => k == null)) {
    fields.push({ field: `${r.id}`, model: 'answered', kafka: ks.map((k) => (k ? 'recorded' : 'missing')), verdict: 'disagree' });
    continue;
  }
  // acks=0 is never answered: the outcome the model gives is not on the wire, only the closing.
  const acks0 = scenario.actions.find((a) => a.id === r.id)?.acks === 0;
  if (!acks0) {
    const parts = (doc) => doc.partitions.map((p) => `${p.topic}-${p.partition} ${p.error} @${p.base_offset}`).sort();
    exact(`${r.id}.partitions`, parts(r), ks.map(parts));
    const window = disturbedBefore(r.responded_ms ?? r.received_ms) ? L / 2 + W + SLACK : W + SLACK;
    timed(`${r.id}.responded_ms`, r.responded_ms, ks.map((k) => k.responded_ms), window);
  }
  exact(`${r.id}.connection_closed`, r.connection_closed, ks.map((k) => k.connection_closed));
}
for (const p of model.partitions) {
  const tp = `${p.topic}-${p.partition}`;
  const ks = runs.map((run) => run.partitions.find((x) => x.topic === p.topic && x.partition === p.partition) ?? null);
  exact(`${tp}.leader`, p.leader, ks.map((k) => k?.leader ?? null));
  exact(`${tp}.isr`, p.isr, ks.map((k) => k?.isr ?? null));
  exact(`${tp}.high_watermark`, p.high_watermark, ks.map((k) => k?.high_watermark ?? null));
  for (const rep of p.replicas) {
    exact(`${tp}.leo[${rep.broker}]`, rep.log_end_offset, ks.map((k) => k?.replicas.find((x) => x.broker === rep.broker)?.log_end_offset ?? null));
  }
}

for (const f of fields) {
  if (f.verdict === 'disagree' && explained[f.field]) Object.assign(f, { verdict: 'explained', reason: explained[f.field] });
}
const verdicts = new Set(fields.map((f) => f.verdict));
const verdict = ['disagree', 'explained', 'noise'].find((v) => verdicts.has(v)) ?? 'agree';
console.log(JSON.stringify({ scenario: scenario.name, verdict, runs: runs.length, fields }));
