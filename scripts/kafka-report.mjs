// The Kafka check's report: a table on stdout, and (unless told --no-report) docs/kafka-check.md
// for people and docs/kafka-check.json for the page's mark (www/kafka-check.js), from the verdict
// lines of scripts/kafka-compare.mjs (one JSON object per scenario). --merge replaces only these
// scenarios' rows and sections in the report there is, and says so in its header, so that a few
// scenarios can be checked again without replaying the other thirty.
//
//   node scripts/kafka-report.mjs VERDICTS.jsonl KAFKA_VERSION COMMAND WALL_SECONDS [--no-report | --merge]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const [file, version, command, seconds, flag] = process.argv.slice(2);
const verdicts = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const show = (v) => (v === undefined ? '' : JSON.stringify(v));
const counts = (v) => {
  const c = { agree: 0, noise: 0, explained: 0, disagree: 0 };
  for (const f of v.fields) c[f.verdict] += 1;
  return c;
};

console.log('\nscenario | verdict | fields: agree / noise / explained / disagree');
for (const v of verdicts) {
  const c = counts(v);
  console.log(`${v.scenario} | ${v.verdict} | ${c.agree} / ${c.noise} / ${c.explained} / ${c.disagree}`);
  for (const f of v.fields.filter((x) => x.verdict !== 'agree')) {
    console.log(`    ${f.verdict}: ${f.field}: model ${show(f.model)}, Kafka ${show(f.kafka)}${f.window_ms ? ` (window ±${f.window_ms} ms)` : ''}`);
  }
}

if (flag === '--no-report') process.exit(0);
const date = new Date().toISOString().slice(0, 10);
/**
 * A scenario's table rows: every field, or for a large one (S15's thousand requests) the fields
 * that did not agree, the first 40, and a line that counts the rest.
 */
function rowsOf(v) {
  const row = (f) => `| ${f.field} | ${show(f.model)} | ${f.kafka.map(show).join(', ')} | ${f.verdict}${f.window_ms ? ` (±${f.window_ms} ms)` : ''} |`;
  if (v.fields.length <= 60) return v.fields.map(row);
  const odd = v.fields.filter((f) => f.verdict !== 'agree');
  const shown = odd.slice(0, 40);
  return [...shown.map(row), `| … | | | ${v.fields.length - shown.length} more fields: ${v.fields.length - odd.length} agree, ${odd.length - shown.length} more as above |`];
}

/** Where Kafka's ISR-check beats fell in each run (aimed at, where a run was), which the model was run at. */
function phaseLine(v) {
  const runs = (v.phases ?? []).map((p, i) => {
    const aim = v.targets?.[i] != null ? ` (t = 0 placed for broker 0 at φ = ${v.targets[i]})` : '';
    return p
      ? `run ${i + 1}${aim}: ${Object.entries(p).map(([b, phi]) => `broker ${b} at φ = ${phi}`).join(', ')}`
      : `run ${i + 1}${aim}: no beat read, so the model at the file's own phases`;
  });
  return runs.length ? `${v.verdict === 'agree' ? 'Agrees at' : 'Compared at'} Kafka's own ISR-check beats, the model run at each: ${runs.join('; ')}.` : '';
}
// A heading's anchor as scripts/markdown-page.mjs (and GitHub) make it: `w01-x.b` is #w01-xb.
const anchor = (name) => name.toLowerCase().replace(/[^a-z0-9_-]/g, '');
const row = (v) => { const c = counts(v); return `| [${v.scenario}](#${anchor(v.scenario)}) | ${v.verdict} | ${c.agree} / ${c.noise} / ${c.explained} / ${c.disagree} |`; };
// A what-if's second run (kafka-check.sh checks NAME.b) says what it is.
const secondRun = (name) => name.endsWith('.b')
  ? [`The what-if's second run of [${name.slice(0, -2)}](#${anchor(name.slice(0, -2))}): the scenario \`purgatory apply scenarios/${name.slice(0, -2)}.json\` prints, replayed on Kafka as its own.\n`]
  : [];
const sectionOf = (v) => [
  `## ${v.scenario}`,
  '',
  ...secondRun(v.scenario),
  v.reason ? `${v.reason}\n` : '',
  `${phaseLine(v)}\n`,
  '| field | model | Kafka (each run) | verdict |',
  '|---|---|---|---|',
  ...rowsOf(v),
  '',
  ...[...new Set(v.fields.filter((f) => f.reason).map((f) => f.reason))].map((r) => `- Explained (${v.fields.filter((f) => f.reason === r).length} fields): ${r}\n`),
].join('\n');
const mdFile = new URL('../docs/kafka-check.md', import.meta.url);
const jsonFile = new URL('../docs/kafka-check.json', import.meta.url);
const merging = flag === '--merge' && existsSync(mdFile);
// The report there is, by scenario: its table row and its section (merging only).
const before = { head: '', rows: new Map(), sections: new Map() };
if (merging) {
  const text = readFileSync(mdFile, 'utf8');
  const [head, ...sections] = text.split(/^## /m);
  before.head = head.slice(0, head.indexOf('| scenario | verdict |')).trimEnd();
  for (const line of head.split('\n')) {
    const name = /^\| \[([^\]]+)\]\(#/.exec(line)?.[1];
    if (name) before.rows.set(name, line);
  }
  for (const section of sections) before.sections.set(section.slice(0, section.indexOf('\n')).trim(), `## ${section.trimEnd()}\n`);
}
const md = merging ? [
  before.head,
  '',
  `Checked again and merged in on ${date}: ${verdicts.map((v) => v.scenario).join(', ')}, by \`${command}\` (${seconds} s of wall time).${process.env.KAFKA_CHECK_NOTE ? ` ${process.env.KAFKA_CHECK_NOTE}` : ''}`,
  '',
  '| scenario | verdict | agree / noise / explained / disagree |',
  '|---|---|---|',
  ...[...new Set([...before.rows.keys(), ...verdicts.map((v) => v.scenario)])].sort().map((name) => {
    const v = verdicts.find((x) => x.scenario === name);
    return v ? row(v) : before.rows.get(name);
  }),
  '',
  ...[...new Set([...before.sections.keys(), ...verdicts.map((v) => v.scenario)])].sort().map((name) => {
    const v = verdicts.find((x) => x.scenario === name);
    return v ? sectionOf(v) : before.sections.get(name);
  }),
].join('\n') : [
  '# Checked against Apache Kafka',
  '',
  `Apache Kafka ${version} (KRaft: one controller, the scenario's brokers, from Maven Central's jars), ${date}.`,
  `Command: \`${command}\`; ${seconds} s of wall time.${process.env.KAFKA_CHECK_NOTE ? ` ${process.env.KAFKA_CHECK_NOTE}` : ''}`,
  '',
  'Each scenario was replayed on a fresh cluster (tools/kafka-check/KafkaCheck.java) and compared',
  'field by field with the model (scripts/kafka-compare.mjs): error codes, base offsets, the final',
  "leader, ISR, high watermark and every replica's log end offset exactly; each answer's time within",
  "the window stated on its row. Each run is compared with the model at that run's phases: each",
  "broker's ISR-check beat is read from its own log (its scheduler's isr-expiration runs; for answers",
  'recorded before that, from its "Shrinking ISR" lines, the only trace of the beat then), and the',
  'model runs with phases.isr_check_ms there (scenario-format.md, "Phases"). A scenario whose sweep',
  "splits is replayed with t = 0 placed at chosen phases of broker 0's beat (`--at-phases`), on",
  'both sides of each boundary. Where a leader shrank an ISR, the phase accounts for the follower\'s',
  "last fetch falling at another moment on Kafka than in the model. A field",
  "that differed between Kafka's own runs where the model at their phases did not is noise, not",
  'agreement. A difference traced to a stated',
  'simplification of the model, or to a limit of the driver, is explained, with the reason',
  '(tools/kafka-check/explained.json).',
  '',
  '| scenario | verdict | agree / noise / explained / disagree |',
  '|---|---|---|',
  ...verdicts.map(row),
  '',
  ...verdicts.map(sectionOf),
].join('\n');
writeFileSync(mdFile, md);
const brief = (f) => `${f.field}: model ${show(f.model)}, Kafka ${f.kafka.map(show).join(' / ')}`;
const kept = merging ? JSON.parse(readFileSync(jsonFile, 'utf8')) : null;
const page = {
  kafka_version: version,
  date: kept?.date ?? date,
  scenarios: Object.fromEntries([...Object.entries(kept?.scenarios ?? {}), ...verdicts.filter((v) => v.runs > 0).map((v) => [v.scenario, {
    verdict: v.verdict,
    ...(merging ? { date } : {}),
    ...(v.reason ? { reason: v.reason } : {}),
    runs: v.runs,
    fields: v.fields.length,
    disagree: v.fields.filter((f) => f.verdict === 'disagree').slice(0, 3).map(brief),
    explained_count: v.fields.filter((f) => f.verdict === 'explained').length,
    explained: v.fields.filter((f) => f.verdict === 'explained').slice(0, 2).map(brief),
  }])].sort(([a], [b]) => (a < b ? -1 : 1))),
};
writeFileSync(jsonFile, `${JSON.stringify(page, null, 1)}\n`);
console.log(`\nwrote docs/kafka-check.md (${verdicts.length} scenarios, ${seconds} s)`);
