// Helpers the views share: numbers as text, sets, and redrawing a panel only when its markup
// changed. Markup itself is made by `html` (../html.js).
import { render } from '../html.js';

/**
 * A number with thousands separators, as `toLocaleString('en')` writes it. Whole numbers (nearly
 * all: milliseconds, offsets, counts) are grouped by hand: the first `toLocaleString` call sets up
 * ICU's number formatting, which cost about 15 ms of the first frame.
 */
export function fmt(n) {
  const x = Number(n);
  if (!Number.isSafeInteger(x)) return x.toLocaleString('en');
  return String(x).replace(/\B(?=(\d{3})+$)/g, ',');
}
export const set = (xs) => `{${xs.join(', ')}}`;
/**
 * Replaces an element's content with markup made by `html` only when it changed (returns whether
 * it did). A focused control inside keeps the focus across the redraw: the new markup's element
 * with the same `data-testid` (or `data-select`, or `data-key`: a name for focus alone) gets it.
 */
export function patch(el, markup) {
  if (el._html === markup.text) return false;
  const active = el.getRootNode().activeElement;
  const key = active && el.contains(active) ? focusKey(active) : null;
  render(el, markup);
  el._html = markup.text;
  if (key) el.querySelector(key)?.focus({ preventScroll: true });
  return true;
}

function focusKey(node) {
  for (const attr of ['data-testid', 'data-select', 'data-key']) {
    const v = node.getAttribute(attr);
    if (v) return `[${attr}="${CSS.escape(v)}"]`;
  }
  return null;
}
