// One playground: its own model handle (one session of the broker model), playback, event history
// and views, mounted in one root (the element's shadow root). Nothing here is global, so a page
// holds several over the one shared wasm module. JS holds no simulation state: it sends commands,
// moves the playhead, and draws the snapshot and the trace events the handle returns.
import { template } from './template.js';
import { sharedModel, freshModel, isTrap } from './wasm-module.js';
import { curatedDoc, shortTitle } from './scenarios.js';
import { EventHistory } from './history.js';
import { narrationFor } from './narrate.js';
import { Timeline } from './timeline.js';
import { Story } from './story.js';
import { Controls } from './controls.js';
import { Notices } from './notices.js';
import { Comparison } from './compare.js';
import { Playback } from './playback.js';
import { renderCluster } from './views/cluster.js';
import { renderPurgatory } from './views/purgatory.js';
import { renderWheel, WheelChanges } from './views/wheel.js';
import { renderCodePath } from './views/codepath.js';
import { renderEventLog } from './views/eventlog.js';
import { renderResponses } from './views/responses.js';
import { renderMetrics } from './views/metrics.js';
import { render } from './html.js';
import { linkParam } from './share.js';
import { reasonText } from './says.js';
import { remember } from './settings.js';
import { Announcer } from './announcer.js';

/** While playing, the heavier panels redraw at most this often (wall ms). */
const SLOW_PANEL_MS = 120;
/** Wall ms per frame spent computing a scenario's run ahead. */
const EXTEND_BUDGET_MS = 4;

export class PlaygroundApp {
  /**
   * @param {HTMLElement} host the element (events are dispatched on it)
   * @param {HTMLElement} root where the markup goes (inside the shadow root)
   * @param {{views: string[], controls: string, layout: string}} opts
   */
  constructor(host, root, opts) {
    this.host = host;
    this.root = root;
    this.opts = opts;
    /** The language everything is said in (a Translator, www/i18n.js). */
    this.tr = opts.tr;
    render(root, template(opts));
    this.$ = (sel) => root.querySelector(sel);
    this.has = (view) => opts.views.includes(view);
    this.playback = new Playback(this);
    /** The playback's clock (the speed control sets its pace, the element starts and stops it). */
    this.clock = this.playback.clock;
    this.history = new EventHistory(this.tr);
    this.wheelChanges = new WheelChanges();
    this.timeline = this.has('timeline') ? new Timeline(this, this.$('.timeline-wrap')) : null;
    this.story = new Story(this);
    this.controls = new Controls(this);
    this.notices = new Notices(this.$('.notices'), {
      undo: () => this.undo(),
      download: (text) => this.controls.download('purgatory-session.json', text),
      // The clock's first button, or the first control there is (an embed may show none).
      focusAway: () => (this.root.querySelector('[data-testid="play"]') ?? this.root.querySelector('button:not([disabled]), select, input'))?.focus({ preventScroll: true }),
    }, this.tr);
    // A what-if's second run is a playground of its own, moved by this one's clock; the second
    // run itself (`opts.twin`) compares with nothing.
    this.comparison = opts.twin ? null : new Comparison(this);
    // The Phases view is imported when shown (a chunk beside the module in dist/): most embeds
    // never show it. Once there, it sweeps the open session, and each one opened after.
    this.phases = null;
    // The beat the Phases view sweeps, the person's choice: kept here rather than in the view,
    // whose module loads after the app (the element carries it across a remount).
    this.phasesBeat = 'isr_check';
    this.phasesBroker = null; // and whose: every broker's (null), or one broker's alone
    if (this.has('phases')) {
      import('./views/phases.js').then(({ PhasesView }) => {
        if (this.destroyed) return; // remounted or removed while the chunk loaded
        this.phases = new PhasesView(this, this.$('.panel.phases'));
        if (this.sim) this.phases.restart();
      }, (e) => {
        // An embed copied without the chunk beside its module: said in the panel it leaves empty.
        const panel = this.$('.panel.phases');
        if (panel) panel.textContent = this.tr.t('phases.notLoaded', { error: String(e?.message ?? e) });
      });
    }
    this.reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');
    this.opening = Promise.resolve(); // the last open asked for (see `open`)
    this.sim = null;
    this.model = null;
    this.source = null;
    this.selected = null;
    this.announcer = new Announcer(() => this.$('.live-sr'));
  }

  // ---- Opening a session -------------------------------------------------------------------

  /**
   * Opens a session: `{live: setup}`, `{curated: name}`, `{text, label}` (a scenario or a saved
   * session) with `{at, selected}` to put the playhead somewhere. Returns an error message or null;
   * on an error the session that was open stays open.
   */
  open(source, options) {
    // One at a time, in the order asked: an open waits for the one before, whose chunks may load
    // after its own would, so two picks in a row end on the second.
    const opened = this.opening.then(() => this.openNow(source, options));
    this.opening = opened.catch(() => null);
    return opened;
  }

  async openNow(source, { at = null, selected = null, play = null, compare = null } = {}) {
    let sim;
    try {
      if (!this.model) this.model = await sharedModel();
      const doc = source.curated ? await curatedDoc(source.curated) : null;
      // Destroyed meanwhile (removed, or remounted again): a handle it was given goes on elsewhere.
      if (this.destroyed) return this.tr.t('app.gone');
      sim = this.create(source, doc);
    } catch (e) {
      if (isTrap(e)) return this.recover(e).then(() => this.tr.t('app.trap.opening'));
      return String(e && e.message ? e.message : e);
    }
    if (this.sim) this.freeHandle();
    this.sim = sim;
    // A handle carried over from the views before (a remount) is this session's from now on.
    const { handle, ...kept } = source;
    this.source = kept;
    // What was said about the session before (a fork's undo, a breakpoint, a link) is not about
    // this one; an offer to reopen a session left stays until taken or dismissed.
    this.clearNotices();
    const pp = this.root.querySelector('.pp');
    pp.dataset.live = String(this.live);
    // An embed is a region of its host page, named after what it plays (several on one page are
    // told apart).
    if (pp.getAttribute('role') === 'region') {
      const what = this.curatedName ? shortTitle(this.curatedName, this.tr) : this.live ? this.tr.t('region.embed.live') : source.label ?? this.tr.t('region.embed.scenario');
      pp.setAttribute('aria-label', this.tr.t('region.embed.named', { what }));
    }
    this.playback.ended = false;
    this.complete = false;
    /** The session's min.insync.replicas, which the cluster view compares each ISR with. */
    this.minIsr = this.guard(() => this.sim.setup().config.min_insync_replicas) ?? 1;
    this.history.reset();
    this.wheelChanges.reset();
    this.narrate(null); // the last session's line
    this.snap = null;
    // Its events were taken by the views before: told again, for these.
    if (handle) this.guard(() => this.sim.retell());
    /** What a link asked of this run that it cannot give, said by the caller beside the link's own problems. */
    this.linkNotes = [];
    if (at != null) this.guard(() => { this.playback.computeUntil(at); this.sim.seek(at); });
    // A run that ends sooner opens at its end.
    if (at != null && this.sim.nowMs < at) this.linkNotes.push(this.tr.t('link.pastEnd', { param: linkParam('t', String(at)), end: this.tr.num(this.sim.nowMs) }));
    // A saved session whose instant the model would take long to reach opens short of it.
    const short = handle ? null : this.guard(() => this.sim.openedShortOf);
    if (short != null) this.notice('warn', this.tr.t('session.openedShort', { saved: this.tr.num(short), at: this.tr.num(this.sim.nowMs) }));
    // A link's `sel` may name no request of this run (a typo, an edited link): then the usual one.
    const actions = this.guard(() => this.sim.actions()) ?? [];
    const ids = new Set(actions.filter((a) => a.action === 'produce').map((a) => a.id));
    this.selected = (ids.has(selected) ? selected : null) ?? this.sim.selected ?? this.mainRequest(actions);
    if (selected != null && !ids.has(selected)) {
      const param = linkParam('sel', selected);
      this.linkNotes.push(this.selected ? this.tr.t('link.noSuchRequest', { param, shown: this.selected }) : this.tr.t('link.noSuchRequest.none', { param }));
    }
    this.guard(() => this.sim.select(this.selected ?? undefined));
    this.history.track(this.selected, this.guard(() => this.sim.requestEvents(this.selected ?? '')) ?? []);
    this.clock.setPlaying(false);
    this.story.onOpen(); // first: the controls show "Guided story" when the scenario has one
    this.controls.onOpen();
    this.phases?.restart();
    // A session saved while its guided story was open reopens the story at its instant.
    if (!handle && this.sim.storyOpen) this.story.start(this.sim.nowMs, null, { scroll: this.storyScrollsOnOpen });
    this.saveForRecovery();
    // What happened before the instant it opens at is its history, not news: no `response` events.
    this.ingest({ emit: false });
    this.timeline?.invalidate();
    this.refresh();
    // What the link or the file compares with (or `compare`, the element's attribute).
    await this.comparison?.onOpen(compare);
    if (this.destroyed) return null; // its clock is not to start again
    const autoplay = play ?? (source.live != null);
    if (autoplay && !this.story.active) this.playback.setPlaying(true);
    return null;
  }

  create(source, doc) {
    if (source.handle) return source.handle;
    const { Playground } = this.model;
    if (source.live) return new Playground(source.live);
    if (source.curated) return Playground.fromScenario(doc, source.curated);
    return Playground.fromScenario(source.text, source.scenario);
  }

  /**
   * Whether a story opening with the session may scroll to its first caption: on the full page,
   * and in an embed of fixed height (its own box); an embed that grows with its content would
   * move its host page away from where the reader is.
   */
  get storyScrollsOnOpen() {
    return this.opts.layout === 'page' || this.root.querySelector('.pp.fixed-height') != null;
  }

  /** The curated scenario the open session plays (as opened, or as its file says), or null. */
  get curatedName() {
    return this.source?.curated ?? this.sim?.curated ?? null;
  }

  /**
   * Whether the open session is live: opened as one, or a live one the element carried across a
   * remount (a new language, new views: `source.was`).
   */
  get live() {
    return this.source?.live != null || this.source?.was === 'live';
  }

  /**
   * What the open session was opened as, for a copy of it reopened from its text (`source.was`):
   * `live`, `curated`, or undefined (a file, a link's session, an inline scenario).
   */
  get sessionKind() {
    return this.live ? 'live' : this.source?.curated || this.source?.was === 'curated' ? 'curated' : undefined;
  }

  /** The request the code path follows without a click: the first acks=all produce of `actions`. */
  mainRequest(actions) {
    const produce = actions.find((a) => a.action === 'produce' && (a.acks === -1 || a.acks === 'all'))
      ?? actions.find((a) => a.action === 'produce');
    return produce ? produce.id : null;
  }

  freeHandle() {
    try { this.sim.free(); } catch { /* a handle that trapped cannot be freed; it is dropped */ }
  }

  /** Keeps the session as a file, so a trap loses nothing (see `recover`). */
  saveForRecovery() {
    this.saved = this.guard(() => this.sim.exportSession(this.story.active)) ?? this.saved;
  }

  // ---- Calls into the model, and recovery from a trap -----------------------------------------

  /** Runs `f`; a refused argument is rethrown, a trap starts the recovery and yields undefined. */
  guard(f) {
    try {
      return f();
    } catch (e) {
      if (!isTrap(e)) throw e;
      this.recover(e);
      return undefined;
    }
  }

  /**
   * The model trapped (a bug, or memory ran out): the handle is dead. Rebuild the session on a
   * fresh instance of the module from its last saved file (setup + every action: the model is
   * deterministic), at the same instant; if even that fails, offer the file for download.
   */
  async recover(error) {
    if (this.recovering) return;
    this.recovering = true;
    this.clock.setPlaying(false);
    const at = this.snap?.now_ms ?? 0;
    const saved = this.saved;
    console.error('purgatory-playground: the model trapped; rebuilding the session', error);
    this.notice('warn', this.tr.t('app.trap'));
    try {
      this.model = await freshModel(this.model);
      const sim = this.model.Playground.fromScenario(saved, this.source?.curated);
      this.sim = sim;
      this.playback.computeUntil(at);
      sim.seek(at);
      if (this.selected) sim.select(this.selected);
      this.history.reset();
      this.ingest();
      this.refresh();
      this.phases?.restart(); // its sweep, on the instance that trapped, is dead too
      // A what-if's second run shared the instance that trapped: it is opened again on this one.
      const change = this.comparison?.change;
      if (change) {
        this.comparison.end({ redraw: false });
        await this.comparison.onOpen(change);
      }
      this.notice('ok', this.tr.t('app.recovered', { at }), { download: saved });
      this.emit('recovered', { at_ms: at });
    } catch (e) {
      console.error('purgatory-playground: recovery failed', e);
      this.notice('bad', this.tr.t('app.notRecovered'), { download: saved });
    } finally {
      this.recovering = false;
    }
  }

  // ---- Commands ----------------------------------------------------------------------------

  /**
   * Applies a command at the instant after the playhead. At a past instant this drops the future
   * after it: `confirmed` says the person agreed (the controls ask first). Returns the model's
   * answer, or throws the refusal's message.
   */
  command(cmd) {
    const done = this.apply(cmd);
    if (done) this.settle(cmd, done);
    return done;
  }

  /**
   * `cmd` again `times` times, each at the instant after the one before (a burst's followers):
   * one save and one draw for all of them, not one each. Returns how many were applied; a
   * rejected one throws, as `command` does, after what went before it has been drawn.
   */
  repeat(cmd, times) {
    let last = null;
    let sent = 0;
    try {
      for (; sent < times; sent++) {
        const done = this.apply({ ...cmd });
        if (!done) break;
        last = done;
      }
    } finally {
      if (last) this.settle(cmd, last);
    }
    return sent;
  }

  /** Says that the run after `at` was dropped, with its Undo (again, after a remount). */
  sayForked(at) {
    this.forkedAt = at;
    this.notice('fork', this.tr.t('app.forked', { at }), { undo: true });
  }

  /** The model's side of a command, and what it says about the run (a fork, a live continuation). */
  apply(cmd) {
    const done = this.guard(() => this.sim.command(cmd));
    if (!done) return null;
    if (done.forked) this.sayForked(done.at_ms - 1);
    if (done.continued_live) this.notice('ok', this.tr.t('app.continuedLive'));
    // In the run, as in a file, and changing nothing: said where the person looks, not only in the log.
    if (done.ignored) this.notice('warn', this.tr.t('log.action_ignored', { action: cmd.action, reason: reasonText(done.ignored, this.tr) }));
    // A new future of a scenario is computed ahead again, so its whole timeline shows. Acting
    // again within it does not ask (see Controls.act) unless it would drop actions of one's own.
    if (done.forked) this.complete = false;
    return done;
  }

  /** After commands: saved for recovery, their events taken, the newest request selected, drawn. */
  settle(cmd, done) {
    this.playback.resume();
    this.controls.updateKafkaMark(); // the run is no longer the scenario as Kafka was checked on
    this.phases?.restart(); // the run's actions changed
    if (cmd.action === 'produce' && cmd.acks === -1) this.clearNotices('hint'); // done what it says
    // A first visit's ways in, answered by driving: remembered as that choice.
    if (this.root.querySelector('.notice.welcome')) {
      remember('drive');
      this.clearNotices('welcome');
    }
    this.saveForRecovery();
    this.ingest();
    // The action is a marker of its own (and a fork or a live continuation changed the run):
    // drawn at once, also while paused.
    this.timeline?.invalidate({ now: true });
    if (this.story.active) {
      // The captions tell the scenario's own run, which this action has left.
      this.story.stop();
      this.notice('ok', this.tr.t('app.storyClosed'));
    }
    if (done.id && (this.selected == null || cmd.action === 'produce')) this.select(done.id);
    this.comparison?.rerunSoon(); // the second run is this one changed: it changes too
    this.refresh();
    return done;
  }

  undo() {
    if (this.guard(() => this.sim.undo())) {
      this.notice('ok', this.tr.t('app.futureBack'));
      this.saveForRecovery();
      this.complete = false;
      this.timeline?.invalidate({ now: true });
      this.playback.afterJump();
      this.comparison?.rerunSoon();
      this.controls.updateKafkaMark(); // the run may be the scenario as Kafka was checked on again
      this.phases?.restart(); // the run's actions changed back
    }
  }

  select(id) {
    this.selected = id;
    this.guard(() => this.sim.select(id ?? undefined));
    this.history.track(id, this.guard(() => this.sim.requestEvents(id ?? '')) ?? []);
    this.refresh();
  }

  // ---- Events in, views out ----------------------------------------------------------------

  /** Takes the events the playhead passed: the log, the narration, the followed request. */
  ingest({ emit = true } = {}) {
    const batch = this.guard(() => this.sim.takeEvents());
    if (!batch) return;
    if (batch.reset) {
      this.history.reset();
      this.wheelChanges.reset();
      this.history.track(this.selected, this.guard(() => this.sim.requestEvents(this.selected ?? '')) ?? []);
    }
    const { events } = batch;
    if (!events.length && !batch.reset) return;
    this.history.add(events, batch.dropped);
    this.wheelChanges.add(events);
    if (!batch.reset && emit) {
      for (const e of events) {
        // What the producer got: an answer it read, a dropped connection, or its own timeout.
        const got = (e.event === 'produce_response_sent' && !e.client_gone) || e.event === 'connection_closed' || e.event === 'client_request_timed_out';
        if (got) this.emitResponse(e);
      }
    }
    const line = narrationFor(events, this.history, this.tr);
    // Told anew from the start (a session opened, the playhead moved back) with nothing to say:
    // the line said before is about another run or a later instant.
    if (line || batch.reset) this.narrate(line);
    this.dirty = true;
  }

  emitResponse(e) {
    const parts = e.partitions ?? [];
    const error = parts.map((p) => p.error).find((x) => x !== 'NONE');
    this.emit('response', {
      id: e.request,
      at_ms: e.at_ms,
      broker: e.broker,
      outcome: e.event === 'connection_closed' ? 'CONNECTION_CLOSED' : e.event === 'client_request_timed_out' ? 'REQUEST_TIMED_OUT' : error ?? 'NONE',
      latency_ms: e.latency_ms ?? null,
      partitions: parts,
    });
  }

  /** Says `line` (`{html, text}`), or clears the narration for null. */
  narrate(line) {
    const el = this.$('.narration');
    if (el && line) render(el, line.html);
    else if (el) el.replaceChildren();
    if (!line) return;
    this.announcer.say(line.text);
  }

  /** Redraws everything now. */
  refresh() {
    this.dirty = true;
    this.forceAll = true;
    this.frame();
  }

  /**
   * Each animation frame: a scenario's run is computed a little further, then what changed is
   * drawn. Opening a session draws at once (`refresh`) and leaves the computing to the frames.
   */
  onFrame() {
    if (!this.sim || this.recovering) return;
    this.extendAhead();
    this.comparison?.onFrame();
    this.frame();
  }

  frame() {
    if (!this.sim || this.recovering) return;
    if (this.clock.speed === 'auto') {
      this.clock.nowMs = this.sim.nowMs;
      // The next notable instant of either run, when comparing: the pace slows before both.
      const next = [this.guard(() => this.sim.nextMarkerMs), this.comparison?.nextMarkerMs()].filter((t) => t != null);
      this.clock.nextMarkerMs = next.length ? Math.min(...next) : null;
    }
    this.controls.updateSpeed();
    const wall = performance.now();
    const fraction = this.reducedMotion.matches ? 0 : (this.opts.leader ?? this).clock.fraction;
    if (!this.dirty) {
      // Messages still glide between whole milliseconds at slow speeds.
      if (this.playback.playing && this.snap?.in_flight.length && fraction) this.drawCluster(fraction);
      return;
    }
    const slowDue = !this.playback.playing || this.forceAll || wall - (this.lastSlow ?? 0) >= SLOW_PANEL_MS;
    this.dirty = false;
    const snap = this.snapshot();
    if (!snap) return;
    this.snap = snap;
    this.controls.updateClock(snap);
    this.timeline?.update(snap.now_ms);
    this.drawCluster(fraction);
    if (!slowDue) {
      this.dirty = true;
      return;
    }
    this.lastSlow = wall;
    this.forceAll = false;
    this.drawPanels(snap);
    this.story.follow();
    this.story.reapply();
  }

  /**
   * The model's snapshot, or the last one with only its clock moved when no instant has run since
   * it: the model changes only at an instant with something to do (an action, a delivery, a
   * timer), and `next_event_ms` is the first of those, so while the playhead stays before it
   * nothing but the time is new. A 10,000-request snapshot costs about 20 ms to build and parse;
   * a frame that only moves the clock then costs none of it. Anything else that can change the
   * model (a command, a seek, a new session, a recovery) goes through `refresh`, which takes a
   * fresh one.
   */
  snapshot() {
    const last = this.snap;
    if (!this.forceAll && last && this.snapOf === this.sim) {
      const now = this.sim.nowMs;
      if (now >= last.now_ms && (last.next_event_ms == null || now < last.next_event_ms)) {
        return now === last.now_ms ? last : { ...last, now_ms: now };
      }
    }
    const snap = this.guard(() => this.sim.snapshot());
    this.snapOf = this.sim;
    return snap;
  }

  /** Computes a scenario's run ahead for a few ms of each frame, so its whole timeline shows. */
  extendAhead() {
    if (this.complete) return;
    const ext = this.guard(() => this.sim.extent());
    if (!ext || ext.complete) {
      this.complete = true;
      return;
    }
    const t0 = performance.now();
    let done = false;
    while (!done && performance.now() - t0 < EXTEND_BUDGET_MS) done = this.guard(() => this.sim.extend(2000)) ?? true;
    // Once the whole run is known its markers are drawn at once, even while nothing else redraws.
    this.timeline?.invalidate({ now: done });
    if (!this.dirty && !this.recovering) this.timeline?.update(this.sim.nowMs);
    if (done) {
      this.complete = true;
      this.controls.updateHash();
    }
  }

  drawCluster(fraction) {
    if (!this.has('cluster') || !this.snap) return;
    renderCluster(this.$('.panel.cluster'), this.snap, this.snap.now_ms + fraction, this.minIsr, this.tr);
  }

  /** The panels of the snapshot, each drawn in `this.tr`'s language (each view's last argument). */
  drawPanels(snap) {
    const sel = this.selected;
    if (this.has('purgatory')) renderPurgatory(this.$('.panel.purgatory'), snap, sel, this.tr);
    if (this.has('wheel')) renderWheel(this.$('.panel.wheel'), snap, this.history.selectedOps(sel), this.wheelChanges.list, sel, this.tr);
    if (this.has('codepath')) renderCodePath(this.$('.panel.codepath'), this.history.trackOf(sel), this.history, snap.now_ms, this.tr);
    if (this.has('responses')) renderResponses(this.$('.panel.responses'), snap, sel, this.tr);
    if (this.has('log')) renderEventLog(this.$('.panel.log'), this.history, this.controls.logFilter(), this.tr);
    if (this.has('metrics')) renderMetrics(this.$('.panel.metrics'), this.sim, snap, this.tr);
  }

  // ---- Notices and events ------------------------------------------------------------------

  /** A message line above the views (see `Notices.show`). */
  notice(kind, text, opts) {
    this.notices.show(kind, text, opts);
  }

  clearNotices(kind) {
    this.notices.clear(kind);
  }

  emit(name, detail) {
    if (this.opts.twin) return; // the element's events are the first run's
    this.host.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  /** For good; `keepHandle`: the model's handle goes on in new views (a remount), not freed. */
  destroy({ keepHandle = false } = {}) {
    this.destroyed = true;
    this.announcer.stop();
    this.controls.dispose();
    this.comparison?.end({ redraw: false });
    this.clock.stop();
    this.story.stop();
    this.phases?.dispose(); // its sweep's handle, its task channel and observer
    if (this.sim && !keepHandle) this.freeHandle();
    this.sim = null;
  }
}
