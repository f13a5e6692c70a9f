// The markup of one playground, built from its options: which views it shows and which controls.
// The full page is the same element with every view and every control; an embedded one usually
// shows a few views and the clock's buttons. Panels carry `data-testid="panel-NAME"`; controls
// keep the page's test ids.
import { SETUP_FIELDS } from './setup-form.js';
import { html, join } from './html.js';
import { CHANGES } from './compare.js';

/** Every view, in the order the page lays them out. */
export const VIEWS = ['timeline', 'narration', 'cluster', 'purgatory', 'wheel', 'codepath', 'responses', 'phases', 'log', 'metrics'];
export const DEFAULT_VIEWS = ['timeline', 'narration', 'cluster', 'purgatory', 'wheel'];
export const CONTROLS = ['full', 'minimal', 'none'];

const PANELS = {
  cluster: ['Cluster', 'Brokers, each partition’s replica logs with the high watermark (HW), the ISR, and the messages on the wire.'],
  purgatory: ['Produce purgatory', 'Requests waiting for acks=all: the watch list of each partition, in order, and each DelayedProduce.'],
  wheel: ['Timing wheel', 'Where each waiting request’s timeout sits: 1 ms buckets, and coarser levels for later deadlines.'],
  codepath: ['Code path', 'One request through the broker’s code, step by step, with the values that decided each step.'],
  responses: ['Responses', 'What each producer got back, and when.'],
  phases: ['Phases', 'What each request would get at every phase of the leader’s ISR-check beat: the same, or a race.'],
  log: ['Event log', 'What happened, newest last, in the words of Kafka’s source (idle repeats folded; past 3,000 lines the oldest go, idle ones first).'],
  metrics: ['Metrics', 'The purgatory’s gauges at every change, and the produce latency by acks.'],
};

const SPEEDS = [
  ['auto', 'auto'],
  ['0.01', '0.01×'],
  ['0.05', '0.05×'],
  ['0.2', '0.2×'],
  ['1', '1× (real time)'],
  ['10', '10×'],
  ['100', '100×'],
  ['1000', '1,000×'],
];

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
const field = ([name, label, kafka, note]) => html`<div class="field"><label for="f-${name}">${wrapAfterDots(label)}</label>
  <input id="f-${name}" name="${name}" inputmode="numeric" autocomplete="off" aria-describedby="d-${name}">
  <small id="d-${name}">${kafka}${note ? `; ${note}` : ''}</small></div>`;

/** A what-if's second run (`opts.twin`) lives in the first one's shadow root: its ids and test ids
 * are its own. */
const prefix = (opts) => (opts.twin ? 'b-' : '');

function panel(name, body, opts) {
  const [title, about] = PANELS[name];
  const pre = prefix(opts);
  // A panel is a named region of the full page; in an embed (several on a host page, each panel
  // name repeated) and in a what-if's second run it is a plain section under its heading.
  const content = html`<header class="ph"><h2 id="${pre}h-${name}">${title}</h2><button type="button" class="help" data-legend="${name}" aria-label="What the ${title.toLowerCase()} shows (legend)" title="Legend">?</button></header>
  <p class="about">${about}</p>
  ${body}`;
  return opts.layout === 'page' && !opts.twin
    ? html`<section class="panel ${name}" data-testid="${pre}panel-${name}" data-story="${pre}panel-${name}" aria-labelledby="${pre}h-${name}">${content}</section>`
    : html`<section class="panel ${name}" data-testid="${pre}panel-${name}" data-story="${pre}panel-${name}">${content}</section>`;
}

const produceForm = (full) => html`<form class="produce-form" aria-label="Send a produce request">
  <label>acks <select name="acks" data-testid="acks">
    <option value="all">all (-1)</option><option value="1">1</option><option value="0">0</option>${full ? html`<option value="2">2 (invalid)</option>` : null}
  </select></label>
  ${full ? html`<label>topic <select name="topic"></select></label>
  <label>partitions <input name="partitions" value="0" size="5" aria-describedby="h-parts"></label>
  <label>records <input name="count" value="10" size="4" inputmode="numeric"></label>
  <label>timeout <input name="timeout" value="" size="6" placeholder="30000" inputmode="numeric" aria-label="timeout (ms; empty for request.timeout.ms)"></label>` : null}
  <button type="submit" data-testid="produce" class="primary">Send</button>
  ${full ? html`<span class="burst"><label>or a burst of <input name="burst" value="100" size="4" inputmode="numeric" aria-label="burst size (requests, one per ms)"></label> <button type="button" class="burst-send" data-testid="burst">Send burst</button></span>` : null}
  <p id="h-parts" class="hint">${full ? 'Partitions: numbers such as “0” or “0, 1”; one that does not exist gets UNKNOWN_TOPIC_OR_PARTITION.' : ''}</p>
  <p class="cmd-error error" id="produce-error" role="alert" data-testid="command-error"></p>
</form>`;

const bodies = {
  cluster: (opts) => html`${opts.controls !== 'none' ? produceForm(opts.controls === 'full') : null}
    <div class="brokers" data-testid="brokers"></div>
    <div class="partitions"></div>
    <h3 class="net-h">On the wire</h3>
    <div class="network"></div>`,
  purgatory: () => html`<p class="purg-totals gauges"></p><div class="purg-body"></div>`,
  wheel: () => html`<div class="wheel-body"></div><div class="wheel-changes"></div>
    <details class="explain"><summary>How the wheel works</summary><div class="wheel-explain"></div></details>`,
  codepath: () => html`<div class="cp-body"></div>`,
  responses: () => html`<p class="resp-count"></p><ul class="resp-list"></ul>`,
  phases: () => html`<div class="phases-body"></div>`,
  log: () => html`<div class="log-filter" role="group" aria-label="Show events of kind">
      <label><input type="checkbox" value="produce" checked> produce</label>
      <label><input type="checkbox" value="purgatory" checked> purgatory</label>
      <label><input type="checkbox" value="replication" checked> HW &amp; replicas</label>
      <label><input type="checkbox" value="isr" checked> ISR &amp; leaders</label>
      <label><input type="checkbox" value="fetch"> fetches</label>
      <label>find <input class="log-text" size="8" type="search"></label>
      <button type="button" class="log-only" hidden></button>
    </div>
    <ol class="log-lines" aria-label="Events, newest last"></ol>`,
  metrics: () => html`<div class="metrics-body"></div>`,
};

function toolbar(opts) {
  const page = opts.layout === 'page';
  const full = opts.controls === 'full';
  const clock = opts.controls === 'none' ? null : html`<div class="clock-buttons" role="group" aria-label="Clock">
      <button type="button" data-testid="step-back" aria-label="Step back one event ([)" title="Step back one event ([); { for the previous marked moment">${ICONS.stepBack}</button>
      <button type="button" data-testid="play" class="primary play" aria-pressed="false" title="Play / pause (p)">▶ Play</button>
      <button type="button" data-testid="step" aria-label="Step to the next event (n or ])" title="Step to the next event (n, ]); } for the next marked moment">${ICONS.step}</button>
      <button type="button" data-testid="restart" aria-label="Restart from 0 ms" title="Restart from 0 ms">${ICONS.restart}</button>
    </div>`;
  const picker = full ? html`<label class="pick">Scenario <select data-testid="scenario-pick" class="scenario-pick"></select></label>
      <button type="button" data-testid="story-start" class="story-start" hidden>▶ Guided story</button>` : null;
  const speed = full ? html`<label class="speed" title="auto: the story pace (holds after each notable instant, slow motion, faster through quiet stretches); or a fixed number of simulated ms per wall ms">Speed <select data-testid="speed">${SPEEDS.map(([v, l]) => html`<option value="${v}">${l}</option>`)}</select></label>` : null;
  const menus = full ? html`<div class="menus">
      <button type="button" class="menu-btn" data-menu="share" aria-expanded="false">Share</button>
      <button type="button" class="menu-btn" data-menu="breakpoints" aria-expanded="false">Breakpoints</button>
      <button type="button" class="menu-btn" data-menu="setup" aria-expanded="false">Setup</button>
      <button type="button" class="menu-btn" data-menu="compare" data-testid="compare-open" aria-expanded="false" title="A second run beside this one, one thing changed">Compare…</button>
      <button type="button" class="menu-btn" data-menu="legend" data-testid="legend-open" aria-expanded="false">Legend</button>
    </div>` : html`<button type="button" class="menu-btn small" data-menu="legend" data-testid="legend-open" aria-expanded="false" aria-label="Legend">?</button>`;
  return html`<div class="bar" role="toolbar" aria-label="Playground controls">
    ${page ? html`<h1>Purgatory Playground <small>how Kafka answers acks=all</small></h1>` : null}
    ${picker}
    ${clock}
    <span class="clock" aria-label="simulated time"><span class="t-label">t =</span> <span class="t-now"><b data-testid="now-ms">0</b> <span class="unit">ms</span></span> <span class="speed-now" data-testid="speed-now"></span></span>
    ${speed}
    ${menus}
    <span class="hash" title="A fingerprint of this run's whole trace (FNV-1a of its JSON Lines); the runner prints the same with --trace-hash">trace <code data-testid="trace-hash">…</code></span>
  </div>`;
}

function menusMarkup(opts) {
  const full = opts.controls === 'full';
  const share = full ? html`<div class="menu" data-panel="share" hidden role="dialog" aria-label="Share this session">
      <h2 class="menu-h">Share this moment</h2>
      <p class="hint">The link holds the whole session (setup, every action, this instant, the selected request).</p>
      <div class="row"><button type="button" data-testid="copy-link" class="primary">Copy link</button><button type="button" data-testid="export-session">Download session file</button></div>
      <label class="import">Open a session file <input type="file" accept=".json,application/json" data-testid="import-session"></label>
      <p class="hint">or drop one on the playground.</p>
      <div class="row"><button type="button" data-testid="export-result">Result document</button><button type="button" data-testid="save-picture" title="The views as they are now, as an SVG picture, for slides and static docs">Save picture</button></div>
      <p class="share-out" role="status"></p>
    </div>` : null;
  const breakpoints = full ? html`<div class="menu" data-panel="breakpoints" hidden role="dialog" aria-label="Breakpoints">
      <h2 class="menu-h">Pause when…</h2>
      <label><input type="checkbox" data-testid="breakpoint-answered" data-bp="answered"> a request is answered <select data-bp-answered aria-label="which answers"><option value="any">any</option><option value="error">with an error</option></select></label>
      <label><input type="checkbox" data-testid="breakpoint-expiry" data-bp="expiry"> a request expires on the timer</label>
      <label><input type="checkbox" data-testid="breakpoint-isr-below-min" data-bp="isr_below_min"> the ISR drops below min.insync.replicas</label>
      <label><input type="checkbox" data-testid="breakpoint-isr-change" data-bp="isr_change"> an ISR change is committed</label>
      <label><input type="checkbox" data-testid="breakpoint-hw-stalled" data-bp="hw_stalled_ms"> the HW has not moved for <input data-bp-stall value="5000" size="6" inputmode="numeric" aria-label="milliseconds" aria-errormessage="bp-error"> ms while requests wait</label>
      <label><input type="checkbox" data-testid="breakpoint-leader-change" data-bp="leader_change"> a partition gets a new leader</label>
      <label><input type="checkbox" data-testid="breakpoint-purge" data-bp="purge"> a purgatory is purged</label>
      <p class="bp-error error" id="bp-error" role="alert"></p>
    </div>` : null;
  const setup = full ? html`<div class="menu wide" data-panel="setup" hidden role="dialog" aria-label="Cluster setup">
      <h2 class="menu-h">Cluster setup <small>(applying starts a new live session)</small></h2>
      <form class="setup-form">${SETUP_FIELDS.map(field)}
        <div class="row"><button type="submit" class="primary">Start a live session</button><button type="button" class="setup-defaults">Page defaults</button></div>
        <p class="setup-error error" role="alert"></p>
      </form>
    </div>` : null;
  const compare = full ? html`<div class="menu" data-panel="compare" hidden role="dialog" aria-label="Compare with a what-if">
      <h2 class="menu-h">What if…? <small>a second run beside this one, one thing changed</small></h2>
      <form class="compare-form" data-testid="compare">
        <label>Change <select name="what" data-testid="compare-what">${Object.entries(CHANGES).map(([v, c]) => html`<option value="${v}">${c.label}</option>`)}</select></label>
        <label class="c-action">action <select name="action" data-testid="compare-action"></select></label>
        <label class="c-value">to <input name="value" size="8" autocomplete="off" data-testid="compare-value"></label>
        <div class="row"><button type="submit" class="primary" data-testid="compare-apply">Compare</button></div>
        <p class="hint">Both runs share the seed, the setup and every other action, and play on one clock.</p>
        <p class="compare-error error" role="alert" data-testid="compare-error"></p>
      </form>
    </div>` : null;
  return html`${share}${breakpoints}${setup}${compare}<div class="menu legend-menu" data-panel="legend" hidden role="dialog" aria-label="Legend" data-testid="legend" tabindex="0"></div>`;
}

/** The narration, the Kafka check's word and the notices, between the timeline and the views. */
function news(opts, has) {
  return html`${has('narration') ? html`<p class="narration" data-testid="${prefix(opts)}narration" data-story="${prefix(opts)}narration" aria-live="${opts.twin ? 'off' : 'polite'}"></p>` : null}
  ${opts.twin ? null : html`<p class="kafka-mark" data-testid="kafka-mark" hidden></p>`}
  <div class="notices" aria-live="polite"></div>`;
}

/** The run's views, and the place of a what-if's second run beside them. */
function runs(panels) {
  return html`<div class="run run-a"><p class="run-label"></p><div class="grid">${panels}</div></div>
    <div class="run run-b" hidden></div>`;
}

/** The instance's markup for `{views, controls, layout}` (an Html, for `render`). */
export function template(opts) {
  const has = (v) => opts.views.includes(v);
  const panels = ['cluster', 'purgatory', 'wheel', 'codepath', 'responses', 'phases', 'log', 'metrics']
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
  ${has('timeline') ? (main ? html`<section class="timeline-wrap" data-story="panel-timeline" aria-label="Timeline"></section>` : html`<div class="timeline-wrap" data-story="panel-timeline"></div>`) : null}
  <div class="story" data-testid="story" hidden></div>
  ${main ? html`<section class="news" aria-label="What is happening">${news(opts, has)}</section>` : news(opts, has)}
  ${opts.twin ? null : html`<section class="compare" data-testid="compare-view" data-story="panel-compare" aria-labelledby="h-compare" hidden></section>`}
  ${opts.twin ? html`<div class="grid" role="region" aria-label="The what-if run">${panels}</div>` : main ? html`<main class="runs">${runs(panels)}</main>` : html`<div class="runs">${runs(panels)}</div>`}
  <p class="live-sr sr-only" aria-live="polite"></p>`;
  // An attribute is there or not as a whole (the tag takes no interpolation between attributes).
  return region
    ? html`<div class="pp" data-layout="${opts.layout}" data-controls="${opts.controls}" role="region" aria-label="Purgatory Playground: a Kafka broker model">${inner}</div>`
    : html`<div class="pp" data-layout="${opts.layout}" data-controls="${opts.controls}">${inner}</div>`;
}
