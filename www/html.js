// Markup by construction. Every piece of HTML the playground shows is a value of `html`...`` (or
// an array of them); everything interpolated into one that is not itself such a value is text,
// escaped where it lands. This module is the one place markup reaches the DOM (`render`,
// `renderAdjacent`): a test (tests/markup-lint.test.mjs) fails on `innerHTML` and its kin
// anywhere else in www/.
//
// Why our own tag and not lit-html: the views already build whole panels as strings and diff them
// by their text (views/dom.js `patch`), which lit's part-based updates would replace wholesale; a
// tag that keeps that model and refuses the unsafe places is about sixty lines with its own tests
// (tests/html.test.mjs), and the element ships no second rendering library.

const brand = Symbol('html');

/** A piece of markup made by `html`: the only value `render` takes and `html` passes through. */
export class Html {
  /** @param {symbol} token @param {string} text */
  constructor(token, text) {
    if (token !== brand) throw new TypeError('Html values are made by the html`` tag, not by new Html()');
    this.text = text;
    Object.freeze(this);
  }

  toString() {
    return this.text;
  }
}

const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/** Text as markup that shows it literally, in element content and in a quoted attribute alike. */
function escapeText(s) {
  return s.replace(/[&<>"'`]/g, (c) => ENTITIES[c]);
}

/** Attributes whose value is a URL: a string there may not bring its own scheme of script. */
const URL_ATTR = /\s(?:href|src|action|formaction|xlink:href|poster|srcset)\s*=\s*["']$/i;
/** A URL's scheme as a browser reads it: control characters and white space do not count. */
const SCRIPT_SCHEME = /^(?:javascript|vbscript|data):/i;
const IGNORED_IN_SCHEME = /[\u0000-\u0020]/g;

/**
 * The place of each interpolation of a template: `true` where it stands in a URL attribute, else
 * `false`; a SyntaxError where it may not stand: inside a tag but outside a quoted attribute value
 * (an unquoted value, a tag's name or attribute list: a string could start a new attribute), in an
 * event handler attribute, or inside <script> or <style>. Worked out once per template from its
 * static text alone (the strings of a tagged template are the same object at every call), which
 * is exact: an interpolated string is escaped, so it holds no quote or angle bracket, and
 * interpolated markup is whole elements.
 */
function contexts(strings) {
  const urlAttr = [];
  let markup = '';
  for (let i = 0; i < strings.length - 1; i++) {
    markup += strings[i];
    const after = JSON.stringify(markup.slice(-40));
    const lastOpen = markup.lastIndexOf('<');
    const inTag = lastOpen > markup.lastIndexOf('>');
    if (inTag) {
      const tag = markup.slice(lastOpen);
      if (!/=\s*(?:"[^"]*|'[^']*)$/.test(tag)) {
        throw new SyntaxError(`html\`\`: an interpolation inside a tag, outside a quoted attribute value (after ${after}); quote the value`);
      }
      if (/\son[a-z]+\s*=\s*(?:"[^"]*|'[^']*)$/i.test(tag)) {
        throw new SyntaxError(`html\`\`: an event handler attribute takes an interpolation (after ${after}); listen with addEventListener`);
      }
    } else if (/<(script|style)\b[^>]*>(?![\s\S]*<\/\1>)[\s\S]*$/i.test(markup)) {
      throw new SyntaxError(`html\`\`: an interpolation inside <script> or <style> (after ${after})`);
    }
    urlAttr.push(inTag && URL_ATTR.test(markup));
    markup += 'x';
  }
  return urlAttr;
}

const templates = new WeakMap();

/** One interpolated value as markup. */
function piece(value, urlAttr) {
  if (value instanceof Html) return value.text;
  if (value == null || value === false) return '';
  if (Array.isArray(value)) return value.map((v) => piece(v, urlAttr)).join('');
  let s = String(value);
  if (urlAttr && SCRIPT_SCHEME.test(s.replace(IGNORED_IN_SCHEME, ''))) s = 'about:invalid';
  return escapeText(s);
}

/**
 * The template tag: html`<b>${name}</b>`. A value is text unless it is an Html (kept as markup);
 * an array is its items one after another; null, undefined and false are nothing; numbers and
 * other values are their text. In a URL attribute a javascript:, vbscript: or data: URL becomes
 * about:invalid.
 */
export function html(strings, ...values) {
  let urlAttr = templates.get(strings);
  if (!urlAttr) {
    urlAttr = contexts(strings);
    templates.set(strings, urlAttr);
  }
  let out = strings[0];
  for (let i = 0; i < values.length; i++) {
    out += piece(values[i], urlAttr[i]) + strings[i + 1];
  }
  return new Html(brand, out);
}

/** Items joined by a separator (itself text or Html): html`${join(names, ', ')}`. */
export function join(items, separator) {
  const out = [];
  items.forEach((item, i) => {
    if (i > 0) out.push(separator);
    out.push(item);
  });
  return html`${out}`;
}

/**
 * The Trusted Types policy (the shipped pages' CSP says `require-trusted-types-for 'script';
 * trusted-types purgatory-playground`, scripts/csp.mjs): with it enforced, the browser refuses any
 * plain string written to innerHTML, so markup that did not come through this module fails loudly
 * instead of running. Without Trusted Types (other browsers, a host page without that CSP) the
 * text is written as it is. A host whose own CSP lists other policies must add ours.
 */
export const POLICY_NAME = 'purgatory-playground';
let policy = null;
try {
  policy = globalThis.trustedTypes?.createPolicy(POLICY_NAME, { createHTML: (text) => text }) ?? null;
} catch {
  policy = null; // not allowed by the host's CSP, or made already by another copy of this module
}

function markup(value, where) {
  if (!(value instanceof Html)) {
    throw new TypeError(`${where} takes markup made by html\`\`, not a ${value === null ? 'null' : typeof value}`);
  }
  return policy ? policy.createHTML(value.text) : value.text;
}

/** The one write of markup into the DOM: an element's whole content, or at `where` beside it. */
function write(el, where, text) {
  try {
    if (where) el.insertAdjacentHTML(where, text); else el.innerHTML = text;
  } catch (e) {
    if (!policy && e instanceof TypeError && globalThis.trustedTypes) {
      throw new TypeError(`the page's Content-Security-Policy requires Trusted Types but does not allow the policy '${POLICY_NAME}': add "trusted-types ${POLICY_NAME}" to it (${e.message})`);
    }
    throw e;
  }
}

/** Replaces an element's content with markup made by `html`. */
export function render(el, value) {
  write(el, null, markup(value, 'render'));
}

/** Inserts markup made by `html` at `where` ('beforeend', ...) of an element. */
export function renderAdjacent(el, where, value) {
  write(el, where, markup(value, 'renderAdjacent'));
}
