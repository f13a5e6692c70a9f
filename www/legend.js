// The legend: what every mark on the playground means, in one place reachable from every panel
// (each panel's "?" opens it at its section), so nothing is explained only in a hover tooltip.
// Its words come from the translator it is given (www/i18n/*/legend.js; the badges it shows are
// the cluster view's own, from views.js).
import { html, join } from './html.js';

// Each swatch is the panel's own markup inside its panel's class (msg, fifo, purge), so it is drawn
// by the same rules as on the panel.
const item = (swatch, text) => html`<li><span class="sw">${swatch}</span><span>${text}</span></li>`;

// An error name may wrap after its underscores in the narrow swatch column (its text only, not
// its class name): the name in pieces, a <wbr> after each underscore.
const wrapAfterUnderscores = (text) => join(text.split(/(?<=_)/), html`<wbr>`);
const outcome = (name) => html`<span class="outcome ${name}">${wrapAfterUnderscores(name)}</span>`;

/**
 * The sections made of swatches, in order: each one's items from `t(name)`, the legend's message
 * `legend.<section>.<name>` (and `tr` for the words it shares with the views).
 */
const SECTIONS = {
  cluster: (t, tr) => [
    item(html`<span class="cell committed"></span>`, t('committed')),
    item(html`<span class="cell uncommitted"></span>`, t('uncommitted')),
    item(html`<span class="hwm">HW 10</span>`, t('hw')),
    item(html`<span class="leo">LEO 12</span>`, t('leo')),
    item(html`<span class="badge leader">leader</span>`, t('leader')),
    item(html`<span class="badge isr">ISR</span><span class="badge out">${tr.t('cluster.outOfIsr')}</span>`, t('isr')),
    item(html`${['fetching', 'paused', 'registering', 'crashed', 'fenced'].map((state) => html`<span class="badge ${state}">${tr.t(`broker.state.${state}`)}</span>`)}`, t('states')),
    item(html`<span class="pending">${t('pending.swatch')}</span>`, t('pending')),
    item(html`<span class="pending">${t('underMinIsr.swatch')}</span>`, t('underMinIsr')),
    item(html`<span class="msg fetch"><span class="dot"></span></span>`, t('fetch')),
    item(html`<span class="msg fetch_response"><span class="dot"></span></span>`, t('fetchResponse')),
    item(html`<span class="msg metadata"><span class="dot"></span></span>`, t('metadata')),
  ],
  purgatory: (t) => [
    item(html`<span class="fifo"><span class="op waiting">p1</span></span>`, t('waiting')),
    item(html`<span class="fifo"><span class="op done">p1 ✓</span></span>`, t('done')),
    item(html`<span class="purge"><span class="bar"><span style="width:40%"></span></span></span>`, t('purge')),
    item(html`<b>PurgatorySize</b>`, t('size')),
    item(html`<b>NumDelayed<wbr>Operations</b>`, t('delayed')),
    item(html`<b>op 20.47</b>`, t('op')),
  ],
  wheel: (t) => [
    item(html`<span class="bucket full">3</span>`, t('full')),
    item(html`<span class="bucket queued"></span>`, t('queued')),
    item(html`<span class="bucket cur"></span>`, t('current')),
    item(html`<span class="bucket sel">1</span>`, t('selected')),
  ],
  codepath: (t) => [
    item(html`<span class="step done">${t('done.swatch')}</span>`, t('done')),
    item(html`<span class="step current">${t('current.swatch')}</span>`, t('current')),
    item(html`<span class="step skipped">${t('skipped.swatch')}</span>`, t('skipped')),
  ],
  responses: (t) => [
    item(outcome('NONE'), t('none')),
    item(outcome('REQUEST_TIMED_OUT'), t('timedOut')),
    item(outcome('NOT_ENOUGH_REPLICAS'), t('notEnoughReplicas')),
    item(outcome('NOT_LEADER_OR_FOLLOWER'), t('notLeader')),
    item(html`<span class="outcome other">${t('other.swatch')}</span>`, t('other')),
    item(html`<span class="outcome waiting">${t('waiting.swatch')}</span>`, t('waiting')),
  ],
  phases: (t) => [
    item(html`<span class="strip"><span class="seg ok"></span></span>`, t('ok')),
    item(html`<span class="strip"><span class="seg bad"></span></span>`, t('bad')),
    item(html`<span class="strip"><span class="now"></span></span>`, t('now')),
    item(html`<span class="whose-swatch">${t('whose.swatch')}</span>`, t('whose')),
  ],
  timeline: (t) => [
    item(html`<span class="mark-swatch m-produce"></span>`, t('produce')),
    item(html`<span class="mark-swatch m-ok"></span>`, t('ok')),
    item(html`<span class="mark-swatch m-bad"></span>`, t('bad')),
    item(html`<span class="mark-swatch m-hw"></span>`, t('hw')),
    item(html`<span class="mark-swatch m-isr"></span>`, t('isr')),
    item(html`<span class="mark-swatch m-action"></span>`, t('action')),
    item(html`<span class="mark-swatch m-purge"></span>`, t('purge')),
    item(html`<span class="band-swatch"></span>`, t('band')),
    item(html`<span class="computed-swatch"></span>`, t('computed')),
  ],
};

/** The sections as [key, items] in `tr`'s language. */
function sections(tr) {
  return Object.entries(SECTIONS).map(([name, items]) => [name, items((key, vars) => tr.t(`legend.${name}.${key}`, vars), tr)]);
}

/** A message whose `{placeholders}` are keys to press: each becomes `<kbd>` with the key `keys` names for it. */
function withKeys(key, keys, tr) {
  const kbds = Object.fromEntries(Object.entries(keys).map(([name, k]) => [name, html`<kbd>${k}</kbd>`]));
  return html`${tr.parts(key, kbds)}`;
}

/** The keyboard's keys, one clause each, joined as one line. */
function keysLine(tr) {
  const clauses = [
    ['play', { p: 'p' }],
    ['step', { n: 'n', bracket: ']' }],
    ['back', { bracket: '[' }],
    ['marks', { next: '}', previous: '{' }],
    ['timeline', { plus: '+', minus: '-', zero: '0' }],
  ];
  return join(clauses.map(([name, keys]) => withKeys(`legend.keys.${name}`, keys, tr)), ' · ');
}

/** The legend menu's content (an Html, for `render`), in `tr`'s language. */
export function legendHtml(tr) {
  const title = (key) => tr.t(`legend.${key}.title`);
  return html`<h2 class="menu-h">${tr.t('legend.title')}</h2>${sections(tr).map(([key, items]) => html`<section data-section="${key}"><h3>${title(key)}</h3><ul>${items}</ul></section>`)}
  <section data-section="log"><h3>${title('log')}</h3><p>${tr.t('legend.log')}</p></section>
  <section data-section="metrics"><h3>${title('metrics')}</h3><p>${tr.t('legend.metrics')}</p></section>
  <section data-section="keys"><h3>${title('keys')}</h3><p>${keysLine(tr)}</p></section>`;
}
