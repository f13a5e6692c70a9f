// A session in a link and in a file. The link's fragment holds the whole session (setup, every
// action with its time, the instant, the selected request) as the exported scenario text,
// deflated (the browser's CompressionStream) and base64url-encoded, which says whether the guided
// story is open (`session.story_open`); a curated scenario with no actions of the person's own
// stays short: `#scenario=NAME&t=MS&sel=ID`, with `&story=N` when the story is open at its step N
// and `&compare=CHANGE` while a what-if is beside it (the long form carries it in its text, as the
// file's `compare`). Either link reopens the story at that step (several captions can share an
// instant: the step says which); a bare `&story` (an older link), at the first caption of the
// instant.

const MAX_FRAGMENT_CHARS = 2_000_000;
/** The largest session a file or a link may hold, as the model reads one (`MAX_SCENARIO_BYTES`). */
const MAX_SESSION_BYTES = 64 * 1024 * 1024;
/** The latest instant a link may name: the model's longest run, a week (`MAX_ADVANCE_MS` in
 * src/wasm/mod.rs). */
export const MAX_INSTANT_MS = 604_800_000;

function toBase64Url(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text, tr) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error(tr.t('fragment.badCharacters'));
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  let bin;
  try {
    bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  } catch {
    throw new Error(tr.t('fragment.badBase64'));
  }
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

/**
 * The fragment (without `#`) for a session: short for an untouched curated scenario. `storyStep`:
 * the guided story's step shown (1-based), null while it is closed or before its first step.
 * `lang`: the language it was shared in, which the link opens in (`&lang=zh-CN`; English says
 * nothing, and the reader's own choice applies).
 */
export async function fragmentFor({ exportText, curated, userActions, atMs, selected, story = false, storyStep = null, compare = null, lang = 'en' }) {
  const step = story && storyStep ? `&story=${storyStep}` : story ? '&story' : '';
  const language = lang === 'en' ? '' : `&lang=${encodeURIComponent(lang)}`;
  if (curated && userActions === 0) {
    const p = new URLSearchParams({ scenario: curated, t: String(atMs) });
    if (selected) p.set('sel', selected);
    if (compare) p.set('compare', compare);
    return p.toString() + step + language;
  }
  const packed = await pipe(new TextEncoder().encode(exportText), new CompressionStream('deflate-raw'));
  // The text says the story is open (`session.story_open`); the step rides beside it.
  return `session=${toBase64Url(packed)}${story && storyStep ? step : ''}${language}`;
}

/** The longest piece of a link's parameter a message repeats, in characters (a fragment may hold two million). */
const QUOTE_LIMIT_CHARS = 40;

/** A piece of a link as a message repeats it: cut short with an ellipsis when long. */
export function shortQuote(value) {
  const chars = [...value];
  return chars.length > QUOTE_LIMIT_CHARS ? `${chars.slice(0, QUOTE_LIMIT_CHARS).join('')}…` : value;
}

/** `name="value"` as a message names a link's parameter, cut short with an ellipsis when long. */
export function linkParam(name, value) {
  return `${name}=${JSON.stringify(shortQuote(value))}`;
}

/** The instant a link names (`t=MS`), null for none. */
function instantOf(t, tr) {
  if (t == null) return null;
  if (!/^\d+$/.test(t)) throw new Error(tr.t('fragment.badInstant', { param: linkParam('t', t) }));
  // The model seeks no further than a week (its longest run); the run itself may end sooner, and
  // the page then opens it at its end. (A whole number too long to hold exactly is past it too.)
  const at = Number(t);
  if (at > MAX_INSTANT_MS) throw new Error(tr.t('fragment.lateInstant', { param: linkParam('t', t), max: MAX_INSTANT_MS }));
  return at;
}

/** The story step a link names (`story=N`, 1-based), null for a bare `story` or none. */
function storyStepOf(p, tr) {
  const v = p.get('story');
  if (v == null || v === '') return null;
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n < 1) throw new Error(tr.t('fragment.badStep', { param: linkParam('story', v) }));
  return n;
}

/**
 * Reads a fragment: `{curated, at, selected, story, storyStep, compare}`, `{text, storyStep}` (a saved session's scenario text), or
 * null when it holds no session. Throws an Error saying (in `tr`'s language) what is wrong with a
 * damaged one. A bad instant or story step alone costs only itself: the rest opens, and
 * `problem` says what was left out.
 */
export async function readFragment(hash, tr) {
  const raw = hash.replace(/^#/, '');
  if (!raw) return null;
  if (raw.length > MAX_FRAGMENT_CHARS) throw new Error(tr.t('fragment.tooLong'));
  const p = new URLSearchParams(raw);
  const problems = [];
  const leftOut = (read) => {
    try {
      return read();
    } catch (e) {
      problems.push(e.message);
      return null;
    }
  };
  const read = await readSession(p, tr, leftOut);
  if (read && problems.length) read.problem = problems.join(tr.t('clause.sep'));
  return read;
}

/** The session a fragment's parameters name (see `readFragment`); `lenient` reads a part that may be left out. */
async function readSession(p, tr, lenient) {
  const storyStep = lenient(() => storyStepOf(p, tr));
  if (p.has('session')) {
    // Its instant is in its text: a `t=` beside it is said to be left out, not quietly dropped.
    if (p.has('t')) lenient(() => { throw new Error(tr.t('fragment.sessionInstant', { param: linkParam('t', p.get('t')) })); });
    const bytes = fromBase64Url(p.get('session'), tr);
    return { text: await inflate(bytes, tr), storyStep };
  }
  if (p.has('scenario')) {
    const at = lenient(() => instantOf(p.get('t'), tr));
    return { curated: p.get('scenario'), at, selected: p.get('sel'), story: p.has('story'), storyStep, compare: p.get('compare') };
  }
  return null;
}

/**
 * A link's session text. Deflate can grow a thousandfold, so a link of two million characters
 * could ask for gigabytes: the text is read piece by piece and refused once it passes what a
 * session may be, before the model ever sees it.
 */
async function inflate(bytes, tr) {
  const damaged = () => new Error(tr.t('fragment.badDeflate'));
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const pieces = [];
  let size = 0;
  for (;;) {
    const piece = await reader.read().catch(() => { throw damaged(); });
    if (piece.done) break;
    size += piece.value.length;
    if (size > MAX_SESSION_BYTES) {
      reader.cancel().catch(() => {});
      throw new Error(tr.t('fragment.tooBig', { max: MAX_SESSION_BYTES / (1024 * 1024) }));
    }
    pieces.push(piece.value);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(await new Blob(pieces).arrayBuffer());
  } catch {
    throw damaged();
  }
}

/** Offers `text` as a file download (JSON unless told). */
export function download(name, text, type = 'application/json') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** A file's text, refusing (in `tr`'s language) what cannot be a session (too big, not text). */
export async function readSessionFile(file, tr) {
  if (file.size > MAX_SESSION_BYTES) throw new Error(tr.t('file.tooBig', { file: file.name, size: file.size }));
  const text = await file.text();
  if (!text.trim().startsWith('{')) throw new Error(tr.t('file.notSession', { file: file.name }));
  return text;
}
