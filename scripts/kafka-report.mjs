// The Kafka check's report: a table on stdout and docs/kafka-check.md, from the verdict lines of
// scripts/kafka-compare.mjs (one JSON object per scenario).
//
//   node scripts/kafka-report.mjs VERDICTS.jsonl KAFKA_VERSION COMMAND WALL_SECONDS
import { readFileSync, writeFileSync } from 'node:fs';

const [file, version, command, seconds] = process.argv.slice(2);
const verdicts = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const show = (v) => (v === undefined ? '' : JSON.stringify(v));
const counts = (v) => {
  const c = { agree: 0, noise: 0, disagree: 0 };
  for (const f of v.fields) c[f.verdict] += 1;
  return c;
};

console.log('\nscenario | verdict | fields: agree / noise / disagree');
for (const v of verdicts) {
  const c = counts(v);
  console.log(`${v.scenario} | ${v.verdict} | ${c.agree} / ${c.noise} / ${c.disagree}`);
  for (const f of v.fields.filter((x) => x.verdict !== 'agree')) {
    console.log(`    ${f.verdict}: ${f.field}: model ${show(f.model)}, Kafka ${show(f.kafka)}${f.window_ms ? ` (window ±${f.window_ms} ms)` : ''}`);
  }
}

const date = new Date().toISOString().slice(0, 10);
const md = [
  '# Checked against Apache Kafka',
  '',
  `Apache Kafka ${version} (KRaft: one controller, the scenario's brokers, from Maven Central's jars), ${date}.`,
  `Command: \`${command}\`; ${seconds} s of wall time.`,
  '',
  'Each scenario was replayed on a fresh cluster (tools/kafka-check/KafkaCheck.java) and compared',
  'field by field with the model (scripts/kafka-compare.mjs): error codes, base offsets, the final',
  "leader, ISR, high watermark and every replica's log end offset exactly; each answer's time within",
  'the window stated on its row (Kafka runs its ISR check and fetch waits on beats of its own). A field',
  "that differed between Kafka's own runs is noise, not agreement.",
  '',
  '| scenario | verdict | agree / noise / disagree |',
  '|---|---|---|',
  ...verdicts.map((v) => { const c = counts(v); return `| [${v.scenario}](#${v.scenario}) | ${v.verdict} | ${c.agree} / ${c.noise} / ${c.disagree} |`; }),
  '',
  ...verdicts.flatMap((v) => [
    `## ${v.scenario}`,
    '',
    v.reason ? `${v.reason}\n` : '',
    '| field | model | Kafka (each run) | verdict |',
    '|---|---|---|---|',
    ...v.fields.map((f) => `| ${f.field} | ${show(f.model)} | ${f.kafka.map(show).join(', ')} | ${f.verdict}${f.window_ms ? ` (±${f.window_ms} ms)` : ''} |`),
    '',
  ]),
].join('\n');
writeFileSync(new URL('../docs/kafka-check.md', import.meta.url), md);
console.log(`\nwrote docs/kafka-check.md (${verdicts.length} scenarios, ${seconds} s)`);
