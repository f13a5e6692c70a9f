// A refused scenario, link, what-if or breakpoint in the reader's language. The model words its
// refusals in English itself (src/scenario/: the runner prints them, byte for byte, as the
// scenario contract has them), from a small grammar: a sentence (`err.*`, "expected {what}, found
// {found}") whose variables are pieces of their own (`what.*`, "an integer from {lo} to {hi}") or
// the file's own text (a path, a value as written). So the page reads a message back against the
// English templates (www/i18n/en/errors.js) and writes the same keys in the reader's language; a
// message it cannot read whole is shown as the model wrote it. tests/error-words.test.mjs reads
// back every error a sweep of bad files, links, what-ifs and breakpoints makes.
import TEMPLATES from './i18n/en/errors.js';

/** The variables that are pieces of a sentence, and the messages each may be. A strict piece
 * must read as one of them; a loose one (what was found, a range's note) may be the file's own
 * text instead. */
const PIECES = {
  error: { prefix: 'err.', strict: true },
  what: { prefix: 'what.', strict: true },
  why: { prefix: 'json.', strict: true },
  found: { prefix: 'found.', strict: false },
  note: { prefix: 'note.', strict: false },
};

/** The variables that are numbers as the model writes them (which keeps "found {found} ({count})"
 * from reading a parenthesis of the found text as the count). */
const NUMBERS = new Set(['count', 'max', 'lo', 'hi', 'line', 'column', 'size', 'cost', 'budget', 'longest', 'ms', 'at', 'before', 'index']);

/** A JSON path as the model writes one: `actions[3].records[0].count`, `["odd key"]`. */
const PATH = /^(?:[A-Za-z_]\w*|\["(?:[^"\\]|\\.)*"\])(?:\.[A-Za-z_]\w*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])*$/;

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each template as a pattern, by kind of piece, in the catalogue's order (the more specific
 * first). */
const PATTERNS = {};
for (const [key, message] of Object.entries(TEMPLATES)) {
  const prefix = key.slice(0, key.indexOf('.') + 1);
  for (const form of typeof message === 'string' ? [message] : Object.values(message)) {
    const names = [];
    const source = form.split(/\{(\w+)\}/).map((piece, i) => {
      if (i % 2 === 0) return escape(piece);
      names.push(piece);
      return NUMBERS.has(piece) ? '(-?\\d+)' : '([\\s\\S]+?)';
    }).join('');
    (PATTERNS[prefix] ??= []).push({ key, names, re: new RegExp(`^${source}$`) });
  }
}

/** `text` read as one of the messages of `prefix`: `{key, vars}` (a piece's var is a reading of
 * its own), or null. */
function read(text, prefix) {
  for (const { key, names, re } of PATTERNS[prefix] ?? []) {
    const m = re.exec(text);
    if (!m) continue;
    const vars = {};
    let whole = true;
    names.forEach((name, i) => {
      const value = m[i + 1];
      const piece = PIECES[name];
      if (name === 'path' && !PATH.test(value)) whole = false;
      if (!piece) vars[name] = value;
      else {
        const inner = read(value, piece.prefix);
        if (inner) vars[name] = inner;
        else if (piece.strict) whole = false;
        else vars[name] = value;
      }
    });
    if (whole) return { key, vars };
  }
  return null;
}

/** How the model's message `text` is built, or null if it is not one of the templates. */
export const readError = (text) => read(String(text), 'err.');

/** The variables that are lists the model joins with ", ": joined in the reader's language. */
const LISTS = new Set(['list', 'fields']);

function write(reading, tr) {
  const vars = {};
  for (const [name, value] of Object.entries(reading.vars)) {
    if (typeof value !== 'string') vars[name] = write(value, tr);
    else vars[name] = LISTS.has(name) ? value.split(', ').join(tr.t('list.sep')) : value;
  }
  return tr.t(reading.key, vars);
}

/** The model's error message in `tr`'s language (as written when it cannot be read back). */
export function errorWords(text, tr) {
  const reading = readError(text);
  return reading ? write(reading, tr) : String(text);
}
