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

const CATALOGUES = { 'zh-CN': ZH };

const variables = (message) => [...message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const forms = (message) => (typeof message === 'string' ? { other: message } : message);

test('every language has exactly the English keys', () => {
  for (const [lang, messages] of Object.entries(CATALOGUES)) {
    const missing = Object.keys(EN).filter((k) => !(k in messages));
    const extra = Object.keys(messages).filter((k) => !(k in EN));
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
      const stray = strayLatin(text.replace(/\{\w+\}/g, ' '), kafkaWords(forms(EN[key]).other));
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

test('a language tag finds its catalogue', () => {
  for (const tag of ['zh', 'zh-CN', 'zh_CN', 'ZH-cn', 'zh-Hans', 'zh-Hans-CN', 'zh-SG']) assert.equal(languageFor(tag), 'zh-CN', tag);
  for (const tag of ['en', 'en-US', 'de', 'zh-TW', 'zh-HK', 'zh-Hant', 'zh-Hant-TW', '', null, undefined, 'zhx']) assert.equal(languageFor(tag), 'en', String(tag));
});
