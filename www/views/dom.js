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
/** Replaces an element's HTML only when it changed (keeps focus and selection stable). */
export function patch(el, html) {
  if (el._html !== html) {
    el._html = html;
    el.innerHTML = html;
  }
}
