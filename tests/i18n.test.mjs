// The message catalogues (www/i18n/): every language has every key of the English source, with
// the same variables and the same plural forms its language needs; Kafka's own words (config and
// method names, error codes, acks=…) survive translation; the Chinese reads as Chinese, with no
// Latin word outside Kafka's vocabulary; and numbers are written as Intl writes them.
//
//   node --test tests/i18n.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import EN from '../www/i18n/en/index.js';
import ZH from '../www/i18n/zh-CN/index.js';
import { Translator, languageFor } from '../www/i18n.js';
import { fmt } from '../www/views/dom.js';
import { kafkaWords, strayLatin } from './i18n-vocabulary.mjs';
import { readFileSync } from 'node:fs';
import { hitText, markerText, reasonMessage } from '../www/says.js';
import { changeWords } from '../www/what-if-words.js';
import { outcomeWords, outcomeIsGood } from '../www/outcome-words.js';

const CATALOGUES = { 'zh-CN': ZH };
/** The Kafka check record, whose reasons for not checking a scenario are English messages too. */
const RECORD = JSON.parse(readFileSync(new URL('../docs/kafka-check.json', import.meta.url), 'utf8'));
/** A message's English: the catalogue's, or the record's reason that `kafkaCheck.reason.NAME` words. */
const english = (key) => EN[key] ?? RECORD.scenarios[key.replace(/^kafkaCheck\.reason\./, '')]?.reason;

const variables = (message) => [...message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const forms = (message) => (typeof message === 'string' ? { other: message } : message);

test('every language has exactly the English keys', () => {
  for (const [lang, messages] of Object.entries(CATALOGUES)) {
    const missing = Object.keys(EN).filter((k) => !(k in messages));
    // The reasons a scenario was not checked against Kafka: English in the record itself.
    const extra = Object.keys(messages).filter((k) => !(k in EN) && !k.startsWith('kafkaCheck.reason.'));
    assert.deepEqual(missing, [], `${lang} lacks these keys`);
    assert.deepEqual(extra, [], `${lang} has keys English does not`);
  }
});

test('a message has the same variables in every language, and no empty form', () => {
  const problems = [];
  for (const [lang, messages] of Object.entries(CATALOGUES)) {
    for (const [key, source] of Object.entries(EN)) {
      const want = variables(forms(source).other).join(',');
      for (const [form, text] of Object.entries(forms(messages[key] ?? ''))) {
        if (!text.trim() && forms(source).other.trim()) problems.push(`${lang} ${key}.${form} is empty`);
        if (variables(text).join(',') !== want) problems.push(`${lang} ${key}.${form}: variables {${variables(text)}}, English has {${want}}`);
      }
      const plurals = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
      if (typeof source === 'object' && !plurals.every((c) => c in forms(messages[key]) || c === 'other')) {
        problems.push(`${lang} ${key}: lacks plural forms of ${plurals.join(', ')}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});


test('Kafka’s own words survive translation', () => {
  const problems = [];
  for (const [lang, messages] of Object.entries(CATALOGUES)) {
    for (const [key, source] of Object.entries(EN)) {
      for (const word of kafkaWords(forms(source).other)) {
        if (!forms(messages[key]).other.includes(word)) problems.push(`${lang} ${key}: lost "${word}"`);
      }
    }
  }
  assert.deepEqual(problems, []);
});


test('the Chinese catalogue has no Latin word outside Kafka’s vocabulary', () => {
  const problems = [];
  for (const [key, message] of Object.entries(ZH)) {
    for (const text of Object.values(forms(message))) {
      const stray = strayLatin(text.replace(/\{\w+\}/g, ' '), kafkaWords(forms(english(key)).other));
      if (stray.length) problems.push(`${key}: ${stray.join(', ')}`);
    }
  }
  assert.deepEqual(problems, []);
});

test('messages fill their variables, numbers as the language writes them', () => {
  const en = new Translator('en', EN);
  assert.equal(en.t('link.opened', { at: 45000 }), "Opened the link's session at 45,000 ms.");
  const zh = new Translator('zh-CN', ZH);
  assert.equal(zh.t('link.opened', { at: 45000 }), `已打开链接中的会话，位于 ${new Intl.NumberFormat('zh-CN').format(45000)} ms。`);
  // English groups by hand (no ICU set-up in the first frame): the same text as Intl's.
  for (const n of [0, 7, 999, 1000, 45010, 1234567, 604800000, 0.5, -1200]) {
    assert.equal(fmt(n), new Intl.NumberFormat('en').format(n), `fmt(${n})`);
  }
});

test('Chinese sets no space beside full-width punctuation, and keeps it beside a Latin word', () => {
  const zh = new Translator('zh-CN', ZH);
  // The template's space before 时 is right after "p1" and wrong after "）".
  const event = 'p1 的 ISR 提交（partition epoch 1）';
  assert.equal(zh.t('why.hw.event', { event, tp: 't-0', to: 3 }), `${event}时，t-0 的 HW 到达了 3`);
  assert.equal(zh.t('why.hw.event', { event: 'p1', tp: 't-0', to: 3 }), 'p1 时，t-0 的 HW 到达了 3');
  const en = new Translator('en', EN);
  assert.equal(en.t('why.hw.event', { event: 'x (y)', tp: 't-0', to: 3 }), 'the HW of t-0 reached 3 when x (y)');
});

test('every reason the trace gives (src/kafka/reasons.rs) has its message, the same in English', () => {
  const source = readFileSync(new URL('../src/kafka/reasons.rs', import.meta.url), 'utf8');
  const items = source.match(/^pub (const|fn) /gm).length;
  // Each text, its `{variable}`s filled as the model would fill them.
  const reasons = [...source.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\{\w+\}/g, '3'));
  assert.equal(reasons.length, items, 'one text per reason');
  const en = new Translator('en', EN);
  for (const reason of reasons) {
    const message = reasonMessage(reason);
    assert.ok(message, `www/says.js does not word "${reason}"`);
    assert.equal(en.t(message.key, message.vars), reason);
  }
});

test('every marker and breakpoint hit the model sends is worded in each language', () => {
  // One of each `what` of src/session/history.rs `Says` and breakpoints.rs `HitSays`.
  const markers = [
    { what: 'sent', request: 'p1', acks: -1, broker: 0 },
    { what: 'answered', request: 'p1', error: 'REQUEST_TIMED_OUT', latency_ms: 30000 },
    { what: 'closed', request: 'p1' },
    { what: 'expired', request: 'p1', partitions: ['t-0', 't-1'] },
    { what: 'hw', tp: 't-0', from: 0, to: 10, leader: 0 },
    { what: 'shrink', leader: 0, tp: 't-0', isr: [0, 1] },
    { what: 'expand', leader: 0, tp: 't-0', isr: [0, 1, 2] },
    { what: 'committed', tp: 't-0', isr: [0, 1] },
    { what: 'fenced', broker: 2 }, { what: 'unfenced', broker: 2 },
    { what: 'lost', request: 'p1', tp: 't-0', first_offset: 0, last_offset: 9, leader: 1 },
    { what: 'leader', broker: 1, tp: 't-0', epoch: 2 },
    { what: 'purged', broker: 0, removed: 1 }, { what: 'purged', broker: 0, removed: 1001 },
    { what: 'paused', broker: 2 }, { what: 'resumed', broker: 2 }, { what: 'crashed', broker: 2 }, { what: 'restarted', broker: 2 },
    { what: 'ignored', action: 'crash_broker', reason: 'broker 2 is already down' },
  ];
  const hits = [
    { what: 'answered', request: 'p1', outcome: 'NONE' }, { what: 'closed', request: 'p1' },
    { what: 'expired', request: 'p1' }, { what: 'expired', request: null },
    { what: 'committed', tp: 't-0', isr: [0, 1] }, { what: 'purged', broker: 0, removed: 3 },
    { what: 'below_min', tp: 't-0', size: 1, min: 2 }, { what: 'leader', tp: 't-0', leader: 1 },
    { what: 'leader', tp: 't-0', leader: null }, { what: 'stalled', tp: 't-0', waited_ms: 5000 },
  ];
  const en = new Translator('en', EN);
  assert.equal(markerText(markers[1], en), 'p1 answered REQUEST_TIMED_OUT after 30,000 ms');
  assert.equal(markerText(markers[12], en), 'broker 0 purged 1 completed entry');
  assert.equal(hitText(hits[6], en), 'the ISR of t-0 dropped to 1 replica, below min.insync.replicas 2');
  for (const [lang, messages] of Object.entries({ en: EN, ...CATALOGUES })) {
    const tr = new Translator(lang, messages);
    const texts = [...markers.map((m) => markerText(m, tr)), ...hits.map((h) => hitText(h, tr))];
    for (const text of texts) assert.doesNotMatch(text, /\{\w+\}|undefined|^(sent|answered|closed|expired)$/, `${lang}: ${text}`);
    if (lang !== 'en') assert.deepEqual(strayLatin(texts.join('\n'), ['p1', 't-0', 't-1']), [], `${lang}: ${texts.join(' | ')}`);
  }
});

test('a what-if’s change and outcomes read as the runner writes them in English, and in Chinese', () => {
  const en = new Translator('en', EN);
  const zh = new Translator('zh-CN', ZH);
  for (const name of ['w01-acks1-against-all-leader-crash', 'w02-min-isr-1-against-2-with-a-follower-down', 'w03-request-early-against-late-in-a-stall']) {
    const scenario = JSON.parse(readFileSync(new URL(`../scenarios/${name}.json`, import.meta.url), 'utf8'));
    const golden = readFileSync(new URL(`../scenarios/golden/compare/${name}.txt`, import.meta.url), 'utf8');
    const runnerWords = /^B: (.*)$/m.exec(golden)[1];
    assert.equal(changeWords(scenario.compare, scenario.actions, en), runnerWords, name);
    const chinese = changeWords(scenario.compare, scenario.actions, zh);
    assert.deepEqual(strayLatin(chinese, scenario.actions.map((a) => a.id).filter(Boolean)), [], chinese);
  }
  const actions = [{ at_ms: 0, action: 'pause_follower', broker: 2 }, { at_ms: 1000, action: 'produce', id: 'p1' }];
  assert.equal(changeWords('actions[0].at_ms=25000', actions, en), "broker 2's pause at 25,000 ms instead of 0 ms");
  assert.equal(changeWords('actions[1]=removed', actions, en), 'without p1');
  assert.equal(changeWords('actions[1].timeout_ms=5000', actions, en), 'p1 with timeout_ms 5,000');
  assert.equal(changeWords('timeout_ms=5000', actions, zh), '所有请求都用 timeout_ms 5,000');
});

test('what a producer got reads as the runner writes it in English, and in Chinese', () => {
  const en = new Translator('en', EN);
  const zh = new Translator('zh-CN', ZH);
  // The parts as the model sends them (src/sweep.rs, `Outcome`), with the runner's label for each
  // (`Outcome::label`, as the compare and sweep goldens hold them).
  const cases = [
    [{ errors: ['NONE'], connection_closed: false }, 'NONE'],
    [{ errors: ['REQUEST_TIMED_OUT', null], connection_closed: false }, 'REQUEST_TIMED_OUT + no answer'],
    [{ errors: [null], connection_closed: true }, 'no answer, connection closed'],
    [{ errors: [null], connection_closed: false, client_timed_out: true }, 'no answer, timed out in the producer'],
    [{ errors: [null, null], connection_closed: true, client_timed_out: true }, 'no answer + no answer, connection closed, timed out in the producer'],
  ];
  for (const [outcome, label] of cases) {
    assert.equal(outcomeWords(outcome, en), label);
    const chinese = outcomeWords(outcome, zh);
    assert.doesNotMatch(chinese, /no answer|connection|timed out|\{/, chinese);
  }
  assert.equal(outcomeWords(cases[3][0], zh), '无响应，生产者自己超时');
  assert.equal(outcomeIsGood(cases[0][0]), true);
  for (const [outcome] of cases.slice(1)) assert.equal(outcomeIsGood(outcome), false, JSON.stringify(outcome));
  // The runner's own text: a compare golden holds the closed connection's label.
  const golden = readFileSync(new URL('../scenarios/golden/compare/w01-acks1-against-all-leader-crash.txt', import.meta.url), 'utf8');
  assert.match(golden, /no answer, connection closed/);
});

test('a language tag finds its catalogue', () => {
  for (const tag of ['zh', 'zh-CN', 'zh_CN', 'ZH-cn', 'zh-Hans', 'zh-Hans-CN', 'zh-SG']) assert.equal(languageFor(tag), 'zh-CN', tag);
  for (const tag of ['en', 'en-US', 'de', 'zh-TW', 'zh-HK', 'zh-Hant', 'zh-Hant-TW', '', null, undefined, 'zhx']) assert.equal(languageFor(tag), 'en', String(tag));
});

test('every event the model traces has its own sentence in the log', () => {
  // The variants of `enum Event` in src/kafka/trace.rs, as serde names them (snake_case).
  const rust = readFileSync(new URL('../src/kafka/trace.rs', import.meta.url), 'utf8');
  const body = rust.slice(rust.indexOf('pub enum Event {'), rust.indexOf('\n}\n', rust.indexOf('pub enum Event {')));
  const events = [...body.matchAll(/^ {4}([A-Z]\w*)\b/gm)].map((m) => m[1].replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase());
  assert.ok(events.length > 40, `found ${events.length} events`);
  const narrate = readFileSync(new URL('../www/narrate.js', import.meta.url), 'utf8');
  const start = narrate.indexOf('export function narrate(');
  const sentences = narrate.slice(start, narrate.indexOf('\n}\n', start));
  const missing = events.filter((e) => !new RegExp(`case '${e}': (return t\\(|\\{)`).test(sentences));
  assert.deepEqual(missing, [], 'events that would be written as raw JSON');
});

test('every language words each reason the Kafka check record gives for a scenario it did not check', () => {
  const reasons = Object.entries(RECORD.scenarios).filter(([, s]) => s.reason).map(([name]) => `kafkaCheck.reason.${name}`).sort();
  assert.ok(reasons.length > 0, 'the record has reasons');
  for (const [lang, messages] of Object.entries(CATALOGUES)) {
    if (lang === 'en') continue;
    assert.deepEqual(Object.keys(messages).filter((k) => k.startsWith('kafkaCheck.reason.')).sort(), reasons, lang);
  }
});
