// What a Chinese text may keep in Latin letters (tests/i18n.test.mjs checks the catalogues with
// it, e2e/i18n.spec.mjs the page as drawn): Kafka's own words, as Chinese writing on Kafka keeps
// them, and names.

/** Kafka's words in a text: error codes (UPPER_CASE), config names (dotted), method and class
 * names (camelCase, UpperCamelCase), `acks=…`, command-line flags. */
export const kafkaWords = (text) => text.match(/--[a-z][a-z-]+|\b[A-Z][A-Z_]{3,}\b|\b[a-z]+(?:\.[a-z]+){2,}\b|\backs=[-\w]+|\b[a-z]+[A-Z]\w+\b|\b[A-Z][a-z]+[A-Z]\w*\b/g) ?? [];

/** Single words a Chinese sentence keeps: Kafka's vocabulary, units, and the names of formats,
 * files and tools. */
export const KEPT_IN_CHINESE = new Set([
  'kafka', 'broker', 'leader', 'follower', 'fetch', 'isr', 'hw', 'leo', 'acks', 'all', 'purgatory',
  'delayedproduce', 'trace', 'ms', 'json', 'lines', 'fnv', 'svg', 'http', 'file', 'wasm', 'html',
  'purgatory-playground', 'playground', 'gauge', 'purge', 'watch', 'list', 'none', 'lag', 'time',
  'max', 'min', 'insync', 'replicas', 'replica', 'request', 'timeout', 'default', 'replication',
  'factor', 'wait', 'heartbeat', 'interval', 'runner', 'offset', 'fetcher', 'epoch',
  'controller', 'fence', 'partition', 'false', 'true', 'key', 'apache', 'mb', 'kb',
  'maximal', 'reaper', 'id', 'new', 'op', 'java',
  // The timing wheel's authors, cited as Chinese writing on Kafka's timer cites them.
  'varghese', 'lauck',
]);

/**
 * The Latin words of `text` a Chinese reader should not meet: what is left once Kafka's words,
 * `names` (request ids, topics, scenario names), code in backticks and JSON strings in straight
 * double quotes (a scenario file's fields and values, as its errors quote them), identifiers with
 * digits or dashes (t-0, p1, Fetch@10, op 0.1, L4) and the kept vocabulary are taken out.
 */
export function strayLatin(text, names = []) {
  let rest = text.replace(/`[^`\n]*`/g, ' ').replace(/"[^"\n]*"/g, ' ');
  for (const word of kafkaWords(text).sort((a, b) => b.length - a.length)) rest = rest.replaceAll(word, ' ');
  // A name is taken out where it stands as a word of its own (a topic `t`, not the t of "trace").
  const escape = (w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const name of names) rest = rest.replace(new RegExp(`(?<![\\w-])${escape(name)}(?![\\w])`, 'g'), ' ');
  const words = rest.match(/[A-Za-z][\w@.-]*/g) ?? [];
  return words
    .map((w) => w.replace(/[.-]+$/, ''))
    .filter((w) => !/[\d@_-]/.test(w) && w.length > 1 && !KEPT_IN_CHINESE.has(w.toLowerCase()));
}
