// What the full page remembers between visits (localStorage): a first visit's choice and the
// reader's language; and, for a reload in the same tab (sessionStorage), the session of one's own
// that was open. Storage may be refused (as from file://): then nothing is remembered, and the
// page asks, or follows the browser, again.

/** Where the full page remembers a first visit's choice. */
const FIRST_STEP_KEY = 'purgatory-playground:first-step';

/** Where the full page remembers the reader's language. */
const LANGUAGE_KEY = 'purgatory-playground:language';

/**
 * What the full page remembered under `key`; null where storage is refused (as from file://),
 * so that the page asks, or follows the browser, again: all that is lost.
 */
function loadSetting(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function saveSetting(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage refused: see `loadSetting`.
  }
}

/** Whether no first step was chosen here before (storage refused: every visit). */
export const firstVisit = () => loadSetting(FIRST_STEP_KEY) == null;
export const remember = (choice) => saveSetting(FIRST_STEP_KEY, choice);
export const rememberedLanguage = () => loadSetting(LANGUAGE_KEY);
export const rememberLanguage = (lang) => saveSetting(LANGUAGE_KEY, lang);

/** Where the full page keeps, for the tab's next load, the session of one's own it was left with. */
const LEFT_KEY = 'purgatory-playground:left-session';

/**
 * Keeps `kept` (left-session.js's `keepOwn`: a session holding the person's own actions) for a
 * reload in this tab, or forgets what was kept when there is none. A session too large for the
 * tab's storage is not kept.
 */
export function keepForReload(kept) {
  try {
    if (kept) sessionStorage.setItem(LEFT_KEY, JSON.stringify(kept));
    else sessionStorage.removeItem(LEFT_KEY);
  } catch {
    // Refused, or over the quota: the reload starts afresh, as without storage.
  }
}

/** What the last load of this tab was left with (see `keepForReload`), once; null for nothing. */
export function takeKeptForReload() {
  try {
    const text = sessionStorage.getItem(LEFT_KEY);
    sessionStorage.removeItem(LEFT_KEY);
    const kept = text ? JSON.parse(text) : null;
    return typeof kept?.source?.text === 'string' && Number.isInteger(kept.own) ? kept : null;
  } catch {
    return null;
  }
}
