// The Kafka check's report: a table on stdout, and (unless told --no-report) docs/kafka-check.md
// for people and docs/kafka-check.json for the page's mark (www/kafka-check.js), from the verdict
// lines of scripts/kafka-compare.mjs (one JSON object per scenario checked, a what-if's second run
// as one of its own). --merge replaces only these scenarios' rows, sections and marks in the
// report there is (of the same Kafka version), and says so in its header, so that a few scenarios
// can be checked again without replaying all the others.
//
//   node scripts/kafka-report.mjs VERDICTS.jsonl KAFKA_VERSION COMMAND WALL_SECONDS [--no-report | --merge]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { anchorOf } from './markdown-page.mjs';

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
const row = (v) => { const c = counts(v); return `| [${v.scenario}](#${anchorOf(v.scenario)}) | ${v.verdict} | ${c.agree} / ${c.noise} / ${c.explained} / ${c.disagree} |`; };
// A what-if's second run (kafka-check.sh checks NAME.b) says what it is.
const secondRun = (name) => {
  const first = name.slice(0, -2);
  return `The what-if's second run of [${first}](#${anchorOf(first)}): the scenario \`purgatory apply scenarios/${first}.json\` prints, replayed on Kafka as its own.\n`;
};
const sectionOf = (v) => [
  `## ${v.scenario}`,
  '',
  v.scenario.endsWith('.b') ? secondRun(v.scenario) : null,
  v.reason ? `${v.reason}\n` : null,
  `${phaseLine(v)}\n`,
  '| field | model | Kafka (each run) | verdict |',
  '|---|---|---|---|',
  ...rowsOf(v),
  '',
  ...[...new Set(v.fields.filter((f) => f.reason).map((f) => f.reason))].map((r) => `- Explained (${v.fields.filter((f) => f.reason === r).length} fields): ${r}\n`),
].filter((line) => line != null).join('\n');
const brief = (f) => `${f.field}: model ${show(f.model)}, Kafka ${f.kafka.map(show).join(' / ')}`;
/** A what-if's change, as its file writes it (which is how the model writes it). */
const changeOf = (name) => JSON.parse(readFileSync(new URL(`../scenarios/${name}.json`, import.meta.url), 'utf8')).compare;
/** A scenario's entry in docs/kafka-check.json, for the page's mark; a second run says its change. */
const markOf = (v) => ({
  verdict: v.verdict,
  ...(v.scenario.endsWith('.b') ? { change: changeOf(v.scenario.slice(0, -2)) } : {}),
  ...(merging ? { date } : {}),
  ...(v.reason ? { reason: v.reason } : {}),
  runs: v.runs,
  fields: v.fields.length,
  disagree: v.fields.filter((f) => f.verdict === 'disagree').slice(0, 3).map(brief),
  explained_count: v.fields.filter((f) => f.verdict === 'explained').length,
  explained: v.fields.filter((f) => f.verdict === 'explained').slice(0, 2).map(brief),
});
// Scenario order, a what-if's second run right after its first: `w01-x.b` before `w01-x-y`.
const byName = (a, b) => { const key = (n) => [n.replace(/\.b$/, ''), n.endsWith('.b')]; const [ka, kb] = [key(a), key(b)]; return ka[0] < kb[0] ? -1 : ka[0] > kb[0] ? 1 : ka[1] - kb[1]; };

const mdFile = new URL('../docs/kafka-check.md', import.meta.url);
const jsonFile = new URL('../docs/kafka-check.json', import.meta.url);
const merging = flag === '--merge';
// The report there is (merging only): its header, and by scenario its table row, its section and
// its mark. Both files are read before either is written.
const before = { head: '', rows: new Map(), sections: new Map(), marks: {} };
if (merging) {
  if (!existsSync(mdFile) || !existsSync(jsonFile)) throw new Error('--merge: no report to merge into (docs/kafka-check.md and .json); run without --merge');
  const kept = JSON.parse(readFileSync(jsonFile, 'utf8'));
  if (kept.kafka_version !== version) throw new Error(`--merge: the report is of Kafka ${kept.kafka_version}, this run of ${version}: check every scenario again without --merge`);
  before.marks = kept;
  const [head, ...sections] = readFileSync(mdFile, 'utf8').split(/^## /m);
  const table = head.indexOf('| scenario | verdict |');
  if (table < 0) throw new Error('--merge: docs/kafka-check.md has no table of scenarios');
  before.head = head.slice(0, table).trimEnd();
  for (const line of head.split('\n')) {
    const name = /^\| \[([^\]]+)\]\(#/.exec(line)?.[1];
    if (name) before.rows.set(name, line);
  }
  for (const section of sections) before.sections.set(section.slice(0, section.indexOf('\n')).trim(), `## ${section.trimEnd()}\n`);
}
const fresh = new Map(verdicts.map((v) => [v.scenario, v]));
const names = [...new Set([...before.rows.keys(), ...fresh.keys()])].sort(byName);
const note = process.env.KAFKA_CHECK_NOTE ? ` ${process.env.KAFKA_CHECK_NOTE}` : '';
const md = merging ? [
  before.head,
  '',
  `Checked again and merged in on ${date}: ${[...fresh.keys()].join(', ')}, by \`${command}\` (${seconds} s of wall time).${note}`,
  '',
  '| scenario | verdict | agree / noise / explained / disagree |',
  '|---|---|---|',
  ...names.map((name) => (fresh.has(name) ? row(fresh.get(name)) : before.rows.get(name))),
  '',
  ...names.map((name) => (fresh.has(name) ? sectionOf(fresh.get(name)) : before.sections.get(name) ?? '')),
].join('\n') : [
  '# Checked against Apache Kafka',
  '',
  `Apache Kafka ${version} (KRaft: one controller, the scenario's brokers, from Maven Central's jars), ${date}.`,
  `Command: \`${command}\`; ${seconds} s of wall time.${note}`,
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
// A scenario checked again replaces its mark, or takes it away when Kafka could not be driven.
const marks = { ...(before.marks.scenarios ?? {}) };
for (const v of verdicts) {
  if (v.runs > 0) marks[v.scenario] = markOf(v);
  else delete marks[v.scenario];
}
const page = {
  kafka_version: version,
  date: before.marks.date ?? date,
  scenarios: Object.fromEntries(Object.keys(marks).sort(byName).map((name) => [name, marks[name]])),
};
writeFileSync(mdFile, md);
writeFileSync(jsonFile, `${JSON.stringify(page, null, 1)}\n`);
console.log(`\nwrote docs/kafka-check.md (${names.length} scenarios, ${merging ? `${fresh.size} of them checked again, ` : ''}${seconds} s)`);
