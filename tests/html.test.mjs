// The `html` tag (www/html.js): everything interpolated is text unless it is markup the tag made,
// and the places a string could still become script are refused when the template is made.
//
//   node --test tests/html.test.mjs      (scripts/test.sh runs it with the other node tests)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { html, join, render, renderAdjacent, Html } from '../www/html.js';

const HOSTILE = `<img src=x onerror="alert(1)">'\`&amp;`;

test('a string is text: every markup character is escaped', () => {
  assert.equal(html`<b>${HOSTILE}</b>`.text, '<b>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&#39;&#96;&amp;amp;</b>');
});

test('in a quoted attribute a string cannot end the attribute', () => {
  assert.equal(html`<p title="${'" onmouseover="x'}"></p>`.text, '<p title="&quot; onmouseover=&quot;x"></p>');
  assert.equal(html`<p title='${"' onmouseover='x"}'></p>`.text, "<p title='&#39; onmouseover=&#39;x'></p>");
});

test('markup made by the tag is kept, nested to any depth', () => {
  const inner = html`<i>${'a<b'}</i>`;
  assert.equal(html`<b>${inner}</b>`.text, '<b><i>a&lt;b</i></b>');
  assert.equal(html`${html`${html`<br>`}`}`.text, '<br>');
});

test('arrays are their items in order; each item text or markup', () => {
  const items = ['<x>', html`<y></y>`, 3];
  assert.equal(html`<p>${items}</p>`.text, '<p>&lt;x&gt;<y></y>3</p>');
  assert.equal(html`<ul>${['a', 'b'].map((s) => html`<li>${s}</li>`)}</ul>`.text, '<ul><li>a</li><li>b</li></ul>');
});

test('null, undefined and false are nothing; 0 and true are their text', () => {
  assert.equal(html`[${null}${undefined}${false}]`.text, '[]');
  assert.equal(html`[${0}|${true}|${-1.5}]`.text, '[0|true|-1.5]');
});

test('a plain object that pretends to be markup is text', () => {
  const fake = { text: '<script>alert(1)</script>', toString() { return this.text; } };
  assert.equal(html`${fake}`.text, '&lt;script&gt;alert(1)&lt;/script&gt;');
  assert.throws(() => new Html(Symbol('html'), '<b>'), TypeError);
  assert.ok(Object.isFrozen(html`<b></b>`));
});

test('join puts a separator between items, itself text or markup', () => {
  assert.equal(join(['a', '<b>'], ', ').text, 'a, &lt;b&gt;');
  assert.equal(join([html`<i>x</i>`, 'y'], html`<br>`).text, '<i>x</i><br>y');
  assert.equal(join([], ', ').text, '');
});

test('a URL attribute refuses a script scheme, however it is spelt', () => {
  for (const url of ['javascript:alert(1)', ' JavaScript:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<script>', 'vbscript:x']) {
    assert.equal(html`<a href="${url}">x</a>`.text, '<a href="about:invalid">x</a>', url);
  }
  assert.equal(html`<a href="${'#session=abc'}">x</a>`.text, '<a href="#session=abc">x</a>');
  assert.equal(html`<a href="${'https://kafka.apache.org/?a=1&b=2'}">x</a>`.text, '<a href="https://kafka.apache.org/?a=1&amp;b=2">x</a>');
  // Not a URL attribute: the text is kept as text.
  assert.equal(html`<p title="${'javascript:x'}"></p>`.text, '<p title="javascript:x"></p>');
});

test('the unsafe places for an interpolation are refused when the template is made', () => {
  const v = 'x';
  assert.throws(() => html`<p class=${v}></p>`, /outside a quoted attribute value/);
  assert.throws(() => html`<p onclick="${v}"></p>`, /event handler/);
  assert.throws(() => html`<p onclick='go(${v})'></p>`, /event handler/);
  assert.throws(() => html`<script>${v}</script>`, /<script> or <style>/);
  assert.throws(() => html`<style>p { color: ${v} }</style>`, /<script> or <style>/);
  assert.throws(() => html`<p ${v}></p>`, /inside a tag/);
  assert.throws(() => html`<${v}>`, /inside a tag/);
  assert.throws(() => html`<p class="a" ${v}></p>`, /inside a tag/);
  // The safe places next to them are fine.
  assert.equal(html`<p class="a" title="${v}" data-on="${v}">${v}</p><style>p{}</style>${v}`.text, '<p class="a" title="x" data-on="x">x</p><style>p{}</style>x');
  assert.equal(html`<p title='it&#39;s ${v}' class="${v}"></p>`.text, "<p title='it&#39;s x' class=\"x\"></p>");
  // An equals sign in text is text: acks=${v} names a value, not an attribute.
  assert.equal(html`<p>acks=${v}, a = ${v}</p>`.text, '<p>acks=x, a = x</p>');
  assert.equal(html`<p>${v} > ${v}</p><a href="${'javascript:x'}">${'javascript:x'}</a>`.text, '<p>x > x</p><a href="about:invalid">javascript:x</a>');
});

test('render and renderAdjacent take only markup made by the tag', () => {
  const el = {
    innerHTML: '',
    insertAdjacentHTML(where, s) { this.innerHTML += `[${where}]${s}`; },
  };
  render(el, html`<b>${HOSTILE}</b>`);
  assert.equal(el.innerHTML, html`<b>${HOSTILE}</b>`.text);
  renderAdjacent(el, 'beforeend', html`<i></i>`);
  assert.ok(el.innerHTML.endsWith('[beforeend]<i></i>'));
  for (const plain of ['<img src=x onerror=alert(1)>', null, undefined, 3, { text: '<b>' }]) {
    assert.throws(() => render(el, plain), /takes markup made by html``/);
    assert.throws(() => renderAdjacent(el, 'beforeend', plain), /takes markup made by html``/);
  }
});
