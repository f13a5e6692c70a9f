// The languages the playground speaks: English, the source of every message, and 简体中文. The
// English catalogue is in the module; another language's is a chunk loaded the first time an
// element asks for it (beside the module in dist/, inlined in the self-contained page).
//
// A message is text with `{name}` variables. A message that depends on a count is an object of
// Intl.PluralRules categories ({one, other}; Chinese has only `other`), chosen by the `count`
// variable. Numbers given as variables are written the language's way (Intl.NumberFormat).
// Kafka's own words (ISR, HW, LEO, acks, DelayedProduce, method and config names, error codes)
// are the same in every catalogue: they are what a reader finds in Kafka's source and logs.
import EN from './i18n/en/index.js';
import { fmt } from './views/dom.js';

/** The languages, with the name each is offered under (in itself). */
export const LANGUAGES = [
  { tag: 'en', name: 'English' },
  { tag: 'zh-CN', name: '简体中文' },
];

/**
 * The catalogue for a BCP 47 tag (an element's `lang`, the host page's `<html lang>`, a
 * browser's language): `zh-CN` for Chinese in simplified characters (`zh`, `zh-CN`, `zh-Hans…`,
 * `zh-SG`, `zh-MY`), else English (Chinese in traditional characters, `zh-TW`, `zh-HK`,
 * `zh-Hant…`, has no catalogue yet: English, not a script its reader did not ask for).
 */
export function languageFor(tag) {
  const t = String(tag ?? '').trim().toLowerCase().replace(/_/g, '-');
  if (!/^zh(-|$)/.test(t)) return 'en';
  if (/^zh-(hant|tw|hk|mo)(-|$)/.test(t)) return 'en';
  return 'zh-CN';
}

/** A language's messages and its curated stories' captions (`story-captions:LANG`, made from
 * scenarios/*.json by scripts/bundle.mjs), one chunk. */
const loaders = {
  'zh-CN': async () => {
    const [messages, stories] = await Promise.all([import('./i18n/zh-CN/index.js'), import('story-captions:zh-CN')]);
    return { messages: messages.default, stories: stories.default };
  },
};

/**
 * Looks messages up in one language, falling back to English for a key its catalogue lacks
 * (tests/i18n.test.mjs keeps the catalogues complete, so that is a safety net only).
 */
export class Translator {
  /** `stories`: the curated stories' captions in this language, `{scenario: [caption per step]}`. */
  constructor(lang, messages, stories = {}) {
    this.lang = lang;
    this.messages = messages;
    this.stories = stories;
    this.plurals = new Intl.PluralRules(lang);
    this.numbers = lang === 'en' ? null : new Intl.NumberFormat(lang);
    // Chinese sets no space beside its full-width punctuation; a template's space before or after
    // a variable is right beside a Latin word and wrong beside a `）` the variable ends with.
    this.tight = lang.startsWith('zh');
  }

  /** The message `key` with its `{variables}` filled in from `vars`. */
  t(key, vars = {}) {
    let message = this.messages[key] ?? EN[key];
    if (message == null) {
      console.error(`purgatory-playground: no message "${key}"`);
      return key;
    }
    if (typeof message === 'object') message = message[this.plurals.select(Number(vars.count ?? 0))] ?? message.other;
    const text = message.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? this.value(vars[name]) : whole));
    return this.tight ? text.replace(FULL_WIDTH_SPACE, '') : text;
  }

  /**
   * The message `key` as pieces to put in markup: each `{name}` of `pieces` is that piece (a
   * fragment the caller made: a <kbd>, a bold time), the text around it stays text, and other
   * `{variables}` are filled in from `vars`.
   */
  parts(key, pieces, vars = {}) {
    // Each piece's place is marked by a character no text holds, so that no variable's own text
    // (a `{0}` broker set) is read as a piece.
    const marks = Object.fromEntries(Object.keys(pieces).map((name) => [name, `\u0000${name}\u0000`]));
    return this.t(key, { ...vars, ...marks }).split(/\u0000(\w+)\u0000/).map((piece, i) => (i % 2 ? pieces[piece] : piece));
  }

  /**
   * A number as this language writes it. English groups by hand (`fmt`): the first Intl number
   * formatting sets up ICU, about 15 ms of the first frame; tests/i18n.test.mjs checks the two
   * agree.
   */
  num(n) {
    return this.numbers ? this.numbers.format(n) : fmt(n);
  }

  value(v) {
    return typeof v === 'number' ? this.num(v) : String(v);
  }

  /**
   * Step `i` of a guided story in this language: the step's own `captions[lang]` (a scenario
   * file that carries it), else the curated scenario's, else its English `caption`.
   */
  caption(step, i, scenario) {
    return step.captions?.[this.lang] ?? this.stories[scenario]?.[i] ?? step.caption;
  }
}

/** A space after or before full-width punctuation (CJK symbols and punctuation, full-width forms). */
const FULL_WIDTH_SPACE = /(?<=[\u3000-\u303f\uff00-\uffef]) | (?=[\u3000-\u303f\uff00-\uffef])/g;

/** English: what everything is written in until a language is asked for. */
export const ENGLISH = new Translator('en', EN);

/** One translator per loaded language, shared by the page's elements. */
const translators = new Map([['en', ENGLISH]]);

/** The translator for `lang` if its catalogue is loaded already (English always is), else null. */
export function loadedTranslator(lang) {
  return loaders[lang] ? translators.get(lang) ?? null : ENGLISH;
}

/** A translator for `lang` (a tag `languageFor` returned), its catalogue loaded if need be. */
export async function translatorFor(lang) {
  if (!translators.has(lang) && loaders[lang]) {
    const { messages, stories } = await loaders[lang]();
    translators.set(lang, new Translator(lang, messages, stories));
  }
  return loadedTranslator(lang);
}
