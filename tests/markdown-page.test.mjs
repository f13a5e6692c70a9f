// scripts/markdown-page.mjs: the Kafka check's Markdown record as a page. Every piece of text is
// escaped, a link goes only to an anchor, an https address or a relative one, and each section has
// the anchor the record's own links (GitHub's) use.
//
//   node --test tests/markdown-page.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { anchorOf, markdownBody } from '../scripts/markdown-page.mjs';

test('headings, paragraphs, lists, tables and code spans, all text escaped', () => {
  const body = markdownBody('# Title <b>\n\nline one\nline `a<b|c>` two\n\n- x & y\n- z\n\n| a | b |\n|---|---|\n| 1 | `p\\|q` |\n\n## s02-x');
  assert.equal(body, [
    '<h1>Title &#60;b&#62;</h1>',
    '<p>line one line <code>a&#60;b|c&#62;</code> two</p>',
    '<ul><li>x &#38; y</li><li>z</li></ul>',
    '<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td><code>p|q</code></td></tr></tbody></table>',
    '<h2 id="s02-x">s02-x</h2>',
  ].join('\n'));
});

test('links go to anchors, https and relative addresses only', () => {
  const body = markdownBody('[a](#s01) [b](https://kafka.apache.org/) [c](scenario-format.md) [d](javascript:alert(1)) [e](data:text/html,x) [f](" onmouseover="x)');
  assert.match(body, /<a href="#s01">a<\/a> <a href="https:\/\/kafka.apache.org\/">b<\/a> <a href="scenario-format.md">c<\/a>/);
  assert.doesNotMatch(body, /href="(javascript|data):/);
  assert.doesNotMatch(body, /onmouseover="/);
});

test("every link of the record reaches a section of the page", () => {
  const body = markdownBody(readFileSync(new URL('../docs/kafka-check.md', import.meta.url), 'utf8'));
  const ids = new Set([...body.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));
  const targets = [...body.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]);
  assert.ok(targets.length >= 20, `the record links its scenarios: ${targets.length}`);
  assert.deepEqual(targets.filter((t) => !ids.has(t)), []);
  assert.equal(anchorOf('Checked against Apache Kafka'), 'checked-against-apache-kafka');
});
