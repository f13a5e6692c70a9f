// Phases: what each request of the open run would get at every phase of one of Kafka's beats
// (scenario-format.md, "Phases"): the leader's ISR check, every replica.lag.time.max.ms / 2 from
// when the broker started, or the brokers' heartbeats, every broker.heartbeat.interval.ms. Where a
// person's actions fall on a beat is chance; one strip per request across the beat's period,
// coloured and labelled by outcome, this run's phase marked. The sweep runs in
// the model (PhaseSweep, the runner's `purgatory sweep`) in short tasks between the page's frames,
// the strips redrawn at most once a frame; a segment is a button that opens the run at that phase.
import { html } from '../html.js';
import { patch } from './dom.js';
import { isTrap } from '../wasm-module.js';
import { outcomeWords, outcomeIsGood } from '../outcome-words.js';

/** Wall ms of sweeping per task. Between tasks the browser renders a frame when one is due and
 * handles input, which come before the next task; back to back, the tasks keep the thread busy
 * until the strips are full (in animation frames alone, 5 ms of every 16.7, the sweep took 3.5x
 * longer). */
const TASK_BUDGET_MS = 5;

/** The beats a sweep can move (PhaseSweep's names), each with the scenario's `phases` field. */
const BEATS = { isr_check: 'isr_check_ms', heartbeat: 'heartbeat_ms' };
/** The model's broker count when a scenario's config names none (src/kafka/config.rs). */
const DEFAULT_BROKERS = 3;

/** The most strips drawn, in request order; past it, those that depend on the phase first. A run
 * of a thousand requests (s15) drew a thousand strips each redraw, most of them alike. */
const MAX_ROWS = 40;

// What a strip says, in the language of `tr`.
const outcomeText = (o, tr) => outcomeWords(o.outcome, tr);
const good = (o) => outcomeIsGood(o.outcome);
const span = (lo, hi, tr) => (lo === hi ? tr.num(lo) : `${tr.num(lo)}-${tr.num(hi)}`);
const ranges = (o, tr) => o.phases.map(([lo, hi]) => span(lo, hi, tr)).join(tr.t('list.sep'));
const answered = (o, tr) => (!o.answered_ms ? tr.t('phases.notAnswered')
  : o.answered_ms[0] === o.answered_ms[1] ? tr.t('phases.answeredAt', { at: o.answered_ms[0] })
    : tr.t('phases.answeredBetween', { from: o.answered_ms[0], to: o.answered_ms[1] }));

const at = (ms, tr) => (ms == null ? tr.t('outcome.noAnswer') : tr.t('phases.answeredAt', { at: ms }));
/** One boundary in words: what the request gets on either side of it. */
const edgeText = (r, e, period, tr) => tr.t('phases.edge', {
  phase: e.phase, after: outcomeText(r.outcomes[e.to], tr), answeredAfter: at(e.answered_after, tr),
  before: (e.phase + period - 1) % period, beforeOutcome: outcomeText(r.outcomes[e.from], tr), answeredBefore: at(e.answered_before, tr),
});

export class PhasesView {
  /** @param {import('../app.js').PlaygroundApp} app @param {HTMLElement} panel */
  constructor(app, panel) {
    this.app = app;
    this.body = panel.querySelector('.phases-body');
    // The beat switch and the strips are patched apart: the strips change with every slice of a
    // sweep, and the switch redrawn with them lost clicks pressed meanwhile.
    this.switchEl = document.createElement('div');
    this.stripsEl = document.createElement('div');
    this.body.replaceChildren(this.switchEl, this.stripsEl);
    this.sweep = null;
    this.raf = 0; // the pending redraw
    this.drawAfter = 0; // no redraw before this instant (performance.now()) while it sweeps
    // The sweep's tasks: a message to itself queues the next (unlike setTimeout, never clamped to
    // 4 ms when chained). One at a time; a task finding no sweep, or the panel off screen, ends.
    this.tasks = new MessageChannel();
    this.queued = false;
    this.tasks.port1.onmessage = () => {
      this.queued = false;
      this.work();
    };
    this.perStep = 1; // grows to slices of about a millisecond
    // Sweeping keeps the thread busy: only while the panel is on screen.
    this.visible = false;
    this.observer = new IntersectionObserver((entries) => {
      this.visible = entries.at(-1).isIntersecting; // the last of a batch is how it stands
      if (this.visible && this.sweep) this.loop(); // a finished sweep's task ends at once
    });
    this.observer.observe(panel);
    this.body.addEventListener('click', (ev) => {
      const b = ev.target.closest('button[data-phase]');
      if (b) {
        // The strips are swept anew for the run it opens: focus that was on the segment comes
        // back to it (to its strip until the sweep reaches it), not to the page's top.
        const row = b.closest('[data-request]')?.dataset.request;
        this.refocus = b.getRootNode().activeElement === b ? { segment: b.dataset.key, strip: `strip ${row}` } : null;
        this.openAt(Number(b.dataset.phase));
      }
      const beat = ev.target.closest('button[data-beat]');
      if (beat) this.use({ beat: beat.dataset.beat });
    });
    this.body.addEventListener('change', (ev) => {
      const pick = ev.target.closest('select[data-testid="phase-broker"]');
      if (pick) this.use({ broker: pick.value === '' ? null : Number(pick.value) });
    });
  }

  /** Sweeps the open session's run anew (a session opened, or its actions changed). */
  restart() {
    this.stop();
    this.error = null;
    this.perStep = 1; // a slice of the last sweep may be far too long for this one
    const text = this.app.guard(() => this.app.sim.exportSession(false));
    if (!text) return;
    this.text = text;
    const doc = JSON.parse(text);
    this.own = doc.phases?.[BEATS[this.beat]] ?? 0;
    this.sessionTimeoutMs = doc.config?.broker_session_timeout_ms;
    this.brokers = doc.config?.brokers ?? DEFAULT_BROKERS;
    const broker = this.broker;
    // The sweep moves every broker's beat together, or the chosen broker's alone; with one phase
    // per broker, the mark of every broker's is the first broker's (for the ISR check, the first
    // partition's leader).
    this.ownPhase = Array.isArray(this.own) ? this.own[broker ?? 0] : this.own;
    // A live session is saved up to its playhead or last action, which would cut its requests
    // off unanswered: each phase's run goes on instead to the session's own end (the week a live
    // session may last), and the sweep stops each run once every request is answered.
    doc.run_until_ms = Math.max(doc.run_until_ms, this.app.guard(() => this.app.sim.runUntilMs) ?? 0);
    const swept = JSON.stringify(doc);
    // The model is deterministic: a sweep that trapped will most likely trap again, and the app's
    // rebuild after each trap would loop. The same run and beat are swept again once (the trap
    // may have come from the session's own state), not after a second trap.
    this.key = `${this.beat}\n${broker}\n${swept}`;
    if (this.trapped?.key === this.key && this.trapped.times >= 2) {
      this.error = this.trapped.message;
    } else {
      try {
        this.sweep = new this.app.model.PhaseSweep(swept, this.beat, broker ?? undefined);
      } catch (e) {
        if (isTrap(e)) return this.trap(e);
        this.error = String(e?.message ?? e);
      }
    }
    this.draw();
    if (this.sweep) this.loop();
  }

  /**
   * A trap in the sweep: it shares the session's module instance, so the session's handle is dead
   * too. The app rebuilds on a fresh instance (`recover`), which sweeps anew unless this very
   * sweep has trapped twice.
   */
  trap(e) {
    this.sweep = null; // dead: never freed or called again
    const times = this.trapped?.key === this.key ? this.trapped.times + 1 : 1;
    this.trapped = { key: this.key, message: String(e?.message ?? e), times };
    this.app.recover(e);
    this.drawSoon();
  }

  /** `f()` of the sweep's handle; a trap in it is handed to `trap` (then undefined). */
  call(f) {
    try {
      return f();
    } catch (e) {
      if (!isTrap(e)) throw e;
      this.trap(e);
      return undefined;
    }
  }

  /**
   * The beat swept: the person's choice, kept by the app for every session opened after, and
   * by the element across a remount (a new language, new views).
   */
  get beat() {
    return this.app.phasesBeat in BEATS ? this.app.phasesBeat : 'isr_check';
  }

  /**
   * Whose beat moves: a broker's alone (its number), or every broker's together (null). A choice
   * the open run has no broker for is every broker's.
   */
  get broker() {
    const b = this.app.phasesBroker;
    return Number.isInteger(b) && b >= 0 && b < (this.brokers ?? DEFAULT_BROKERS) ? b : null;
  }

  /**
   * Sweeps `beat` ('isr_check' or 'heartbeat') of `broker` (null: every broker's) from now on:
   * the open run anew if either changed.
   */
  use({ beat = this.beat, broker = this.broker }) {
    if (!(beat in BEATS) || (beat === this.beat && broker === this.broker)) return;
    this.app.phasesBeat = beat;
    this.app.phasesBroker = broker;
    if (this.text) this.restart();
  }

  loop() {
    if (this.queued) return;
    this.queued = true;
    this.tasks.port2.postMessage(null);
  }

  /** One task's worth of the sweep, then the next task queued. */
  work() {
    if (!this.sweep || !this.body.isConnected || !this.visible) return;
    const t0 = performance.now();
    let done = false;
    let slice = 0; // how long the last slice took: the next one starts only if it fits too
    try {
      done = this.sweep.done;
      while (!done && performance.now() - t0 + slice < TASK_BUDGET_MS) {
        const t = performance.now();
        done = this.sweep.step(this.perStep);
        slice = performance.now() - t;
        // Slices sized to about a millisecond each: a long scenario takes a few phases per slice.
        this.perStep = Math.max(1, Math.min(5000, Math.round(this.perStep / Math.max(0.05, slice))));
      }
    } catch (e) {
      if (isTrap(e)) return this.trap(e);
      this.sweep = null;
      this.error = String(e?.message ?? e);
      this.drawSoon();
      return;
    }
    // A redraw of many strips (s15's 1,001) costs more than many phases: while it sweeps, the
    // strips are redrawn at most a fifth of the time.
    if (done || performance.now() >= this.drawAfter) this.drawSoon();
    if (!done) this.loop();
  }

  /** Redraws in the next animation frame, once however many tasks ran before it. */
  drawSoon() {
    if (this.raf) return;
    this.raf = requestAnimationFrame(() => {
      this.raf = 0;
      this.draw();
    });
  }

  /** For good (the element is gone): the sweep freed, the task channel and the observer closed. */
  dispose() {
    this.stop();
    this.observer.disconnect();
    this.tasks.port1.onmessage = null;
    this.tasks.port1.close();
  }

  stop() {
    cancelAnimationFrame(this.raf);
    this.raf = 0;
    try {
      this.sweep?.free();
    } catch {
      // Its module instance trapped (the app is rebuilding on a fresh one): nothing to free.
    }
    this.sweep = null;
  }

  /**
   * Opens the run at phase φ (the same actions, the beat moved there). It is a scenario of its
   * own, not the curated one it came from: a story's captions, the Kafka check's mark and a short
   * link (which names the curated scenario) speak of the scenario's own phase, so the story is
   * left out and the saved session names no curated scenario.
   */
  openAt(phi) {
    const { tr } = this.app;
    const doc = JSON.parse(this.text);
    delete doc.story;
    if (doc.session) {
      delete doc.session.scenario;
      delete doc.session.story_open;
    }
    // From a live session, the run opened is live too (`session.live` is kept): it goes on.
    const broker = this.broker;
    const own = this.own;
    const moved = broker == null ? phi
      : Array.from({ length: this.brokers }, (_, i) => (i === broker ? phi : Array.isArray(own) ? own[i] : own));
    doc.phases = { ...(doc.phases ?? {}), [BEATS[this.beat]]: moved };
    // A comparison goes on at the new phase: its second run moves there too.
    const comparing = this.app.comparison?.active ? this.app.comparison.change : null;
    if (comparing) doc.compare = comparing;
    else delete doc.compare;
    // A label in words is kept as a key, so that a new language says it anew.
    const key = broker != null ? `phases.label.${this.beat}.broker` : this.beat === 'heartbeat' ? 'phases.label.heartbeat' : null;
    const args = { phase: phi, broker };
    const label = key ? { label: tr.t(key, args), labelKey: key, labelArgs: args } : { label: `φ = ${tr.num(phi)}` };
    this.app.open({ text: JSON.stringify(doc), phase: phi, ...label }, { play: false })
      .then((problem) => {
        if (problem) this.app.notice('bad', tr.t('phases.openFailed', { phase: phi, problem }));
        else this.app.host.syncUrl?.(); // the address no longer names what plays: the curated scenario at its own phase
      });
  }

  /**
   * Which beat the strips are over: two buttons, the one shown pressed; and whose: every broker's
   * together, or one broker's alone.
   */
  beatSwitch() {
    const { tr } = this.app;
    const broker = this.broker;
    const choices = [null, ...Array.from({ length: this.brokers ?? DEFAULT_BROKERS }, (_, i) => i)];
    return html`<p class="beat-switch" role="group" aria-label="${tr.t('phases.beat')}">${tr.t('phases.beat')}
      ${Object.keys(BEATS).map((b) => html`<button type="button" data-beat="${b}" data-testid="${`phase-beat-${b}`}" aria-pressed="${String(b === this.beat)}">${tr.t(`phases.beat.${b}`)}</button>`)}
      <label class="whose">${tr.t('phases.whose')} <select data-testid="phase-broker">${choices.map((b) => (b === broker
        ? html`<option value="${b ?? ''}" selected>${b == null ? tr.t('phases.whose.every') : tr.t('phases.whose.broker', { broker: b })}</option>`
        : html`<option value="${b ?? ''}">${b == null ? tr.t('phases.whose.every') : tr.t('phases.whose.broker', { broker: b })}</option>`))}</select></label></p>`;
  }

  draw() {
    const t0 = performance.now();
    this.drawStrips();
    const t1 = performance.now();
    this.drawAfter = t1 + 4 * (t1 - t0);
  }

  drawStrips() {
    const { tr } = this.app;
    if (this.error) {
      patch(this.switchEl, this.beatSwitch());
      patch(this.stripsEl, html`<p class="error">${tr.t('phases.failed', { error: this.error })}</p>`);
      return;
    }
    const read = this.sweep && this.call(() => ({ s: this.sweep.result(), done: this.sweep.phasesDone }));
    if (!read) return;
    const { s, done } = read;
    const period = s.period_ms;
    const pct = (ms) => (100 * ms) / period;
    const split = s.requests.filter((r) => r.outcomes.length > 1);
    const shown = s.requests.length <= MAX_ROWS ? s.requests
      : [...split, ...s.requests.filter((r) => r.outcomes.length <= 1)].slice(0, MAX_ROWS);
    const left = s.requests.length - shown.length;
    const leftSplit = split.length - shown.filter((r) => r.outcomes.length > 1).length;
    const rows = shown.map((r) => {
      const split = r.outcomes.length > 1;
      // Left to right, as the eye and the Tab key go (the outcomes list their ranges apart).
      const ranged = r.outcomes.flatMap((o) => o.phases.map(([lo, hi]) => ({ o, lo, hi }))).sort((a, b) => a.lo - b.lo);
      const segments = ranged.map(({ o, lo, hi }) => {
        const mid = Math.floor((lo + hi) / 2);
        const title = tr.t('phases.segment.title', { outcome: outcomeText(o, tr), phases: span(lo, hi, tr), phase: mid });
        const label = tr.t(lo === hi ? 'phases.segment.label.one' : 'phases.segment.label', { request: r.id, outcome: outcomeText(o, tr), from: lo, to: hi });
        // A segment a few pixels wide is drawn over its neighbours, so that it can be seen and hit.
        return html`<button type="button" class="seg ${good(o) ? 'ok' : 'bad'}${pct(hi + 1 - lo) < 1 ? ' thin' : ''}" style="${`left:${pct(lo)}%;width:${pct(hi + 1 - lo)}%`}" data-phase="${mid}" data-key="${`segment ${r.id} ${lo}`}" title="${title}" aria-label="${label}">${pct(hi + 1 - lo) > 12 ? outcomeText(o, tr) : ''}</button>`;
      });
      const marks = split ? r.outcomes.flatMap((o) => o.phases.map(([lo]) => lo)).filter((lo) => lo > 0)
        .map((lo) => html`<span class="edge" style="${`left:${pct(lo)}%`}">${tr.num(lo)}</span>`) : [];
      return html`<li data-testid="phase-row" data-request="${r.id}" data-story="${`phases-${r.id}`}"><p><b>${r.id}</b> <span class="${split ? 'bad' : 'muted'}">${tr.t(split ? 'phases.split' : done < period ? 'phases.same.sofar' : 'phases.same')}</span></p>
        <div class="strip" role="group" tabindex="-1" data-key="${`strip ${r.id}`}" aria-label="${tr.t('phases.strip', { request: r.id })}">${segments}<span class="now" style="${`left:${pct(this.ownPhase)}%`}" title="${tr.t('phases.thisRun', { phase: this.ownPhase })}"></span></div>
        <div class="edges" aria-hidden="true">${marks}</div>
        <ul class="shares">${r.outcomes.map((o) => html`<li><span class="swatch ${good(o) ? 'ok' : 'bad'}"></span>${tr.t('phases.share', { outcome: outcomeText(o, tr), phases: ranges(o, tr), share: (100 * o.count / Math.max(1, done)).toFixed(1), answered: answered(o, tr) })}</li>`)}</ul>
        ${r.edges.length ? html`<ul class="edge-words">${r.edges.map((e) => html`<li>${edgeText(r, e, period, tr)}</li>`)}</ul>` : null}</li>`;
    });
    // The heartbeats' words say every broker's moved together, unless one broker's alone is.
    const aboutKey = this.beat === 'heartbeat' && this.broker != null ? 'phases.about.heartbeat.one' : `phases.about.${this.beat}`;
    const about = tr.t(aboutKey, { period, phase: this.ownPhase, timeout: this.sessionTimeoutMs });
    const whose = this.broker == null ? '' : ` ${tr.t('phases.about.one', { broker: this.broker })}`;
    patch(this.switchEl, this.beatSwitch());
    patch(this.stripsEl, html`<p class="muted">${about}${whose}</p>
      <p class="phase-progress" data-testid="phase-progress">${done < period ? tr.t('phases.progress', { done, period }) : tr.t('phases.progress.done', { period, count: period })}</p>
      ${s.requests.length ? html`<ul class="phase-list">${rows}</ul>` : html`<p class="muted">${tr.t(done ? 'phases.noRequest' : 'phases.notStarted')}</p>`}
      ${left ? html`<p class="muted" data-testid="phase-rows-left">${tr.t(leftSplit ? 'phases.more.split' : done < period ? 'phases.more.sofar' : 'phases.more', { count: left, split: leftSplit })}</p>` : null}`);
    this.app.story?.reapply(); // a caption about a strip keeps its mark as the sweep fills in
    this.restoreFocus();
  }

  /** After a segment opened its run: focus on the segment again once the sweep has drawn it (see the click). */
  restoreFocus() {
    if (!this.refocus) return;
    const active = this.body.getRootNode().activeElement;
    // Focus that fell with the removed segment is on the document's body (outside the element's
    // shadow root, its activeElement is null).
    const fell = (active ?? document.activeElement ?? document.body) === document.body;
    // The reader went on elsewhere meanwhile: their focus stays where they put it.
    if (!fell && !this.body.contains(active)) {
      this.refocus = null;
      return;
    }
    const at = (key) => this.body.querySelector(`[data-key="${CSS.escape(key)}"]`);
    const segment = at(this.refocus.segment);
    if (segment) {
      segment.focus({ preventScroll: true });
      this.refocus = null;
    } else if (fell) at(this.refocus.strip)?.focus({ preventScroll: true });
  }
}
