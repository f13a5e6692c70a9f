// Markup reaches the DOM in one place only: www/html.js. Any other file of the page or the element
// that writes HTML through a string sink (innerHTML, outerHTML, insertAdjacentHTML,
// document.write, a parser of HTML text, srcdoc) or evaluates text as code fails here, with the
// file, the line and what to use instead.
//
//   node --test tests/markup-lint.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WWW = join(ROOT, 'www');
/** The one module allowed to hand markup to the DOM. */
const SINK_MODULE = join(WWW, 'html.js');

const SINKS = [
  [/\.innerHTML\b/, 'innerHTML'],
  [/\.outerHTML\b/, 'outerHTML'],
  [/\binsertAdjacentHTML\b/, 'insertAdjacentHTML'],
  [/\bsetHTMLUnsafe\b|\bparseHTMLUnsafe\b/, 'setHTMLUnsafe'],
  [/\bdocument\.write(?:ln)?\b/, 'document.write'],
  [/\bcreateContextualFragment\b/, 'createContextualFragment'],
  [/\bDOMParser\b/, 'DOMParser'],
  [/\bsrcdoc\b/, 'srcdoc'],
  [/\beval\s*\(|\bnew\s+Function\s*\(/, 'eval'],
  [/\besc\s*\(/, 'a hand-called escaper'],
];

function sources(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'pkg' || name === 'node_modules') continue; // generated (wasm-bindgen's glue)
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (/\.(m?js|html)$/.test(name)) out.push(path);
  }
  return out;
}

/** The code of a line without its comment (a line comment, or the inside of a block comment). */
function code(line, inBlock) {
  let text = line;
  if (inBlock.on) {
    const end = text.indexOf('*/');
    if (end < 0) return '';
    text = text.slice(end + 2);
    inBlock.on = false;
  }
  const start = text.indexOf('/*');
  if (start >= 0 && text.indexOf('*/', start) < 0) {
    inBlock.on = true;
    text = text.slice(0, start);
  }
  return text.replace(/\/\*.*?\*\//g, '').replace(/(^|[^:])\/\/.*$/, '$1');
}

function findSinks(file) {
  const found = [];
  const inBlock = { on: false };
  readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    const c = code(line, inBlock);
    for (const [re, name] of SINKS) {
      if (re.test(c)) found.push(`${relative(ROOT, file)}:${i + 1}: ${name}: ${line.trim().slice(0, 120)}`);
    }
  });
  return found;
}

test('no file of www/ but html.js writes markup through a string sink', () => {
  const files = sources(WWW);
  assert.ok(files.length > 20, `expected the page's sources under ${WWW}, found ${files.length}`);
  const found = files.filter((f) => f !== SINK_MODULE).flatMap(findSinks);
  assert.deepEqual(found, [], `markup must be made by html\`\` and written by render() / patch() (www/html.js):\n${found.join('\n')}`);
});

test('the lint finds a sink where there is one (it is not blind)', () => {
  assert.ok(findSinks(SINK_MODULE).some((l) => l.includes('innerHTML')), 'html.js itself writes innerHTML, and the lint must see it');
  const inBlock = { on: false };
  assert.equal(code('el.innerHTML = x; // not a comment before', inBlock), 'el.innerHTML = x; ');
  assert.equal(code('// el.innerHTML = x', inBlock), '');
  assert.equal(code('const u = "http://x"; el.innerHTML = u;', inBlock), 'const u = "http://x"; el.innerHTML = u;');
});
