// What if? The open session beside a second run of it that differs in one thing (acks, a config
// setting, a request timeout, an action moved or left out). The model runs both to their end and
// names the first instant where their traces part and what each producer got in each
// (`whatIf`); the page opens the second run as a handle of its own, in a second playground
// mounted beside the first with only views, and moves it on the first one's clock: play, seek,
// step, step back, speed, breakpoints and the story's pauses act on both.
import { isTrap } from './wasm-module.js';
import { sayEvent } from './narrate.js';
import { fmt } from './views/dom.js';
import { html, render } from './html.js';

/** The second run's views: what differs between two runs, without a second timeline or log. */
const TWIN_VIEWS = ['narration', 'cluster', 'purgatory', 'wheel', 'responses'];
/** At most this many `advance` calls bring the second run to the first one's instant. */
const MAX_FOLLOW_CALLS = 64;

/** The settings the form offers, with the change text each value makes. */
export const CHANGES = {
  acks: { label: 'acks of every request', text: (v) => `acks=${v}` },
  'min.insync.replicas': { label: 'min.insync.replicas', text: (v) => `min.insync.replicas=${v}` },
  'replica.lag.time.max.ms': { label: 'replica.lag.time.max.ms', text: (v) => `replica.lag.time.max.ms=${v}` },
  timeout_ms: { label: 'the timeout of every request', text: (v) => `timeout_ms=${v}` },
  at_ms: { label: 'the time of an action', text: (v, i) => `actions[${i}].at_ms=${v}`, action: true },
  removed: { label: 'leave an action out', text: (_, i) => `actions[${i}]=removed`, action: true, noValue: true },
};

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
    if (!app.sim || !this.twinRoot) return 'this playground has no room for a second run';
    let answer;
    try {
      answer = app.sim.whatIf(change);
    } catch (e) {
      if (isTrap(e)) { app.recover(e); return 'the model stopped while comparing'; }
      return String(e?.message ?? e);
    }
    const twin = this.twin ?? new app.constructor(app.host, this.twinRoot, {
      views: TWIN_VIEWS.filter((v) => app.has(v)),
      controls: 'none',
      layout: 'twin',
      twin: true,
      leader: app, // its clock, which moves this run too
      speed: app.opts.speed,
    });
    const error = await twin.open({ text: answer.scenario, label: 'the what-if run' }, { play: false, selected: app.selected });
    if (error) {
      if (!this.twin) twin.destroy();
      app.guard(() => app.sim.endCompare());
      return `the second run could not be opened: ${error}`;
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
    if (redraw && app.sim) app.refresh();
  }

  /** A session was opened: compare as its file or link says (`compare`), or stop comparing. */
  async onOpen(asked = null) {
    const change = asked ?? this.app.guard(() => this.app.sim.compare) ?? null;
    if (!change) {
      if (this.twin) this.end();
      return null;
    }
    const error = await this.start(change);
    if (error) {
      this.end();
      this.app.notice('warn', `The comparison with ${change} could not be made: ${error}`);
    }
    return error;
  }

  /** The first run changed (an action, a fork, an undo): both runs are compared again. */
  async rerun() {
    if (!this.active) return;
    const change = this.change;
    const error = await this.start(change);
    if (error) {
      this.end();
      this.app.notice('warn', `The comparison with ${change} ended: ${error}`);
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
          app.playback.breakpointHit({ ...done.hit, text: `in run B, ${done.hit.text}` });
          return;
        }
      }
    }
    twin.ingest({ emit: false });
    twin.dirty = true;
    twin.frame();
  }

  /** Each frame of the first run: the second computes its run ahead too (its markers). */
  onFrame() {
    const twin = this.twin;
    if (!twin?.sim || twin.complete) return;
    twin.extendAhead();
    if (twin.complete) this.app.timeline?.invalidate({ now: true }); // its markers, all of them
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
    const b = r.b.change ?? r.b.name;
    const label = (side) => (side === 'a' ? 'A · as written' : `B · ${b}`);
    this.app.$('.run-a .run-label').textContent = label('a');
    const twinLabel = this.twin?.root.querySelector('.run-label');
    if (twinLabel) twinLabel.textContent = label('b');
    this.box.hidden = false;
    render(this.box, html`<header class="ph"><h2 id="h-compare">What if: ${b}</h2>
        <span class="compare-sum">${r.differing === 0 ? 'every request got the same answer' : `${r.differing} of ${r.outcomes.length} request${r.outcomes.length === 1 ? '' : 's'} answered differently`}</span>
        <button type="button" data-testid="compare-end">Stop comparing</button></header>
      ${this.until != null ? html`<p class="hint compare-until">A live session: both runs compared up to ${fmt(this.until)} ms. Each action compares them again. <button type="button" data-testid="compare-again">Compare up to now</button></p>` : null}
      ${divergence(r, b)}
      <table class="outcomes" data-testid="outcomes">
        <thead><tr><th scope="col">request</th><th scope="col">${label('a')}</th><th scope="col">${label('b')}</th><th scope="col"><span class="sr-only">same or different</span></th></tr></thead>
        <tbody>${r.outcomes.map(outcomeRow)}</tbody>
      </table>`);
    this.app.story?.reapply(); // a caption may point into the comparison
  }
}

function divergence(r, b) {
  const d = r.divergence;
  if (!d) return html`<p class="divergence" data-testid="divergence">The two runs are the same, event for event: this change makes no difference here.</p>`;
  const say = (e) => (e ? sayEvent(e) : 'nothing more happens (its run has ended)');
  return html`<p class="divergence" data-testid="divergence" data-story="divergence">At <b>${fmt(d.at_ms)} ms</b> the runs part. <span class="side-a">In A (as written), ${say(d.a)}</span>; <span class="side-b">in B (${b}), ${say(d.b)}</span>.
    <button type="button" data-testid="divergence-seek">Go to ${fmt(d.at_ms)} ms</button></p>`;
}

function answerText(a) {
  if (!a) return 'not in this run';
  const at = a.answered_ms != null ? ` at ${fmt(a.answered_ms)} ms` : '';
  const offsets = a.base_offsets.join(' + ');
  return `${a.outcome}${at} · offset ${offsets}`;
}

function cell(a) {
  if (a?.lost_ms != null) {
    return html`<td class="lost">${answerText(a)} · <b class="lost-word">LOST</b> at ${fmt(a.lost_ms)} ms</td>`;
  }
  return html`<td>${answerText(a)}</td>`;
}

function outcomeRow(row) {
  const lost = row.a?.lost_ms != null || row.b?.lost_ms != null;
  return html`<tr class="${row.differs ? 'differs' : 'same'}" data-testid="${lost ? 'lost' : 'outcome'}" data-request="${row.id}" data-story="outcome-${row.id}">
    <th scope="row"><button type="button" class="linkish" data-request="${row.id}" title="Follow ${row.id} in both runs">${row.id}</button></th>
    ${cell(row.a)}${cell(row.b)}<td class="verdict">${row.differs ? '≠ differs' : 'same'}</td></tr>`;
}
