// Boots the page: instantiates the wasm module once, mounts one playground in #app, loads
// ?scenario=NAME if given, and marks the page ready for tests ([data-testid="ready"]).
//
// Time to interactive is mostly waiting: the .wasm download and compile (streamed, preloaded by
// index.html) and, with ?scenario=, the scenario file. Both start at once here, so neither waits
// for the other. The performance marks `wasm-instantiated`, `first-frame`, `playground-ready` and
// `first-paint-after-ready`
// let e2e/bench.mjs say where the time goes.
import { loadPlayground } from './wasm-module.js';
import { PlaygroundApp } from './app.js';
import { PAGE_DEFAULTS } from './layout.js';
import { fetchScenario } from './scenarios.js';

async function boot() {
  const root = document.getElementById('app');
  const name = new URLSearchParams(location.search).get('scenario');
  const scenarioText = name ? fetchScenario(name) : null;
  scenarioText?.catch(() => {}); // reported by loadScenario, not as an unhandled rejection
  const Playground = await loadPlayground();
  performance.mark('wasm-instantiated');
  const app = new PlaygroundApp(root, Playground);
  let loaded = false;
  if (name) loaded = await app.loadScenario(name, false, scenarioText);
  if (!loaded) {
    const err = app.load({ setup: PAGE_DEFAULTS });
    if (err) throw new Error(err);
    if (name) app.$('.scenario-error').textContent ||= `Could not load scenario "${name}".`;
  }
  performance.mark('first-frame');
  app.start();
  const ready = document.createElement('span');
  ready.dataset.testid = 'ready';
  ready.hidden = true;
  document.body.append(ready);
  performance.mark('playground-ready');
  // After the next frame is drawn: what a person sees, for e2e/bench.mjs.
  requestAnimationFrame(() => setTimeout(() => performance.mark('first-paint-after-ready')));
}

boot().catch((err) => {
  const el = document.getElementById('app');
  el.innerHTML = `<p class="error" role="alert">The playground could not start: ${String(err.message ?? err).replace(/</g, '&lt;')}</p>`;
  console.error(err);
});
