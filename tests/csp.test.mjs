// The shipped pages carry the strict Content-Security-Policy of scripts/csp.mjs, and nothing in
// them needs more: no inline script (but the self-contained page's one, allowed by its hash), no
// handler attribute, no javascript: URL. That they work under it is the e2e run's part (every spec
// fails on a console error, and a CSP or Trusted Types refusal is one).
//
//   node --test tests/csp.test.mjs      (after `npm run build`, which writes dist/)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { PAGE_CSP, cspMeta, standaloneCsp } from '../scripts/csp.mjs';

const read = (rel) => {
  const url = new URL(`../${rel}`, import.meta.url);
  if (!existsSync(url)) throw new Error(`${rel} is missing${rel.startsWith('dist/') ? ": run 'npm run build' first" : ''}`);
  return readFileSync(url, 'utf8');
};

/** The inline scripts of a page (a <script> without src), their text as it stands. */
const inlineScripts = (page) => [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
  .filter(([, attrs]) => !/\bsrc\s*=/.test(attrs))
  .map(([, , body]) => body);

/** The markup of a page outside its scripts and styles. */
const markupOf = (page) => page.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/gi, '');

function checkMarkup(rel, page) {
  const markup = markupOf(page);
  assert.doesNotMatch(markup, /\son[a-z]+\s*=/i, `${rel}: a handler attribute`);
  assert.doesNotMatch(markup, /javascript:/i, `${rel}: a javascript: URL`);
  // The policy comes first in <head>, before anything it governs.
  const head = page.slice(0, page.indexOf('</head>'));
  assert.ok(head.indexOf('Content-Security-Policy') < head.search(/<(script|link|style)\b/i), `${rel}: the CSP <meta> must come before the first script, link or style`);
}

for (const rel of ['index.html', 'docs/index.html', 'docs/zh-CN/index.html']) {
  test(`${rel} carries the page policy and has no inline script`, () => {
    const page = read(rel);
    assert.ok(page.includes(cspMeta(PAGE_CSP)), `${rel} lacks ${cspMeta(PAGE_CSP)}`);
    assert.deepEqual(inlineScripts(page), [], `${rel}: an inline script (the policy would refuse it)`);
    checkMarkup(rel, page);
  });
}

test('the self-contained page allows its one inline script by hash, and nothing else', () => {
  const page = read('dist/purgatory-playground.html');
  const scripts = inlineScripts(page);
  assert.equal(scripts.length, 1, 'one inline module script');
  const hash = createHash('sha256').update(scripts[0], 'utf8').digest('base64');
  assert.ok(page.includes(cspMeta(standaloneCsp(hash))), 'the page policy names the hash of its script');
  assert.doesNotMatch(page, /'unsafe-eval'|'unsafe-inline'[^;]*script|script-src[^;]*'self'/, 'no looser script source');
  checkMarkup('dist/purgatory-playground.html', page);
});

test('the policy is strict where it matters', () => {
  const directives = Object.fromEntries(PAGE_CSP.split(/;\s*/).map((d) => { const [k, ...v] = d.split(' '); return [k, v]; }));
  assert.deepEqual(directives['script-src'], ["'self'", "'wasm-unsafe-eval'"]);
  assert.deepEqual(directives['object-src'], ["'none'"]);
  assert.deepEqual(directives['base-uri'], ["'none'"]);
  assert.deepEqual(directives['require-trusted-types-for'], ["'script'"]);
  assert.deepEqual(directives['trusted-types'], ['purgatory-playground']);
});

test('the Kafka check report runs nothing and loads nothing', () => {
  const page = read('dist/kafka-check.html');
  assert.match(page, /<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
  assert.doesNotMatch(page, /script-src/, 'no script source at all');
  assert.deepEqual(inlineScripts(page), []);
  assert.doesNotMatch(page, /<script\b/i);
  checkMarkup('dist/kafka-check.html', page);
});
