// The markup of one playground, built from its options: which views it shows and which controls.
// The full page is the same element with every view and every control; an embedded one usually
// shows a few views and the clock's buttons. Panels carry `data-testid="panel-NAME"`; controls
// keep the page's test ids.
import { SETUP_FIELDS, NOTED_FIELDS } from './setup-form.js';
import { html, join } from './html.js';
import { CHANGES } from './compare-form.js';
import { LANGUAGES } from './i18n.js';

/** Every view, in the order the page lays them out. */
export const VIEWS = ['timeline', 'narration', 'cluster', 'purgatory', 'wheel', 'codepath', 'responses', 'phases', 'log', 'metrics'];
export const DEFAULT_VIEWS = ['timeline', 'narration', 'cluster', 'purgatory', 'wheel'];
export const CONTROLS = ['full', 'minimal', 'none'];

/** The panels, in the page's order: each one's title is the message `panel.NAME`, what it shows
 * `panel.NAME.about`. */
const PANELS = ['cluster', 'purgatory', 'wheel', 'codepath', 'responses', 'phases', 'log', 'metrics'];

/** The speed choices: `auto`, then simulated ms per wall ms. */
const SPEEDS = ['auto', '0.01', '0.05', '0.2', '1', '10', '100', '1000'];
const speedLabel = (tr, v) => (v === 'auto' ? tr.t('speed.auto') : v === '1' ? tr.t('speed.realtime', { speed: 1 }) : `${v.includes('.') ? v : tr.num(Number(v))}×`);

/** Inline icons: the page's fonts may lack the media-control glyphs. */
const icon = (d) => html`<svg class="icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path d="${d}"/></svg>`;
const ICONS = {
  stepBack: icon('M3 3h2v10H3zM13 3v10L6 8z'),
  step: icon('M11 3h2v10h-2zM3 3v10l7-5z'),
  restart: icon('M8 3a5 5 0 1 1-4.9 6h2A3 3 0 1 0 8 5v2.5L4.5 4 8 .5z'),
};

// A Kafka name such as replica.lag.time.max.ms may wrap after its dots on a narrow screen: the
// label's text in pieces, a <wbr> after each dot that a word follows.
const wrapAfterDots = (text) => join(text.split(/(?<=\.)(?=\w)/), html`<wbr>`);
const field = (tr, name) => {
  const about = tr.t(`setup.${name}.default`) + (NOTED_FIELDS.includes(name) ? tr.t('clause.sep') + tr.t(`setup.${name}.note`) : '');
  return html`<div class="field"><label for="f-${name}">${wrapAfterDots(tr.t(`setup.${name}`))}</label>
  <input id="f-${name}" name="${name}" inputmode="numeric" autocomplete="off" aria-describedby="d-${name}">
  <small id="d-${name}">${about}</small></div>`;
};

/** A what-if's second run (`opts.twin`) lives in the first one's shadow root: its ids and test ids
 * are its own. */
const prefix = (opts) => (opts.twin ? 'b-' : '');

function panel(name, body, opts) {
  const { tr } = opts;
  const title = tr.t(`panel.${name}`);
  const about = tr.t(`panel.${name}.about`);
  const pre = prefix(opts);
  // A panel is a named region of the full page; in an embed (several on a host page, each panel
  // name repeated) and in a what-if's second run it is a plain section under its heading.
  const content = html`<header class="ph"><h2 id="${pre}h-${name}">${title}</h2><button type="button" class="help" data-legend="${name}" aria-label="${tr.t('panel.legend.label', { panel: title.toLowerCase() })}" title="${tr.t('panel.legend.title')}">?</button></header>
  <p class="about">${about}</p>
  ${body}`;
  return opts.layout === 'page' && !opts.twin
    ? html`<section class="panel ${name}" data-testid="${pre}panel-${name}" data-story="${pre}panel-${name}" aria-labelledby="${pre}h-${name}">${content}</section>`
    : html`<section class="panel ${name}" data-testid="${pre}panel-${name}" data-story="${pre}panel-${name}">${content}</section>`;
}

const produceForm = (tr, full) => html`<form class="produce-form" aria-label="${tr.t('produce.form')}">
  <label>acks <select name="acks" data-testid="acks">
    <option value="all">all (-1)</option><option value="1">1</option><option value="0">0</option>${full ? html`<option value="2">${tr.t('produce.acks.invalid', { acks: 2 })}</option>` : null}
  </select></label>
  ${full ? html`<label>${tr.t('produce.topic')} <select name="topic"></select></label>
  <label>${tr.t('produce.partitions')} <input name="partitions" value="0" size="5" aria-describedby="h-parts"></label>
  <label>${tr.t('produce.records')} <input name="count" value="10" size="4" inputmode="numeric"></label>
  <label>${tr.t('produce.timeout')} <input name="timeout" value="" size="6" placeholder="30000" inputmode="numeric" aria-label="${tr.t('produce.timeout.label')}"></label>` : null}
  <button type="submit" data-testid="produce" class="primary">${tr.t('produce.send')}</button>
  ${full ? html`<span class="burst"><label>${tr.t('produce.burst')} <input name="burst" value="100" size="4" inputmode="numeric" aria-label="${tr.t('produce.burst.label')}"></label> <button type="button" class="burst-send" data-testid="burst">${tr.t('produce.burst.send')}</button></span>` : null}
  <p id="h-parts" class="hint">${full ? tr.t('produce.partitions.hint') : ''}</p>
  <p class="cmd-error error" id="produce-error" role="alert" data-testid="command-error"></p>
</form>`;

const bodies = {
  cluster: (opts) => html`${opts.controls !== 'none' ? produceForm(opts.tr, opts.controls === 'full') : null}
    <div class="brokers" data-testid="brokers"></div>
    <div class="partitions"></div>
    <h3 class="net-h">${opts.tr.t('cluster.wire')}</h3>
    <div class="network"></div>`,
  purgatory: () => html`<p class="purg-totals gauges"></p><div class="purg-body"></div>`,
  wheel: (opts) => html`<div class="wheel-body"></div><div class="wheel-changes"></div>
    <details class="explain"><summary>${opts.tr.t('wheel.how')}</summary><div class="wheel-explain"></div></details>`,
  codepath: () => html`<div class="cp-body"></div>`,
  responses: () => html`<p class="resp-count"></p><ul class="resp-list"></ul>`,
  phases: () => html`<div class="phases-body"></div>`,
  log: ({ tr }) => html`<div class="log-filter" role="group" aria-label="${tr.t('log.kinds')}">
      ${['produce', 'purgatory', 'replication', 'isr'].map((kind) => html`<label><input type="checkbox" value="${kind}" checked> ${tr.t(`log.kind.${kind}`)}</label>`)}
      <label><input type="checkbox" value="fetch"> ${tr.t('log.kind.fetch')}</label>
      <label>${tr.t('log.find')} <input class="log-text" size="8" type="search"></label>
      <button type="button" class="log-only" hidden></button>
    </div>
    <ol class="log-lines" aria-label="${tr.t('log.lines')}"></ol>`,
  metrics: () => html`<div class="metrics-body"></div>`,
};

function toolbar(opts) {
  const { tr } = opts;
  const page = opts.layout === 'page';
  const full = opts.controls === 'full';
  const clock = opts.controls === 'none' ? null : html`<div class="clock-buttons" role="group" aria-label="${tr.t('clock.group')}">
      <button type="button" data-testid="step-back" aria-label="${tr.t('clock.stepBack')}" title="${tr.t('clock.stepBack.title')}">${ICONS.stepBack}</button>
      <button type="button" data-testid="play" class="primary play" title="${tr.t('clock.play.title')}"><span aria-hidden="true">▶</span> ${tr.t('clock.play')}</button>
      <button type="button" data-testid="step" aria-label="${tr.t('clock.step')}" title="${tr.t('clock.step.title')}">${ICONS.step}</button>
      <button type="button" data-testid="restart" aria-label="${tr.t('clock.restart')}" title="${tr.t('clock.restart')}">${ICONS.restart}</button>
    </div>`;
  const picker = full ? html`<label class="pick">${tr.t('toolbar.scenario')} <select data-testid="scenario-pick" class="scenario-pick"></select></label>
      <button type="button" data-testid="story-start" class="story-start" hidden>▶ ${tr.t('toolbar.story')}</button>` : null;
  const speed = full ? html`<label class="speed" title="${tr.t('toolbar.speed.title')}">${tr.t('toolbar.speed')} <select data-testid="speed">${SPEEDS.map((v) => html`<option value="${v}">${speedLabel(tr, v)}</option>`)}</select></label>` : null;
  const menus = full ? html`<div class="menus">
      <button type="button" class="menu-btn" data-menu="share" aria-expanded="false">${tr.t('menu.share')}</button>
      <button type="button" class="menu-btn" data-menu="breakpoints" aria-expanded="false">${tr.t('menu.breakpoints')}</button>
      <button type="button" class="menu-btn" data-menu="setup" aria-expanded="false">${tr.t('menu.setup')}</button>
      <button type="button" class="menu-btn" data-menu="compare" data-testid="compare-open" aria-expanded="false" title="${tr.t('menu.compare.title')}">${tr.t('menu.compare')}</button>
      <button type="button" class="menu-btn" data-menu="legend" data-testid="legend-open" aria-expanded="false">${tr.t('menu.legend')}</button>
    </div>` : html`<button type="button" class="menu-btn small" data-menu="legend" data-testid="legend-open" aria-expanded="false" aria-label="${tr.t('menu.legend')}">?</button>`;
  // The page's language switch; an embed follows its `lang` attribute or its host page's.
  const language = page && full ? html`<label class="lang">${tr.t('toolbar.language')} <select data-testid="language" lang="">${LANGUAGES.map(({ tag, name }) => html`<option value="${tag}" lang="${tag}">${name}</option>`)}</select></label>` : null;
  return html`<div class="bar" role="toolbar" aria-label="${tr.t('toolbar')}">
    ${page ? html`<h1>${tr.t('page.title')} <small>${tr.t('page.subtitle')}</small></h1>` : null}
    ${picker}
    ${clock}
    <span class="clock" aria-label="${tr.t('clock.now')}"><span class="t-label">t =</span> <span class="t-now"><b data-testid="now-ms">0</b> <span class="unit">ms</span></span> <span class="speed-now" data-testid="speed-now"></span></span>
    ${speed}
    ${menus}
    ${language}
    <span class="hash" title="${tr.t('trace.title')}">${tr.t('trace')} <code data-testid="trace-hash">…</code></span>
  </div>`;
}

function menusMarkup(opts) {
  const { tr } = opts;
  const full = opts.controls === 'full';
  const share = full ? html`<div class="menu" data-panel="share" hidden role="dialog" aria-label="${tr.t('share.dialog')}">
      <h2 class="menu-h">${tr.t('share.heading')}</h2>
      <p class="hint">${tr.t('share.hint')}</p>
      <div class="row"><button type="button" data-testid="copy-link" class="primary">${tr.t('share.copy')}</button><button type="button" data-testid="export-session">${tr.t('share.download')}</button></div>
      <label class="import">${tr.t('share.open')} <input type="file" accept=".json,application/json" data-testid="import-session"></label>
      <p class="hint">${tr.t('share.drop')}</p>
      <div class="row"><button type="button" data-testid="export-result">${tr.t('share.result')}</button><button type="button" data-testid="save-picture" title="${tr.t('share.picture.title')}">${tr.t('share.picture')}</button></div>
      <p class="share-out" role="status"></p>
    </div>` : null;
  const breakpoints = full ? html`<div class="menu" data-panel="breakpoints" hidden role="dialog" aria-label="${tr.t('bp.dialog')}">
      <h2 class="menu-h">${tr.t('bp.heading')}</h2>
      <label><input type="checkbox" data-testid="breakpoint-answered" data-bp="answered"> ${tr.t('bp.answered')} <select data-bp-answered aria-label="${tr.t('bp.answered.which')}"><option value="any">${tr.t('bp.answered.any')}</option><option value="error">${tr.t('bp.answered.error')}</option></select></label>
      <label><input type="checkbox" data-testid="breakpoint-expiry" data-bp="expiry"> ${tr.t('bp.expiry')}</label>
      <label><input type="checkbox" data-testid="breakpoint-isr-below-min" data-bp="isr_below_min"> ${tr.t('bp.isrBelowMin')}</label>
      <label><input type="checkbox" data-testid="breakpoint-isr-change" data-bp="isr_change"> ${tr.t('bp.isrChange')}</label>
      <label><input type="checkbox" data-testid="breakpoint-hw-stalled" data-bp="hw_stalled_ms"> ${tr.t('bp.hwStalled.before')} <input data-bp-stall value="5000" size="6" inputmode="numeric" aria-label="${tr.t('bp.hwStalled.label')}" aria-errormessage="bp-error"> ${tr.t('bp.hwStalled.after')}</label>
      <label><input type="checkbox" data-testid="breakpoint-leader-change" data-bp="leader_change"> ${tr.t('bp.leaderChange')}</label>
      <label><input type="checkbox" data-testid="breakpoint-purge" data-bp="purge"> ${tr.t('bp.purge')}</label>
      <p class="bp-error error" id="bp-error" role="alert"></p>
    </div>` : null;
  const setup = full ? html`<div class="menu wide" data-panel="setup" hidden role="dialog" aria-label="${tr.t('setup.dialog')}">
      <h2 class="menu-h">${tr.t('setup.heading')} <small>${tr.t('setup.heading.note')}</small></h2>
      <form class="setup-form">${SETUP_FIELDS.map((name) => field(tr, name))}
        <div class="row"><button type="submit" class="primary">${tr.t('setup.start')}</button><button type="button" class="setup-defaults">${tr.t('setup.defaults')}</button></div>
        <p class="setup-error error" id="setup-error" role="alert"></p>
      </form>
    </div>` : null;
  const compare = full ? html`<div class="menu" data-panel="compare" hidden role="dialog" aria-label="${tr.t('compare.dialog')}">
      <h2 class="menu-h">${tr.t('compare.heading')} <small>${tr.t('compare.heading.note')}</small></h2>
      <form class="compare-form" data-testid="compare">
        <label>${tr.t('compare.change')} <select name="what" data-testid="compare-what">${Object.keys(CHANGES).map((v) => html`<option value="${v}">${tr.t(`compare.change.${v}`)}</option>`)}</select></label>
        <label class="c-action">${tr.t('compare.action')} <select name="action" data-testid="compare-action"></select></label>
        <label class="c-value">${tr.t('compare.to')} <input name="value" size="8" autocomplete="off" data-testid="compare-value"></label>
        <div class="row"><button type="submit" class="primary" data-testid="compare-apply">${tr.t('compare.apply')}</button></div>
        <p class="hint">${tr.t('compare.hint')}</p>
        <p class="compare-error error" role="alert" data-testid="compare-error"></p>
      </form>
    </div>` : null;
  return html`${share}${breakpoints}${setup}${compare}<div class="menu legend-menu" data-panel="legend" hidden role="dialog" aria-label="${tr.t('menu.legend')}" data-testid="legend" tabindex="0"></div>`;
}

/**
 * The narration, the Kafka check's word and the notices, between the timeline and the views. The
 * narration is not a live region: a busy run rewrites it every few ms, and `.live-sr` speaks its
 * lines at most every ANNOUNCE_EVERY_MS (announcer.js), for the first run alone.
 */
function news(opts, has) {
  return html`${has('narration') ? html`<p class="narration" data-testid="${prefix(opts)}narration" data-story="${prefix(opts)}narration" data-empty="${opts.tr.t('narration.empty')}"></p>` : null}
  ${opts.twin ? null : html`<p class="kafka-mark" data-testid="kafka-mark" hidden></p>`}
  <div class="notices" aria-live="polite"></div>`;
}

/** The run's views, and the place of a what-if's second run beside them. */
function runs(panels) {
  return html`<div class="run run-a"><p class="run-label"></p><div class="grid">${panels}</div></div>
    <div class="run run-b" hidden></div>`;
}

/** The instance's markup for `{views, controls, layout, tr}` (an Html, for `render`), in the
 * language of `tr` (a Translator, www/i18n.js). */
export function template(opts) {
  const has = (v) => opts.views.includes(v);
  const { tr } = opts;
  const panels = PANELS
    .filter(has)
    .map((v) => panel(v, bodies[v](opts), opts));
  // The full page is the document's one main, with the toolbar its banner and the timeline and the
  // news regions of their own, so that all it shows is in a landmark; an embed is one labelled
  // region of its host page.
  const main = opts.layout === 'page';
  const region = !main && !opts.twin;
  const bar = opts.controls === 'none' ? null : toolbar(opts);
  const inner = html`${opts.twin ? html`<p class="run-label"></p>` : null}
  ${main ? html`<header class="top">${bar}${menusMarkup(opts)}</header>` : html`<div class="top">${bar}${menusMarkup(opts)}</div>`}
  ${has('timeline') ? (main ? html`<section class="timeline-wrap" data-story="panel-timeline" aria-label="${tr.t('region.timeline')}"></section>` : html`<div class="timeline-wrap" data-story="panel-timeline"></div>`) : null}
  <div class="story" data-testid="story" hidden></div>
  ${main ? html`<section class="news" aria-label="${tr.t('region.news')}">${news(opts, has)}</section>` : news(opts, has)}
  ${opts.twin ? null : html`<section class="compare" data-testid="compare-view" data-story="panel-compare" aria-labelledby="h-compare" hidden></section>`}
  ${opts.twin ? html`<div class="grid" role="region" aria-label="${tr.t('region.whatIf')}">${panels}</div>` : main ? html`<main class="runs">${runs(panels)}</main>` : html`<div class="runs">${runs(panels)}</div>`}
  ${opts.twin ? null : html`<p class="live-sr sr-only" aria-live="polite"></p>`}`;
  // An attribute is there or not as a whole (the tag takes no interpolation between attributes).
  return region
    ? html`<div class="pp" lang="${tr.lang}" data-layout="${opts.layout}" data-controls="${opts.controls}" role="region" aria-label="${tr.t('region.embed')}">${inner}</div>`
    : html`<div class="pp" lang="${tr.lang}" data-layout="${opts.layout}" data-controls="${opts.controls}">${inner}</div>`;
}
