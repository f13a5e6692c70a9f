// The Kafka check's comparison (scripts/kafka-compare.mjs) on documents made here: what agrees,
// what disagrees, what is noise between Kafka's own runs, what a stated simplification explains,
// and the windows of answer times. No cluster needed.
//
//   node --test tests/kafka-compare.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { differenceWords } from '../www/kafka-check-words.js';

const SCRIPT = fileURLToPath(new URL('../scripts/kafka-compare.mjs', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'kafka-compare-'));

const scenario = (name, actions) => ({
  name,
  config: { brokers: 3, min_insync_replicas: 2 },
  topics: [{ name: 't', partitions: 1, replication_factor: 3 }],
  actions,
  run_until_ms: 60000,
});
const produce = { at_ms: 1000, action: 'produce', id: 'p1', acks: -1, records: [{ topic: 't', partition: 0, count: 10 }] };

function doc({ error = 'NONE', at = 1002, isr = [0, 1, 2], hw = 10, leo2 = 10 } = {}) {
  return {
    responses: [{ id: 'p1', received_ms: 1000, responded_ms: at, connection_closed: false, partitions: [{ topic: 't', partition: 0, error, base_offset: error === 'NONE' ? 0 : -1 }] }],
    partitions: [{ topic: 't', partition: 0, leader: 0, isr, high_watermark: hw, replicas: [{ broker: 0, log_end_offset: 10 }, { broker: 1, log_end_offset: 10 }, { broker: 2, log_end_offset: leo2 }] }],
  };
}

let n = 0;
function compare(sc, model, ...kafka) {
  const write = (v) => { const f = path.join(dir, `${n++}.json`); writeFileSync(f, JSON.stringify(v)); return f; };
  return JSON.parse(execFileSync('node', [SCRIPT, write(sc), write(model), ...kafka.map(write)], { encoding: 'utf8' }));
}
const field = (out, name) => out.fields.find((f) => f.field === name);

test('the same answers agree, every field compared', () => {
  const out = compare(scenario('a', [produce]), doc(), doc({ at: 1100 }), doc({ at: 1090 }));
  assert.equal(out.verdict, 'agree');
  assert.deepEqual(out.fields.map((f) => f.field), ['p1.errors', 'p1.base_offsets', 'p1.responded_ms', 'p1.connection_closed', 't-0.leader', 't-0.isr', 't-0.high_watermark', 't-0.leo[0]', 't-0.leo[1]', 't-0.leo[2]']);
  assert.equal(field(out, 'p1.responded_ms').window_ms, 1000, 'no follower stopped: W + 500');
});

test('an error code or an offset that differs is a disagreement', () => {
  const out = compare(scenario('b', [produce]), doc(), doc({ error: 'REQUEST_TIMED_OUT' }), doc({ error: 'REQUEST_TIMED_OUT' }));
  assert.equal(out.verdict, 'disagree');
  assert.equal(field(out, 'p1.errors').verdict, 'disagree');
});

test('an answer time outside its window disagrees; the window widens once a follower stopped', () => {
  const late = compare(scenario('c', [produce]), doc(), doc({ at: 2600 }));
  assert.equal(field(late, 'p1.responded_ms').verdict, 'disagree');
  const paused = [{ at_ms: 0, action: 'pause_follower', broker: 2 }, produce];
  const out = compare(scenario('d', paused), doc({ at: 45010 }), doc({ at: 30200 }), doc({ at: 44000 }));
  assert.equal(field(out, 'p1.responded_ms').window_ms, 16000, 'L/2 + W + 500');
  assert.equal(field(out, 'p1.responded_ms').verdict, 'agree');
});

test('a field that differs between Kafka runs is noise, not agreement', () => {
  const out = compare(scenario('e', [produce]), doc(), doc({ isr: [0, 1, 2] }), doc({ isr: [0, 1] }));
  assert.equal(field(out, 't-0.isr').verdict, 'noise');
  assert.equal(out.verdict, 'noise');
});

test('a disagreement traced to a stated simplification is explained, with its reason', () => {
  const name = 'x06-new-leader-ignores-replicas-that-have-not-fetched';
  const out = compare(scenario(name, [produce]), doc(), doc({ leo2: 0 }), doc({ leo2: 0 }));
  assert.equal(field(out, 't-0.leo[2]').verdict, 'explained');
  assert.match(field(out, 't-0.leo[2]').reason, /restart/);
  assert.equal(out.verdict, 'explained');
  // The same difference on a field with no stated reason stays a disagreement.
  const other = compare(scenario(name, [produce]), doc(), doc({ hw: 0 }), doc({ hw: 0 }));
  assert.equal(other.verdict, 'disagree');
});

test('a run is compared with the model at the ISR-check beat Kafka showed', () => {
  // The contract's race: at φ = 0 the model times out at 31,000. A Kafka run whose leader shrank
  // at 30,500 (its beat at φ = 500) answered NONE; the model's follower, last caught up at 0, is
  // dropped at that beat too, so the model runs at φ = 500 and answers NONE at 30,510.
  const paused = [{ at_ms: 0, action: 'pause_follower', broker: 2 }, produce];
  const race = scenario('g', paused);
  race.run_until_ms = 40000;
  const atZero = doc({ error: 'REQUEST_TIMED_OUT', at: 31000 });
  const kafka = { ...doc({ at: 30530, isr: [0, 1], leo2: 0 }), isr_shrinks: [{ at_ms: 30500, broker: 0, topic: 't', partition: 0, out_of_sync: [{ broker: 2, last_caught_up_ms: -120 }] }] };
  const out = compare(race, atZero, kafka);
  assert.deepEqual(out.phases, [{ 0: 500 }]);
  assert.deepEqual(field(out, 'p1.errors').model, [['t-0 NONE']], 'the model ran at φ = 500');
  assert.equal(field(out, 'p1.responded_ms').model[0], 30510);
  // A beat within the fetch gap of the lag limit: Kafka dropped at 29,950 a follower last caught
  // up at -120 (lag 30,070); the model's follower (0) would not be dropped at 29,950 (lag 29,950),
  // so the model runs at the beat after the same lag, 30,070: φ = 70, NONE at 30,080.
  const edge = { ...kafka, responded_ms: 29990, isr_shrinks: [{ ...kafka.isr_shrinks[0], at_ms: 29950 }] };
  edge.responses = [{ ...kafka.responses[0], responded_ms: 29990 }];
  const atEdge = compare(race, atZero, edge);
  assert.deepEqual(atEdge.phases, [{ 0: 70 }]);
  assert.equal(field(atEdge, 'p1.responded_ms').model[0], 30080);
  assert.equal(field(atEdge, 'p1.responded_ms').verdict, 'agree');
  assert.equal(field(out, 'p1.responded_ms').window_ms, 1000, 'a known beat: W + 500');
  assert.equal(field(out, 'p1.responded_ms').verdict, 'agree');
  // Without the beat the same run is compared with φ = 0 and disagrees.
  const { isr_shrinks: _, ...blind } = kafka;
  assert.equal(field(compare(race, atZero, blind), 'p1.errors').verdict, 'disagree');
});

test('an explanation may name its fields by a pattern, and explains only those', () => {
  const name = 's15-timer-expiry-is-exact';
  const swapped = { ...doc(), responses: [{ ...doc().responses[0], id: 'p1-default-30000', partitions: [{ topic: 't', partition: 0, error: 'NONE', base_offset: 10 }] }] };
  const model = { ...doc(), responses: [{ ...doc().responses[0], id: 'p1-default-30000' }] };
  const sc = scenario(name, [{ ...produce, id: 'p1-default-30000' }]);
  const out = compare(sc, model, swapped, swapped);
  assert.equal(field(out, 'p1-default-30000.base_offsets').verdict, 'explained');
  assert.match(field(out, 'p1-default-30000.base_offsets').reason, /network threads/);
  assert.equal(field(out, 'p1-default-30000.errors').verdict, 'agree', 'errors are still compared exactly');
});

test('a response Kafka never recorded disagrees', () => {
  const missing = { ...doc(), responses: [] };
  const out = compare(scenario('f', [produce]), doc(), missing);
  assert.equal(out.verdict, 'disagree');
});

test("each run is compared with the model at the ISR-check beats read from Kafka's logs", () => {
  // The contract's stalled follower: NONE for φ in 1 .. 989 (the shrink at 30,000 + φ commits
  // before the timer at 31,000), REQUEST_TIMED_OUT elsewhere. A run whose leader's beat fell at
  // 495 answered NONE; one at 7,300 timed out. Both agree, each with the model at its own beat.
  const paused = [{ at_ms: 0, action: 'pause_follower', broker: 2 }, produce];
  const at = (phase, d) => ({ ...d, isr_checks: [0, 1, 2].map((broker) => ({ broker, phase_ms: broker === 0 ? phase : 0 })) });
  const won = doc({ at: 30_650, isr: [0, 1], hw: 10, leo2: 0 });
  const appendedThenTimedOut = (d) => { d.responses[0].partitions[0].base_offset = 0; return d; };
  const lost = appendedThenTimedOut(doc({ error: 'REQUEST_TIMED_OUT', at: 31_040, isr: [0, 1], hw: 10, leo2: 0 }));
  const out = compare(scenario('g', paused), doc({ error: 'REQUEST_TIMED_OUT', at: 31_000, isr: [0, 1], leo2: 0 }), at(495, won), at(7300, lost));
  assert.deepEqual(out.phases, [{ 0: 495, 1: 0, 2: 0 }, { 0: 7300, 1: 0, 2: 0 }]);
  assert.equal(field(out, 'p1.errors').verdict, 'agree', JSON.stringify(field(out, 'p1.errors')));
  assert.equal(out.verdict, 'agree', JSON.stringify(out.fields.filter((f) => f.verdict !== 'agree')));
  // Without the beats the model runs at the file's phase (0, a timeout) and the won run disagrees.
  const blind = compare(scenario('h', paused), doc({ error: 'REQUEST_TIMED_OUT', at: 31_000, isr: [0, 1], leo2: 0 }), won);
  assert.equal(field(blind, 'p1.errors').verdict, 'disagree');
});

test('a connection dropped before any answer compares only the drop', () => {
  // The model knows where the records went (base offset 10); the client never learns it.
  const crashed = (d, parts) => { d.responses[0] = { ...d.responses[0], responded_ms: null, connection_closed: true, partitions: parts }; return d; };
  const model = crashed(doc(), [{ topic: 't', partition: 0, error: null, base_offset: 10 }]);
  const out = compare(scenario('i', [produce]), model, crashed(doc(), undefined), crashed(doc(), undefined));
  assert.deepEqual(out.fields.filter((f) => f.field.startsWith('p1')).map((f) => [f.field, f.verdict]), [['p1.connection_closed', 'agree']]);
  // One that Kafka answered while the model dropped it still disagrees.
  const answered = compare(scenario('j', [produce]), model, doc());
  assert.equal(field(answered, 'p1.connection_closed').verdict, 'disagree');
});

test("a producer that gave up on its own compares when it did, not the broker's answer it never read", () => {
  const gaveUp = (at) => {
    const d = doc({ at: null });
    Object.assign(d.responses[0], { client_timed_out_ms: at, partitions: [] });
    return d;
  };
  const model = doc({ at: 45010 });
  model.responses[0].client_timed_out_ms = 11001;
  const patient = { ...produce, timeout_ms: 60000 };
  const out = compare(scenario('g', [{ at_ms: 0, action: 'pause_follower', broker: 2 }, patient]), model, gaveUp(11003), gaveUp(11040));
  assert.equal(out.verdict, 'agree');
  assert.deepEqual(out.fields.filter((f) => f.field.startsWith('p1')).map((f) => f.field), ['p1.client_timed_out_ms', 'p1.connection_closed']);
  const late = compare(scenario('h', [patient]), model, gaveUp(12000));
  assert.equal(field(late, 'p1.client_timed_out_ms').verdict, 'disagree');
  const read = compare(scenario('i', [patient]), model, doc({ at: 45010 }));
  assert.equal(field(read, 'p1.client_timed_out_ms').verdict, 'disagree', 'Kafka\'s client read an answer the model says it gave up on');
});

test('the page words a recorded difference for people, and leaves what it cannot read as written', () => {
  assert.equal(differenceWords('p0009.base_offsets: model [["t-0 @9"],["t-0 @9"]], Kafka ["t-0 @8"] / ["t-0 @8"]'), 'p0009 base offsets: model t-0 @9, Kafka t-0 @8');
  assert.equal(differenceWords('p0000.base_offsets: model [["t-0 @0"],["t-0 @0"]], Kafka ["t-0 @4"] / ["t-0 @3"]'), 'p0000 base offsets: model t-0 @0, Kafka t-0 @4 / t-0 @3');
  assert.equal(differenceWords('t-0.leo[2]: model [10,10], Kafka 0 / 0'), 't-0 leo[2]: model 10, Kafka 0');
  assert.equal(differenceWords('a note without the shape'), 'a note without the shape');
  // Every difference the record holds is read (none left raw).
  const record = JSON.parse(readFileSync(new URL('../docs/kafka-check.json', import.meta.url), 'utf8'));
  const items = Object.values(record.scenarios).flatMap((v) => [...(v.explained ?? []), ...(v.disagree ?? [])]);
  assert.ok(items.length > 0);
  for (const item of items) assert.doesNotMatch(differenceWords(item), /\[\[|"/, item);
});
