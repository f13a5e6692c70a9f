// <purgatory-playground>: the whole playground as one custom element, for the page and for
// documentation. One script tag, then any number of elements; each has its own shadow root (no
// style leaks in or out), its own session of the broker model, its own clock; they share the
// compiled wasm module, which the script finds next to itself.
//
//   <purgatory-playground scenario="s03-stalled-follower-completes-at-isr-shrink"
//                         views="cluster,purgatory" controls="minimal" autoplay></purgatory-playground>
//
// Attributes (docs/embedding.md): scenario | src | an inline <script type="application/json">
// child, views, controls, autoplay, speed, loop, theme, height, story, layout, compare (a what-if
// beside the run: compare="acks=1"), lang (else the host page's <html lang>). A bad value is
// reported in the element (and on the console) and its default is used; nothing else breaks.
import STYLE from './style.css';
import { PlaygroundApp } from './app.js';
import { SCHEME_ATTRS, hostScheme, parseOptions, problem, problemText } from './attributes.js';

// The module exported the host-scheme reader before the attributes moved out: it still does.
export { hostScheme };
import { PAGE_DEFAULTS } from './setup-form.js';
import { curated, fetchScenarioText } from './scenarios.js';
import { MAX_INSTANT_MS } from './share.js';
import { LinkError, addressPlan, labelled, sayLinkProblems } from './address.js';
import { html, render } from './html.js';
import { compiledModule } from './wasm-module.js';
import { ENGLISH, languageFor, loadedTranslator, translatorFor } from './i18n.js';
import { errorWords } from './error-words.js';
import { firstVisit, remember, rememberedLanguage, rememberLanguage } from './settings.js';
import { keepForNextLoad, keepOwn, offerBack, offerLastLoad } from './left-session.js';
import { checkCommandArgument, checkSeekArgument } from './api-args.js';

/** Attributes whose change rebuilds the markup (and reopens the session where it was). */
const LAYOUT_ATTRS = ['views', 'controls', 'layout', 'lang'];
/** How long an embed stays in view before its clock starts (see `updateRunning`). */
const SETTLE_MS = 250;
/** Attributes whose change opens another session. */
const SOURCE_ATTRS = ['scenario', 'src'];

export class PurgatoryPlayground extends HTMLElement {
  static get observedAttributes() {
    return ['scenario', 'src', 'views', 'controls', 'layout', 'speed', 'loop', 'theme', 'height', 'autoplay', 'story', 'compare', 'lang', 'page'];
  }

  constructor() {
    super();
    this.shadow = this.attachShadow({ mode: 'open' });
    this.app = null;
    this.connected = false;
    this.visible = true;
    this.generation = 0;
    /** A source set by attribute is opening (see `openAttributeSource`). */
    this.sourcePending = false;
  }

  connectedCallback() {
    if (this.connected) return;
    this.connected = true;
    this.listen(true);
    // Moved in the document (a framework reordering nodes): the session goes on where it was.
    if (this.app) return;
    // Start fetching and compiling the model now (once per page): it streams off the main thread
    // while the markup is built. A failure surfaces when the session opens.
    compiledModule().catch(() => {});
    this.mount().catch((e) => this.fail(e));
  }

  /** What the element follows while in the document: its visibility, the tab's, the address. */
  listen(on) {
    this.observer ??= new IntersectionObserver((entries) => {
      // One call may bring several changes of the one element (in, then out again as the page
      // above it lays out): the last is how it stands.
      this.visible = entries.at(-1).isIntersecting;
      this.updateRunning();
    });
    this.onVisibility ??= () => this.updateRunning();
    this.onHashChange ??= () => this.openLink().catch((e) => this.fail(e));
    // The full page left (a reload, Back): see `keepForNextLoad`.
    this.onPageHide ??= () => { if (this.app?.sim && this.opts.layout === 'page') keepForNextLoad(this.app, this.lastOffer); };
    // A docs site's dark-mode toggle changes a class or an attribute of <html> or <body>; its
    // language switch, <html lang>.
    this.schemeObserver ??= new MutationObserver(() => this.applyTheme());
    this.langObserver ??= new MutationObserver(() => this.followLanguage());
    if (on) {
      this.observer.observe(this);
      for (const el of [document.documentElement, document.body].filter(Boolean)) {
        this.schemeObserver.observe(el, { attributes: true, attributeFilter: SCHEME_ATTRS });
      }
      this.langObserver.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
    } else {
      this.observer.disconnect();
      this.schemeObserver.disconnect();
      this.langObserver.disconnect();
    }
    const method = on ? 'addEventListener' : 'removeEventListener';
    document[method]('visibilitychange', this.onVisibility);
    window[method]('hashchange', this.onHashChange);
    window[method]('pagehide', this.onPageHide);
  }

  disconnectedCallback() {
    this.connected = false;
    this.listen(false);
    this.app?.clock.stop();
    // A move is a removal and an insertion in one task: the session is freed only if the element
    // is still out of the document once the task is over.
    queueMicrotask(() => {
      if (this.isConnected) return;
      const carried = this.carried?.handle;
      const taken = carried != null && this.app?.sim === carried;
      this.app?.destroy();
      this.app = null;
      // A session on its way to new views that will not come: freed too.
      if (carried && !taken) {
        try { carried.free(); } catch { /* a trapped handle cannot be freed; dropped */ }
      }
      this.carried = null;
      this.generation++; // a mount under way stops at its next step
      this.removeAttribute('ready');
    });
  }

  attributeChangedCallback(name, old, value) {
    if (old === value) return;
    // A remount under way reads the attributes afresh only if asked again.
    if (!this.app && this.carried && LAYOUT_ATTRS.includes(name)) {
      this.remount();
      return;
    }
    if (!this.app) return;
    // A source set on the element (by script) is what plays from then on, in the full page too,
    // where the address's link decided only the first open; the address follows it.
    if (SOURCE_ATTRS.includes(name)) this.openAttributeSource();
    else if (name === 'lang' && languageFor(value ?? this.language()) === this.opts?.tr.lang) return;
    else if (LAYOUT_ATTRS.includes(name)) this.remount();
    else if (name === 'compare') {
      if (value) this.app.comparison?.onOpen(value).catch((e) => this.fail(e));
      else this.app.comparison?.end();
    }
    else {
      this.applyLight();
      if (name === 'autoplay' && value !== null && this.app.sim) this.app.playback.setPlaying(true);
    }
  }

  /**
   * Opens the source the attributes now name. Until it is open, a remount (views set in the same
   * task, as a framework sets several properties at once) opens it rather than keep the session
   * it replaces.
   */
  openAttributeSource() {
    const gen = ++this.generation;
    this.sourcePending = true;
    this.openSource(gen, null, { link: false })
      .then(() => {
        if (gen === this.generation) this.sourcePending = false;
        if (this.app) this.syncUrl();
      })
      .catch((e) => this.fail(e));
  }

  /**
   * Builds the markup and opens the session the attributes name (the address's link too when
   * `link`, as at first), or `saved` (`{text, at, selected}`: the session a remount keeps,
   * reopened at its instant).
   */
  async mount(saved = null, { link = true } = {}) {
    const gen = ++this.generation;
    const { opts, problems } = parseOptions(this);
    // The language's catalogue before any markup: English at once, so that the markup is there
    // when the element is connected; another language's chunk is fetched the first time.
    const lang = this.language();
    opts.tr = loadedTranslator(lang) ?? await translatorFor(lang).catch((e) => {
      console.warn(`<purgatory-playground> the ${lang} messages could not be loaded (${e.message ?? e}); speaking English`);
      return ENGLISH;
    });
    // Removed, or asked for something else, while the catalogue loaded.
    if (gen !== this.generation || !this.isConnected) return;
    this.opts = opts;
    // Until the session is open the markup stays hidden behind one line: the browser neither lays
    // out nor paints empty views (a flash of empty panels, and main-thread time the model's first
    // frame waits for); `reveal` shows the views once, drawn.
    this.showOnly(html`<p class="pp-loading" role="status">${opts.tr.t('element.loading')}</p><div class="host-root" hidden></div>`);
    if (opts.layout === 'page') {
      document.documentElement.lang = opts.tr.lang;
      document.title = opts.tr.t('page.documentTitle', { title: opts.tr.t('page.title'), subtitle: opts.tr.t('page.subtitle') });
    }
    this.app = new PlaygroundApp(this, this.shadow.querySelector('.host-root'), opts);
    if (saved?.phasesBeat) this.app.phasesBeat = saved.phasesBeat;
    if (saved) this.app.phasesBroker = saved.phasesBroker;
    this.applyLight(problems);
    const restore = saved && {
      source: saved.labelKey || !saved.label
        ? labelled({ text: saved.text, scenario: saved.scenario, was: saved.was, handle: saved.handle }, saved.labelKey ?? 'element.thisSession', opts.tr, saved.labelArgs)
        : { text: saved.text, label: saved.label, scenario: saved.scenario, was: saved.was, handle: saved.handle },
      at: saved.at, selected: saved.selected, play: saved.playing, compare: saved.compare,
      story: saved.story, storyStep: saved.storyStep,
    };
    await this.openSource(gen, restore, { link });
    if (gen === this.generation) this.carried = null; // the views have it (or it could not open)
    if (saved && this.app?.sim && gen === this.generation) {
      if (saved.speed != null) {
        this.app.clock.speed = saved.speed;
        this.app.controls.updateSpeedPick?.();
      }
      this.app.controls.restoreBreakpointForm(saved.breakpoints);
      if (saved.hit) this.app.playback.sayHit(saved.hit);
      if (saved.forkedAt != null && this.app.sim.extent().can_undo) this.app.sayForked(saved.forkedAt);
    }
  }

  /**
   * Rebuilds the markup for new views, controls, layout or language, keeping the session: its
   * instant, selection and kind (live, curated), the guided story at its step, the what-if beside
   * it, whether it plays, its speed and breakpoints, the Phases view's beat and broker, and its
   * undo: the model's handle itself goes to the new views (`retell` gives them its events again).
   */
  remount() {
    const app = this.app;
    // A source the attributes named just before, not open yet: the new views open it instead.
    if (this.sourcePending) {
      this.sourcePending = false;
      this.carried = null;
      this.app?.destroy();
      this.app = null;
      this.removeAttribute('ready');
      this.mount(null, { link: false }).catch((e) => this.fail(e));
      return;
    }
    // A remount while one is under way (a second language chosen before the first one's messages
    // arrived, or before its session opened) keeps the same session: the one that one carries.
    const saved = app?.sim ? {
      text: app.sim.exportSession(app.story.active), at: app.sim.nowMs, selected: app.selected, scenario: app.curatedName ?? undefined,
      label: app.source?.label, labelKey: app.source?.labelKey, labelArgs: app.source?.labelArgs, was: app.sessionKind,
      compare: app.comparison?.change ?? null, playing: app.clock.playing, speed: app.clock.speed, breakpoints: app.controls.breakpointForm(),
      story: app.story.active, storyStep: app.story.active ? app.story.step : null, phasesBeat: app.phasesBeat, phasesBroker: app.phasesBroker,
      // The breakpoint the playhead stands at, while its notice is still up (said anew).
      hit: app.root.querySelector('.notice.bp') && app.playback.lastHit?.hit.at_ms === app.sim.nowMs ? app.playback.lastHit : null,
      // The fork whose Undo is offered, while its notice is up (offered anew).
      forkedAt: app.root.querySelector('.notice.fork') ? app.forkedAt : null,
      handle: app.sim,
    } : this.carried;
    /** The session on its way to the new views, until they have it (see `mount`). */
    this.carried = saved;
    this.app?.destroy({ keepHandle: true });
    this.app = null;
    this.removeAttribute('ready');
    this.mount(saved).catch((e) => this.fail(e));
  }

  /**
   * The language the element speaks (a tag `languageFor` gives): its `lang` attribute; on the
   * full page, else the link's `lang`, the reader's earlier choice, the browser's language; in
   * an embed, else the host page's `<html lang>`; else English.
   */
  language() {
    const own = this.getAttribute('lang');
    if (own) return languageFor(own);
    if (parseOptions(this).opts.layout === 'page') {
      const linked = new URLSearchParams(location.hash.replace(/^#/, '')).get('lang') ?? new URLSearchParams(location.search).get('lang');
      if (linked) return languageFor(linked);
      return languageFor(rememberedLanguage() ?? navigator.languages?.[0] ?? navigator.language);
    }
    return languageFor(document.documentElement.lang);
  }

  /** The host page's <html lang> changed: an element that follows it speaks the new language. */
  followLanguage() {
    if (!this.app || this.hasAttribute('lang') || this.opts?.layout === 'page') return;
    if (this.language() !== this.opts.tr.lang) this.remount();
  }

  /**
   * The page's language switch: the element speaks `tag` from now on (a remount keeps the
   * session and its instant; `mount` says so in the page's <html lang>), and the choice is
   * remembered.
   */
  setLanguage(tag) {
    const lang = languageFor(tag);
    rememberLanguage(lang);
    this.setAttribute('lang', lang);
  }

  /** Speed, loop, theme and height: applied without reopening anything. */
  applyLight(problems = parseOptions(this).problems) {
    const { opts } = parseOptions(this);
    const app = this.app;
    if (!app) return;
    Object.assign(app.opts, { loop: opts.loop, speed: opts.speed, page: opts.page });
    app.clock.speed = opts.speed;
    const pp = this.shadow.querySelector('.pp');
    this.applyTheme(opts.theme);
    this.style.setProperty('--pp-height', opts.height ?? 'auto');
    pp.classList.toggle('fixed-height', !!opts.height);
    this.report(problems);
  }

  /**
   * The theme as drawn: `light` or `dark` as asked; `auto` follows the host page's own scheme
   * where it states one (`hostScheme`), else the reader's `prefers-color-scheme`.
   */
  applyTheme(theme = parseOptions(this).opts.theme) {
    const drawn = theme === 'auto' ? hostScheme() ?? 'auto' : theme;
    // A what-if's second run has a .pp of its own inside this one: the same theme.
    for (const el of this.shadow.querySelectorAll('.pp')) el.dataset.theme = drawn;
  }

  /** Shows bad attributes in the element and on the console (once per distinct message). */
  report(problems) {
    const box = this.shadow.querySelector('.attr-problems') ?? (() => {
      const p = document.createElement('div');
      p.className = 'attr-problems';
      p.setAttribute('role', 'alert');
      this.shadow.querySelector('.pp').prepend(p);
      return p;
    })();
    const tr = this.opts?.tr ?? ENGLISH;
    render(box, html`${problems.map((p) => html`<p data-testid="attr-problem">&lt;purgatory-playground&gt; ${problemText(p, tr)}</p>`)}`);
    // The console speaks English, the language an author searches in.
    this.reported ??= new Set();
    for (const m of problems.map((p) => problemText(p, ENGLISH))) {
      if (!this.reported.has(m)) console.warn(`<purgatory-playground> ${m}`);
      this.reported.add(m);
    }
  }

  /** Which session to open: the link (page layout), scenario, src, an inline child, or live. */
  async resolveSource({ link = true } = {}) {
    if (this.opts.layout === 'page' && link) {
      try {
        const fromLink = await addressPlan(this.opts.tr);
        if (fromLink) return fromLink;
      } catch (e) {
        if (!(e instanceof LinkError)) throw e;
        this.linkProblem = this.opts.tr.t('link.instead', { problem: e.message });
      }
    }
    const name = this.getAttribute('scenario');
    if (name) {
      if (!curated(name)) throw new SourceError(problem('attr.scenario', { attr: `scenario="${name}"`, example: 's03-stalled-follower-completes-at-isr-shrink' }, 'attr.instead.live'));
      return { source: { curated: name } };
    }
    const src = this.getAttribute('src');
    if (src) {
      let text;
      try {
        text = await fetchScenarioText(new URL(src, document.baseURI).href);
      } catch (e) {
        throw new SourceError(problem('attr.src', { attr: `src="${src}"`, error: String(e.message ?? e) }, 'attr.instead.live'));
      }
      return { source: { text, label: src } };
    }
    const inline = this.querySelector('script[type="application/json"]');
    if (inline) return { source: labelled({ text: inline.textContent }, 'element.inline', this.opts.tr) };
    return { source: { live: PAGE_DEFAULTS } };
  }

  /**
   * A session link followed in an open page (pasted into the address bar, an in-page
   * `<a href="#scenario=…">`, or Back to an address that names another scenario): opens it in
   * place, paused at its instant. A fragment that names no session (#top) is the host page's own
   * and changes nothing; a link that cannot be opened says why and leaves the open session as it
   * was.
   */
  async openLink() {
    const app = this.app;
    if (this.opts?.layout !== 'page' || !app?.sim) return;
    const raw = location.hash.replace(/^#/, '');
    const keys = new URLSearchParams(raw);
    if (!keys.has('session') && !keys.has('scenario')) {
      const named = new URLSearchParams(location.search).get('scenario');
      if (raw || !named || named === app.source?.curated) return;
    }
    const gen = ++this.generation;
    let plan;
    try {
      plan = await addressPlan(this.opts.tr);
    } catch (e) {
      if (!(e instanceof LinkError)) throw e;
      if (gen === this.generation && app === this.app) {
        app.clearNotices('ok'); // an earlier link's "Opened" would contradict it
        app.notice('bad', app.tr.t('link.stays', { problem: e.message }));
      }
      return;
    }
    if (gen !== this.generation || app !== this.app || !plan) return;
    const kept = keepOwn(app); // a link pasted over a session of one's own: offered back
    const error = await app.open(plan.source, { at: plan.at ?? null, selected: plan.selected ?? null, play: false, compare: plan.compare ?? null });
    if (gen !== this.generation || app !== this.app) return;
    if (error) {
      app.clearNotices('ok');
      app.notice('bad', app.tr.t('link.stays', { problem: app.tr.t('link.bad', { error: errorWords(error, app.tr) }) }));
      return;
    }
    if (plan.story && app.story.available()) app.story.start(app.sim.nowMs, plan.storyStep);
    const at = app.sim.nowMs;
    app.notice('ok', app.source.curated ? app.tr.t('link.opened.scenario', { name: app.source.curated, at }) : app.tr.t('link.opened', { at }));
    sayLinkProblems(app, plan);
    offerBack(app, kept);
    app.emit('ready', { scenario: app.source.curated ?? null, at_ms: app.sim.nowMs });
  }

  async openSource(gen = ++this.generation, restore = null, { link = true } = {}) {
    const app = this.app;
    let plan;
    let sourceProblem = false;
    try {
      plan = restore ?? (await this.resolveSource({ link }));
    } catch (e) {
      if (!(e instanceof SourceError)) throw e;
      this.report([...parseOptions(this).problems, e.problem]);
      sourceProblem = true;
      plan = { source: { live: PAGE_DEFAULTS } };
    }
    if (gen !== this.generation || app !== this.app) return;
    const play = plan.play ?? (this.opts.autoplay || (plan.source.live != null && this.opts.layout === 'page'));
    const story = this.opts.story || plan.story === true;
    // The `compare` attribute: a what-if beside the scenario it names (a link's own wins).
    const compare = plan.compare ?? (restore ? null : this.getAttribute('compare'));
    let error = await app.open(plan.source, { at: plan.at ?? null, selected: plan.selected ?? null, play: play && !story, compare });
    if (gen !== this.generation || app !== this.app) return; // remounted or removed meanwhile
    if (error && plan.fromLink) {
      // A link's session that is not a valid scenario (its fragment decoded): said like any other
      // bad link, in the page's notices, and a live session opens as without the link.
      this.linkProblem = app.tr.t('link.instead', { problem: app.tr.t('link.bad', { error: errorWords(error, app.tr) }) });
      error = await app.open({ live: PAGE_DEFAULTS }, { play: this.opts.layout === 'page' });
    } else if (error && !plan.source.live) {
      this.report([...parseOptions(this).problems, problem('attr.source', { source: plan.source.label ?? plan.source.curated, error: (tr) => errorWords(error, tr) }, 'attr.instead.live')]);
      sourceProblem = true;
      error = await app.open({ live: PAGE_DEFAULTS }, { play: false });
    }
    if (error) throw new Error(error);
    // A source fixed since the last open takes its message away; the attributes' own stay.
    const noStory = story && !app.story.available() ? [problem('attr.story', { attr: 'story' }, 'attr.instead.noStory')] : [];
    if (!sourceProblem) this.report([...parseOptions(this).problems, ...noStory]);
    if (this.linkProblem) {
      app.notice('bad', this.linkProblem);
      this.linkProblem = null;
    } else sayLinkProblems(app, plan);
    // An embed's story opens with its page: the page stays where the reader is until Next (an
    // embed of fixed height scrolls only its own box).
    if (story && app.story.available() && (!app.story.active || plan.storyStep)) app.story.start(plan.at ?? null, plan.storyStep, { scroll: app.storyScrollsOnOpen });
    else if (this.opts.layout === 'page' && plan.source.live && !plan.at) {
      if (firstVisit()) this.welcome();
      else app.notice('hint', app.tr.t('welcome.hint'));
    }
    // The session of one's own the tab's last load was left with, offered back.
    if (this.opts.layout === 'page' && !this.offeredLastLoad) {
      this.offeredLastLoad = true;
      offerLastLoad(app);
    }
    this.updateRunning();
    this.reveal();
    this.setAttribute('ready', '');
    performance.mark?.('playground-ready');
    app.emit('ready', { scenario: app.curatedName, at_ms: app.sim.nowMs });
  }

  /**
   * A first visit to the full page: three ways in, and the choice remembered (a later visit opens
   * on the live session with the hint, as after "Drive it yourself").
   */
  welcome() {
    const app = this.app;
    const { tr } = app;
    const article = document.querySelector('link[rel~="help"][href]')?.getAttribute('href');
    app.notice('welcome', tr.t('welcome'), {
      choices: [
        { label: tr.t('welcome.story'), testid: 'welcome-story', primary: true, run: () => { remember('story'); this.openStory(FIRST_STORY); } },
        // The article where the page says it lives (index.html: <link rel="help" href="docs/">);
        // the self-contained page travels without it, so it offers the other two.
        ...(article ? [{ label: tr.t('welcome.article'), testid: 'welcome-article', href: article, run: () => remember('article') }] : []),
        { label: tr.t('welcome.drive'), testid: 'welcome-drive', run: () => { remember('drive'); app.notice('hint', tr.t('welcome.hint')); } },
      ],
      dismissed: () => remember('dismissed'),
    });
  }

  /** Opens a curated scenario with its guided story from the first caption, and says so in the URL. */
  async openStory(name) {
    const app = this.app;
    const error = await app.open({ curated: name }, { play: false });
    if (error) {
      app.notice('bad', error);
      return;
    }
    app.story.start();
    this.syncUrl();
  }

  /** Replaces the loading line with the views (see `mount`). */
  reveal() {
    this.shadow.querySelector('.pp-loading')?.remove();
    this.shadow.querySelector('.host-root').hidden = false;
  }

  /** The clock runs only while the element is on screen and the tab is visible. */
  updateRunning() {
    const app = this.app;
    if (!app?.sim) return;
    clearTimeout(this.settling);
    const shown = () => this.visible && document.visibilityState !== 'hidden';
    if (!shown()) {
      app.clock.stop();
      return;
    }
    if (app.clock.running || this.opts.layout === 'page') {
      app.clock.start();
      return;
    }
    // An embed that comes into view starts once it has stayed there a moment: while the page
    // above it lays out (figures growing from their loading line), it can be in view for a few
    // frames and then pushed far below, and an autoplaying figure would play them unseen.
    this.settling = setTimeout(() => {
      if (shown() && this.app === app && app.sim) app.clock.start();
    }, SETTLE_MS);
  }

  /** After a page-layout session changes, the address bar names it (the scenario and its open story, or nothing). */
  syncUrl() {
    if (this.opts.layout !== 'page') return;
    const url = new URL(location.href);
    url.hash = '';
    const name = this.app.source?.curated;
    // A language the address named stays named (the reader came by a link in it).
    const lang = new URLSearchParams(url.search).get('lang');
    const keep = lang ? `lang=${encodeURIComponent(lang)}` : '';
    if (name) url.search = `?scenario=${encodeURIComponent(name)}${this.app.story.active ? '&story' : ''}${keep ? `&${keep}` : ''}`;
    else url.search = keep ? `?${keep}` : '';
    history.replaceState(null, '', url);
  }

  fail(e) {
    console.error('<purgatory-playground> could not start:', e);
    const tr = this.opts?.tr ?? ENGLISH;
    const error = String(e && e.message ? e.message : e);
    const hint = location.protocol === 'file:' ? ` ${tr.t('element.fail.file')}` : '';
    this.showOnly(html`<div class="pp"><p class="error fatal" role="alert" data-testid="start-error">${tr.t('element.fail', { error })}${hint}</p></div>`);
  }

  /**
   * The shadow root's whole content: the stylesheet, then `markup`. The CSS is the text of a
   * <style> made here, never markup (the html tag would escape it, and refuses <style> anyway).
   */
  showOnly(markup) {
    render(this.shadow, markup);
    const style = document.createElement('style');
    style.textContent = STYLE;
    this.shadow.prepend(style);
  }

  // ---- The JS API (docs/embedding.md) ----------------------------------------------------------

  get nowMs() { return this.app?.sim?.nowMs ?? 0; }
  get playing() { return !!this.app?.clock.playing; }
  play() { this.app?.playback.setPlaying(true); }
  pause() { this.app?.playback.setPlaying(false); }
  step() { this.app?.playback.step(); }
  stepBack() { this.app?.playback.stepBack(); }
  restart() { this.app?.playback.restart(); }

  /** Moves the playhead to `ms` (a whole number ≥ 0). Throws on anything else. */
  seek(ms) {
    checkSeekArgument(ms);
    this.requireOpen('seek');
    // Past the end it stops at the end; a live run's end is the longest run the model makes.
    this.app.playback.seekComputing(Math.min(ms, MAX_INSTANT_MS));
  }

  /** Applies an action (scenario-format.md's actions, without `at_ms`) at the next instant. */
  command(action) {
    checkCommandArgument(action);
    this.requireOpen('command');
    return this.app.command(action);
  }

  /** The session as a scenario file (its text), to save or to open elsewhere. */
  exportSession() {
    this.requireOpen('exportSession');
    return this.app.sim.exportSession(this.app.story.active);
  }

  requireOpen(what) {
    if (!this.app?.sim) throw new Error(`${what}: the playground is not ready yet (wait for its "ready" event)`);
  }
}

class SourceError extends Error {
  /** `problem`: what the element reports (www/attributes.js `problem`). */
  constructor(problem) {
    super(problemText(problem, ENGLISH));
    this.problem = problem;
  }
}

/** The story a first visit is offered. */
const FIRST_STORY = 's03-stalled-follower-completes-at-isr-shrink';
if (!customElements.get('purgatory-playground')) customElements.define('purgatory-playground', PurgatoryPlayground);
