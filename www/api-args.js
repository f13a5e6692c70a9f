// The element's JS API refuses a wrong argument before anything changes, with a TypeError that
// says what it takes and what it was given (docs/embedding.md, "JS API and events").

/** `seek(ms)`'s argument: a whole number of milliseconds from 0. */
export function checkSeekArgument(ms) {
  if (!Number.isInteger(ms) || ms < 0) throw new TypeError(`seek(ms): ms must be a whole number ≥ 0, got ${shown(ms)}`);
}

/** `command(action)`'s argument: an object, every number in it one JSON can write. */
export function checkCommandArgument(action) {
  if (!action || typeof action !== 'object' || Array.isArray(action)) throw new TypeError('command(action): action must be an object such as {action: "pause_follower", broker: 2}');
  // JSON has no NaN or Infinity: the model would be told null.
  const odd = nonFinite(action, 'action');
  if (odd) throw new TypeError(`command(action): ${odd.path} must be a finite number, got ${odd.value}`);
}

/** The first number in `value` that JSON cannot write (NaN, ±Infinity), with its path. */
function nonFinite(value, path, depth = 0) {
  if (typeof value === 'number') return Number.isFinite(value) ? null : { path, value };
  if (!value || typeof value !== 'object' || depth > 8) return null;
  for (const [key, inner] of Object.entries(value)) {
    const found = nonFinite(inner, Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/** A wrong argument as its error shows it: any value, a BigInt or a symbol included. */
function shown(value) {
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'bigint') return `${value}n`;
  if (value == null || ['number', 'symbol', 'boolean'].includes(typeof value)) return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return String(value); // an object with a cycle
  }
}
