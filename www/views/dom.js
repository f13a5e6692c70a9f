// Tiny helpers for building HTML strings safely.
export function esc(v) {
  return String(v ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}
export const fmt = (n) => Number(n).toLocaleString('en');
export const set = (xs) => `{${xs.join(', ')}}`;
/** Replaces an element's HTML only when it changed (keeps focus and selection stable). */
export function patch(el, html) {
  if (el._html !== html) {
    el._html = html;
    el.innerHTML = html;
  }
}
