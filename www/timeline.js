// The timeline: the whole run on one line, with a marker at each notable instant (a request sent
// or answered, the HW moving, an ISR change, a leader change, a purge, an action), the purgatory's
// size under it, the part already computed, and the playhead. Drag or click to seek, click a
// marker to jump to it; as a slider it takes the arrow keys (previous / next marker), Home and End.
// A long run squeezes its markers together: the − / + buttons, + / - / 0 on the timeline and
// Ctrl + wheel (a trackpad's pinch) zoom in on part of it, and the window follows the playhead.
//
// The markers and the gauge series come from the model (`markers`, `series`): exact, however long
// the run, binned to the timeline's width so a one-millisecond peak still shows.
//
// Its words are the app's language (`app.tr`, www/i18n/*/views.js); a marker's tooltip is what
// the model says of it (its fields), worded by www/says.js.
import { html, render } from './html.js';
import { markerText } from './says.js';

/** Most markers drawn at once; the model keeps the most telling ones when there are more. */
const MAX_MARKERS = 400;
/** The markers and the series are fetched again at most this often while the run grows (wall ms). */
const REFETCH_MS = 250;
/** The narrowest window a zoom shows (simulated ms), and how much one zoom step takes in or out. */
const MIN_WINDOW_MS = 20;
const ZOOM_STEP = 4;

const KIND_CLASS = {
  produce: 'm-produce', answered: 'm-ok', failed: 'm-bad', closed: 'm-bad', expired: 'm-bad', lost: 'm-bad',
  hw: 'm-hw', isr_proposed: 'm-isr', isr_committed: 'm-isr', fenced: 'm-bad', unfenced: 'm-isr',
  leader: 'm-isr', purge: 'm-purge', action: 'm-action',
};

function compareTitle(m, tr) {
  switch (m.kind) {
    case 'divergence': return tr.t('timeline.compare.divergence');
    case 'lost': return tr.t('timeline.compare.lost', { run: m.run.toUpperCase(), request: m.request });
    default: return tr.t('timeline.compare.answered', { run: m.run.toUpperCase(), request: m.request });
  }
}

export class Timeline {
  /** @param {import('./app.js').PlaygroundApp} app @param {HTMLElement} wrap */
  constructor(app, wrap) {
    this.app = app;
    this.wrap = wrap;
    this.markers = [];
    this.total = 0;
    this.stale = true;
    this.fetchedAt = -Infinity;
    this.span = { from: 0, to: 1000 };
    /** The window shown while zoomed in (`{from, to}`), or null for the whole run. */
    this.zoom = null;
    const { tr } = app;
    render(wrap, html`<div class="tl" data-testid="timeline" role="slider" tabindex="0" aria-label="${tr.t('timeline.label')}" aria-valuemin="0" aria-valuenow="0" aria-valuemax="1000" aria-valuetext="0 ms">
        <svg class="tl-series" preserveAspectRatio="none" aria-hidden="true"><path/></svg>
        <div class="tl-computed"></div>
        <div class="tl-marks"></div>
        <div class="tl-head"><span class="tl-head-label"></span></div>
      </div>
      <div class="tl-scale"><span class="tl-from" aria-hidden="true">0 ms</span><span class="tl-mid"><button type="button" data-jump="-1" data-testid="tl-prev-marker" aria-label="${tr.t('timeline.prev')}" title="${tr.t('timeline.prev.title')}">‹</button><span class="tl-info" aria-hidden="true"></span><button type="button" data-jump="1" data-testid="tl-next-marker" aria-label="${tr.t('timeline.next')}" title="${tr.t('timeline.next.title')}">›</button><span class="tl-zoom" role="group" aria-label="${tr.t('timeline.zoom')}">
        <button type="button" data-zoom="out" data-testid="tl-zoom-out" aria-label="${tr.t('timeline.zoomOut')}" title="${tr.t('timeline.zoomOut.title')}" disabled>−</button><button type="button" data-zoom="in" data-testid="tl-zoom-in" aria-label="${tr.t('timeline.zoomIn')}" title="${tr.t('timeline.zoomIn.title')}">+</button><button type="button" data-zoom="fit" data-testid="tl-zoom-fit" title="${tr.t('timeline.fit.title')}" hidden>${tr.t('timeline.fit')}</button>
      </span></span><span class="tl-to" aria-hidden="true"></span></div>`);
    this.el = wrap.querySelector('.tl');
    this.bins = null;
    // The width comes from a ResizeObserver, after the browser's own layout: reading clientWidth
    // while a frame is drawn would force a layout of the whole playground there and then.
    new ResizeObserver(([entry]) => this.resized(entry.contentRect.width)).observe(this.el);
    this.wire();
  }

  /** The timeline got a new width: the series is binned again to it (markers do not depend on it). */
  resized(width) {
    const bins = width > 0 ? Math.max(50, Math.round(width / 2)) : null;
    if (bins == null || bins === this.bins) return;
    this.bins = bins;
    const app = this.app;
    const ext = app.sim && !app.recovering ? app.guard(() => app.sim.extent()) : null;
    if (ext) this.fetchSeries(ext);
  }

  wire() {
    const el = this.el;
    let dragging = false;
    const msAt = (ev) => {
      const r = el.getBoundingClientRect();
      const x = Math.min(1, Math.max(0, (ev.clientX - r.left) / Math.max(1, r.width)));
      return Math.round(this.span.from + x * (this.span.to - this.span.from));
    };
    const seekTo = (ms) => {
      const limit = this.limitMs();
      this.app.playback.seek(Math.min(ms, limit));
    };
    el.addEventListener('pointerdown', (ev) => {
      if (ev.button !== 0) return;
      const mark = ev.target.closest('.tl-mark');
      this.app.playback.setPlaying(false);
      if (mark) {
        seekTo(Number(mark.dataset.at));
        return;
      }
      dragging = true;
      el.setPointerCapture?.(ev.pointerId);
      // A live session's run is computed as it plays: past what it has played there is nothing yet.
      if (this.app.sim.extent().live && msAt(ev) > this.limitMs()) this.app.notice('hint', this.app.tr.t('timeline.liveFuture'));
      seekTo(msAt(ev));
    });
    let pending = null;
    el.addEventListener('pointermove', (ev) => {
      if (!dragging) return;
      // One seek per frame while dragging: a seek replays from the nearest checkpoint.
      const first = pending === null;
      pending = msAt(ev);
      if (first) requestAnimationFrame(() => { const ms = pending; pending = null; if (ms != null) seekTo(ms); });
    });
    const end = () => { dragging = false; };
    el.addEventListener('pointerup', end);
    el.addEventListener('pointercancel', end);
    // A step is one event, and idle fetches fill the quiet stretches: these go marker to marker.
    for (const b of this.wrap.querySelectorAll('[data-jump]')) {
      b.addEventListener('click', () => {
        if (!this.app.sim) return;
        this.app.playback.setPlaying(false);
        this.app.playback.jumpMarker(Number(b.dataset.jump));
      });
    }
    this.wrap.querySelector('.tl-zoom').addEventListener('click', (ev) => {
      const how = ev.target.closest('button')?.dataset.zoom;
      if (!how || !this.app.sim) return;
      if (how === 'fit') this.zoomTo(null);
      else this.zoomBy(how === 'in' ? 1 / ZOOM_STEP : ZOOM_STEP, this.app.sim.nowMs);
    });
    el.addEventListener('wheel', (ev) => {
      if (!ev.ctrlKey && !ev.metaKey) return; // a plain wheel scrolls the page
      ev.preventDefault();
      this.zoomBy(ev.deltaY < 0 ? 1 / ZOOM_STEP : ZOOM_STEP, msAt(ev));
    }, { passive: false });
    el.addEventListener('keydown', (ev) => {
      const zoomKey = { '+': 1 / ZOOM_STEP, '=': 1 / ZOOM_STEP, '-': ZOOM_STEP, 0: 0 }[ev.key];
      if (zoomKey !== undefined && this.app.sim) {
        ev.preventDefault();
        ev.stopPropagation();
        if (zoomKey) this.zoomBy(zoomKey, this.app.sim.nowMs);
        else this.zoomTo(null);
        return;
      }
      const keys = {
        ArrowLeft: () => this.app.playback.jumpMarker(-1),
        ArrowRight: () => this.app.playback.jumpMarker(1),
        ArrowDown: () => this.app.playback.jumpMarker(-1),
        ArrowUp: () => this.app.playback.jumpMarker(1),
        Home: () => this.app.playback.seek(0),
        End: () => this.app.playback.seek(this.limitMs()),
        PageUp: () => this.app.playback.seek(Math.max(0, this.app.sim.nowMs - this.step())),
        PageDown: () => this.app.playback.seek(Math.min(this.limitMs(), this.app.sim.nowMs + this.step())),
      };
      const act = keys[ev.key];
      if (!act || !this.app.sim) return;
      ev.preventDefault();
      ev.stopPropagation();
      this.app.playback.setPlaying(false);
      act();
    });
  }

  /** A tenth of the visible span, for Page Up / Page Down. */
  step() {
    return Math.max(1, Math.round((this.span.to - this.span.from) / 10));
  }

  /** How far a seek may go: the end of a scenario, or what a live session has run so far. */
  limitMs() {
    const ext = this.app.sim.extent();
    return ext.live ? ext.frontier_ms : ext.horizon_ms;
  }

  /**
   * The run grew or changed (computed further, forked, undone): fetch markers again soon, or with
   * `now` at the next update.
   */
  invalidate({ now = false } = {}) {
    this.stale = true;
    if (now) this.fetchedAt = -Infinity;
  }

  /** Moves the playhead to `now`, refetching markers when they are stale. */
  update(now) {
    const sim = this.app.sim;
    if (!sim) return;
    const wall = performance.now();
    const ext = sim.extent();
    const span = this.spanFor(ext);
    // A new span (the run's grew a step, a zoom, the window moved on) is drawn at once: its marks
    // and ends must agree with the playhead's place on it.
    if (span.to !== this.span.to || span.from !== this.span.from) this.invalidate({ now: true });
    this.span = span;
    if (this.stale && wall - this.fetchedAt >= REFETCH_MS) {
      this.stale = false;
      this.fetchedAt = wall;
      this.fetch(ext);
    }
    const pos = (ms) => `${(100 * (ms - span.from)) / Math.max(1, span.to - span.from)}%`;
    this.el.querySelector('.tl-head').style.left = pos(now);
    const { tr } = this.app;
    const label = this.el.querySelector('.tl-head-label');
    label.textContent = `${tr.num(now)} ms`;
    // Near the right end the label goes on the playhead's left, so it is not cut off.
    label.classList.toggle('left', (now - span.from) / Math.max(1, span.to - span.from) > 0.85);
    this.el.querySelector('.tl-computed').style.width = pos(Math.min(ext.frontier_ms, span.to));
    // The marker buttons say when there is no marked moment that way.
    if (now !== this.jumpsAt || this.jumpsFetched !== this.fetchedAt) {
      this.jumpsAt = now;
      this.jumpsFetched = this.fetchedAt;
      for (const b of this.wrap.querySelectorAll('[data-jump]')) b.disabled = this.markerNear(now, Number(b.dataset.jump)) == null;
    }
    // The slider's range is the run's, zoomed or not.
    const end = this.zoom ? this.wholeSpan(ext).to : span.to;
    this.el.setAttribute('aria-valuenow', String(now));
    this.el.setAttribute('aria-valuemax', String(end));
    this.el.setAttribute('aria-valuetext', tr.t('timeline.value', { now, end }));
  }

  /** The whole run: a scenario's to its horizon; a live session's so far, with room ahead. */
  wholeSpan(ext) {
    if (!ext.live) return { from: 0, to: Math.max(1, ext.horizon_ms) };
    const reach = Math.max(ext.frontier_ms, ext.now_ms, 1);
    // Grows in steps so the markers do not creep left every frame, up to the longest run.
    const to = Math.min(2 ** Math.ceil(Math.log2(reach * 1.25 + 1000)), Math.max(1, ext.horizon_ms));
    return { from: 0, to };
  }

  /**
   * The span drawn: the whole run, or the zoomed window, which moves on by a window when the
   * playhead leaves it (playing, or a jump), and stays inside the run.
   */
  spanFor(ext) {
    const whole = this.wholeSpan(ext);
    if (!this.zoom) return whole;
    const width = this.zoom.to - this.zoom.from;
    if (width >= whole.to - whole.from) {
      this.zoomTo(null, { redraw: false });
      return whole;
    }
    let { from } = this.zoom;
    const now = ext.now_ms;
    if (now < from || now > from + width) from = now - Math.round(width / 10);
    from = Math.max(whole.from, Math.min(from, whole.to - width));
    if (from !== this.zoom.from) this.zoom = { from, to: from + width };
    return this.zoom;
  }

  /** Zooms by `factor` (below 1: in) keeping `atMs` where it is on the timeline. */
  zoomBy(factor, atMs) {
    const sim = this.app.sim;
    if (!sim) return;
    const whole = this.wholeSpan(sim.extent());
    const cur = this.span;
    const width = Math.max(MIN_WINDOW_MS, Math.round((cur.to - cur.from) * factor));
    if (width >= whole.to - whole.from) {
      this.zoomTo(null);
      return;
    }
    const at = Math.min(Math.max(atMs, cur.from), cur.to);
    const start = Math.round(at - ((at - cur.from) / Math.max(1, cur.to - cur.from)) * width);
    const from = Math.max(whole.from, Math.min(start, whole.to - width));
    this.zoomTo({ from, to: from + width });
  }

  /** Shows `window` (`{from, to}`; null: the whole run) and redraws at once. */
  zoomTo(window, { redraw = true } = {}) {
    this.zoom = window;
    const zoomed = this.zoom !== null;
    const q = (sel) => this.wrap.querySelector(sel);
    q('[data-zoom="fit"]').hidden = !zoomed;
    q('[data-zoom="out"]').disabled = !zoomed;
    q('[data-zoom="in"]').disabled = zoomed && this.zoom.to - this.zoom.from <= MIN_WINDOW_MS;
    // A new span is fetched and drawn at once by `update`.
    if (redraw && this.app.sim) this.update(this.app.sim.nowMs);
  }

  fetch(ext) {
    const sim = this.app.sim;
    const { from, to } = this.span;
    const got = this.app.guard(() => sim.markers(from, to, MAX_MARKERS));
    if (!got) return;
    this.markers = got.markers;
    this.total = got.total;
    // While a what-if is beside the run: the second run's markers on a lane of their own.
    const cmp = this.app.comparison;
    this.markersB = cmp?.active ? cmp.markers(from, to, MAX_MARKERS) : [];
    this.drawMarks();
    this.fetchSeries(ext);
  }

  /** The purgatory's size under the markers, once the width to bin it to is known. */
  fetchSeries(ext) {
    if (this.bins == null) return;
    const { from, to } = this.span;
    this.drawSeries(this.app.guard(() => this.app.sim.series(from, Math.min(to, ext.frontier_ms), this.bins)));
  }

  drawMarks() {
    const { from, to } = this.span;
    const pos = (ms) => (100 * (ms - from)) / Math.max(1, to - from);
    const { tr } = this.app;
    const cmp = this.app.comparison;
    const report = cmp?.active ? cmp.report : null;
    this.el.classList.toggle('comparing', report != null);
    const said = (m, what, run) => tr.t(run ? 'timeline.mark.run' : 'timeline.mark', { run, at: tr.num(m.at_ms), what });
    const mark = (m, lane, run) => html`<span class="tl-mark ${KIND_CLASS[m.kind] ?? ''}${lane}" style="left:${pos(m.at_ms).toFixed(3)}%" data-at="${m.at_ms}" data-kind="${m.kind}" title="${said(m, markerText(m.says, tr), run)}"></span>`;
    const inSpan = (m) => m.at_ms >= from && m.at_ms <= to;
    // The comparison's own moments: where the runs part, and each answer that differs or is lost.
    const compareMark = (m) => html`<span class="tl-mark tl-cmp k-${m.kind} from-${m.run}" style="left:${pos(m.at_ms).toFixed(3)}%" data-at="${m.at_ms}" data-kind="${m.kind}" data-testid="${m.kind === 'divergence' ? 'tl-divergence' : 'tl-compare-mark'}" title="${said(m, compareTitle(m, tr))}"></span>`;
    render(this.el.querySelector('.tl-marks'), html`${this.markers.map((m) => mark(m, report ? ' lane-a' : '', report ? 'A' : ''))}${
      report ? html`${(this.markersB ?? []).map((m) => mark(m, ' lane-b', 'B'))}${report.marks.filter(inSpan).map(compareMark)}` : null}`);
    const info = this.total > this.markers.length
      ? tr.t('timeline.marked.some', { shown: this.markers.length, total: this.total })
      : tr.t('timeline.marked', { count: this.total });
    this.wrap.querySelector('.tl-info').textContent = info;
    this.wrap.querySelector('.tl-from').textContent = `${tr.num(from)} ms`;
    this.wrap.querySelector('.tl-to').textContent = `${tr.num(to)} ms`;
  }

  /** The purgatory's size (all brokers) under the markers: each bin's highest value. */
  drawSeries(series) {
    const path = this.el.querySelector('.tl-series path');
    const svg = this.el.querySelector('.tl-series');
    if (!series || !series.bins.length) { path.setAttribute('d', ''); return; }
    const bins = series.bins[series.names.indexOf('num_delayed_operations')] ?? [];
    const max = Math.max(1, ...bins.map((b) => b[1]));
    const { from, to } = this.span;
    const w = 1000;
    const x0 = ((series.from_ms - from) / Math.max(1, to - from)) * w;
    const x1 = ((series.to_ms - from) / Math.max(1, to - from)) * w;
    const dx = (x1 - x0) / Math.max(1, bins.length);
    let d = `M${x0.toFixed(1)},100`;
    bins.forEach((b, i) => { const y = 100 - (b[1] / max) * 90; d += `L${(x0 + i * dx).toFixed(1)},${y.toFixed(1)}L${(x0 + (i + 1) * dx).toFixed(1)},${y.toFixed(1)}`; });
    d += `L${x1.toFixed(1)},100Z`;
    svg.setAttribute('viewBox', `0 0 ${w} 100`);
    path.setAttribute('d', d);
    svg.setAttribute('data-max', String(max));
  }

  /** The nearest marker before (-1) or after (+1) `now`, or null. */
  markerNear(now, dir) {
    // The drawn markers first; past them (zoomed in, or more markers than are drawn) the model's.
    if (dir > 0) return this.markers.find((m) => m.at_ms > now)?.at_ms ?? this.app.sim.nextMarkerMs ?? null;
    return this.markers.findLast((m) => m.at_ms < now)?.at_ms ?? this.app.sim.previousMarkerMs ?? (now > 0 ? 0 : null);
  }
}

