// Frame-rate bench: the full page with N acks=all requests waiting (both followers paused), the
// clock playing at 1x, frames counted for a few seconds. ?n=1000&seconds=5
import { loadPlayground } from './wasm-module.js';
import { PlaygroundApp } from './app.js';
import { PAGE_DEFAULTS } from './layout.js';
import { sliderFromSpeed } from './clock.js';

const params = new URLSearchParams(location.search);
const n = Number(params.get('n') ?? 1000);
const seconds = Number(params.get('seconds') ?? 5);
const out = document.querySelector('[data-testid="bench-result"]');

const Playground = await loadPlayground();
const app = new PlaygroundApp(document.getElementById('app'), Playground);
app.load({ setup: { ...PAGE_DEFAULTS, config: { ...PAGE_DEFAULTS.config, request_timeout_ms: 600000 } } });
app.command({ action: 'pause_follower', broker: 1 });
app.command({ action: 'pause_follower', broker: 2 });
app.sim.advance(600); // the parked fetches come back; nothing else will move the HW
app.ingest();
app.$('[name=burst]').value = String(n);
app.produce(n);
const speed = app.$('[data-testid="speed"]');
speed.value = String(sliderFromSpeed(1));
speed.dispatchEvent(new Event('input'));
app.start();
app.togglePlay();
const waiting = app.sim.snapshot().requests_waiting;
window.__app = app; // for profiling from the bench driver

let frames = 0;
let worst = 0;
let last = null;
const t0 = performance.now();
await new Promise((resolve) => {
  const tick = (ts) => {
    if (last !== null) worst = Math.max(worst, ts - last);
    last = ts;
    frames++;
    if (ts - t0 < seconds * 1000) requestAnimationFrame(tick); else resolve();
  };
  requestAnimationFrame(tick);
});
const elapsed = (performance.now() - t0) / 1000;
const result = { waiting, frames, seconds: Number(elapsed.toFixed(2)), fps: Number((frames / elapsed).toFixed(1)), worst_frame_ms: Number(worst.toFixed(1)), sim_now_ms: app.sim.nowMs };
out.textContent = JSON.stringify(result);
out.dataset.done = 'true';
