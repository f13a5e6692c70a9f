// The page's benchmarks, in one run (README: "Benchmarks"):
//
// 1. Time to interactive of index.html from loopback: navigation start -> the element's `ready`
//    (its `playground-ready` performance mark), cold browser contexts, served by Python's
//    http.server and by scripts/static-server.mjs.
// 2. Frames: www/bench.html?mode=frames, the <purgatory-playground> element with 10,000 acks=all
//    requests waiting over 100 partitions (3 brokers, followers 1 and 2 paused), playing at 1x:
//    sim + render ms per frame (median, p95), fps, and where the time goes.
// 3. Kafka's purgatory workload (src/purgatory/workload.rs), native (examples/purgatory_workload.rs, cargo's
//    release profile) and wasm (www/bench.html?mode=workload, the shipping build flags with the
//    `workload` feature: `scripts/build-wasm.sh --bench`) on the same schedule, their replays
//    interleaved round by round: wasm / native.
//
// node e2e/bench.mjs [RUNS]      RUNS cold contexts for TTI (default 9)
//   BENCH_ONLY=tti,frames,compare,workload,boundary,clock,phases   run some parts only (compare: the
//   frame bench with a what-if beside the run, both runs 10,000 requests waiting; goals: a frame
//   median <= 8 ms, a seek in the comparison median <= 50 ms)
//   (phases: the Phases view sweeping x12, s10 and s13 on the page: its wall time, the script
//   time of each animation frame while it runs (goal <= 8 ms a frame), the time between frames and
//   how long a timer queued meanwhile waits; BENCH_PHASES_PLAYING=1 plays the run meanwhile,
//   BENCH_PHASES=NAME,... sweeps those curated scenarios instead)
//   BENCH_N=10000 BENCH_PARTITIONS=100 BENCH_SECONDS=5   the frame bench's load
//   BENCH_FRESH=1   the frame bench takes a fresh snapshot every frame (as if the model changed)
//   BENCH_REQUESTS=6000000 BENCH_ROUNDS=7                  the workload's size and rounds
// Needs `npm run build` (dist/) and, for the workload, `scripts/build-wasm.sh --bench`.
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { startServer, launchBrowser, openPage, SERVE_ROOT } from './lib.mjs';
import { startNodeServer } from '../scripts/static-server.mjs';
import { nativeWorkload, wasmWorkload } from './workload-sides.mjs';

const RUNS = Number(process.argv[2] || 9);
const ONLY = (process.env.BENCH_ONLY || 'tti,frames,compare,workload,boundary,clock,phases').split(',');
const env = (k, d) => Number(process.env[k] ?? d);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

async function tti(browser, url) {
  const rows = [];
  for (let i = 0; i < RUNS; i++) {
    const { page, context } = await openPage(browser);
    // The first frame painted after ready, marked in the page (two animation frames after the
    // element's mark), so the test driver's own latency is not in it.
    await page.addInitScript(() => {
      new PerformanceObserver((list) => {
        if (!list.getEntriesByName('playground-ready').length) return;
        requestAnimationFrame(() => requestAnimationFrame(() => performance.mark('playground-painted')));
      }).observe({ type: 'mark' });
    });
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForSelector('purgatory-playground[ready]', { state: 'attached', timeout: 30000 });
    rows.push(await page.evaluate(async () => {
      const mark = (n) => performance.getEntriesByName(n)[0]?.startTime ?? NaN;
      const ready = mark('playground-ready');
      while (!performance.getEntriesByName('playground-painted').length) {
        await new Promise((r) => requestAnimationFrame(r));
      }
      const wasm = performance.getEntriesByType('resource').find((r) => r.name.endsWith('.wasm'));
      return { wasmFetched: wasm ? wasm.responseEnd : NaN, ready, painted: mark('playground-painted') };
    }));
    await context.close();
  }
  const all = rows.map((r) => Math.round(r.ready)).sort((a, b) => a - b).join(', ');
  const med = (k) => median(rows.map((r) => r[k])).toFixed(0);
  console.log(`  ready (ms, ${RUNS} cold contexts): ${all}; median ${med('ready')} (goal <= 300)`);
  console.log(`  medians: wasm fetched ${med('wasmFetched')}, ready ${med('ready')}, painted after ready ${med('painted')}`);
}

async function benchPage(browser, base, query, timeout) {
  const { page, errors } = await openPage(browser);
  await page.goto(`${base}www/bench.html?${query}`);
  await page.waitForSelector('[data-testid="bench-result"][data-done]', { state: 'attached', timeout });
  const result = JSON.parse(await page.textContent('[data-testid="bench-result"]'));
  await page.context().close();
  if (result.error || errors.length) throw new Error(`bench.html?${query}: ${result.error ?? ''} ${errors.join('; ')}`);
  return result;
}

async function frames(browser, base) {
  const n = env('BENCH_N', 10000);
  const partitions = env('BENCH_PARTITIONS', 100);
  const seconds = env('BENCH_SECONDS', 5);
  const fresh = process.env.BENCH_FRESH === '1';
  const r = await benchPage(browser, base, `mode=frames&n=${n}&partitions=${partitions}&seconds=${seconds}${fresh ? '&fresh=1' : ''}`, 180000);
  console.log(`frames: ${r.waiting.toLocaleString('en')} acks=all requests waiting over ${r.partitions} partitions, playing at 1x for ${r.seconds} s (${r.sim_ms_played} simulated ms)${fresh ? ', a fresh snapshot every frame' : ''}`);
  console.log(`  sim + render per frame: median ${r.sim_render_ms_median} ms, p95 ${r.sim_render_ms_p95} ms, max ${r.sim_render_ms_max} ms (goal: median <= 8); ${r.fps} fps (frame interval median ${r.frame_interval_ms_median} ms)`);
  console.log(`  mean ms per frame by part: ${Object.entries(r.mean_ms_per_frame).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  console.log(`  one draw of each view on the last snapshot (ms): ${Object.entries(r.view_ms_once).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  console.log(`  (sending the ${r.waiting.toLocaleString('en')} requests took ${r.send_ms} ms)`);
}

/** The frame bench with a what-if's second run beside the first, both with every request waiting. */
async function compareFrames(browser, base) {
  const n = env('BENCH_N', 10000);
  const partitions = env('BENCH_PARTITIONS', 100);
  const seconds = env('BENCH_SECONDS', 5);
  const change = 'timeout_ms=500000'; // both runs keep every request waiting
  const r = await benchPage(browser, base, `mode=frames&n=${n}&partitions=${partitions}&seconds=${seconds}&compare=${encodeURIComponent(change)}`, 300000);
  console.log(`compare: two runs side by side (${change}), ${r.waiting.toLocaleString('en')} and ${r.waiting_b.toLocaleString('en')} acks=all requests waiting over ${r.partitions} partitions, playing at 1x for ${r.seconds} s`);
  console.log(`  both runs + both renders per frame: median ${r.sim_render_ms_median} ms, p95 ${r.sim_render_ms_p95} ms, max ${r.sim_render_ms_max} ms (goal: median <= 8); ${r.fps} fps`);
  console.log(`  mean ms per frame by part: ${Object.entries(r.mean_ms_per_frame).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  console.log(`  seek in the comparison: median ${r.seek_ms_median} ms, max ${r.seek_ms_max} ms (goal: median <= 50); opening the comparison (whatIf + the second run): ${r.compare_start_ms} ms`);
}

/**
 * Kafka's purgatory workload, native and wasm replays interleaved: each round replays the same
 * schedule once on every side (the order turning from round to round), so the machine's drift,
 * which swings by half within a minute when shared, weighs on both sides of a round alike. The
 * ratio reported is the median of the rounds' own wasm/native ratios. A first replay of each side
 * is not counted (the first wasm replay grows memory and tiers up, about 0.5 s slower).
 */
async function workload(browser, base) {
  if (!existsSync(path.join(SERVE_ROOT, 'www/bench-pkg/purgatory_playground_bg.wasm'))) {
    throw new Error('www/bench-pkg is missing: run scripts/build-wasm.sh --bench first');
  }
  const requests = env('BENCH_REQUESTS', 6000000);
  const rounds = env('BENCH_ROUNDS', 7);
  const sides = [await nativeWorkload(requests), await wasmWorkload(browser, base, 'shipped', requests)];
  // The build that is not shipped, when it has been built (`scripts/build-wasm.sh --bench-z`),
  // in the same rounds: what the smaller module would cost in speed.
  const alt = path.join(SERVE_ROOT, 'www/bench-pkg-z/purgatory_playground_bg.wasm');
  if (existsSync(alt)) sides.push(await wasmWorkload(browser, base, 'opt-level z', requests, 'z'));
  const ms = Object.fromEntries(sides.map((s) => [s.name, []]));
  const phases = Object.fromEntries(sides.map((s) => [s.name, []]));
  const outcomes = new Set();
  try {
    for (const side of sides) outcomes.add((await side.replay()).outcome);
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < sides.length; k++) {
        const side = sides[(round + k) % sides.length];
        const r = await side.replay();
        ms[side.name].push(r.ms);
        phases[side.name].push(r.phases);
        outcomes.add(r.outcome);
      }
    }
  } finally {
    for (const side of sides) await side.close();
  }
  const native = ms.native;
  console.log(`purgatory workload, ${requests.toLocaleString('en')} requests, ${rounds} rounds, each replaying once on every side:`);
  console.log(`  native ms: ${native.join(', ')} (median ${median(native).toFixed(0)})`);
  for (const side of sides.slice(1)) {
    const wasm = ms[side.name];
    const ratios = wasm.map((w, i) => w / native[i]);
    const gz = side.name === 'shipped' ? '' : `, ${gzipSync(readFileSync(alt), { level: 9 }).length.toLocaleString('en')} B gzipped with the workload, not shipped`;
    console.log(`  ${side.name} wasm${gz}: ms ${wasm.map((x) => x.toFixed(0)).join(', ')} (median ${median(wasm).toFixed(0)})`);
    console.log(`    wasm/native by round: ${ratios.map((x) => x.toFixed(2)).join(', ')}; median ${median(ratios).toFixed(2)}x${side.name === 'shipped' ? ' (goal <= 1.5x)' : ''}; ratio of the medians ${(median(wasm) / median(native)).toFixed(2)}x`);
  }
  // Where the time goes: each phase of a replayed millisecond, median ms over the rounds, and
  // the shipped build's ratio to native code in each.
  const PHASES = ['expire+purge', 'arrive', 'complete']; // workload::replay_timed's order
  const medianPhase = (name, k) => median(phases[name].map((p) => p[k]));
  for (const side of sides) {
    const parts = PHASES.map((p, k) => `${p} ${medianPhase(side.name, k).toFixed(0)}${side.name === 'native' ? '' : ` (${(medianPhase(side.name, k) / medianPhase('native', k)).toFixed(2)}x)`}`);
    console.log(`  phases, ${side.name} (median ms${side.name === 'native' ? '' : ', x native'}): ${parts.join(', ')}`);
  }
  console.log(`  outcome (completed expired pending_sum pending_max steady_ms): ${outcomes.size === 1 ? `the same on every replay, ${[...outcomes][0]}` : `DIFFERS: ${[...outcomes].join(' / ')}`}`);
  if (outcomes.size !== 1) process.exitCode = 1;
}

/**
 * The story clock (issue 11): s03 played at the default speed (auto) from 0 to its end, the wall
 * time, and each hold (the simulated instant the clock stayed on for over half a second, and how
 * long). Goal: end to end in <= 60 s, each key moment >= 2 s on screen.
 */
async function clock(browser, base) {
  const { page, context } = await openPage(browser);
  await page.goto(`${base}?scenario=s03-stalled-follower-completes-at-isr-shrink`);
  await page.waitForSelector('purgatory-playground[ready]', { state: 'attached' });
  const r = await page.evaluate(() => new Promise((resolve) => {
    const el = document.querySelector('purgatory-playground');
    const holds = [];
    let last = el.nowMs;
    let since = performance.now();
    const t0 = performance.now();
    const tick = () => {
      if (el.nowMs !== last) {
        if (performance.now() - since > 500) holds.push([last, Math.round(performance.now() - since)]);
        last = el.nowMs;
        since = performance.now();
      }
      requestAnimationFrame(tick);
    };
    el.addEventListener('end', () => resolve({ wall: Math.round(performance.now() - t0), holds }), { once: true });
    el.play();
    requestAnimationFrame(tick);
  }));
  await context.close();
  console.log(`story clock: s03 at the default speed, 0 to its end in ${r.wall} ms of wall time (goal <= 60,000)`);
  console.log(`  holds (simulated ms: wall ms): ${r.holds.map(([at, ms]) => `${at}: ${ms}`).join(', ')} (goal >= 2,000 at each key moment)`);
}

async function boundary(browser, base) {
  if (!existsSync(path.join(SERVE_ROOT, 'www/bench-pkg/purgatory_playground_bg.wasm'))) {
    throw new Error('www/bench-pkg is missing: run scripts/build-wasm.sh --bench first');
  }
  const waiting = env('BENCH_WAITING', 1000);
  const r = await benchPage(browser, base, `mode=boundary&waiting=${waiting}&reps=200`, 300000);
  console.log(`boundary, ${waiting.toLocaleString('en')} requests waiting, median of ${r.reps} calls each:`);
  console.log(`  snapshot: JSON text ${r.snapshot_text_ms} ms, serde-wasm-bindgen object ${r.snapshot_object_ms} ms`);
  console.log(`  takeEvents (${r.events_per_batch} events a batch): JSON text ${r.events_text_ms} ms, serde-wasm-bindgen object ${r.events_object_ms} ms`);
}

/**
 * The Phases view sweeping a curated scenario's ISR-check period on the full page, in its frames:
 * the wall time to all phases, and meanwhile the script time of each animation frame (every rAF
 * callback of the frame timed, the element's clock loop included) and the time between frames
 * (the sweep runs in tasks between them: a frame it delays shows there).
 */
async function phases(browser, base) {
  const playing = process.env.BENCH_PHASES_PLAYING === '1';
  const names = process.env.BENCH_PHASES?.split(',') ?? ['x12-stalled-follower-race-on-kafka-defaults', 's10-multi-partition-request', 's13-idle-stalled-follower-never-shrinks'];
  for (const name of names) {
    const { page, context, errors } = await openPage(browser, { viewport: { width: 1280, height: 900 } });
    await page.addInitScript(() => {
      const raf = window.requestAnimationFrame.bind(window);
      window.__frameMs = [];
      window.__frameTs = [];
      let frame = null;
      window.requestAnimationFrame = (cb) => raf((ts) => {
        if (frame?.ts !== ts) {
          if (frame) window.__frameMs.push(frame.ms);
          frame = { ts, ms: 0 };
          window.__frameTs.push(ts);
        }
        const t = performance.now();
        try { cb(ts); } finally { frame.ms += performance.now() - t; }
      });
    });
    await page.goto(`${base}?scenario=${name}`, { waitUntil: 'load' });
    await page.waitForSelector('purgatory-playground[ready]', { state: 'attached', timeout: 30000 });
    const r = await page.evaluate(async (playing) => {
      const el = document.querySelector('purgatory-playground');
      while (!el.app.phases) await new Promise((res) => setTimeout(res, 20));
      el.app.playback.setPlaying(playing); // by default the sweep alone in the frames
      const panel = el.shadowRoot.querySelector('.panel.phases');
      window.__frameMs.length = 0;
      window.__frameTs.length = 0;
      const t0 = performance.now();
      panel.scrollIntoView();
      const progress = () => el.shadowRoot.querySelector('[data-testid="phase-progress"]')?.textContent ?? '';
      // How long a task queued now waits (a timer: input comes before it, so this is the worse case).
      const waits = [];
      while (!/^all /.test(progress())) {
        const t = performance.now();
        await new Promise((res) => setTimeout(res, 0));
        waits.push(performance.now() - t);
      }
      const ts = window.__frameTs;
      return { wall: performance.now() - t0, frames: [...window.__frameMs], gaps: ts.slice(1).map((t, i) => t - ts[i]), waits, text: progress() };
    }, playing);
    await context.close();
    if (errors.length) throw new Error(`phases ${name}: ${errors.join('; ')}`);
    const f = [...r.frames].sort((a, b) => a - b);
    const g = [...r.gaps].sort((a, b) => a - b);
    const w = [...r.waits].sort((a, b) => a - b);
    // A quantile of a sorted list (none when the sweep ended before two frames or one wait).
    const q = (xs, p) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor(p * xs.length))].toFixed(1) : '-');
    console.log(`phases ${name}${playing ? ', playing' : ''}: ${r.text} in ${(r.wall / 1000).toFixed(2)} s wall, ${f.length} frames (${(f.length / (r.wall / 1000)).toFixed(1)} fps); `
      + `script ms a frame: median ${q(f, 0.5)}, p95 ${q(f, 0.95)}, max ${q(f, 1)} (goal <= 8); ms between frames: median ${q(g, 0.5)}, p95 ${q(g, 0.95)}, max ${q(g, 1)}; `
      + `ms a timer waits: median ${q(w, 0.5)}, p99 ${q(w, 0.99)}, max ${q(w, 1)}`);
  }
}

const server = await startServer();
const node = await startNodeServer(SERVE_ROOT);
const browser = await launchBrowser();
try {
  if (ONLY.includes('tti')) {
    for (const [what, base] of [['python3 -m http.server (HTTP/1.0)', server.url], ['scripts/static-server.mjs (HTTP/1.1 keep-alive)', node.url]]) {
      console.log(`time to interactive, / from ${what}`);
      await tti(browser, base);
      console.log(`time to interactive, /?scenario=s03-stalled-follower-completes-at-isr-shrink from ${what}`);
      await tti(browser, `${base}?scenario=s03-stalled-follower-completes-at-isr-shrink`);
    }
  }
  if (ONLY.includes('frames')) await frames(browser, node.url);
  if (ONLY.includes('compare')) await compareFrames(browser, node.url);
  if (ONLY.includes('workload')) await workload(browser, node.url);
  if (ONLY.includes('boundary')) await boundary(browser, node.url);
  if (ONLY.includes('clock')) await clock(browser, node.url);
  if (ONLY.includes('phases')) await phases(browser, node.url);
} finally {
  await browser.close();
  await server.stop();
  await node.stop();
}
