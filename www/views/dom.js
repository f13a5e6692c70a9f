// Tiny helpers for building HTML strings safely.
export function esc(v) {
  return String(v ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}
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
 * Replaces an element's HTML only when it changed (returns whether it did). A focused control
 * inside keeps the focus across the redraw: the new markup's element with the same `data-testid`
 * (or `data-select`) gets it.
 */
export function patch(el, html) {
  if (el._html === html) return false;
  const active = el.getRootNode().activeElement;
  const key = active && el.contains(active) ? focusKey(active) : null;
  el._html = html;
  el.innerHTML = html;
  if (key) el.querySelector(key)?.focus({ preventScroll: true });
  return true;
}

function focusKey(node) {
  for (const attr of ['data-testid', 'data-select']) {
    const v = node.getAttribute(attr);
    if (v) return `[${attr}="${CSS.escape(v)}"]`;
  }
  return null;
}
