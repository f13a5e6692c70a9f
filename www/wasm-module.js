// The broker model's WebAssembly module: compiled once per page and instantiated once, shared by
// every playground on the page (each has its own `Playground` handle, its own simulation).
//
// A trap (a Rust panic, or running out of memory) leaves the handle that trapped unusable for
// ever, and can leave the instance's memory full. So an instance that trapped is retired: the
// playground that met the trap gets a fresh instance of the same compiled module (`freshModel`)
// and rebuilds its session there; other playgrounds keep theirs until they meet a trap themselves.
//
// The wasm-bindgen glue keeps its instance in module-level variables, so the bundler wraps it in a
// factory (scripts/bundle.mjs, `createBindings`): one call, one independent set of bindings.
import { createBindings } from './pkg/purgatory_playground.js';
import { wasmSource } from 'bundle-files';

let compiled = null;
let shared = null;

/**
 * A page may start compiling the model before this script has even arrived, and leave the promise
 * of the compiled module (or of null, if that failed) here; index.html does, by loading
 * dist/purgatory-playground-early.js (www/compile-early.js) first.
 */
const EARLY = 'purgatoryPlaygroundWasm';

/** The compiled module (fetched and compiled once; inlined bytes in the self-contained build). */
export function compiledModule() {
  if (!compiled) {
    compiled = Promise.resolve(globalThis[EARLY]).then((early) => (early instanceof WebAssembly.Module ? early : compileOwn()));
    compiled.catch(() => { compiled = null; });
  }
  return compiled;
}

/** Fetches (or inflates) the module next to this script and compiles it. */
function compileOwn() {
  return wasmSource().then(async (source) => {
    if (source instanceof Response) {
      if (!source.ok) throw new Error(`could not load the model (${source.url}: HTTP ${source.status})`);
      try {
        return await WebAssembly.compileStreaming(source.clone());
      } catch {
        // A server that does not say application/wasm: compile from the bytes instead.
        return WebAssembly.compile(await source.arrayBuffer());
      }
    }
    return WebAssembly.compile(source);
  });
}

function instantiate(module) {
  const bindings = createBindings();
  const exports = bindings.initSync({ module });
  // `memory`: the instance's linear memory, for the benches' footprint figures.
  return { Playground: bindings.Playground, PhaseSweep: bindings.PhaseSweep, memory: exports.memory, retired: false };
}

/** The page's shared model: `{Playground, PhaseSweep, memory, retired}`. */
export async function sharedModel() {
  const module = await compiledModule();
  if (!shared || shared.retired) shared = instantiate(module);
  return shared;
}

/** A fresh instance for a playground whose instance trapped; the old one is retired. */
export async function freshModel(old) {
  if (old) old.retired = true;
  const module = await compiledModule();
  const model = instantiate(module);
  if (!shared || shared.retired) shared = model;
  return model;
}

/**
 * Whether an exception from a handle means the instance trapped (not a refused argument): a
 * WebAssembly trap, or wasm-bindgen's own words for a handle left unusable, which begin its
 * message. A refusal begins with the path it names and may quote the person's text (an id
 * "unreachable"), so only the start of a message counts.
 */
export function isTrap(err) {
  if (err instanceof WebAssembly.RuntimeError) return true;
  const text = String(err && err.message ? err.message : err);
  return /^(recursive use of an object|null pointer passed to rust)/i.test(text);
}
