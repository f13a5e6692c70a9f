// Loads and instantiates the wasm module once per page; every playground instance shares it and
// creates its own `Playground` handle (no simulation state lives here).
import init, { Playground } from './pkg/purgatory_playground.js';

let loading = null;

/** Resolves to the `Playground` class once the module is instantiated (only the first call fetches). */
export function loadPlayground() {
  if (!loading) loading = init().then(() => Playground);
  return loading;
}
