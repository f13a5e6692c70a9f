// What if? The open session beside a second run of it that differs in one thing (acks, a config
// setting, a request timeout, an action moved or left out). The model runs both to their end and
// names the first instant where their traces part and what each producer got in each
// (`whatIf`); the page opens the second run as a handle of its own, in a second playground
// mounted beside the first with only views, and moves it on the first one's clock: play, seek,
// step, step back, speed, breakpoints and the story's pauses act on both.
import { isTrap } from './wasm-module.js';
import { firstTelling, sayEvent } from './narrate.js';
import { html, render } from './html.js';
import { changeWords } from './what-if-words.js';
import { outcomeWords } from './outcome-words.js';
import { errorWords } from './error-words.js';
import { shortQuote } from './share.js';

/** The second run's views: what differs between two runs, without a second timeline or log. */
const TWIN_VIEWS = ['narration', 'cluster', 'purgatory', 'wheel', 'responses'];
/** At most this many `advance` calls bring the second run to the first one's instant. */
const MAX_FOLLOW_CALLS = 64;

export class Comparison {
  /** @param {import('./app.js').PlaygroundApp} app the first run's playground */
  constructor(app) {
    this.app = app;
    this.box = app.$('.compare');
    this.twinRoot = app.$('.run-b');
    /** The second run's playground, while comparing. */
    this.twin = null;
    this.change = null;
    this.report = null;
    /** The what-if the open session came with (its file's or link's `compare`): its story's. */
    this.own = null;
    /** Whether `follow` drew the second run in this frame already (see `onFrame`). */
    this.drawnThisFrame = false;
    this.box?.addEventListener('click', (ev) => this.onClick(ev));
  }

  get active() {
    return this.twin != null && this.report != null;
  }

  /**
   * Starts comparing with `change` (text such as "acks=1"), or compares again after the first run
   * changed. Returns an error message (nothing changes then) or null.
   */
  async start(change) {
    const app = this.app;
    const { tr } = app;
    if (!app.sim || !this.twinRoot) return tr.t('whatIf.noRoom');
    let answer;
    try {
      answer = app.sim.whatIf(change);
    } catch (e) {
      if (isTrap(e)) { app.recover(e); return tr.t('whatIf.trapped'); }
      return errorWords(e?.message ?? e, tr);
    }
    const twin = this.twin ?? new app.constructor(app.host, this.twinRoot, {
      views: TWIN_VIEWS.filter((v) => app.has(v)),
      controls: 'none',
      layout: 'twin',
      twin: true,
      leader: app, // its clock, which moves this run too
      speed: app.opts.speed,
      tr: app.tr,
    });
    const error = await twin.open({ text: answer.scenario, label: tr.t('whatIf.run') }, { play: false, selected: app.selected });
    if (error) {
      if (!this.twin) twin.destroy();
      app.guard(() => app.sim.endCompare());
      return tr.t('whatIf.notOpened', { error: errorWords(error, tr) });
    }
    const theme = app.root.querySelector('.pp').dataset.theme;
    if (theme) twin.root.querySelector('.pp').dataset.theme = theme;
    this.twin = twin;
    this.change = answer.change;
    this.report = answer.comparison;
    /** A live session is compared up to its playhead (`until`): again after each action, or asked. */
    this.until = answer.live ? answer.until_ms : null;
    this.copyBreakpoints();
    app.root.querySelector('.pp').classList.add('comparing');
    this.twinRoot.hidden = false;
    this.follow({ jump: true });
    this.draw();
    app.timeline?.invalidate({ now: true });
    app.refresh();
    app.controls?.updateKafkaMark();
    app.emit('compare', { change: this.change, comparison: this.report });
    return null;
  }

  /** Stops comparing: the second run goes, and an exported session no longer carries it. */
  end({ redraw = true } = {}) {
    const app = this.app;
    if (this.twin) this.twin.destroy();
    this.twin = null;
    this.change = null;
    this.report = null;
    if (this.twinRoot) { this.twinRoot.hidden = true; render(this.twinRoot, html``); }
    if (this.box) { this.box.hidden = true; render(this.box, html``); }
    app.root.querySelector('.pp')?.classList.remove('comparing');
    if (app.sim) app.guard(() => app.sim.endCompare());
    app.timeline?.invalidate({ now: true });
    app.controls?.updateKafkaMark();
    if (redraw && app.sim) app.refresh();
  }

  /** A session was opened: compare as its file or link says (`compare`), or stop comparing. */
  async onOpen(asked = null) {
    const change = asked ?? this.app.guard(() => this.app.sim.compare) ?? null;
    this.own = change;
    if (!change) {
      if (this.twin) this.end();
      return null;
    }
    const error = await this.start(change);
    if (error) {
      this.end();
      this.app.notice('warn', this.app.tr.t('whatIf.failed', { change: shortQuote(change), error }));
    }
    return error;
  }

  /**
   * The guided story tells the run its session came with beside that session's own what-if:
   * starting it while another what-if is shown, or none, compares with the own one again (said
   * in a notice).
   */
  async restoreOwn() {
    const own = this.own;
    if (!own || (this.active && this.change === own)) return;
    const error = await this.start(own);
    const { tr } = this.app;
    this.app.notice(error ? 'warn' : 'ok', error ? tr.t('whatIf.failed', { change: shortQuote(own), error }) : tr.t('story.ownWhatIf', { change: own }));
  }

  /**
   * The first run changed (an action, a fork, an undo): both runs are compared again once the
   * change is drawn, once for all the commands of one moment (a script's burst of them).
   */
  rerunSoon() {
    if (!this.active || this.rerunQueued) return;
    this.rerunQueued = true;
    requestAnimationFrame(() => setTimeout(() => {
      this.rerunQueued = false;
      this.rerun().catch((e) => console.error('purgatory-playground: the what-if could not be compared again', e));
    }, 0));
  }

  /** Both runs compared again, now (also the "Compare again" button). */
  async rerun() {
    if (!this.active) return;
    const change = this.change;
    const error = await this.start(change);
    if (error) {
      this.end();
      this.app.notice('warn', this.app.tr.t('whatIf.ended', { change: shortQuote(change), error }));
    }
  }

  /** Brings the second run to the first one's instant: played on (`jump` false) or sought. */
  follow({ jump = false } = {}) {
    const twin = this.twin;
    const app = this.app;
    if (!twin?.sim || !app.sim) return;
    const now = app.sim.nowMs;
    let at = twin.sim.nowMs;
    if (jump || now < at) {
      twin.guard(() => twin.sim.seek(now));
    } else {
      for (let i = 0; i < MAX_FOLLOW_CALLS && at < now; i++) {
        const done = twin.guard(() => twin.sim.advance(now - at, false));
        if (!done || done.now_ms === at) break;
        at = done.now_ms;
        if (done.hit) {
          // A breakpoint of the second run stops both there (the first is at most a frame ahead).
          app.playback.seek(done.hit.at_ms);
          app.playback.breakpointHit(done.hit, { runB: true });
          return;
        }
      }
    }
    twin.ingest({ emit: false });
    twin.dirty = true;
    twin.frame();
    this.drawnThisFrame = true;
  }

  /**
   * Each frame of the first run: the second computes its run ahead too (its markers), and draws
   * what it still owes. While the first plays, the second's slow panels (purgatory, responses,
   * ...) are drawn at most every so often, like the first's; when the first then holds still (a
   * hold at a key moment), no `follow` comes to draw them, so the frame does.
   */
  onFrame() {
    const twin = this.twin;
    if (!twin?.sim) return;
    if (twin.dirty && !this.drawnThisFrame) twin.frame();
    this.drawnThisFrame = false;
    if (twin.complete) return;
    twin.extendAhead();
    if (twin.complete) this.app.timeline?.invalidate({ now: true }); // its markers, all of them
  }

  /** The second run's next notable instant after the playhead (a timeline marker), or null. */
  nextMarkerMs() {
    const twin = this.twin;
    if (!twin?.sim || !this.active) return null;
    const next = twin.guard(() => twin.sim.nextMarkerMs) ?? null;
    return next != null && next > this.app.sim.nowMs ? next : null;
  }

  /**
   * The second run's next traced instant after `from` (where both runs stand), or null: it steps
   * there, and the next `follow` brings it back to wherever the first run stops.
   */
  nextStepMs(from) {
    const twin = this.twin;
    if (!twin?.sim || !this.active) return null;
    const done = twin.guard(() => twin.sim.step());
    return done && twin.sim.nowMs > from ? twin.sim.nowMs : null;
  }

  /** The second run's latest traced instant before `from` (where both runs stand), or null. */
  previousStepMs(from) {
    const twin = this.twin;
    if (!twin?.sim || !this.active) return null;
    const at = twin.guard(() => twin.sim.stepBack()) ?? null;
    return at != null && at < from ? at : null;
  }

  /** The second run's previous (-1) or next (+1) marker from where both runs stand, or null. */
  markerNear(dir) {
    const twin = this.twin;
    if (!twin?.sim || !this.active) return null;
    const now = this.app.sim.nowMs;
    const at = twin.guard(() => (dir > 0 ? twin.sim.nextMarkerMs : twin.sim.previousMarkerMs)) ?? null;
    return at != null && (dir > 0 ? at > now : at < now) ? at : null;
  }

  /** The breakpoints the first run has, set on the second as well. */
  copyBreakpoints() {
    const spec = this.app.breakpoints ?? {};
    this.twin?.guard(() => this.twin.sim.setBreakpoints(spec));
  }

  /** The second run's markers in `[from, to]`, for the timeline's second lane. */
  markers(from, to, max) {
    const twin = this.twin;
    if (!twin?.sim) return [];
    return twin.guard(() => twin.sim.markers(from, to, max))?.markers ?? [];
  }

  onClick(ev) {
    const b = ev.target.closest('button');
    if (!b) return;
    if (b.dataset.testid === 'compare-end') this.end();
    else if (b.dataset.testid === 'compare-again') this.rerun();
    else if (b.dataset.testid === 'divergence-seek' && this.report?.divergence) {
      this.app.playback.setPlaying(false);
      this.app.playback.seek(this.report.divergence.at_ms);
    } else if (b.dataset.request) {
      this.app.select(b.dataset.request);
      this.twin?.select(b.dataset.request);
    }
  }

  draw() {
    const r = this.report;
    if (!this.box || !r) return;
    const { tr } = this.app;
    const b = r.b.change != null ? changeWords(this.change, this.app.guard(() => this.app.sim.actions()) ?? [], tr) : r.b.name;
    const label = (side) => (side === 'a' ? tr.t('whatIf.a') : `B · ${b}`);
    this.app.$('.run-a .run-label').textContent = label('a');
    const twinLabel = this.twin?.root.querySelector('.run-label');
    if (twinLabel) twinLabel.textContent = label('b');
    const sum = r.differing === 0 ? tr.t('whatIf.allSame') : tr.t('whatIf.differing', { differing: String(r.differing), count: String(r.outcomes.length) });
    this.box.hidden = false;
    render(this.box, html`<header class="ph"><h2 id="h-compare">${tr.t('whatIf.heading', { change: b })}</h2>
        <span class="compare-sum">${sum}</span>
        <button type="button" data-testid="compare-end">${tr.t('whatIf.stop')}</button></header>
      ${this.until != null ? html`<p class="hint compare-until">${tr.t('whatIf.live', { at: this.until })} <button type="button" data-testid="compare-again">${tr.t('whatIf.again')}</button></p>` : null}
      ${divergence(r, b, tr)}
      <div class="outcomes-box"><table class="outcomes" data-testid="outcomes">
        <thead><tr><th scope="col">${tr.t('whatIf.request')}</th><th scope="col">${label('a')}</th><th scope="col">${label('b')}</th><th scope="col"><span class="sr-only">${tr.t('whatIf.verdict')}</span></th></tr></thead>
        <tbody>${r.outcomes.map((row) => outcomeRow(row, tr))}</tbody>
      </table></div>`);
    this.app.story?.reapply(); // a caption may point into the comparison
  }
}

/** Where the two runs part, what each does there, and a button to go there. */
function divergence(r, b, tr) {
  const d = r.divergence;
  if (!d) return html`<p class="divergence" data-testid="divergence">${tr.t('whatIf.noDivergence')}</p>`;
  // What each run does there is the narration's sentence about an event of that millisecond
  // that the other run lacks: the first differing event where it is one (most often the cause),
  // else the first such event the narration would tell. The first differing event may be one both
  // runs have, only a step apart (a fetch answered after B's request arrived); a run with nothing
  // of its own there does nothing the other does not.
  const say = (only = [], first, otherOnly = []) => {
    const e = only.find((x) => x.id === first?.id) ?? firstTelling(only);
    if (e) return sayEvent(e, tr);
    if (first && otherOnly.length) return tr.t('whatIf.nothingNew');
    return first ? sayEvent(first, tr) : tr.t('whatIf.runEnded');
  };
  const parts = {
    at: html`<b>${tr.num(d.at_ms)} ms</b>`,
    inA: html`<span class="side-a">${tr.t('whatIf.inA', { what: say(d.only_a, d.a, d.only_b) })}</span>`,
    inB: html`<span class="side-b">${tr.t('whatIf.inB', { change: b, what: say(d.only_b, d.b, d.only_a) })}</span>`,
  };
  return html`<p class="divergence" data-testid="divergence" data-story="divergence">${tr.parts('whatIf.divergence', parts)}
    <button type="button" data-testid="divergence-seek">${tr.t('whatIf.goTo', { at: d.at_ms })}</button></p>`;
}

function answerText(a, tr) {
  if (!a) return tr.t('whatIf.absent');
  // The producer gave up: it read no answer, so no offsets either.
  if (a.client_timed_out_ms != null) return tr.t('whatIf.answer.gaveUp', { outcome: outcomeWords(a.got, tr), at: a.client_timed_out_ms });
  const outcome = outcomeWords(a.got, tr);
  // No answer (acks=0, a closed connection): no offsets read, and an acks=0 request taken is said
  // to get no response. In an answer, a partition that failed has none (Kafka's -1), shown as a
  // dash where another one has its own.
  if (a.answered_ms == null) return a.got.connection_closed || a.got.errors.includes(null) ? outcome : tr.t('whatIf.answer.none', { outcome });
  const read = a.got.connection_closed ? [] : a.base_offsets;
  if (!read.some((o) => o >= 0)) return tr.t('whatIf.answer.atOnly', { outcome, at: a.answered_ms });
  const offsets = read.map((o) => (o >= 0 ? o : '–')).join(' + ');
  return tr.t('whatIf.answer.at', { outcome, at: a.answered_ms, offsets });
}

function cell(a, tr) {
  if (a?.lost_ms != null) {
    // LOST is the model's word for acknowledged records gone, written as the outcomes are.
    const parts = { answer: answerText(a, tr), lost: html`<b class="lost-word">LOST</b>`, at: tr.num(a.lost_ms) };
    return html`<td class="lost">${tr.parts('whatIf.lost', parts)}</td>`;
  }
  return html`<td>${answerText(a, tr)}</td>`;
}

function outcomeRow(row, tr) {
  const lost = row.a?.lost_ms != null || row.b?.lost_ms != null;
  return html`<tr class="${row.differs ? 'differs' : 'same'}" data-testid="${lost ? 'lost' : 'outcome'}" data-request="${row.id}" data-story="outcome-${row.id}">
    <th scope="row"><button type="button" class="linkish" data-request="${row.id}" title="${tr.t('whatIf.follow', { id: row.id })}">${row.id}</button></th>
    ${cell(row.a, tr)}${cell(row.b, tr)}<td class="verdict">${tr.t(row.differs ? 'whatIf.differs' : 'whatIf.same')}</td></tr>`;
}
