// The model's refusals read back and worded in each language (www/error-words.js). A sweep of
// bad input through the shipped module: every field of five curated scenarios set to each wrong
// kind of value, removed, misspelt and joined by an unknown one; broken JSON; bad what-if changes
// and breakpoints. Every message it makes must read back against the English templates to the
// very same bytes, and in Chinese keep no English sentence words (paths, code and the file's own
// values stay as written).
//
//   npm run build && node --test tests/error-words.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import EN from '../www/i18n/en/index.js';
import ZH from '../www/i18n/zh-CN/index.js';
import { Translator } from '../www/i18n.js';
import { errorWords, readError } from '../www/error-words.js';

const PKG = new URL('../www/pkg/', import.meta.url);
for (const file of ['purgatory_playground.js', 'purgatory_playground_bg.wasm']) {
  if (!existsSync(new URL(file, PKG))) throw new Error(`www/pkg/${file} is missing: run 'npm run build' first`);
}
const glue = readFileSync(new URL('purgatory_playground.js', PKG), 'utf8');
const bindings = await import(`data:text/javascript;base64,${Buffer.from(glue).toString('base64')}`);
bindings.initSync({ module: new WebAssembly.Module(readFileSync(new URL('purgatory_playground_bg.wasm', PKG))) });
const { Playground } = bindings;

const BASES = [
  's03-stalled-follower-completes-at-isr-shrink', 'w01-acks1-against-all-leader-crash',
  'x12-stalled-follower-race-on-kafka-defaults', 's10-multi-partition-request', 'x04-crashed-follower-restarts-and-rejoins-isr',
].map((name) => JSON.parse(readFileSync(new URL(`../scenarios/${name}.json`, import.meta.url), 'utf8')));
const WRONG = [null, true, -1, 0, 1.5, 1e30, '', 'x', 'all', 'a b', 'x'.repeat(300), [], [1], {}, { q: 1 }, 99999999999];
const copy = (value) => JSON.parse(JSON.stringify(value));

/** Every path into `value` (arrays: their first four items). */
function* paths(value, path = []) {
  yield path;
  if (Array.isArray(value)) for (let i = 0; i < Math.min(value.length, 4); i++) yield* paths(value[i], [...path, i]);
  else if (value && typeof value === 'object') for (const key of Object.keys(value)) yield* paths(value[key], [...path, key]);
}

/** `doc` with the value at `path` replaced (or, without `value`, removed). */
function edited(doc, path, ...value) {
  if (!path.length) return value[0];
  const out = copy(doc);
  const parent = path.slice(0, -1).reduce((o, k) => o[k], out);
  const last = path.at(-1);
  if (value.length) parent[last] = value[0];
  else if (Array.isArray(parent)) parent.splice(last, 1);
  else delete parent[last];
  return out;
}

/** The message of what `f` throws (an error is what the sweep wants; a success gives none). */
function thrown(f) {
  try {
    f();
    return null;
  } catch (e) {
    return String(e.message);
  }
}

function sweep() {
  const messages = new Set();
  const add = (m) => m != null && messages.add(m);
  const open = (doc) => add(thrown(() => Playground.fromScenario(typeof doc === 'string' ? doc : JSON.stringify(doc)).free()));
  for (const base of BASES) {
    for (const path of paths(base)) {
      for (const value of WRONG) open(edited(base, path, value));
      if (path.length) open(edited(base, path));
      const here = path.reduce((o, k) => o[k], base);
      if (here && typeof here === 'object' && !Array.isArray(here)) {
        open(edited(base, [...path, 'bogus'], 1));
        const first = Object.keys(here)[0];
        if (first) open(edited(base, [...path, `${first}s`], 1));
      }
    }
  }
  for (const text of ['', '{', '{"a":1,}', '[1,2', '{"a":1,"a":2}', 'nul', '{"name": "x"', '"str"', '123', '{"a" 1}', '[1 2]']) open(text);
  const session = Playground.fromScenario(JSON.stringify(BASES[0]));
  for (const change of ['acks=7', 'acks=x', 'x', 'min.insync.replicas=0', 'min.insync.replicas=abc', 'nope=1', 'actions[9].at_ms=5',
    'actions[x].at_ms=1', 'actions[0]=5', 'actions[0].broker=1', 'actions[0].acks=1', 'timeout_ms=-5', 'actions[1].at_ms=99999999999',
    'replica.lag.time.max.ms=0', 'a'.repeat(300), 'actions[1=removed']) add(thrown(() => session.whatIf(change)));
  for (const spec of [{ hw_stalled_ms: -1 }, { hw_stalled_ms: 'x' }, { answered: 5 }, { answered: {} }, { bogus: true }, { expiry: 3 }]) {
    add(thrown(() => session.setBreakpoints(spec)));
  }
  session.free();
  return [...messages];
}

const MESSAGES = sweep();
const en = new Translator('en', EN);
const zh = new Translator('zh-CN', ZH);
/** The words of the English sentences, which a Chinese one must not keep. */
const ENGLISH = /\b(expected|found|required|unknown|missing|characters|while|parsing|integer|string|object|array|duplicate|already|change|scenario's|whole number|captions go)\b/;

/** Every message key a reading uses, its pieces' too. */
function* keys(reading) {
  if (!reading || typeof reading === 'string') return;
  yield reading.key;
  for (const value of Object.values(reading.vars)) yield* keys(value);
}

test('the sweep makes many kinds of refusal', () => {
  const kinds = new Set(MESSAGES.flatMap((m) => [...keys(readError(m))]));
  assert.ok(MESSAGES.length >= 1000, `${MESSAGES.length} messages`);
  assert.ok(kinds.size >= 50, `${kinds.size} kinds of sentence and piece: ${[...kinds]}`);
});

test('every refusal reads back against the English templates, to the same bytes', () => {
  const unread = MESSAGES.filter((m) => !readError(m));
  assert.deepEqual(unread, [], 'messages no template reads');
  for (const m of MESSAGES) assert.equal(errorWords(m, en), m);
});

test('in Chinese, a refusal keeps its path, code and values and no English sentence', () => {
  for (const m of MESSAGES) {
    const text = errorWords(m, zh);
    const words = text.replace(/`[^`]*`|"(?:[^"\\]|\\.)*"/g, ' ');
    assert.match(text, /[\u4e00-\u9fff]/, text);
    assert.doesNotMatch(words, ENGLISH, `${m}\n${text}`);
  }
  const said = (m) => errorWords(m, zh);
  assert.equal(said('actions[0].acks: expected an integer or "all", found 7.5'), 'actions[0].acks：应为：整数或 "all"；实际是：7.5');
  assert.equal(said('config.brokers: required field is missing; expected an integer from 1 to 64'), 'config.brokers：缺少必填字段；应为：1 到 64 之间的整数');
  assert.equal(said('scenario: not JSON: trailing comma at line 1 column 8'), 'scenario：不是 JSON：第 1 行第 8 列：多了一个结尾的逗号');
  assert.equal(said('a message the model never writes'), 'a message the model never writes');
});
