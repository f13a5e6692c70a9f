// One playground instance: its own simulation handle, clock, event history and views, mounted in
// one root element. Nothing here is global, so a page can hold several (embedding, side-by-side
// runs) over the one shared wasm module. JS holds no simulation state: it sends commands and
// renders the snapshot and the trace events the handle returns.
import { SimClock, speedFromSlider, sliderFromSpeed, describeSpeed } from './clock.js';
import { narrate, category, requestOf } from './narrate.js';
import { SCENARIOS, fetchScenario } from './scenarios.js';
import { renderCluster } from './views/cluster.js';
import { renderPurgatory } from './views/purgatory.js';
import { renderWheel } from './views/wheel.js';
import { renderCodePath } from './views/codepath.js';
import { renderEventLog } from './views/eventlog.js';
import { renderResponses } from './views/responses.js';
import { MetricsSeries, renderMetrics } from './views/metrics.js';
import { TEMPLATE, readSetup, fillSetup, PAGE_DEFAULTS } from './layout.js';
import { fmt } from './views/dom.js';

const MAX_EVENTS_KEPT = 20000;
const MAX_LOG_LINES = 3000;
const SLOW_PANEL_MS = 100;
const isProduce = (e) => String(e.purgatory).toLowerCase() === 'produce';

export class PlaygroundApp {
  /**
   * @param {HTMLElement} root
   * @param {typeof import('./pkg/purgatory_playground.js').Playground} Playground
   */
  constructor(root, Playground) {
    this.root = root;
    this.Playground = Playground;
    root.innerHTML = TEMPLATE;
    this.$ = (sel) => root.querySelector(sel);
    this.clock = new SimClock((ms) => this.advance(ms), () => this.frame());
    this.scenarioName = null;
    this.setup = PAGE_DEFAULTS;
    // With reduced motion, messages jump between whole milliseconds instead of gliding.
    this.reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');
    this.wire();
  }

  /** Starts a fresh run from a setup object or a scenario text; returns an error message or null. */
  load({ setup, scenarioText, scenarioName }) {
    let sim;
    try {
      sim = scenarioText != null ? this.Playground.fromScenario(scenarioText) : new this.Playground(setup);
    } catch (err) {
      return String(err && err.message ? err.message : err);
    }
    if (this.sim) this.sim.free();
    this.sim = sim;
    this.scenarioName = scenarioName ?? null;
    this.setup = setup ?? null;
    this.byId = new Map();
    this.lines = [];
    this.tracks = new Map();
    this.waitingByKey = new Map();
    this.latencies = new Map();
    this.series = new MetricsSeries();
    this.wheelChanges = [];
    this.prevSlots = new Map();
    this.selected = null;
    this.clock.setPlaying(false);
    this.clock.carry = 0;
    this.ingest();
    this.refresh();
    this.populateTopics();
    this.updatePlayButton();
    fillSetup(this.root, this.sim.setup());
    const sc = SCENARIOS.find(([n]) => n === scenarioName);
    this.$('.scenario-about').textContent = sc ? sc[1] : scenarioName ? scenarioName : 'A live session: fire requests and break things with the controls.';
    this.$('.run-name').textContent = scenarioName ? `scenario ${scenarioName} (runs to ${fmt(this.sim.runUntilMs)} ms)` : 'live session';
    return null;
  }

  wire() {
    const root = this.root;
    root.addEventListener('click', (ev) => {
      const t = ev.target.closest('button');
      if (!t || !root.contains(t)) return;
      if (t.dataset.cmd) this.command({ action: t.dataset.cmd, broker: Number(t.dataset.broker) });
      else if (t.dataset.select) this.select(t.dataset.select);
    });
    this.$('[data-testid="play"]').addEventListener('click', () => this.togglePlay());
    this.$('[data-testid="step"]').addEventListener('click', () => this.stepOnce());
    this.$('.reset').addEventListener('click', () => this.reset());
    const speed = this.$('[data-testid="speed"]');
    speed.value = sliderFromSpeed(this.clock.speed);
    const showSpeed = () => {
      this.clock.speed = speedFromSlider(Number(speed.value));
      this.$('.speed-out').textContent = describeSpeed(this.clock.speed);
      speed.setAttribute('aria-valuetext', describeSpeed(this.clock.speed));
    };
    speed.addEventListener('input', showSpeed);
    showSpeed();
    this.$('.produce-form').addEventListener('submit', (ev) => { ev.preventDefault(); this.produce(1); });
    this.$('.burst').addEventListener('click', () => this.produce(Number(this.$('[name=burst]').value)));
    this.$('.setup-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      const { setup, error } = readSetup(this.root);
      const msg = error ?? this.load({ setup });
      this.$('.setup-error').textContent = msg ?? '';
      if (!msg) this.setUrlScenario(null);
    });
    this.$('.setup-defaults').addEventListener('click', () => { fillSetup(this.root, PAGE_DEFAULTS); });
    const pick = this.$('.scenario-pick');
    pick.innerHTML = `<option value="">(live session)</option>${SCENARIOS.map(([n, d]) => `<option value="${n}">${n}</option>`).join('')}`;
    pick.addEventListener('change', () => {
      const d = SCENARIOS.find(([n]) => n === pick.value);
      this.$('.scenario-preview').textContent = d ? d[1] : '';
    });
    this.$('.scenario-load').addEventListener('click', () => {
      if (pick.value) this.loadScenario(pick.value, true);
      else { this.load({ setup: PAGE_DEFAULTS }); this.setUrlScenario(null); }
    });
    this.$('.export').addEventListener('click', () => {
      this.$('.export-out').value = this.sim.exportSession();
      this.$('.export-box').open = true;
    });
    this.$('.result').addEventListener('click', () => {
      this.$('.export-out').value = this.sim.result();
      this.$('.export-box').open = true;
    });
    const filters = this.root.querySelectorAll('.log-filter input[type=checkbox]');
    this.filter = { text: '', kinds: new Set([...filters].filter((c) => c.checked).map((c) => c.value)) };
    for (const c of filters) c.addEventListener('change', () => { this.filter.kinds = new Set([...filters].filter((x) => x.checked).map((x) => x.value)); this.dirty = true; });
    this.$('.log-text').addEventListener('input', (ev) => { this.filter.text = ev.target.value; this.dirty = true; });
    root.addEventListener('keydown', (ev) => {
      if (ev.target.closest('input, select, textarea')) return;
      if (ev.key === 'p') { ev.preventDefault(); this.togglePlay(); }
      else if (ev.key === 'n') { ev.preventDefault(); this.stepOnce(); }
    });
  }

  /** Loads scenarios/NAME.json (or the text promise already fetching it); false on any error. */
  async loadScenario(name, updateUrl, textPromise = null) {
    const err = this.$('.scenario-error');
    err.textContent = '';
    let text;
    try {
      text = await (textPromise ?? fetchScenario(name));
    } catch (e) {
      err.textContent = String(e.message ?? e);
      return false;
    }
    const msg = this.load({ scenarioText: text, scenarioName: name });
    if (msg) { err.textContent = `${name}: ${msg}`; return false; }
    this.$('.scenario-pick').value = name;
    if (updateUrl) this.setUrlScenario(name);
    return true;
  }

  setUrlScenario(name) {
    const url = new URL(location.href);
    if (name) url.searchParams.set('scenario', name); else url.searchParams.delete('scenario');
    history.replaceState(null, '', url);
  }

  reset() {
    if (this.scenarioName) this.loadScenario(this.scenarioName, false);
    else this.load({ setup: this.setup ?? PAGE_DEFAULTS });
  }

  togglePlay() {
    const atEnd = this.sim.nowMs >= this.sim.runUntilMs;
    if (atEnd && !this.clock.playing) return;
    this.clock.setPlaying(!this.clock.playing);
    this.updatePlayButton();
  }

  updatePlayButton() {
    const b = this.$('[data-testid="play"]');
    b.textContent = this.clock.playing ? 'Pause' : 'Play';
    b.setAttribute('aria-pressed', String(this.clock.playing));
  }

  advance(ms) {
    const room = this.sim.runUntilMs - this.sim.nowMs;
    const run = Math.max(0, Math.min(ms, room));
    try {
      this.sim.advance(run);
    } catch (e) {
      this.showError(e);
    }
    if (run < ms) { this.clock.setPlaying(false); this.updatePlayButton(); }
    this.ingest();
    this.dirty = true;
  }

  stepOnce() {
    const next = this.sim.nextEventMs;
    if (next == null || next > this.sim.runUntilMs) return;
    this.sim.step();
    this.ingest();
    this.refresh();
  }

  command(cmd) {
    try {
      const { id } = this.sim.command(cmd);
      this.$('.cmd-error').textContent = '';
      this.ingest();
      this.refresh();
      return id;
    } catch (e) {
      this.$('.cmd-error').textContent = String(e.message ?? e);
      return null;
    }
  }

  produce(times) {
    const form = this.$('.produce-form');
    const acksRaw = form.acks.value;
    const acks = acksRaw === 'all' ? -1 : Number(acksRaw);
    const count = Number(form.count.value);
    const timeout = form.timeout.value.trim();
    const topic = form.topic.value;
    const partsText = form.partitions.value.trim();
    const errEl = this.$('.cmd-error');
    const parts = partsText.split(/[\s,]+/).filter(Boolean).map(Number);
    if (!parts.length || parts.some((p) => !Number.isInteger(p) || p < 0)) { errEl.textContent = 'Partitions: list partition numbers such as "0" or "0, 1".'; return; }
    if (!Number.isInteger(count) || count < 1 || count > 1000000) { errEl.textContent = 'Records: a whole number from 1 to 1,000,000.'; return; }
    if (timeout && !/^\d+$/.test(timeout)) { errEl.textContent = 'Timeout: a whole number of milliseconds (or empty for request.timeout.ms).'; return; }
    if (!Number.isInteger(times) || times < 1 || times > 5000) { errEl.textContent = 'Burst: a whole number from 1 to 5,000.'; return; }
    let last = null;
    for (let i = 0; i < times; i++) {
      const cmd = { action: 'produce', acks, records: parts.map((p) => ({ topic, partition: p, count })) };
      if (timeout) cmd.timeout_ms = Number(timeout);
      try {
        last = this.sim.command(cmd).id;
      } catch (e) {
        errEl.textContent = String(e.message ?? e);
        break;
      }
    }
    if (last) {
      errEl.textContent = '';
      this.ingest();
      this.select(last);
    }
  }

  select(id) {
    this.selected = id;
    this.refresh();
  }

  populateTopics() {
    const sel = this.$('.produce-form select[name=topic]');
    const { topics } = this.sim.setup();
    sel.innerHTML = topics.map((t) => `<option>${t.name}</option>`).join('');
  }

  /** Takes the new trace events: narration, request tracks, latencies. */
  ingest() {
    const { events } = this.sim.takeEvents();
    for (const e of events) {
      this.byId.set(e.id, e);
      const req = requestOf(e);
      const text = narrate(e);
      this.lines.push({ at: e.at_ms, cat: category(e), text, request: req });
      this.track(e, req);
    }
    if (this.byId.size > MAX_EVENTS_KEPT) {
      const drop = this.byId.size - MAX_EVENTS_KEPT;
      const it = this.byId.keys();
      for (let i = 0; i < drop; i++) this.byId.delete(it.next().value);
    }
    if (this.lines.length > MAX_LOG_LINES) this.lines.splice(0, this.lines.length - MAX_LOG_LINES);
    const notable = events.filter((e) => ['produce_response_sent', 'operation_expired', 'isr_change_committed', 'broker_fenced', 'became_leader', 'connection_closed'].includes(e.event));
    if (notable.length) this.$('.live').textContent = `${fmt(notable[notable.length - 1].at_ms)} ms: ${narrate(notable[notable.length - 1])}`;
    if (events.length) this.dirty = true;
  }

  track(e, req) {
    const opKey = (o) => `${e.broker}:${o.slot}.${o.generation}`;
    if (e.event === 'produce_received') {
      this.tracks.set(e.request, { id: e.request, acks: e.acks, events: [], checks: [], keys: [] });
    }
    let id = req;
    if (!id && e.op && isProduce(e)) id = this.opToRequest?.get(opKey(e.op));
    if (e.event === 'delayed_produce_created') {
      (this.opToRequest ??= new Map()).set(opKey(e.op), e.request);
    }
    const t = id ? this.tracks.get(id) : null;
    if (t) t.events.push(e);
    if (e.event === 'operation_watched' && isProduce(e) && t) {
      t.keys = e.keys;
      for (const k of e.keys) {
        const key = `${e.broker}|${k}`;
        if (!this.waitingByKey.has(key)) this.waitingByKey.set(key, new Set());
        this.waitingByKey.get(key).add(t.id);
      }
    }
    if (e.event === 'check_and_complete' && isProduce(e)) {
      for (const rid of this.waitingByKey.get(`${e.broker}|${e.key}`) ?? []) this.tracks.get(rid)?.checks.push(e);
    }
    if ((e.event === 'operation_completed' || e.event === 'operation_expired') && isProduce(e) && t) {
      for (const k of t.keys) this.waitingByKey.get(`${e.broker}|${k}`)?.delete(t.id);
      this.opToRequest?.delete(opKey(e.op));
    }
    if (e.event === 'produce_response_sent' && t) {
      const k = String(t.acks);
      if (!this.latencies.has(k)) this.latencies.set(k, []);
      const xs = this.latencies.get(k);
      xs.push(e.latency_ms);
      if (xs.length > 5000) xs.shift();
    }
  }

  /** Notes timer entries that moved level (cascade) or left the wheel (cancel / fire). */
  noteWheel(snap) {
    const slots = new Map();
    for (const b of snap.brokers) {
      for (const o of b.produce_purgatory.operations) slots.set(`${b.id}:${o.op}`, { req: o.request, slot: o.timer_slot, completed: o.completed });
    }
    for (const [k, prev] of this.prevSlots) {
      const cur = slots.get(k);
      if (!prev.slot) continue;
      if (cur && cur.slot && cur.slot[0] !== prev.slot[0]) this.wheelChanges.push(`${snap.now_ms} ms: ${prev.req} cascaded L${prev.slot[0] + 1} → L${cur.slot[0] + 1} (bucket ${cur.slot[1]})`);
      else if (!cur || !cur.slot) {
        const fired = !cur || !cur.completed ? null : 'cancelled (completed before its timeout)';
        const t = this.tracks.get(prev.req);
        const expired = t?.events.some((e) => e.event === 'operation_expired');
        this.wheelChanges.push(`${snap.now_ms} ms: ${prev.req}'s timer entry ${expired ? 'fired: the op expired' : fired ?? 'cancelled (completed before its timeout)'}`);
      }
    }
    if (this.wheelChanges.length > 50) this.wheelChanges.splice(0, this.wheelChanges.length - 50);
    this.prevSlots = slots;
  }

  refresh() { this.dirty = true; this.forceAll = true; this.frame(); }

  frame() {
    // While playing, the heavier panels redraw at most every SLOW_PANEL_MS of wall time; the
    // cluster and the clock redraw every frame. A command, a step or a selection redraws all.
    const wall = performance.now();
    const slowDue = !this.clock.playing || this.forceAll || wall - (this.lastSlow ?? 0) >= SLOW_PANEL_MS;
    if (!this.dirty || !this.sim) {
      // Messages still glide between whole milliseconds at slow speeds.
      if (this.sim && this.clock.playing && this.snap?.in_flight.length && !this.reducedMotion.matches) renderCluster(this.$('.cluster'), this.snap, this.snap.now_ms + this.clock.fraction);
      return;
    }
    this.dirty = false;
    const snap = this.sim.snapshot();
    this.snap = snap;
    this.series.sample(snap);
    this.noteWheel(snap);
    this.$('.now').textContent = `${fmt(snap.now_ms)} ms`;
    this.$('.next').textContent = snap.next_event_ms != null ? `next event at ${fmt(snap.next_event_ms)} ms` : 'nothing scheduled';
    renderCluster(this.$('.cluster'), snap, snap.now_ms + (this.reducedMotion.matches ? 0 : this.clock.fraction));
    if (!slowDue) { this.dirty = true; return; }
    this.lastSlow = wall;
    this.forceAll = false;
    renderPurgatory(this.$('.purgatory'), snap, this.selected);
    const t = this.selected ? this.tracks.get(this.selected) : null;
    const selectedOps = new Set();
    if (t) for (const e of t.events) if (e.event === 'delayed_produce_created') selectedOps.add(`${e.op.slot}.${e.op.generation}`);
    renderWheel(this.$('.wheel'), snap, selectedOps, this.wheelChanges);
    renderCodePath(this.$('.codepath'), t, this.byId, snap.now_ms);
    renderResponses(this.$('.responses'), snap, this.selected);
    renderEventLog(this.$('.eventlog'), this.lines, this.filter);
    renderMetrics(this.$('.metrics'), this.series, this.latencies);
  }

  showError(e) {
    this.$('.cmd-error').textContent = String(e.message ?? e);
  }

  start() { this.clock.start(); }
}
