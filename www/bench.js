// Bench page, two modes, each run headlessly by e2e/bench.mjs (which also times the native side):
//
//   bench.html?mode=frames&n=10000&partitions=100&seconds=5
//     The <purgatory-playground> element (dist/, the bundle authors embed) with every view and the
//     full controls: 3 brokers, one topic of `partitions` partitions, followers 1 and 2 paused, `n`
//     acks=all requests waiting in the purgatory, playing at 1x. Reports per frame the wall ms of
//     the clock's frame callback (simulation + rendering, what the page's own code costs), its
//     parts (advance, snapshot, views), the frame rate, and one timed draw of each view. With
//     &fresh=1 every frame takes a new snapshot, as if the model changed every frame.
//
//   bench.html?mode=workload&requests=6000000&rounds=3
//   bench.html?mode=workload&requests=6000000&driven   (window.workloadReplay(): one timed replay)
//   bench.html?mode=boundary&waiting=1000&reps=200   (bench build: text vs serde-wasm-bindgen objects)
//     Kafka's purgatory workload (src/purgatory/workload.rs) in the shipping build flags with the `workload`
//     feature (www/bench-pkg, `scripts/build-wasm.sh --bench`): wall ms of each replay. With
//     &pkg=z, the build that is not shipped (www/bench-pkg-z, `--bench-z`: opt-level "z").
//
// The result is JSON in [data-testid="bench-result"], which gets `data-done` when it is there.
const params = new URLSearchParams(location.search);
const out = document.querySelector('[data-testid="bench-result"]');
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)] ?? NaN; };
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? NaN; };
const round = (x) => Math.round(x * 100) / 100;

function finish(result) {
  out.textContent = JSON.stringify(result);
  out.dataset.done = 'true';
}

async function workload() {
  const requests = Number(params.get('requests') ?? 6000000);
  const rounds = Number(params.get('rounds') ?? 3);
  // Two known builds only: the URL never names a module path.
  const glue = params.get('pkg') === 'z'
    ? await import('./bench-pkg-z/purgatory_playground.js')
    : await import('./bench-pkg/purgatory_playground.js');
  const { default: init, PurgatoryWorkload } = glue;
  const { memory } = await init();
  const w = new PurgatoryWorkload(requests);
  const replay = () => {
    const t0 = performance.now();
    const [outcome, phases] = w.run().split(' phases ');
    const ms = round(performance.now() - t0);
    // The module's linear memory, which only grows: its peak so far.
    return { ms, outcome, phases: phases.split(' ').map(Number), memory_kb: memory.buffer.byteLength / 1024 };
  };
  if (params.has('driven')) {
    // e2e/bench.mjs calls it once a round, between native replays (the workload stays alive).
    window.workloadReplay = replay;
    return { mode: 'workload', requests, driven: true };
  }
  const ms = [];
  let outcome = null;
  for (let i = 0; i < rounds; i++) {
    const r = replay();
    ms.push(r.ms);
    outcome = r.outcome;
  }
  w.free();
  return { mode: 'workload', requests, wasm_ms: ms, outcome };
}

/**
 * The two ways an answer crosses the boundary, on the real snapshot and event batches (issue 9):
 * serde_json text parsed by the engine (`snapshot`, `takeEvents`, what the page uses) against
 * objects built by serde-wasm-bindgen (`snapshotAsObject`, `takeEventsAsObject`, bench build
 * only). Two identical sessions with `waiting` acks=all requests waiting (broker 2's fetcher
 * paused, so they wait until the ISR shrinks), then a request and 50 ms more at each step; each
 * step's events are taken one way from each.
 */
async function boundary() {
  const waiting = Number(params.get('waiting') ?? 1000);
  const reps = Number(params.get('reps') ?? 200);
  const { default: init, Playground } = await import('./bench-pkg/purgatory_playground.js');
  await init();
  const make = () => {
    const sim = new Playground({ seed: 5, config: { brokers: 3, min_insync_replicas: 2, request_timeout_ms: 600000 }, topics: [{ name: 't', partitions: 4, replication_factor: 3 }] });
    sim.command({ action: 'pause_follower', broker: 2 });
    for (let i = 0; i < waiting; i++) sim.command({ action: 'produce', acks: -1, records: [{ topic: 't', partition: i % 4, count: 1 }] });
    sim.takeEvents();
    return sim;
  };
  const [a, b] = [make(), make()];
  const time = (f) => { const t0 = performance.now(); f(); return performance.now() - t0; };
  const snapText = [], snapObject = [], evText = [], evObject = [];
  let events = 0;
  for (let i = 0; i < reps; i++) {
    snapText.push(time(() => a.snapshot()));
    snapObject.push(time(() => a.snapshotAsObject()));
    // A request each step keeps broker 0's fetch sessions, HW and completions busy.
    for (const sim of [a, b]) {
      sim.command({ action: 'produce', acks: -1, records: [{ topic: 't', partition: i % 4, count: 5 }] });
      sim.advance(50);
    }
    evText.push(time(() => { events += a.takeEvents().events.length; }));
    evObject.push(time(() => b.takeEventsAsObject()));
  }
  a.free();
  b.free();
  const ms = (xs) => round(median(xs));
  return {
    mode: 'boundary', waiting, reps, events_per_batch: round(events / reps),
    snapshot_text_ms: ms(snapText), snapshot_object_ms: ms(snapObject),
    events_text_ms: ms(evText), events_object_ms: ms(evObject),
  };
}

/** Wraps `obj[name]` so each call's wall ms is added to `into[key]`. */
function timeCalls(obj, name, into, key = name) {
  const orig = obj[name].bind(obj);
  into[key] = 0;
  obj[name] = (...args) => {
    const t0 = performance.now();
    try { return orig(...args); } finally { into[key] += performance.now() - t0; }
  };
}

async function frames() {
  const n = Number(params.get('n') ?? 10000);
  const partitions = Number(params.get('partitions') ?? 100);
  const seconds = Number(params.get('seconds') ?? 5);
  await import('../dist/purgatory-playground.js');
  const el = document.createElement('purgatory-playground');
  el.setAttribute('views', 'all');
  el.setAttribute('controls', 'full');
  el.setAttribute('speed', '1');
  const ready = new Promise((resolve) => el.addEventListener('ready', resolve, { once: true }));
  document.getElementById('app').append(el);
  await ready;
  const app = el.app;
  const setup = {
    seed: 0,
    config: { brokers: 3, min_insync_replicas: 2, replica_fetch_wait_max_ms: 500, network_delay_ms: 20, request_timeout_ms: 600000 },
    topics: [{ name: 't', partitions, replication_factor: 3 }],
  };
  const error = await app.open({ live: setup }, { play: false });
  if (error) throw new Error(error);
  el.command({ action: 'pause_follower', broker: 1 });
  el.command({ action: 'pause_follower', broker: 2 });
  app.sim.advance(600); // the parked fetches come back; nothing else will move the HW
  // The requests go straight to the handle: the element's command() also saves the session for
  // recovery after each one, which is the page's cost of a click, not of a frame.
  const tSend = performance.now();
  for (let i = 0; i < n; i++) {
    app.sim.command({ action: 'produce', acks: -1, records: [{ topic: 't', partition: i % partitions, count: 1 }] });
  }
  const sendMs = performance.now() - tSend;
  app.ingest();
  app.refresh();
  const waiting = app.sim.snapshot().requests_waiting;
  // `compare=CHANGE`: a what-if's second run beside the first, moved by its clock every frame.
  const change = params.get('compare');
  let compareMs = null;
  if (change) {
    const t = performance.now();
    const problem = await app.comparison.start(change);
    if (problem) throw new Error(`compare=${change}: ${problem}`);
    compareMs = performance.now() - t;
  }

  // Per frame: the clock's callback (advance + draw), and inside it the model calls and views.
  const parts = {};
  const perFrame = [];
  timeCalls(app.sim, 'advance', parts, 'advance');
  timeCalls(app.sim, 'snapshot', parts, 'snapshot');
  timeCalls(app.sim, 'takeEvents', parts, 'takeEvents');
  timeCalls(app, 'drawCluster', parts, 'drawCluster');
  timeCalls(app, 'drawPanels', parts, 'drawPanels');
  if (app.timeline) timeCalls(app.timeline, 'update', parts, 'timeline');
  if (change) timeCalls(app.comparison, 'follow', parts, 'run B (advance + draw)');
  const totals = {};
  const clock = app.clock;
  const tick = clock.tick;
  const intervals = [];
  let last = null;
  const fresh = params.get('fresh') === '1';
  clock.tick = (ts) => {
    for (const k of Object.keys(parts)) parts[k] = 0;
    if (fresh) app.snapOf = null; // as if the model changed every frame: no snapshot is reused
    const t0 = performance.now();
    tick(ts);
    const ms = performance.now() - t0;
    perFrame.push(ms);
    for (const [k, v] of Object.entries(parts)) totals[k] = (totals[k] ?? 0) + v;
    if (last !== null) intervals.push(ts - last);
    last = ts;
  };
  clock.stop();
  app.playback.setPlaying(true);
  clock.start();
  const simStart = app.sim.nowMs;
  const t0 = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const elapsed = (performance.now() - t0) / 1000;
  app.playback.setPlaying(false);
  clock.tick = tick;
  const frameCount = perFrame.length;
  // Seeks in a comparison: both runs to one instant and both drawn, back and forth over the
  // stretch just played.
  const seekMs = [];
  if (change) {
    const end = app.sim.nowMs;
    for (let i = 0; i < 16; i++) {
      const target = Math.round(simStart + ((i * 7) % 16) * (end - simStart) / 16);
      const t = performance.now();
      app.playback.seek(target);
      seekMs.push(performance.now() - t);
      if (app.comparison.twin.sim.nowMs !== app.sim.nowMs) throw new Error('the runs parted on a seek');
    }
  }

  // One timed draw of each view on the last snapshot (the same modules the bundle holds).
  const views = await viewCosts(app);
  return {
    mode: 'frames',
    waiting,
    partitions,
    send_ms: round(sendMs),
    frames: frameCount,
    seconds: round(elapsed),
    fps: round(frameCount / elapsed),
    frame_interval_ms_median: round(median(intervals)),
    sim_render_ms_median: round(median(perFrame)),
    sim_render_ms_p95: round(pct(perFrame, 0.95)),
    sim_render_ms_max: round(Math.max(...perFrame)),
    mean_ms_per_frame: Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, round(v / frameCount)])),
    view_ms_once: views,
    sim_ms_played: app.sim.nowMs - simStart,
    ...(change ? {
      compare: change,
      waiting_b: app.comparison.twin.sim.snapshot().requests_waiting,
      compare_start_ms: round(compareMs),
      seek_ms_median: round(median(seekMs)),
      seek_ms_max: round(Math.max(...seekMs)),
    } : {}),
  };
}

/** Draws each view once on the current snapshot with its own render function, timed. */
async function viewCosts(app) {
  const [cluster, purgatory, wheel, codepath, responses, log, metrics] = await Promise.all([
    import('./views/cluster.js'), import('./views/purgatory.js'), import('./views/wheel.js'),
    import('./views/codepath.js'), import('./views/responses.js'), import('./views/eventlog.js'),
    import('./views/metrics.js'),
  ]);
  const snap = app.sim.snapshot();
  const sel = app.selected;
  const panel = (name) => app.$(`.panel.${name}`);
  const draws = {
    cluster: () => cluster.renderCluster(panel('cluster'), snap, snap.now_ms, app.minIsr, app.tr),
    purgatory: () => purgatory.renderPurgatory(panel('purgatory'), snap, sel, app.tr),
    wheel: () => wheel.renderWheel(panel('wheel'), snap, app.history.selectedOps(sel), app.wheelChanges.list, sel, app.tr),
    codepath: () => codepath.renderCodePath(panel('codepath'), app.history.trackOf(sel), app.history, snap.now_ms, app.tr),
    responses: () => responses.renderResponses(panel('responses'), snap, sel, app.tr),
    log: () => log.renderEventLog(panel('log'), app.history, app.controls.logFilter(), app.tr),
    metrics: () => metrics.renderMetrics(panel('metrics'), app.sim, snap, app.tr),
  };
  const t0 = performance.now();
  app.sim.snapshot();
  const result = { snapshot: round(performance.now() - t0) };
  for (const [name, draw] of Object.entries(draws)) {
    if (!panel(name)) continue;
    for (const e of panel(name).querySelectorAll('*')) delete e._html; // patch() skips unchanged HTML
    const t = performance.now();
    draw();
    result[name] = round(performance.now() - t);
  }
  return result;
}

try {
  const modes = { workload, boundary, frames };
  finish(await (modes[params.get('mode')] ?? frames)());
} catch (e) {
  console.error(e);
  finish({ error: String(e && e.stack ? e.stack : e) });
}
