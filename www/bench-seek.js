// Seek bench (issue 10): a 10-minute session with 10,000 acks=all requests, computed ahead, then
// seeks to random instants, each followed by the snapshot a frame draws. ?mode=week instead: a
// live session advanced by a week (issue 13). Runs the shipped .wasm (dist/) through the
// element's shared module. ?requests=10000&minutes=10&seeks=60&seed=7
// Prints one JSON line into [data-testid=bench-result] and sets data-done.
const params = new URLSearchParams(location.search);
const requests = Number(params.get('requests') ?? 10000);
const minutes = Number(params.get('minutes') ?? 10);
const seeks = Number(params.get('seeks') ?? 60);
let seed = Number(params.get('seed') ?? 7) >>> 0;
const out = document.querySelector('[data-testid="bench-result"]');

/** A small deterministic generator (xorshift32), so every run seeks to the same instants. */
function random() {
  seed ^= seed << 13; seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5; seed >>>= 0;
  return seed / 2 ** 32;
}

/**
 * The session: 3 brokers, 4 partitions; requests spread evenly over the run, round-robin over the
 * partitions; broker 2's fetcher paused for a minute twice (requests wait and the ISR shrinks and
 * expands), broker 1 crashed and restarted once: a run with every kind of event.
 */
function scenario() {
  const runMs = minutes * 60000;
  const actions = [];
  const every = runMs / (requests + 1);
  for (let i = 0; i < requests; i++) {
    actions.push({ at_ms: Math.round((i + 1) * every), action: 'produce', id: `p${i + 1}`, acks: -1,
      records: [{ topic: 't', partition: i % 4, count: 1 + (i % 5) }] });
  }
  for (const [at, action, broker] of [[60000, 'pause_follower', 2], [120000, 'resume_follower', 2], [240000, 'crash_broker', 1],
    [270000, 'restart_broker', 1], [360000, 'pause_follower', 2], [420000, 'resume_follower', 2]]) {
    if (at < runMs) actions.push({ at_ms: at, action, broker });
  }
  actions.sort((a, b) => a.at_ms - b.at_ms);
  return { name: 'seek-bench', seed: 7, config: { brokers: 3, min_insync_replicas: 2, network_delay_ms: 1 },
    topics: [{ name: 't', partitions: 4, replication_factor: 3 }], actions, run_until_ms: runMs };
}

const el = document.getElementById('pg');
await new Promise((resolve) => (el.hasAttribute('ready') ? resolve() : el.addEventListener('ready', resolve, { once: true })));
const { Playground, memory } = el.app.model;
const mem0 = memory.buffer.byteLength;
const mb = (bytes) => Number((bytes / 2 ** 20).toFixed(1));

function seekBench() {
  const doc = scenario();
  const t0 = performance.now();
  const sim = Playground.fromScenario(JSON.stringify(doc));
  while (!sim.extend(200000)) { /* computed ahead to run_until_ms */ }
  const computeMs = performance.now() - t0;
  const frontier = sim.extent().frontier_ms;
  const times = [];
  for (let i = 0; i < seeks; i++) {
    const at = Math.floor(random() * frontier);
    const s0 = performance.now();
    sim.seek(at);
    sim.snapshot();
    times.push(performance.now() - s0);
  }
  times.sort((a, b) => a - b);
  const memAfter = memory.buffer.byteLength;
  const checkpoints = sim.checkpointCount;
  return {
    requests, minutes, seeks, frontier_ms: frontier,
    compute_ms: Math.round(computeMs),
    seek_median_ms: Number(times[Math.floor(times.length / 2)].toFixed(1)),
    seek_worst_ms: Number(times[times.length - 1].toFixed(1)),
    checkpoints,
    wasm_memory_mb: mb(memAfter),
    wasm_memory_growth_mb: mb(memAfter - mem0),
  };
}

// A live session advanced by a week (issue 13): the calls yield after a bounded amount of work,
// and the events nobody took are capped (the oldest dropped, counted), so memory stays bounded.
// Wasm memory only grows, so the bench runs in a page of its own (?mode=week): what it reports
// is the peak.
function weekBench() {
  const live = new Playground({ seed: 3, config: { brokers: 3, min_insync_replicas: 2 } });
  const w0 = performance.now();
  let calls = 0;
  for (let done = null; !done || done.yielded; calls++) done = live.advance(604800000);
  const batch = live.takeEvents();
  return {
    mode: 'week', ms: Math.round(performance.now() - w0), advance_calls: calls, now_ms: live.nowMs,
    events_taken: batch.events.length, events_dropped: batch.dropped,
    wasm_memory_peak_mb: mb(memory.buffer.byteLength), wasm_memory_growth_mb: mb(memory.buffer.byteLength - mem0),
  };
}

const result = params.get('mode') === 'week' ? weekBench() : seekBench();
out.textContent = JSON.stringify(result);
out.dataset.done = 'true';
