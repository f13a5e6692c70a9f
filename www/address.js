// What the full page's address names: the session a link opens (`#session=…`, `#scenario=…&t=…`,
// `?scenario=…`), or why it cannot; and how a link's source is labelled and its problems said.
import { readFragment, shortQuote } from './share.js';
import { curated } from './scenarios.js';
import { errorWords } from './error-words.js';

/** What is wrong with the address's session link (the caller says what happens instead). */
export class LinkError extends Error {}

/**
 * A source named by one of the element's own words (`element.link`: "the link"), kept as its key
 * too, so that a remount in another language names it in that language.
 */
export const labelled = (source, labelKey, tr, labelArgs) => ({ ...source, label: tr.t(labelKey, labelArgs), labelKey, labelArgs });

/**
 * The session the address names, in `tr`'s words (`{source, at, selected, story, storyStep,
 * compare, problem, fromLink}`); null when it names none; a LinkError saying what is wrong with
 * one it cannot open.
 */
export async function addressPlan(tr) {
  const params = new URLSearchParams(location.search);
  let frag;
  try {
    frag = await readFragment(location.hash, tr);
  } catch (e) {
    throw new LinkError(tr.t('link.bad', { error: errorWords(e.message ?? e, tr) }));
  }
  // The guided story: `?…&story`, or a link copied while it was open (`#scenario=…&story`; a
  // `#session=` link's text says so itself, and opening it reopens the story).
  const story = params.has('story') || frag?.story === true;
  // A what-if beside it: `&compare=acks%3D1` (a `#session=` link's text carries its own).
  const compare = frag?.compare ?? params.get('compare');
  const storyStep = frag?.storyStep ?? null;
  // A part of the link that was left out (a bad instant or story step): said beside the rest.
  const problem = frag?.problem ? tr.t('link.partly', { problem: frag.problem }) : null;
  if (frag?.text) return { source: labelled({ text: frag.text }, 'element.link', tr), story, storyStep, fromLink: true, problem };
  if (frag?.curated) {
    if (!curated(frag.curated)) throw new LinkError(tr.t('link.noSuchScenario', { name: shortQuote(frag.curated) }));
    return { source: { curated: frag.curated }, at: frag.at, selected: frag.selected, story, storyStep, compare, problem };
  }
  const name = params.get('scenario');
  if (name && !curated(name)) throw new LinkError(tr.t('link.unknownScenario', { name: shortQuote(name) }));
  return name ? { source: { curated: name }, story, compare } : null;
}

/** What was wrong with the link it opened (a part left out, an instant or a request the run lacks), in one notice. */
export function sayLinkProblems(app, plan) {
  const said = [plan.problem, ...(app.linkNotes ?? [])].filter(Boolean);
  if (said.length) app.notice('warn', said.join(app.tr.t('sentence.sep')));
}
