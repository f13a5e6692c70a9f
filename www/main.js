// Boots the page: instantiates the wasm module once, mounts one playground in #app, loads
// ?scenario=NAME if given, and marks the page ready for tests ([data-testid="ready"]).
import { loadPlayground } from './wasm-module.js';
import { PlaygroundApp } from './app.js';
import { PAGE_DEFAULTS } from './layout.js';

async function boot() {
  const root = document.getElementById('app');
  const Playground = await loadPlayground();
  const app = new PlaygroundApp(root, Playground);
  const name = new URLSearchParams(location.search).get('scenario');
  let loaded = false;
  if (name) loaded = await app.loadScenario(name, false);
  if (!loaded) {
    const err = app.load({ setup: PAGE_DEFAULTS });
    if (err) throw new Error(err);
    if (name) app.$('.scenario-error').textContent ||= `Could not load scenario "${name}".`;
  }
  app.start();
  const ready = document.createElement('span');
  ready.dataset.testid = 'ready';
  ready.hidden = true;
  document.body.append(ready);
  performance.mark('playground-ready');
}

boot().catch((err) => {
  const el = document.getElementById('app');
  el.innerHTML = `<p class="error" role="alert">The playground could not start: ${String(err.message ?? err).replace(/</g, '&lt;')}</p>`;
  console.error(err);
});
