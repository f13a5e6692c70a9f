// The English catalogue, the source every other language follows: one file per part of the
// playground, merged. tests/i18n.test.mjs checks that each language has every key, with the same
// variables.
import app from './app.js';
import codepath from './codepath.js';
import controls from './controls.js';
import element from './element.js';
import errors from './errors.js';
import legend from './legend.js';
import model from './model.js';
import narrate from './narrate.js';
import page from './page.js';
import phases from './phases.js';
import scenarios from './scenarios.js';
import setup from './setup.js';
import story from './story.js';
import views from './views.js';

export default { ...page, ...setup, ...element, ...controls, ...story, ...views, ...legend, ...narrate, ...model, ...errors, ...codepath, ...phases, ...app, ...scenarios };
