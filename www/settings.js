// What the full page remembers between visits (localStorage): a first visit's choice and the
// reader's language. Storage may be refused (as from file://): then nothing is remembered, and the
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
