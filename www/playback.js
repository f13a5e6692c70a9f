// The playhead of one playground: playing and pausing, the clock's steps forward, stepping and
// seeking, marker jumps, breakpoints and the end of a scenario. Every move goes through the
// model's handle (`app.sim`), then hands the passed events to the app (`ingest`) and marks the
// views for the next frame (`app.dirty`), or redraws them at once after a jump (`app.refresh`).
// A what-if's second run has its own playback moved by the first one's clock (`opts.leader`).
import { SimClock } from './clock.js';
import { hitText } from './says.js';
import { keepOwn, offerBack } from './left-session.js';

/** Calls into the model a seek makes at once: 100 of 40,000 units, the 4,000,000 that opening a
 * saved session computes at most (src/session/mod.rs, MAX_OPEN_WORK). */
const SEEK_CALLS = 100;

export class Playback {
  /** @param {import('./app.js').PlaygroundApp} app */
  constructor(app) {
    this.app = app;
    /** The animation-frame clock: its `advance` runs the model, its frame draws the views. */
    this.clock = new SimClock((ms, stop) => this.advance(ms, stop), () => app.onFrame());
    /** Whether the scenario's end has been reached and said (the `end` event, the end panel). */
    this.ended = false;
    /** The last breakpoint hit, `{hit, runB}`: a remount says it again while it stands. */
    this.lastHit = null;
  }

  /** Whether the run is playing: a what-if's second run plays while the first one's clock does. */
  get playing() {
    return (this.app.opts.leader ?? this.app).clock.playing;
  }

  setPlaying(on) {
    const app = this.app;
    if (!app.sim) return;
    const ext = app.guard(() => app.sim.extent());
    if (on && ext && ext.at_end) {
      // Nothing left to play (a link or a seek that opened at the end): say so, with the way on.
      if (!app.opts.twin) app.controls?.showEnd?.();
      return;
    }
    this.clock.setPlaying(on);
    // A question about acting at this instant is moot once the clock moves on.
    if (on) app.clearNotices('confirm');
    if (on && this.clock.speed === 'auto') this.clock.quietSince = performance.now();
    app.controls.updatePlay();
  }

  /** Stops the clock without asking the model anything (opening, recovering, a breakpoint). */
  halt() {
    this.clock.setPlaying(false);
    this.app.controls.updatePlay();
  }

  toggle() {
    this.setPlaying(!this.clock.playing);
  }

  /** Called by the clock with whole simulated ms to run. */
  advance(ms, stopAtNotable) {
    const app = this.app;
    let run = app.story.clamp(ms);
    if (run <= 0) {
      app.story.reached(app.sim.nowMs);
      return null;
    }
    // A what-if's second run has notable instants of its own (where the runs part, first of
    // all): the story pace stops at those too, so the first run goes no further than the next.
    const twinNext = stopAtNotable ? app.comparison?.nextMarkerMs() : null;
    if (twinNext != null) run = Math.min(run, twinNext - app.sim.nowMs);
    let done = app.guard(() => app.sim.advance(run, stopAtNotable));
    if (!done) return null;
    if (twinNext != null && done.now_ms === twinNext && !done.notable) done = { ...done, notable: true };
    if (done.hit) this.breakpointHit(done.hit);
    app.ingest();
    app.dirty = true;
    app.comparison?.follow();
    if (!app.story.reached(done.now_ms)) this.checkEnd();
    return done;
  }

  /** To the next instant at which either run (while comparing) traces something. */
  step() {
    const app = this.app;
    const from = app.sim.nowMs;
    const done = app.guard(() => app.sim.step());
    const twinNext = app.comparison?.nextStepMs(from);
    if (twinNext != null && (!done || twinNext < app.sim.nowMs)) {
      // The second run has something to show first: the first run stops there too.
      app.guard(() => app.sim.seek(twinNext));
    } else if (done?.hit) {
      this.breakpointHit(done.hit);
    }
    this.afterJump();
  }

  /** Back to the latest earlier instant at which either run (while comparing) traced something. */
  stepBack() {
    this.setPlaying(false);
    const app = this.app;
    const from = app.sim.nowMs;
    app.guard(() => app.sim.stepBack());
    const twinBack = app.comparison?.previousStepMs(from);
    if (twinBack != null && twinBack > app.sim.nowMs) app.guard(() => app.sim.seek(twinBack));
    this.afterJump();
  }

  seek(ms) {
    this.app.guard(() => this.app.sim.seek(Math.max(0, Math.round(ms))));
    this.afterJump();
  }

  /** Jumps to the previous (-1) or next (+1) timeline marker, of either run while comparing. */
  jumpMarker(dir) {
    const now = this.app.sim.nowMs;
    const near = [this.app.timeline?.markerNear(now, dir), this.app.comparison?.markerNear(dir)]
      .filter((t) => t != null);
    if (near.length) this.seek(dir > 0 ? Math.min(...near) : Math.max(...near));
  }

  /** After the playhead moved other than by playing: the second run follows, all is redrawn. */
  afterJump() {
    const app = this.app;
    app.clearNotices('confirm'); // a question about acting at the instant left
    app.comparison?.follow({ jump: true });
    app.ingest();
    this.checkEnd();
    app.refresh();
  }

  /**
   * Computes the run at least to `ms` now (to open a link at its instant, or to seek there): a
   * scenario's ahead of the playhead; a live session's by going there from its frontier, no
   * action of the person's coming meanwhile (as playing there would), over any breakpoint. At most
   * `calls` calls into the model (each a bounded piece of work); false if they ran out first.
   */
  computeUntil(ms, { calls = 10000 } = {}) {
    const { sim } = this.app;
    for (let i = 0; i < calls; i++) {
      const e = sim.extent();
      const to = Math.min(ms, e.horizon_ms);
      if (e.frontier_ms >= to) return true;
      if (e.live) {
        if (sim.nowMs < e.frontier_ms) sim.seek(e.frontier_ms);
        const at = sim.nowMs;
        if (sim.advance(to - at, false).now_ms === at) return true;
      } else if (e.complete) return true;
      else sim.extend(50000);
    }
    return false;
  }

  /**
   * Seeks to `at`, computing the run there first (the element's `seek`), as much as opening a
   * saved session computes at once (SEEK_CALLS); a busy cluster farther ahead stops short, says
   * so, and is reached by playing on.
   */
  seekComputing(at) {
    const app = this.app;
    const reached = this.computeUntil(at, { calls: SEEK_CALLS });
    this.seek(reached ? at : Math.min(at, app.sim.extent().frontier_ms));
    if (!reached) app.notice('warn', app.tr.t('seek.short', { asked: app.tr.num(at), at: app.tr.num(app.sim.nowMs) }));
  }

  /** Opens the session again from 0 ms (playing if asked; a live session plays by default). */
  restart({ play = this.app.live } = {}) {
    const app = this.app;
    app.story.stop();
    if (!app.source) return Promise.resolve();
    // Begun anew without the person's actions: they are offered back, as when another session opens.
    const kept = keepOwn(app);
    // At 0 ms: a session reopened from its file would otherwise open at its saved instant.
    return app.open(app.source, { play, at: 0 }).then((error) => {
      if (error) return app.notice('bad', error);
      // A session reopened from its file restarts with the file's actions.
      const own = app.guard(() => app.sim.actions().filter((a) => a.by_user).length) ?? 0;
      if (kept && own < kept.own) offerBack(app, kept);
    });
  }

  /** Stops at a breakpoint's hit (of the what-if's second run when `runB`), says what was hit
   * and tells the host, the sentence in the element's language as the event's `text`. */
  breakpointHit(hit, { runB = false } = {}) {
    this.halt();
    const last = this.lastHit;
    // The second run stopping in the instant the first one stopped in: one notice says both.
    const both = runB && last && !last.runB && last.hit.at_ms === hit.at_ms;
    this.lastHit = both ? { ...last, hitB: hit } : { hit, runB };
    const text = this.sayHit(this.lastHit, { run: runB ? 'B' : 'A' });
    this.app.emit('breakpoint', { ...hit, text });
  }

  /**
   * Says a breakpoint's hit in the notices (again, after a remount in another language), with
   * the second run's hit in the same instant (`hitB`) after it; returns what `run`'s hit says.
   */
  sayHit({ hit, runB, hitB }, { run = runB ? 'B' : 'A' } = {}) {
    const { tr } = this.app;
    // Every breakpoint its instant fired, the first one first.
    const said = (h) => [h.says, ...(h.also ?? [])].map((s) => hitText(s, tr)).join(tr.t('clause.sep'));
    const inB = (h) => tr.t('whatIf.breakpoint', { what: said(h) });
    const first = runB ? inB(hit) : said(hit);
    const text = hitB ? `${first}${tr.t('clause.sep')}${inB(hitB)}` : first;
    this.app.notice('bp', tr.t('playback.breakpoint', { what: text, at: hit.at_ms }));
    if (!hitB) return first;
    return run === 'B' ? inB(hitB) : said(hit);
  }

  /** At the scenario's end: the clock stops, the `end` event, the end panel (or a loop again). */
  checkEnd() {
    const app = this.app;
    if (app.opts.twin) return; // the first run says when the scenario ends
    const ext = app.guard(() => app.sim.extent());
    if (!ext) return;
    const atEnd = ext.at_end;
    if (atEnd && !this.ended) {
      this.ended = true;
      this.halt();
      app.emit('end', { at_ms: ext.now_ms, result: JSON.parse(app.sim.result()) });
      if (app.opts.loop) {
        // Again from the start, playing, unless the reader moved away from the end meanwhile.
        setTimeout(() => { if (app.sim && this.ended) this.restart({ play: true }); }, 1500);
      } else {
        app.controls.showEnd();
      }
    } else if (!atEnd && this.ended) {
      this.ended = false;
      app.controls.hideEnd();
    }
  }

  /** The run has gone on past its end (an action, a live continuation): it can end again. */
  resume() {
    this.ended = false;
    this.app.controls.hideEnd();
  }

  /** The speed control's words: `auto · 2.0×`, `auto · 1 ms per 3 ms`, `10× · paused`. */
  speedText() {
    const { clock } = this;
    const { tr } = this.app;
    if (clock.speed === 'auto') return tr.t('playback.speed.auto', { rate: clock.playing ? rateWords(clock.rate, tr) : tr.t('playback.speed.paused') });
    const rate = rateWords(clock.speed, tr);
    return clock.playing ? rate : tr.t('playback.speed.fixed.paused', { rate });
  }
}

/**
 * A pace in words: `holding`, `2.0×`, `1,000×`, or below real time the wall time one simulated
 * ms takes (`1 ms per 50 ms`, `1 ms per 1.2 s`).
 */
function rateWords(rate, tr) {
  if (rate <= 0) return tr.t('playback.rate.holding');
  if (rate >= 1) return tr.t('playback.rate.times', { rate: rate >= 10 ? Math.round(rate) : rate.toFixed(1) });
  const wallPerMs = 1 / rate;
  return wallPerMs >= 1000
    ? tr.t('playback.rate.perSecond', { wall: (wallPerMs / 1000).toFixed(1) })
    : tr.t('playback.rate.perMs', { wall: Math.round(wallPerMs) });
}
