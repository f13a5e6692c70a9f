// The playground's controls: the clock's buttons and keys, the scenario picker, the menus (share,
// breakpoints, setup, what-if, legend), and the end of a scenario. The produce form and the
// brokers' buttons act through `Acting` (acting.js). Every control acts through the app.
import { SCENARIOS } from './scenarios.js';
import { PAGE_DEFAULTS, readSetup, fillSetup, setupErrorWords, showSetupError } from './setup-form.js';
import { legendHtml } from './legend.js';
import { fragmentFor, readSessionFile, download } from './share.js';
import { pictureOf } from './picture.js';
import { renderKafkaMark } from './kafka-check.js';
import { fillCompareForm, submitCompareForm } from './compare-form.js';
import { html, render, renderAdjacent } from './html.js';
import { errorWords } from './error-words.js';
import { fullPage } from 'bundle-files';
import { Acting, wholeNumber } from './acting.js';
import { keepOwn, offerBack } from './left-session.js';

/** The longest HW stall a breakpoint can wait for (the model's limit: a 32-bit whole number). */
const MAX_STALL_MS = 2147483647;

export class Controls {
  constructor(app) {
    this.app = app;
    this.$ = app.$;
    /** The produce form, the brokers' buttons and the question before acting in the past. */
    this.acting = new Acting(app);
    this.filter = { text: '', kinds: new Set(['produce', 'purgatory', 'replication', 'isr']), only: null };
    this.wire();
  }

  // ---- Wiring ------------------------------------------------------------------------------

  wire() {
    const root = this.app.root;
    const on = (sel, ev, f) => root.querySelector(sel)?.addEventListener(ev, f);
    root.addEventListener('click', (ev) => this.onClick(ev));
    on('[data-testid="play"]', 'click', () => this.app.playback.toggle());
    on('[data-testid="step"]', 'click', () => this.app.playback.step());
    on('[data-testid="step-back"]', 'click', () => this.app.playback.stepBack());
    on('[data-testid="restart"]', 'click', () => this.app.playback.restart());
    on('[data-testid="speed"]', 'change', (ev) => this.setSpeed(ev.target.value));
    // The page's language: the element speaks it from now on (remounted where it was).
    on('[data-testid="language"]', 'change', (ev) => this.app.host.setLanguage(ev.target.value));
    on('.produce-form', 'submit', (ev) => { ev.preventDefault(); this.acting.produce(1); });
    on('.burst-send', 'click', () => this.acting.produce(wholeNumber(this.$('[name=burst]').value)));
    on('.produce-form', 'input', (ev) => this.acting.fieldEdited(ev.target));
    on('.scenario-pick', 'change', (ev) => this.pick(ev.target.value));
    on('.story-start', 'click', () => this.app.story.start());
    on('.setup-form', 'submit', (ev) => { ev.preventDefault(); this.applySetup(); });
    on('.compare-form', 'submit', (ev) => { ev.preventDefault(); this.compare(); });
    on('[data-testid="compare-what"]', 'change', () => this.fillCompare());
    on('[data-testid="compare-action"]', 'change', () => this.fillCompare({ keepAction: true }));
    on('.setup-defaults', 'click', () => fillSetup(this.$('.setup-form'), PAGE_DEFAULTS));
    on('[data-testid="copy-link"]', 'click', () => this.copyLink());
    on('[data-testid="save-picture"]', 'click', () => this.savePicture());
    on('[data-testid="export-session"]', 'click', () => this.download('purgatory-session.json', this.app.sim.exportSession(this.app.story.active)));
    on('[data-testid="export-result"]', 'click', () => this.download('purgatory-result.json', this.app.sim.result()));
    on('[data-testid="import-session"]', 'change', (ev) => this.importFile(ev.target.files?.[0]));
    root.querySelectorAll('[data-bp], [data-bp-answered], [data-bp-stall]').forEach((el) => el.addEventListener('change', () => this.applyBreakpoints()));
    const filters = root.querySelectorAll('.log-filter input[type=checkbox]');
    for (const c of filters) c.addEventListener('change', () => { this.filter.kinds = new Set([...filters].filter((x) => x.checked).map((x) => x.value)); this.app.refresh(); });
    on('.log-text', 'input', (ev) => { this.filter.text = ev.target.value; this.app.refresh(); });
    on('.log-only', 'click', () => { this.filter.only = null; this.app.refresh(); });
    this.wireKeys();
    this.wireDrop();
    const { tr } = this.app;
    const pick = this.$('.scenario-pick');
    if (pick) {
      // Each scenario is offered under what it demonstrates (the message `scenario.NAME`).
      const option = ([n]) => html`<option value="${n}" title="${tr.t(`scenario.${n}`)}">${label(n, tr)}</option>`;
      render(pick, html`<option value="">${tr.t('scenarios.live')}</option>
        <optgroup label="${tr.t('scenarios.spec')}">${SCENARIOS.filter(([n]) => n.startsWith('s')).map(option)}</optgroup>
        <optgroup label="${tr.t('scenarios.more')}">${SCENARIOS.filter(([n]) => n.startsWith('x')).map(option)}</optgroup>
        <optgroup label="${tr.t('scenarios.whatIfs')}">${SCENARIOS.filter(([n]) => n.startsWith('w')).map(option)}</optgroup>`);
    }
    const legend = this.$('[data-panel="legend"]');
    if (legend) render(legend, legendHtml(tr));
  }

  wireKeys() {
    const handler = (ev) => {
      if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey) return;
      // Escape closes an open menu from anywhere in it, its fields too, and gives its button back
      // the focus.
      if (ev.key === 'Escape') {
        if (this.app.root.querySelector('.menu:not([hidden])')) {
          ev.preventDefault();
          this.closeMenus({ refocus: true });
        }
        return;
      }
      const t = ev.composedPath()[0];
      if (t instanceof Element && t.closest('input, select, textarea, [contenteditable=""], [contenteditable="true"]')) return;
      const act = {
        p: () => this.app.playback.toggle(),
        n: () => this.app.playback.step(),
        ']': () => this.app.playback.step(),
        '[': () => this.app.playback.stepBack(),
        // A step is one event (a fetch every few ms); these go from marked moment to marked moment.
        '}': () => { this.app.playback.setPlaying(false); this.app.playback.jumpMarker(1); },
        '{': () => { this.app.playback.setPlaying(false); this.app.playback.jumpMarker(-1); },
      }[ev.key];
      if (!act || !this.app.sim) return;
      ev.preventDefault();
      act();
    };
    // The page owns the whole window's keys; an embedded playground only the keys typed in it.
    // The window outlives a remount (a language switch), so its listener goes with the app
    // (`dispose`); the root's goes with the root.
    if (this.app.opts.layout === 'page') {
      window.addEventListener('keydown', handler);
      this.unwireKeys = () => window.removeEventListener('keydown', handler);
    } else this.app.root.addEventListener('keydown', handler);
  }

  /** Lets go of what the controls hold outside the app's root. */
  dispose() {
    this.unwireKeys?.();
    this.unwireKeys = null;
  }

  wireDrop() {
    if (this.app.opts.controls !== 'full') return;
    const root = this.app.root;
    root.addEventListener('dragover', (ev) => { if (ev.dataTransfer?.types.includes('Files')) { ev.preventDefault(); root.classList.add('dropping'); } });
    root.addEventListener('dragleave', () => root.classList.remove('dropping'));
    root.addEventListener('drop', (ev) => {
      root.classList.remove('dropping');
      const file = ev.dataTransfer?.files?.[0];
      if (!file) return;
      ev.preventDefault();
      this.importFile(file);
    });
  }

  onClick(ev) {
    const b = ev.target.closest('button');
    if (!b || !this.app.root.contains(b)) {
      if (!ev.target.closest('.menu')) this.closeMenus();
      return;
    }
    if (b.dataset.cmd) this.acting.act({ action: b.dataset.cmd, broker: Number(b.dataset.broker) }, () => this.refocusBroker(b.dataset.cmd, b.dataset.broker));
    else if (b.dataset.select) this.selectRequest(b.dataset.select);
    else if (b.dataset.only) { this.filter.only = b.dataset.only; this.app.refresh(); }
    else if (b.dataset.menu) this.toggleMenu(b.dataset.menu, b);
    else if (b.dataset.legend) this.openLegend(b.dataset.legend, b);
    else if (b.dataset.end === 'restart') this.app.playback.restart();
    else if (b.dataset.end === 'live') this.continueLive();
    // A button outside the menus closes them, unless it is one that opens a menu (the legend's
    // "?" buttons on the panels open the legend at their section).
    if (!b.closest('.menu') && !b.dataset.menu && !b.dataset.legend) this.closeMenus();
  }

  /**
   * The cluster view redraws its markup after a broker control acts, which would drop the focus to
   * the page: put it on the button that took the pressed one's place (Pause becomes Resume, Crash
   * becomes Restart), or the broker's other control.
   */
  refocusBroker(cmd, broker) {
    const swap = { pause_follower: 'resume_follower', resume_follower: 'pause_follower', crash_broker: 'restart_broker', restart_broker: 'crash_broker' };
    const root = this.app.root;
    const at = (c) => root.querySelector(`button[data-cmd="${c}"][data-broker="${broker}"]`);
    (at(swap[cmd]) ?? at(cmd) ?? root.querySelector(`button[data-broker="${broker}"]`))?.focus({ preventScroll: true });
  }

  selectRequest(id) {
    this.app.select(id);
  }

  // ---- Scenario, setup, import ---------------------------------------------------------------

  async pick(name) {
    const kept = keepOwn(this.app);
    const msg = name ? await this.app.open({ curated: name }) : await this.app.open({ live: PAGE_DEFAULTS });
    if (msg) return this.app.notice('bad', msg);
    this.app.host.syncUrl?.();
    offerBack(this.app, kept);
  }

  // ---- What if ---------------------------------------------------------------------------------

  /**
   * The compare form for what is chosen: the actions to pick from where the change is about one,
   * and a value that makes a difference worth seeing (the other acks, the other min ISR, an action
   * 5,000 ms later).
   */
  fillCompare({ keepAction = false } = {}) {
    const form = this.$('.compare-form');
    if (form && this.app.sim) fillCompareForm(form, this.$('.compare-error'), this.app, { keepAction });
  }

  async compare() {
    if (await submitCompareForm(this.$('.compare-form'), this.$('.compare-error'), this.app)) {
      this.closeMenus({ refocus: true });
      this.app.$('.compare')?.scrollIntoView?.({ block: 'nearest' });
    }
  }

  async applySetup() {
    const { tr } = this.app;
    const read = readSetup(this.$('.setup-form'), tr);
    const kept = read.error ? null : keepOwn(this.app);
    const refused = read.error ? null : await this.app.open({ live: read.setup });
    const wrong = read.error ? read : refused ? setupErrorWords(errorWords(refused, tr), tr) : null;
    this.sayInSetup(wrong);
    if (wrong) return;
    this.closeMenus({ refocus: true }); // focus back on Setup, not the hidden form's button
    this.app.host.syncUrl?.(); // the address named the scenario before; it no longer plays
    offerBack(this.app, kept);
  }

  /** The Setup form's error, or none (see `showSetupError`). */
  sayInSetup(wrong) {
    showSetupError(this.$('.setup-form'), this.$('.setup-error'), wrong);
  }

  async importFile(file) {
    if (!file) return;
    const { tr } = this.app;
    const out = this.$('.share-out');
    try {
      const text = await readSessionFile(file, tr);
      const kept = keepOwn(this.app);
      const msg = await this.app.open({ text, label: file.name }, { play: false });
      if (msg) throw new Error(tr.t('file.refused', { file: file.name, error: errorWords(msg, tr) }));
      if (out) out.textContent = ''; // an earlier file's refusal is not about this one
      this.app.notice('ok', tr.t('file.opened', { file: file.name }));
      offerBack(this.app, kept);
      this.app.host.syncUrl?.();
      this.closeMenus();
    } catch (e) {
      const text = tr.t('file.notOpened', { error: e.message ?? e });
      if (out) out.textContent = text;
      this.app.clearNotices('ok'); // an earlier file's "Opened" is not about this one
      this.app.notice('bad', text);
    }
  }

  /** The views as drawn now, as an SVG file (see picture.js). */
  savePicture() {
    const app = this.app;
    const { tr } = app;
    const at = app.sim.nowMs;
    // The file is named in English words (`purgatory-live-session-…`), the picture says it in the
    // reader's language.
    const what = app.curatedName ?? (app.live ? 'live session' : app.source?.label ?? 'session');
    const shown = app.curatedName ?? (app.live ? tr.t('share.out.live') : app.source?.label ?? tr.t('share.out.session'));
    const css = [...app.root.getRootNode().querySelectorAll('style')].map((el) => el.textContent).join('\n');
    const svg = pictureOf(app.root.querySelector('.pp'), css, tr.t('share.out.pictureTitle', { what: shown, at }));
    const name = `purgatory-${String(what).replace(/[^\w.-]+/g, '-')}-${at}ms.svg`;
    download(name, svg, 'image/svg+xml');
    const out = this.$('.share-out');
    if (out) out.textContent = tr.t('share.out.saved', { file: name, size: svg.length, at });
  }

  async copyLink() {
    const app = this.app;
    const out = this.$('.share-out');
    const fragment = await fragmentFor({
      exportText: app.sim.exportSession(app.story.active),
      curated: app.curatedName,
      userActions: app.sim.actions().filter((a) => a.by_user).length,
      atMs: app.sim.nowMs,
      selected: app.selected,
      story: app.story.active,
      storyStep: app.story.active ? app.story.step : null,
      compare: app.comparison?.change,
      lang: app.tr.lang,
    });
    const page = app.opts.layout === 'page';
    const url = new URL(page ? location.href : this.fullPage());
    url.search = '';
    url.hash = fragment;
    if (page) history.replaceState(null, '', url);
    let copied = false;
    try {
      await navigator.clipboard.writeText(url.href);
      copied = true;
    } catch { /* no clipboard permission: the link is in the address bar, or below */ }
    if (!out) return;
    const size = url.href.length;
    if (copied || page) out.textContent = app.tr.t(copied ? 'share.out.copied' : 'share.out.inAddressBar', { size });
    else render(out, html`${app.tr.t('share.out.here', { size })} <a href="${url.href}" target="_blank" rel="noopener">${app.tr.t('share.out.open')}</a>`);
  }

  /**
   * Where an embed's link opens: only the full page reads a session from its address (an article
   * may hold several embeds). The `page` attribute names it; else the full page shipped beside the
   * module (dist/purgatory-playground.html).
   */
  fullPage() {
    return this.app.opts.page ?? fullPage() ?? location.href;
  }

  download(name, text) {
    download(name, text);
  }

  // ---- Breakpoints, speed, menus -----------------------------------------------------------

  /** The breakpoint form as set (what a remount carries over): `{checked: [names], answered, stall}`. */
  breakpointForm() {
    const root = this.app.root;
    return {
      checked: [...root.querySelectorAll('[data-bp]')].filter((b) => b.checked).map((b) => b.dataset.bp),
      answered: root.querySelector('[data-bp-answered]')?.value,
      stall: root.querySelector('[data-bp-stall]')?.value,
    };
  }

  /** Sets the breakpoint form as `breakpointForm` read it, and applies it. */
  restoreBreakpointForm({ checked, answered, stall }) {
    const root = this.app.root;
    for (const box of root.querySelectorAll('[data-bp]')) box.checked = checked.includes(box.dataset.bp);
    const which = root.querySelector('[data-bp-answered]');
    if (which && answered != null) which.value = answered;
    const ms = root.querySelector('[data-bp-stall]');
    if (ms && stall != null) ms.value = stall;
    if (checked.length) this.applyBreakpoints();
  }

  applyBreakpoints() {
    const root = this.app.root;
    const spec = {};
    const stall = root.querySelector('[data-bp-stall]');
    let problem = null;
    for (const box of root.querySelectorAll('[data-bp]')) {
      if (!box.checked) continue;
      const name = box.dataset.bp;
      if (name === 'answered') spec.answered = root.querySelector('[data-bp-answered]').value;
      else if (name === 'hw_stalled_ms') {
        // Read strictly, as the produce form does: "abc" or "" is not "off", and -5 is not 5.
        const ms = wholeNumber(stall.value);
        if (ms >= 1 && ms <= MAX_STALL_MS) spec.hw_stalled_ms = ms;
        else problem = this.app.tr.t('bp.problem.stall', { max: MAX_STALL_MS });
      } else spec[name] = true;
    }
    if (problem) stall.setAttribute('aria-invalid', 'true');
    else stall?.removeAttribute('aria-invalid');
    const err = this.$('.bp-error');
    try {
      this.app.sim.setBreakpoints(spec);
      this.app.breakpoints = spec;
      this.app.comparison?.copyBreakpoints();
      if (err) err.textContent = problem ?? '';
    } catch (e) {
      // The model's message names the setting as the scenario file does; the form calls it so.
      if (err) err.textContent = errorWords(e.message ?? e, this.app.tr).replace(/^breakpoints\.hw_stalled_ms/, () => this.app.tr.t('bp.problem.stallName'));
    }
  }

  setSpeed(value) {
    this.app.clock.speed = value === 'auto' ? 'auto' : Number(value);
    this.updateSpeed();
  }

  /** The speed menu shows the clock's speed (a story or an attribute may have set it). */
  updateSpeedPick() {
    const pick = this.$('[data-testid="speed"]');
    if (!pick) return;
    const value = String(this.app.clock.speed);
    if (![...pick.options].some((o) => o.value === value)) renderAdjacent(pick, 'beforeend', html`<option value="${value}">${value}×</option>`);
    pick.value = value;
  }

  toggleMenu(name, button) {
    const panel = this.$(`[data-panel="${name}"]`);
    if (!panel) return;
    const open = panel.hidden;
    this.closeMenus();
    if (!open) return;
    panel.hidden = false;
    this.belowStory(panel);
    this.fitMenu(panel);
    button.setAttribute('aria-expanded', 'true');
    if (name === 'setup') {
      fillSetup(this.$('.setup-form'), this.app.sim.setup());
      this.sayInSetup(null); // an earlier attempt's error is not about the session's setup
    }
    if (name === 'compare') this.fillCompare();
    // Focus goes in: to its first control, or its heading (the legend has none).
    const first = panel.querySelector('button, input, select, a[href]') ?? panel.querySelector('h2');
    if (first?.tagName === 'H2') first.setAttribute('tabindex', '-1');
    first?.focus();
  }

  openLegend(section, button) {
    const panel = this.$('[data-panel="legend"]');
    if (!panel) return;
    this.closeMenus();
    panel.hidden = false;
    // From a panel's "?" while the bar is not kept on screen (a phone, an embed), the legend
    // opens under that button: under the bar it would be out of sight, above the panel. On the
    // page, the page then moves as little as shows it whole (an embed's menu fits its box).
    const bar = this.app.root.querySelector('.top');
    const underButton = button && !bar.contains(button) && getComputedStyle(bar).position !== 'sticky';
    if (underButton) panel.style.top = `${Math.round(button.getBoundingClientRect().bottom - bar.getBoundingClientRect().top + 4)}px`;
    this.fitMenu(panel);
    if (underButton && this.app.opts.layout === 'page') panel.scrollIntoView({ block: 'nearest' });
    button?.setAttribute('aria-expanded', 'true');
    const target = panel.querySelector(`[data-section="${section}"]`);
    // The section at the top of the menu, which scrolls inside itself: the page stays where the
    // reader is (scrollIntoView would move it too).
    panel.scrollTop = 0;
    if (target) panel.scrollTop = target.getBoundingClientRect().top - panel.getBoundingClientRect().top;
    // Focus goes in, as into the other menus: to the section's heading, or the legend's own.
    const heading = target?.querySelector('h3') ?? panel.querySelector('h2');
    heading?.setAttribute('tabindex', '-1');
    heading?.focus({ preventScroll: true });
  }

  /**
   * While the guided story's caption is on screen under the bar, a menu opens below the caption,
   * never over its Back / Next / × buttons.
   */
  belowStory(panel) {
    const card = this.app.story.active ? this.app.root.querySelector('.story-card') : null;
    if (!card) return;
    const bar = this.app.root.querySelector('.top');
    const below = card.getBoundingClientRect().bottom - bar.getBoundingClientRect().top + 4;
    if (below > bar.offsetHeight) panel.style.top = `${Math.round(below)}px`;
  }

  /** The scenario's end reached: the run goes on as a live session from its last instant. */
  continueLive() {
    this.app.story.stop(); // it tells the scenario's run, which ends here
    this.app.sim.continueLive();
    this.app.playback.resume();
    this.app.playback.setPlaying(true);
  }

  /**
   * An embed can be shorter than a menu, and clips what overflows it: the menu is made no taller
   * than the room below its top (it scrolls inside). The page's menus keep their 70vh.
   */
  fitMenu(panel) {
    if (this.app.opts.layout === 'page') return;
    const room = this.app.root.querySelector('.pp').getBoundingClientRect().bottom - panel.getBoundingClientRect().top - 8;
    panel.style.maxHeight = `${Math.max(120, Math.floor(room))}px`;
  }

  closeMenus({ refocus = false } = {}) {
    for (const m of this.app.root.querySelectorAll('.menu')) {
      m.hidden = true;
      m.style.top = ''; // under the bar again (see openLegend)
    }
    const opened = [...this.app.root.querySelectorAll('[data-menu][aria-expanded="true"], [data-legend][aria-expanded="true"]')];
    for (const b of opened) b.setAttribute('aria-expanded', 'false');
    if (refocus) opened[0]?.focus();
  }

  logFilter() {
    return this.filter;
  }

  // ---- What the controls show ----------------------------------------------------------------

  onOpen() {
    const app = this.app;
    this.acting.clearProblems();
    const sel = app.$('.produce-form select[name=topic]');
    if (sel) render(sel, html`${app.sim.setup().topics.map((t) => html`<option>${t.name}</option>`)}`);
    const { tr } = app;
    const pick = this.$('.scenario-pick');
    if (pick) {
      // A session from a link, a file or a scenario text is named for what it is, not "Live",
      // nor the curated scenario it began as once it holds actions of the person's own.
      pick.querySelector('option.opened')?.remove();
      const curated = app.curatedName;
      const opened = !app.live && app.source?.curated == null && app.source?.was !== 'curated';
      const own = opened && curated && app.sim.actions().some((a) => a.by_user);
      if (opened && (!curated || own)) {
        const scenario = curated && pick.querySelector(`option[value="${CSS.escape(curated)}"]`)?.textContent;
        // A run named as a curated scenario (opened at a phase of it) is called by its title.
        const titled = app.sim.name && pick.querySelector(`option[value="${CSS.escape(app.sim.name)}"]`)?.textContent;
        const what = scenario ? tr.t('scenarios.withYourActions', { scenario }) : app.sim.extent().live ? tr.t('scenarios.opened.live') : titled || app.sim.name || tr.t('scenarios.opened.unnamed');
        const from = app.source?.label ?? tr.t('scenarios.opened.file');
        // A run opened at a phase says the phase first: a long title is cut off at the picker's end.
        const key = app.source?.phase != null ? 'scenarios.openedAt' : 'scenarios.opened';
        renderAdjacent(pick, 'afterbegin', html`<option class="opened" value="" disabled>${tr.t(key, { what, from })}</option>`);
        pick.selectedIndex = 0;
      } else pick.value = curated ?? '';
    }
    const language = this.$('[data-testid="language"]');
    if (language) language.value = app.tr.lang;
    const storyBtn = this.$('.story-start');
    if (storyBtn) storyBtn.hidden = !app.story.available();
    this.updateKafkaMark();
    this.hideEnd();
    this.updateHash();
    this.updateSpeedPick();
    this.updatePlay();
    this.applyBreakpoints();
  }

  /**
   * The Kafka check's word on the open scenario, while it is the curated one as written (and on
   * its second run too, while that is the one compared beside it).
   */
  updateKafkaMark() {
    const app = this.app;
    const el = app.$('.kafka-mark');
    if (!el || !app.sim) return;
    const own = app.sim.actions().some((a) => a.by_user);
    const comparing = app.comparison?.active ? app.comparison.change : null;
    renderKafkaMark(el, own ? null : app.curatedName, { link: app.opts.layout === 'page', tr: app.tr, comparing });
  }

  updatePlay() {
    const b = this.$('[data-testid="play"]');
    if (!b) return;
    const playing = this.app.clock.playing;
    // Its name says what it does next (no aria-pressed as well: "Pause, pressed" says the
    // opposite); the glyph is for the eye.
    render(b, html`<span aria-hidden="true">${playing ? '❚❚' : '▶'}</span> ${this.app.tr.t(playing ? 'clock.pause' : 'clock.play')}`);
    this.updateSpeed();
  }

  updateSpeed() {
    const el = this.$('[data-testid="speed-now"]');
    const text = this.app.playback.speedText();
    if (el && el.textContent !== text) el.textContent = text;
  }

  updateClock(snap) {
    const now = this.$('[data-testid="now-ms"]');
    const text = this.app.tr.num(snap.now_ms); // written as every other millisecond count on the page
    if (now && now.textContent !== text) {
      now.textContent = text;
      now.dataset.ms = String(snap.now_ms);
    }
    this.updateHash();
  }

  updateHash() {
    const el = this.$('[data-testid="trace-hash"]');
    if (!el) return;
    const hash = this.app.sim?.traceHash;
    const text = hash ?? this.app.tr.t('trace.computing');
    if (el.textContent !== text) el.textContent = text;
  }

  showEnd() {
    // The open story's caption says it and offers the same choices (the banner would sit under it).
    if (this.app.story.active) return this.app.story.follow();
    const box = this.$('.notices');
    if (!box || box.querySelector('[data-testid="scenario-end"]')) return;
    const el = document.createElement('div');
    el.className = 'notice end';
    el.dataset.testid = 'scenario-end';
    el.setAttribute('role', 'status');
    const { tr } = this.app;
    const horizon = this.app.sim.runUntilMs;
    render(el, html`<span>${tr.t('end.reached', { at: horizon })}</span> <button type="button" class="primary" data-end="restart">${tr.t('end.restart')}</button> <button type="button" data-end="live">${tr.t('end.live')}</button>`);
    box.append(el);
  }

  hideEnd() {
    this.$('.notices')?.querySelector('[data-testid="scenario-end"]')?.remove();
  }
}

/**
 * A scenario's entry in the picker: its id and the heading of what it demonstrates, in `tr`'s
 * language ("S03 · The follower stalled early enough"; the Chinese heading ends at "：").
 */
function label(name, tr) {
  const id = name.split('-')[0].toUpperCase().replace(/^X/, 'x');
  const about = (n) => tr.t(`scenario.${n}`).replace(/^S\d+\.\s*/, '');
  const heading = (t) => t.split(/:\s|：/)[0];
  const text = about(name);
  // Scenarios that share a heading (S15's two purge cases) are told apart by what follows it.
  const shared = SCENARIOS.some(([n]) => n !== name && heading(about(n)) === heading(text));
  return `${id} · ${(shared ? text.split(/\s\(|\.\s|（|。/)[0] : heading(text)).replace(/[.。]$/, '')}`;
}
